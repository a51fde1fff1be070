/**
 * Why a file failed, and whose fault that is (issue 15, R9, R14, R18): the
 * file's (only a person changing the file helps; retried only with
 * `retryFailed`), the environment's (a permission, LibreOffice missing or
 * not starting: fixed without touching the file, so the next run retries it
 * without being asked), or the work folder's (its disk full: the run's own
 * error, R18 — the file is not recorded as failed at all and stays pending).
 *
 * A failure is data end to end (issue 17, STYLE 13): a {@link Failure} is a
 * closed {@link FailureReason} and the detail of what was seen; the sentence
 * a person reads is made from it by the message catalogue (`messages.ts`,
 * `failureReason`/`failure`) at the edge. No code reads a reason back from
 * text: the only text form is the ingest list's `reason` column
 * (`<reason>: <detail>`), written and decoded by {@link FailureFromText} at
 * the row format's edge.
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
 * LibreOffice's files could not be written to the work folder: disk full, …),
 * and `unknown`, which no worker gives: a failed row of the ingest list whose
 * text starts with no reason this version knows (written by another version);
 * its whole text is the detail.
 */
export const FailureReason = Schema.Literal(
  ...ExtractFailure.literals,
  "timeout",
  "office-missing",
  "office-start-failed",
  "conversion-failed",
  "path-too-long",
  "work-folder",
  "unknown"
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
 * - `unknown` (a row of another version): the file's, so it is not retried
 *   unasked, as before issue 15.
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
  "work-folder": "work-folder",
  unknown: "file"
}

/** Whose fault a failure for `reason` is. */
export function failureCause(reason: FailureReason): FailureCause {
  return causes[reason]
}

/**
 * A failed file's failure: the closed `reason` and the `detail` of what was
 * seen (the part, the parser's or the system's own words, sizes), for a
 * person to read after the catalogue's sentence; never parsed.
 */
export const Failure = Schema.Struct({
  reason: FailureReason,
  detail: Schema.String
})
export type Failure = typeof Failure.Type

/** The failure with `reason` and `detail`. */
export function failure(reason: FailureReason, detail: string): Failure {
  return { reason, detail }
}

const isKnownReason = (head: string): head is FailureReason => head !== "unknown" && (FailureReason.literals as ReadonlyArray<string>).includes(head)

/**
 * The ingest list's text of a failure, the `reason` column of a failed row
 * (stable since the first layout, so old work folders read as before):
 * `<reason>: <detail>` (a bare `<reason>` when there is no detail); an
 * `unknown` failure is its detail, the text it was read from. Decoding is the
 * row format's edge: a text whose head is no known reason is `unknown` with
 * the whole text as its detail.
 */
export const FailureFromText = Schema.transform(Schema.String, Failure, {
  strict: true,
  decode: (text) => {
    const colon = text.indexOf(":")
    const head = (colon < 0 ? text : text.slice(0, colon)).trim()
    return isKnownReason(head)
      ? { reason: head, detail: colon < 0 ? "" : text.slice(colon + 1).trim() }
      : { reason: "unknown" as const, detail: text }
  },
  encode: (f) => (f.reason === "unknown" ? f.detail : f.detail === "" ? f.reason : `${f.reason}: ${f.detail}`)
})

/** The ingest list's text of `failure` ({@link FailureFromText}). */
export const formatFailureText: (failure: Failure) => string = Schema.encodeSync(FailureFromText)

/** The failure of a failed row's `reason` text ({@link FailureFromText}); for the store's and tests' edges. */
export const parseFailureText: (text: string) => Failure = Schema.decodeSync(FailureFromText)
