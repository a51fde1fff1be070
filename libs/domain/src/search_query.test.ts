import { describe, expect, it } from "vitest"
import { exclusionsReadAsText, fileTypeOf, lineMatchesQuery, parseSearchQuery, passesFilters, resolveFileType, termMaskOf, termsInPath } from "./search_query.ts"

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
      filters: [{ key: "type", values: ["docx", "docm", "dotx", "dotm", "doc", "dot", "odt", "ott", "fodt", "rtf"], negate: false }]
    }],
    ["-path:old\\2023 x", { terms: ["x"], exclude: [], filters: [{ key: "path", values: ["old/2023"], negate: true }] }],
    ['"path:x"', { terms: ["path:x"], exclude: [], filters: [] }],
    ["path: x", { terms: ["x"], exclude: [], filters: [] }]
  ])("%j", (input, expected) => {
    expect(parseSearchQuery(input)).toEqual(expected)
  })
})

describe("exclusionsReadAsText() (S3: a query of -words only is text)", () => {
  it.each([
    ["-Bloggs", true],
    ["-4.18-9.1j", true],
    ["-山田 -佐藤", true],
    ["見積 -山田", false],
    ["-山田 見積", false],
    ["-index:共有", false],
    ["--verbose", false],
    ["", false],
    ["\"-山田\"", false]
  ])("%j → %s", (input, expected) => {
    expect(exclusionsReadAsText(input)).toBe(expected)
    // The same reading as the parser's: the words are terms then, with their -.
    if (expected) expect(parseSearchQuery(input).exclude).toEqual([])
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

// Issue 14 / S3: the query as people type or paste it. Each row: the input, the terms, the excluded terms.
describe("parseSearchQuery() reads a query the way people type it (S3, issue 14)", () => {
  it.each([
    // Words anywhere in the file: space (ASCII or full-width) separates words; each is a term of its own.
    ["山田 決定事項", ["山田", "決定事項"], []],
    ["山田\u3000決定事項", ["山田", "決定事項"], []],
    ["要件 合意", ["要件", "合意"], []],
    // Japanese brackets are text: pasted as it stands, 「承認」ボタンを押す is one term.
    ["「承認」ボタンを押す", ["「承認」ぼたんを押す"], []],
    ["『報告書』 【重要】", ["『報告書』", "【重要】"], []],
    ["「○○」画面の「◇◇」ボタン", ["「○○」画面の「◇◇」ぼたん"], []],
    // A quote inside a word, or one never closed, is text.
    ['1.25" margins', ['1.25"', "margins"], []],
    ['script="Jpan" typeface="ＭＳ Ｐゴシック"/>', ['script="jpan"', 'typeface="ms', 'pごしっく"/>'], []],
    ['"abc', ['"abc'], []],
    ['"next meeting', ['"next', "meeting"], []],
    ['"承認"ボタン', ['"承認"ぼたん'], []],
    ['(" ") で囲む', ['("', '")', "で囲む"], []],
    ['states, "Income from', ["states,", '"income', "from"], []],
    ['"', ['"'], []],
    // A phrase: opened at the start of a word, closed by a quote that ends a word.
    ['"next meeting" 議事録', ["next meeting", "議事録"], []],
    ["“次回 会議”", ["次回 会議"], []],
    ["”次回 会議”", ["次回 会議"], []],
    ['"a" "b"', ["a", "b"], []],
    // Closed by a quote of its own kind first: a pasted line with inch marks or curly quotes inside stays one phrase.
    ['"2” and 4”: sizes"', ["2” and 4”: sizes"], []],
    ['"the “White” house" x', ["the “white” house", "x"], []],
    ["“a \"b\" c”", ['a "b" c'], []],
    ["＂a ” b＂", ["a ” b"], []],
    // Else by a quote of another kind (an IME's ” after an ASCII ").
    ['"次回 会議” x', ["次回 会議", "x"], []],
    ['""', [], []],
    // Exclusion.
    ["-対象外 見積", ["見積"], ["対象外"]],
    ['見積 -"old price"', ["見積"], ["old price"]],
    // A minus before another minus, or alone, is text; so is every minus of a query made only of excluded words.
    ["-4.18962569096881-9.10922789375534j", ["-4.18962569096881-9.10922789375534j"], []],
    ["-対象外", ["-対象外"], []],
    ['-"old price" -x', ['-"old', 'price"', "-x"], []],
    ["-５ 件", ["件"], ["5"]],
    ["--verbose", ["--verbose"], []],
    ["222.127.111.234 - - [09/Apr/2008:07:46:54", ["222.127.111.234", "-", "[09/apr/2008:07:46:54"], []],
    // Control characters pasted along are spaces.
    ["見積\u0000番号", ["見積", "番号"], []]
  ])("%j → terms %j, excluded %j", (input, terms, exclude) => {
    const q = parseSearchQuery(input)
    expect(q.terms).toEqual(terms)
    expect(q.exclude).toEqual(exclude)
    expect(q.filters).toEqual([])
  })

  it("keeps at most 30 terms (a term is a bit of a mask)", () => {
    const q = parseSearchQuery(Array.from({ length: 40 }, (_, i) => `w${i}`).join(" "))
    expect(q.terms).toHaveLength(30)
    expect(q.terms.at(-1)).toBe("w29")
  })

  it("marks the terms a location holds, in its text or its search-only forms (S4)", () => {
    const q = parseSearchQuery("123350 円 2009/9/4")
    expect(termMaskOf(q, "¥123,350 円", "123350")).toBe(0b011)
    expect(termMaskOf(q, "2009年9月4日", "2009/9/4 2009/09/04")).toBe(0b100)
    // Never across the text and the forms.
    expect(lineMatchesQuery("合計 ¥123,350", parseSearchQuery('"350 123350"'), "123350")).toBe(false)
  })
})

describe("resolveFileType() (issue 14: --type takes the legacy kinds and groups, refuses the unknown)", () => {
  it.each([
    ["xls", ["xls"]],
    [".DOC", ["doc"]],
    ["ppt", ["ppt"]],
    ["xlsb", ["xlsb"]],
    ["Excel", ["xlsx", "xlsm", "xltx", "xltm", "xls", "xlt", "xlsb", "ods", "ots", "fods"]],
    ["legacy", ["xls", "xlt", "xlsb", "doc", "dot", "ppt", "pps", "pot"]],
    ["foo", undefined],
    ["", undefined]
  ])("%j → %j", (value, expected) => {
    expect(resolveFileType(value)).toEqual(expected)
  })
})
