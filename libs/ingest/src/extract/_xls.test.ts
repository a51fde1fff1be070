import { describe, expect, it } from "@effect/vitest"
import type { Extraction } from "@sagasu/domain"
import { Effect } from "effect"
import { extractBuffer } from "../extract.ts"
import {
  biff8Workbook,
  boolErr,
  f64le,
  format,
  formula,
  label,
  labelSst,
  le16,
  le32,
  mulRk,
  number,
  record,
  rk,
  rt,
  shortXlString,
  sst,
  xlsFile,
  xlString
} from "./_test_biff.ts"

const lines = (x: Extraction, part = 0) => x.parts[part]?.lines.map((l) => [l.loc, l.text]) ?? []
const read = (stream: Uint8Array) => extractBuffer(xlsFile(stream), "book.xls")
const failure = (stream: Uint8Array) => Effect.flip(read(stream))

describe("legacy .xls workbooks without Office (W3)", () => {
  it.effect("sheets come in tab order with their names and visibility (BOUNDSHEET)", () =>
    Effect.gen(function* () {
      const x = yield* read(
        biff8Workbook([
          { name: "表紙", records: [label(0, 0, "一枚目")] },
          { name: "隠し", state: 1, records: [label(0, 0, "二枚目")] },
          { name: "VeryHidden", state: 2, records: [] }
        ])
      )
      expect(x.parts.map((p) => [p.name, p.state, p.locator])).toEqual([
        ["表紙", "visible", "cell"],
        ["隠し", "hidden", "cell"],
        ["VeryHidden", "veryHidden", "cell"]
      ])
      expect(lines(x, 1)).toEqual([["A1", "二枚目"]])
    })
  )

  it.effect("shared strings split across CONTINUE records, the high-byte flag changing at the split, rich runs and furigana skipped", () =>
    Effect.gen(function* () {
      const table = sst(
        [
          "first",
          // Split after "abc": the rest starts the CONTINUE record with a flag byte saying two bytes a character.
          "abc漢字def",
          { text: "東京", phonetic: 20 },
          { text: "bold and plain", runs: 2 },
          // Split inside: one byte a character before the split, two after, although the rest is ASCII.
          "after split"
        ],
        [
          { string: 1, char: 3 },
          { string: 4, char: 5, wideAfter: true }
        ]
      )
      const x = yield* read(biff8Workbook([{ name: "S", records: [0, 1, 2, 3, 4].map((i) => labelSst(i, 0, i)) }], { after: [table] }))
      expect(lines(x)).toEqual([
        ["A1", "first"],
        ["A2", "abc漢字def"],
        ["A3", "東京"],
        ["A4", "bold and plain"],
        ["A5", "after split"]
      ])
    })
  )

  it.effect("numbers, RK and MULRK values, booleans and errors show as Excel shows them", () =>
    Effect.gen(function* () {
      const x = yield* read(
        biff8Workbook([
          {
            name: "S",
            records: [number(0, 0, 0.1 + 0.2), rk(0, 1, 12.34), rk(0, 2, -5), mulRk(1, 0, [1, 2, 3.5]), boolErr(2, 0, 1, false), boolErr(2, 1, 0x07, true), boolErr(2, 2, 0x2a, true)]
          }
        ])
      )
      expect(lines(x)).toEqual([
        ["A1", "0.3"],
        ["B1", "12.34"],
        ["C1", "-5"],
        ["A2", "1"],
        ["B2", "2"],
        ["C2", "3.5"],
        ["A3", "TRUE"],
        ["B3", "#DIV/0!"],
        ["C3", "#N/A"]
      ])
    })
  )

  it.effect("a formula shows its cached result: a number, a string from the STRING record after it, a boolean, an error", () =>
    Effect.gen(function* () {
      const x = yield* read(
        biff8Workbook([{ name: "S", records: [formula(0, 0, 42), formula(0, 1, { string: "計算結果" }), formula(0, 2, { bool: false }), formula(0, 3, { error: 0x17 })] }])
      )
      expect(lines(x)).toEqual([
        ["A1", "42"],
        ["B1", "計算結果"],
        ["C1", "FALSE"],
        ["D1", "#REF!"]
      ])
    })
  )

  it.effect("number formats of FORMAT and XF records: dates in the 1900 system, built-in Japanese ids, custom codes", () =>
    Effect.gen(function* () {
      const x = yield* read(
        biff8Workbook([{ name: "S", records: [number(0, 0, 45000, 16), number(0, 1, 45000, 17), number(0, 2, 1234.5, 18), number(0, 3, 0.25, 19)] }], {
          before: [format(164, '"第"0"号"'), format(165, "0.0%")],
          xfs: [14, 31, 164, 165]
        })
      )
      expect(lines(x)).toEqual([
        // Id 14 is yyyy/m/d in ja-JP; a date also shows its ISO form (BUG-07).
        ["A1", "2023/3/15"],
        ["B1", "2023年3月15日"],
        ["C1", "第1235号"],
        ["D1", "25.0%"]
      ])
    })
  )

  it.effect("DATEMODE 1 counts date serials from 1904", () =>
    Effect.gen(function* () {
      const x = yield* read(biff8Workbook([{ name: "S", records: [number(0, 0, 0, 16), number(0, 1, 43538, 16)] }], { before: [record(rt.dateMode, le16(1))], xfs: [14] }))
      expect(lines(x)).toEqual([
        ["A1", "1904/1/1"],
        ["B1", "2023/3/15"]
      ])
    })
  )

  it.effect("a merged area's text is given once, at its top-left cell (MERGEDCELLS)", () =>
    Effect.gen(function* () {
      const merged = record(rt.mergedCells, le16(1), le16(0), le16(1), le16(0), le16(1))
      const x = yield* read(biff8Workbook([{ name: "S", records: [label(0, 0, "結合"), label(0, 1, "隠れる"), label(1, 1, "隠れる"), label(2, 0, "外"), merged] }]))
      expect(lines(x)).toEqual([
        ["A1", "結合"],
        ["A3", "外"]
      ])
    })
  )

  it.effect("a note's text (its TXO) is given at its cell after the cells; a text box at its anchor", () =>
    Effect.gen(function* () {
      const obj = (kind: number, id: number) => record(rt.obj, le16(0x15), le16(0x12), le16(kind), le16(id), new Uint8Array(14), le32(0))
      const txo = (text: string) => [
        record(rt.txo, le16(0x0212), le16(0), new Uint8Array(6), le16(text.length), le16(16), le16(0), le16(0)),
        record(rt.continue, [1], Buffer.from(text, "utf16le")),
        record(rt.continue, new Uint8Array(16))
      ]
      // OfficeArt: a SpContainer holding a client anchor at column 3, row 4 (D5).
      const anchor = record(rt.msoDrawing, [0x0f, 0x00], le16(0xf004), le32(26), [0x00, 0x00], le16(0xf010), le32(18), le16(0), le16(3), le16(0), le16(4), le16(0), le16(5), le16(0), le16(6), le16(0))
      const note = record(rt.note, le16(1), le16(2), le16(0), le16(7), xlString("作者"), [0])
      const x = yield* read(
        biff8Workbook([{ name: "S", records: [label(0, 0, "本文"), obj(0x19, 7), ...txo("作者:\n確認してください"), anchor, obj(0x06, 8), ...txo("テキストボックス"), note] }])
      )
      expect(lines(x)).toEqual([
        ["A1", "本文"],
        ["C2 comment", "作者:\n確認してください"],
        ["D5 shape", "テキストボックス"]
      ])
    })
  )

  it.effect("a hyperlink's URL is given when the cell does not show it (HLINK)", () =>
    Effect.gen(function* () {
      const url = "https://example.com/資料"
      const urlBytes = Buffer.from(url + "\0", "utf16le")
      const hlink = record(
        rt.hlink,
        le16(0),
        le16(0),
        le16(0),
        le16(0),
        new Uint8Array(16),
        le32(2),
        le32(0x17),
        le32(3),
        Buffer.from("資料\0", "utf16le"),
        Buffer.from("e0c9ea79f9bace118c8200aa004ba90b", "hex"),
        le32(urlBytes.length),
        urlBytes
      )
      const x = yield* read(biff8Workbook([{ name: "S", records: [label(0, 0, "資料"), hlink] }]))
      expect(lines(x)).toEqual([
        ["A1", "資料"],
        ["A1 link", url]
      ])
    })
  )

  it.effect("cells out of row order are given in row order, the last of two at one address winning", () =>
    Effect.gen(function* () {
      const x = yield* read(biff8Workbook([{ name: "S", records: [label(2, 0, "三"), label(0, 1, "一"), label(0, 0, "古い"), label(0, 0, "新しい")] }]))
      expect(lines(x)).toEqual([
        ["A1", "新しい"],
        ["B1", "一"],
        ["A3", "三"]
      ])
    })
  )

  it.effect("BIFF5 byte strings are decoded in the CODEPAGE's code page (932 Shift_JIS)", () =>
    Effect.gen(function* () {
      const sjis = Buffer.from([0x93, 0x8c, 0x8b, 0x9e]) // 東京
      const label5 = record(rt.label, le16(0), le16(0), le16(15), le16(sjis.length), sjis)
      const stream = biff8Workbook([{ name: "Sheet1", records: [label5, number(0, 1, 3)] }], { version: 0x0500, codePage: 932 })
      const x = yield* extractBuffer(xlsFile(stream, "Book"), "old.xls")
      expect(x.parts.map((p) => p.name)).toEqual(["Sheet1"])
      expect(lines(x)).toEqual([
        ["A1", "東京"],
        ["B1", "3"]
      ])
    })
  )

  it.effect("a FILEPASS record fails encrypted", () =>
    Effect.gen(function* () {
      const error = yield* failure(biff8Workbook([{ name: "S", records: [] }], { before: [record(rt.filePass, le16(0), le16(0x1234), le16(0x5678))] }))
      expect(error.reason).toBe("encrypted")
    })
  )

  it.effect("a record whose length runs past the stream is needs-office (the Office owner may read past it), naming the record", () =>
    Effect.gen(function* () {
      const good = biff8Workbook([{ name: "S", records: [label(0, 0, "x")] }])
      // writeCfb pads the stream with zeros to 4096 bytes: a record declaring more than that is past the end.
      const bad = Buffer.concat([good.subarray(0, good.length - 4), record(0x0204, new Uint8Array(0)).subarray(0, 2), le16(0xfff0)])
      const error = yield* failure(new Uint8Array(bad))
      expect(error.reason).toBe("needs-office")
      expect(error.detail).toMatch(/record 0x0204 at offset \d+ declares 65520 bytes, past the end of the Workbook stream/)
    })
  )

  it.effect("a BIFF version other than 5 and 8 is needs-office", () =>
    Effect.gen(function* () {
      const stream = new Uint8Array(Buffer.concat([record(rt.bof, le16(0x0400), le16(0x0005), new Uint8Array(4)), record(rt.eof)]))
      const error = yield* failure(stream)
      expect([error.reason, error.detail]).toEqual(["needs-office", "BIFF version 0x400 workbook"])
    })
  )

  it.effect("LABEL in BIFF8 and a FORMAT's text section apply to strings", () =>
    Effect.gen(function* () {
      const x = yield* read(biff8Workbook([{ name: "S", records: [label(0, 0, "田中", 16)] }], { before: [format(164, '@"様"')], xfs: [164] }))
      expect(lines(x)).toEqual([["A1", "田中様"]])
    })
  )

  it.effect("a sheet name in two-byte characters and a number beside it", () =>
    Effect.gen(function* () {
      // ShortXLUnicodeString with the high-byte flag.
      expect(shortXlString("売上")[1]).toBe(1)
      const x = yield* read(biff8Workbook([{ name: "売上", records: [record(rt.number, le16(0), le16(0), le16(15), f64le(1e21))] }]))
      expect([x.parts[0]?.name, lines(x)]).toEqual(["売上", [["A1", "1E+21"]]])
    })
  )
})
