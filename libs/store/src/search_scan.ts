/**
 * Search by scanning the body index: every TSV is read and every line
 * matched. Slow on a large index, but needs no gram index: it answers while
 * none has been built yet, and it is the reference the gram index is tested
 * against (SPEC §5 "Search"; issue 6).
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { fileTypeOf, matchLine, normalizeForSearch, parseBodyTsv, passesFilters } from "@sagasu/domain"
import { Effect } from "effect"
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

// `2_b.tsv` before `10_a.tsv`: parts in workbook order.
const byNumber = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true })

// The TSVs of one source file, as paths relative to the index folder.
const filesOfSource = Effect.fn(function* (root: string, source: string) {
  const fs = yield* FileSystem.FileSystem
  const folder = path.join(root, ...source.split("/"))
  if (!(yield* fs.exists(folder))) return []
  return (yield* fs.readDirectory(folder))
    .filter((e) => e.endsWith(".tsv"))
    .sort(byNumber)
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
      : (yield* fs.readDirectory(root, { recursive: true })).filter((e) => e.endsWith(".tsv")).sort(byNumber)
    for (const entry of entries) {
      const source = path.dirname(entry).split(path.sep).join("/")
      if (source === ".") continue
      if (options.cancelled?.() === true || (options.deadline !== undefined && performance.now() > options.deadline)) return done(true)
      yield* Effect.yieldNow()
      const subject = { index: normalizeForSearch(index), path: normalizeForSearch(source), type: fileTypeOf(source) }
      if (!passesFilters(parsed, subject)) continue
      const tsv = parseBodyTsv(yield* fs.readFileString(path.join(root, entry)))
      for (const line of tsv.lines) {
        const spans = matchLine(line.text, parsed)
        if (spans === undefined) continue
        hits.push(hitOf(index, source, path.basename(entry), tsv.locator, line.loc, line.text, spans))
        if (hits.length >= limit) return done(false)
      }
    }
  }
  return done(false)
})
