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

/**
 * A target not yet dispatched, as {@link pickNextDispatch} sees it: its
 * worker kind, its size in bytes (0 when unknown), and whether it was in
 * flight when a run was killed (C1: it goes last, after every other target).
 */
export interface DispatchCandidate {
  readonly kind: WorkerKind
  readonly size?: number
  readonly last?: boolean
}

/** The target to hand over: its position in the not-yet-dispatched list and the plain worker (1-based) that takes it, 0 for an Office owner. */
export interface DispatchPick {
  readonly at: number
  readonly worker: number
}

/**
 * The target among the first `window` not yet dispatched that a worker of
 * its kind can take now, and that worker, or `undefined` when none can go
 * now (R13). While more targets wait than the window holds, the first in
 * order. Once the window holds every target left (the run's last files, no
 * new one comes into it, so none waits for ever), the largest, the first in
 * order among equals, a file put last by C1 after every other that can go:
 * a big file handed over last kept one worker and then the 2-gram thread
 * busy alone at a run's end (the corpus's two 55 MB-text
 * workbooks, 216th and 217th of 262: the last 3 s of a 20 s run on one
 * core; issue 20). An Office owner takes a file when it has a free
 * slot. A plain worker takes one when it holds none, or fewer than
 * `queueFiles` that total at most `queueBytes`; among those that can, the one
 * holding the fewest files, then the fewest bytes, then the lowest number.
 */
export function pickNextDispatch(
  notDispatched: ReadonlyArray<DispatchCandidate>,
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
  const window = options.window ?? dispatchWindow
  const largestFirst = notDispatched.length <= window
  const end = Math.min(notDispatched.length, window)
  let pick: DispatchPick | undefined
  let pickRank = -2
  for (let i = 0; i < end; i++) {
    const target = notDispatched[i]
    if (target === undefined) continue
    const canGo = target.kind === "plain" ? plainWorker > 0 : room.owners[target.kind] > 0
    if (!canGo) continue
    const rank = target.last === true ? -1 : (target.size ?? 0)
    if (rank <= pickRank) continue
    pick = { at: i, worker: target.kind === "plain" ? plainWorker : 0 }
    pickRank = rank
    if (!largestFirst) break
  }
  return pick
}
