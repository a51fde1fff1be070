/**
 * Test-only crash points (issue 8): named places inside the indexing run
 * where a fault-injection campaign can kill the process exactly, to prove the
 * crash guarantees (C1–C3) at the worst moments rather than at random ones.
 *
 * Off unless `SAGASU_CRASH_POINT=<name>[:<n>]` is set: then the `n`-th time
 * (default 1st) the point `name` is reached, the process kills itself with
 * SIGKILL — no finalizer, no flush, as a power cut would.
 *
 * @module
 */

const setting = process.env.SAGASU_CRASH_POINT ?? ""
const [armedName = "", armedCount = "1"] = setting.split(":")
let reached = 0

/** The crash points the run passes, in order of a file's life. */
export type CrashPointName =
  | "journal.after-start" // a file handed to a worker, before its result
  | "result.before-append" // a result received, before its ingest-list row
  | "publish.after-aside" // the previous body-index folder moved aside, the new one not yet in place
  | "publish.before-journal" // the folder swapped in, `published` not yet journaled
  | "finally.before-rewrite" // the finally step, before the ingest list is rewritten
  | "gram.mid-update" // inside the 2-gram update
  | "team.mid-file" // a file's rows sent to the team server, its transaction not committed (issue 18)
  | "team.before-flip" // every file of an index published to the team server, its generation not flipped

/** Kills the process here when this point is armed (see the module doc); otherwise does nothing. */
export function crashPoint(name: CrashPointName): void {
  if (armedName === "" || name !== armedName) return
  reached++
  if (reached === Number(armedCount)) process.kill(process.pid, "SIGKILL")
}
