import { describe, expect, it } from "vitest"
import { type IngestRow, formatIngestList, formatIngestRow, latestRows, parseIngestList, parseIngestRow } from "./ingest_list.ts"

const row = (path: string, status: IngestRow["status"], reason = ""): IngestRow => ({
  index: "共有", path, size: 1024, mtimeMs: 1700000000123.5, status, reason
})

describe("ingest list rows (C1, R15)", () => {
  it("formats a row as escaped TSV and parses it back", () => {
    const r = row("見積/tab\there.xlsx", "failed", "corrupt: line1\nline2")
    const line = formatIngestRow(r)
    expect(line).toBe("共有\t見積/tab\\there.xlsx\t1024\t1700000000123.5\tfailed\tcorrupt: line1\\nline2")
    expect(parseIngestRow(line)).toEqual(r)
  })

  it("ignores the header, blank lines and a torn last line after a crash", () => {
    const text = formatIngestList([row("a.xlsx", "done")]) + "共有\tb.xlsx\t10"
    expect(parseIngestList(text)).toEqual([row("a.xlsx", "done")])
    expect(parseIngestRow("共有\tc.xlsx\t1\t2\tbogus\t")).toBeUndefined()
  })

  it("keeps the last row per file, in first-seen order", () => {
    const rows = [row("a.xlsx", "pending"), row("b.docx", "pending"), row("a.xlsx", "done")]
    expect(latestRows(rows)).toEqual([row("a.xlsx", "done"), row("b.docx", "pending")])
  })
})
