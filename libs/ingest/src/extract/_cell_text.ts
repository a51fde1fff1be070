/**
 * The one place a cell's stored value becomes its text (ARCHITECTURE "Known
 * traps": every kind of value goes through one function).
 *
 * @module
 */
import { decodeXString } from "./_rich_string.ts"
import { formatDateSerial, type DateKind } from "./_number_format.ts"

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

/** What the workbook contributes to a cell's text. */
export interface CellContext {
  readonly sharedStrings: ReadonlyArray<string>
  /** The date kind of each cell format, by `cellXfs` index; `undefined` for number formats. */
  readonly dateKinds: ReadonlyArray<DateKind | undefined>
  /** The workbook counts date serials from 1904 (`workbookPr date1904`). */
  readonly date1904: boolean
}

/**
 * A number as Excel's General format shows its value: at most 15 significant
 * digits (Excel's own precision, so a stored 0.30000000000000004 reads 0.3),
 * shortest form.
 */
export function formatGeneralNumber(n: number): string {
  const rounded = Number(n.toPrecision(15))
  return String(Object.is(rounded, -0) ? 0 : rounded)
}

/** An ISO 8601 value of a `t="d"` cell, shown like a date serial is: `yyyy-mm-dd` or `yyyy-mm-dd hh:mm:ss`. */
function formatIsoCell(value: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}:\d{2}))?/.exec(value)
  if (m === null) return value
  const [, date = "", time] = m
  return time === undefined || time === "00:00:00" ? date : `${date} ${time}`
}

/**
 * The text of a cell: shared and inline strings as written (runs joined,
 * readings excluded), cached formula results, booleans as `TRUE`/`FALSE`,
 * errors as their code (`#N/A`), dates in ISO form when the cell's format is a
 * date format, other numbers in General form. `""` for an empty cell and for a
 * shared-string index the table does not hold (BUG-01: never a bare index).
 */
export function cellText(cell: StoredCell, context: CellContext): string {
  switch (cell.type) {
    case "s": {
      const index = Number(cell.value)
      return Number.isInteger(index) ? (context.sharedStrings[index] ?? "") : ""
    }
    case "inlineStr":
      return cell.inline !== "" ? cell.inline : decodeXString(cell.value)
    case "str":
      return decodeXString(cell.value)
    case "b":
      return cell.value === "" ? "" : cell.value === "0" || cell.value === "false" ? "FALSE" : "TRUE"
    case "e":
      return cell.value
    case "d":
      return formatIsoCell(cell.value.trim())
    default: {
      const raw = cell.value.trim()
      if (raw === "") return cell.inline
      const n = Number(raw)
      if (Number.isNaN(n)) return raw
      const kind = context.dateKinds[cell.style]
      return (kind !== undefined ? formatDateSerial(n, kind, context.date1904) : undefined) ?? formatGeneralNumber(n)
    }
  }
}
