/**
 * The text cells of one worksheet, streamed from its XML: only cells with a
 * value are kept (styled empty cells, however many, cost nothing: BUG-10), in
 * row-major order, a merged area once at its top-left cell.
 *
 * @module
 */
import type { BodyLine } from "@sagasu/domain"
import { cellFormsOf, cellTextOf, type CellContext } from "./_cell_text.ts"
import type { LineBudget } from "./_limits.ts"
import { decodeXString, RichStringReader } from "./_rich_string.ts"
import { attribute, ns, type XmlTag, type XmlVisitor } from "./_xml.ts"

/** A merged area, 1-based and inclusive. */
export interface Area {
  readonly top: number
  readonly left: number
  readonly bottom: number
  readonly right: number
}

/** `"AB12"` → column 28, row 12; `undefined` parts when the reference lacks them. */
export function parseReference(ref: string): { col: number | undefined; row: number | undefined } {
  let col = 0
  let i = 0
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 0x20 // ASCII lower case
    if (c < 0x61 || c > 0x7a) break
    col = col * 26 + (c - 0x60)
  }
  const row = Number(ref.slice(i))
  return { col: col > 0 ? col : undefined, row: i < ref.length && Number.isInteger(row) && row > 0 ? row : undefined }
}

/**
 * The cell a cell element's `r` names, `{col, row}` 1-based, only when `r`
 * is a whole A1 reference: letters then digits, both in Excel's range.
 * Anything else (a bare number, written by some writers as a 0-based column
 * index; a row alone; junk) is `undefined`, and the cell takes the next
 * position in its row (issue 15, item 7).
 */
export function parseCellReference(ref: string): { col: number; row: number } | undefined {
  let col = 0
  let i = 0
  for (; i < ref.length && i < 4; i++) {
    const c = ref.charCodeAt(i) | 0x20
    if (c < 0x61 || c > 0x7a) break
    col = col * 26 + (c - 0x60)
  }
  if (col === 0 || col > maxColumn || i === ref.length) return undefined
  let row = 0
  for (; i < ref.length; i++) {
    const d = ref.charCodeAt(i) - 0x30
    if (d < 0 || d > 9) return undefined
    row = row * 10 + d
  }
  return row > 0 && row <= maxRow ? { col, row } : undefined
}

/**
 * The number of a `<row>` element's row, given its `r` attribute as written
 * (`undefined` when it has none) and the previous row's number (0 before the
 * first). A positive whole number (as `Number` reads it) is the row's number;
 * anything else (no `r`, 0, junk) follows the previous row (trait
 * `ns-prefixed-xml`). Both sheet readers, saxes and the fast scanner, number
 * rows with it.
 */
export function nextRowNumber(r: string | undefined, previous: number): number {
  const n = Number(r)
  return Number.isInteger(n) && n > 0 ? n : previous + 1
}

/** A cell's place in its sheet: 1-based column and row numbers (A1 is `{col: 1, row: 1}`). */
export interface CellPosition {
  readonly col: number
  readonly row: number
}

/**
 * Where a `<c>` element's cell is, given its `r` attribute as written
 * (`undefined` when it has none) and the position the reading stands at:
 * `col` is the previous cell's column in the current row (0 before its first
 * cell) and `row` is the current row's number (0 before any row). Returns a
 * 1-based {@link CellPosition}. A whole A1 reference ({@link parseCellReference})
 * is the cell's place, whatever came before; anything else (no `r`, a bare
 * number written as a 0-based column index, a row alone, junk) takes the next
 * column of the current row, row 1 when no row has begun (trait
 * `ns-prefixed-xml`; issue 15, item 7). Both sheet readers, saxes and the fast
 * scanner, place cells with it.
 */
export function nextCellPosition(r: string | undefined, at: CellPosition): CellPosition {
  return parseCellReference(r ?? "") ?? { col: at.col + 1, row: at.row === 0 ? 1 : at.row }
}

/** Excel's last column (XFD) and row. */
export const maxColumn = 16_384
export const maxRow = 1_048_576

/** Column 28 → `"AB"`. */
/** The A1 address of a 0-based `row` and `col` (the binary and legacy records' numbering). */
export const refOf = (row: number, col: number): string => `${columnName(col + 1)}${row + 1}`

