/**
 * `sagasu search QUERY [--index NAME] [--type xlsx|docx|pptx|excel|word|powerpoint] [--limit N] [--json]`
 * (SPEC §6; issue 6): hits grouped by file — `index  path  location` and
 * its snippet, then the file's other locations with theirs — files best
 * first; `--json` prints the hits as a JSON array for scripts (fields of
 * SearchHit: index, path, part, locator, loc, location, text, snippet).
 *
 * @module
 */
import { type Settings, defaultSettings, fileTypeAliases } from "@sagasu/domain"
import { type SearchHit, checkWorkFolder, readSettings, searchIndex } from "@sagasu/store"
import { Console, Effect, Option } from "effect"

/** Options of {@link searchCommand}, as main.ts parses them. */
export interface SearchCommandOptions {
  /** Print a JSON array of hits (fields of SearchHit) instead of text. */
  readonly json: boolean
  /** At most this many hits (lines). */
  readonly limit: number
  /** Only this index. */
  readonly index: Option.Option<string>
  /** Only this file type: an extension or `excel`, `word`, `powerpoint`. */
  readonly type: Option.Option<string>
}

const color = process.stdout.isTTY === true && process.env.NO_COLOR === undefined
const hl = (s: string) => (color ? s.replace(/【([^】]*)】/g, "\x1b[1;33m$1\x1b[0m") : s)
const dim = (s: string) => (color ? `\x1b[2m${s}\x1b[0m` : s)
const bold = (s: string) => (color ? `\x1b[1m${s}\x1b[0m` : s)

const text = (language: Settings["language"]) =>
  language === "en"
    ? {
      none: (q: string) => `No hits for "${q}".`,
      count: (n: number, more: boolean) => `${n}${more ? "+" : ""} hits${more ? " (raise --limit for more)" : ""}`,
      scanned: "The search index is not built yet; the body index was scanned (run `sagasu index`).",
      badLimit: "--limit must be 1 or more.",
      badType: (t: string) => `Unknown --type "${t}": use an extension such as xlsx, docx, pptx, or excel, word, powerpoint.`
    }
    : {
      none: (q: string) => `「${q}」は見つかりませんでした。`,
      count: (n: number, more: boolean) => `${n}${more ? " 件以上" : " 件"}${more ? "（--limit で増やせます）" : ""}`,
      scanned: "検索用の索引がまだ無いため、本文インデックスを順に調べました（sagasu index で作られます）。",
      badLimit: "--limit には 1 以上を指定してください。",
      badType: (t: string) => `--type "${t}" は使えません。xlsx、docx、pptx などの拡張子か、excel、word、powerpoint を指定してください。`
    }

/** Hits grouped by file, keeping the order of the first hit of each file (best first). */
export function groupByFile(hits: ReadonlyArray<SearchHit>): Array<{ index: string; path: string; hits: Array<SearchHit> }> {
  const groups = new Map<string, { index: string; path: string; hits: Array<SearchHit> }>()
  for (const h of hits) {
    const key = `${h.index}\u0000${h.path}`
    const g = groups.get(key) ?? { index: h.index, path: h.path, hits: [] }
    g.hits.push(h)
    groups.set(key, g)
  }
  return [...groups.values()]
}

/**
 * `sagasu search`: searches the work folder `work` for `query` and prints
 * the hits. A person gets an error message and exit code 1 (no stack trace)
 * when the work folder cannot be used, an option is wrong or the index cannot
 * be read; no hits is not an error.
 */
export const searchCommand = (work: string, query: string, options: SearchCommandOptions) =>
  Effect.gen(function* () {
    const paths = yield* checkWorkFolder(work)
    const settings = yield* readSettings(paths).pipe(Effect.orElseSucceed(() => defaultSettings))
    const t = text(settings.language)
    if (options.limit < 1) return yield* fail(t.badLimit)
    const type = Option.getOrUndefined(options.type)?.trim().toLowerCase().replace(/^\./, "")
    if (type !== undefined && fileTypeAliases[type] === undefined && !/^[a-z0-9]{1,8}$/.test(type)) {
      return yield* fail(t.badType(type))
    }
    const result = yield* searchIndex(paths, query, {
      limit: options.limit,
      ...(Option.isSome(options.index) ? { index: options.index.value } : {}),
      ...(type !== undefined ? { type } : {})
    })
    if (result.engine === "scan" && !options.json) yield* Console.error(dim(t.scanned + (result.problem === "" ? "" : `\n${result.problem}`)))
    if (options.json) {
      yield* Console.log(JSON.stringify(result.hits, null, 2))
      return
    }
    if (result.hits.length === 0) {
      yield* Console.log(t.none(query))
      return
    }
    // One block per file: "index  path  first location", its snippet, then the
    // file's other locations, each with its snippet (the shipped first line kept).
    for (const group of groupByFile(result.hits)) {
      for (const [i, h] of group.hits.entries()) {
        const head = i === 0 ? `${h.index}  ${bold(h.path)}  ${h.location}` : `  ${h.location}`
        yield* Console.log(`${head}\n    ${hl(h.snippet)}`)
      }
    }
    yield* Console.log(dim(t.count(result.hits.length, result.limited)))
  }).pipe(Effect.catchAll((e) => fail(e.message)))

/** Prints an error for a person and sets exit code 1 (no stack trace). */
const fail = (message: string) =>
  Effect.gen(function* () {
    yield* Console.error(message)
    process.exitCode = 1
  })
