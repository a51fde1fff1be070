/**
 * Text of an Excel 2.x, 3.0 or 4.0 worksheet (BIFF2, BIFF3, BIFF4: a bare
 * record stream, or the `Book` stream of an OLE2 container) without Office
 * (W3): one body part, each cell as Excel shows it — labels, numbers and
 * dates through the cell's number format (the xlsx path's `_format_code.ts`,
 * 1900 and 1904 date systems), cached formula results, booleans and errors
 * — then the sheet's notes, text boxes, header and footer, located as the
 * BIFF5/8 reader `_xls.ts` locates them (`A1`, `A1 comment`, `A62 shape`,
 * `footer`).
 *
 * These versions keep their formatting in the sheet's own stream: FORMAT
 * records numbered in the order they come (BIFF4's index field is unused),
 * XF records whose format index points into them; a BIFF2 cell carries a
 * 3-byte attribute (its XF index, 63 meaning the IXFE record before it, or,
 * in a file without XF records, its format index) where later versions
 * write a 2-byte XF index.
 *
 * The stream is read twice by positioned reads (`_biff.ts`), as `_xls.ts`
 * reads a sheet: first its layout (formats, date system, code page, notes,
 * text boxes, header and footer, whether its cells are in order), then its
 * cells, handed to the sink in batches (W1). What it does not read — an
 * Excel 4.0 workbook (BIFF4W) of bound sheets, a chart or macro sheet on its
 * own, damaged records — fails `needs-office`, so the file goes to the
 * spreadsheet owner (W3, R14); FILEPASS is `encrypted`.
 *
 * @module
 */
import { Effect } from "effect"
import type { BodyLine } from "@sagasu/domain"
import { byteStringAt, damaged, errorTexts, f64, RecordCursor, rkNumber, u16, u32, type BiffRecord } from "./_biff.ts"
import { numberForms, numberText } from "./_cell_text.ts"
import { byteDecoder, type ByteDecoder, eightBitCodePage } from "./_codepage.ts"
import { compileFormat, formatText, type NumberFormat } from "./_format_code.ts"
import type { LineBudget } from "./_limits.ts"
import { emitLines, type ExtractionSink } from "./_sink.ts"
import type { SheetStreaming } from "./_workbook.ts"
import { ExtraLines, headerFooterText, lineOfCell, refOf, type Cell } from "./_worksheet.ts"
import type { ZipSource } from "./_zip.ts"
import { ExtractError } from "./extract_error.ts"

/** Record types of BIFF2–4 worksheets (OpenOffice.org's "Microsoft Excel File Format", sections 5 and 6). */
const rt = {
  integer2: 0x0002,
  number2: 0x0003,
  label2: 0x0004,
  boolErr2: 0x0005,
  formula2: 0x0006,
  string2: 0x0007,
  bof2: 0x0009,
  eof: 0x000a,
  header: 0x0014,
  footer: 0x0015,
  note: 0x001c,
  format: 0x001e,
  dateMode: 0x0022,
  filePass: 0x002f,
  codePage: 0x0042,
  xf2: 0x0043,
  ixfe2: 0x0044,
  obj: 0x005d,
  number: 0x0203,
  label: 0x0204,
  boolErr: 0x0205,
  formula3: 0x0206,
  string: 0x0207,
  bof3: 0x0209,
  xf3: 0x0243,
  rk: 0x027e,
  formula4: 0x0406,
  bof4: 0x0409,
  format4: 0x041e,
  xf4: 0x0443,
  bof: 0x0809
} as const


/** BOF record types of BIFF2, 3 and 4 by their version. */
const bofVersions: ReadonlyMap<number, 2 | 3 | 4> = new Map([
  [rt.bof2, 2],
  [rt.bof3, 3],
  [rt.bof4, 4]
])

const bofTypes = new Set<number>([rt.bof2, rt.bof3, rt.bof4, rt.bof])

/** The BIFF version (2, 3 or 4) a BOF record of type `bofType` starts, `undefined` for any other record. */
export const oldBiffVersion = (bofType: number): 2 | 3 | 4 | undefined => bofVersions.get(bofType)

/** What a sheet's BOF substream type word names (BIFF2–4: 0x0010 worksheet, 0x0020 chart, 0x0040 macro sheet, 0x0100 BIFF4W workbook). */
const substreamNames: Record<number, string> = { 0x0020: "chart", 0x0040: "macro sheet", 0x0100: "workbook of bound sheets (BIFF4W)" }

