/**
 * Excel 2.x–4.0 worksheets (BIFF2, BIFF3, BIFF4) read without Office (W3):
 * synthetic record streams written here byte by byte, each record type the
 * reader takes, and the corpus's three such files against the lines
 * LibreOffice's conversion gives (checked line by line when this reader was
 * written; see the commit).
 */
import { describe, expect, it } from "@effect/vitest"
import type { Extraction } from "@sagasu/domain"
import { Effect } from "effect"
import { extractBuffer, extractFile, extractFileTo } from "../extract.ts"
import { collectingSink } from "./_sink.ts"
import { sniffContainer } from "./_sniff.ts"
import { biff8Workbook, f64le, type FormulaResult, formulaResultBytes, label as label8, le16, le32, record, rkOf, xlsFile } from "./_test_biff.ts"
import { corpusFile, haveCorpus } from "../_test_corpus.ts"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

const bytes = (s: string) => Buffer.from(s, "latin1")
const cat = (...parts: ReadonlyArray<Uint8Array | ReadonlyArray<number>>) => new Uint8Array(Buffer.concat(parts.map((p) => Buffer.from(p))))

// BIFF2: a cell's head is row, column and a 3-byte attribute (XF index, format index, font/alignment bits).
const head2 = (row: number, col: number, xf = 0, fmt = 0) => cat(le16(row), le16(col), [xf & 0x3f, fmt & 0x3f, 0])
const bof2 = (kind = 0x0010) => record(0x0009, le16(0x0002), le16(kind))
const eof = () => record(0x000a)
const label2 = (row: number, col: number, text: string, xf = 0, fmt = 0) => record(0x0004, head2(row, col, xf, fmt), [text.length], bytes(text))
const integer2 = (row: number, col: number, value: number, xf = 0, fmt = 0) => record(0x0002, head2(row, col, xf, fmt), le16(value))
const number2 = (row: number, col: number, value: number, xf = 0, fmt = 0) => record(0x0003, head2(row, col, xf, fmt), f64le(value))
const boolErr2 = (row: number, col: number, value: number, isError: boolean) => record(0x0005, head2(row, col), [value, isError ? 1 : 0])
const format2 = (code: string) => record(0x001e, [code.length], bytes(code))
const xf2 = (fmt: number) => record(0x0043, [0, 0, 0x40 | fmt, 0])
const ixfe2 = (xf: number) => record(0x0044, le16(xf))

/** A cached formula result's 8 bytes: a number, or a string (a STRING record follows), a boolean, an error. */
type Result = FormulaResult
const resultBytes = formulaResultBytes
// A formula of one token (ptgInt 1): BIFF2's size is one byte, BIFF3/4's two.
const formula2 = (row: number, col: number, result: Result, xf = 0, fmt = 0) =>
  cat(
    record(0x0006, head2(row, col, xf, fmt), resultBytes(result), [0x01, 3], [0x1e, 1, 0]),
    typeof result === "object" && "string" in result ? record(0x0007, [result.string.length], bytes(result.string)) : []
  )

// BIFF3/4: row, column, XF index, as in BIFF5.
const head3 = (row: number, col: number, xf = 0) => cat(le16(row), le16(col), le16(xf))
const bof3 = (kind = 0x0010) => record(0x0209, le16(0), le16(kind), le16(0))
const bof4 = (kind = 0x0010) => record(0x0409, le16(0), le16(kind), le16(0))
const label3 = (row: number, col: number, text: Uint8Array | string, xf = 0) => {
  const b = typeof text === "string" ? bytes(text) : text
  return record(0x0204, head3(row, col, xf), le16(b.length), b)
}
const number3 = (row: number, col: number, value: number, xf = 0) => record(0x0203, head3(row, col, xf), f64le(value))
const rk3 = (row: number, col: number, value: number, xf = 0) => record(0x027e, head3(row, col, xf), le32(rkOf(value)))
const boolErr3 = (row: number, col: number, value: number, isError: boolean, xf = 0) => record(0x0205, head3(row, col, xf), [value, isError ? 1 : 0])
const formula3 = (type: 0x0206 | 0x0406, row: number, col: number, result: Result, xf = 0) =>
  cat(
    record(type, head3(row, col, xf), resultBytes(result), le16(0), le16(3), [0x1e, 1, 0]),
    typeof result === "object" && "string" in result ? record(0x0207, le16(result.string.length), bytes(result.string)) : []
  )
