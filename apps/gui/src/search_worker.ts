/**
 * The GUI's search thread (S2: a search never stops the process that runs
 * it from answering anything else): runs each query the server posts with
 * the store's `searchIndex`, within its time budget, and stops early when
 * the server marks it superseded by a newer query (a counter in shared
 * memory). Started by search_thread.ts; holds no state between queries but
 * what the page cache keeps warm.
 *
 * @module
 */
import { NodeContext } from "@effect/platform-node"
import { searchIndex, workPaths } from "@sagasu/store"
import { Effect } from "effect"
import { parentPort, workerData } from "node:worker_threads"
import type { SearchJob, SearchReply } from "./search_thread.ts"

const port = parentPort
if (port === null) throw new Error("search_worker.ts runs as a worker thread")
const latest = new Int32Array((workerData as { readonly latest: SharedArrayBuffer }).latest)

port.on("message", (job: SearchJob) => {
  const cancelled = () => Atomics.load(latest, 0) !== job.generation
  void Effect.runPromise(
    searchIndex(workPaths(job.work), job.query, { ...job.options, budgetMs: job.budgetMs, cancelled }).pipe(
      Effect.map((result): SearchReply => ({ id: job.id, result, superseded: cancelled() })),
      Effect.catchAll((e) => Effect.succeed<SearchReply>({ id: job.id, error: e.message })),
      Effect.catchAllDefect((d) => Effect.succeed<SearchReply>({ id: job.id, error: String(d) })),
      Effect.provide(NodeContext.layer)
    )
  ).then((reply) => port.postMessage(reply))
})
