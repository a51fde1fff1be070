/**
 * The one error of the Office owners (W3, W4): a closed reason plus a detail
 * naming what was seen. A failed file is a result for the commander, never a
 * reason to stop the run.
 *
 * @module
 */
import { Schema } from "effect"
import { ExtractFailure } from "@sagasu/domain"

/**
 * Why a file given to an Office owner yielded no text:
 * - `timeout`: start-up plus conversion took longer than the per-file limit;
 *   the owner's LibreOffice was killed (W4);
 * - `office-missing`: the `soffice` command is not installed (or not on PATH);
 * - `office-start-failed`: LibreOffice is installed but did not come up;
 * - `conversion-failed`: LibreOffice ran but wrote no valid OOXML file (it
 *   exits 0 for files it cannot load: BUG-27);
 * - and the extractor's own reasons ({@link ExtractFailure}), found either on
 *   the source before Office is asked (`encrypted`, `empty-file`, …) or on the
 *   converted file.
 */
export const OfficeFailureReason = Schema.Literal(
  "timeout",
  "office-missing",
  "office-start-failed",
  "conversion-failed",
  ...ExtractFailure.literals
)
export type OfficeFailureReason = typeof OfficeFailureReason.Type

/** The Debian/Ubuntu packages that provide headless LibreOffice for the three kinds (what CI installs too). */
export const libreOfficePackages = ["libreoffice-calc-nogui", "libreoffice-writer-nogui", "libreoffice-impress-nogui"] as const

/** How to get LibreOffice, for the `office-missing` message and the log header. */
export const installLibreOfficeHint =
  `install LibreOffice: on Debian/Ubuntu \`sudo apt-get install --no-install-recommends ${libreOfficePackages.join(" ")}\`; ` +
  "elsewhere from https://www.libreoffice.org/download/ with `soffice` on PATH; then run the indexing again"

const advice: Record<OfficeFailureReason, string> = {
  timeout: "LibreOffice took longer than the per-file time limit and was stopped; the file may be very large or damaged (raise fileTimeoutMinutes to give it more time)",
  "office-missing": `this format is read through LibreOffice, which is not installed; ${installLibreOfficeHint}`,
  "office-start-failed": "LibreOffice is installed but did not start; check that `soffice --headless` works for this user and that the work folder is writable",
  "conversion-failed": "LibreOffice could not convert the file; open it in Office or LibreOffice and save it again to index it",
  "empty-file": "the file has zero bytes; nothing to index until it is saved again",
  encrypted: "the file is password-protected; open it in Office, remove the password and save it again to index it",
  "needs-office": "this format needs Office, which could not read it",
  "not-office": "the content is not an Office document whatever its name says; it is skipped",
  corrupt: "the file is damaged; open it in Office and save it again (Office often repairs it)",
  "too-large": "the file expands beyond the extraction limits; split it or raise the limit",
  unreadable: "the file could not be read from disk; check its permissions and that it is not locked"
}

/**
 * Why one file could not be ingested through Office. `message` is
 * `"<reason>: <what to do> (<detail>)"`, the same shape as the extractor's
 * errors, so the ingest list's reason reads the same on both paths.
 * Interrupting {@link OfficeOwner.ingest} (a stop, W5) is not a failure: the
 * fiber is interrupted and the caller keeps the file pending.
 *
 * @category errors
 */
export class OfficeFailure extends Schema.TaggedError<OfficeFailure>()("OfficeFailure", {
  reason: OfficeFailureReason,
  detail: Schema.String
}) {
  override get message(): string {
    return `${this.reason}: ${advice[this.reason]} (${this.detail})`
  }
}
