/**
 * Searches off the server's event loop (S2): one worker thread
 * (search_worker.ts), started on the first query and ended with the server.
 * A newer query supersedes the one in progress — the thread stops it at its
 * next check and it answers with what it found — and every query has a
 * time budget after which it answers with part of the result, saying so. So
 * `/api/progress` and the page's other requests are answered while a query
 * runs, whatever it costs.
 *
 * @module
 */
import { workerBundleUrl } from "@sagasu/ingest"
import type { HitContext } from "@sagasu/domain"
import type { FileSearchOptions, FileSearchResult } from "@sagasu/store"
import { Data, Effect, type Scope } from "effect"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { Worker } from "node:worker_threads"

/** A query as the thread receives it. */
export interface SearchJob {
  readonly id: number
  /** The value of the shared counter when it was posted: a newer one supersedes it. */
  readonly generation: number
  readonly work: string
  readonly query: string
  /** The page and filters of a file-level search (S5). */
  readonly options: FileSearchOptions
  readonly budgetMs: number
}

/** The thread's answer to one {@link SearchJob}. */
export type SearchReply =
  | {
    readonly id: number
    readonly result: FileSearchResult
    /** `contexts[i][j]`: the context of `result.files[i].locations[j]` (none when it could not be read). */
    readonly contexts: ReadonlyArray<ReadonlyArray<HitContext | undefined>> | undefined
    readonly superseded: boolean
  }
  | { readonly id: number; readonly error: string }

/** The search failed (the index could not be read, the thread died). */
export class SearchThreadError extends Data.TaggedError("SearchThreadError")<{ readonly message: string }> {}

/** What a query of the thread gives: the result, and whether a newer query cut it short. */
export interface ThreadSearch {
  readonly result: FileSearchResult
  /** The context of each file's locations (S5), when it could be read. */
  readonly contexts: ReadonlyArray<ReadonlyArray<HitContext | undefined>> | undefined
  readonly superseded: boolean
}

/** The search thread of a GUI server. */
export interface SearchThread {
  /** Searches `work` for the files holding `query` (a page of them) within `budgetMs`; supersedes any query still running. */
  readonly search: (work: string, query: string, options: FileSearchOptions, budgetMs: number) => Effect.Effect<ThreadSearch, SearchThreadError>
}

const here = path.dirname(fileURLToPath(import.meta.url))

/** Makes the search thread of a server; the thread ends when the scope closes. */
export const makeSearchThread: Effect.Effect<SearchThread, never, Scope.Scope> = Effect.gen(function* () {
  const latest = new Int32Array(new SharedArrayBuffer(4))
  let worker: Worker | undefined
  let nextId = 0
  const pending = new Map<number, (reply: SearchReply) => void>()
  const failAll = (message: string) => {
    for (const [id, resolve] of pending) resolve({ id, error: message })
    pending.clear()
  }
  const start = Effect.promise(() =>
    workerBundleUrl({
      entry: path.join(here, "search_worker.ts"),
      name: "gui-search",
      extraSourceDirs: [here],
      fallback: new URL("./search_worker_boot.mjs", import.meta.url)
    })
  ).pipe(
    Effect.map((url) => {
      const w = new Worker(url, { workerData: { latest: latest.buffer } })
      w.on("message", (reply: SearchReply) => {
        pending.get(reply.id)?.(reply)
        pending.delete(reply.id)
      })
      // A thread that dies takes its queries with it; the next query starts a new one.
      w.on("error", (e) => {
        if (worker === w) worker = undefined
        failAll(e.message)
      })
      w.on("exit", (code) => {
        if (worker === w) worker = undefined
        failAll(`the search thread ended (${code})`)
      })
      return w
    })
  )
  yield* Effect.addFinalizer(() =>
    Effect.promise(async () => {
      const w = worker ?? (await starting?.catch(() => undefined))
      worker = undefined
      await w?.terminate()
    })
  )
  // Started now, in the background: the first query must not wait for the thread's bundle to be built.
  let starting: Promise<Worker> | undefined
  const ensure = () => {
    if (worker !== undefined) return Promise.resolve(worker)
    starting ??= Effect.runPromise(start).then((w) => {
      worker = w
      starting = undefined
      return w
    }, (e: unknown) => {
      starting = undefined
      throw e
    })
    return starting
  }
  void ensure().catch(() => undefined)
  const search = (work: string, query: string, options: FileSearchOptions, budgetMs: number) =>
    Effect.gen(function* () {
      const w = yield* Effect.tryPromise({ try: ensure, catch: (e) => new SearchThreadError({ message: `the search thread did not start: ${String(e)}` }) })
      const id = nextId++
      const generation = Atomics.add(latest, 0, 1) + 1
      const reply = yield* Effect.async<SearchReply>((resume) => {
        pending.set(id, (r) => resume(Effect.succeed(r)))
        w.postMessage({ id, generation, work, query, options, budgetMs } satisfies SearchJob)
      })
      if ("error" in reply) return yield* Effect.fail(new SearchThreadError({ message: reply.error }))
      return { result: reply.result, contexts: reply.contexts, superseded: reply.superseded }
    })
  return { search }
})
