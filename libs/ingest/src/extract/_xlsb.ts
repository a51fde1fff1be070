/**
 * Text of a binary workbook (.xlsb, MS-XLSB) without Office (W3): the same
 * package as an xlsx — parts found through relationships, drawings in XML —
 * but the workbook, styles, shared strings, sheets and comments are BIFF12
 * records. One body part per sheet in tab order with its visibility, each
 * cell as Excel shows it through the xlsx path's number formats, a merged
 * area's text once, then comments, links, drawing text and headers/footers,
 * located as the xlsx path locates them.
 *
 * Parts are inflated as streams and split into records as they come; a
 * big sheet is read twice (its merged areas and links come after its
 * cells) and handed on in batches (W1). A record the reader cannot make
 * sense of is `needs-office` (the spreadsheet owner reads it, R14).
 *
 * @module
 */
import { Effect } from "effect"
import type { BodyLine, PartState } from "@sagasu/domain"
import { numberForms, numberText, type CellContext } from "./_cell_text.ts"
import { compileFormat, formatText, type NumberFormat } from "./_format_code.ts"
import type { LineBudget } from "./_limits.ts"
import { builtInFormatCode } from "./_number_format.ts"
import type { OpcPackage } from "./_opc.ts"
import { SharedStringTable } from "./_shared_strings.ts"
import { emitLines, type ExtractionSink } from "./_sink.ts"
import { drawingLines, type SheetEntry, sheetParts, type SheetStreaming, type WorksheetLinesOptions } from "./_workbook.ts"
import { ExtraLines, headerFooterText, lineOfCell, MergeFilter, refOf, type Area, type Cell } from "./_worksheet.ts"
import { errorTexts, f64, rkNumber, u16, u32 } from "./_biff.ts"
import { ExtractError } from "./extract_error.ts"

/** Record types used here (MS-XLSB 2.3). */
const brt = {
  rowHdr: 0,
  cellBlank: 1,
  cellRk: 2,
  cellError: 3,
  cellBool: 4,
  cellReal: 5,
  cellSt: 6,
  cellIsst: 7,
  fmlaString: 8,
  fmlaNum: 9,
  fmlaBool: 10,
  fmlaError: 11,
  shortBlank: 12,
  shortRk: 13,
  shortError: 14,
  shortBool: 15,
  shortReal: 16,
  shortSt: 17,
  shortIsst: 18,
  sstItem: 19,
  fmt: 44,
  xf: 47,
  cellRString: 62,
  wbProp: 153,
  bundleSh: 156,
  mergeCell: 176,
  beginHeaderFooter: 479,
  hLink: 494,
  beginCellXfs: 617,
  endCellXfs: 618,
  commentAuthor: 632,
  beginComment: 635,
  commentText: 637
} as const

/** A record the reader does not take: the Office owner may (R14). */
const damaged = (part: string, detail: string): ExtractError =>
  new ExtractError({ reason: "needs-office", detail: `binary workbook the plain reader cannot read (${part}: ${detail})` })

/** Largest record taken (a cell of 32,767 characters is 64 KiB; a formula some more). */
const maxRecordBytes = 16 << 20

/**
 * Splits the bytes of a part, chunk by chunk, into records (MS-XLSB 2.1.4:
 * a type of 1–2 bytes and a size of 1–4 bytes, 7 bits each), handing each
 * to `each` with its body.
 */
class RecordSplitter {
  private carry: Uint8Array = new Uint8Array()
  private readonly part: string
  private readonly each: (type: number, data: Uint8Array) => void

  constructor(part: string, each: (type: number, data: Uint8Array) => void) {
    this.part = part
    this.each = each
  }

  push(chunk: Uint8Array): void {
    const b = this.carry.length === 0 ? chunk : Buffer.concat([this.carry, chunk])
    let p = 0
    for (;;) {
      let q = p
      if (q >= b.length) break
      let type = (b[q] ?? 0) & 0x7f
      if ((b[q++] ?? 0) & 0x80) {
        if (q >= b.length) break
        type |= ((b[q] ?? 0) & 0x7f) << 7
        if ((b[q++] ?? 0) & 0x80) throw damaged(this.part, `a record type of more than two bytes at offset ${p}`)
      }
      let size = 0
      let shift = 0
      let complete = false
      for (let i = 0; i < 4 && q < b.length; i++) {
        const byte = b[q++] ?? 0
        size |= (byte & 0x7f) << shift
        shift += 7
        if ((byte & 0x80) === 0) {
          complete = true
          break
        }
      }
      if (!complete) {
        if (shift >= 28) throw damaged(this.part, `a record size of more than four bytes at offset ${p}`)
        break
      }
      if (size > maxRecordBytes) throw damaged(this.part, `record ${type} declares ${size} bytes`)
      if (q + size > b.length) break
      this.each(type, b.subarray(q, q + size))
      p = q + size
    }
    // What is left starts the next record; copied, so the chunk it came from can go.
    this.carry = p >= b.length ? new Uint8Array() : Uint8Array.from(b.subarray(p))
  }