/**
 * Code pages of BIFF2–4 CODEPAGE records that are not Windows code page
 * numbers: 0x8001 is Windows ANSI (1252), 0x8000 Apple Roman; a Unicode
 * page is read as 1252 ({@link eightBitCodePage}).
 */
const codePageOf = (word: number): number => (word === 0x8001 ? 1252 : word === 0x8000 ? 10000 : eightBitCodePage(word))

/** A note's text as the NOTE records give it (the first, then those whose row is 0xFFFF). */
interface Note {
  readonly row: number
  readonly col: number
  text: string
}

/** What the first reading of the sheet learns. */
interface Layout {
  readonly decode: ByteDecoder
  readonly date1904: boolean
  /** Format codes in the order of their FORMAT records: a cell's or an XF's format index points here. */
  readonly codes: ReadonlyArray<string>
  /** The format index of each XF, by XF index. */
  readonly xfFormats: ReadonlyArray<number>
  readonly notes: ReadonlyArray<Note>
  /** Text boxes and buttons (BIFF3/4 OBJ): the cell their top-left corner is on, and their text. */
  readonly shapes: ReadonlyArray<{ readonly anchor: string; readonly text: string }>
  readonly headerFooter: ReadonlyArray<readonly [string, string]>
  /** Cells come in row-major order, none twice. */
  readonly ordered: boolean
  /** Characters of notes, shapes, headers and footers held against the budget. */
  readonly held: number
}

/** Cell records: row and column first, then an XF index (BIFF3/4) or a 3-byte attribute (BIFF2), then the value. */
const cellRecords = new Set<number>([
  rt.integer2,
  rt.number2,
  rt.label2,
  rt.boolErr2,
  rt.formula2,
  rt.number,
  rt.label,
  rt.boolErr,
  rt.formula3,
  rt.formula4,
  rt.rk
])

/**
 * The shortest body of each cell record: row, column, the attributes (3
 * bytes in BIFF2, an XF index in BIFF3/4) and the value; a shorter record is
 * damage and gives no cell (zero-length records showed a phantom A1 "0").
 */
const cellMinBytes: ReadonlyMap<number, number> = new Map([
  [rt.integer2, 9],
  [rt.number2, 15],
  [rt.label2, 8],
  [rt.boolErr2, 9],
  [rt.formula2, 15],
  [rt.number, 14],
  [rt.rk, 10],
  [rt.label, 8],
  [rt.boolErr, 8],
  [rt.formula3, 14],
  [rt.formula4, 14]
])

/** Excel 2–4 sheets have 256 columns and 16,384 rows: a cell past them is damage, not a place (column 0xFFFF gave `CRXP65536`). */
const maxColumns = 256
const maxRows = 16_384

/** Object types of BIFF3/4 OBJ records whose text is shown: a text box (6) and a button (7). */
const textObjects = new Set([6, 7])

/**
 * The text of a BIFF3/4 OBJ record of a text box or a button: after the
 * common part (30 bytes: count, type, id, flags, anchor, macro size), the
 * frame (10 bytes) and the text description (22 bytes: its length first),
 * the macro formula, padded to an even offset, then the text's bytes.
 */
function objectText(d: Uint8Array, decode: ByteDecoder): string {
  const textLength = u16(d, 40)
  let at = 62 + u16(d, 26)
  if (at % 2 === 1) at++
  return decode.decode(d.subarray(at, Math.min(d.length, at + textLength)))
}

/** The BOF substream type word (both BIFF2 and BIFF3/4 BOFs keep it at offset 2). */
const substreamOf = (bof: BiffRecord): number => u16(bof.data, 2)

/**
 * The first reading of the sheet from its BOF at `start`: formats, date
 * system, code page, notes, shapes, header and footer, order. An embedded
 * chart (a BOF … EOF of its own) is skipped. Fails with `encrypted` for
 * FILEPASS, `needs-office` for a stream that is not a worksheet.
 */
