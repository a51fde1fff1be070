/**
 * The body-index TSV format (SPEC §5 "Body index", issue 3): one file per
 * sheet / document body / slide deck, named `<n>_<name>.tsv`.
 *
 * ```
 * cell	text	state=hidden      ← header: locator column, `text`, optional state
 * A1	御見積書                   ← one line per located text, fields escaped
 * B2	¥123,350	123350          ← a third field: the search-only forms (S4), when there are some
 * ```
 *
 * The third field is new with issue 14: a reader that knows only two fields
 * (an older version) reads such a row's text and ignores its forms, so the
 * body index keeps its layout version.
 *
 * @module
 */
import type { BodyLine, BodyPart, Locator, PartState } from "./extraction.ts"
import { formatTsvLine, unescapeTsvField } from "./tsv.ts"

// Characters Windows forbids in file names, plus controls; `%` too, because
// it is our escape character.
const unsafeFileNameChars = /[\\/:*?"<>|%\u0000-\u001f]/g

/**
 * The TSV file name of the `n`-th part (1-based): `<n>_<name>.tsv`, with
 * characters that are not allowed in file names written as `%XX` and the name
 * cut so the whole stays within 200 UTF-8 bytes.
 */
export function bodyTsvFileName(n: number, name: string): string {
  let safe = name.replace(unsafeFileNameChars, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0"))
  const encoder = new TextEncoder()
  while (encoder.encode(safe).length > 180) safe = [...safe].slice(0, -1).join("")
  return `${n}_${safe}.tsv`
}

/** The part name back from a TSV file name written by {@link bodyTsvFileName} (cut names stay cut). */
export function partNameOfTsvFileName(fileName: string): string {
  const base = fileName.replace(/^\d+_/, "").replace(/\.tsv$/, "")
  return base.replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

// Made on first use: an ICU collator costs 4–6 ms to create, a tenth of a cold `sagasu search`
// that may never sort a folder's TSVs (issue 13, S2).
let tsvNameCollator: Intl.Collator | undefined

/**
 * The order of a source file's TSV file names: by part number, `2_b.tsv`
 * before `10_a.tsv` (the parts in workbook order), then by name. One
 * collator for every call: `localeCompare` with options makes one a call
 * (0.68 s of a no-change re-run over 20,000 files, issue 20).
 */
export function compareTsvFileNames(a: string, b: string): number {
  tsvNameCollator ??= new Intl.Collator("en", { numeric: true })
  return tsvNameCollator.compare(a, b)
}

/** What a TSV's header says of its part: a {@link BodyPart} without its lines. */
export type BodyPartHead = Omit<BodyPart, "lines">

/** The header line of a part's TSV, ending in `\n`: `cell\ttext` or `cell\ttext\tstate=hidden`. */
export function formatBodyTsvHeader(head: BodyPartHead): string {
  return `${head.locator}\ttext${head.state === "visible" ? "" : `\tstate=${head.state}`}\n`
}

/**
 * The body lines of a TSV, one per line, each ending in `\n`: a part's TSV is
 * its {@link formatBodyTsvHeader} followed by this for all its lines, in one
 * piece or in consecutive batches (the text is the same either way, W1).
 */
export function formatBodyTsvLines(lines: ReadonlyArray<BodyLine>): string {
  let text = ""
  for (const line of lines) text += formatBodyTsvRow(line) + "\n"
  return text
}

/** One body line as a TSV row without its line feed: `loc`, `text` and, when it has forms, `forms`. */
export function formatBodyTsvRow(line: BodyLine): string {
  return line.forms === undefined || line.forms === "" ? formatTsvLine([line.loc, line.text]) : formatTsvLine([line.loc, line.text, line.forms])
}

/** The whole TSV text of a part: the header line, then one line per body line, each ending in `\n`. */
export function formatBodyTsv(part: BodyPart): string {
  return formatBodyTsvHeader(part) + formatBodyTsvLines(part.lines)
}

/** A parsed body-index TSV. */
export interface ParsedBodyTsv {
  readonly locator: Locator
  readonly state: PartState
  readonly lines: ReadonlyArray<BodyLine>
}

const locators: ReadonlyArray<string> = ["cell", "paragraph", "slide", "property"]
const states: ReadonlyArray<string> = ["visible", "hidden", "veryHidden"]

/** Parses a TSV written by {@link formatBodyTsv}; an unknown header reads as `cell`, visible. */
export function parseBodyTsv(text: string): ParsedBodyTsv {
  const rows = text.split("\n")
  const lines: Array<BodyLine> = []
  for (let i = 1; i < rows.length; i++) {
    const row = rows[i]
    if (row === undefined || row === "") continue
    lines.push(parseBodyTsvRow(row))
  }
  return { ...parseBodyTsvHead(rows[0] ?? ""), lines }
}

/** The locator and state a body TSV's header row (its first) gives; `cell` and `visible` when it says none we know. */
export function parseBodyTsvHead(header: string): Omit<ParsedBodyTsv, "lines"> {
  const [locator = "cell", , stateField = ""] = header.split("\t")
  const state = stateField.replace(/^state=/, "")
  return {
    locator: (locators.includes(locator) ? locator : "cell") as Locator,
    state: (states.includes(state) ? state : "visible") as PartState
  }
}

/** One body row of a TSV (not its header, not empty, without its line feed) as a line, as {@link parseBodyTsv} gives it. */
export function parseBodyTsvRow(row: string): BodyLine {
  // The first three fields of parseTsvLine, found with indexOf (a sheet has millions of rows).
  const a = row.indexOf("\t")
  const b = a < 0 ? -1 : row.indexOf("\t", a + 1)
  const c = b < 0 ? -1 : row.indexOf("\t", b + 1)
  const loc = unescapeTsvField(a < 0 ? row : row.slice(0, a))
  const text = a < 0 ? "" : unescapeTsvField(b < 0 ? row.slice(a + 1) : row.slice(a + 1, b))
  const forms = b < 0 ? "" : unescapeTsvField(c < 0 ? row.slice(b + 1) : row.slice(b + 1, c))
  return forms === "" ? { loc, text } : { loc, text, forms }
}

/**
 * What a source file's `.complete` mark holds (issue 14): its size in bytes
 * and its modified time (ms since the epoch) when it was read, so that a
 * search shows them and sorts by date without opening the source file. A
 * mark written by an older version is empty: both are then unknown.
 */
export interface SourceStamp {
  readonly size: number
  readonly mtimeMs: number
}

/** The text of a `.complete` mark holding `stamp`: `size\t<bytes>\nmodified\t<ms>\n`. */
export function formatSourceStamp(stamp: SourceStamp): string {
  return `size\t${stamp.size}\nmodified\t${stamp.mtimeMs}\n`
}

/** The stamp of a `.complete` mark's text; `undefined` when it holds none (empty, or not written by {@link formatSourceStamp}). */
export function parseSourceStamp(text: string): SourceStamp | undefined {
  let size: number | undefined
  let mtimeMs: number | undefined
  for (const row of text.split("\n")) {
    const [key, value = ""] = row.split("\t")
    const n = Number(value)
    if (value.trim() === "" || !Number.isFinite(n) || n < 0) continue
    if (key === "size") size = n
    else if (key === "modified") mtimeMs = n
  }
  return size === undefined || mtimeMs === undefined ? undefined : { size, mtimeMs }
}
