import { describe, expect, it } from "@effect/vitest"
import type { Extraction } from "@sagasu/domain"
import { Effect } from "effect"
import { collectingSink, extractBuffer, extractBufferTo } from "../extract.ts"
import { u16, u32 } from "./_test_containers.ts"
import { relationships, zipOf } from "./_test_packages.ts"

/** A BIFF12 record: type and size as 7-bit groups (MS-XLSB 2.1.4), then the body. */
function rec(type: number, ...body: ReadonlyArray<Uint8Array | ReadonlyArray<number>>): Uint8Array {
  const data = Buffer.concat(body.map((b) => Buffer.from(b)))
  const head: Array<number> = type < 0x80 ? [type] : [(type & 0x7f) | 0x80, type >> 7]
  let size = data.length
  do {
    head.push((size & 0x7f) | (size > 0x7f ? 0x80 : 0))
    size >>= 7
  } while (size > 0)
  return new Uint8Array(Buffer.concat([Buffer.from(head), data]))
}
const f64 = (n: number) => {
  const b = Buffer.alloc(8)
  b.writeDoubleLE(n)
  return b
}
const wide = (s: string | null) => (s === null ? u32(0xffffffff) : Buffer.concat([u32(s.length), Buffer.from(s, "utf16le")]))
const rich = (s: string) => Buffer.concat([Buffer.from([0]), wide(s)])
const cell = (col: number, style = 0) => Buffer.concat([u32(col), u32(style)])
const parts = (...records: ReadonlyArray<Uint8Array>) => new Uint8Array(Buffer.concat(records))

const T = { row: 0, rk: 2, err: 3, bool: 4, real: 5, st: 6, isst: 7, fStr: 8, fNum: 9, sRk: 13, sIsst: 18, sst: 19, fmt: 44, xf: 47, wbProp: 153, sheet: 156, merge: 176, hf: 479, link: 494, xfs: 617, xfsEnd: 618, cBegin: 635, cText: 637 }

/** An xlsb package: `sheets` as [name, hsState, records], shared strings, XF format ids and custom FORMATs. */
async function xlsb(options: {
  sheets: ReadonlyArray<readonly [string, number, Uint8Array]>
  strings?: ReadonlyArray<string>
  xfs?: ReadonlyArray<number>
  formats?: ReadonlyArray<readonly [number, string]>
  date1904?: boolean
  comments?: Uint8Array
  sheetRels?: string
}): Promise<Uint8Array> {
  const workbook = parts(
    rec(T.wbProp, u32(options.date1904 ? 1 : 0), u32(0), wide("")),
    ...options.sheets.map(([name, state], i) => rec(T.sheet, u32(state), u32(i + 1), wide(`rId${i + 1}`), wide(name)))
  )
  const styles = parts(
    ...(options.formats ?? []).map(([id, code]) => rec(T.fmt, u16(id), wide(code))),
    rec(T.xfs, u32((options.xfs ?? [0]).length)),
    ...(options.xfs ?? [0]).map((id) => rec(T.xf, u16(0), u16(id), new Uint8Array(12))),
    rec(T.xfsEnd)
  )
  const strings = parts(...(options.strings ?? []).map((s) => rec(T.sst, rich(s))))
  const n = options.sheets.length
  const files: Record<string, string | Uint8Array> = {
    "_rels/.rels": relationships([["rId1", "officeDocument", "xl/workbook.bin"]]),
    "xl/workbook.bin": workbook,
    "xl/_rels/workbook.bin.rels": relationships([
      ...options.sheets.map((_, i) => [`rId${i + 1}`, "worksheet", `worksheets/sheet${i + 1}.bin`] as const),
      [`rId${n + 1}`, "styles", "styles.bin"],
      [`rId${n + 2}`, "sharedStrings", "sharedStrings.bin"]
    ]),
    "xl/styles.bin": styles,
    "xl/sharedStrings.bin": strings
  }
  options.sheets.forEach(([, , records], i) => (files[`xl/worksheets/sheet${i + 1}.bin`] = records))
  if (options.comments !== undefined) files["xl/comments1.bin"] = options.comments
  if (options.sheetRels !== undefined) files["xl/worksheets/_rels/sheet1.bin.rels"] = options.sheetRels
  return zipOf(files)
}

const lines = (x: Extraction, part = 0) => x.parts[part]?.lines.map((l) => [l.loc, l.text]) ?? []