function readLayout(cursor: RecordCursor, start: number, budget: LineBudget, part: string): Layout {
  cursor.seek(start)
  const bof = cursor.next()
  if (bof === undefined || !bofTypes.has(bof.type)) throw damaged("the stream does not start with a BOF record")
  const kind = substreamOf(bof)
  if (kind !== 0x0010) {
    throw new ExtractError({ reason: "needs-office", detail: `Excel 2–4 ${substreamNames[kind] ?? `substream of type 0x${kind.toString(16)}`}, which the plain reader does not read` })
  }
  let decode = byteDecoder(1252)
  let date1904 = false
  const codes: Array<string> = []
  const xfFormats: Array<number> = []
  const notes: Array<Note> = []
  const shapes: Array<{ anchor: string; text: string }> = []
  const headerFooter: Array<readonly [string, string]> = []
  let held = 0
  // A note or a shape costs its characters and a little more: a stream of empty ones cannot fill memory either.
  const hold = (text: string) => {
    budget.hold(part, text.length + 8)
    held += text.length + 8
  }
  let ordered = true
  let lastRow = -1
  let lastCol = -1
  let depth = 0
  for (let r = cursor.next(); r !== undefined; r = cursor.next()) {
    if (bofTypes.has(r.type)) {
      depth++
      continue
    }
    if (r.type === rt.eof) {
      if (depth-- === 0) break
      continue
    }
    if (depth > 0) continue
    const d = r.data
    if (cellRecords.has(r.type)) {
      const row = u16(d, 0)
      const col = u16(d, 2)
      if (row < lastRow || (row === lastRow && col <= lastCol)) ordered = false
      lastRow = row
      lastCol = col
      continue
    }
    switch (r.type) {
      case rt.filePass:
        throw new ExtractError({ reason: "encrypted", detail: "Excel 2–4 worksheet with a FILEPASS record" })
      case rt.codePage:
        decode = byteDecoder(codePageOf(u16(d, 0)))
        break
      case rt.dateMode:
        date1904 = u16(d, 0) === 1
        break
      case rt.format:
        // A format index is one byte: formats past the 256th are never used.
        if (codes.length < 256) codes.push(byteStringAt(d, 0, 1, decode.decode).text)
        break
      case rt.format4:
        // BIFF4: an index field Excel leaves undefined; the formats are numbered in order as in BIFF2/3.
        if (codes.length < 256) codes.push(byteStringAt(d, 2, 1, decode.decode).text)
        break
      case rt.xf2:
        if (xfFormats.length < maxXfs) xfFormats.push((d[2] ?? 0) & 0x3f)
        break
      case rt.xf3:
      case rt.xf4:
        if (xfFormats.length < maxXfs) xfFormats.push(d[1] ?? 0)
        break
      case rt.note: {
        const text = byteStringAt(d, 4, 2, decode.decode).text
        hold(text)
        const previous = notes.at(-1)
        if (u16(d, 0) === 0xffff && previous !== undefined) previous.text += text
        else notes.push({ row: u16(d, 0), col: u16(d, 2), text })
        break
      }
      case rt.obj:
        if (d.length >= 62 && textObjects.has(u16(d, 4)) && u16(d, 40) > 0) {
          const text = objectText(d, decode)
          hold(text)
          shapes.push({ anchor: refOf(u16(d, 14), u16(d, 10)), text })
        }
        break
      case rt.header:
      case rt.footer: {
        // A sheet has one header and one footer: a later record with text replaces an earlier one (a flood of them was one line
        // each); an empty one is no header and takes nothing away.
        const loc = r.type === rt.header ? "header" : "footer"
        const text = d.length === 0 ? "" : headerFooterText(byteStringAt(d, 0, 1, decode.decode).text)
        if (text === "") break
        const at = headerFooter.findIndex(([l]) => l === loc)
        if (at >= 0) {
          const replaced = (headerFooter[at]?.[1].length ?? 0) + 8
          budget.release(replaced)
          held -= replaced
          headerFooter.splice(at, 1)
        }
        hold(text)
        headerFooter.push([loc, text])
        break
      }
    }
  }
  return { decode, date1904, codes, xfFormats, notes, shapes, headerFooter, ordered, held }
}

/** XF indexes a cell can name (two bytes in BIFF3/4, IXFE's in BIFF2): XF records past them are never used. */
const maxXfs = 0x10000

/** The number format of each format index (General and an index without a FORMAT record: `undefined`). */
function compiledFormats(codes: ReadonlyArray<string>): ReadonlyArray<NumberFormat | undefined> {
  const byCode = new Map<string, NumberFormat>()
  return codes.map((code) => {
    if (/^general$/i.test(code.trim()) || code === "") return undefined
    let format = byCode.get(code)
    if (format === undefined) {
      format = compileFormat(code)
      byCode.set(code, format)
    }
    return format
  })
}

/** The text of a string cell: as written, through a text section of its format (`@"様"`). */
const stringText = (value: string, format: NumberFormat | undefined): string => (format === undefined || value === "" ? value : formatText(value, format))

/**
 * The second reading of the sheet: its cells with text in file order (row
 * and column 1-based), in batches of about `size` cells, read as they are
 * taken.
 */
