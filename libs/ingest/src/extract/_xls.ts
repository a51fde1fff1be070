/**
 * Text of a legacy Excel workbook (Excel 5.0/95 BIFF5, Excel 97–2003 BIFF8:
 * the `Workbook` or `Book` stream of an OLE2 container) without Office (W3):
 * one body part per sheet in tab order with its visibility, each cell as
 * Excel shows it — shared strings, labels, numbers and dates through the
 * cell's number format (the xlsx path's `_format_code.ts`, 1900 and 1904
 * date systems), cached formula results, booleans and errors — a merged
 * area's text once, then the sheet's comments, hyperlinks, text boxes,
 * headers and footers, located as the xlsx path locates them (`A1`,
 * `A1 comment`, `A1 link`, `D5 shape`, `header`).
 *
 * The stream is read record by record by positioned reads (`_biff.ts`), a
 * sheet twice: first its layout (merged areas, links, notes, whether its
 * cells are in order — all known only at its end), then its cells, handed to
 * the sink in batches (W1). A BIFF2–4 stream (Excel 2–4) goes to
 * `_xls_old.ts`. What this reader does not take — a workbook that is only a
 * worksheet, damaged records — is `needs-office`, so the file is rerouted to
 * the spreadsheet owner (W3, R14).
 *
 * @module
 */
import { Effect } from "effect"
import type { BodyLine, PartState } from "@sagasu/domain"
import { numberForms, numberText, type CellContext } from "./_cell_text.ts"
import { byteDecoder, type ByteDecoder } from "./_codepage.ts"
import { compileFormat, formatText, type NumberFormat } from "./_format_code.ts"
import type { LineBudget } from "./_limits.ts"
import { builtInFormatCode } from "./_number_format.ts"
import { SharedStringTable } from "./_shared_strings.ts"
import { emitLines, type ExtractionSink } from "./_sink.ts"
import type { SheetStreaming } from "./_workbook.ts"
import { extractOldXls } from "./_xls_old.ts"
import { ExtraLines, headerFooterText, lineOfCell, MergeFilter, refOf, type Area, type Cell } from "./_worksheet.ts"
import { byteStringAt, ContinuedBytes, damaged, errorTexts, f64, readRichExtendedString, RecordCursor, rkNumber, rt, u16, u32, unicodeStringAt, type BiffRecord } from "./_biff.ts"
import { ExtractError } from "./extract_error.ts"
import type { ZipSource } from "./_zip.ts"

/** What kind of substream a sheet is (BOUNDSHEET `dt`). */
type SheetKind = "worksheet" | "macrosheet" | "chart" | "module"

interface SheetEntry {
  readonly name: string
  readonly state: PartState
  readonly offset: number
  readonly kind: SheetKind
}

interface Globals {
  readonly biff: 5 | 8
  readonly sheets: ReadonlyArray<SheetEntry>
  readonly context: CellContext
  readonly decode: ByteDecoder
  /** Where the record after the globals' EOF starts. */
  readonly end: number
}

const sheetKinds: Record<number, SheetKind> = { 0: "worksheet", 1: "macrosheet", 2: "chart", 6: "module" }
const states: ReadonlyArray<PartState> = ["visible", "hidden", "veryHidden"]


/** BOF record types of BIFF2, 3 and 4, read by `_xls_old.ts`. */
const oldBofs = new Set([0x0009, 0x0209, 0x0409])

/**
 * The number format of each XF (cell format) by its index: the code the
 * file's FORMAT records give the XF's format id, else Excel's built-in code
 * for it (the ja-JP table of `_number_format.ts`, as the xlsx path).
 */
function formatsOf(xfFormatIds: ReadonlyArray<number>, codes: ReadonlyMap<number, string>): ReadonlyArray<NumberFormat | undefined> {
  const byId = new Map<number, NumberFormat | undefined>()
  return xfFormatIds.map((id) => {
    if (!byId.has(id)) {
      const code = codes.get(id) ?? builtInFormatCode(id)
      byId.set(id, code === undefined || /^general$/i.test(code) ? undefined : compileFormat(code))
    }
    return byId.get(id)
  })
}

