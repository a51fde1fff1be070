/**
 * Why a file failed, and whose fault that is (issue 15, R9, R14, R18): the
 * file's (only a person changing the file helps; retried only with
 * `retryFailed`), the environment's (a permission, LibreOffice missing or
 * not starting: fixed without touching the file, so the next run retries it
 * without being asked), or the work folder's (its disk full: the run's own
 * error, R18 — the file is not recorded as failed at all and stays pending).
 *
 * A failed row's reason is `<reason>: <detail>`, the reason one of
 * {@link FailureReason} (the extractor's {@link ExtractFailure} and the Office
 * owners' and the commander's own); {@link failureReasonOf} reads it back.
 *
 * @module
 */
import { Schema } from "effect"
import { ExtractFailure } from "./extraction.ts"

/**
 * Every reason a worker or the commander gives a failed file, beyond the
 * extractor's: `timeout` (W4), `office-missing`, `office-start-failed`,
 * `conversion-failed` (the Office owners), `path-too-long` (its body-index
 * path passes the system's limit, C2), `work-folder` (its TSVs or
 * LibreOffice's files could not be written to the work folder: disk full, …).
 */
export const FailureReason = Schema.Literal(
  ...ExtractFailure.literals,
  "timeout",
  "office-missing",
  "office-start-failed",
  "conversion-failed",
  "path-too-long",
  "work-folder"
)
export type FailureReason = typeof FailureReason.Type

/** Whose fault a failure is; see the module doc. */
export type FailureCause = "file" | "environment" | "work-folder"

/**
 * The decision, one line per reason. Why each:
 * - the file's: `empty-file`, `encrypted`, `not-office`, `corrupt`,
 *   `too-large`, `needs-office` (no reader for this content, Office
 *   included), `conversion-failed` (LibreOffice ran and could not convert
 *   this file; a conversion the full disk broke is `work-folder` before it is
 *   recorded), `path-too-long` (its place in the tree; moved, it is a new
 *   file). A saved-again file changes size or mtime and is a target anyway.
 * - `timeout` is the file's too: it is most often a huge or damaged file, and
 *   retrying it unasked would cost the whole limit (10 minutes by default)
 *   in every run; the message says to raise `fileTimeoutMinutes` and retry.
 * - the environment's: `unreadable` (a permission, a lock by another
 *   program, an I/O error on a share), `office-missing` (install LibreOffice),
 *   `office-start-failed` (LibreOffice or the machine, not the file). Each
 *   fails fast when the cause is still there, so retrying costs little.
 * - `work-folder`: the run's error (R18).
 */
const causes: Readonly<Record<FailureReason, FailureCause>> = {
  "empty-file": "file",
  encrypted: "file",
  "needs-office": "file",
  "not-office": "file",
  corrupt: "file",
  "too-large": "file",
  "conversion-failed": "file",
  "path-too-long": "file",
  timeout: "file",
  unreadable: "environment",
  "office-missing": "environment",
  "office-start-failed": "environment",
  "work-folder": "work-folder"
}

/** Whose fault a failure for `reason` is. */
export function failureCause(reason: FailureReason): FailureCause {
  return causes[reason]
}

const isFailureReason = Schema.is(FailureReason)

/**
 * The reason of a failed row's text `<reason>: <detail>` (or a bare
 * `<reason>`); `undefined` when the text starts with no known reason (a row
 * written by another version).
 */
export function failureReasonOf(text: string): FailureReason | undefined {
  const colon = text.indexOf(":")
  const head = (colon < 0 ? text : text.slice(0, colon)).trim()
  return isFailureReason(head) ? head : undefined
}

/**
 * Whose fault the failure with row text `text` is; a text without a known
 * reason is the file's (it is not retried unasked, as before issue 15).
 */
export function failureCauseOf(text: string): FailureCause {
  const reason = failureReasonOf(text)
  return reason === undefined ? "file" : failureCause(reason)
}