export function columnName(col: number): string {
  let name = ""
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(0x41 + ((n - 1) % 26)) + name
  return name
}

function parseArea(ref: string): Area | undefined {
  const [from = "", to = from] = ref.split(":")
  const a = parseReference(from.replace(/\$/g, ""))
  const b = parseReference(to.replace(/\$/g, ""))
  if (a.col === undefined || a.row === undefined || b.col === undefined || b.row === undefined) return undefined
  return {
    top: Math.min(a.row, b.row),
    left: Math.min(a.col, b.col),
    bottom: Math.max(a.row, b.row),
    right: Math.max(a.col, b.col)
  }
}

/**
 * Keeps a merged area's top-left cell and drops the other cells inside it,
 * for cells given in row-major order, one at a time: a sheet's cells can be
 * filtered while they stream (W1) as well as all at once.
 */
export class MergeFilter {
  private readonly byTop: ReadonlyArray<Area>
  private next = 0
  private active: Array<Area> = []
  private activeRow = 0

  constructor(areas: ReadonlyArray<Area>) {
    this.byTop = [...areas].sort((a, b) => a.top - b.top)
  }

  /** True when the cell at `row`, `col` is not hidden by a merged area; cells must come in row-major order. */
  keeps(row: number, col: number): boolean {
    // Sweep down the rows keeping the areas that span the current row: each cell is checked against those only.
    if (row !== this.activeRow) {
      this.activeRow = row
      this.active = this.active.filter((a) => a.bottom >= row)
      for (; this.next < this.byTop.length && (this.byTop[this.next]?.top ?? Infinity) <= row; this.next++) {
        const area = this.byTop[this.next]
        if (area !== undefined && area.bottom >= row) this.active.push(area)
      }
    }
    if (this.active.length === 0) return true
    return !this.active.some((a) => col >= a.left && col <= a.right && !(row === a.top && col === a.left))
  }
}

/** True when an area hides some cell (it spans more than one). */
export const hidesCells = (a: Area): boolean => a.bottom > a.top || a.right > a.left

/** The names of the first columns, made once: a sheet asks for the same few thousand again and again. */
const columnNames: Array<string> = []

/** {@link columnName}, remembered for the first 16,384 columns (all of Excel's). */
export function cachedColumnName(col: number): string {
  let name = columnNames[col]
  if (name === undefined) {
    name = columnName(col)
    if (col <= 16_384) columnNames[col] = name
  }
  return name
}

/** The address of a cell: `"A1"`. */
export const cellAddress = (row: number, col: number): string => cachedColumnName(col) + row

/** A cell with text, 1-based, as the legacy readers (`_xls.ts`, `_xlsb.ts`) hand them on; `forms`: its search-only forms (S4), when it has some. */
export interface Cell {
  readonly row: number
  readonly col: number
  readonly text: string
  readonly forms?: string
}

/** The body line of a cell: `{loc: "A1", text}` (and its `forms` when it has some). */
export const lineOfCell = (c: Cell): BodyLine =>
  c.forms === undefined || c.forms === "" ? { loc: cellAddress(c.row, c.col), text: c.text } : { loc: cellAddress(c.row, c.col), text: c.text, forms: c.forms }

/**
 * Cells with text in file order, as three parallel arrays (no object per
 * cell: a sheet streams millions of them, issue 20).
 */
export interface CellBatch {
  readonly rows: ReadonlyArray<number>
  readonly cols: ReadonlyArray<number>
  readonly texts: ReadonlyArray<string>
  /** Each cell's search-only forms (S4), `""` for most. */
  readonly forms: ReadonlyArray<string>
  /** The characters of all the texts. */
  readonly chars: number
}

/** The body line of each cell of `batch` that `keep` keeps (all by default): `{loc: "A1", text}`. */
export function linesOfBatch(batch: CellBatch, keep?: (i: number) => boolean): Array<BodyLine> {
  const lines: Array<BodyLine> = []
  for (let i = 0; i < batch.texts.length; i++) {
    if (keep !== undefined && !keep(i)) continue
    const forms = batch.forms[i] ?? ""
    const loc = cellAddress(batch.rows[i] ?? 0, batch.cols[i] ?? 0)
    lines.push(forms === "" ? { loc, text: batch.texts[i] ?? "" } : { loc, text: batch.texts[i] ?? "", forms })
  }
  return lines
}