/** Reads the workbook globals: BOF, then records up to their EOF. */
function readGlobals(cursor: RecordCursor, budget: LineBudget): Globals {
  const bof = cursor.next()
  if (bof === undefined) throw damaged("an empty workbook stream")
  if (bof.type !== rt.bof) throw damaged(`the workbook stream starts with record 0x${bof.type.toString(16)}, not a BOF`)
  const version = u16(bof.data, 0)
  const biff = version === 0x0600 ? 8 : version === 0x0500 ? 5 : undefined
  if (biff === undefined) throw new ExtractError({ reason: "needs-office", detail: `BIFF version 0x${version.toString(16)} workbook` })
  if (u16(bof.data, 2) !== 0x0005) throw new ExtractError({ reason: "needs-office", detail: `BIFF${biff} stream that is not a workbook (substream type 0x${u16(bof.data, 2).toString(16)})` })

  let decode = byteDecoder(1252)
  let date1904 = false
  const codes = new Map<number, string>()
  const xfFormatIds: Array<number> = []
  const sheets: Array<SheetEntry> = []
  const strings = new SharedStringTable()
  for (let r = cursor.next(); r !== undefined && r.type !== rt.eof; r = cursor.next()) {
    const d = r.data
    switch (r.type) {
      case rt.filePass:
        throw new ExtractError({ reason: "encrypted", detail: "legacy Excel workbook with a FILEPASS record" })
      case rt.codePage:
        if (biff === 5) decode = byteDecoder(u16(d, 0))
        break
      case rt.dateMode:
        date1904 = u16(d, 0) === 1
        break
      case rt.format: {
        const id = u16(d, 0)
        codes.set(id, biff === 8 ? unicodeStringAt(d, 2).text : byteStringAt(d, 2, 1, decode.decode).text)
        break
      }
      case rt.xf:
        xfFormatIds.push(u16(d, 2))
        break
      case rt.boundSheet: {
        const kind = sheetKinds[d[5] ?? 0]
        const name = biff === 8 ? unicodeStringAt(d, 6, 1).text : byteStringAt(d, 6, 1, decode.decode).text
        sheets.push({ name: name === "" ? `Sheet${sheets.length + 1}` : name, state: states[(d[4] ?? 0) & 0x03] ?? "hidden", offset: u32(d, 0), kind: kind ?? "worksheet" })
        break
      }
      case rt.sst:
        if (biff === 8) readSst(r, cursor, strings, budget)
        break
      case rt.bof:
        // A sheet's BOF before the globals' EOF: the globals ended without one.
        cursor.seek(r.offset)
        return finish()
    }
  }
  return finish()

  function finish(): Globals {
    strings.pack()
    return { biff: biff ?? 8, sheets, decode, end: cursor.position, context: { sharedStrings: strings, formats: formatsOf(xfFormatIds, codes), date1904 } }
  }
}

/**
 * The shared-string table (SST and its CONTINUE records), read to the end of
 * its records whatever count it declares (the count may lie either way); a
 * string cut off by the end of the table is dropped, the ones before it stand.
 */
function readSst(record: BiffRecord, cursor: RecordCursor, strings: SharedStringTable, budget: LineBudget): void {
  let more = true
  const bytes = new ContinuedBytes(record.data, () => {
    const next = cursor.nextContinue()
    if (next === undefined) more = false
    return next
  }, 8)
  for (;;) {
    if (bytes.atSegmentEnd && cursor.peekType() !== rt.continue) break
    let text: string
    try {
      text = readRichExtendedString(bytes)
    } catch (e) {
      // A string cut off by the end of the table: the ones before it stand.
      if (!more) break
      throw e
    }
    budget.hold("shared strings", text.length + 8)
    strings.push(text)
  }
}

/** A hyperlink of a sheet: its top-left cell, the text Excel shows for it, its target. */
interface Link {
  readonly ref: string
  readonly display: string | undefined
  readonly target: string | undefined
}

/** What a sheet's first reading learns: what comes after its cells or decides how they are handed on. */
interface Layout {
  readonly areas: Array<Area>
  readonly links: Array<Link>
  readonly notes: Array<{ readonly row: number; readonly col: number; readonly id: number; text: string }>
  /** Texts of drawing objects by object id: comments' text and text boxes, with where the object is anchored. */
  readonly objects: Map<number, { readonly kind: number; readonly anchor: string; readonly text: string }>
  readonly headerFooter: Array<readonly [string, string]>
  ordered: boolean
  /** Where the record after the sheet's EOF starts. */
  end: number
}

const hyperlinkString = (d: Uint8Array, at: number): { text: string; end: number } => {
  const chars = u32(d, at)
  const start = at + 4
  const end = Math.min(d.length, start + chars * 2)
  const text = Buffer.from(d.buffer, d.byteOffset + start, Math.max(0, end - start) & ~1).toString("utf16le")
  return { text: text.replace(/\0[\s\S]*$/, ""), end }
}

