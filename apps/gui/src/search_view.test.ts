import { queryWithOptions } from "@sagasu/store"
import { describe, expect, it } from "vitest"
import { snippetParts } from "./search_view.ts"

// SPEC §5 "Search": the hit is marked; the document's own 【 】 are text, not marks.
describe("snippetParts()", () => {
  it("marks the hit and leaves the document's own 【重要】 alone", () => {
    const text = "【重要】会議室の備品一式（見積番号 A-1234 の再提出分）"
    const parts = snippetParts({ text, snippet: "", locator: "cell" as const }, queryWithOptions("見積番号", {}))
    expect(parts).toEqual([
      { text: "【重要】会議室の備品一式（", hit: false },
      { text: "見積番号", hit: true },
      { text: " A-1234 の再提出分）", hit: false }
    ])
  })

  it("S3: marks the words a location holds, though it holds only some of the file's words", () => {
    const parts = snippetParts({ text: "出席者: 山田、佐藤", snippet: "", locator: "paragraph" as const }, queryWithOptions("山田 決定事項", {}))
    expect(parts).toEqual([{ text: "出席者: ", hit: false }, { text: "山田", hit: true }, { text: "、佐藤", hit: false }])
  })

  it("marks every term of an AND query, matched across widths", () => {
    const parts = snippetParts({ text: "見積ＮＯ．A-1234 金額", snippet: "", locator: "cell" as const }, queryWithOptions("a-1234 金額", {}))
    expect(parts.filter((p) => p.hit).map((p) => p.text)).toEqual(["A-1234", "金額"])
  })

  it("keeps markup as text (the page renders with textContent)", () => {
    const parts = snippetParts({ text: "<script>alert(1)</script> 見積", snippet: "", locator: "cell" as const }, queryWithOptions("見積", {}))
    expect(parts.map((p) => p.text).join("")).toBe("<script>alert(1)</script> 見積")
  })

  it("falls back to the snippet's 【 】 when the line no longer matches", () => {
    expect(snippetParts({ text: "other", snippet: "…前【見積】後", locator: "cell" as const }, queryWithOptions("見積", {}))).toEqual([
      { text: "…前", hit: false },
      { text: "見積", hit: true },
      { text: "後", hit: false }
    ])
  })
})