function* cellBatches(cursor: RecordCursor, start: number, layout: Layout, size: number): Generator<Array<Cell>, void, undefined> {
  const { date1904, xfFormats } = layout
  const decode = layout.decode.decode
  const formats = compiledFormats(layout.codes)
  const hasXfs = xfFormats.length > 0
  // A BIFF2 cell's attribute: its XF (63: the one the IXFE record before it names), or, without XF records, its own format index.
  let ixfe = 0
  const biff2Format = (d: Uint8Array): NumberFormat | undefined => {
    if (!hasXfs) return formats[(d[5] ?? 0) & 0x3f]
    const xf = (d[4] ?? 0) & 0x3f
    return formats[xfFormats[xf === 63 ? ixfe : xf] ?? 0]
  }
  const xfFormat = (d: Uint8Array): NumberFormat | undefined => formats[xfFormats[u16(d, 4)] ?? 0]
  cursor.seek(start)
  cursor.next()
  let depth = 0
  let pending: { row: number; col: number; format: NumberFormat | undefined } | undefined
  let batch: Array<Cell> = []
  const put = (row: number, col: number, text: string) => {
    if (text !== "") batch.push({ row: row + 1, col: col + 1, text })
  }
  // A number or a date: its text and its search-only forms (S4), as `_xls.ts` gives them.
  const putNumber = (row: number, col: number, n: number, format: NumberFormat | undefined) => {
    if (!Number.isFinite(n)) return
    const text = numberText(n, format, date1904)
    if (text === "") return
    const forms = numberForms(n, format, date1904, text)
    batch.push(forms === "" ? { row: row + 1, col: col + 1, text } : { row: row + 1, col: col + 1, text, forms })
  }
  // A cached formula result (8 bytes at `at`): a number, or, when its last two bytes are 0xFFFF, a string (in the STRING record after it), a boolean, an error or an empty string.
  const putResult = (d: Uint8Array, at: number, row: number, col: number, format: NumberFormat | undefined) => {
    pending = undefined
    if (u16(d, at + 6) !== 0xffff) putNumber(row, col, f64(d, at), format)
    else if (d[at] === 0) pending = { row, col, format }
    else if (d[at] === 1) put(row, col, d[at + 2] ? "TRUE" : "FALSE")
    else if (d[at] === 2) put(row, col, errorTexts[d[at + 2] ?? 0] ?? "#N/A")
  }
  const putBoolErr = (row: number, col: number, value: number, isError: boolean) =>
    put(row, col, isError ? (errorTexts[value] ?? "#N/A") : value ? "TRUE" : "FALSE")
  for (let r = cursor.next(); r !== undefined; r = cursor.next()) {
    if (batch.length >= size) {
      yield batch
      batch = []
    }
    const { type, data: d } = r
    if (bofTypes.has(type)) {
      depth++
      continue
    }
    if (type === rt.eof) {
      if (depth-- === 0) break
      continue
    }
    if (depth > 0) continue
    const row = u16(d, 0)
    const col = u16(d, 2)
    const min = cellMinBytes.get(type)
    if (min !== undefined) {
      // A STRING belongs to the formula right before it: any other cell between them ends the wait.
      if (type !== rt.formula2 && type !== rt.formula3 && type !== rt.formula4) pending = undefined
      if (d.length < min || col >= maxColumns || row >= maxRows) continue
    }
    switch (type) {
      case rt.ixfe2:
        ixfe = u16(d, 0)
        break
      case rt.integer2:
        putNumber(row, col, u16(d, 7), biff2Format(d))
        break
      case rt.number2:
        putNumber(row, col, f64(d, 7), biff2Format(d))
        break
      case rt.label2:
        put(row, col, stringText(byteStringAt(d, 7, 1, decode).text, biff2Format(d)))
        break
      case rt.boolErr2:
        putBoolErr(row, col, d[7] ?? 0, (d[8] ?? 0) !== 0)
        break
      case rt.formula2:
        putResult(d, 7, row, col, biff2Format(d))
        break
      case rt.string2:
        if (pending !== undefined) put(pending.row, pending.col, stringText(byteStringAt(d, 0, 1, decode).text, pending.format))
        pending = undefined
        break
      case rt.number:
        putNumber(row, col, f64(d, 6), xfFormat(d))
        break
      case rt.rk:
        putNumber(row, col, rkNumber(u32(d, 6)), xfFormat(d))
        break
      case rt.label:
        put(row, col, stringText(byteStringAt(d, 6, 2, decode).text, xfFormat(d)))
        break
      case rt.boolErr:
        putBoolErr(row, col, d[6] ?? 0, (d[7] ?? 0) !== 0)
        break
      case rt.formula3:
      case rt.formula4:
        putResult(d, 6, row, col, xfFormat(d))
        break
      case rt.string:
        if (pending !== undefined) put(pending.row, pending.col, stringText(byteStringAt(d, 0, 2, decode).text, pending.format))
        pending = undefined
        break
    }
  }
  yield batch
}

