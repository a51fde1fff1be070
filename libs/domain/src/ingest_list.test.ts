import { describe, expect, it } from "vitest"
import type { Failure } from "./failure_reason.ts"
import { type IngestRow, formatIngestList, formatIngestRow, latestRows, parseIngestList, parseIngestRow } from "./ingest_list.ts"

const row = (path: string, status: IngestRow["status"], failure?: Failure): IngestRow => ({
  index: "共有", path, size: 1024, mtimeMs: 1700000000123.5, status, ...(failure === undefined ? {} : { failure })
})

describe("ingest list rows (C1, R15)", () => {
  it("formats a row as escaped TSV and parses it back", () => {
    const r = row("見積/tab\there.xlsx", "failed", { reason: "corrupt", detail: "line1\nline2" })
    const line = formatIngestRow(r)
    expect(line).toBe("共有\t見積/tab\\there.xlsx\t1024\t1700000000123.5\tfailed\tcorrupt: line1\\nline2")
    expect(parseIngestRow(line)).toEqual(r)
  })

  // Issue 17: the `reason` column keeps its text form; rows of older work folders decode to the same structure.
  it.each([
    ["corrupt: bad zip", { reason: "corrupt", detail: "bad zip" }],
    ["unreadable: EACCES: permission denied, open '/s/a.xlsx'", { reason: "unreadable", detail: "EACCES: permission denied, open '/s/a.xlsx'" }],
    ["timeout", { reason: "timeout", detail: "" }],
    ["Corrupt: capitals are another word", { reason: "unknown", detail: "Corrupt: capitals are another word" }],
    ["unknown: a reason of another version", { reason: "unknown", detail: "unknown: a reason of another version" }],
    ["", { reason: "unknown", detail: "" }]
  ] as const)("decodes a failed row's reason %j", (text, failure) => {
    const parsed = parseIngestRow(`共有\ta.xlsx\t1\t2\tfailed\t${text}`)
    expect(parsed?.failure).toEqual(failure)
    expect(parsed !== undefined && formatIngestRow(parsed)).toBe(`共有\ta.xlsx\t1\t2\tfailed\t${text}`)
  })

  it("a row that did not fail has no failure, whatever its reason column holds", () => {
    expect(parseIngestRow("共有\ta.xlsx\t1\t2\tdone\tcorrupt: old")).toEqual({ index: "共有", path: "a.xlsx", size: 1, mtimeMs: 2, status: "done" })
  })

  it("ignores the header, blank lines and a torn last line after a crash", () => {
    const text = formatIngestList([row("a.xlsx", "done")]) + "共有\tb.xlsx\t10"
    expect(parseIngestList(text)).toEqual([row("a.xlsx", "done")])
    expect(parseIngestRow("共有\tc.xlsx\t1\t2\tbogus\t")).toBeUndefined()
    expect(parseIngestRow("共有\tc.xlsx\t1\t2\tDone\t")).toBeUndefined()
    expect(parseIngestRow("共有\tc.xlsx\tbig\t2\tdone\t")).toBeUndefined()
    expect(parseIngestRow("共有\tc.xlsx\t1\tInfinity\tpending\t")).toBeUndefined()
    expect(parseIngestRow("共有\tc.xlsx\t1\t2\tpending")).toEqual({ index: "共有", path: "c.xlsx", size: 1, mtimeMs: 2, status: "pending" })
  })

  it("keeps the last row per file, in first-seen order", () => {
    const rows = [row("a.xlsx", "pending"), row("b.docx", "pending"), row("a.xlsx", "done")]
    expect(latestRows(rows)).toEqual([row("a.xlsx", "done"), row("b.docx", "pending")])
  })
})
