/**
 * The indexing run inside the campaign's own process, wired as `sagasu index`
 * wires it (standard workers with the Office owners, the 2-gram update), with
 * the workers wrapped to record when each file started and ended: what the
 * stop part needs to say which files were in flight at a stop.
 *
 * @module
 */
import type { ExitCode } from "@sagasu/domain"
import { type IndexerChannel, makeChannel, requestStop, runIndexer, standardWorkersLayer } from "@sagasu/ingest"
import { aroundIngest } from "@sagasu/ingest/testing"
import { openGramRound, updateGramIndexesOfRound, NodeWithWorkStore } from "@sagasu/store/testing"
import { Deferred, Effect, Fiber, Layer, Option, Ref, SubscriptionRef } from "effect"

/** One file handed to a worker: its key (`index/path`), worker kind, and times (ms since the epoch). */
export interface IngestEvent {
  readonly key: string
  readonly kind: string
  readonly start: number
  end: number | undefined
}

/** How an in-process run ended. */
export interface InProcessRun {
  readonly code: ExitCode
  readonly error: string
  readonly closing: string
  readonly events: ReadonlyArray<IngestEvent>
  readonly started: number
  readonly ended: number
  /** When the stop was requested; undefined when the run ended first or none was asked for. */
  readonly stoppedAt: number | undefined
  /** The progress phase at the stop (P1). */
  readonly phaseAtStop: string
}

/** Options of {@link runInProcess}. */
export interface InProcessOptions {
  /** Request a stop this many ms after the run started (W5). */
  readonly stopAfterMs?: number
  /** Request the stop when this returns true for an event (checked as files start). */
  readonly stopWhen?: (events: ReadonlyArray<IngestEvent>) => boolean
}

/** Runs one indexing run on `work` in this process. */
export function runInProcess(work: string, options: InProcessOptions = {}): Promise<InProcessRun> {
  const events: Array<IngestEvent> = []
  const recording = aroundIngest((kind, request, ingest) => {
    const event: IngestEvent = { key: `${request.index}/${request.path}`, kind, start: Date.now(), end: undefined }
    events.push(event)
    return ingest.pipe(Effect.ensuring(Effect.sync(() => (event.end = Date.now()))))
  })
  return Effect.runPromise(
    Effect.gen(function* () {
      const channel: IndexerChannel = yield* makeChannel({})
      const started = Date.now()
      const fiber = yield* Effect.fork(
        runIndexer(channel, {
          work,
          version: "chaos",
          workers: (s, paths) => recording.pipe(Layer.provide(standardWorkersLayer(paths, s)), Layer.provide(NodeWithWorkStore)),
          updateGram: (paths, changes) => updateGramIndexesOfRound(paths, changes),
          gramRound: (paths) => openGramRound(paths)
        })
      )
      let stoppedAt: number | undefined
      let phaseAtStop = ""
      const stop = Effect.gen(function* () {
        if (yield* Deferred.isDone(channel.exitCode)) return
        stoppedAt = Date.now()
        phaseAtStop = (yield* SubscriptionRef.get(channel.progress)).phase
        yield* requestStop(channel)
      })
      if (options.stopAfterMs !== undefined) {
        yield* Effect.sleep(options.stopAfterMs).pipe(Effect.zipRight(stop), Effect.fork)
      }
      if (options.stopWhen !== undefined) {
        const when = options.stopWhen
        yield* Effect.gen(function* () {
          while (!(yield* Deferred.isDone(channel.exitCode))) {
            if (when(events)) return yield* stop
            yield* Effect.sleep(5)
          }
        }).pipe(Effect.fork)
      }
      const code = yield* Fiber.join(fiber)
      const ended = Date.now()
      const error = Option.getOrElse(yield* Ref.get(channel.error), () => "")
      const closing = Option.match(yield* Ref.get(channel.closing), { onNone: () => "", onSome: (c) => c.message })
      return { code, error, closing, events, started, ended, stoppedAt, phaseAtStop } satisfies InProcessRun
    }).pipe(Effect.provide(NodeWithWorkStore))
  )
}
