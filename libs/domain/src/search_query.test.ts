import { describe, expect, it } from "vitest"
import { fileTypeOf, lineMatchesQuery, parseSearchQuery, passesFilters, termsInPath } from "./search_query.ts"

describe("parseSearchQuery() (issue 6: AND, phrase, exclude, index:/type:/path:)", () => {
  it.each([
    ["見積 A-1234", { terms: ["見積", "a-1234"], exclude: [], filters: [] }],
    ["見積\u3000番号", { terms: ["見積", "番号"], exclude: [], filters: [] }],
    ['"Next meeting" ２０２４', { terms: ["next meeting", "2024"], exclude: [], filters: [] }],
    ["“次回 会議”", { terms: ["次回 会議"], exclude: [], filters: [] }],
    ["見積 -下書き -\"old price\"", { terms: ["見積"], exclude: ["下書き", "old price"], filters: [] }],
    ["- 見積", { terms: ["-", "見積"], exclude: [], filters: [] }],
    ["見積 見積", { terms: ["見積"], exclude: [], filters: [] }],
    ["ミツモリ", { terms: ["みつもり"], exclude: [], filters: [] }],
    ["12:30 URL:", { terms: ["12:30", "url:"], exclude: [], filters: [] }],
    ["   ", { terms: [], exclude: [], filters: [] }],
    ["index:共有 見積", { terms: ["見積"], exclude: [], filters: [{ key: "index", values: ["共有"], negate: false }] }],
    ['index:"共有 フォルダ" x', { terms: ["x"], exclude: [], filters: [{ key: "index", values: ["共有 ふぉるだ"], negate: false }] }],
    ["ＩＮＤＥＸ：共有 x", { terms: ["x"], exclude: [], filters: [{ key: "index", values: ["共有"], negate: false }] }],
    ["type:XLSX,docx x", { terms: ["x"], exclude: [], filters: [{ key: "type", values: ["xlsx", "docx"], negate: false }] }],
    ["type:word x", {
      terms: ["x"], exclude: [],
      filters: [{ key: "type", values: ["docx", "docm", "dotx", "dotm", "doc", "odt", "rtf"], negate: false }]
    }],
    ["-path:old\\2023 x", { terms: ["x"], exclude: [], filters: [{ key: "path", values: ["old/2023"], negate: true }] }],
    ['"path:x"', { terms: ["path:x"], exclude: [], filters: [] }],
    ["path: x", { terms: ["x"], exclude: [], filters: [] }]
  ])("%j", (input, expected) => {
    expect(parseSearchQuery(input)).toEqual(expected)
  })
})

describe("filters and ranking helpers", () => {
  const subject = { index: "共有", path: "見積/2024/a.xlsx", type: "xlsx" }
  it.each([
    ["x", true],
    ["x index:共有", true],
    ["x index:他", false],
    ["x index:他,共有", true],
    ["x type:excel", true],
    ["x type:docx", false],
    ["x -type:xlsx", false],
    ["x path:2024", true],
    ["x -path:2024", false],
    ["x path:見積 type:word", false]
  ])("%j passes: %s", (query, expected) => {
    expect(passesFilters(parseSearchQuery(query), subject)).toBe(expected)
  })

  it.each([["a/b/見積.XLSX", "xlsx"], ["a.b/readme", ""], [".hidden", ""], ["x.docx", "docx"]])(
    "fileTypeOf(%j) = %j",
    (p, t) => expect(fileTypeOf(p)).toBe(t)
  )

  it("counts the terms a path names", () => {
    expect(termsInPath(parseSearchQuery("見積 2024 山田"), "見積/2024/a.xlsx")).toBe(2)
  })

  it.each([
    ["見積番号 a-1234", "見積 1234", true],
    ["見積番号 a-1234", "見積 -1234", false],
    ["見積番号 a-1234", "請求", false],
    ["見積番号", "", false]
  ])("line %j matches %j: %s", (line, query, expected) => {
    expect(lineMatchesQuery(line, parseSearchQuery(query))).toBe(expected)
  })
})