const urlMoniker = "e0c9ea79f9bace118c8200aa004ba90b"
const fileMoniker = "0303000000000000c000000000000046"
const hex = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.length).toString("hex")

/** An HLINK record (MS-XLS 2.4.140, MS-OSHARED 2.3.7.1): cell, display name, URL or file target, in-book location. */
function readHlink(d: Uint8Array): Link {
  const at = refOf(u16(d, 0), u16(d, 4))
  const flags = u32(d, 28)
  let p = 32
  let display: string | undefined
  let target: string | undefined
  let location: string | undefined
  try {
    // hlstmfHasDisplayName (MS-OSHARED 2.3.7.1); 0x04, "the site gave the name", adds no field.
    if (flags & 0x10) {
      const s = hyperlinkString(d, p)
      display = s.text
      p = s.end
    }
    if (flags & 0x80) p = hyperlinkString(d, p).end
    if (flags & 0x01) {
      if (flags & 0x100) {
        const s = hyperlinkString(d, p)
        target = s.text
        p = s.end
      } else {
        const clsid = hex(d.subarray(p, p + 16))
        p += 16
        if (clsid === urlMoniker) {
          const length = u32(d, p)
          target = Buffer.from(d.buffer, d.byteOffset + p + 4, Math.min(length, Math.max(0, d.length - p - 4)) & ~1).toString("utf16le").replace(/\0[\s\S]*$/, "")
          p += 4 + length
        } else if (clsid === fileMoniker) {
          const up = u16(d, p)
          const ansiLength = u32(d, p + 2)
          const ansi = latin1Until0(d.subarray(p + 6, p + 6 + ansiLength))
          p += 6 + ansiLength + 2 + 2 + 20
          const unicodeSize = u32(d, p)
          p += 4
          let path = ansi
          if (unicodeSize > 0) {
            const bytes = u32(d, p)
            path = Buffer.from(d.buffer, d.byteOffset + p + 6, Math.min(bytes, Math.max(0, d.length - p - 6)) & ~1).toString("utf16le")
            p += unicodeSize
          }
          target = "../".repeat(up) + path
        } else {
          // A composite or item moniker: its target is not text a person typed; the location cannot be found past it.
          return { ref: at, display, target: undefined }
        }
      }
    }
    if (flags & 0x08) location = hyperlinkString(d, p).text
  } catch {
    // A truncated link keeps what was read.
  }
  return { ref: at, display, target: target ?? location }
}

const latin1Until0 = (b: Uint8Array): string => {
  const zero = b.indexOf(0)
  return Buffer.from(b.buffer, b.byteOffset, zero < 0 ? b.length : zero).toString("latin1")
}

/** The top-left cell of the last client anchor (OfficeArtClientAnchorSheet, 0xF010) in an MSODRAWING record, if any. */
function lastAnchor(d: Uint8Array): string | undefined {
  let found: string | undefined
  for (let p = 0; p + 8 <= d.length; ) {
    const ver = (d[p] ?? 0) & 0x0f
    const type = u16(d, p + 2)
    const length = u32(d, p + 4)
    if (type === 0xf010 && p + 8 + 8 <= d.length) found = refOf(u16(d, p + 14), u16(d, p + 10))
    // A container's children follow its header; an atom is skipped whole.
    p += ver === 0x0f ? 8 : 8 + length
  }
  return found
}

/** The text of a TXO record: in the CONTINUE records after it (BIFF8: a flag byte, then characters; BIFF5: bytes). */
function readTxo(record: BiffRecord, cursor: RecordCursor, globals: Globals): string {
  const count = u16(record.data, 10)
  if (count === 0) return ""
  const first = cursor.nextContinue()
  if (first === undefined) return ""
  if (globals.biff === 5) return globals.decode.decode(first.subarray(0, count))
  const bytes = new ContinuedBytes(first, () => cursor.nextContinue())
  const high = (bytes.byte() & 0x01) !== 0
  return bytes.chars(count, high)
}

/** Cell records: where their row and column are (MULRK: the first column; its last is at the end). */
const cellRecords = new Set<number>([rt.labelSst, rt.label, rt.rString, rt.number, rt.rk, rt.mulRk, rt.boolErr, rt.formula])

/**
 * The first reading of a sheet from its BOF at `start`: its layout. Records
 * of a chart embedded in the sheet (a BOF … EOF of its own) are skipped.
 */
