/**
 * TSV escaping for the body index and the ingest list (SPEC §5: "Tabs,
 * newlines and backslashes inside cells are escaped").
 *
 * Backslash, tab, line feed and carriage return become `\\`, `\t`, `\n`,
 * `\r`; everything else is kept as it is, so `unescapeTsvField` is the exact
 * inverse of `escapeTsvField` for every string.
 *
 * @module
 */

const escapes: Readonly<Record<string, string>> = { "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" }
const unescapes: Readonly<Record<string, string>> = { "\\": "\\", t: "\t", n: "\n", r: "\r" }

/** Escapes one field so it holds no tab, newline or carriage return. */
export function escapeTsvField(text: string): string {
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => escapes[c] ?? c) : text
}

/**
 * Inverse of {@link escapeTsvField}. A backslash before any other character
 * (never written by us) is kept as it is, so hand-edited files still read.
 */
export function unescapeTsvField(field: string): string {
  return field.includes("\\") ? field.replace(/\\([\\tnr])/g, (_, c: string) => unescapes[c] ?? c) : field
}

/** Joins escaped fields with tabs into one line (no line terminator). */
export function formatTsvLine(fields: ReadonlyArray<string>): string {
  return fields.map(escapeTsvField).join("\t")
}

/** Splits one line (without its terminator) into unescaped fields. */
export function parseTsvLine(line: string): Array<string> {
  return line.split("\t").map(unescapeTsvField)
}