/** The cells of the sheet, then its notes, text boxes, header and footer, into the sink's current part (`_xls.ts`'s order). */
const sheetLines = <E>(
  cursor: RecordCursor,
  layout: Layout,
  budget: LineBudget,
  sink: ExtractionSink<E>,
  streaming: SheetStreaming,
  part: string
): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    const take = (cells: ReadonlyArray<Cell>): Array<BodyLine> =>
      cells.map((cell) => {
        budget.take(part, cell.text.length)
        return lineOfCell(cell)
      })
    if (layout.ordered) {
      for (const cells of cellBatches(cursor, 0, layout, streaming.batchLines)) yield* emitLines(sink, budget, take(cells))
    } else {
      // Out of order: held whole and sorted (bounded like any sheet held whole, by maxLines and maxTextChars).
      const all: Array<Cell> = []
      for (const cells of cellBatches(cursor, 0, layout, streaming.batchLines)) {
        for (const c of cells) {
          budget.hold(part, c.text.length)
          all.push(c)
        }
      }
      all.sort((a, b) => a.row - b.row || a.col - b.col)
      // Two cells at one address: the last one written is what Excel shows (the sort is stable).
      const unique = all.filter((c, i) => {
        const next = all[i + 1]
        return next === undefined || next.row !== c.row || next.col !== c.col
      })
      budget.release(all.reduce((n, c) => n + c.text.length, 0))
      yield* emitLines(sink, budget, take(unique))
    }
    budget.release(layout.held)
    const extras = new ExtraLines(budget, part)
    extras.comments(layout.notes)
    for (const shape of layout.shapes) extras.push(`${shape.anchor} shape`, shape.text)
    for (const [loc, text] of layout.headerFooter) extras.push(loc, text)
    yield* emitLines(sink, budget, extras.lines)
  })

/** Options of {@link extractOldXls}. */
export interface OldXlsOptions {
  /**
   * The name of the sheet's part. LibreOffice, whose names the Office path
   * gives, names a BIFF2 worksheet after its file and a BIFF3/4 one
   * `Sheet1`; the caller passes the file's name without its extension for
   * the first (default `Sheet1` for both).
   */
  readonly biff2SheetName?: string
}

/**
 * Extracts the Excel 2–4 worksheet in `source` (a bare BIFF2–4 record
 * stream, or an OLE2 container's `Book` stream, named `streamName` in
 * messages) into `sink`: one part, `locator: "cell"`, visible, with the
 * lines described in the module doc. Fails with `encrypted` for a FILEPASS
 * record; `needs-office` for what only Office reads (a chart or macro sheet,
 * an Excel 4.0 workbook of bound sheets, damaged records: W3, R14);
 * `too-large` past the budget; or with the sink's error.
 */
export const extractOldXls = <E>(
  source: ZipSource,
  streamName: string,
  budget: LineBudget,
  sink: ExtractionSink<E>,
  streaming: SheetStreaming,
  options: OldXlsOptions = {}
): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    const cursor = new RecordCursor(source, streamName)
    const version = oldBiffVersion(cursor.peekType() ?? -1)
    if (version === undefined) return yield* Effect.fail(damaged(`the ${streamName} stream does not start with a BIFF2–4 BOF record`))
    const name = version === 2 ? (options.biff2SheetName ?? "Sheet1") : "Sheet1"
    const part = `${streamName} sheet ${name}`
    const layout = yield* Effect.try({ try: () => readLayout(cursor, 0, budget, part), catch: asExtractError })
    budget.startPart()
    yield* sink.beginPart({ name, locator: "cell", state: "visible" })
    yield* Effect.suspend(() => sheetLines(cursor, layout, budget, sink, streaming, part)).pipe(Effect.catchAllDefect((e) => Effect.fail(asExtractError(e))))
    yield* sink.endPart
  }).pipe(Effect.withSpan("Extract.xlsOld"))

const asExtractError = (e: unknown): ExtractError => (e instanceof ExtractError ? e : damaged(e instanceof Error ? e.message : String(e)))