/**
 * Collects the cells with text of one sheet, from the saxes reader or the
 * fast scanner (`_sheet_scan.ts`) alike: counts each against the budget,
 * notes whether they come in row-major order, and holds them until taken.
 */
export class CellCollector {
  private rows: Array<number> = []
  private cols: Array<number> = []
  private texts: Array<string> = []
  private forms: Array<string> = []
  private chars = 0
  private collecting = true
  private inOrder = true
  private lastRow = 0
  private lastCol = 0
  private readonly budget: LineBudget
  private readonly partName: string

  constructor(budget: LineBudget, partName: string) {
    this.budget = budget
    this.partName = partName
  }

  /** A cell with text (`text` not empty) at `row`, `col` (1-based), with its search-only `forms` (S4; `""`: none). */
  add(row: number, col: number, text: string, forms = ""): void {
    if (row < this.lastRow || (row === this.lastRow && col <= this.lastCol)) this.inOrder = false
    this.lastRow = row
    this.lastCol = col
    this.budget.take(this.partName, text.length)
    if (this.collecting) {
      this.rows.push(row)
      this.cols.push(col)
      this.texts.push(text)
      this.forms.push(forms)
      this.chars += text.length
    }
  }

  /** True while every cell came after the previous one in row-major order (no two at one address). */
  get ordered(): boolean {
    return this.inOrder
  }

  /** Cells held. */
  get held(): number {
    return this.texts.length
  }

  /** Characters of the cells held. */
  get heldChars(): number {
    return this.chars
  }

  /** Takes the cells held, in file order; collecting goes on from empty. */
  take(): CellBatch {
    const batch: CellBatch = { rows: this.rows, cols: this.cols, texts: this.texts, forms: this.forms, chars: this.chars }
    this.rows = []
    this.cols = []
    this.texts = []
    this.forms = []
    this.chars = 0
    return batch
  }

  /** Stops holding cells (the rest of the part is read for its areas, links and order only). */
  stopCollecting(): void {
    this.collecting = false
  }
}

/** The cells of `batch` in row-major order (a stable sort of their indexes when they came out of order). */
function sortedBatch(batch: CellBatch): CellBatch {
  const order = batch.texts.map((_, i) => i)
  order.sort((a, b) => (batch.rows[a] ?? 0) - (batch.rows[b] ?? 0) || (batch.cols[a] ?? 0) - (batch.cols[b] ?? 0))
  return {
    rows: order.map((i) => batch.rows[i] ?? 0),
    cols: order.map((i) => batch.cols[i] ?? 0),
    texts: order.map((i) => batch.texts[i] ?? ""),
    forms: order.map((i) => batch.forms[i] ?? ""),
    chars: batch.chars
  }
}

/**
 * Reads one worksheet (or macro sheet: same schema) part. Rows and cells
 * without an `r` attribute follow the previous one (trait `ns-prefixed-xml`
 * files such as 59746_NoRowNums.xlsx omit them), and so does a cell whose `r`
 * is not an A1 reference (`<c r="0">`: a bare 0-based column index, issue 15
 * item 7): `<row r="2"><c r="0"/><c r="1"/>` is A2, B2. A formula cell
 * without a cached value (no `<v>`) shows its formula, `=SUM(A1:A3)`, so that
 * it can be found at all (issue 15 item 9).
 *
 * The cells with text are collected in {@link cells} in file order; a reader
 * that streams a sheet takes them out as they come ({@link takeCells}) while
 * {@link ordered} holds, and {@link areas} and {@link hyperlinks} are known
 * only once the part has been read (they follow the cells in the file).
 */
