/**
 * Child process of extract_legacy_hostile.test.ts: extracts each file given
 * on the command line as a plain worker does (into a sink that does not keep
 * the lines) and prints one JSON line per file — its outcome and reason —
 * then the process's peak resident set size in bytes, so that a test can
 * bound the memory of hostile files without its own heap in the figure.
 */
import { Cause, Effect, Exit, Option } from "effect"
import { ExtractError, extractFileTo, type ExtractionSink } from "../extract.ts"

/** A sink that drops what it is given, as a staging folder does once written. */
const dropping: ExtractionSink<never> = { keepsLines: false, beginPart: () => Effect.void, appendLines: () => Effect.void, restartPart: Effect.void, endPart: Effect.void }

for (const file of process.argv.slice(2)) {
  const sink = dropping
  const exit = await Effect.runPromiseExit(extractFileTo(file, sink))
  const failure = Exit.isFailure(exit) ? Cause.failureOption(exit.cause) : Option.none()
  const error = Option.getOrUndefined(failure)
  const outcome = Exit.isSuccess(exit) ? "done" : error instanceof ExtractError ? error.reason : `defect: ${Cause.pretty(Exit.isFailure(exit) ? exit.cause : Cause.empty)}`
  console.log(JSON.stringify({ file, outcome, detail: error instanceof ExtractError ? error.detail : "" }))
}
console.log(JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 }))
