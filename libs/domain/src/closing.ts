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
  if (outcome.failed.length === 0) return head
  return [head, text.failedFilesHeading, ...outcome.failed.map((f) => `  ${f.index}/${f.path}: ${text.failure(f.failure)}`)].join("\n")
}