export class WorksheetReader implements XmlVisitor {
  /** Hyperlinks as the sheet declares them: the cell, the relationship of an external target, an in-book location, a display text. */
  readonly hyperlinks: Array<{ readonly ref: string; readonly id: string | undefined; readonly location: string | undefined; readonly display: string | undefined }> = []
  /** Header and footer texts, codes removed: `[locator, text]`. */
  readonly headerFooter: Array<readonly [string, string]> = []
  /** The merged areas as the sheet declares them (after its cells). */
  readonly areas: Array<Area> = []
  /** The cells with text, held until taken; the fast scanner adds to the same collector. */
  readonly cells: CellCollector
  private headerFooterElement: string | undefined
  private headerFooterText = ""
  /** The last cell's place: the current row and the column of its previous cell (0, 0 before any). */
  private at: CellPosition = { col: 0, row: 0 }
  private cell: { type: string; style: number; row: number; col: number } | undefined
  private value = ""
  private inValue = false
  private hasValue = false
  private formula = ""
  private inFormula = false
  private inInline = false
  private readonly inline = new RichStringReader()

  private readonly context: CellContext

  constructor(context: CellContext, budget: LineBudget, partName: string) {
    this.context = context
    this.cells = new CellCollector(budget, partName)
  }

  open(tag: XmlTag): void {
    if (this.inInline) return this.inline.open(tag)
    if (!ns.spreadsheet.has(tag.uri)) return
    switch (tag.local) {
      case "row": {
        this.at = { col: 0, row: nextRowNumber(attribute(tag, "r"), this.at.row) }
        return
      }
      case "c": {
        this.at = nextCellPosition(attribute(tag, "r"), this.at)
        this.hasValue = false
        this.formula = ""
        this.cell = {
          type: attribute(tag, "t") ?? "n",
          style: Number(attribute(tag, "s") ?? 0) || 0,
          row: this.at.row,
          col: this.at.col
        }
        this.value = ""
        return
      }
      case "v":
        this.inValue = this.cell !== undefined
        this.hasValue ||= this.inValue
        return
      case "f":
        this.inFormula = this.cell !== undefined
        return
      case "is":
        this.inInline = this.cell !== undefined
        this.hasValue ||= this.inInline
        return
      case "mergeCell": {
        const area = parseArea(attribute(tag, "ref") ?? "")
        if (area !== undefined) this.areas.push(area)
        return
      }
      case "hyperlink":
        this.hyperlinks.push({
          ref: (attribute(tag, "ref") ?? "").split(":")[0] ?? "",
          id: attribute(tag, "id", ns.relationshipRef),
          location: attribute(tag, "location"),
          display: attribute(tag, "display")
        })
        return
      case "oddHeader":
      case "evenHeader":
      case "firstHeader":
      case "oddFooter":
      case "evenFooter":
      case "firstFooter":
        this.headerFooterElement = tag.local
        this.headerFooterText = ""
        return
    }
  }

  close(tag: XmlTag): void {
    const mine = ns.spreadsheet.has(tag.uri)
    if (this.inInline) {
      if (mine && tag.local === "is") this.inInline = false
      else this.inline.close(tag)
      return
    }
    if (!mine) return
    if (tag.local === this.headerFooterElement) {
      const text = headerFooterText(this.headerFooterText)
      const loc = tag.local.endsWith("Header") ? "header" : "footer"
      if (text !== "" && !this.headerFooter.some(([l, t]) => l === loc && t === text)) this.headerFooter.push([loc, text])
      this.headerFooterElement = undefined
    } else if (tag.local === "v") {
      this.inValue = false
    } else if (tag.local === "f") {
      this.inFormula = false
    } else if (tag.local === "c" && this.cell !== undefined) {
      const { type, style, row, col } = this.cell
      const text = this.hasValue ? cellTextOf(type, style, this.value, this.inline.take(), this.context) : formulaText(this.formula)
      if (text !== "") this.cells.add(row, col, text, this.hasValue ? cellFormsOf(type, style, this.value, text, this.context) : "")
      this.cell = undefined
    }
  }

  text(text: string): void {
    if (this.inInline) this.inline.text(text)
    else if (this.inValue) this.value += text
    else if (this.inFormula) this.formula += text
    else if (this.headerFooterElement !== undefined) this.headerFooterText += text
  }

  /** True while every cell with text came after the previous one in row-major order (no two at one address). */
  get ordered(): boolean {
    return this.cells.ordered
  }

  /** Cells with text collected and not yet taken. */
  get heldCells(): number {
    return this.cells.held
  }

  /** Characters of the cells collected and not yet taken. */
  get heldChars(): number {
    return this.cells.heldChars
  }

