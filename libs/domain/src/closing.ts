/**
 * The closing message of a run (R17) and the exit codes (R1).
 *
 * @module
 */
import type { Failure } from "./failure_reason.ts"
import type { Language } from "./settings.ts"
import { messages } from "./messages.ts"

/** 0 completed, 1 error, 2 stopped or cancelled (R1). */
export type ExitCode = 0 | 1 | 2

/** A file that failed this run, with its failure. */
export interface FailedFile {
  readonly index: string
  readonly path: string
  readonly failure: Failure
}

/**
 * The closing message (R17): completed or stopped with the counts, then the
 * failed files with their failures in the catalogue's words, one per line.
 */
export function closingMessage(
  language: Language,
  outcome: { readonly stopped: boolean; readonly ok: number; readonly failed: ReadonlyArray<FailedFile> }
): string {
  const text = messages(language)
  const head = outcome.stopped
    ? text.stopped(outcome.ok, outcome.failed.length)
    : text.completed(outcome.ok, outcome.failed.length)
  return [head, ...failedFileLines(language, outcome.failed)].join("\n")
}

/** The closing message's list of failed files (R17): its heading, then `  index/path: failure` a file; none when nothing failed. */
export function failedFileLines(language: Language, failed: ReadonlyArray<FailedFile>): Array<string> {
  if (failed.length === 0) return []
  const text = messages(language)
  return [text.failedFilesHeading, ...failed.map((f) => `  ${f.index}/${f.path}: ${text.failure(f.failure)}`)]
}

/**
 * The closing message's list of failed files (R17) as a terminal shows it,
 * short enough to keep the run's counts in sight (new-user trial: 25 failed
 * files, each wrapped over three or four lines, scrolled them away): the
 * heading; each reason once, in the catalogue's words with its count, the
 * files under it (the detail only for a reason recorded by another version,
 * whose detail is all it says); at most `limit` files in all, each reason an
 * even share of them (what one leaves goes to the next); then how many
 * more there are, or, when none, where the details are — `sagasu status
 * --failed` (`work`: the ` --work DIR` the next step repeats). Reasons in
 * the order their first file failed. No lines when nothing failed.
 */
export function failedFilesForTerminal(language: Language, failed: ReadonlyArray<FailedFile>, limit: number, work = ""): Array<string> {
  if (failed.length === 0) return []
  const text = messages(language)
  const byReason = new Map<FailedFile["failure"]["reason"], Array<FailedFile>>()
  for (const f of failed) {
    const group = byReason.get(f.failure.reason)
    if (group === undefined) byReason.set(f.failure.reason, [f])
    else group.push(f)
  }
  const lines = [text.failedFilesHeading]
  // Each reason its share of the room left, so that one common reason does not hide the files of the others.
  let room = limit
  let groupsLeft = byReason.size
  let left = 0
  for (const [reason, files] of byReason) {
    lines.push(`  ${text.failedFilesGroup(text.failureReason(reason), files.length)}`)
    const shown = files.slice(0, Math.ceil(room / groupsLeft--))
    for (const f of shown) lines.push(`    ${f.index}/${f.path}${reason === "unknown" ? `: ${f.failure.detail}` : ""}`)
    room -= shown.length
    left += files.length - shown.length
  }
  lines.push(`  ${left > 0 ? text.failedFilesMore(left, work) : text.failedFilesDetails(work)}`)
  return lines
}