function readLayout(cursor: RecordCursor, start: number, globals: Globals): Layout {
  const layout: Layout = { areas: [], links: [], notes: [], objects: new Map(), headerFooter: [], ordered: true, end: start }
  cursor.seek(start)
  cursor.next()
  let depth = 0
  let lastRow = -1
  let lastCol = -1
  let anchor: string | undefined
  let object: { kind: number; id: number; anchor: string } | undefined
  for (let r = cursor.next(); r !== undefined; r = cursor.next()) {
    if (r.type === rt.bof) {
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
      if (row < lastRow || (row === lastRow && col <= lastCol)) layout.ordered = false
      lastRow = row
      lastCol = r.type === rt.mulRk ? u16(d, d.length - 2) : col
      continue
    }
    switch (r.type) {
      case rt.mergedCells:
        for (let i = 0, n = u16(d, 0); i < n && 2 + 8 * i + 8 <= d.length; i++) {
          const at = 2 + 8 * i
          const [top, bottom, left, right] = [u16(d, at), u16(d, at + 2), u16(d, at + 4), u16(d, at + 6)]
          layout.areas.push({ top: Math.min(top, bottom) + 1, bottom: Math.max(top, bottom) + 1, left: Math.min(left, right) + 1, right: Math.max(left, right) + 1 })
        }
        break
      case rt.hlink:
        if (globals.biff === 8) layout.links.push(readHlink(d))
        break
      case rt.note:
        if (globals.biff === 8) {
          layout.notes.push({ row: u16(d, 0), col: u16(d, 2), id: u16(d, 6), text: "" })
        } else {
          // BIFF5: the text is in the record, going on in NOTE records whose row is 0xFFFF.
          const text = byteStringAt(d, 4, 2, globals.decode.decode).text
          const previous = layout.notes.at(-1)
          if (u16(d, 0) === 0xffff && previous !== undefined) previous.text += text
          else layout.notes.push({ row: u16(d, 0), col: u16(d, 2), id: -1, text })
        }
        break
      case rt.msoDrawing:
        anchor = lastAnchor(d) ?? anchor
        break
      case rt.obj:
        object = { kind: u16(d, 4), id: u16(d, 6), anchor: anchor ?? "" }
        anchor = undefined
        break
      case rt.txo: {
        const text = readTxo(r, cursor, globals)
        if (object !== undefined) layout.objects.set(object.id, { kind: object.kind, anchor: object.anchor, text })
        object = undefined
        break
      }
      case rt.header:
      case rt.footer: {
        if (d.length === 0) break
        const code = globals.biff === 8 ? unicodeStringAt(d, 0).text : byteStringAt(d, 0, 1, globals.decode.decode).text
        const text = headerFooterText(code)
        const loc = r.type === rt.header ? "header" : "footer"
        if (text !== "" && !layout.headerFooter.some(([l, t]) => l === loc && t === text)) layout.headerFooter.push([loc, text])
        break
      }
    }
  }
  layout.end = cursor.position
  return layout
}

/** The text of a string cell: as written, through a text section of its format (`@"様"`). */
const stringText = (value: string, format: NumberFormat | undefined): string => (format === undefined || value === "" ? value : formatText(value, format))

/** The text of a number cell as Excel shows it; nothing for a value no cell can hold. */
const numberCellText = (n: number, format: NumberFormat | undefined, date1904: boolean): string => (Number.isFinite(n) ? numberText(n, format, date1904) : "")

/**
 * The second reading of a sheet: its cells with text in file order (row and
 * column 1-based), in batches of about `size` cells, read as they are taken.
 */
