/**
 * The context of a hit (SPEC S5, issue 16): "a cell with its row's and
 * column's headings, a paragraph with its neighbours, a slide with its
 * title", picked from the lines of the hit's part as the body index holds
 * them.
 *
 * **Where it comes from (decided).** The context is read from the body
 * index at search time, only for the hits on the page shown (the store's
 * `hitContexts`: one TSV read per part per page). Nothing is added at
 * extraction time: the body-index format, the gram index and every existing
 * search stay as they are, a file ingested by an older version gets a
 * context too, and a better heading rule needs no re-ingest. The price is
 * reading the hit parts' TSVs once per page (docs/benchmarks.md "Context").
 *
 * The rules, for a part's lines in TSV order:
 * - **cell** (`B3`; also `B3 comment`, `B3 link`, `D5 shape`, which stand at
 *   that cell): only plain cells (`B3`) are candidates.
 *   - *row heading*: the nearest cell to the left in the same row whose text
 *     is not empty and does not look like a number, an amount or a date
 *     (`123`, `¥1,000`, `12.5%`, `2024/4/1`, `2009年9月4日`);
 *   - *column heading*: the table's header row, found in the hit's column:
 *     going up from the hit, the rows of its table are the rows up to the
 *     first row with no cell at all (a blank row ends a table; an empty cell
 *     of a row that has others — a gap, a merged area's hidden cell — does
 *     not); the heading is the topmost non-empty cell of the hit's column in
 *     them. A title row above the header (a row with one cell only, with
 *     another cell of the column below it) is passed over. When the column
 *     has no cell there (its heading is merged from the left), the nearest
 *     cell to the left in the table's top row is taken. No heading when the
 *     hit is itself the top of its column;
 *   - *neighbours*: the non-empty cells right before, after, above and below.
 * - **paragraph** (`12`, `header`, `footnote:1`, …): the previous and the
 *   next non-empty lines of the same story (body paragraphs by number, or
 *   the same companion: header, footer, footnotes, comments, charts). The
 *   extractor marks no headings (Word styles are not kept in the body
 *   index), so `heading` is never set today.
 * - **slide** (`3`, `3 notes`): the slide's title as the extractor marks it
 *   (the properties part's `slide 3` line: the title placeholders' text),
 *   else the slide's first non-empty line; none when the hit is that line.
 *
 * @module
 */
import type { BodyLine } from "./extraction.ts"
import { unescapeTsvField } from "./tsv.ts"

/** One line of the context: where it stands in the part (`C3`, `11`, `slide 3`) and its text. */
export interface ContextLine {
  readonly loc: string
  readonly text: string
}

/** The context of a cell hit: its headings and its neighbours (each absent when there is none). */
export interface CellContext {
  readonly kind: "cell"
  /** The heading of its column: its table's header cell above it. */
  readonly column?: ContextLine
  /** The heading of its row: the nearest text cell to its left. */
  readonly row?: ContextLine
  readonly left?: ContextLine
  readonly right?: ContextLine
  readonly above?: ContextLine
  readonly below?: ContextLine
}

/** The context of a paragraph hit: the paragraphs around it and its heading (never set today: the body index marks none). */
export interface ParagraphContext {
  readonly kind: "paragraph"
  readonly heading?: ContextLine
  readonly previous?: ContextLine
  readonly next?: ContextLine
}

/** The context of a slide line: its slide's title. */
export interface SlideContext {
  readonly kind: "slide"
  readonly title?: ContextLine
}

/** The context of one hit (module doc); `undefined` from the functions when the hit has none to give (a name, a property, a sheet's header). */
export type HitContext = CellContext | ParagraphContext | SlideContext

/** The locator kinds that have a context. */
export type ContextLocator = "cell" | "paragraph" | "slide"

const cellAddress = /^([A-Z]{1,3})([1-9]\d{0,6})(?: .*)?$/

/** Column letters to a 1-based number: `A` 1, `Z` 26, `AA` 27. */
function columnNumber(letters: string): number {
  let n = 0
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64)
  return n
}

