/**
 * Dispatch (R13): which target goes to which worker next.
 *
 * @module
 */
import { type AppKind, fileFormatOf } from "./app_kind.ts"

/** A worker queue: the plain workers (W2) or the Office owner of one application (W3). */
export type WorkerKind = "plain" | AppKind

/** How many targets ahead of the first undispatched one the dispatcher may look (R13). */
export const dispatchWindow = 200

/**
 * Files a plain worker that queues (issue 20) may hold at once: the one it
 * reads and two queued behind it, handed over while it reads so that it
 * never waits for the commander's round trip (result → record → publish →
 * next dispatch) between two small files.
 */
export const plainQueueFiles = 3

/**
 * A plain worker that holds files is handed another only while they come to
 * at most this many bytes (2 MB): a small file is not queued behind a big
 * one, where it would wait while the other worker runs dry.
 */
export const plainQueueBytes = 2_000_000

/**
 * The worker kind of a file by its name: plain for formats read without
 * Office, else the owner of its application. Unknown names go to plain (the
 * plain reader sniffs the content and asks for a reroute when needed).
 */
export function workerKindOf(path: string): WorkerKind {
  const format = fileFormatOf(path)
  return format === undefined || format.reader === "plain" ? "plain" : format.app
}

/** What one plain worker holds: the files handed to it and not answered yet, and their bytes. */
export interface PlainWorkerLoad {
  readonly files: number
  readonly bytes: number
}

/** Where the workers stand for {@link pickNextDispatch}. */
export interface WorkerRoom {
  /** Each plain worker's load; worker `n` (1-based) at `n - 1`. */
  readonly plain: ReadonlyArray<PlainWorkerLoad>
  /** Free slots of each Office owner (W3: one file at a time). */
  readonly owners: Readonly<Record<AppKind, number>>
}

/** Options of {@link pickNextDispatch}. */
export interface PickNextDispatchOptions {
  /** Targets looked at (default {@link dispatchWindow}, R13). */
  readonly window?: number
  /** Files a plain worker may hold at once (default 1: nothing queued behind the file it reads). */
  readonly queueFiles?: number
  /** A plain worker holding files takes another only while they total at most this many bytes (default {@link plainQueueBytes}). */
  readonly queueBytes?: number
}

/** The target to hand over: its position in the not-yet-dispatched list and the plain worker (1-based) that takes it, 0 for an Office owner. */
export interface DispatchPick {
  readonly at: number
  readonly worker: number
}

/**
 * The first target among the first `window` not yet dispatched (in order)
 * that a worker of its kind can take now, and that worker, or `undefined`
 * when none can go now (R13). An Office owner takes a file when it has a free
 * slot. A plain worker takes one when it holds none, or fewer than
 * `queueFiles` that total at most `queueBytes`; among those that can, the one
 * holding the fewest files, then the fewest bytes, then the lowest number.
 */
export function pickNextDispatch(
  notDispatched: ReadonlyArray<{ readonly kind: WorkerKind }>,
  room: WorkerRoom,
  options: PickNextDispatchOptions = {}
): DispatchPick | undefined {
  const queueFiles = options.queueFiles ?? 1
  const queueBytes = options.queueBytes ?? plainQueueBytes
  let plainWorker = 0
  let best: PlainWorkerLoad | undefined
  room.plain.forEach((load, i) => {
    const canTake = load.files === 0 || (load.files < queueFiles && load.bytes <= queueBytes)
    if (!canTake) return
    if (best === undefined || load.files < best.files || (load.files === best.files && load.bytes < best.bytes)) {
      best = load
      plainWorker = i + 1
    }
  })
  const end = Math.min(notDispatched.length, options.window ?? dispatchWindow)
  for (let i = 0; i < end; i++) {
    const kind = notDispatched[i]?.kind
    if (kind === undefined) continue
    if (kind === "plain") {
      if (plainWorker > 0) return { at: i, worker: plainWorker }
    } else if (room.owners[kind] > 0) {
      return { at: i, worker: 0 }
    }
  }
  return undefined
}
