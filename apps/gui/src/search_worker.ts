/**
 * The GUI's search thread (S2: a search never stops the process that runs
 * it from answering anything else): runs each query the server posts with
 * the store's `searchIndex`, within its time budget, and stops early when
 * the server marks it superseded by a newer query (a counter in shared
 * memory). Started by search_thread.ts; keeps the gram index's segments
 * open between queries while the manifest stays the same (only the fresh
 * tail is read again), and falls back to the store's `searchIndex` (the
 * scan, a damaged index's message) when there is no usable index.
 *
 * @module
 */
import { NodeContext } from "@effect/platform-node"
import { GramSearcher, type SearchResult, searchIndex, workPaths } from "@sagasu/store"
import { Effect } from "effect"
import { parentPort, workerData } from "node:worker_threads"
import type { SearchJob, SearchReply } from "./search_thread.ts"

const port = parentPort
if (port === null) throw new Error("search_worker.ts runs as a worker thread")
const latest = new Int32Array((workerData as { readonly latest: SharedArrayBuffer }).latest)

let searcher: GramSearcher | undefined

port.on("message", (job: SearchJob) => {
  const cancelled = () => Atomics.load(latest, 0) !== job.generation
  const paths = workPaths(job.work)
  try {
    searcher = GramSearcher.reopen(paths, searcher)
    if (searcher !== undefined) {
      const limit = job.options.limit ?? 100
      const outcome = searcher.searchWithin(job.query, job.options, { deadline: performance.now() + job.budgetMs, cancelled })
      const result: SearchResult = { hits: outcome.hits, engine: "gram", limited: outcome.hits.length >= limit, problem: "", partial: outcome.partial }
      port.postMessage({ id: job.id, result, superseded: cancelled() } satisfies SearchReply)
      return
    }
  } catch {
    // Damaged or gone meanwhile: the store's search says what is wrong, or scans.
    searcher = undefined
  }
  void Effect.runPromise(
    searchIndex(workPaths(job.work), job.query, { ...job.options, budgetMs: job.budgetMs, cancelled }).pipe(
      Effect.map((result): SearchReply => ({ id: job.id, result, superseded: cancelled() })),
      Effect.catchAll((e) => Effect.succeed<SearchReply>({ id: job.id, error: e.message })),
      Effect.catchAllDefect((d) => Effect.succeed<SearchReply>({ id: job.id, error: String(d) })),
      Effect.provide(NodeContext.layer)
    )
  ).then((reply) => port.postMessage(reply))
})
