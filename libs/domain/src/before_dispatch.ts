/**
 * Before a target is handed to a worker (R13, the seed's boxes 「中止を求められている？」
 * and 「元のファイルがある？」): whether anything more is handed over at all, and
 * what to do with the one picked.
 *
 * @module
 */
import type { WorkerKind } from "./dispatch.ts"

/** What the commander knows that can end dispatching: each set once and never cleared. */
export interface DispatchState {
  /** A stop was requested, or a result came back stopped (R13, R14). */
  readonly stopped: boolean
  /** The whole target folder of some index went (R13). */
  readonly folderLost: boolean
  /** The work folder could not take a file's TSVs (disk full, R18). */
  readonly workFolderFailed: boolean
}

/**
 * Whether nothing more is handed over (R13, R14, R18): after a stop, a lost
 * folder or a work folder that is full, the targets not yet dispatched stay
 * `pending`; the queues are told to stop and the 2-gram round is closed,
 * since R16 will not run (S1: what it built goes live).
 */
export function dispatchHalted(state: DispatchState): boolean {
  return state.stopped || state.folderLost || state.workFolderFailed
}

/**
 * The decision on the target picked (R13): `Submit` (journal `start`, hand it
 * over), `SourceGone` (the file is gone but its folder is there: delete its
 * TSVs, remove it from the ingest list and the body index, log
 * `sourceVanished`), `FolderLost` (the whole target folder is gone: hand over
 * nothing more, the file and the rest stay pending, the run ends with exit 1).
 */
export type BeforeDispatch =
  | { readonly _tag: "Submit" }
  | { readonly _tag: "SourceGone" }
  | { readonly _tag: "FolderLost" }

/** Options of {@link decideBeforeDispatch}: questions about the disk, asked only when needed. */
export interface DecideBeforeDispatchOptions {
  /**
   * The source is a regular file, or it cannot be told (permission denied on the way: the worker
   * then fails it as unreadable, to be retried). Not a regular file (a FIFO in its place would
   * block the worker's read for good; the crawl skips it as not-a-file) is as good as gone.
   */
  readonly sourceIsFile: () => boolean
  /** The target folder of the file's index is still a folder. */
  readonly folderIsThere: () => boolean
}

/** Decides what to do with the target picked for dispatch (R13); see {@link BeforeDispatch}. */
export function decideBeforeDispatch(options: DecideBeforeDispatchOptions): BeforeDispatch {
  if (options.sourceIsFile()) return { _tag: "Submit" }
  return options.folderIsThere() ? { _tag: "SourceGone" } : { _tag: "FolderLost" }
}

/**
 * W5: whether a file in flight with a worker of `kind` is stopped at once
 * when a stop is requested — a file being read through Office (its
 * conversion is ended) — or is allowed to finish — a file being read
 * without Office.
 */
export function stoppedAtOnce(kind: WorkerKind): boolean {
  return kind !== "plain"
}