const format3 = (code: string) => record(0x001e, [code.length], bytes(code))
// BIFF4's index field is undefined (Excel numbers the formats in order): junk here.
const format4 = (code: string) => record(0x041e, le16(0xbeef), [code.length], bytes(code))
const xf3 = (fmt: number) => record(0x0243, [0, fmt], new Uint8Array(10))
const xf4 = (fmt: number) => record(0x0443, [0, fmt], new Uint8Array(14))
const note = (row: number, col: number, text: string) => record(0x001c, le16(row), le16(col), le16(text.length), bytes(text))
const headerOf = (type: 0x0014 | 0x0015, code: string) => record(type, [code.length], bytes(code))

/** A BIFF3/4 OBJ record of a text box (type 6) anchored at `row`, `col`, with a macro formula of `macro` bytes before its text. */
function textBox(row: number, col: number, text: string, macro = 0): Uint8Array {
  const common = Buffer.alloc(62)
  common.writeUInt32LE(1, 0)
  common.writeUInt16LE(6, 4)
  common.writeUInt16LE(1, 6)
  common.writeUInt16LE(0x0616, 8)
  common.writeUInt16LE(col, 10)
  common.writeUInt16LE(row, 14)
  common.writeUInt16LE(col + 1, 18)
  common.writeUInt16LE(row + 1, 22)
  common.writeUInt16LE(macro, 26)
  common.writeUInt16LE(text.length, 40)
  common.writeUInt16LE(16, 44)
  const pad = (62 + macro) % 2
  return record(0x005d, common, Buffer.alloc(macro + pad, 0x1e), bytes(text), Buffer.alloc(text.length % 2), Buffer.alloc(16))
}

/** The BIFF3/4 formats Excel writes first: General, then the number formats the tests use by index. */
const codes = ["General", "0", "#,##0", "0.0%", "yyyy-mm-dd", "m/d/yy"] as const
const fmt = (code: (typeof codes)[number]) => codes.indexOf(code)

const lines = (x: Extraction) => x.parts[0]?.lines.map((l) => (l.forms === undefined ? [l.loc, l.text] : [l.loc, l.text, l.forms])) ?? []
const read = (stream: Uint8Array, name = "old.xls", options?: Parameters<typeof extractBuffer>[2]) => extractBuffer(stream, name, options)
const failure = (stream: Uint8Array) => Effect.flip(read(stream))

