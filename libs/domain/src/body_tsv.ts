/**
 * The body-index TSV format (SPEC §5 "Body index", issue 3): one file per
 * sheet / document body / slide deck, named `<n>_<name>.tsv`.
 *
 * ```
 * cell	text	state=hidden      ← header: locator column, `text`, optional state
 * A1	御見積書                   ← one line per located text, fields escaped
 * ```
 *
 * @module
 */
import type { BodyLine, BodyPart, Locator, PartState } from "./extraction.ts"
import { formatTsvLine, parseTsvLine } from "./tsv.ts"

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
  for (const line of lines) text += formatTsvLine([line.loc, line.text]) + "\n"
  return text
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

const locators: ReadonlyArray<string> = ["cell", "paragraph", "slide"]
const states: ReadonlyArray<string> = ["visible", "hidden", "veryHidden"]

/** Parses a TSV written by {@link formatBodyTsv}; an unknown header reads as `cell`, visible. */
export function parseBodyTsv(text: string): ParsedBodyTsv {
  const rows = text.split("\n")
  const [locator = "cell", , stateField = ""] = (rows[0] ?? "").split("\t")
  const state = stateField.replace(/^state=/, "")
  const lines: Array<BodyLine> = []
  for (let i = 1; i < rows.length; i++) {
    const row = rows[i]
    if (row === undefined || row === "") continue
    const [loc = "", text = ""] = parseTsvLine(row)
    lines.push({ loc, text })
  }
  return {
    locator: (locators.includes(locator) ? locator : "cell") as Locator,
    state: (states.includes(state) ? state : "visible") as PartState,
    lines
  }
}
