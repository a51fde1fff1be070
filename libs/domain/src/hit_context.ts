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
const plainCell = /^[A-Z]{1,3}[1-9]\d{0,6}$/

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

function cellContextOf(lines: ReadonlyArray<BodyLine>): PartContext {
  // row → col → line, plain non-empty cells only.
  const rows = new Map<number, Map<number, ContextLine>>()
  for (const l of lines) {
    if (!plainCell.test(l.loc) || !nonEmpty(l.text)) continue
    const pos = cellPositionOf(l.loc)
    if (pos === undefined) continue
    let row = rows.get(pos[0])
    if (row === undefined) rows.set(pos[0], (row = new Map()))
    row.set(pos[1], { loc: l.loc, text: l.text })
  }
  const at = (r: number, c: number) => rows.get(r)?.get(c)
  // The first column of each row with cells, and the row's cell count, for the scans to the left.
  return (hit) => {
    const pos = cellPositionOf(hit.loc)
    if (pos === undefined) return undefined
    const [r, c] = pos
    const row = rows.get(r)
    let rowHeading: ContextLine | undefined
    if (row !== undefined) {
      let best = 0
      for (const [col, cell] of row) if (col < c && col > best && !looksNumeric(cell.text)) ((best = col), (rowHeading = cell))
    }
    // The table above the hit: rows up to the first row with no cell.
    let top = r
    while (top > 1 && rows.has(top - 1)) top--
    let column: ContextLine | undefined
    let columnRow = 0
    for (let y = top; y < r; y++) {
      const cell = at(y, c)
      if (cell === undefined) continue
      if (column === undefined) {
        column = cell
        columnRow = y
        continue
      }
      // A title row (one cell only) with another cell of the column below it: that one is the heading.
      if ((rows.get(columnRow)?.size ?? 0) === 1 && (rows.get(y)?.size ?? 0) > 1) ((column = cell), (columnRow = y))
      break
    }
    if (column === undefined && top < r) {
      // A heading merged from the left: the nearest cell to the left in the table's top row.
      let best = 0
      for (const [col, cell] of rows.get(top) ?? []) if (col < c && col > best) ((best = col), (column = cell))
    }
    const out: { -readonly [K in keyof CellContext]: CellContext[K] } = { kind: "cell" }
    if (column !== undefined) out.column = column
    if (rowHeading !== undefined) out.row = rowHeading
    const left = at(r, c - 1)
    const right = at(r, c + 1)
    const above = at(r - 1, c)
    const below = at(r + 1, c)
    if (left !== undefined) out.left = left
    if (right !== undefined) out.right = right
    if (above !== undefined) out.above = above
    if (below !== undefined) out.below = below
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
