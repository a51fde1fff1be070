import { describe, expect, it } from "vitest"
import { parseFailureText } from "./failure_reason.ts"
import { type IngestRow, fileKey } from "./ingest_list.ts"
import { type CrawledFile, computeTargetList, decideAfterTargets, rowsKeptOnCancel } from "./target_list.ts"

const file = (path: string, size = 100, mtimeMs = 1000, index = "A", cloudOnly = false): CrawledFile => ({
  index, path, size, mtimeMs, cloudOnly
})
const row = (path: string, status: IngestRow["status"], size = 100, mtimeMs = 1000, index = "A"): IngestRow => ({
  index, path, size, mtimeMs, status, ...(status === "failed" ? { failure: { reason: "corrupt", detail: "x" } } : {})
})
const base = { crawledIndexes: ["A"], retryFailed: false, includeCloud: false }

describe("computeTargetList() (R8, R9)", () => {
  // One row per case: the crawl, the previous row, the options → the decision.
  it.each([
    { name: "new file", crawl: file("n.xlsx"), prev: undefined, opts: {}, reason: "new" },
    { name: "size changed", crawl: file("c.xlsx", 200), prev: row("c.xlsx", "done"), opts: {}, reason: "changed" },
    { name: "mtime changed", crawl: file("c.xlsx", 100, 2000), prev: row("c.xlsx", "done"), opts: {}, reason: "changed" },
    { name: "unchanged done", crawl: file("u.xlsx"), prev: row("u.xlsx", "done"), opts: {}, reason: undefined },
    { name: "left pending", crawl: file("p.xlsx"), prev: row("p.xlsx", "pending"), opts: {}, reason: "pending" },
    { name: "failed, no retry", crawl: file("f.xlsx"), prev: row("f.xlsx", "failed"), opts: {}, reason: undefined },
    { name: "failed, retry", crawl: file("f.xlsx"), prev: row("f.xlsx", "failed"), opts: { retryFailed: true }, reason: "retry" },
    { name: "failed but changed", crawl: file("f.xlsx", 5), prev: row("f.xlsx", "failed"), opts: {}, reason: "changed" },
    { name: "cloud-only new, skip", crawl: file("k.xlsx", 100, 1000, "A", true), prev: undefined, opts: {}, reason: undefined },
    { name: "cloud-only new, download", crawl: file("k.xlsx", 100, 1000, "A", true), prev: undefined, opts: { includeCloud: true }, reason: "cloud" },
    { name: "cloud-only unchanged done", crawl: file("k.xlsx", 100, 1000, "A", true), prev: row("k.xlsx", "done"), opts: {}, reason: undefined }
  ])("$name → $reason", ({ crawl, prev, opts, reason }) => {
    const list = computeTargetList([crawl], prev === undefined ? [] : [prev], { ...base, ...opts })
    expect(list.targets.map((t) => t.reason)).toEqual(reason === undefined ? [] : [reason])
  })

  it("puts files that were in flight at a crash last (C1)", () => {
    const crawl = [file("1.xlsx"), file("2.xlsx"), file("3.xlsx")]
    const prev = [row("1.xlsx", "pending"), row("2.xlsx", "pending"), row("3.xlsx", "pending")]
    const list = computeTargetList(crawl, prev, { ...base, inFlight: new Set([fileKey("A", "1.xlsx")]) })
    expect(list.targets.map((t) => [t.path, t.reason])).toEqual([
      ["2.xlsx", "pending"], ["3.xlsx", "pending"], ["1.xlsx", "inFlight"]
    ])
  })

  it("removes vanished files only in crawled indexes and keeps other indexes' rows untouched (R5, R8)", () => {
    const prev = [row("gone.xlsx", "done"), row("kept.xlsx", "done"), row("other.xlsx", "pending", 1, 1, "B")]
    const list = computeTargetList([file("kept.xlsx")], prev, base)
    expect(list.vanished.map((r) => r.path)).toEqual(["gone.xlsx"])
    expect(list.rows).toEqual([row("kept.xlsx", "done"), row("other.xlsx", "pending", 1, 1, "B")])
  })

  it("records targets as pending with their new size and mtime; cloud-skipped keep their old row (R9, R11)", () => {
    const prev = [row("c.xlsx", "done"), row("k.xlsx", "failed")]
    const crawl = [file("c.xlsx", 300, 3000), file("k.xlsx", 9, 9, "A", true), file("n.docx", 7, 7)]
    const list = computeTargetList(crawl, prev, base)
    expect(list.rows).toEqual([
      { ...row("c.xlsx", "pending", 300, 3000) },
      row("k.xlsx", "failed"),
      { ...row("n.docx", "pending", 7, 7) }
    ])
    expect(list.cloudSkipped.map((f) => f.path)).toEqual(["k.xlsx"])
  })

  it("counts per index for the plan (R10)", () => {
    const prev = [row("c.xlsx", "done"), row("f.xlsx", "failed"), row("u.xlsx", "done"), row("v.xlsx", "done")]
    const crawl = [file("c.xlsx", 1), file("f.xlsx"), file("u.xlsx"), file("n.xlsx"), file("k.xlsx", 1, 1, "A", true)]
    const [counts] = computeTargetList(crawl, prev, base).counts
    expect(counts).toEqual({
      index: "A", new: 1, changed: 1, pending: 0, failedLastTime: 1, failedByEnvironment: 0, retry: 0, unchanged: 1, vanished: 1, cloudSkipped: 1
    })
  })

  // Issue 15: a failure of the environment is retried without retryFailed; a failure of the file is not.
  // A failed row as the ingest list's text gives it (the store decodes its `reason` column so).
  const failed = (path: string, reason: string): IngestRow => ({ ...row(path, "failed"), failure: parseFailureText(reason) })
  it.each([
    { reason: "unreadable: EACCES: permission denied, open '/s/a.xlsx'", retryFailed: false, target: "environment" },
    { reason: "office-missing: command \"soffice\" not found", retryFailed: false, target: "environment" },
    { reason: "office-start-failed: LibreOffice exited during start-up", retryFailed: true, target: "environment" },
    { reason: "work-folder: no space left", retryFailed: false, target: "environment" },
    { reason: "corrupt: bad zip", retryFailed: false, target: undefined },
    { reason: "timeout: reading the file took longer than 10m", retryFailed: false, target: undefined },
    { reason: "conversion-failed: LibreOffice wrote no output", retryFailed: false, target: undefined },
    { reason: "a reason of another version", retryFailed: false, target: undefined },
    { reason: "corrupt: bad zip", retryFailed: true, target: "retry" }
  ])("failed with $reason (retryFailed $retryFailed) → $target", ({ reason, retryFailed, target }) => {
    const list = computeTargetList([file("f.xlsx")], [failed("f.xlsx", reason)], { ...base, retryFailed })
    expect(list.targets.map((t) => t.reason)).toEqual(target === undefined ? [] : [target])
    expect(list.rows.map((r) => r.status)).toEqual([target === undefined ? "failed" : "pending"])
  })

  it("counts failures of the environment apart from the file's (R10, issue 15)", () => {
    const prev = [failed("e1.xlsx", "unreadable: EIO"), failed("e2.xls", "office-missing: x"), failed("f.xlsx", "encrypted: x"), failed("g.xlsx", "corrupt: x")]
    const crawl = [file("e1.xlsx"), file("e2.xls"), file("f.xlsx"), file("g.xlsx")]
    for (const retryFailed of [false, true]) {
      const [counts] = computeTargetList(crawl, prev, { ...base, retryFailed }).counts
      expect(counts).toMatchObject({ failedLastTime: 2, failedByEnvironment: 2, retry: retryFailed ? 2 : 0, unchanged: 0 })
    }
  })
})

