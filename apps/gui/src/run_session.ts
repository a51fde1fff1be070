/**
 * The indexing runs started from the page (SPEC R1, R10, P1–P3; the seed:
 * "画面は自分のプロセスのスレッドで … を実行し"): each run executes in the
 * server's own process on a fiber, and the page talks to it only through
 * its channel — it sets `stop`, completes the answer, and reads the progress
 * once a second. One run at a time from this server; R3's lock refuses runs
 * started elsewhere.
 *
 * @module
 */
import type { FileSystem } from "@effect/platform"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { type FailedFile, failureDetail, messages } from "@sagasu/domain"
import { type IndexerChannel, makeChannel, requestStop, runIndexer, standardRunOptions } from "@sagasu/ingest"
import { type StoreReadError, workPaths, WorkStore } from "@sagasu/store"
import { Deferred, Duration, Effect, Option, Queue, Ref, type Scope, SubscriptionRef } from "effect"
import type { RunResult, RunState, RunView } from "./api.ts"

/** The runs of one server. */
export interface RunSession {
  /** Starts a run with `onlyNames` (empty = all enabled); `undefined` when a run of this server is still active. */
  readonly start: (onlyNames: ReadonlyArray<string>) => Effect.Effect<RunState | undefined>
  /**
   * What the page polls once a second (P2): the current run's channel, or the last progress on disk
   * (P3); a progress file that exists but cannot be read is a {@link StoreReadError}, not "no run yet".
   */
  readonly view: Effect.Effect<RunView, StoreReadError>
  /** How the last run of this server ended (R17); `undefined` while none has. Fetched by the page when its version changes. */
  readonly result: Effect.Effect<RunResult | undefined>
  /** Whether a run of this server has not ended yet. */
  readonly active: Effect.Effect<boolean>
  /** Completes the plan's answer (R10); `false` when there is no run waiting for one. */
  readonly answer: (answer: { readonly retryFailed: boolean; readonly includeCloud: boolean } | null) => Effect.Effect<boolean>
  /** Sets the channel's stop (W5). */
  readonly stop: Effect.Effect<void>
}

/** Options of {@link makeRunSession}. */
export interface RunSessionOptions {
  /** The product version for the log header (R4). */
  readonly version: string
  /** How long the plan waits for an answer before the run gives up (R10; default 60 minutes, tests make it short). */
  readonly answerTimeout?: Duration.DurationInput
}

/** How long a closing server waits for its run to stop (R15: the run's finally step). */
export const closeGrace: Duration.Duration = Duration.minutes(2)

/**
 * Asks the run of `channel` to stop (W5) and waits until it has ended or
 * `grace` has passed, whichever is first; never fails. It runs in a scope's
 * finalizer, where effects are uninterruptible: the wait itself is made
 * interruptible, or `Effect.timeout` would wait for a run that never ends
 * (R15: the server's close must not hang on it).
 */
export const stopAndWait = (channel: IndexerChannel, grace: Duration.DurationInput): Effect.Effect<void> =>
  Effect.gen(function* () {
    if (yield* Deferred.isDone(channel.exitCode)) return
    yield* requestStop(channel)
    yield* Deferred.await(channel.exitCode).pipe(Effect.interruptible, Effect.timeout(grace), Effect.ignore)
  })

interface Current {
  readonly id: number
  readonly onlyNames: ReadonlyArray<string>
  readonly channel: IndexerChannel
}

/**
 * Makes the run session of the work folder `work`: a commander fiber in the
 * caller's scope runs the runs the page starts. When the scope closes
 * (Ctrl+C), a run still active is asked to stop and given two minutes to
 * finish its finally step (R15) before it is interrupted.
 */
