/**
 * A worker's result for one file (W1) and what the commander does with it (R14).
 *
 * @module
 */
import { Schema } from "effect"
import { AppKind } from "./app_kind.ts"
import { Failure, failureCause } from "./failure_reason.ts"

/**
 * One line of a file's log block (R4), as data: a worker says what it saw,
 * the commander words it in the run's language (`messages(language).logNote`,
 * issue 16: every line of the log from the catalogue). `Read`: the file's
 * parts (sheets, the document, slides …) and lines staged, and the worker's
 * time for it, ms (through LibreOffice: the whole, conversion included);
 * `NoText`: read without error but no text at all (a warning, issue 15 item
 * 10); `ReadWithoutOffice`: an Office owner found the content readable
 * without Office; `Converted`: LibreOffice converted it to `ext` in `ms`,
 * the `fileOfProcess`-th file of its process, `started` when this file
 * started that process (its number and start time, ms); `OfficeNoText`:
 * LibreOffice read no text from it, with what the plain reader had seen.
 */
export const FileNote = Schema.Union(
  Schema.TaggedStruct("Read", { parts: Schema.Number, lines: Schema.Number, ms: Schema.Number }),
  Schema.TaggedStruct("NoText", {}),
  Schema.TaggedStruct("ReadWithoutOffice", {}),
  Schema.TaggedStruct("Converted", {
    ext: Schema.String,
    ms: Schema.Number,
    fileOfProcess: Schema.Number,
    started: Schema.optional(Schema.Struct({ process: Schema.Number, ms: Schema.Number }))
  }),
  Schema.TaggedStruct("OfficeNoText", { detail: Schema.String })
)
export type FileNote = typeof FileNote.Type

const Log = Schema.Array(FileNote)

/** `done`: `tsvCount` TSVs staged; `lines` counts their lines of text (0 is a file read with no text: its log block is a warning, issue 15 item 10). */
export const IngestDone = Schema.Struct({
  status: Schema.Literal("done"),
  tsvCount: Schema.Number,
  log: Log,
  lines: Schema.optional(Schema.Number)
})

/** `failed`, with its {@link Failure}; nothing staged counts. */
export const IngestFailed = Schema.Struct({
  status: Schema.Literal("failed"),
  failure: Failure,
  log: Log
})

/** `reroute`: the plain reader found the file needs Office (`failure` says why); `app` names the owner, absent when none is known. */
export const IngestReroute = Schema.Struct({
  status: Schema.Literal("reroute"),
  failure: Failure,
  app: Schema.optional(AppKind),
  log: Log
})

/** `stopped`: a stop reached the file before or while it was read; nothing staged counts (W5). */
export const IngestStopped = Schema.Struct({
  status: Schema.Literal("stopped"),
  log: Log
})

/**
 * A worker's result (W1), a union tagged by `status` (the ingest list's and
 * SPEC's word): only a `done` result has TSVs, only a `failed` or `reroute`
 * one a {@link Failure} (issue 17: a failure is data, never text). `log`
 * holds the file's log lines (R4) as {@link FileNote}s; a failure is not
 * among them (the block's first line says it, once).
 */
export const IngestResult = Schema.Union(IngestDone, IngestFailed, IngestReroute, IngestStopped)
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
  | { readonly _tag: "Record"; readonly status: "done" }
  | { readonly _tag: "Record"; readonly status: "failed"; readonly failure: Failure }
  | { readonly _tag: "WorkFolderFailed"; readonly failure: Failure }
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
        return { _tag: "Record", status: "failed", failure: result.failure }
      }
      return { _tag: "Reroute", app: result.app }
    case "stopped":
      return { _tag: "KeepPending" }
    case "done":
      return { _tag: "Record", status: "done" }
    case "failed":
      if (failureCause(result.failure.reason) === "work-folder") return { _tag: "WorkFolderFailed", failure: result.failure }
      // R13: a folder gone under the run is the run's end, not the file's failure.
      if (options.targetGone === true) return { _tag: "TargetLost" }
      return { _tag: "Record", status: "failed", failure: result.failure }
  }
}