describe("computeTargetList() shields what the crawl could not read (R8)", () => {
  // The crawl saw `seen`; `unreadable` are the entries it could not read; the previous rows are
  // done rows of these paths. Rows at or under an unreadable entry stay as they were, last.
  it.each([
    { name: "nothing unreadable", seen: ["a.xlsx"], unreadable: [] as Array<{ index: string; path: string }>, vanished: ["sub/x.xlsx", "subway.xlsx"], rows: ["a.xlsx"] },
    { name: "a folder", seen: ["a.xlsx", "subway.xlsx"], unreadable: [{ index: "A", path: "sub" }], vanished: [], rows: ["a.xlsx", "subway.xlsx", "sub/x.xlsx"] },
    { name: "a folder, not a name prefix", seen: ["a.xlsx"], unreadable: [{ index: "A", path: "sub" }], vanished: ["subway.xlsx"], rows: ["a.xlsx", "sub/x.xlsx"] },
    { name: "a file itself", seen: ["a.xlsx"], unreadable: [{ index: "A", path: "subway.xlsx" }], vanished: ["sub/x.xlsx"], rows: ["a.xlsx", "subway.xlsx"] },
    { name: "an entry of another index", seen: ["a.xlsx"], unreadable: [{ index: "B", path: "sub" }], vanished: ["sub/x.xlsx", "subway.xlsx"], rows: ["a.xlsx"] }
  ])("$name: $unreadable", ({ seen, unreadable, vanished, rows }) => {
    const prev = [row("a.xlsx", "done"), row("sub/x.xlsx", "done"), row("subway.xlsx", "done")]
    const list = computeTargetList(seen.map((p) => file(p)), prev, { ...base, unreadable })
    expect(list.vanished.map((r) => r.path)).toEqual(vanished)
    expect(list.rows.map((r) => r.path)).toEqual(rows)
    expect(list.targets).toEqual([])
  })
})

describe("rowsKeptOnCancel() (R8, R10)", () => {
  it("keeps the previous rows, targets not turned pending, vanished rows gone", () => {
    const prev = [row("c.xlsx", "done"), row("gone.xlsx", "done"), row("p.xlsx", "failed"), row("o.xlsx", "done", 1, 1, "B")]
    const list = computeTargetList([file("c.xlsx", 300), file("p.xlsx"), file("n.xlsx")], prev, base)
    expect(list.vanished.map((r) => r.path)).toEqual(["gone.xlsx"])
    expect(rowsKeptOnCancel(prev, list)).toEqual([row("c.xlsx", "done"), row("p.xlsx", "failed"), row("o.xlsx", "done", 1, 1, "B")])
  })
})

describe("decideAfterTargets() (R9, R12)", () => {
  it.each([
    { crawl: [file("n.xlsx")], decision: { _tag: "Ingest" } },
    { crawl: [], decision: { _tag: "NoTargets", message: "noTargetsNeeded" } },
    { crawl: [file("k.xlsx", 1, 1, "A", true)], decision: { _tag: "NoTargets", message: "cloudOnlyLeft" } },
    { crawl: [file("k.xlsx", 1, 1, "A", true), file("n.xlsx")], decision: { _tag: "Ingest" } }
  ])("$crawl.length crawled → $decision", ({ crawl, decision }) => {
    expect(decideAfterTargets(computeTargetList(crawl, [], base))).toEqual(decision)
  })
})
