/**
 * The fast path for sheet data (issue 20): a scanner over the text of a
 * worksheet's `<sheetData>` ({@link ElementScanner}, `_scan_xml.ts`),
 * written for the few elements that hold cells (`row`, `c`, `v`, `f`, `is`
 * with its runs and readings), that finds each cell's `r`, `s` and `t` and
 * its value where they stand in the text and hands the cell's text to the
 * same {@link CellCollector} as the saxes reader, with the same rules
 * (`_worksheet.ts`, `_cell_text.ts`, `_rich_string.ts`).
 *
 * What comes before `<sheetData>` and after `</sheetData>` (sheet
 * properties, merged areas, hyperlinks, headers and footers) still goes
 * through saxes to the {@link WorksheetReader}; what the scanner does not
 * read (the module `_scan_xml.ts` lists it; here also an element where
 * none belongs: anything but `row` in `sheetData`, `c` in a row, `v`/`f`/`is`
 * in a cell, an element in `v` or `f`, and a qualified `r`/`s`/`t`
 * attribute) sends the sheet back to saxes from its start, so the output is
 * always the saxes path's. A `sheetData` that is not the worksheet's child
 * in the SpreadsheetML namespace is read on by saxes without a restart.
 *
 * @module
 */
import { cellFormsOf, cellTextOf, type CellContext } from "./_cell_text.ts"
import { decodeXString } from "./_rich_string.ts"
import { digitsValue, ElementScanner, isName, PartScan, type ScanContext, type ScanOutcome } from "./_scan_xml.ts"
import { type CellCollector, formulaText, maxColumn, maxRow, nextCellPosition, nextRowNumber } from "./_worksheet.ts"
import type { XmlStream } from "./_xml.ts"

/** Where an element stands, what is allowed inside it. */
const Level = { SheetData: 0, Row: 1, Cell: 2, Value: 3, Formula: 4, Inline: 5 } as const
type Level = (typeof Level)[keyof typeof Level]

/** What the sheet scanner needs besides the part around `sheetData`. */
export interface SheetScanContext extends ScanContext {
  readonly cells: CellCollector
  readonly context: CellContext
}

/**
 * Scans the inside of one `sheetData`, piece by piece (`write`), adding
 * each cell with text to the collector. Throws a `ScanFallback` for what
 * it does not read (see the module).
 */
export class SheetDataScanner extends ElementScanner {
  private readonly cells: CellCollector
  private readonly context: CellContext
  private readonly qRow: string
  private readonly qC: string
  private readonly qV: string
  private readonly qF: string
  private readonly qIs: string
  // The row and cell being read (the same state as the saxes reader's).
  /** The last cell's place: the current row and the column of its previous cell (0, 0 before any). */
  private atCol = 0
  private atRow = 0
  private cellType = "n"
  private cellStyle = 0
  private value = ""
  private formula = ""
  private inline = ""
  private hasValue = false

  constructor(scan: SheetScanContext) {
    super(scan, "sheetData")
    this.cells = scan.cells
    this.context = scan.context
    this.qRow = this.qualify("row")
    this.qC = this.qualify("c")
    this.qV = this.qualify("v")
    this.qF = this.qualify("f")
    this.qIs = this.qualify("is")
  }

  protected collects(level: number): boolean {
    return level === Level.Value || level === Level.Formula || (level === Level.Inline && this.textDepth > 0)
  }

  protected route(text: string): void {
    const level = this.top()
    if (level === Level.Inline) this.inline += text
    else if (level === Level.Value) this.value += text
    else this.formula += text
  }

  /** The number of the row a `<row>` start tag opens ({@link nextRowNumber} on its `r`). */
  private rowNumber(buf: string): number {
    if (this.attrRFrom >= 0) {
      // Plain digits read in place; anything else (0, a sign, an exponent, spaces) as nextRowNumber reads it.
      const digits = digitsValue(buf, this.attrRFrom, this.attrRTo)
      return digits > 0 ? digits : nextRowNumber(buf.slice(this.attrRFrom, this.attrRTo), this.atRow)
    }
    return nextRowNumber(this.attrRText, this.atRow)
  }

