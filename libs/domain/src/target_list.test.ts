import { describe, expect, it } from "vitest"
import { type IngestRow, fileKey } from "./ingest_list.ts"
import { type CrawledFile, computeTargetList } from "./target_list.ts"

const file = (path: string, size = 100, mtimeMs = 1000, index = "A", cloudOnly = false): CrawledFile => ({
  index, path, size, mtimeMs, cloudOnly
})
const row = (path: string, status: IngestRow["status"], size = 100, mtimeMs = 1000, index = "A"): IngestRow => ({
  index, path, size, mtimeMs, status, reason: status === "failed" ? "corrupt: x" : ""
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
      index: "A", new: 1, changed: 1, pending: 0, failedLastTime: 1, retry: 0, unchanged: 1, vanished: 1, cloudSkipped: 1
    })
  })
})
