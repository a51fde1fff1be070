/**
 * The 2-gram round on a thread of its own (R16, S1; issue 20): the store's
 * `openGramRound` run by `worker/gram_worker.ts`, behind the same
 * {@link GramRoundHook} the commander calls. On the commander's thread the
 * round's tokenising and merging held up results and dispatch, so the plain
 * workers sat idle a third of a first run waiting for their next file (a
 * drive's 1,878 files: ingest phase 158 s with the round there, 83 s without
 * it), and a GUI's requests waited behind a round's step.
 *
 * The commander's part is a message per change: after each publish it reads
 * the fresh log's size and sends it, so the round never reads an entry whose
 * change is not made yet (the note comes first, the change, then the size).
 * When the thread cannot start or dies, the round runs in this thread as
 * before, and a `finish` the thread could not answer runs the store's
 * update here: the index ends as it would have.
 *
 * @module
 */
import { NodeContext } from "@effect/platform-node"
import { GramIndexError, type GramRoundOptions, openGramRound, updateGramIndexesOfRound, type WorkPaths } from "@sagasu/store"
import { Deferred, Effect, Either, Schema, type Scope } from "effect"
import * as fs from "node:fs"
import { Worker } from "node:worker_threads"
import type { GramRoundHook, RoundChanges } from "./_run_context.ts"
import { GramAnswer, type GramRequest } from "./worker/_gram_protocol.ts"
import { gramWorkerUrl } from "./worker/worker_bundle.ts"

const decodeAnswer = Schema.decodeUnknownEither(GramAnswer)

/** The thread went away (it could not start, or died) before it answered. */
const gone = { _tag: "gone" } as const
type Reply = GramAnswer | typeof gone

/** Options of {@link gramRoundThread}: the round's own (sizes and timings), and a look at the thread for tests. */
export interface GramRoundThreadOptions {
  /** The round's options (`openGramRound`): the builder's budget, the flush interval, the merge factor. */
  readonly round?: Pick<GramRoundOptions, "builderMemoryBytes" | "flushIntervalMs" | "mergeFactor">
  /** Called with the thread once it is started (tests end it to check the fallback). */
  readonly onThread?: (thread: Worker) => void
}

/**
 * Opens the 2-gram round of the work folder `paths` on its own thread; the
 * thread ends with the scope (after `close`, unless `finish` or `close` was
 * called). Never fails: without a thread the round runs in this thread.
 */
export const gramRoundThread = (paths: WorkPaths, options: GramRoundThreadOptions = {}): Effect.Effect<GramRoundHook, never, Scope.Scope> =>
  Effect.gen(function* () {
    const url = yield* Effect.promise(gramWorkerUrl)
    const worker = yield* Effect.try(() => new Worker(url)).pipe(Effect.option)
    if (worker._tag === "None") return yield* inThisThread(paths, options)
    const thread = worker.value
    options.onThread?.(thread)
    // Answers come in the order of the requests that want one (open, finish, close).
    const waiting: Array<Deferred.Deferred<Reply>> = []
    let dead = false
    const settleAll = () => {
      dead = true
      for (const d of waiting.splice(0)) Deferred.unsafeDone(d, Effect.succeed(gone))
    }
    thread.on("message", (message: unknown) => {
      const a = decodeAnswer(message)
      const d = waiting.shift()
      if (d !== undefined) Deferred.unsafeDone(d, Effect.succeed(Either.isRight(a) ? a.right : gone))
    })
    thread.on("error", settleAll)
    thread.on("exit", settleAll)
    const ask = (request: GramRequest) =>
      Effect.gen(function* () {
        if (dead) return gone as Reply
        const d = yield* Deferred.make<Reply>()
        waiting.push(d)
        thread.postMessage(request)
        return yield* Deferred.await(d)
      })
    let ended = false
    yield* Effect.addFinalizer(() =>
      Effect.gen(function* () {
        if (!ended) yield* ask({ _tag: "close" })
        yield* Effect.promise(() => thread.terminate())
      })
    )
    const opened = yield* ask({ _tag: "open", root: paths.root, ...(options.round ?? {}) })
    if (opened._tag !== "opened") return yield* inThisThread(paths, options)
    const log = opened.freshLog
    return {
      // S1: after the change, the log's size says how far the round may read.
      noted: Effect.sync(() => {
        if (log === null || dead) return
        const size = fs.statSync(log, { throwIfNoEntry: false })?.size
        if (size !== undefined) thread.postMessage({ _tag: "noted", logBytes: size } satisfies GramRequest)
      }),
      finish: (changes: RoundChanges) =>
        Effect.gen(function* () {
          ended = true
          const reply = yield* ask({ _tag: "finish", published: [...changes.published], removed: [...changes.removed] })
          if (reply._tag === "finished") return reply.summary
          if (reply._tag === "failed") return yield* Effect.fail(new GramIndexError({ reason: reply.reason, path: reply.path, detail: reply.detail }))
          // The thread died: the update here brings the index in line all the same.
          return yield* updateGramIndexesOfRound(paths, changes, options.round).pipe(Effect.provide(NodeContext.layer))
        }),
      close: Effect.gen(function* () {
        if (ended) return
        ended = true
        yield* ask({ _tag: "close" })
      })
    } satisfies GramRoundHook
  })

// The round as it ran before it had a thread: on this one.
const inThisThread = (paths: WorkPaths, options: GramRoundThreadOptions) => openGramRound(paths, options.round)
