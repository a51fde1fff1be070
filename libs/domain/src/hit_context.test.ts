import { describe, expect, it } from "vitest"
import type { BodyLine } from "./extraction.ts"
import { formatBodyTsv } from "./body_tsv.ts"
import { cellContextOfTsv, cellPositionOf, contextOfHit, looksNumeric, partContext } from "./hit_context.ts"

const cells = (spec: Record<string, string>): Array<BodyLine> => Object.entries(spec).map(([loc, text]) => ({ loc, text }))

// A quotation sheet: a title, a blank row, a table with a header row, a merged heading, a gap.
const sheet = cells({
  A1: "見積一覧",
  A3: "見積番号",
  B3: "顧客名",
  C3: "金額",
  D3: "納期",
  A4: "A-1233",
  B4: "XYZ工業",
  C4: "¥1,000",
  D4: "2024/4/1",
  A5: "A-1234",
  B5: "ABC商事",
  C5: "¥2,000",
  // D5 empty: a gap
  A6: "A-1235",
  C6: "¥3,000",
  D6: "2024/5/1",
  // A second table after a blank row: a cross table with a merged heading B8:D8.
  A8: "科目",
  B8: "上期",
  A9: "項目",
  B9: "4月",
  C9: "5月",
  D9: "6月",
  A10: "売上",
  B10: "100",
  C10: "200",
  D10: "300",
  A11: "原価",
  B11: "50",
  C11: "60",
  D11: "70",
  E11: "△10",
  "C5 comment": "値引き後"
})

describe("contextOfHit(): a cell's row and column headings (S5, issue 16)", () => {
  it.each([
    // hit, column heading, row heading
    ["A5", "A3 見積番号", undefined], // first column: no row heading; the title row A1 is in another table (blank row 2)
    ["B5", "B3 顧客名", "A5 A-1234"],
    ["C5", "C3 金額", "B5 ABC商事"], // nearest text to the left
    ["D4", "D3 納期", "B4 XYZ工業"], // numbers and amounts to the left are skipped
    ["C6", "C3 金額", "A6 A-1235"], // an empty cell to the left (B6) is skipped
    ["D6", "D3 納期", "A6 A-1235"], // the gap at D5 does not end the table
    ["D11", "D9 6月", "A11 原価"], // numeric cells skipped; the header row of the second table
    ["E11", "B8 上期", "A11 原価"], // no cell above in E: the top row's nearest cell to the left (a merged heading)
    ["B8", undefined, "A8 科目"], // the top of its column: no column heading
    ["C5 comment", "C3 金額", "B5 ABC商事"], // a comment stands at its cell
    ["Z99", undefined, undefined] // an empty cell, not in the part
  ])("%s → column %s, row %s", (loc, column, row) => {
    const ctx = contextOfHit("cell", sheet, { loc })
    expect(ctx?.kind).toBe("cell")
    const show = (l: { loc: string; text: string } | undefined) => (l === undefined ? undefined : `${l.loc} ${l.text}`)
    if (ctx?.kind !== "cell") throw new Error("not a cell context")
    expect(show(ctx.column)).toBe(column)
    expect(show(ctx.row)).toBe(row)
  })

  it("cellContextOfTsv() on the sheet's TSV text answers as partContext() on its lines, for every cell and beyond", () => {
    const odd = [...sheet, { loc: "F4", text: "タブ\t入り\\" }, { loc: "F5", text: "   " }, { loc: "G5", text: "値" }, { loc: "F6", text: "" }]
    const fromTsv = cellContextOfTsv(formatBodyTsv({ name: "見積", locator: "cell", state: "visible", lines: odd }))
    const fromLines = partContext("cell", odd)
    const locs = [...odd.map((l) => l.loc), "Z99", "A2", "E12", "G6", "header"]
    for (const loc of locs) expect(fromTsv({ loc }), loc).toEqual(fromLines({ loc }))
    expect(fromTsv({ loc: "G4" })).toMatchObject({ left: { loc: "F4", text: "タブ\t入り\\" } })
    expect(fromTsv({ loc: "G5" })).not.toHaveProperty("left") // F5 is blank
  })

  it("a title row right above the header row is passed over", () => {
    const lines = cells({ A1: "御見積書", A2: "品名", B2: "数量", A3: "ペン", B3: "10", A4: "ノート", B4: "5" })
    expect(contextOfHit("cell", lines, { loc: "A4" })).toEqual({ kind: "cell", column: { loc: "A2", text: "品名" }, above: { loc: "A3", text: "ペン" }, right: { loc: "B4", text: "5" } })
    expect(contextOfHit("cell", lines, { loc: "B4" })).toMatchObject({ column: { loc: "B2", text: "数量" }, row: { loc: "A4", text: "ノート" } })
  })

  it("gives the immediate neighbours that hold text", () => {
    expect(contextOfHit("cell", sheet, { loc: "B5" })).toEqual({
      kind: "cell",
      column: { loc: "B3", text: "顧客名" },
      row: { loc: "A5", text: "A-1234" },
      left: { loc: "A5", text: "A-1234" },
      right: { loc: "C5", text: "¥2,000" },
      above: { loc: "B4", text: "XYZ工業" }
      // B6 is empty: no below
    })
  })

  it("a form layout: the label to the left is the row heading", () => {
    const form = cells({ B2: "顧客名", C2: "ABC商事", B3: "見積番号", C3: "A-1234" })
    expect(contextOfHit("cell", form, { loc: "C3" })).toMatchObject({ row: { loc: "B3", text: "見積番号" } })
  })

  it("no context for a location that is not a cell (header, footer, a drawing without anchor)", () => {
    expect(contextOfHit("cell", sheet, { loc: "header" })).toBeUndefined()
    expect(contextOfHit("cell", sheet, { loc: "drawing" })).toBeUndefined()
  })

  it.each([
    ["B3", [3, 2]],
    ["AA10", [10, 27]],
    ["D5 shape", [5, 4]],
    ["header", undefined],
    ["b3", undefined]
  ])("cellPositionOf(%j) → %j", (loc, pos) => {
    expect(cellPositionOf(loc)).toEqual(pos)
  })

  it.each([
    ["123", true],
    ["¥1,000", true],
    ["12.5%", true],
    ["2024/4/1", true],
    ["2009年9月4日", true],
    ["△10", true],
    ["１２３", true],
    ["4月売上", false],
    ["A-1234", false],
    ["顧客名", false],
    ["", false],
    ["-", false]
  ])("looksNumeric(%j) → %s", (text, numeric) => {
    expect(looksNumeric(text)).toBe(numeric)
  })
})