/** `[row, column]` of a cell location (`B3`, `B3 comment`), 1-based, or `undefined`. */
export function cellPositionOf(loc: string): readonly [row: number, col: number] | undefined {
  const m = cellAddress.exec(loc)
  if (m === null) return undefined
  return [Number(m[2]), columnNumber(m[1] as string)]
}

// Digits with the signs, separators, currency, percent and date/time marks of numbers and dates as Excel shows them.
const numberish = /^[\s+\-−－±()（）[\]¥￥$€£,，.．%％‰:：/／0-9０-９年月日時分秒eE△▲]*$/
const hasDigit = /[0-9０-９]/

/** Whether a cell's text looks like a number, an amount, a percentage or a date (`123`, `¥1,000`, `△5`, `2009年9月4日`): never a row heading. */
export function looksNumeric(text: string): boolean {
  return hasDigit.test(text) && numberish.test(text)
}

const nonEmpty = (text: string) => text.trim() !== ""

/** The context picker of one part: built once, asked for each hit of the part on a page. */
export type PartContext = (hit: { readonly loc: string; readonly text?: string }) => HitContext | undefined

/**
 * The context picker of one part of `locator` kind holding `lines` (its
 * TSV's lines in order). `titles` are the file's properties lines (`slide 3`
 * → title) for a slide part. A hit is found by its `loc` (and its `text`,
 * when several lines share a loc); one that is not there gets the context
 * its position gives (a cell) or none.
 */
export function partContext(locator: ContextLocator, lines: ReadonlyArray<BodyLine>, titles: ReadonlyArray<BodyLine> = []): PartContext {
  switch (locator) {
    case "cell":
      return cellContextOf(lines)
    case "paragraph":
      return paragraphContextOf(lines)
    case "slide":
      return slideContextOf(lines, titles)
  }
}

/** The context of one hit at `loc` in a part: {@link partContext} for a single question. */
export function contextOfHit(
  locator: ContextLocator,
  lines: ReadonlyArray<BodyLine>,
  hit: { readonly loc: string; readonly text?: string },
  titles: ReadonlyArray<BodyLine> = []
): HitContext | undefined {
  return partContext(locator, lines, titles)(hit)
}

/**
 * `row * 2^14 + col` of a plain cell address (`B3`), or -1: by hand, as a
 * sheet's every cell is looked at once per page (columns up to XFD = 16384).
 */
function plainCellKey(loc: string): number {
  let col = 0
  let i = 0
  for (; i < loc.length && i < 3; i++) {
    const ch = loc.charCodeAt(i)
    if (ch < 65 || ch > 90) break
    col = col * 26 + (ch - 64)
  }
  if (i === 0 || i === loc.length || loc.charCodeAt(i) === 48) return -1
  let row = 0
  for (let j = i; j < loc.length; j++) {
    const ch = loc.charCodeAt(j) - 48
    if (ch < 0 || ch > 9 || j - i >= 7) return -1
    row = row * 10 + ch
  }
  return col > 16384 ? -1 : row * 16384 + col
}

/** The plain non-empty cells of a sheet as parallel arrays (built in one pass, no object per cell). */
interface CellTable {
  readonly count: number
  readonly rowOf: Int32Array
  readonly colOf: Int32Array
  /** Cells per row that has some. */
  readonly rowCells: ReadonlyMap<number, number>
  readonly lineOf: (i: number) => ContextLine
}

/** Grows the arrays of a table being built. */
class CellTableBuilder {
  count = 0
  rowOf = new Int32Array(256)
  colOf = new Int32Array(256)
  readonly rowCells = new Map<number, number>()
  add(key: number): void {
    if (this.count === this.rowOf.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2)
        b.set(a)
        return b
      }
      this.rowOf = grow(this.rowOf)
      this.colOf = grow(this.colOf)
    }
    const r = Math.floor(key / 16384)
    this.rowOf[this.count] = r
    this.colOf[this.count] = key % 16384
    this.count++
    this.rowCells.set(r, (this.rowCells.get(r) ?? 0) + 1)
  }
}

