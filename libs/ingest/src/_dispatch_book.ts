/**
 * The commander's book of dispatch (R13, R14; private): which targets are
 * not dispatched yet, which are in flight with which worker, what each plain
 * worker holds, and which source folders still have a file in flight or
 * waiting. Bookkeeping only: the decisions are the domain's
 * (`pickNextDispatch` reads {@link DispatchBook.room}, `foldersReadyToPublish`
 * asks {@link DispatchBook.isBusy}).
 *
 * @module
 */
import {
  type Target, type WorkerKind, type WorkerRoom, plainQueueFiles, sourceFolderOf, stoppedAtOnce, workerKindOf
} from "@sagasu/domain"
import type { InFlight } from "./_run_context.ts"
import type { IngestWorkersShape } from "./workers.ts"

/** A target not yet dispatched: its number in the target list (1-based), its worker kind, its size in bytes, and whether it goes last (C1). */
export interface Waiting {
  readonly target: Target
  readonly n: number
  readonly kind: WorkerKind
  readonly size: number
  readonly last: boolean
}

const folderOf = (t: { readonly index: string; readonly path: string }) => sourceFolderOf(t.index, t.path)

/** See the module doc. Only the commander fiber touches it. */
export class DispatchBook {
  /** The targets not yet dispatched, in order (R13 looks at the first 200). */
  readonly notDispatched: Array<Waiting>
  /** The files handed to a worker and not answered, by `fileKey`. */
  readonly inFlight = new Map<string, InFlight>()
  /** Files a plain worker may hold at once (issue 20: only when it queues). */
  readonly queueFiles: number
  /** Worker numbers for the staging folders `publish/<pid>/w<n>` (C2): plain first, then the owners. */
  readonly ownerNumber: Readonly<Record<Exclude<WorkerKind, "plain">, number>>
  private readonly plainLoad: Array<{ files: number; bytes: number }>
  // R14: the source folders with a file in flight, and with one not yet dispatched, counted (a
  // folder is published when both are 0; a scan of every target per result was O(n²) in a run).
  private readonly flightFolders = new Map<string, number>()
  private readonly waitingFolders = new Map<string, number>()

  private readonly workers: IngestWorkersShape

  constructor(targets: ReadonlyArray<Target>, workers: IngestWorkersShape) {
    this.workers = workers
    this.notDispatched = targets.map((target, i) => ({ target, n: i + 1, kind: workerKindOf(target.path), size: target.size, last: target.reason === "inFlight" }))
    const threads = workers.slots.plain
    this.ownerNumber = { spreadsheet: threads + 1, document: threads + 2, presentation: threads + 3 }
    this.plainLoad = Array.from({ length: threads }, () => ({ files: 0, bytes: 0 }))
    this.queueFiles = workers.queues === true ? plainQueueFiles : 1
    for (const d of this.notDispatched) count(this.waitingFolders, folderOf(d.target), 1)
  }

  /** Where the workers stand, for `pickNextDispatch`. */
  room(): WorkerRoom {
    const busy = (kind: WorkerKind) => {
      let n = 0
      for (const f of this.inFlight.values()) if (f.kind === kind) n++
      return n
    }
    return {
      plain: this.plainLoad,
      owners: {
        spreadsheet: this.workers.slots.spreadsheet - busy("spreadsheet"),
        document: this.workers.slots.document - busy("document"),
        presentation: this.workers.slots.presentation - busy("presentation")
      }
    }
  }

  /** Takes the target at `at` out of the not-dispatched list. */
  take(at: number): Waiting | undefined {
    const [next] = this.notDispatched.splice(at, 1)
    if (next !== undefined) count(this.waitingFolders, folderOf(next.target), -1)
    return next
  }

  /** Puts a taken target back at the head (it stays pending). */
  putBack(next: Waiting): void {
    this.notDispatched.unshift(next)
    count(this.waitingFolders, folderOf(next.target), 1)
  }

  /** The worker number `next` goes to (`pick` the plain worker `pickNextDispatch` chose), counted as held by it and its folder as busy. */
  assign(next: Waiting, pick: number): number {
    const worker = next.kind === "plain" ? pick : this.ownerNumber[next.kind]
    this.hold(next.kind, worker, next.target.size, 1)
    count(this.flightFolders, folderOf(next.target), 1)
    return worker
  }

  /** The flight of `key` taken out of the in-flight map (its plain worker holds it no more); its folder stays busy until {@link settle}. */
  land(key: string): InFlight | undefined {
    const flight = this.inFlight.get(key)
    if (flight === undefined) return undefined
    this.inFlight.delete(key)
    this.hold(flight.kind, flight.worker, flight.target.size, -1)
    return flight
  }

  /** The result of `flight` is recorded: its folder has one file less in flight. */
  settle(flight: InFlight): void {
    count(this.flightFolders, folderOf(flight.target), -1)
  }

  /** The files in flight that a stop ends at once (`stoppedAtOnce`, W5: those with an Office owner). */
  flightsStoppedAtOnce(): ReadonlyArray<readonly [string, InFlight]> {
    return [...this.inFlight].filter(([, f]) => stoppedAtOnce(f.kind))
  }

  /**
   * R14: whether the source folder `folder` must wait: a file of it in flight, or one not yet
   * dispatched — unless the run is `stopped`, when those stay pending and hold nothing up.
   */
  isBusy(folder: string, stopped: boolean): boolean {
    return this.flightFolders.has(folder) || (!stopped && this.waitingFolders.has(folder))
  }

  // What plain worker `worker` holds, one file of `bytes` more (`by` 1) or less (-1).
  private hold(kind: WorkerKind, worker: number, bytes: number, by: 1 | -1): void {
    const load = kind === "plain" ? this.plainLoad[worker - 1] : undefined
    if (load === undefined) return
    load.files += by
    load.bytes += by * bytes
  }
}

const count = (m: Map<string, number>, key: string, by: number) => {
  const n = (m.get(key) ?? 0) + by
  if (n === 0) m.delete(key)
  else m.set(key, n)
}