describe("binary workbooks (.xlsb) without Office (W3)", () => {
  it.effect("sheets in tab order with their state; every kind of cell record shows as Excel shows it", () =>
    Effect.gen(function* () {
      const sheet = parts(
        rec(T.row, u32(0), new Uint8Array(13)),
        rec(T.isst, cell(0), u32(1)),
        rec(T.st, cell(1), wide("インライン")),
        rec(T.rk, cell(2), u32(((1234 << 2) | 3) >>> 0)),
        rec(T.real, cell(3, 1), f64(45000)),
        rec(T.row, u32(1), new Uint8Array(13)),
        rec(T.bool, cell(0), [1]),
        rec(T.err, cell(1), [0x2a]),
        rec(T.fStr, cell(2), wide("計算"), u16(0)),
        rec(T.fNum, cell(3, 2), f64(0.5), u16(0)),
        // Short forms: the column after the previous cell's.
        rec(T.sRk, u32(0), u32(((7 << 2) | 2) >>> 0)),
        rec(T.sIsst, u32(0), u32(0))
      )
      const bytes = yield* Effect.promise(() =>
        xlsb({
          sheets: [["一覧", 0, sheet], ["隠し", 1, parts()], ["深く隠し", 2, parts()]],
          strings: ["共有", "二番目"],
          xfs: [0, 31, 164],
          formats: [[164, "0.0%"]]
        })
      )
      const x = yield* extractBuffer(bytes, "book.xlsb")
      expect(x.parts.map((p) => [p.name, p.state])).toEqual([["一覧", "visible"], ["隠し", "hidden"], ["深く隠し", "veryHidden"]])
      expect(lines(x)).toEqual([
        ["A1", "二番目"],
        ["B1", "インライン"],
        ["C1", "12.34"],
        ["D1", "2023年3月15日"],
        ["A2", "TRUE"],
        ["B2", "#N/A"],
        ["C2", "計算"],
        ["D2", "50.0%"],
        ["E2", "7"],
        ["F2", "共有"]
      ])
    })
  )

  it.effect("merged areas once, comments at their cells, links the cell does not show, headers (and the same lines when streamed)", () =>
    Effect.gen(function* () {
      const sheet = parts(
        rec(T.row, u32(0), new Uint8Array(13)),
        rec(T.st, cell(0), wide("結合")),
        rec(T.st, cell(1), wide("隠れる")),
        rec(T.st, cell(2), wide("資料")),
        rec(T.merge, u32(0), u32(0), u32(0), u32(1)),
        rec(T.link, u32(0), u32(0), u32(2), u32(2), wide("rId9"), wide(""), wide(""), wide("資料")),
        rec(T.hf, u16(0), wide("&C社外秘"), wide(null), wide(null), wide(null), wide(null), wide(null))
      )
      const comments = parts(rec(T.cBegin, u32(0), u32(3), u32(3), u32(1), u32(1), new Uint8Array(16)), rec(T.cText, rich("山田:\n確認")))
      const bytes = yield* Effect.promise(() =>
        xlsb({
          sheets: [["S", 0, sheet]],
          comments,
          sheetRels:
            `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
            `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="../comments1.bin"/>` +
            `<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/doc" TargetMode="External"/>` +
            `</Relationships>`
        })
      )
      const expected = [
        ["A1", "結合"],
        ["C1", "資料"],
        ["B4 comment", "山田:\n確認"],
        ["C1 link", "https://example.com/doc"],
        ["header", "社外秘"]
      ]
      expect(lines(yield* extractBuffer(bytes, "b.xlsb"))).toEqual(expected)
      const sink = collectingSink({ keepsLines: false })
      yield* extractBufferTo(bytes, "b.xlsb", sink, { sheetBatchLines: 1 })
      expect(lines(sink.extraction())).toEqual(expected)
    })
  )

  it.effect("a big sheet streams in batches and gives the lines it gives when held whole, merged areas found on the first reading", () =>
    Effect.gen(function* () {
      const rows = Array.from({ length: 300 }, (_, r) => parts(rec(T.row, u32(r), new Uint8Array(13)), rec(T.st, cell(0), wide(`行${r + 1}`)), rec(T.st, cell(1), wide("右"))))
      // B1:B300 merged: only B1 of column B stays.
      const sheet = parts(...rows, rec(T.merge, u32(0), u32(299), u32(1), u32(1)))
      const bytes = yield* Effect.promise(() => xlsb({ sheets: [["S", 0, sheet]] }))
      const sink = collectingSink({ keepsLines: false })
      yield* extractBufferTo(bytes, "big.xlsb", sink, { sheetBatchLines: 16 })
      const got = lines(sink.extraction())
      expect(got.length).toBe(301)
      expect(got.slice(0, 3)).toEqual([["A1", "行1"], ["B1", "右"], ["A2", "行2"]])
      expect(got.at(-1)).toEqual(["A300", "行300"])
      expect(got).toEqual(lines(yield* extractBuffer(bytes, "big.xlsb")))
    })
  )

  it.effect("DATEMODE of BrtWbProp: 1904 dates", () =>
    Effect.gen(function* () {
      const bytes = yield* Effect.promise(() => xlsb({ sheets: [["S", 0, parts(rec(T.row, u32(0), new Uint8Array(13)), rec(T.real, cell(0, 1), f64(0)))]], xfs: [0, 14], date1904: true }))
      expect(lines(yield* extractBuffer(bytes, "d.xlsb"))).toEqual([["A1", "1904/1/1"]])
    })
  )

  it.effect("a part that ends inside a record is needs-office, naming the part", () =>
    Effect.gen(function* () {
      const cut = rec(T.st, cell(0), wide("途中で切れる")).subarray(0, 12)
      const bytes = yield* Effect.promise(() => xlsb({ sheets: [["S", 0, parts(rec(T.row, u32(0), new Uint8Array(13)), cut)]] }))
      const error = yield* Effect.flip(extractBuffer(bytes, "cut.xlsb"))
      expect(error.reason).toBe("needs-office")
      expect(error.detail).toContain("xl/worksheets/sheet1.bin: the part ends inside a record")
    })
  )
})