  /** At the end of the part: a record cut short is damage. */
  end(): void {
    if (this.carry.length > 0) throw damaged(this.part, `the part ends inside a record (${this.carry.length} bytes left)`)
  }
}

/** An XLWideString (32-bit character count, UTF-16) at `at`; `{text, end}`; null (0xFFFFFFFF) is `undefined`. */
function wideString(d: Uint8Array, at: number, part: string): { readonly text: string | undefined; readonly end: number } {
  const count = u32(d, at)
  if (count === 0xffffffff) return { text: undefined, end: at + 4 }
  const end = at + 4 + count * 2
  if (end > d.length) throw damaged(part, `a string of ${count} characters runs past its record`)
  return { text: Buffer.from(d.buffer, d.byteOffset + at + 4, count * 2).toString("utf16le"), end }
}

/** A RichStr's characters (flags byte, then the string; runs and phonetic text after it are not text). */
const richString = (d: Uint8Array, at: number, part: string): string => wideString(d, at + 1, part).text ?? ""

/** Reads a whole part through the splitter. */
const readRecords = (pkg: OpcPackage, part: string, each: (type: number, data: Uint8Array) => void) =>
  Effect.suspend(() => {
    const splitter = new RecordSplitter(part, each)
    return Effect.zipRight(pkg.readBytes(part, (chunk) => splitter.push(chunk)), Effect.try({ try: () => splitter.end(), catch: (e) => e as ExtractError }))
  })

const states: ReadonlyArray<PartState> = ["visible", "hidden", "veryHidden"]

interface Layout {
  readonly areas: Array<Area>
  readonly links: Array<{ readonly ref: string; readonly relId: string | undefined; readonly location: string | undefined; readonly display: string | undefined }>
  readonly headerFooter: Array<readonly [string, string]>
  ordered: boolean
}

/**
 * Reads a sheet part's records: its cells with text (1-based, file order)
 * to `onCell`, and its layout.
 */
class SheetRecords {
  readonly layout: Layout = { areas: [], links: [], headerFooter: [], ordered: true }
  private row = 0
  private col = -1
  private lastRow = -1
  private lastCol = -1
  private readonly context: CellContext
  private readonly part: string
  private readonly onCell: (cell: Cell) => void

  constructor(context: CellContext, part: string, onCell: (cell: Cell) => void) {
    this.context = context
    this.part = part
    this.onCell = onCell
  }

  private put(col: number, text: string, forms = ""): void {
    if (this.row < this.lastRow || (this.row === this.lastRow && col <= this.lastCol)) this.layout.ordered = false
    this.lastRow = this.row
    this.lastCol = col
    if (text !== "") this.onCell(forms === "" ? { row: this.row + 1, col: col + 1, text } : { row: this.row + 1, col: col + 1, text, forms })
  }

  private format(style: number): NumberFormat | undefined {
    return this.context.formats[style & 0xffffff]
  }

  private number(col: number, style: number, n: number): void {
    if (!Number.isFinite(n)) return this.put(col, "")
    const format = this.format(style)
    const text = numberText(n, format, this.context.date1904)
    // A number or a date: its search-only forms too (S4).
    this.put(col, text, numberForms(n, format, this.context.date1904, text))
  }

  private string(col: number, style: number, value: string): void {
    const format = this.format(style)
    this.put(col, format === undefined || value === "" ? value : formatText(value, format))
  }

  readonly record = (type: number, d: Uint8Array): void => {
    if (type <= brt.fmlaError && type >= brt.cellBlank) {
      // Long forms: the column, then the style; short forms (12–18) are the next column.
      const col = u32(d, 0)
      this.col = col
      const style = u32(d, 4)
      this.cell(type, col, style, d, 8)
      return
    }
    if (type >= brt.shortBlank && type <= brt.shortIsst) {
      const col = ++this.col
      this.cell(type - brt.shortBlank + brt.cellBlank, col, u32(d, 0), d, 4)
      return
    }
    switch (type) {
      case brt.rowHdr:
        this.row = u32(d, 0)
        this.col = -1
        return
      case brt.cellRString: {
        const col = u32(d, 0)
        this.col = col
        this.string(col, u32(d, 4), richString(d, 8, this.part))
        return
      }
      case brt.mergeCell: {
        const [top, bottom, left, right] = [u32(d, 0), u32(d, 4), u32(d, 8), u32(d, 12)]
        this.layout.areas.push({ top: Math.min(top, bottom) + 1, bottom: Math.max(top, bottom) + 1, left: Math.min(left, right) + 1, right: Math.max(left, right) + 1 })
        return
      }
      case brt.hLink: {
        const relId = wideString(d, 16, this.part)
        const location = wideString(d, relId.end, this.part)
        const tooltip = wideString(d, location.end, this.part)
        const display = wideString(d, tooltip.end, this.part)
        this.layout.links.push({ ref: refOf(u32(d, 0), u32(d, 8)), relId: relId.text, location: location.text, display: display.text })
        return
      }
      case brt.beginHeaderFooter: {
        let at = 2
        for (let i = 0; i < 6; i++) {
          const s = wideString(d, at, this.part)
          at = s.end
          const loc = i % 2 === 0 ? "header" : "footer"
          const text = headerFooterText(s.text ?? "")
          if (text !== "" && !this.layout.headerFooter.some(([l, t]) => l === loc && t === text)) this.layout.headerFooter.push([loc, text])
        }
        return
      }
    }
  }

