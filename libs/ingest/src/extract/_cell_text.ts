/**
 * The one place a cell's stored value becomes its text (ARCHITECTURE "Known
 * traps": every kind of value goes through one function).
 *
 * @module
 */
import { formatNumber, formatText, type NumberFormat } from "./_format_code.ts"
import { decodeXString } from "./_rich_string.ts"
import { formatDateSerial, formatGeneralNumber } from "./_number_format.ts"

/** A cell as the worksheet stores it. */
export interface StoredCell {
  /** The `t` attribute: `s`, `str`, `inlineStr`, `b`, `e`, `d`, or `n` (the default). */
  readonly type: string
  /** The text of `<v>`: a number, a shared-string index, a cached formula result, … */
  readonly value: string
  /** The text of `<is>`, already joined and decoded, for inline strings. */
  readonly inline: string
  /** The `s` attribute: index into the workbook's cell formats (`cellXfs`). */
  readonly style: number
}

/** The shared-string table of a workbook, by 0-based index. */
export interface SharedStrings {
  /** The string at `index`; `undefined` when the table has no such index (negative, fractional, past its end). */
  get(index: number): string | undefined
}

/** What the workbook contributes to a cell's text. */
export interface CellContext {
  readonly sharedStrings: SharedStrings
  /** The number format of each cell format, by `cellXfs` index; `undefined` for General. */
  readonly formats: ReadonlyArray<NumberFormat | undefined>
  /** The workbook counts date serials from 1904 (`workbookPr date1904`). */
  readonly date1904: boolean
}

/** An ISO 8601 value of a `t="d"` cell, shown like a date serial is: `yyyy-mm-dd` or `yyyy-mm-dd hh:mm:ss`. */
function formatIsoCell(value: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}:\d{2}))?/.exec(value)
  if (m === null) return value
  const [, date = "", time] = m
  return time === undefined || time === "00:00:00" ? date : `${date} ${time}`
}

/**
 * The text of a number as its cell shows it. A date shows its display form
 * followed by its ISO date when the display differs (`2023年3月15日
 * 2023-03-15`, `令和5年3月15日 2023-03-15`): a search for either finds it
 * (BUG-07). A format that shows nothing (`;;;`, an empty zero section) gives
 * the General form, because the value is still the cell's content (Excel
 * shows it in the formula bar).
 */
export function numberText(n: number, format: NumberFormat | undefined, date1904: boolean): string {
  if (format === undefined) return formatGeneralNumber(n)
  // Sheets repeat their values (dates, prices, quantities), and formatting one through its code is
  // the costliest step of a numeric cell: remember the last few thousand texts of each format.
  const memo = memoOf(format, date1904)
  let text = memo.get(n)
  if (text === undefined) {
    text = formatWithCode(n, format, date1904)
    if (memo.size >= memoLimit) memo.clear()
    memo.set(n, text)
  }
  return text
}

const memoLimit = 4096
const memos = new WeakMap<NumberFormat, [Map<number, string>, Map<number, string>]>()

function memoOf(format: NumberFormat, date1904: boolean): Map<number, string> {
  let pair = memos.get(format)
  if (pair === undefined) {
    pair = [new Map(), new Map()]
    memos.set(format, pair)
  }
  return pair[date1904 ? 1 : 0]
}

function formatWithCode(n: number, format: NumberFormat, date1904: boolean): string {
  const display = formatNumber(n, format, date1904)
  if (display === undefined || display === "") return formatGeneralNumber(n)
  if (format.kind === "date" || format.kind === "datetime") {
    const iso = formatDateSerial(n, "date", date1904)
    if (iso !== undefined && !display.includes(iso)) return `${display} ${iso}`
  }
  return display
}

/**
 * The text of a cell: shared and inline strings as written (runs joined,
 * readings excluded; a text section of the format such as `@"様"` applied),
 * cached formula results, booleans as `TRUE`/`FALSE`, errors as their code
 * (`#N/A`), numbers and dates through the cell's number format
 * ({@link numberText}). `""` for an empty cell and for a shared-string index
 * the table does not hold (BUG-01: never a bare index).
 */
export function cellText(cell: StoredCell, context: CellContext): string {
  return cellTextOf(cell.type, cell.style, cell.value, cell.inline, context)
}

/** {@link cellText} with the cell's fields as arguments: the readers call it once per cell, without making a {@link StoredCell}. */
export function cellTextOf(type: string, style: number, value: string, inline: string, context: CellContext): string {
  const format = context.formats[style]
  switch (type) {
    case "s": {
      // An empty <v> names no string (Number("") would be index 0).
      const index = value.trim() === "" ? Number.NaN : Number(value)
      return asText(Number.isInteger(index) ? (context.sharedStrings.get(index) ?? "") : "", format)
    }
    case "inlineStr":
      return asText(inline !== "" ? inline : decodeXString(value), format)
    case "str":
      return asText(decodeXString(value), format)
    case "b":
      return value === "" ? "" : value === "0" || value === "false" ? "FALSE" : "TRUE"
    case "e":
      return value
    case "d":
      return formatIsoCell(value.trim())
    default: {
      const raw = value.trim()
      if (raw === "") return inline
      const n = Number(raw)
      if (Number.isNaN(n)) return raw
      return numberText(n, format, context.date1904)
    }
  }
}

const asText = (value: string, format: NumberFormat | undefined) => (format === undefined || value === "" ? value : formatText(value, format))