function cellContextOf(lines: ReadonlyArray<BodyLine>): PartContext {
  const table = new CellTableBuilder()
  const at: Array<number> = []
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k] as BodyLine
    const key = plainCellKey(l.loc)
    if (key < 0 || !nonEmpty(l.text)) continue
    table.add(key)
    at.push(k)
  }
  return cellPicker({
    count: table.count,
    rowCells: table.rowCells,
    rowOf: table.rowOf,
    colOf: table.colOf,
    lineOf: (i) => {
      const l = lines[at[i] as number] as BodyLine
      return { loc: l.loc, text: l.text }
    }
  })
}

/**
 * The context picker of a sheet given as its body-index TSV text (body_tsv.ts
 * format): the same answers as {@link partContext} on its parsed lines, but
 * only the locations are read for every row; a cell's text is unescaped only
 * when it is a candidate (a sheet of 10,000 cells costs about a fifth of
 * parsing it).
 */
export function cellContextOfTsv(tsv: string): PartContext {
  const table = new CellTableBuilder()
  let tabs = new Int32Array(256)
  let ends = new Int32Array(256)
  const first = tsv.indexOf("\n")
  let p = first < 0 ? tsv.length : first + 1
  while (p < tsv.length) {
    let e = tsv.indexOf("\n", p)
    if (e < 0) e = tsv.length
    const tab = tsv.indexOf("\t", p)
    if (tab > p && tab < e - 1 && tsv.charCodeAt(tab + 1) !== 9) {
      const key = plainCellKey(tsv.slice(p, tab))
      const c0 = tsv.charCodeAt(tab + 1)
      // Text starting with a blank may be blank throughout: looked at whole (rare).
      const blank = (c0 <= 32 || c0 === 0x3000) && !nonEmpty(fieldAt(tsv, tab, e))
      if (key >= 0 && !blank) {
        if (table.count === tabs.length) {
          const grow = (a: Int32Array) => {
            const b = new Int32Array(a.length * 2)
            b.set(a)
            return b
          }
          tabs = grow(tabs)
          ends = grow(ends)
        }
        tabs[table.count] = tab
        ends[table.count] = e
        table.add(key)
      }
    }
    p = e + 1
  }
  const starts = (i: number) => tsv.lastIndexOf("\n", (tabs[i] as number) - 1) + 1
  return cellPicker({
    count: table.count,
    rowOf: table.rowOf,
    colOf: table.colOf,
    rowCells: table.rowCells,
    lineOf: (i) => ({ loc: tsv.slice(starts(i), tabs[i] as number), text: fieldAt(tsv, tabs[i] as number, ends[i] as number) })
  })
}

/** The text field of a TSV row whose first tab is at `tab` and which ends at `end`, unescaped. */
function fieldAt(tsv: string, tab: number, end: number): string {
  const next = tsv.indexOf("\t", tab + 1)
  return unescapeTsvField(tsv.slice(tab + 1, next < 0 || next > end ? end : next))
}

