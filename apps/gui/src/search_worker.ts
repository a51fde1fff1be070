/**
 * The GUI's search thread (S2: a search never stops the process that runs
 * it from answering anything else): runs each query the server posts as a
 * file-level search (S5: a page of files and the totals), within its time
 * budget, and stops early when
 * the server marks it superseded by a newer query (a counter in shared
 * memory). Started by search_thread.ts; keeps the gram index's segments
 * open between queries while the manifest stays the same (only the fresh
 * tail is read again), and falls back to the store's `searchIndexFiles`
 * (the scan, a damaged index's message) when there is no usable index.
 * The totals past the page are counted for {@link countBudgetMs} at most,
 * then shown as lower bounds (以上), as the CLI does: counting every hit of
 * a common word must not hold the page back.
 *
 * @module
 */
import type { HitContext } from "@sagasu/domain"
import { type FileHit, type FileSearchResult, GramSearcher, hitContexts, workPaths, WorkStore } from "@sagasu/store"
import { Effect } from "effect"
import { parentPort, workerData } from "node:worker_threads"
import type { SearchJob, SearchReply } from "./search_thread.ts"

const port = parentPort
if (port === null) throw new Error("search_worker.ts runs as a worker thread")
const latest = new Int32Array((workerData as { readonly latest: SharedArrayBuffer }).latest)

let searcher: GramSearcher | undefined

/**
 * Milliseconds from a search's start after which its totals stop being
 * counted (the page is not affected), as in the CLI: counting a common
 * word's every hit took 150 ms and more on a 200 MiB index, where the page
 * itself took 15 ms at the median (docs/benchmarks.md "Search").
 */
export const countBudgetMs = 50

let currentGeneration = 0

/**
 * Between queries, the fresh tail is sieved ahead (S2): a run publishes a few
 * MB of text a second, and a query that meets it first reads and normalises
 * it itself (the better part of a query's time while ingesting). For a
 * minute after a query (someone is searching; nobody searching costs
 * nothing), every {@link warmEveryMs} ms, in slices of {@link warmSliceMs} ms
 * with the thread free between them for the next query.
 */
export const warmSliceMs = 15
export const warmEveryMs = 100
const warmForMs = 60_000
let lastQueryAt = Number.NEGATIVE_INFINITY
let warmPaths: ReturnType<typeof workPaths> | undefined
let warming: ReturnType<typeof setTimeout> | undefined

// One slice; `fresh`: the first of a round, which looks for what was published since (the searcher reopened).
const warm = (fresh: boolean) => {
  warming = undefined
  if (warmPaths === undefined || performance.now() - lastQueryAt > warmForMs) return
  let done = true
  try {
    if (fresh) searcher = GramSearcher.reopen(warmPaths, searcher)
    done = searcher === undefined || searcher.warmFresh(performance.now() + warmSliceMs)
  } catch {
    searcher = undefined
  }
  warming = done ? setTimeout(warm, warmEveryMs, true) : setTimeout(warm, 0, false)
}

port.on("message", (job: SearchJob) => {
  currentGeneration = job.generation
  lastQueryAt = performance.now()
  const paths = workPaths(job.work)
  warmPaths = paths
  if (warming === undefined) warming = setTimeout(warm, warmEveryMs, true)
  const cancelled = () => Atomics.load(latest, 0) !== job.generation
  try {
    searcher = GramSearcher.reopen(paths, searcher)
    if (searcher !== undefined) {
      const now = performance.now()
      const outcome = searcher.searchFiles(job.query, { ...job.options, countDeadline: now + countBudgetMs }, { deadline: now + job.budgetMs, cancelled })
      const result: FileSearchResult = { ...outcome, engine: "gram", problem: "" }
      port.postMessage({ id: job.id, result, contexts: contextsOf(paths, result.files), superseded: cancelled() } satisfies SearchReply)
      return
    }
  } catch {
    // Damaged or gone meanwhile: the store's search says what is wrong, or scans.
    searcher = undefined
  }
  void Effect.runPromise(
    WorkStore.searchIndexFiles(paths, job.query, { ...job.options, budgetMs: job.budgetMs, countBudgetMs, cancelled }).pipe(
      Effect.map((result): SearchReply => ({ id: job.id, result, contexts: contextsOf(paths, result.files), superseded: cancelled() })),
      Effect.catchAll((e) => Effect.succeed<SearchReply>({ id: job.id, error: e.message })),
      Effect.catchAllDefect((d) => Effect.succeed<SearchReply>({ id: job.id, error: String(d) })),
      Effect.provide(WorkStore.Default)
    )
  ).then((reply) => port.postMessage(reply))
})

/**
 * The context of the page's hits (S5: a cell's headings, a paragraph's
 * neighbours, a slide's title), read from the body index here, off the
 * server's thread; none when a newer query came meanwhile or the reading
 * fails (the page still shows its hits).
 */
function contextsOf(paths: ReturnType<typeof workPaths>, files: ReadonlyArray<FileHit>): ReadonlyArray<ReadonlyArray<HitContext | undefined>> | undefined {
  if (Atomics.load(latest, 0) !== currentGeneration) return undefined
  try {
    return hitContexts(paths, files)
  } catch {
    return undefined
  }
}