  /** A cell record of the long form's `type`, its value at `at`. */
  private cell(type: number, col: number, style: number, d: Uint8Array, at: number): void {
    switch (type) {
      case brt.cellBlank:
        return
      case brt.cellRk:
        return this.number(col, style, rkNumber(u32(d, at)))
      case brt.cellReal:
      case brt.fmlaNum:
        return this.number(col, style, f64(d, at))
      case brt.cellError:
      case brt.fmlaError:
        return this.put(col, errorTexts[d[at] ?? 0] ?? "#N/A")
      case brt.cellBool:
      case brt.fmlaBool:
        return this.put(col, d[at] ? "TRUE" : "FALSE")
      case brt.cellSt:
      case brt.fmlaString:
        return this.string(col, style, wideString(d, at, this.part).text ?? "")
      case brt.cellIsst:
        return this.string(col, style, this.context.sharedStrings.get(u32(d, at)) ?? "")
    }
  }
}

/** The number format of each cell XF (`BrtXF` between `BrtBeginCellXFs` and `BrtEndCellXFs`), codes from `BrtFmt` or Excel's built-ins. */
const readStyles = (pkg: OpcPackage, part: string) =>
  Effect.gen(function* () {
    const codes = new Map<number, string>()
    const ids: Array<number> = []
    let inCellXfs = false
    yield* readRecords(pkg, part, (type, d) => {
      if (type === brt.fmt) codes.set(u16(d, 0), wideString(d, 2, part).text ?? "")
      else if (type === brt.beginCellXfs) inCellXfs = true
      else if (type === brt.endCellXfs) inCellXfs = false
      else if (type === brt.xf && inCellXfs) ids.push(u16(d, 2))
    })
    const byId = new Map<number, NumberFormat | undefined>()
    return ids.map((id) => {
      if (!byId.has(id)) {
        const code = codes.get(id) ?? builtInFormatCode(id)
        byId.set(id, code === undefined || /^general$/i.test(code) ? undefined : compileFormat(code))
      }
      return byId.get(id)
    })
  })

/** The comments of a sheet (a `comments` relationship to a .bin part): `{ref, text}` in file order. */
const readComments = (pkg: OpcPackage, part: string) =>
  Effect.gen(function* () {
    const comments: Array<{ row: number; col: number; text: string }> = []
    let at: { row: number; col: number } | undefined
    yield* readRecords(pkg, part, (type, d) => {
      if (type === brt.beginComment) at = { row: u32(d, 4), col: u32(d, 12) }
      else if (type === brt.commentText && at !== undefined) comments.push({ ...at, text: richString(d, 0, part) })
    })
    return comments
  })

/**
 * One worksheet into the sink's current part: cells (merged areas once),
 * then comments, links whose text the cell does not show, drawing text,
 * headers and footers.
 */
