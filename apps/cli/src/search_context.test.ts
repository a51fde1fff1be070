import type { FileHit } from "@sagasu/store"
import { describe, expect, it } from "vitest"
import { messages } from "@sagasu/domain"
import { contextLines, formatSearchOutput } from "./search_output.ts"

const hit = (location: string, locator: "cell" | "paragraph" | "slide", loc: string, text: string) => ({
  index: "共有", path: "見積.xlsx", part: "見積", locator, loc, location, text, snippet: `【${text}】`
})
const file: FileHit = {
  index: "共有", path: "見積.xlsx", hits: 3, modifiedMs: undefined, size: undefined, nameTerms: 0, near: true,
  locations: [hit("見積!C17", "cell", "C17", "A-1234"), hit("¶12", "paragraph", "12", "A-1234 の件"), hit("slide 3", "slide", "3", "A-1234")]
}
const contexts = [[
  { kind: "cell" as const, column: { loc: "C3", text: "見積番号" }, row: { loc: "A17", text: "ABC商事" } },
  { kind: "paragraph" as const, previous: { loc: "11", text: "前の段落" }, next: { loc: "13", text: "次の段落でとても長い文が続き、端末の四十桁を超えてしまうところまで書いてある" } },
  { kind: "slide" as const, title: { loc: "slide 3", text: "案件一覧" } }
]]
const input = { files: [file], offset: 0, totals: { hits: 3, files: 1, exact: true }, more: false, engine: "gram" as const, problem: "", partial: false }
const options = { query: "A-1234", json: false, files: false, color: false, folders: [] }

describe("search --context output (S5, issue 16)", () => {
  it("Japanese: headings on the location's line, a paragraph's neighbours around its snippet, cut to 40 columns", () => {
    expect(formatSearchOutput({ ...input, contexts }, { ...options, language: "ja" }).stdout).toBe([
      "共有  見積.xlsx  (3 件)",
      "  見積!C17  列: 見積番号 / 行: ABC商事",
      "    【A-1234】",
      "  ¶12",
      "    前: 前の段落",
      "    【A-1234 の件】",
      "    次: 次の段落でとても長い文が続き、端末の四…", // 38 columns and the ellipsis
      "  スライド 3  タイトル: 案件一覧",
      "    【A-1234】",
      "3 件（1 ファイル）: 1〜1 ファイル目",
      ""
    ].join("\n"))
  })

  it("English when the settings say en", () => {
    expect(contextLines(contexts[0]?.[0], "en").after).toBe("column: 見積番号 / row: ABC商事")
    expect(contextLines(contexts[0]?.[1], "en").before).toBe("before: 前の段落")
    expect(contextLines(contexts[0]?.[2], "en").after).toBe("title: 案件一覧")
    expect(contextLines(undefined, "en")).toEqual({ after: "", before: undefined, below: undefined })
  })

  it("--json: a context per location only with --context (null when there is none); without it, as before", () => {
    const withContext = JSON.parse(formatSearchOutput({ ...input, contexts: [[contexts[0]?.[0], undefined, contexts[0]?.[2]]] }, { ...options, json: true, language: "ja" }).stdout) as Array<{ locations: Array<{ context?: unknown }> } & Record<string, unknown>>
    expect(withContext[0]?.locations.map((h) => h.context)).toEqual([contexts[0]?.[0], null, contexts[0]?.[2]])
    expect(withContext[0]).not.toHaveProperty("context")
    const plain = formatSearchOutput(input, { ...options, json: true, language: "ja" }).stdout
    expect(plain).not.toContain("context")
    expect(plain).toBe(JSON.stringify([{ ...file.locations[0], index: "共有", path: "見積.xlsx", absolutePath: null, url: null, hits: 3, modified: null, size: null, locations: file.locations }], null, 2) + "\n")
  })

  it("without contexts the text is what it was", () => {
    expect(formatSearchOutput(input, { ...options, language: "ja" }).stdout).toBe(
      "共有  見積.xlsx  (3 件)\n  見積!C17\n    【A-1234】\n  ¶12\n    【A-1234 の件】\n  スライド 3\n    【A-1234】\n3 件（1 ファイル）: 1〜1 ファイル目\n"
    )
  })

  it("issue 16: where a hit stands in the settings' language; --json's location as it was", () => {
    const t = (language: "ja" | "en") => messages(language).searchLocation
    expect([t("ja")("slide", "slides", "3 notes"), t("ja")("property", "properties", "title"), t("ja")("name", "", "path"), t("ja")("name", "見積書", "sheet")]).toEqual([
      "スライド 3（ノート）", "プロパティ: タイトル", "ファイル名", "シート名: 見積書"
    ])
    expect([t("en")("slide", "slides", "3 notes"), t("en")("property", "properties", "title"), t("en")("name", "", "path"), t("en")("name", "見積書", "sheet")]).toEqual([
      "slide 3 notes", "property:title", "name", "sheet:見積書"
    ])
    expect(formatSearchOutput(input, { ...options, language: "en" }).stdout).toContain("\n  slide 3\n")
  })

  it("places that are no paragraph number or cell are words of the language: a header, a footer, a note, a sheet's header (new-user trial)", () => {
    const t = (language: "ja" | "en") => messages(language).searchLocation
    const places = [
      ["paragraph", "document", "header"], ["paragraph", "document", "footer"], ["paragraph", "document", "footnote:3"], ["paragraph", "document", "endnote:2"],
      ["paragraph", "document", "comment:0"], ["paragraph", "document", "textbox"], ["paragraph", "document", "chart"], ["paragraph", "document", "12"],
      ["cell", "見積書", "B3"], ["cell", "見積書", "B3 comment"], ["cell", "見積書", "D5 shape"], ["cell", "見積書", "A1 link"], ["cell", "見積書", "footer"], ["cell", "見積書", "drawing"]
    ] as const
    expect(places.map(([locator, part, loc]) => t("ja")(locator, part, loc))).toEqual([
      "ヘッダー", "フッター", "脚注 3", "文末脚注 2", "コメント", "テキストボックス", "グラフ", "¶12",
      "見積書!B3", "見積書!B3（コメント）", "見積書!D5（図形）", "見積書!A1（リンク）", "見積書（フッター）", "見積書（図形）"
    ])
    expect(places.map(([locator, part, loc]) => t("en")(locator, part, loc))).toEqual([
      "header", "footer", "footnote 3", "endnote 2", "comment", "textbox", "chart", "¶12",
      "見積書!B3", "見積書!B3 comment", "見積書!D5 shape", "見積書!A1 link", "見積書 (footer)", "見積書 (drawing)"
    ])
  })
})
