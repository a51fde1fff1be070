import { describe, expect, it } from "vitest"
import type { IngestResult } from "./ingest_result.ts"
import { type DecideResultOptions, decideResult, describeWorkFolderError, pathTooLongReason } from "./result_decision.ts"

const result = (status: IngestResult["status"], extra: Partial<IngestResult> = {}): IngestResult => ({
  status, tsvCount: 0, reason: "", log: [], ...extra
})
const options = (extra: Partial<DecideResultOptions> = {}): DecideResultOptions => ({
  stopRequested: false, fromOwner: false, targetGone: () => false, bodyPathBytes: () => 100, maxPathBytes: 4096, ...extra
})
const full = "work-folder: ENOSPC: no space left on device, write"

describe("decideResult() (R13, R14, R18, C2)", () => {
  it.each([
    { name: "done", r: result("done", { lines: 3 }), o: options(), step: { _tag: "Done", empty: false } },
    { name: "done, no text", r: result("done", { lines: 0 }), o: options(), step: { _tag: "Done", empty: true } },
    { name: "done, lines not counted", r: result("done"), o: options(), step: { _tag: "Done", empty: false } },
    { name: "done, path at the limit", r: result("done", { lines: 1 }), o: options({ bodyPathBytes: () => 4096 }), step: { _tag: "Done", empty: false } },
    {
      name: "done, path past the limit", r: result("done", { lines: 1 }), o: options({ bodyPathBytes: () => 4097 }),
      step: { _tag: "Failed", reason: pathTooLongReason(4097, 4096), removeBody: false }
    },
    { name: "done, staging unreadable", r: result("done", { lines: 1 }), o: options({ bodyPathBytes: () => undefined }), step: { _tag: "Done", empty: false } },
    { name: "failed", r: result("failed", { reason: "corrupt: bad zip" }), o: options(), step: { _tag: "Failed", reason: "corrupt: bad zip", removeBody: true } },
    { name: "failed, folder gone", r: result("failed", { reason: "unreadable: ENOENT" }), o: options({ targetGone: () => true }), step: { _tag: "TargetLost" } },
    {
      name: "failed, disk full", r: result("failed", { reason: full }), o: options(),
      step: { _tag: "WorkFolderFailed", reason: full, message: `The disk of the work folder is full: free some space and start indexing again; it continues where it stopped. (${full})` }
    },
    {
      name: "failed, disk full and folder gone", r: result("failed", { reason: full }), o: options({ targetGone: () => true }),
      step: { _tag: "WorkFolderFailed", reason: full, message: describeWorkFolderError(full) }
    },
    { name: "stopped", r: result("stopped"), o: options(), step: { _tag: "KeepPending" } },
    { name: "reroute", r: result("reroute", { app: "document" }), o: options(), step: { _tag: "Reroute", app: "document" } },
    { name: "reroute after a stop", r: result("reroute", { app: "document" }), o: options({ stopRequested: true }), step: { _tag: "KeepPending" } },
    {
      name: "reroute from an owner", r: result("reroute", { app: "document" }), o: options({ fromOwner: true }),
      step: { _tag: "Failed", reason: "needs-office: no Office owner can read it", removeBody: true }
    }
  ])("$name → $step._tag", ({ r, o, step }) => {
    expect(decideResult(r, o)).toEqual(step)
  })

  it("asks about the folder only for a failed file and about the path only for a done one", () => {
    const asked: Array<string> = []
    const o = options({ targetGone: () => (asked.push("folder"), false), bodyPathBytes: () => (asked.push("path"), 1) })
    for (const status of ["done", "failed", "stopped", "reroute"] as const) decideResult(result(status, { app: "spreadsheet" }), o)
    expect(asked).toEqual(["path", "folder"])
  })
})

describe("describeWorkFolderError() (R18)", () => {
  it.each([
    ["ENOSPC: no space left on device, write", true],
    ["EDQUOT: disk quota exceeded", true],
    ["No space left on device", true],
    ["EACCES: permission denied, open 'x'", false]
  ])("%s → full %s", (detail, isFull) => {
    const message = describeWorkFolderError(detail)
    expect(message).toBe(isFull
      ? `The disk of the work folder is full: free some space and start indexing again; it continues where it stopped. (${detail})`
      : detail)
  })
})
