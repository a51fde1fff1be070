/**
 * Search by scanning the body index: every TSV is read and every line
 * matched. Slow on a large index, but needs no gram index: it answers while
 * none has been built yet, and it is the reference the gram index is tested
 * against (SPEC §5 "Search"; issue 6).
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { compareTsvFileNames, fileTypeOf, matchLine, normalizeForSearch, parseBodyTsv, parseSearchQuery, parseSourceStamp, passesFilters, resolveFileType, termCount } from "@sagasu/domain"
import { Effect, Option } from "effect"
import { stagingCompleteMark } from "./gram/body_walk.ts"
import { type DecidedFile, type FileSearchOptions, type FileSearchOutcome, decideParts } from "./gram/file_search.ts"
import type { FreshPart } from "./gram/fresh_doc.ts"
import * as path from "node:path"
import { queryWithOptions } from "./gram/searcher.ts"
import { type SearchHit, hitOf } from "./search_hit.ts"
import type { WorkPaths } from "./work_paths.ts"

export { formatLocation, type SearchHit } from "./search_hit.ts"

/** Options of {@link scanBodyIndex}. */
export interface ScanOptions {
  /** Only this index. */
  readonly index?: string
  /** Only the source file at this path (relative, `/`-separated); needs `index`. */
  readonly path?: string
  /** Only this file type: an extension (`xlsx`) or `excel`, `word`, `powerpoint`. */
  readonly type?: string
  /** At most this many hits (default 100). */
  readonly limit?: number
  /** Stop once `performance.now()` passes this (S2). */
  readonly deadline?: number
  /** Stop as soon as this returns true. */
  readonly cancelled?: () => boolean
}

// The TSVs of one source file, as paths relative to the index folder.
const filesOfSource = Effect.fn(function* (root: string, source: string) {
  const fs = yield* FileSystem.FileSystem
  const folder = path.join(root, ...source.split("/"))
  if (!(yield* fs.exists(folder))) return []
  return (yield* fs.readDirectory(folder))
    .filter((e) => e.endsWith(".tsv"))
    .sort(compareTsvFileNames)
    .map((e) => path.join(...source.split("/"), e))
})

/**
 * Finds lines of the body index that match `query` (search_query.ts syntax:
 * terms, phrases, exclusions, `index:`/`type:`/`path:` filters), in index,
 * path and TSV order, up to `limit` hits; `partial` when it stopped at its
 * deadline or was cancelled first. Yields between files, so that a server
 * in the same process goes on answering (S2).
 */
export const scanBodyIndex = Effect.fn("Store.scanBodyIndex")(function* (
  paths: WorkPaths,
  query: string,
  options: ScanOptions = {}
) {
  const fs = yield* FileSystem.FileSystem
  const parsed = queryWithOptions(query, { ...(options.index !== undefined ? { index: options.index } : {}), ...(options.type !== undefined ? { type: options.type } : {}) })
  const limit = options.limit ?? 100
  const hits: Array<SearchHit> = []
  const done = (partial: boolean) => ({ hits, partial })
  if (parsed.terms.length === 0 || !(yield* fs.exists(paths.index))) return done(false)
  const indexes = options.index !== undefined ? [options.index] : (yield* fs.readDirectory(paths.index)).sort()
  for (const index of indexes) {
    const root = path.join(paths.index, index)
    if (!(yield* fs.exists(root))) continue
    const entries = options.path !== undefined
      ? yield* filesOfSource(root, options.path)
      : (yield* fs.readDirectory(root, { recursive: true })).filter((e) => e.endsWith(".tsv")).sort(compareTsvFileNames)
    for (const entry of entries) {
      const source = path.dirname(entry).split(path.sep).join("/")
      if (source === ".") continue
      if (options.cancelled?.() === true || (options.deadline !== undefined && performance.now() > options.deadline)) return done(true)
      yield* Effect.yieldNow()
      const subject = { index: normalizeForSearch(index), path: normalizeForSearch(source), type: fileTypeOf(source) }
      if (!passesFilters(parsed, subject)) continue
      const tsv = parseBodyTsv(yield* fs.readFileString(path.join(root, entry)))
      for (const line of tsv.lines) {
        const spans = matchLine(line.text, parsed, line.forms)
        if (spans === undefined) continue
        hits.push(hitOf(index, source, path.basename(entry), tsv.locator, line.loc, line.text, spans))
        if (hits.length >= limit) return done(false)
      }
    }
  }
  return done(false)
})

/**
 * The page of a file-level search made of the files `decided` (in walk
 * order: index, then path), ordered as the scan orders them — more words in
 * the path first, then the files where one location holds every word, then
 * walk order — or newest first (`sort: "modified"`), with the totals over
 * all of them (`exact` unless `partial`). Shared by the scan and the team
 * server's search (issue 18), so both page alike.
 */
