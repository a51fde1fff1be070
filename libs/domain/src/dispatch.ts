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
 * The worker kind of a file by its name: plain for formats read without
 * Office, else the owner of its application. Unknown names go to plain (the
 * plain reader sniffs the content and asks for a reroute when needed).
 */
export function workerKindOf(path: string): WorkerKind {
  const format = fileFormatOf(path)
  return format === undefined || format.reader === "plain" ? "plain" : format.app
}

/**
 * The position in `notDispatched` (targets in order, not yet handed over) of
 * the first one among the first {@link dispatchWindow} whose worker kind has a
 * free slot, or `undefined` when none can go now (R13).
 */
export function pickNextDispatch(
  notDispatched: ReadonlyArray<{ readonly kind: WorkerKind }>,
  freeSlots: Readonly<Record<WorkerKind, number>>,
  window: number = dispatchWindow
): number | undefined {
  const end = Math.min(notDispatched.length, window)
  for (let i = 0; i < end; i++) {
    const item = notDispatched[i]
    if (item !== undefined && freeSlots[item.kind] > 0) return i
  }
  return undefined
}
