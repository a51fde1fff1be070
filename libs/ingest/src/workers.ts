/**
 * The worker queues of an indexing run (W1–W4): plain workers on worker
 * threads, and one Office owner per application kind. The commander only sees
 * {@link IngestWorkers}: how many workers of each kind there are, whether
 * plain workers queue files, a way to ingest one file on a worker, and the
 * stop of the queues.
 *
 * Each plain worker thread has its own queue (the seed's 「渡し先のワーカーの列に
 * ファイルを渡す」, issue 20): the commander hands it files ahead of the one it
 * reads (`pickNextDispatch` decides how many), so it goes from one file to the
 * next without waiting for the commander's round trip. The thread reads them
 * in the order they came and answers in that order, so the commander always
 * knows which file a thread is reading: the oldest one not answered. That is
 * the file whose time limit runs (from when it became the oldest), and the
 * file blamed when the thread dies; the files queued behind it go to a new
 * thread, unread. The protocol is `worker/_plain_protocol.ts`.
 *
 * @module
 */
import type { AppKind, Failure, IngestResult, WorkerKind } from "@sagasu/domain"
import { Context, Deferred, Duration, Effect, Either, Exit, Fiber, Layer, Runtime, Schema } from "effect"
import * as WT from "node:worker_threads"
import type { IngestFile } from "./ingest_request.ts"
import { PlainAnswer, type PlainRequest, type PlainWorkerData, controlWords, stopWord, stoppedResult } from "./worker/_plain_protocol.ts"
import { plainWorkerUrl } from "./worker/worker_bundle.ts"

/** The workers of one run, as the commander sees them. */
export interface IngestWorkersShape {
  /** Workers of each kind: `ingestThreads` plain, 1 per Office owner (W3: one file at a time). */
  readonly slots: Readonly<Record<WorkerKind, number>>
  /**
   * Plain workers take files queued behind the one they read (issue 20), and
   * answer `stopped` for those they take after {@link stop} (W5). Without it
   * (test fakes), the commander hands a plain worker one file at a time.
   */
  readonly queues?: boolean
  /**
   * Ingests one file on a worker of `kind` (for `plain`, on plain worker
   * `worker`, 1-based; any when absent) and returns its result. Never fails:
   * a timeout or a dead worker is a `failed` result. Interrupting it is how a
   * stop reaches an Office conversion (W5).
   */
  readonly ingest: (kind: WorkerKind, request: IngestFile, worker?: number) => Effect.Effect<IngestResult>
  /** W5: every file still in a plain worker's queue from now on comes back `stopped`, unread. */
  readonly stop?: Effect.Effect<void>
}

/** The workers of the current run (a scoped service: closing the scope ends every worker, R15). */
export class IngestWorkers extends Context.Tag("@sagasu/ingest/IngestWorkers")<IngestWorkers, IngestWorkersShape>() {}

/** Ingests a file that needs Office; an Office owner implements it (W3). */
export type OfficeIngest = (app: AppKind, request: IngestFile) => Effect.Effect<IngestResult>

/** Until an Office owner is configured, files that need Office fail with this failure. */
export const noOffice: OfficeIngest = () =>
  Effect.succeed({
    status: "failed",
    failure: { reason: "needs-office", detail: "this format needs LibreOffice, which this run does not use" },
    log: []
  })

/** Options of {@link threadWorkersLayer}. */
export interface ThreadWorkersOptions {
  /** Plain worker threads (`ingestThreads`, default = CPU count). */
  readonly threads: number
  /** The per-file time limit (`fileTimeoutMinutes`, default 10 minutes), from when a thread starts the file. */
  readonly fileTimeout: Duration.DurationInput
  /** How files that need Office are ingested. */
  readonly office?: OfficeIngest
  /** The heap of each plain worker thread (default {@link plainWorkerHeap}). */
  readonly heap?: WT.ResourceLimits
  /** The plain worker's entry (default: the bundled `worker/plain_worker.ts`); tests run scripted workers. */
  readonly workerUrl?: () => Promise<URL>
}

const timeoutResult = (limit: Duration.DurationInput): IngestResult => ({
  status: "failed",
  failure: { reason: "timeout", detail: `reading the file took longer than ${Duration.format(limit)}; it was abandoned` },
  log: []
})