function* cellBatches(cursor: RecordCursor, start: number, globals: Globals, size: number): Generator<Array<Cell>, void, undefined> {
  const { context, biff } = globals
  const { formats, date1904, sharedStrings } = context
  const decode = globals.decode.decode
  cursor.seek(start)
  cursor.next()
  let depth = 0
  let pending: { row: number; col: number; format: NumberFormat | undefined } | undefined
  let batch: Array<Cell> = []
  const put = (row: number, col: number, text: string) => {
    if (text !== "") batch.push({ row: row + 1, col: col + 1, text })
  }
  // A number or a date: its text and its search-only forms (S4).
  const putNumber = (row: number, col: number, n: number, format: NumberFormat | undefined) => {
    const text = numberCellText(n, format, date1904)
    if (text === "") return
    const forms = numberForms(n, format, date1904, text)
    batch.push(forms === "" ? { row: row + 1, col: col + 1, text } : { row: row + 1, col: col + 1, text, forms })
  }
  for (let r = cursor.next(); r !== undefined; r = cursor.next()) {
    if (batch.length >= size) {
      yield batch
      batch = []
    }
    const { type, data: d } = r
    if (type === rt.bof) {
      depth++
      continue
    }
    if (type === rt.eof) {
      if (depth-- === 0) break
      continue
    }
    if (depth > 0) continue
    switch (type) {
      case rt.labelSst:
        put(u16(d, 0), u16(d, 2), stringText(sharedStrings.get(u32(d, 6)) ?? "", formats[u16(d, 4)]))
        break
      case rt.label:
      case rt.rString: {
        const text = biff === 8 ? unicodeStringAt(d, 6).text : byteStringAt(d, 6, 2, decode).text
        put(u16(d, 0), u16(d, 2), stringText(text, formats[u16(d, 4)]))
        break
      }
      case rt.number:
        putNumber(u16(d, 0), u16(d, 2), f64(d, 6), formats[u16(d, 4)])
        break
      case rt.rk:
        putNumber(u16(d, 0), u16(d, 2), rkNumber(u32(d, 6)), formats[u16(d, 4)])
        break
      case rt.mulRk: {
        const row = u16(d, 0)
        const first = u16(d, 2)
        for (let i = 0; 4 + 6 * i + 6 <= d.length - 2; i++) {
          putNumber(row, first + i, rkNumber(u32(d, 6 + 6 * i)), formats[u16(d, 4 + 6 * i)])
        }
        break
      }
      case rt.boolErr:
        put(u16(d, 0), u16(d, 2), d[7] ? (errorTexts[d[6] ?? 0] ?? "#N/A") : d[6] ? "TRUE" : "FALSE")
        break
      case rt.formula: {
        const row = u16(d, 0)
        const col = u16(d, 2)
        const format = formats[u16(d, 4)]
        pending = undefined
        if (u16(d, 12) !== 0xffff) {
          putNumber(row, col, f64(d, 6), format)
        } else if (d[6] === 0) {
          // A string result: its text is in the STRING record that follows.
          pending = { row, col, format }
        } else if (d[6] === 1) {
          put(row, col, d[8] ? "TRUE" : "FALSE")
        } else if (d[6] === 2) {
          put(row, col, errorTexts[d[8] ?? 0] ?? "#N/A")
        }
        break
      }
      case rt.string: {
        if (pending === undefined) break
        let text: string
        if (biff === 8) {
          const bytes = new ContinuedBytes(d, () => cursor.nextContinue())
          const count = bytes.u16()
          text = bytes.chars(count, (bytes.byte() & 0x01) !== 0)
        } else {
          text = byteStringAt(d, 0, 2, decode).text
        }
        put(pending.row, pending.col, stringText(text, pending.format))
        pending = undefined
        break
      }
    }
  }
  yield batch
}

/** A record at `offset` is a BOF. */
function isBofAt(cursor: RecordCursor, offset: number): boolean {
  const at = cursor.position
  cursor.seek(offset)
  const is = cursor.peekType() === rt.bof
  cursor.seek(at)
  return is
}

/**
 * One sheet into the sink's current part: cells (merged areas once, in
 * batches of `streaming.batchLines`), then comments at their cells, links
 * whose text the cell does not already show, text boxes, headers and
 * footers — the xlsx path's order.
 */
