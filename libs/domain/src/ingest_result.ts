/**
 * A worker's result for one file (W1) and what the commander does with it (R14).
 *
 * @module
 */
import { Schema } from "effect"
import { AppKind } from "./app_kind.ts"
import { failureCauseOf } from "./failure_reason.ts"

/**
 * `done` (TSVs staged), `failed` (with `reason`), `reroute` (the plain reader
 * found the file needs Office; `app` says which owner), `stopped` (a stop
 * reached the file before or while it was read; nothing staged counts).
 * `tsvCount` TSVs were staged; `log` holds the file's log lines (R4);
 * `lines` counts the lines of text of a `done` file.
 */
export const IngestResult = Schema.Struct({
  status: Schema.Literal("done", "failed", "reroute", "stopped"),
  tsvCount: Schema.Number,
  reason: Schema.String,
  app: Schema.optional(AppKind),
  log: Schema.Array(Schema.String),
  /** Lines of text staged, when `done`: 0 is a file that was read and showed no text (its log block is a warning, issue 15 item 10). */
  lines: Schema.optional(Schema.Number)
})
export type IngestResult = typeof IngestResult.Type

/**
 * What the commander does with a result (R14): hand the file to an Office
 * owner (`Reroute`, it stays in flight), leave it `pending` without counting
 * it as failed (`KeepPending`), write its log block and row (`Record`), or —
 * the file failed because the work folder could not take its files (disk
 * full, a `work-folder` reason) — end the run with that error, hand over
 * nothing more and leave the file pending (`WorkFolderFailed`, R18); a file
 * that failed while its target folder is gone (renamed away, unmounted) was
 * never read and is not at fault: hand over nothing more, the file stays
 * pending and the run ends naming the lost folder (`TargetLost`, R13).
 */
export type ResultDecision =
  | { readonly _tag: "Reroute"; readonly app: AppKind }
  | { readonly _tag: "KeepPending" }
  | { readonly _tag: "Record"; readonly status: "done" | "failed"; readonly reason: string }
  | { readonly _tag: "WorkFolderFailed"; readonly reason: string }
  | { readonly _tag: "TargetLost" }

/** Options of {@link decideOnResult}. */
export interface DecideOnResultOptions {
  readonly stopRequested: boolean
  /** The file was already with an Office owner: a second reroute is a failure, not a loop. */
  readonly fromOwner: boolean
  /**
   * The file's target folder is no longer a folder when the result arrives (R13). Files queued
   * ahead in a worker (issue 20) are read after the folder may have gone.
   */
  readonly targetGone?: boolean
}

/** Decides what to do with one result (R14). */
export function decideOnResult(result: IngestResult, options: DecideOnResultOptions): ResultDecision {
  switch (result.status) {
    case "reroute":
      if (options.stopRequested) return { _tag: "KeepPending" }
      if (options.fromOwner || result.app === undefined) {
        return { _tag: "Record", status: "failed", reason: result.reason === "" ? "needs-office: no Office owner can read it" : result.reason }
      }
      return { _tag: "Reroute", app: result.app }
    case "stopped":
      return { _tag: "KeepPending" }
    case "done":
      return { _tag: "Record", status: "done", reason: "" }
    case "failed":
      if (failureCauseOf(result.reason) === "work-folder") return { _tag: "WorkFolderFailed", reason: result.reason }
      // R13: a folder gone under the run is the run's end, not the file's failure.
      if (options.targetGone === true) return { _tag: "TargetLost" }
      return { _tag: "Record", status: "failed", reason: result.reason }
  }
}