  /** Places the cell a `<c>` start tag opens ({@link nextCellPosition} on its `r`) in {@link atCol} and {@link atRow}. */
  private placeCell(buf: string): void {
    if (this.attrRFrom >= 0) {
      // parseCellReference, read where the value stands: up to four letters, then digits, both in Excel's range.
      const to = this.attrRTo
      let i = this.attrRFrom
      let col = 0
      for (; i < to && i < this.attrRFrom + 4; i++) {
        const c = buf.charCodeAt(i) | 0x20
        if (c < 0x61 || c > 0x7a) break
        col = col * 26 + (c - 0x60)
      }
      if (col > 0 && col <= maxColumn && i < to) {
        let row = 0
        for (; i < to; i++) {
          const d = buf.charCodeAt(i) - 0x30
          if (d < 0 || d > 9) break
          row = row * 10 + d
        }
        if (i === to && row > 0 && row <= maxRow) {
          this.atCol = col
          this.atRow = row
          return
        }
      }
    } else if (this.attrRText !== undefined) {
      const at = nextCellPosition(this.attrRText, { col: this.atCol, row: this.atRow })
      this.atCol = at.col
      this.atRow = at.row
      return
    }
    this.atCol++
    if (this.atRow === 0) this.atRow = 1
  }

  /** An element opened, its name at `buf[from, to)` (and closed again when `selfClosing`). */
  protected element(buf: string, from: number, to: number, selfClosing: boolean): void {
    const level = this.top()
    let inner: Level
    let name: string
    switch (level) {
      case Level.SheetData:
        if (!isName(buf, from, to, this.qRow)) return this.unexpected(buf.slice(from, to), "sheetData")
        name = this.qRow
        this.atRow = this.rowNumber(buf)
        this.atCol = 0
        inner = Level.Row
        break
      case Level.Row: {
        if (!isName(buf, from, to, this.qC)) return this.unexpected(buf.slice(from, to), "a row")
        name = this.qC
        this.placeCell(buf)
        this.cellType = this.attrT ?? "n"
        this.cellStyle = this.attrStyle
        this.value = ""
        this.formula = ""
        this.inline = ""
        this.hasValue = false
        inner = Level.Cell
        break
      }
      case Level.Cell:
        if (isName(buf, from, to, this.qV)) {
          name = this.qV
          this.hasValue = true
          inner = Level.Value
        } else if (isName(buf, from, to, this.qF)) {
          name = this.qF
          inner = Level.Formula
        } else if (isName(buf, from, to, this.qIs)) {
          name = this.qIs
          this.hasValue = true
          this.startRich()
          inner = Level.Inline
        } else {
          return this.unexpected(buf.slice(from, to), "a cell")
        }
        break
      case Level.Inline:
        // Runs, run properties, readings: read like the saxes path's rich-string reader.
        name = buf.slice(from, to)
        if (!this.ownPrefix(name)) return this.unexpected(name, "an inline string")
        this.richOpen(name)
        inner = Level.Inline
        break
      default:
        return this.unexpected(buf.slice(from, to), "a value or formula")
    }
    this.enter(name, inner, selfClosing)
  }

  protected closeElement(name: string, level: number): void {
    if (level === Level.Cell) {
      const text = this.hasValue
        ? cellTextOf(this.cellType, this.cellStyle, this.value, decodeXString(this.inline), this.context)
        : formulaText(this.formula)
      if (text !== "") {
        this.cells.add(this.atRow, this.atCol, text, this.hasValue ? cellFormsOf(this.cellType, this.cellStyle, this.value, text, this.context) : "")
      }
    } else if (level === Level.Inline && this.top() === Level.Inline) {
      // An element inside the inline string closes (the string itself closes with the cell's Inline → Cell step).
      this.richClose(name)
    }
  }
}

/** How the fast path read a sheet: `fast`, or `saxes` (read on by saxes without a restart, reason given), or `fallback` (restart). */
export type SheetScanOutcome = ScanOutcome

/**
 * Reads the worksheet part `write`'s text comes from (see
 * `OpcPackage.readText`): the text around `sheetData` goes to `stream` (the
 * saxes stream of the worksheet reader), the text inside to a
 * {@link SheetDataScanner} adding to `cells`. Call `write` with each piece,
 * then `finish`; `outcome` says how it went. A fallback leaves the cells
 * added so far in the collector: the caller drops them and reads the sheet
 * again with saxes.
 */
export class WorksheetScan extends PartScan {
  constructor(stream: XmlStream, cells: CellCollector, context: CellContext, maxDepth: number) {
    super(stream, "sheetData", 2, (scan) => new SheetDataScanner({ ...scan, cells, context }), maxDepth)
  }
}
