/**
 * The search entry points (SPEC §5 "Search", §6 `sagasu search`; issue 6):
 * the gram index when one is built, the scanning search otherwise.
 *
 * @module
 */
import { Effect, Option } from "effect"
import { GramIndexError } from "./gram/manifest.ts"
import { GramSearcher, type SearchOptions } from "./gram/searcher.ts"
import type { SearchHit } from "./search_hit.ts"
import { scanBodyIndex } from "./search_scan.ts"
import type { WorkPaths } from "./work_folder.ts"

export { GramSearcher, type MatchedLine, queryWithOptions, type SearchOptions } from "./gram/searcher.ts"

/** Hits and how they were found. */
export interface SearchResult {
  /** Best first (gram/searcher.ts), at most `limit`. */
  readonly hits: ReadonlyArray<SearchHit>
  /**
   * `gram`: from the gram index (consistent with its last manifest);
   * `scan`: no usable gram index yet (never built, built by another version,
   * or damaged — see `problem`), so the body index was scanned, in index and
   * path order.
   */
  readonly engine: "gram" | "scan"
  /** `hits` reached `limit`: there may be more. */
  readonly limited: boolean
  /** Why the gram index could not be used, when it could not (`""` otherwise). */
  readonly problem: string
}

const open = (paths: WorkPaths) =>
  Effect.try({
    try: () => GramSearcher.open(paths),
    catch: (e) =>
      e instanceof GramIndexError
        ? e
        : new GramIndexError({ reason: "index-unreadable", path: paths.gram, detail: e instanceof Error ? e.message : String(e) })
  })

/**
 * Opens the gram index of `paths` for many searches (a GUI, the benchmark),
 * closed with the scope. `None` when no usable index exists yet; fails with
 * {@link GramIndexError} (`index-unreadable`) when it is damaged.
 */
export const openGramSearcher = (paths: WorkPaths) =>
  Effect.acquireRelease(
    open(paths).pipe(Effect.map(Option.fromNullable)),
    (s) => Effect.sync(() => Option.map(s, (x) => x.close()))
  )

/**
 * Searches the work folder `paths` for `query` (search_query.ts syntax)
 * with the filters of `options`: from the gram index when there is a usable
 * one, else by scanning the body index. Fails with GramIndexError only when
 * a gram search hits an I/O error midway; the scan fails with the platform's
 * errors.
 */
export const searchIndex = Effect.fn("Store.searchIndex")(function* (
  paths: WorkPaths,
  query: string,
  options: SearchOptions = {}
) {
  const limit = options.limit ?? 100
  const searcher = yield* open(paths).pipe(Effect.either)
  if (searcher._tag === "Right" && searcher.right !== undefined) {
    const s = searcher.right
    const hits = yield* Effect.try({
      try: () => s.search(query, { ...options, limit }),
      catch: (e) => new GramIndexError({ reason: "index-unreadable", path: paths.gram, detail: e instanceof Error ? e.message : String(e) })
    }).pipe(Effect.ensuring(Effect.sync(() => s.close())))
    return { hits, engine: "gram", limited: hits.length >= limit, problem: "" } satisfies SearchResult
  }
  const hits = yield* scanBodyIndex(paths, query, { ...options, limit })
  const problem = searcher._tag === "Left" ? searcher.left.message : ""
  return { hits, engine: "scan", limited: hits.length >= limit, problem } satisfies SearchResult
})