function cellPicker(table: CellTable): PartContext {
  const { count, rowOf, colOf, rowCells, lineOf } = table
  return (hit) => {
    const pos = cellPositionOf(hit.loc)
    if (pos === undefined) return undefined
    const [r, c] = pos
    // The table above the hit: rows up to the first row with no cell.
    let top = r
    while (top > 1 && rowCells.has(top - 1)) top--
    let left = -1
    let right = -1
    let above = -1
    let below = -1
    // The cells of the hit's row to its left, nearest last, for the row heading.
    const leftCells: Array<number> = []
    // The cells of the hit's column in the table above it, top first (two kept: a title row and the one below it).
    let col0 = -1
    let col1 = -1
    let topLeft = -1
    for (let i = 0; i < count; i++) {
      const y = rowOf[i] as number
      const x = colOf[i] as number
      if (y === r) {
        if (x < c) leftCells.push(i)
        if (x === c - 1) left = i
        else if (x === c + 1) right = i
      } else if (x === c) {
        if (y === r - 1) above = i
        else if (y === r + 1) below = i
        if (y >= top && y < r) {
          if (col0 < 0 || y < (rowOf[col0] as number)) ((col1 = col0), (col0 = i))
          else if (col1 < 0 || y < (rowOf[col1] as number)) col1 = i
        }
      }
      if (y === top && y < r && x < c && (topLeft < 0 || x > (colOf[topLeft] as number))) topLeft = i
    }
    let rowHeading: ContextLine | undefined
    leftCells.sort((a, b) => (colOf[b] as number) - (colOf[a] as number))
    for (const i of leftCells) {
      const line = lineOf(i)
      if (!looksNumeric(line.text)) {
        rowHeading = line
        break
      }
    }
    let column = col0
    // A title row (one cell only) with another cell of the column below it: that one is the heading.
    if (col0 >= 0 && col1 >= 0 && rowCells.get(rowOf[col0] as number) === 1 && (rowCells.get(rowOf[col1] as number) ?? 0) > 1) column = col1
    // A heading merged from the left: the nearest cell to the left in the table's top row.
    if (column < 0) column = topLeft
    const out: { -readonly [K in keyof CellContext]: CellContext[K] } = { kind: "cell" }
    if (column >= 0) out.column = lineOf(column)
    if (rowHeading !== undefined) out.row = rowHeading
    if (left >= 0) out.left = lineOf(left)
    if (right >= 0) out.right = lineOf(right)
    if (above >= 0) out.above = lineOf(above)
    if (below >= 0) out.below = lineOf(below)
    return out
  }
}

/** The index of the hit's line: the line at `loc` with its text, else the first at `loc`; -1 when none. */
function lineIndexOf(lines: ReadonlyArray<BodyLine>, hit: { readonly loc: string; readonly text?: string }): number {
  let first = -1
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as BodyLine
    if (l.loc !== hit.loc) continue
    if (hit.text === undefined || l.text === hit.text) return i
    if (first < 0) first = i
  }
  return first
}

// The story of a paragraph's loc: the body (numbers) or its companion (`header`, `footnote:1` → `footnote`).
const storyOf = (loc: string) => (/^\d+$/.test(loc) ? "" : loc.replace(/[: ].*$/, ""))

function paragraphContextOf(lines: ReadonlyArray<BodyLine>): PartContext {
  return (hit) => {
    const i = lineIndexOf(lines, hit)
    if (i < 0) return undefined
    const story = storyOf(hit.loc)
    const near = (step: -1 | 1): ContextLine | undefined => {
      for (let j = i + step; j >= 0 && j < lines.length; j += step) {
        const l = lines[j] as BodyLine
        if (storyOf(l.loc) !== story) return undefined
        if (nonEmpty(l.text)) return { loc: l.loc, text: l.text }
      }
      return undefined
    }
    const out: { -readonly [K in keyof ParagraphContext]: ParagraphContext[K] } = { kind: "paragraph" }
    const previous = near(-1)
    const next = near(1)
    if (previous !== undefined) out.previous = previous
    if (next !== undefined) out.next = next
    return out
  }
}

function slideContextOf(lines: ReadonlyArray<BodyLine>, titles: ReadonlyArray<BodyLine>): PartContext {
  const marked = new Map<string, ContextLine>()
  for (const t of titles) {
    const m = /^slide (\d+)$/.exec(t.loc)
    if (m !== null && nonEmpty(t.text)) marked.set(m[1] as string, { loc: t.loc, text: t.text })
  }
  const firsts = new Map<string, { line: ContextLine; index: number }>()
  lines.forEach((l, index) => {
    if (/^\d+$/.test(l.loc) && !firsts.has(l.loc) && nonEmpty(l.text)) firsts.set(l.loc, { line: { loc: l.loc, text: l.text }, index })
  })
  return (hit) => {
    const slide = /^(\d+)(?: .*)?$/.exec(hit.loc)?.[1]
    if (slide === undefined) return undefined
    const i = lineIndexOf(lines, hit)
    const first = firsts.get(slide)
    const title = marked.get(slide) ?? first?.line
    // The hit is the title itself: nothing to add.
    const isTitle = title === undefined || (i >= 0 && first !== undefined && i === first.index && (lines[i] as BodyLine).text.trim() === title.text.trim())
    return isTitle ? { kind: "slide" } : { kind: "slide", title }
  }
}