const doc: Array<BodyLine> = [
  { loc: "1", text: "議事録" },
  { loc: "2", text: "" },
  { loc: "3", text: "決定事項は次のとおり。" },
  { loc: "4", text: "予算を承認する。" },
  { loc: "4", text: "図の文字" }, // SmartArt text under its paragraph's number
  { loc: "5", text: "以上" },
  { loc: "header", text: "社外秘" },
  { loc: "footnote:1", text: "注記その一" },
  { loc: "footnote:2", text: "注記その二" }
]

describe("contextOfHit(): a paragraph's neighbours", () => {
  it.each([
    // hit, previous, next
    [{ loc: "1" }, undefined, "3 決定事項は次のとおり。"], // the start: no previous
    [{ loc: "3" }, "1 議事録", "4 予算を承認する。"], // the empty paragraph 2 is passed over
    [{ loc: "4", text: "図の文字" }, "4 予算を承認する。", "5 以上"], // told apart by its text
    [{ loc: "5" }, "4 図の文字", undefined], // the end of the body: the header is another story
    [{ loc: "header" }, undefined, undefined],
    [{ loc: "footnote:1" }, undefined, "footnote:2 注記その二"] // footnotes are one story
  ])("%j → previous %s, next %s", (hit, previous, next) => {
    const ctx = contextOfHit("paragraph", doc, hit)
    if (ctx?.kind !== "paragraph") throw new Error("not a paragraph context")
    const show = (l: { loc: string; text: string } | undefined) => (l === undefined ? undefined : `${l.loc} ${l.text}`)
    expect(show(ctx.previous)).toBe(previous)
    expect(show(ctx.next)).toBe(next)
    expect(ctx.heading).toBeUndefined()
  })

  it("a paragraph that is not in the part has no context", () => {
    expect(contextOfHit("paragraph", doc, { loc: "99" })).toBeUndefined()
  })
})

const slides: Array<BodyLine> = [
  { loc: "1", text: "2024年度 事業計画" },
  { loc: "1", text: "営業部" },
  { loc: "2", text: "売上目標" },
  { loc: "2", text: "前年比 120%" },
  { loc: "2 notes", text: "ここで質問を受ける" },
  { loc: "3", text: "" },
  { loc: "3", text: "本文だけのスライド" }
]

describe("contextOfHit(): a slide line's title", () => {
  it("the extractor's marked title (properties `slide n`) first", () => {
    const titles = [{ loc: "slide 2", text: "売上目標（タイトル）" }]
    expect(contextOfHit("slide", slides, { loc: "2", text: "前年比 120%" }, titles)).toEqual({ kind: "slide", title: { loc: "slide 2", text: "売上目標（タイトル）" } })
    expect(contextOfHit("slide", slides, { loc: "2 notes", text: "ここで質問を受ける" }, titles)).toEqual({ kind: "slide", title: { loc: "slide 2", text: "売上目標（タイトル）" } })
  })

  it("else the slide's first non-empty line", () => {
    const pick = partContext("slide", slides)
    expect(pick({ loc: "1", text: "営業部" })).toEqual({ kind: "slide", title: { loc: "1", text: "2024年度 事業計画" } })
    expect(pick({ loc: "2 notes", text: "ここで質問を受ける" })).toEqual({ kind: "slide", title: { loc: "2", text: "売上目標" } })
    // The hit is the title: nothing to add.
    expect(pick({ loc: "1", text: "2024年度 事業計画" })).toEqual({ kind: "slide" })
    expect(pick({ loc: "3", text: "本文だけのスライド" })).toEqual({ kind: "slide" })
    expect(pick({ loc: "slide 2" })).toBeUndefined()
  })
})
