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
import { GramIndexError, type GramRoundOptions, type WorkPaths, WorkStore } from "@sagasu/store"
import { Deferred, Effect, Either, FiberId, Schema, type Scope } from "effect"
import * as fs from "node:fs"
import { type ResourceLimits, Worker } from "node:worker_threads"
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
  /**
   * Changes noted in the fresh log and not yet read by the round after
   * which the commander waits before it hands over another file (default
   * {@link defaultTailChanges}).
   */
  readonly tailChanges?: number
}

/**
 * How many noted changes (a done file's `~`, a publish's `+`, a removal's
 * `-`) the round may have left unread before the commander stops handing
 * over files until it has read half of them: about 64 files, some seconds of
 * a first run's publishes on two cores. Every search reads the fresh tail's
 * files whole (S1), so the tail must stay short for a search to stay fast
 * (S2): what the round has read goes live within its flush interval or 16
 * MiB of text, what it has not read waits here. With the round on its own
 * thread nothing else held it back: a first run on a busy machine let it
 * fall minutes behind, and probes published 3 minutes before went
 * unanswered within the GUI's budget.
 */
export const defaultTailChanges = 128

/**
 * The heap of the 2-gram thread: a 16 MB young generation, as a plain
 * worker's (`plainWorkerHeap`). The round's builder keeps its tables in
 * typed arrays, outside the young generation, while its tokenising makes
 * short-lived strings fast; with V8's default nursery the thread held
 * ≈ 20 MB more at a corpus run's peak (issue 20: process peak, median of 4,
 * 459 → 438 MB; CPU within the runs' spread).
 */
export const gramThreadHeap: ResourceLimits = { maxYoungGenerationSizeMb: 16 }

/**
 * Opens the 2-gram round of the work folder `paths` on its own thread; the
 * thread ends with the scope (after `close`, unless `finish` or `close` was
 * called). Never fails: without a thread the round runs in this thread.
 */
export const gramRoundThread = (paths: WorkPaths, options: GramRoundThreadOptions = {}): Effect.Effect<GramRoundHook, never, Scope.Scope | WorkStore> =>
  Effect.gen(function* () {
    const store = yield* WorkStore
    // The round as it ran before it had a thread: on this one.
    const inThisThread = () => store.openGramRound(paths, options.round)
    const url = yield* Effect.promise(gramWorkerUrl)
    const worker = yield* Effect.try(() => new Worker(url, { resourceLimits: gramThreadHeap })).pipe(Effect.option)
    if (worker._tag === "None") return yield* inThisThread()
    const thread = worker.value
    options.onThread?.(thread)
    // Answers come in the order of the requests that want one (open, finish, close).
    const waiting: Array<Deferred.Deferred<Reply>> = []
    // The log's size after each change noted and not yet read by the round, oldest first; woken as it reads.
    const notedSizes: Array<number> = []
    const bound = Math.max(2, options.tailChanges ?? defaultTailChanges)
    let progress = Deferred.unsafeMake<void>(FiberId.none)
    const wake = () => {
      const d = progress
      progress = Deferred.unsafeMake<void>(FiberId.none)
      Deferred.unsafeDone(d, Effect.void)
    }
    let dead = false
    let ended = false
    const settleAll = () => {
      dead = true
      for (const d of waiting.splice(0)) Deferred.unsafeDone(d, Effect.succeed(gone))
      wake()
    }
    thread.on("message", (message: unknown) => {
      const a = decodeAnswer(message)
      if (Either.isRight(a) && a.right._tag === "progress") {
        const consumed = a.right.consumedTo
        while (notedSizes.length > 0 && (notedSizes[0] ?? 0) <= consumed) notedSizes.shift()
        wake()
        return
      }
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
    yield* Effect.addFinalizer(() =>
      Effect.gen(function* () {
        if (!ended) yield* ask({ _tag: "close" })
        yield* Effect.promise(() => thread.terminate())
      })
    )
    const opened = yield* ask({ _tag: "open", root: paths.root, ...(options.round ?? {}) })
    if (opened._tag !== "opened") return yield* inThisThread()
    const log = opened.freshLog
    return {
      // S1: after the change, the log's size says how far the round may read.
      noted: Effect.sync(() => {
        if (log === null || dead) return
        const size = fs.statSync(log, { throwIfNoEntry: false })?.size
        if (size === undefined) return
        notedSizes.push(size)
        thread.postMessage({ _tag: "noted", logBytes: size } satisfies GramRequest)
      }),
      // Past the bound, wait until the round has read half of the waiting changes (or ended).
      pace: Effect.gen(function* () {
        if (notedSizes.length < bound) return
        while (!dead && !ended && notedSizes.length > bound / 2) yield* Deferred.await(progress)
      }),
      finish: (changes: RoundChanges) =>
        Effect.gen(function* () {
          ended = true
          wake()
          const reply = yield* ask({ _tag: "finish", published: [...changes.published], removed: [...changes.removed] })
          if (reply._tag === "finished") return reply.summary
          if (reply._tag === "failed") return yield* Effect.fail(new GramIndexError({ reason: reply.reason, path: reply.path, detail: reply.detail }))
          // The thread died: the update here brings the index in line all the same.
          return yield* store.updateGramIndexesOfRound(paths, changes, options.round)
        }),
      close: Effect.gen(function* () {
        if (ended) return
        ended = true
        wake()
        yield* ask({ _tag: "close" })
      })
    } satisfies GramRoundHook
  })
