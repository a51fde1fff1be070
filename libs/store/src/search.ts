/**
 * The search entry points (SPEC §5 "Search", §6 `sagasu search`; issue 6):
 * the gram index when one is built, the scanning search otherwise.
 *
 * @module
 */
import { Effect, Option } from "effect"
import { GramFileError, GramIndexError } from "./gram/manifest.ts"
import type { FileSearchOptions, FileSearchOutcome } from "./gram/file_search.ts"
import { GramSearcher, type SearchOptions } from "./gram/searcher.ts"
import type { SearchHit } from "./search_hit.ts"
import { scanBodyIndex, scanBodyIndexFiles } from "./search_scan.ts"
import type { WorkPaths } from "./work_paths.ts"


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
  /** The search stopped at its time budget (or was cancelled): there may be hits it did not see (S2). */
  readonly partial: boolean
}

/** How long a search may take and how it learns that it is no longer wanted (S2). */
export interface SearchBudget {
  /** Answer with what was found after this many milliseconds (default: no limit). */
  readonly budgetMs?: number
  /** Answer at once with what was found when this returns true (a newer query came). */
  readonly cancelled?: () => boolean
}

const open = (paths: WorkPaths) =>
  Effect.try({
    try: () => GramSearcher.open(paths),
    catch: (e) =>
      e instanceof GramFileError
        ? new GramIndexError({ reason: "index-unreadable", path: e.path, detail: e.detail })
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
  options: SearchOptions & SearchBudget = {}
) {
  const limit = options.limit ?? 100
  const control = budgetControl(options, performance.now())
  return yield* gramOrScan(
    paths,
    (s): SearchResult => {
      const outcome = s.searchWithin(query, { ...options, limit }, control)
      return { hits: outcome.hits, engine: "gram", limited: outcome.hits.length >= limit, problem: "", partial: outcome.partial }
    },
    (problem) =>
      Effect.map(
        scanBodyIndex(paths, query, { ...options, limit, ...control }),
        (scanned): SearchResult => ({ hits: scanned.hits, engine: "scan", limited: scanned.hits.length >= limit, problem, partial: scanned.partial })
      )
  )
})

/** The deadline and cancel test of a search started at `started` (`performance.now()`) with `options`' budget. */
const budgetControl = (options: SearchBudget, started: number): { readonly deadline?: number; readonly cancelled?: () => boolean } => ({
  ...(options.budgetMs !== undefined ? { deadline: started + options.budgetMs } : {}),
  ...(options.cancelled !== undefined ? { cancelled: options.cancelled } : {})
})

/**
 * One search through the gram index when there is a usable one (`gram`
 * with the open searcher, closed after; its throw is a GramIndexError), else
 * by `scan`, told why the index could not be used (`""` when there is none
 * yet).
 */
const gramOrScan = <A, B, E, R>(paths: WorkPaths, gram: (s: GramSearcher) => A, scan: (problem: string) => Effect.Effect<B, E, R>) =>
  Effect.gen(function* () {
    const searcher = yield* open(paths).pipe(Effect.either)
    if (searcher._tag === "Right" && searcher.right !== undefined) {
      const s = searcher.right
      return yield* Effect.try({
        try: (): A | B => gram(s),
        catch: (e) => new GramIndexError({ reason: "index-unreadable", path: paths.gram, detail: e instanceof Error ? e.message : String(e) })
      }).pipe(Effect.ensuring(Effect.sync(() => s.close())))
    }
    return yield* scan(searcher._tag === "Left" ? searcher.left.message : "")
  })

/** What a file-level search found (S5) and how: the page, the totals, and the engine as in {@link SearchResult}. */
export interface FileSearchResult extends FileSearchOutcome {
  readonly engine: "gram" | "scan"
  /** Why the gram index could not be used, when it could not (`""` otherwise). */
  readonly problem: string
}

/** How long a file-level search may count its totals past its page (default: within its budget). */
export interface CountBudget {
  /** Stop counting the totals this many milliseconds after the search started (the page is not affected). */
  readonly countBudgetMs?: number
}

/**
 * The file-level search of the work folder `paths` (S3, S4, S5; issue 14):
 * each file holding every word of `query` once, with its best located hits,
 * the page `offset`/`limit`, the totals — from the gram index when there is
 * a usable one, else by scanning the body index. Fails with GramIndexError
 * only when a gram search hits an I/O error midway; the scan fails with the
 * platform's errors.
 */
export const searchIndexFiles = Effect.fn("Store.searchIndexFiles")(function* (
  paths: WorkPaths,
  query: string,
  options: FileSearchOptions & SearchBudget & CountBudget = {}
) {
  const started = performance.now()
  const countDeadline = options.countBudgetMs === undefined ? undefined : started + options.countBudgetMs
  const control = budgetControl(options, started)
  return yield* gramOrScan(
    paths,
    (s): FileSearchResult => ({
      ...s.searchFiles(query, { ...options, ...(countDeadline !== undefined ? { countDeadline } : {}) }, control),
      engine: "gram",
      problem: ""
    }),
    (problem) => Effect.map(scanBodyIndexFiles(paths, query, { ...options, ...control }), (scanned): FileSearchResult => ({ ...scanned, engine: "scan", problem }))
  )
})