/**
 * The heap of a plain worker thread (issue 9: peak RSS under 300 MB on a
 * 100 MB workbook). Parsing a big sheet makes garbage fast while its live
 * set stays small (the shared strings, a batch of lines); V8 lets the old
 * generation grow to about 4× the live set when its limit is 2 GiB or more
 * (Node's default on a machine with 8 GB), about 1.8× below that. 1.5 GiB is
 * still far above what the text budget lets one file hold (128 Mi
 * characters); a file past it ends this thread only (`too-large`), never the
 * process. A 16 MB young generation keeps the nursery small. On the
 * benchmark workbook the worker's heap then peaks at ≈ 125 MB instead of
 * ≈ 265 MB (live set ≈ 70 MB).
 */
export const plainWorkerHeap: WT.ResourceLimits = { maxOldGenerationSizeMb: 1536, maxYoungGenerationSizeMb: 16 }

/** The failure of a file whose worker thread ran out of its heap (`ERR_WORKER_OUT_OF_MEMORY`). */
export const heapLimitFailure = (heap: WT.ResourceLimits): Failure => ({
  reason: "too-large",
  detail: `reading it needed more memory than a worker may use (a ${heap.maxOldGenerationSizeMb ?? "default"} MB heap); ` +
    "the file was abandoned, the run went on"
})

// A file handed to a plain thread, not answered yet.
interface Job {
  readonly seq: number
  readonly request: PlainRequest
  readonly done: Deferred.Deferred<IngestResult>
}

// One plain worker: its thread (started on first use, again after a timeout or a crash) and the
// files handed to it, oldest first; once the thread is ready, jobs[0] is the file it reads.
interface Thread {
  worker: WT.Worker | undefined
  ready: boolean
  jobs: Array<Job>
  // The time limit of jobs[0], running since it became the oldest of a ready thread.
  timer: Fiber.RuntimeFiber<void> | undefined
  // What the dying thread said before its exit (the heap limit, an uncaught error).
  error: unknown
}

/**
 * Plain workers on worker threads (W2) plus the Office owners (W3). Threads
 * start when a first file needs them and end when the layer's scope closes.
 */