const worksheetLines = <E>(options: WorksheetLinesOptions<E>): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    const { pkg, sheetPart: part, rels, context, budget, sink, streaming } = options
    // First reading: the layout, and the cells while the sheet is small enough to hold.
    let held: Array<Cell> | undefined = []
    let heldChars = 0
    const first = new SheetRecords(context, part, (cell) => {
      if (held === undefined) return
      held.push(cell)
      heldChars += cell.text.length
      if (!sink.keepsLines && (held.length > streaming.holdLines || heldChars > streaming.holdChars)) held = undefined
    })
    yield* readRecords(pkg, part, first.record)
    const { layout } = first
    const merged = new MergeFilter(layout.areas)
    const linked = new Set(layout.links.map((l) => l.ref))
    const shown = new Map<string, string>()
    const take = (cells: ReadonlyArray<Cell>): Array<BodyLine> => {
      const lines: Array<BodyLine> = []
      for (const cell of cells) {
        if (!merged.keeps(cell.row, cell.col)) continue
        budget.take(part, cell.text.length)
        const line = lineOfCell(cell)
        if (linked.has(line.loc)) shown.set(line.loc, line.text)
        lines.push(line)
      }
      return lines
    }
    const inOrder = (cells: Array<Cell>) => {
      if (layout.ordered) return cells
      cells.sort((a, b) => a.row - b.row || a.col - b.col)
      return cells.filter((c, i) => {
        const next = cells[i + 1]
        return next === undefined || next.row !== c.row || next.col !== c.col
      })
    }
    if (held !== undefined) {
      yield* emitLines(sink, budget, take(inOrder(held)))
    } else if (!layout.ordered) {
      // Out of order and too big to have been held: held whole now and sorted (bounded by maxLines and maxTextChars).
      const all: Array<Cell> = []
      yield* readRecords(pkg, part, new SheetRecords(context, part, (cell) => {
        budget.hold(part, cell.text.length)
        all.push(cell)
      }).record)
      budget.release(all.reduce((n, c) => n + c.text.length, 0))
      yield* emitLines(sink, budget, take(inOrder(all)))
    } else {
      // Second reading: the cells, handed on in batches between chunks of the part.
      let batch: Array<Cell> = []
      const again = new SheetRecords(context, part, (cell) => void batch.push(cell))
      const handOn = (last: boolean) =>
        Effect.suspend(() => {
          if (!last && batch.length < streaming.batchLines) return Effect.void
          const cells = batch
          batch = []
          return emitLines(sink, budget, take(cells))
        })
      const splitter = new RecordSplitter(part, again.record)
      yield* pkg.readBytes(part, (chunk) => splitter.push(chunk), handOn(false))
      yield* Effect.try({ try: () => splitter.end(), catch: (e) => e as ExtractError })
      yield* handOn(true)
    }

    const extras = new ExtraLines(budget, part)
    const internal = rels.filter((r) => !r.external && pkg.has(r.target))
    const comments: Array<{ row: number; col: number; text: string }> = []
    for (const r of internal) if (r.type === "comments") for (const c of yield* readComments(pkg, r.target)) comments.push(c)
    extras.comments(comments)
    for (const link of layout.links) {
      const external = link.relId === undefined ? undefined : rels.find((r) => r.id === link.relId)
      extras.link(link.ref, shown.get(link.ref) ?? "", link.display, external?.external === true ? external.target : link.location)
    }
    for (const r of internal) if (r.type === "drawing") for (const line of yield* drawingLines(pkg, r.target, budget)) extras.lines.push(line)
    for (const [loc, text] of layout.headerFooter) extras.push(loc, text)
    yield* emitLines(sink, budget, extras.lines)
  })

/**
 * Extracts the binary workbook whose main part is `workbookPart` into
 * `sink`: one part per sheet, in tab order (a chart sheet gives its
 * drawing's text, as in an xlsx). Fails with `needs-office` for records it
 * cannot read, `corrupt` for a missing or broken part, `too-large` past the
 * budget, or with the sink's error.
 */
export const extractXlsb = <E>(
  pkg: OpcPackage,
  workbookPart: string,
  budget: LineBudget,
  sink: ExtractionSink<E>,
  streaming: SheetStreaming
): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    const sheets: Array<SheetEntry> = []
    let date1904 = false
    yield* readRecords(pkg, workbookPart, (type, d) => {
      if (type === brt.wbProp) {
        date1904 = (u32(d, 0) & 0x01) !== 0
      } else if (type === brt.bundleSh) {
        const relId = wideString(d, 8, workbookPart)
        const name = wideString(d, relId.end, workbookPart).text ?? ""
        sheets.push({ name: name === "" ? `Sheet${sheets.length + 1}` : name, state: states[u32(d, 0)] ?? "hidden", relationshipId: relId.text ?? "" })
      }
    })
    const relationships = yield* pkg.relationships(workbookPart)
    const internal = relationships.filter((r) => !r.external && pkg.has(r.target))
    const byId = new Map(internal.map((r) => [r.id, r]))
    const stylesPart = internal.find((r) => r.type === "styles")
    const formats = stylesPart === undefined ? [] : yield* readStyles(pkg, stylesPart.target)
    const strings = new SharedStringTable()
    const stringsPart = internal.find((r) => r.type === "sharedStrings")
    if (stringsPart !== undefined) {
      yield* readRecords(pkg, stringsPart.target, (type, d) => {
        if (type !== brt.sstItem) return
        const text = richString(d, 0, stringsPart.target)
        budget.hold("shared strings", text.length + 8)
        strings.push(text)
      })
    }
    strings.pack()
    const context: CellContext = { sharedStrings: strings, formats, date1904 }

    yield* sheetParts(pkg, sheets, byId, budget, sink, (sheetPart, rels) =>
      worksheetLines({ pkg, sheetPart, rels, context, budget, sink, streaming })
    )
  }).pipe(Effect.withSpan("Extract.xlsb"))
