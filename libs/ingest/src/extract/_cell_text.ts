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
 * The text of a number as its cell shows it, and only that (S4: the snippet
 * shows what Excel shows): a date's ISO form and its other typed forms are
 * its search-only forms ({@link numberForms}), so `2023-03-15` still finds
 * a cell shown `2023年3月15日` or `令和5年3月15日` (BUG-07). A format that shows nothing (`;;;`, an empty zero section) gives
 * the General form, because the value is still the cell's content (Excel
 * shows it in the formula bar).
 */
export function numberText(n: number, format: NumberFormat | undefined, date1904: boolean): string {
  if (format === undefined) return formatGeneralNumber(n)
  // Sheets repeat their values (dates, prices, quantities), and formatting one through its code is
  // the costliest step of a numeric cell: remember the last few thousand texts of each format.
  return remembered(shownTexts, formatWithCode, n, format, date1904)
}

/** Remembered values of numbers, by number format, for the 1900 and the 1904 date system. */
type FormatMemos<V = string> = WeakMap<NumberFormat, [Map<number, V>, Map<number, V>]>

/** The memo of `format` and the date system in `memos` (made when missing). */
function memoOf<V>(memos: FormatMemos<V>, format: NumberFormat, date1904: boolean): Map<number, V> {
  let pair = memos.get(format)
  if (pair === undefined) {
    pair = [new Map(), new Map()]
    memos.set(format, pair)
  }
  return pair[date1904 ? 1 : 0]
}

/** Notes `value` for `n` in `memo`, which starts again past `memoLimit` numbers; returns `value`. */
function remember<V>(memo: Map<number, V>, n: number, value: V): V {
  if (memo.size >= memoLimit) memo.clear()
  memo.set(n, value)
  return value
}

/**
 * `compute(n, format, date1904)`, remembered: the last few thousand results
 * for each number format and date system in `memos` (a `WeakMap` by format,
 * so a workbook's formats go with it); past `memoLimit` numbers a format's
 * memo starts again. The texts numbers show ({@link numberText}) and their
 * typed forms ({@link numberForms}).
 */
function remembered(
  memos: FormatMemos,
  compute: (n: number, format: NumberFormat, date1904: boolean) => string,
  n: number,
  format: NumberFormat,
  date1904: boolean
): string {
  const memo = memoOf(memos, format, date1904)
  return memo.get(n) ?? remember(memo, n, compute(n, format, date1904))
}

const memoLimit = 4096
const shownTexts: FormatMemos = new WeakMap()
const typedForms: FormatMemos = new WeakMap()