describe("Excel 2–4 worksheets without Office (W3)", () => {
  it("sniffContainer() tells a bare BIFF stream by its BOF: version 2, 3, 4, or 5 for a bare BIFF5/8 one", () => {
    expect(sniffContainer(cat(bof2(), eof()))).toEqual({ _tag: "bare-biff", version: 2 })
    expect(sniffContainer(cat(bof3(), eof()))).toEqual({ _tag: "bare-biff", version: 3 })
    expect(sniffContainer(cat(bof4(), eof()))).toEqual({ _tag: "bare-biff", version: 4 })
    expect(sniffContainer(biff8Workbook([{ name: "S", records: [] }]))).toEqual({ _tag: "bare-biff", version: 5 })
    // A BOF type with an implausible length is not a BIFF stream.
    expect(sniffContainer(cat(record(0x0409, new Uint8Array(40)), eof()))._tag).toBe("other")
  })

  it.effect("BIFF2: labels, integers, numbers, booleans, errors and cached formula results, the sheet named after the file as LibreOffice names it", () =>
    Effect.gen(function* () {
      const x = yield* read(
        cat(
          bof2(),
          label2(0, 0, "Name"),
          integer2(0, 1, 65535),
          number2(0, 2, -1234.5),
          boolErr2(1, 0, 1, false),
          boolErr2(1, 1, 0, false),
          boolErr2(1, 2, 0x07, true),
          boolErr2(1, 3, 0x2a, true),
          formula2(2, 0, { string: "abc\r\ndef" }),
          formula2(2, 1, 42.25),
          formula2(2, 2, { bool: true }),
          formula2(2, 3, { error: 0x17 }),
          // A STRING record with no formula before it names no cell.
          record(0x0007, [3], bytes("odd")),
          eof()
        ),
        "請求書 #1.XLS"
      )
      expect(x.parts.map((p) => [p.name, p.locator, p.state])).toEqual([["請求書 #1", "cell", "visible"]])
      expect(lines(x)).toEqual([
        ["A1", "Name"],
        ["B1", "65535"],
        ["C1", "-1234.5"],
        ["A2", "TRUE"],
        ["B2", "FALSE"],
        ["C2", "#DIV/0!"],
        ["D2", "#N/A"],
        ["A3", "abc\r\ndef"],
        ["B3", "42.25"],
        ["C3", "TRUE"],
        ["D3", "#REF!"]
      ])
    })
  )

  it.effect("BIFF2 number formats: the XF's format (FORMAT records numbered in order), XF 63 taking IXFE's index; without XF records the cell's own format index", () =>
    Effect.gen(function* () {
      const withXfs = yield* read(
        cat(
          bof2(),
          ...codes.map(format2),
          // XF 0 General, 1 a date, 2 a percent, 3 thousands separators; XF 4 (given by IXFE) m/d/yy.
          ...[0, fmt("yyyy-mm-dd"), fmt("0.0%"), fmt("#,##0"), fmt("m/d/yy")].map(xf2),
          number2(0, 0, 36526, 1),
          number2(0, 1, 0.125, 2),
          integer2(0, 2, 12345, 3),
          ixfe2(4),
          number2(0, 3, 36526, 63),
          // The cell's own format index is not read when the file has XF records.
          number2(0, 4, 0.5, 0, fmt("0.0%")),
          eof()
        )
      )
      expect(lines(withXfs)).toEqual([
        ["A1", "2000-01-01", "2000/1/1 2000/01/01 2000年1月1日"],
        ["B1", "12.5%", "0.125"],
        ["C1", "12,345", "12345"],
        ["D1", "1/1/00", "2000/1/1 2000/01/01 2000-01-01 2000年1月1日"],
        ["E1", "0.5"]
      ])
      const withoutXfs = yield* read(cat(bof2(), ...codes.map(format2), number2(0, 0, 0.5, 0, fmt("0.0%")), label2(0, 1, "x", 0, fmt("0")), eof()))
      expect(lines(withoutXfs)).toEqual([
        ["A1", "50.0%", "0.5"],
        ["B1", "x"]
      ])
    })
  )

  it.effect("BIFF3: LABEL, NUMBER, RK, BOOLERR, FORMULA and STRING through XF records; DATEMODE 1904; the sheet is Sheet1", () =>
    Effect.gen(function* () {
      const x = yield* read(
        cat(
          bof3(),
          record(0x0042, le16(0x8001)),
          record(0x0022, le16(1)),
          ...codes.map(format3),
          ...[0, fmt("yyyy-mm-dd"), fmt("0.0%"), fmt("#,##0")].map(xf3),
          label3(0, 0, "caf\xe9 \x93q\x94"),
          number3(0, 1, 0, 1),
          rk3(0, 2, 0.25, 2),
          rk3(0, 3, 1234567, 3),
          boolErr3(1, 0, 1, false),
          boolErr3(1, 1, 0x24, true),
          formula3(0x0206, 1, 2, { string: "result" }),
          formula3(0x0206, 1, 3, 2.5, 2),
          formula3(0x0206, 1, 4, { string: "" }),
          eof()
        )
      )
      expect(x.parts.map((p) => p.name)).toEqual(["Sheet1"])
      expect(lines(x)).toEqual([
        // CODEPAGE 0x8001 is Windows ANSI: 0x93 and 0x94 are curly quotes.
        ["A1", "café “q”"],
        // Serial 0 in the 1904 system is 1904-01-01.
        ["B1", "1904-01-01", "1904/1/1 1904/01/01 1904年1月1日"],
        ["C1", "25.0%", "0.25"],
        ["D1", "1,234,567", "1234567"],
        ["A2", "TRUE"],
        ["B2", "#NUM!"],
        ["C2", "result"],
        ["D2", "250.0%", "2.5"]
      ])
    })
  )

  it.effect("BIFF4: FORMAT 0x041E numbered in order (its index field ignored), XF 0x0443, FORMULA 0x0406, Shift_JIS labels (CODEPAGE 932)", () =>
    Effect.gen(function* () {
      const x = yield* read(
        cat(
          bof4(),
          record(0x0042, le16(932)),
          ...codes.map(format4),
          ...[0, fmt("m/d/yy"), fmt("0")].map(xf4),
          // 日本 in Shift_JIS.
          label3(0, 0, new Uint8Array([0x93, 0xfa, 0x96, 0x7b])),
          number3(0, 1, 45000, 1),
          formula3(0x0406, 0, 2, 7.6, 2),
          formula3(0x0406, 0, 3, { string: "text" }),
          eof()
        )
      )
      expect(lines(x)).toEqual([
        ["A1", "日本"],
        ["B1", "3/15/23", "2023/3/15 2023/03/15 2023-03-15 2023年3月15日"],
        ["C1", "8", "7.6"],
        ["D1", "text"]
      ])
    })
  )

  it.effect("notes (NOTE, going on in NOTE records of row 0xFFFF), text boxes (OBJ), header and footer follow the cells, located as in an .xls", () =>
    Effect.gen(function* () {
      const x = yield* read(
        cat(
          bof4(),
          headerOf(0x0014, "&C&A Sales && costs"),
          headerOf(0x0015, "Page &P"),
          label3(0, 0, "cell"),
          note(4, 1, "first part "),
          note(0xffff, 0, "second part"),
          note(0, 0, "on A1"),
          textBox(61, 0, "8"),
          textBox(2, 3, "after a macro", 3),
          // An empty header record is no header.
          record(0x0014),
          eof()
        )
      )
      expect(lines(x)).toEqual([
        ["A1", "cell"],
        ["A1 comment", "on A1"],
        ["B5 comment", "first part second part"],
        ["A62 shape", "8"],
        ["D3 shape", "after a macro"],
        ["header", "Sales & costs"],
        ["footer", "Page"]
      ])
    })
  )

  it.effect("cells out of order are given in row order, the last of two at one address winning; an embedded chart's records are skipped", () =>
    Effect.gen(function* () {
      const chart = cat(bof3(0x0020), label3(0, 0, "series name"), eof())
      const x = yield* read(cat(bof3(), label3(2, 0, "third"), label3(0, 1, "first"), chart, label3(1, 0, "old"), label3(1, 0, "new"), eof()))
      expect(lines(x)).toEqual([
        ["B1", "first"],
        ["A2", "new"],
        ["A3", "third"]
      ])
    })
  )

  it.effect("FILEPASS fails encrypted", () =>
    Effect.gen(function* () {
      const error = yield* failure(cat(bof4(), record(0x002f, le16(0x1234), le16(0x5678)), label3(0, 0, "secret"), eof()))
      expect(error.reason).toBe("encrypted")
    })
  )

  it.effect("what the plain reader does not read is needs-office naming it (R14): a BIFF4W workbook, a chart, a macro sheet, a record past the end", () =>
    Effect.gen(function* () {
      const workbook = yield* failure(cat(bof4(0x0100), eof()))
      expect([workbook.reason, workbook.detail]).toEqual(["needs-office", "Excel 2–4 workbook of bound sheets (BIFF4W), which the plain reader does not read"])
      expect((yield* failure(cat(bof3(0x0020), eof()))).detail).toMatch(/chart/)
      expect((yield* failure(cat(bof2(0x0040), eof()))).detail).toMatch(/macro sheet/)
      // A hostile length: a LABEL declaring 65,520 bytes in a file of a few dozen.
      const hostile = yield* failure(cat(bof3(), label3(0, 0, "ok"), le16(0x0204), le16(0xfff0), new Uint8Array(8)))
      expect(hostile.reason).toBe("needs-office")
      expect(hostile.detail).toMatch(/record 0x0204 at offset \d+ declares 65520 bytes, past the end of the workbook stream/)
    })
  )

  it.effect("limits hold: too many cells or too much note text is too-large; a label's length past its record takes what the record holds", () =>
    Effect.gen(function* () {
      const many = cat(bof3(), ...Array.from({ length: 50 }, (_, i) => label3(i, 0, `row ${i}`)), eof())
      expect((yield* Effect.flip(read(many, "old.xls", { maxLines: 10 }))).reason).toBe("too-large")
      const notes = cat(bof3(), ...Array.from({ length: 20 }, (_, i) => note(i, 0, "n".repeat(1000))), eof())
      expect((yield* Effect.flip(read(notes, "old.xls", { maxTextChars: 5000 }))).reason).toBe("too-large")
      // Empty notes cost something each: a stream of them cannot fill memory.
      const empty = cat(bof3(), ...Array.from({ length: 1000 }, (_, i) => note(i, 0, "")), eof())
      expect((yield* Effect.flip(read(empty, "old.xls", { maxTextChars: 5000 }))).reason).toBe("too-large")
      const lying = cat(bof3(), record(0x0204, head3(0, 0), le16(60000), bytes("short")), eof())
      expect(lines(yield* read(lying))).toEqual([["A1", "short"]])
    })
  )

  it.effect("damage found by the hostile-file trial: short cell records, cells past the sheet, a STRING after another cell, a UTF code page, a flood of headers", () =>
    Effect.gen(function* () {
      // Zero-length and short cell records give no cell (they showed a phantom A1 "0").
      const short = cat(bof3(), record(0x0203), record(0x027e, le16(0)), record(0x0002), label3(1, 0, "kept"), eof())
      expect(lines(yield* read(short))).toEqual([["A2", "kept"]])
      // Column 0xFFFF or row 16,384 is past an Excel 2–4 sheet (256 × 16,384): not a place (column 0xFFFF gave CRXP65536).
      const past = cat(bof4(), label3(0, 0xffff, "wide"), label3(16_384, 0, "deep"), label3(16_383, 255, "corner"), eof())
      expect(lines(yield* read(past))).toEqual([["IV16384", "corner"]])
      // A STRING belongs to the formula right before it; another cell between them ends the wait.
      const stray = cat(bof3(), record(0x0206, head3(1, 0), resultBytes({ string: "x" }), le16(0), le16(3), [0x1e, 1, 0]), number3(1, 1, 7), record(0x0207, le16(5), bytes("stray")), eof())
      expect(lines(yield* read(stray))).toEqual([["B2", "7"]])
      // CODEPAGE 1200 or 65001 cannot be the page of 8-bit strings: read as windows-1252 (0x93 0x94 are “ ”).
      for (const page of [1200, 65001]) {
        const utf = cat(bof4(), record(0x0042, le16(page)), label3(0, 0, cat([0x93], bytes("q"), [0x94])), eof())
        expect(lines(yield* read(utf)), String(page)).toEqual([["A1", "“q”"]])
      }
      // A sheet has one header and one footer: the last of a flood of HEADER records (1 M of them gave 1 M lines).
      const flood = cat(bof4(), label3(0, 0, "a"), ...Array.from({ length: 500 }, (_, i) => headerOf(0x0014, `&Cpage ${i}`)), headerOf(0x0015, "&Cfoot"), eof())
      expect(lines(yield* read(flood))).toEqual([["A1", "a"], ["header", "page 499"], ["footer", "foot"]])
    })
  )

  it.effect("W1: streamed in batches of one cell, a sheet gives what it gives held whole", () =>
    Effect.gen(function* () {
      const stream = cat(bof3(), ...Array.from({ length: 30 }, (_, i) => label3(i, i % 3, `cell ${i}`)), note(0, 0, "n"), eof())
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-xls-old-"))
      try {
        const file = path.join(dir, "old.xls")
        fs.writeFileSync(file, stream)
        const whole = yield* extractFile(file)
        const sink = collectingSink({ keepsLines: false })
        yield* extractFileTo(file, sink, { sheetBatchLines: 1 })
        expect(sink.extraction()).toEqual(whole)
        expect(whole.parts[0]?.lines).toHaveLength(31)
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    })
  )

  it.effect("a BIFF3 stream in an OLE2 container (Book) is read as a bare one; a bare BIFF8 stream is read by the BIFF5/8 reader", () =>
    Effect.gen(function* () {
      const inOle2 = yield* read(xlsFile(cat(bof3(), label3(0, 0, "in a container"), eof()), "Book"), "boxed.xls")
      expect(inOle2.parts.map((p) => p.name)).toEqual(["Sheet1"])
      expect(lines(inOle2)).toEqual([["A1", "in a container"]])
      const bare8 = yield* read(biff8Workbook([{ name: "Data", records: [label8(0, 0, "bare BIFF8")] }]))
      expect(bare8.parts.map((p) => p.name)).toEqual(["Data"])
      expect(lines(bare8)).toEqual([["A1", "bare BIFF8"]])
    })
  )
})

describe.skipIf(!haveCorpus)("Excel 2–4 worksheets of the corpus, as LibreOffice reads them (W3)", () => {
  it.effect("CRLFX5_2.XLS (BIFF2): line breaks in labels and in a formula's string result, the footer's text", () =>
    Effect.gen(function* () {
      const x = yield* extractFile(corpusFile("sheetjs/CRLFX5_2.XLS"))
      expect(x.parts.map((p) => p.name)).toEqual(["CRLFX5_2"])
      expect(lines(x)).toEqual([
        ["A1", "Normal"],
        ["B1", "abc\ndef"],
        ["A2", "Formula"],
        ["B2", "abc\r\ndef"],
        ["footer", "Page"]
      ])
    })
  )

  it.effect("testEXCEL_3.xls (BIFF3): labels, RK and formula numbers through their formats, the typed value a search-only form", () =>
    Effect.gen(function* () {
      const x = yield* extractFile(corpusFile("poi/testEXCEL_3.xls"))
      expect(x.parts.map((p) => p.name)).toEqual(["Sheet1"])
      const all = lines(x)
      expect(all).toHaveLength(183)
      expect(all.slice(0, 2)).toEqual([
        ["A1", "Table C-13--Lemons: Utilization of production, by State, 1977/78 to date"],
        ["A2", "Season"]
      ])
      expect(all).toContainEqual(["C6", "376", "376.2"])
      expect(all).toContainEqual(["G6", "133"])
      expect(all.at(-1)).toEqual(["A35", "Sources: National Agricultural Statistics Service and Economic Research Service, USDA."])
    })
  )

  it.effect("testEXCEL_4.xls (BIFF4): windows-1252 labels, formula results, and its three text boxes, which LibreOffice's conversion drops", () =>
    Effect.gen(function* () {
      const x = yield* extractFile(corpusFile("poi/testEXCEL_4.xls"))
      expect(x.parts.map((p) => p.name)).toEqual(["Sheet1"])
      const all = lines(x)
      expect(all).toHaveLength(983)
      expect(all).toContainEqual(["D17", "0.58", "0.575744271716022"])
      expect(all).toContainEqual(["A149", "[7] Form 1040A is one of the two IRS individual income tax return “short forms.”"])
      expect(all.slice(-3)).toEqual([
        ["A62 shape", "8"],
        ["A130 shape", "8"],
        ["A130 shape", "8"]
      ])
    })
  )
})