export const threadWorkersLayer = (options: ThreadWorkersOptions): Layer.Layer<IngestWorkers> =>
  Layer.scoped(
    IngestWorkers,
    Effect.gen(function* () {
      const office = options.office ?? noOffice
      const heap = options.heap ?? plainWorkerHeap
      const workerUrl = options.workerUrl ?? plainWorkerUrl
      const control = new SharedArrayBuffer(controlWords * Int32Array.BYTES_PER_ELEMENT)
      const words = new Int32Array(control)
      const stopped = () => Atomics.load(words, stopWord) !== 0
      const threads: Array<Thread> = Array.from({ length: Math.max(1, options.threads) }, () => ({
        worker: undefined, ready: false, jobs: [], timer: undefined, error: undefined
      }))
      // Thread events arrive outside any fiber: they run their effects on the layer's runtime (its Clock too).
      const runFork = Runtime.runFork(yield* Effect.runtime<never>())
      const decodeAnswer = Schema.decodeUnknownEither(PlainAnswer)
      let seq = 0

      const disarm = (thread: Thread) => {
        const timer = thread.timer
        thread.timer = undefined
        if (timer !== undefined) runFork(Fiber.interrupt(timer))
      }
      const arm = (thread: Thread) => {
        disarm(thread)
        const head = thread.jobs[0]
        if (head === undefined || !thread.ready) return
        thread.timer = runFork(
          Effect.sleep(options.fileTimeout).pipe(
            Effect.zipRight(Effect.sync(() => {
              if (thread.jobs[0] !== head) return
              thread.timer = undefined
              // The thread may be stuck in a parse: end it; the files behind go to a new one, unread.
              abandon(thread, timeoutResult(options.fileTimeout))
            }))
          )
        )
      }
      const answer = (thread: Thread, job: Job, result: IngestResult) => {
        const at = thread.jobs.indexOf(job)
        if (at >= 0) thread.jobs.splice(at, 1)
        Deferred.unsafeDone(job.done, Exit.succeed(result))
      }
      // The oldest file gets `result`; the thread is ended; the others are handed to a new thread.
      const abandon = (thread: Thread, result: IngestResult) => {
        disarm(thread)
        const worker = thread.worker
        thread.worker = undefined
        thread.ready = false
        thread.error = undefined
        if (worker !== undefined) {
          worker.removeAllListeners()
          worker.on("error", () => {})
          void worker.terminate().catch(() => {})
        }
        const head = thread.jobs[0]
        if (head !== undefined) answer(thread, head, result)
        if (thread.jobs.length === 0) return
        if (stopped()) {
          // W5: after a stop, nothing more is read: what was queued comes back stopped.
          for (const job of [...thread.jobs]) answer(thread, job, stoppedResult)
          return
        }
        runFork(start(thread))
      }
      const start = (thread: Thread) =>
        Effect.gen(function* () {
          if (thread.worker !== undefined) return
          const url = yield* Effect.promise(() => workerUrl())
          if (thread.worker !== undefined) return
          const worker = new WT.Worker(url, { resourceLimits: heap, workerData: { control } satisfies PlainWorkerData })
          thread.worker = worker
          thread.error = undefined
          worker.on("message", (message: unknown) => {
            if (thread.worker !== worker) return
            // Decoded at the edge (STYLE 9): what crossed the thread boundary is checked once.
            const decoded = decodeAnswer(message)
            if (Either.isLeft(decoded)) {
              const job = thread.jobs.find((j) => j.seq === (message as { seq?: unknown } | null)?.seq)
              if (job === undefined) return
              const wasHead = thread.jobs[0] === job
              answer(thread, job, { status: "failed", failure: { reason: "corrupt", detail: "the worker gave an unreadable answer" }, log: [] })
              if (wasHead) arm(thread)
              return
            }
            const m = decoded.right
            if (m._tag === "ready") {
              thread.ready = true
              arm(thread)
              return
            }
            const job = thread.jobs.find((j) => j.seq === m.seq)
            if (job === undefined) return
            const wasHead = thread.jobs[0] === job
            answer(thread, job, m.result)
            if (wasHead) arm(thread)
          })
          worker.on("error", (error) => {
            if (thread.worker === worker) thread.error = error
          })
          worker.on("exit", (code) => {
            if (thread.worker !== worker) return
            const error = thread.error
            const oom = (error as { code?: unknown } | undefined)?.code === "ERR_WORKER_OUT_OF_MEMORY"
            const detail = error === undefined ? `the thread exited with code ${code}` : String(error)
            abandon(thread, {
              status: "failed",
              failure: oom ? heapLimitFailure(heap) : { reason: "corrupt", detail: `the worker failed on this file (${detail})` },
              log: []
            })
          })
          for (const job of thread.jobs) worker.postMessage(job.request)
        })

      const plain = (request: IngestFile, number: number | undefined) =>
        Effect.gen(function* () {
          const thread = threads[Math.min(threads.length, Math.max(1, number ?? leastBusy())) - 1]!
          if (stopped()) return stoppedResult
          const job: Job = {
            seq: ++seq,
            request: {
              _tag: "ingest", seq, index: request.index, path: request.path, source: request.source, staging: request.staging,
              ...(request.sieves !== undefined ? { sieves: request.sieves } : {})
            },
            done: yield* Deferred.make<IngestResult>()
          }
          thread.jobs.push(job)
          if (thread.worker === undefined) yield* start(thread)
          else thread.worker.postMessage(job.request)
          if (thread.jobs.length === 1) arm(thread)
          return yield* Deferred.await(job.done)
        })
      const leastBusy = () => {
        let best = 0
        threads.forEach((t, i) => {
          if (t.jobs.length < (threads[best]?.jobs.length ?? 0)) best = i
        })
        return best + 1
      }

      yield* Effect.addFinalizer(() =>
        Effect.promise(async () => {
          Atomics.store(words, stopWord, 1)
          await Promise.all(threads.map(async (thread) => {
            disarm(thread)
            const worker = thread.worker
            thread.worker = undefined
            thread.ready = false
            if (worker === undefined) return
            worker.removeAllListeners()
            worker.on("error", () => {})
            await worker.terminate().catch(() => {})
          }))
        })
      )

      return {
        slots: { plain: threads.length, spreadsheet: 1, document: 1, presentation: 1 },
        queues: true,
        ingest: (kind, request, worker) => (kind === "plain" ? plain(request, worker) : office(kind, request)),
        stop: Effect.sync(() => Atomics.store(words, stopWord, 1))
      } satisfies IngestWorkersShape
    })
  )