export function pageOfDecided(decided: ReadonlyArray<DecidedFile>, options: FileSearchOptions, partial: boolean): FileSearchOutcome {
  const offset = Math.max(0, options.offset ?? 0)
  const limit = Math.max(0, options.limit ?? 20)
  const k = Math.max(0, options.locations ?? 3)
  const order = decided.map((d, n) => ({ d, n }))
  if (options.sort === "modified") order.sort((a, b) => b.d.sortMs - a.d.sortMs || a.n - b.n)
  else {
    // As the gram index's walk: more words in the path first; among files whose path holds none, near ones first.
    const near = (d: DecidedFile) => (d.pathTerms === 0 && d.match.near ? 1 : 0)
    order.sort((a, b) => termCount(b.d.pathTerms) - termCount(a.d.pathTerms) || near(b.d) - near(a.d) || a.n - b.n)
  }
  let hits = 0
  for (const d of decided) hits += d.match.hits
  const files = order.slice(offset, offset + limit).map(({ d }) => ({
    index: d.index, path: d.path, hits: d.match.hits, modifiedMs: d.modifiedMs, size: d.size,
    nameTerms: termCount(d.pathTerms), near: d.match.near, locations: d.show(k)
  }))
  return { files, offset, totals: { hits, files: decided.length, exact: !partial }, more: decided.length > offset + limit, partial }
}

/**
 * The file-level search (S3, S4, S5) by scanning the body index: every
 * source file read whole and decided by the same rules as the gram index's
 * (file_search.ts `decideParts`: the domain's FileMatch), then ordered as it
 * orders them — more words in the path first, then the files where one
 * location holds every word, then index and path order — or by date. The
 * reference the gram index's file-level search is tested against, and the
 * answer while no gram index is built. Stops at `deadline` or when
 * `cancelled` (S2: `partial`, the totals not exact); yields between files.
 */
export const scanBodyIndexFiles = Effect.fn("Store.scanBodyIndexFiles")(function* (
  paths: WorkPaths,
  query: string,
  options: FileSearchOptions & { readonly deadline?: number; readonly cancelled?: () => boolean } = {}
) {
  const fs = yield* FileSystem.FileSystem
  const parsed = parseSearchQuery(query)
  const decided: Array<DecidedFile> = []
  let partial = false
  const outcome = (): FileSearchOutcome => pageOfDecided(decided, options, partial)
  if (parsed.terms.length === 0 || !(yield* fs.exists(paths.index))) return outcome()
  const wanted = options.index === undefined ? undefined : typeof options.index === "string" ? [options.index] : options.index
  const folderPrefix = options.folder === undefined ? "" : normalizeForSearch(options.folder.replace(/\\/g, "/")).replace(/^\/+|\/+$/g, "")
  const types = options.type === undefined ? undefined : new Set((typeof options.type === "string" ? [options.type] : options.type).flatMap((t) => resolveFileType(t) ?? []))
  const indexes = (yield* fs.readDirectory(paths.index)).sort().filter((i) => wanted === undefined || wanted.some((w) => normalizeForSearch(w) === normalizeForSearch(i)))
  for (const index of indexes) {
    const root = path.join(paths.index, index)
    if (!(yield* fs.exists(root))) continue
    const entries = (yield* fs.readDirectory(root, { recursive: true })).filter((e) => e.endsWith(".tsv")).sort(compareTsvFileNames)
    // The TSVs of each source folder, in part order.
    const sources = new Map<string, Array<string>>()
    for (const entry of entries) {
      const source = path.dirname(entry).split(path.sep).join("/")
      if (source === ".") continue
      const list = sources.get(source) ?? []
      list.push(entry)
      sources.set(source, list)
    }
    for (const source of [...sources.keys()].sort()) {
      if (options.cancelled?.() === true || (options.deadline !== undefined && performance.now() > options.deadline)) {
        partial = true
        return outcome()
      }
      yield* Effect.yieldNow()
      if (options.path !== undefined && source !== options.path) continue
      const normPath = normalizeForSearch(source)
      const type = fileTypeOf(source)
      if (types !== undefined && !types.has(type)) continue
      if (folderPrefix !== "" && !normPath.startsWith(folderPrefix + "/")) continue
      if (!passesFilters(parsed, { index: normalizeForSearch(index), path: normPath, type })) continue
      const dir = path.join(root, ...source.split("/"))
      const stampText = yield* fs.readFileString(path.join(dir, stagingCompleteMark)).pipe(Effect.orElseSucceed(() => ""))
      const stamp = parseSourceStamp(stampText)
      const folderInfo = yield* fs.stat(dir)
      const published = Option.getOrElse(Option.map(folderInfo.mtime, (d) => d.getTime()), () => 0)
      const sortMs = stamp?.mtimeMs ?? published
      if (options.modifiedFrom !== undefined && !(sortMs >= options.modifiedFrom)) continue
      if (options.modifiedTo !== undefined && !(sortMs < options.modifiedTo)) continue
      const parts: Array<FreshPart> = []
      for (const entry of sources.get(source) ?? []) {
        const tsv = parseBodyTsv(yield* fs.readFileString(path.join(root, entry)))
        parts.push({ file: path.basename(entry), locator: tsv.locator, lines: tsv.lines })
      }
      const d = decideParts(parsed, index, source, parts, stamp, sortMs)
      if (d.match.matches) decided.push(d)
    }
  }
  return outcome()
})