export const makeRunSession = (
  work: string,
  options: RunSessionOptions
): Effect.Effect<RunSession, never, Scope.Scope | FileSystem.FileSystem | WorkStore> =>
  Effect.gen(function* () {
    const paths = workPaths(work)
    const context = yield* Effect.context<FileSystem.FileSystem | WorkStore>()
    const current = yield* Ref.make(Option.none<Current>())
    let nextId = 1

    const ended = (c: Current) => Deferred.isDone(c.channel.exitCode)
    const active = Ref.get(current).pipe(
      Effect.flatMap(Option.match({ onNone: () => Effect.succeed(false), onSome: (c) => Effect.map(ended(c), (d) => !d) }))
    )

    const answerTimeout = Duration.decode(options.answerTimeout ?? Duration.minutes(60))

    // Issue 17: the page's failure list in the catalogue's words.
    const failedView = (f: FailedFile): RunResult["failed"][number] => ({
      index: f.index,
      path: f.path,
      reason: f.failure.reason,
      sentence: { ja: messages("ja").failureReason(f.failure.reason), en: messages("en").failureReason(f.failure.reason) },
      detail: failureDetail(f.failure)
    })

    const stateOf = (c: Current): Effect.Effect<RunState> =>
      Effect.gen(function* () {
        const ch = c.channel
        const exit = yield* Deferred.poll(ch.exitCode)
        const exitCode = exit === undefined || Option.isNone(exit) ? null : yield* exit.value
        const plan = yield* SubscriptionRef.get(ch.plan)
        return {
          id: c.id,
          onlyNames: c.onlyNames,
          stopRequested: yield* SubscriptionRef.get(ch.stop),
          progress: yield* SubscriptionRef.get(ch.progress),
          plan: Option.getOrNull(plan),
          exitCode,
          // A run ends once and its result never changes afterwards: its id is the result's version.
          resultVersion: exitCode === null ? null : c.id
        }
      })

    const resultOf = (c: Current): Effect.Effect<RunResult | undefined> =>
      Effect.gen(function* () {
        const ch = c.channel
        const exit = yield* Deferred.poll(ch.exitCode)
        if (exit === undefined || Option.isNone(exit)) return undefined
        const exitCode = yield* exit.value
        const closing = yield* Ref.get(ch.closing)
        const message = Option.match(closing, { onNone: () => null, onSome: (x) => x.message.split("\n")[0] ?? "" })
        return {
          version: c.id,
          id: c.id,
          exitCode,
          // A cancel, a plan left unanswered and a stop each say so (the run's settleRun, issue 16).
          message,
          error: Option.getOrNull(yield* Ref.get(ch.error)),
          failed: Option.match(closing, { onNone: () => [], onSome: (x) => x.failed.map(failedView) }),
          onlySkipped: yield* Ref.get(ch.onlySkipped),
          cloudSkipped: yield* Ref.get(ch.cloudSkipped)
        }
      })

    const runOne = (c: Current) =>
      standardRunOptions(work, options.version).pipe(
        Effect.provide(NodeContext.layer),
        Effect.provide(context),
        Effect.flatMap((runOptions) => runIndexer(c.channel, { ...runOptions, answerTimeout })),
        Effect.provide(context)
      )

    // The commander (インデクサの司令): one fiber of the session that runs the requested runs one
    // after another. Runs are not forked from a request's fiber, whose life is the request's.
    const requests = yield* Queue.unbounded<Current>()
    yield* Queue.take(requests).pipe(
      Effect.flatMap(runOne),
      Effect.forever,
      Effect.forkScoped
    )
    // Added after the commander, so it runs before the commander is interrupted.
    yield* Effect.addFinalizer(() =>
      Ref.get(current).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.void,
          onSome: (c) =>
            stopAndWait(c.channel, closeGrace)
        }))
      )
    )

    // Two clicks at once must not start two runs: check and start as one step.
    const starting = yield* Effect.makeSemaphore(1)
    const start = (onlyNames: ReadonlyArray<string>) =>
      starting.withPermits(1)(Effect.gen(function* () {
        if (yield* active) return undefined
        // The GUI always confirms (R10): the seed's screen sets ConfirmTargets.
        const channel = yield* makeChannel({ confirmTargets: true, onlyNames })
        const c: Current = { id: nextId++, onlyNames, channel }
        yield* Ref.set(current, Option.some(c))
        yield* Queue.offer(requests, c)
        return yield* stateOf(c)
      }))

    const withCurrent = <A>(f: (c: Current) => Effect.Effect<A>, otherwise: A) =>
      Ref.get(current).pipe(Effect.flatMap(Option.match({ onNone: () => Effect.succeed(otherwise), onSome: f })))

    return {
      start,
      active,
      view: Effect.gen(function* () {
        const run = yield* withCurrent((c) => Effect.map(stateOf(c), (s): RunState | null => s), null)
        const ours = run !== null && run.exitCode === null
        const elsewhere = ours ? false : yield* WorkStore.isLockHeld(paths).pipe(Effect.provide(context))
        const last = run === null || elsewhere ? Option.getOrNull(yield* WorkStore.readProgress(paths).pipe(Effect.provide(context))) : null
        return { run, last, elsewhere }
      }),
      result: withCurrent(resultOf, undefined),
      answer: (answer) =>
        withCurrent((c) => Effect.gen(function* () {
          if (Option.isNone(yield* SubscriptionRef.get(c.channel.plan))) return false
          return yield* Deferred.succeed(c.channel.answer, answer)
        }), false),
      stop: withCurrent((c) => requestStop(c.channel), undefined)
    } satisfies RunSession
  })