function formatWithCode(n: number, format: NumberFormat, date1904: boolean): string {
  const display = formatNumber(n, format, date1904)
  return display === undefined || display === "" ? formatGeneralNumber(n) : display
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

/**
 * The search-only forms of a cell whose text is `text` ({@link numberForms}
 * for a number or a date shown through a format; `""` for every other cell,
 * at the cost of a type check).
 */
export function cellFormsOf(type: string, style: number, value: string, text: string, context: CellContext): string {
  switch (type) {
    case "s":
    case "inlineStr":
    case "str":
    case "b":
    case "e":
      return ""
    case "d": {
      const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value.trim())
      return m === null ? "" : keepNew(dateForms(m[1]!, m[2]!, m[3]!), text)
    }
  }
  const format = context.formats[style]
  if (format === undefined) return ""
  const raw = value.trim()
  if (raw === "") return ""
  const n = Number(raw)
  return Number.isNaN(n) ? "" : numberForms(n, format, context.date1904, text)
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

/**
 * The search-only forms of a number shown through `format` (S4, issue 14):
 * how people type the value when the cell shows it otherwise — its plain
 * value for a number (`123350` for `¥123,350`, `-1234.5` for `(1,234.50)`,
 * `0.125` for `12.5%`), the typed Japanese forms of a date (`2009/9/4
 * 2009/09/04 2009-09-04 2009年9月4日`) — each left out when the text already
 * holds it; `""` when there is none (General, a time, text the format shows
 * as is). Separated by spaces; the snippet never shows them.
 */
export function numberForms(n: number, format: NumberFormat | undefined, date1904: boolean, text: string): string {
  if (format === undefined || !Number.isFinite(n)) return ""
  // Remembered with what keepNew left against the text they were checked against: a cell's text is
  // its number's shown text, the same string each time, so a repeated value costs one lookup.
  const memo = memoOf(newForms, format, date1904)
  const known = memo.get(n)
  if (known !== undefined && known.text === text) return known.forms
  return remember(memo, n, { text, forms: keepNew(remembered(typedForms, formsOf, n, format, date1904), text) }).forms
}

/** The forms {@link numberForms} returned for a number and the text they were checked against, by format and date system. */
const newForms: FormatMemos<{ readonly text: string; readonly forms: string }> = new WeakMap()

// Only the forms the shown text does not hold already (`2009/9/4` shown as 2009/9/4).
function keepNew(forms: string, text: string): string {
  if (forms === "") return ""
  let out = ""
  for (const f of forms.split(" ")) if (!text.includes(f)) out += out === "" ? f : " " + f
  return out
}

// The typed forms of a date: 2009/9/4, 2009/09/04, 2009-09-04, 2009年9月4日.
function dateForms(y: string, mm: string, dd: string): string {
  const mo = String(Number(mm))
  const d = String(Number(dd))
  return [`${y}/${mo}/${d}`, `${y}/${mm}/${dd}`, `${y}-${mm}-${dd}`, `${y}年${mo}月${d}日`].filter((f, i, all) => all.indexOf(f) === i).join(" ")
}

function formsOf(n: number, format: NumberFormat, date1904: boolean): string {
  if (format.kind === "time" || format.kind === "elapsed") return ""
  if (format.kind === "date" || format.kind === "datetime") {
    const iso = formatDateSerial(n, "date", date1904)
    const m = iso === undefined ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso)
    if (m === null) return ""
    const [, y = "", mm = "", dd = ""] = m
    return dateForms(y, mm, dd)
  }
  return formatGeneralNumber(n)
}

/**
 * The search-only forms of an OpenDocument cell (S4), which shows `text`
 * and stores `value` as its `office:value-type` says: a number's plain value
 * (`float`, `percentage`, `currency`: `0.125` for `12.5%`), a date's typed
 * Japanese forms from its ISO `date-value` (`2009/9/4 2009/09/04 2009-09-04
 * 2009年9月4日`), each left out when the text holds it already, as for an
 * xlsx cell ({@link numberForms}); `""` for anything else.
 */
export function openDocumentForms(type: string, value: string, text: string): string {
  if (type === "float" || type === "percentage" || type === "currency") {
    const n = Number(value)
    return value.trim() === "" || !Number.isFinite(n) ? "" : keepNew(formatGeneralNumber(n), text)
  }
  if (type !== "date") return ""
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value)
  if (m === null) return ""
  const [, y = "", mm = "", dd = ""] = m
  return keepNew(dateForms(y, mm, dd), text)
}

/**
 * What an OpenDocument cell without a paragraph shows (a writer that stored
 * only the value): a number in General form, a date as `yyyy-mm-dd` (and
 * its time when it has one), `TRUE`/`FALSE`, a string or a time as stored.
 */
export function openDocumentValueText(type: string, value: string): string {
  switch (type) {
    case "float":
    case "percentage":
    case "currency": {
      const n = Number(value)
      return value.trim() === "" || !Number.isFinite(n) ? value : formatGeneralNumber(n)
    }
    case "date":
      return formatIsoCell(value)
    case "boolean":
      return value === "true" ? "TRUE" : value === "false" ? "FALSE" : value
    default:
      return value
  }
}

const asText = (value: string, format: NumberFormat | undefined) => (format === undefined || value === "" ? value : formatText(value, format))
