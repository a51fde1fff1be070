/**
 * The worker queues of an indexing run (W1–W4): plain workers on worker
 * threads, and one Office owner per application kind. The commander only sees
 * {@link IngestWorkers}: how many files each kind may hold at once, and a way
 * to ingest one file on a worker of a kind.
 *
 * @module
 */
import { Worker } from "@effect/platform"
import { NodeWorker } from "@effect/platform-node"
import type { AppKind, IngestResult, WorkerKind } from "@sagasu/domain"
import { Context, Duration, Effect, Exit, Layer, Queue, Scope } from "effect"
import * as WT from "node:worker_threads"
import { IngestFile } from "./ingest_request.ts"
import { plainWorkerUrl } from "./worker/worker_bundle.ts"

/** The workers of one run, as the commander sees them. */
export interface IngestWorkersShape {
  /** Files each kind may hold at once: `ingestThreads` plain, 1 per Office owner (W3). */
  readonly slots: Readonly<Record<WorkerKind, number>>
  /**
   * Ingests one file on a worker of `kind` and returns its result. Never
   * fails: a timeout or a dead worker is a `failed` result. Interrupting it is
   * how a stop reaches an Office conversion (W5).
   */
  readonly ingest: (kind: WorkerKind, request: IngestFile) => Effect.Effect<IngestResult>
}

/** The workers of the current run (a scoped service: closing the scope ends every worker, R15). */
export class IngestWorkers extends Context.Tag("@sagasu/ingest/IngestWorkers")<IngestWorkers, IngestWorkersShape>() {}

/** Ingests a file that needs Office; an Office owner implements it (W3). */
export type OfficeIngest = (app: AppKind, request: IngestFile) => Effect.Effect<IngestResult>

/** Until an Office owner is configured, files that need Office fail with this reason. */
export const noOffice: OfficeIngest = () =>
  Effect.succeed({
    status: "failed",
    tsvCount: 0,
    reason: "needs-office: this format needs LibreOffice, which this run does not use",
    log: []
  })

/** Options of {@link threadWorkersLayer}. */
export interface ThreadWorkersOptions {
  /** Plain worker threads (`ingestThreads`, default = CPU count). */
  readonly threads: number
  /** The per-file time limit (`fileTimeoutMinutes`, default 10 minutes). */
  readonly fileTimeout: Duration.DurationInput
  /** How files that need Office are ingested. */
  readonly office?: OfficeIngest
}

const timeoutResult = (limit: Duration.DurationInput): IngestResult => ({
  status: "failed",
  tsvCount: 0,
  reason: `timeout: reading the file took longer than ${Duration.format(limit)}; it was abandoned`,
  log: []
})

// One plain slot: a worker thread started on first use, restarted after a
// timeout or a crash. The slot's own scope owns the thread, so abandoning a
// file terminates exactly that thread.
interface Slot {
  scope: Scope.CloseableScope | undefined
  worker: Worker.SerializedWorker<IngestFile> | undefined
}

/**
 * The heap of a plain worker thread (issue 9: peak RSS under 300 MB on a
 * 100 MB workbook). Parsing a big sheet makes garbage fast while its live
 * set stays small (the shared strings, a batch of lines); V8 lets the old
 * generation grow to about 4× the live set when its limit is 2 GiB or more
 * (Node's default on a machine with 8 GB), about 1.8× below that. 1.5 GiB is
 * still far above what the text budget lets one file hold (128 Mi
 * characters); a file past it ends this thread only (`corrupt: the worker
 * failed …`), never the process. A 16 MB young generation keeps the nursery
 * small. On the benchmark workbook the worker's heap then peaks at ≈ 125 MB
 * instead of ≈ 265 MB (live set ≈ 70 MB).
 */
const plainWorkerHeap: WT.ResourceLimits = { maxOldGenerationSizeMb: 1536, maxYoungGenerationSizeMb: 16 }

const startSlot = (slot: Slot) =>
  Effect.gen(function* () {
    if (slot.worker !== undefined) return slot.worker
    const url = yield* Effect.promise(() => plainWorkerUrl())
    const scope = yield* Scope.make()
    const worker = yield* Worker.makeSerialized<IngestFile>({}).pipe(
      Scope.extend(scope),
      Effect.provide(NodeWorker.layer(() => new WT.Worker(url, { resourceLimits: plainWorkerHeap }))),
      Effect.tapError(() => Scope.close(scope, Exit.void))
    )
    slot.scope = scope
    slot.worker = worker
    return worker
  })

const stopSlot = (slot: Slot) =>
  Effect.gen(function* () {
    const scope = slot.scope
    slot.scope = undefined
    slot.worker = undefined
    if (scope !== undefined) yield* Scope.close(scope, Exit.void)
  })

/**
 * Plain workers on worker threads (W2) plus the Office owners (W3). Threads
 * start when a first file needs them and end when the layer's scope closes.
 */
export const threadWorkersLayer = (options: ThreadWorkersOptions): Layer.Layer<IngestWorkers> =>
  Layer.scoped(
    IngestWorkers,
    Effect.gen(function* () {
      const slots: Array<Slot> = Array.from({ length: options.threads }, () => ({ scope: undefined, worker: undefined }))
      const free = yield* Queue.unbounded<Slot>()
      yield* Queue.offerAll(free, slots)
      yield* Effect.addFinalizer(() => Effect.forEach(slots, stopSlot, { discard: true, concurrency: "unbounded" }))
      const office = options.office ?? noOffice

      const plain = (request: IngestFile) =>
        Effect.acquireUseRelease(
          Effect.interruptible(Queue.take(free)),
          (slot) =>
            Effect.gen(function* () {
              const worker = yield* startSlot(slot)
              return yield* worker.executeEffect(request).pipe(
                Effect.timeoutFail({ duration: options.fileTimeout, onTimeout: () => "timeout" as const })
              )
            }).pipe(
              Effect.catchAll((error) =>
                // The thread may be stuck in a parse: end it; the slot starts a new one.
                stopSlot(slot).pipe(
                  Effect.as<IngestResult>(
                    error === "timeout"
                      ? timeoutResult(options.fileTimeout)
                      : { status: "failed", tsvCount: 0, reason: `corrupt: the worker failed on this file (${String(error)})`, log: [] }
                  )
                )
              )
            ),
          (slot) => Queue.offer(free, slot)
        )

      return {
        slots: { plain: options.threads, spreadsheet: 1, document: 1, presentation: 1 },
        ingest: (kind, request) => (kind === "plain" ? plain(request) : office(kind, request))
      } satisfies IngestWorkersShape
    })
  )
