import { describe, expect, it } from "vitest"
import type { Failure } from "./failure_reason.ts"
import type { IngestResult } from "./ingest_result.ts"
import { type DecideResultOptions, decideResult, describeWorkFolderError } from "./result_decision.ts"

const done = (lines?: number): IngestResult => ({ status: "done", tsvCount: 1, log: [], ...(lines === undefined ? {} : { lines }) })
const failed = (failure: Failure): IngestResult => ({ status: "failed", failure, log: [] })
const reroute: IngestResult = { status: "reroute", failure: { reason: "needs-office", detail: "Word 6.0" }, app: "document", log: [] }
const stopped: IngestResult = { status: "stopped", log: [] }
const options = (extra: Partial<DecideResultOptions> = {}): DecideResultOptions => ({
  stopRequested: false, fromOwner: false, targetGone: () => false, bodyPathBytes: () => 100, maxPathBytes: 4096, ...extra
})
const full: Failure = { reason: "work-folder", detail: "ENOSPC: no space left on device, write" }

describe("decideResult() (R13, R14, R18, C2)", () => {
  it.each([
    { name: "done", r: done(3), o: options(), step: { _tag: "Done", empty: false } },
    { name: "done, no text", r: done(0), o: options(), step: { _tag: "Done", empty: true } },
    { name: "done, lines not counted", r: done(), o: options(), step: { _tag: "Done", empty: false } },
    { name: "done, path at the limit", r: done(1), o: options({ bodyPathBytes: () => 4096 }), step: { _tag: "Done", empty: false } },
    {
      name: "done, path past the limit", r: done(1), o: options({ bodyPathBytes: () => 4097 }),
      step: {
        _tag: "Failed",
        failure: {
          reason: "path-too-long",
          detail: "its body-index path would be 4097 bytes, more than this system allows (4096); move the work folder to a shorter path or the file to a less deep folder"
        },
        removeBody: false
      }
    },
    { name: "done, staging unreadable", r: done(1), o: options({ bodyPathBytes: () => undefined }), step: { _tag: "Done", empty: false } },
    {
      name: "failed", r: failed({ reason: "corrupt", detail: "bad zip" }), o: options(),
      step: { _tag: "Failed", failure: { reason: "corrupt", detail: "bad zip" }, removeBody: true }
    },
    { name: "failed, folder gone", r: failed({ reason: "unreadable", detail: "ENOENT" }), o: options({ targetGone: () => true }), step: { _tag: "TargetLost" } },
    {
      name: "failed, disk full", r: failed(full), o: options(),
      step: { _tag: "WorkFolderFailed", failure: full }
    },
    {
      name: "failed, disk full and folder gone", r: failed(full), o: options({ targetGone: () => true }),
      step: { _tag: "WorkFolderFailed", failure: full }
    },
    { name: "stopped", r: stopped, o: options(), step: { _tag: "KeepPending" } },
    { name: "reroute", r: reroute, o: options(), step: { _tag: "Reroute", app: "document" } },
    { name: "reroute after a stop", r: reroute, o: options({ stopRequested: true }), step: { _tag: "KeepPending" } },
    {
      name: "reroute from an owner", r: reroute, o: options({ fromOwner: true }),
      step: { _tag: "Failed", failure: { reason: "needs-office", detail: "Word 6.0" }, removeBody: true }
    }
  ])("$name → $step._tag", ({ r, o, step }) => {
    expect(decideResult(r, o)).toEqual(step)
  })

  it("asks about the folder only for a failed file and about the path only for a done one", () => {
    const asked: Array<string> = []
    const o = options({ targetGone: () => (asked.push("folder"), false), bodyPathBytes: () => (asked.push("path"), 1) })
    for (const r of [done(1), failed({ reason: "corrupt", detail: "x" }), stopped, reroute]) decideResult(r, o)
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
    expect(describeWorkFolderError(detail, "en")).toBe(isFull
      ? `The disk of the work folder is full: free some space and start indexing again; it continues where it stopped. (${detail})`
      : detail)
    // Japanese first (issue 16): the run's language words it.
    expect(describeWorkFolderError(detail, "ja")).toBe(isFull
      ? `作業フォルダのディスクがいっぱいです。空きを作ってから、もう一度インデックス作成を始めると続きから取り込みます。（${detail}）`
      : detail)
  })
})