  /** Takes the cells collected so far, in file order; the reader keeps collecting from empty. */
  takeCells(): CellBatch {
    return this.cells.take()
  }

  /** Stops collecting cells (the rest of the part is read for its areas, links and order only). */
  stopCollecting(): void {
    this.cells.stopCollecting()
  }

  /**
   * Takes the sheet's cells not taken yet (all of them unless the sheet
   * streamed), row-major: the batch, and which of its cells to keep (the
   * merged areas' hidden cells not).
   */
  remaining(): { readonly batch: CellBatch; readonly keep: ((i: number) => boolean) | undefined } {
    const taken = this.cells.take()
    const batch = this.ordered ? taken : sortedBatch(taken)
    if (this.areas.length === 0) return { batch, keep: undefined }
    // Decided once, in order (the filter sweeps down the rows): `keep` may then be asked any number of times.
    const filter = new MergeFilter(this.areas)
    const kept = batch.texts.map((_, i) => filter.keeps(batch.rows[i] ?? 0, batch.cols[i] ?? 0))
    return { batch, keep: (i) => kept[i] === true }
  }

  /** The sheet's lines, `{loc: "A1", text}`, row-major, merged areas once: the cells not taken, which is all of them unless the sheet streamed. */
  lines(): ReadonlyArray<BodyLine> {
    const { batch, keep } = this.remaining()
    return linesOfBatch(batch, keep)
  }
}

/** What a formula cell without a cached value shows: its formula as the formula bar does (`=SUM(A1:A3)`), `""` for none (a shared formula's followers). */
export function formulaText(formula: string): string {
  const f = formula.trim()
  // Functions newer than the file format carry a prefix the formula bar does not show (`_xlfn.XLOOKUP`).
  return f === "" ? "" : `=${decodeXString(f).replace(/_xl(?:fn|ws)\./g, "")}`
}

/**
 * The text of a header or footer: the `&L`/`&C`/`&R` sections joined with a
 * space, formatting codes (`&"MS Gothic,Bold"`, `&12`, `&K00FF00`, `&B`)
 * and fields (`&P` page, `&N` pages, `&D` date, `&F` file, `&A` sheet,
 * `&G` picture) removed, `&&` a literal ampersand.
 */
export function headerFooterText(code: string): string {
  return code
    .replace(/&&/g, "\u0000")
    .replace(/&"[^"]*"/g, "")
    .replace(/&K(?:[0-9A-Fa-f]{6}|\d\d[+-]\d{3})/g, "")
    .replace(/&\d+/g, "")
    .replace(/&[LCR]/g, " ")
    .replace(/&[A-Za-z]/g, " ")
    .replace(/\u0000/g, "&")
    .replace(/\s+/g, " ")
    .trim()
}

/**
 * The lines a binary or legacy sheet (xlsb, xls) gives after its cells, in
 * an xlsx's order as the caller adds them: notes at their cells, links the
 * cell does not show, shapes and drawings, headers and footers. Each text
 * is trimmed and an empty one dropped; what is kept counts against `part`
 * in `budget`.
 */
export class ExtraLines {
  readonly lines: Array<BodyLine> = []
  private readonly budget: LineBudget
  private readonly part: string

  constructor(budget: LineBudget, part: string) {
    this.budget = budget
    this.part = part
  }

  /** `raw` at `loc`, trimmed; nothing when it is empty. */
  push(loc: string, raw: string): void {
    const text = raw.trim()
    if (text === "") return
    this.budget.take(this.part, text.length)
    this.lines.push({ loc, text })
  }

  /** Notes at `<cell> comment`, in cell order (0-based `row` and `col`). */
  comments(notes: ReadonlyArray<{ readonly row: number; readonly col: number; readonly text: string }>): void {
    for (const c of [...notes].sort((a, b) => a.row - b.row || a.col - b.col)) this.push(`${refOf(c.row, c.col)} comment`, c.text)
  }

  /** A link at cell `at` whose cell shows `shown`: its display text and its target at `<at> link`, each unless the cell shows it already. */
  link(at: string, shown: string, display: string | undefined, target: string | undefined): void {
    for (const text of [display, target]) {
      if (text !== undefined && text.trim() !== "" && !shown.includes(text.trim())) this.push(`${at} link`, text)
    }
  }
}