const sheetLines = <E>(
  cursor: RecordCursor,
  start: number,
  globals: Globals,
  layout: Layout,
  budget: LineBudget,
  sink: ExtractionSink<E>,
  streaming: SheetStreaming,
  partName: string
): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    const merged = new MergeFilter(layout.areas)
    const linked = new Set(layout.links.map((l) => l.ref))
    const shown = new Map<string, string>()
    const take = (cells: ReadonlyArray<Cell>, counted = false): Array<BodyLine> => {
      const lines: Array<BodyLine> = []
      for (const cell of cells) {
        if (!merged.keeps(cell.row, cell.col)) {
          if (counted) budget.release(cell.text.length)
          continue
        }
        if (!counted) budget.take(partName, cell.text.length)
        const line = lineOfCell(cell)
        if (linked.has(line.loc)) shown.set(line.loc, line.text)
        lines.push(line)
      }
      return lines
    }
    if (layout.ordered) {
      for (const cells of cellBatches(cursor, start, globals, streaming.batchLines)) yield* emitLines(sink, budget, take(cells))
    } else {
      // Out of order: held whole and sorted (bounded like any sheet held whole, by maxLines and maxTextChars).
      const batch: Array<Cell> = []
      for (const cells of cellBatches(cursor, start, globals, streaming.batchLines)) {
        for (const c of cells) {
          budget.take(partName, c.text.length)
          batch.push(c)
        }
      }
      batch.sort((a, b) => a.row - b.row || a.col - b.col)
      // Two cells at one address: the last one written is what Excel shows.
      const unique = batch.filter((c, i) => {
        const next = batch[i + 1]
        const kept = next === undefined || next.row !== c.row || next.col !== c.col
        if (!kept) budget.release(c.text.length)
        return kept
      })
      yield* emitLines(sink, budget, take(unique, true))
    }

    const extras = new ExtraLines(budget, partName)
    extras.comments(layout.notes.map((n) => ({ row: n.row, col: n.col, text: n.id >= 0 ? (layout.objects.get(n.id)?.text ?? "") : n.text })))
    for (const link of layout.links) extras.link(link.ref, shown.get(link.ref) ?? "", link.display, link.target)
    const noteIds = new Set(layout.notes.map((n) => n.id))
    for (const [id, object] of layout.objects) {
      // Object type 0x19 is a note's box, already given at its cell.
      // An object without an anchor is located by its kind alone, as an absolute anchor is in an xlsx.
      if (object.kind !== 0x19 && !noteIds.has(id)) extras.push(object.anchor === "" ? "shape" : `${object.anchor} shape`, object.text)
    }
    for (const [loc, text] of layout.headerFooter) extras.push(loc, text)
    yield* emitLines(sink, budget, extras.lines)
  })

/**
 * Extracts the workbook in `source` (the `Workbook` or `Book` stream of an
 * OLE2 container, read by positioned reads) into `sink`: one part per sheet
 * in tab order (a chart sheet gives a part without lines; Excel 5 VBA module
 * sheets are not sheets and give none); a BIFF2–4 stream is read by
 * `_xls_old.ts`'s `extractOldXls`. Fails with `encrypted` for a FILEPASS
 * record, `needs-office` for what only Office reads (a stream that is not a
 * workbook's, damaged records), `too-large` past the budget; or with the
 * sink's error.
 */
export const extractXls = <E>(
  source: ZipSource,
  streamName: string,
  budget: LineBudget,
  sink: ExtractionSink<E>,
  streaming: SheetStreaming
): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    const cursor = new RecordCursor(source, streamName)
    // An Excel 2–4 worksheet (a BIFF2–4 stream in an OLE2 container): the old reader's.
    const first = yield* Effect.try({ try: () => cursor.peekType(), catch: asExtractError })
    if (first !== undefined && oldBofs.has(first)) return yield* extractOldXls(source, streamName, budget, sink, streaming)
    const globals = yield* Effect.try({ try: () => readGlobals(cursor, budget), catch: asExtractError })
    let sequential = globals.end
    for (const sheet of globals.sheets) {
      if (sheet.kind === "module") continue
      budget.startPart()
      yield* sink.beginPart({ name: sheet.name, locator: "cell", state: sheet.state })
      // BOUNDSHEET gives where the sheet starts; a writer that got it wrong still wrote the sheets in order.
      const start = isBofAt(cursor, sheet.offset) ? sheet.offset : sequential
      if (sheet.kind !== "chart" && isBofAt(cursor, start)) {
        const layout = yield* Effect.try({ try: () => readLayout(cursor, start, globals), catch: asExtractError })
        sequential = layout.end
        yield* Effect.suspend(() => sheetLines(cursor, start, globals, layout, budget, sink, streaming, `${streamName} sheet ${sheet.name}`)).pipe(
          Effect.catchAllDefect((e) => Effect.fail(asExtractError(e)))
        )
      } else if (isBofAt(cursor, start)) {
        sequential = yield* Effect.try({ try: () => skipSubstream(cursor, start), catch: asExtractError })
      }
      yield* sink.endPart
    }
  }).pipe(Effect.withSpan("Extract.xls"))

/** Skips the substream whose BOF is at `start`; where the record after its EOF starts. */
function skipSubstream(cursor: RecordCursor, start: number): number {
  cursor.seek(start)
  cursor.next()
  let depth = 0
  for (let r = cursor.next(); r !== undefined; r = cursor.next()) {
    if (r.type === rt.bof) depth++
    else if (r.type === rt.eof && depth-- === 0) break
  }
  return cursor.position
}

const asExtractError = (e: unknown): ExtractError => (e instanceof ExtractError ? e : damaged(e instanceof Error ? e.message : String(e)))
