/**
 * The one error of text extraction: a closed reason (the ingest list's failure
 * reason) plus a detail that names the part and the underlying cause.
 *
 * @module
 */
import { Schema } from "effect"
import { AppKind, ExtractFailure } from "@sagasu/domain"

/** What a person can do about each reason; the detail says what was found. */
const advice: Record<ExtractFailure, string> = {
  "empty-file": "the file has zero bytes; nothing to index until it is saved again",
  encrypted:
    "the file is encrypted; open it in Office, remove the password and save it again to index it",
  "needs-office": "this format is read through LibreOffice (the Office owner), not by the plain reader",
  "not-office": "the content is not an Office document whatever its name says; it is skipped",
  corrupt: "the file is damaged; open it in Office and save it again (Office often repairs it)",
  "too-large": "the file expands beyond the extraction limits; split it or raise the limit",
  unreadable: "the file could not be read from disk; check its permissions and that it is not locked"
}

/**
 * Why one source file yielded no text. Never a defect: every failure of
 * reading, unpacking or parsing a file ends up here with a specific
 * {@link ExtractFailure} `reason` and a `detail` naming what was found (the
 * part name and the parser's own message for `corrupt`). What a reader found
 * that code acts on is a field, never words of the detail (issue 17): `app`,
 * the application of content found behind the name (a Word or PowerPoint
 * stream in an OLE2 file: the Office owner a `needs-office` file goes to),
 * `openDocument` for an OpenDocument package (whose encryption only its
 * manifest tells, `office/_precheck.ts`).
 *
 * @category errors
 */
export class ExtractError extends Schema.TaggedError<ExtractError>()("ExtractError", {
  reason: ExtractFailure,
  detail: Schema.String,
  app: Schema.optional(AppKind),
  openDocument: Schema.optional(Schema.Boolean)
}) {
  /** `"<reason>: <advice> (<detail>)"`, e.g. `encrypted: the file is encrypted; … (OLE2 container with an EncryptedPackage stream)`. */
  override get message(): string {
    return `${this.reason}: ${advice[this.reason]} (${this.detail})`
  }
}
