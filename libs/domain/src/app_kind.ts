/**
 * Which application a source file belongs to, and whether it can be read
 * without Office (SPEC R13 "the file's application", W2, W3).
 *
 * @module
 */
import { Schema } from "effect"

/** The Office application a file belongs to (one Office owner per kind, W3). */
export const AppKind = Schema.Literal("spreadsheet", "document", "presentation")
export type AppKind = typeof AppKind.Type

/**
 * How a file is read first: `plain` by a plain worker without Office (W2;
 * OOXML, and legacy Excel xls/xlt/xlsb, W3), `office` by the Office owner of
 * its kind (W3).
 */
export const Reader = Schema.Literal("plain", "office")
export type Reader = typeof Reader.Type

/** The file format a name claims: its application and its reader. */
export interface FileFormat {
  readonly app: AppKind
  readonly reader: Reader
  /** Lower-case extension without the dot, e.g. `xlsx`. */
  readonly ext: string
}

// W3: once the plain workers read a format its files go to them first (legacy Excel, Word 97–2003 and
// PowerPoint 97–2003, OpenDocument packages, Word 6/95, Word 2, PowerPoint 95 and 4.0 since issue 20); what they
// cannot read (PowerPoint 3, damaged workbooks, an encrypted OpenDocument file's kin) comes back as a reroute to the
// owner (R14); RTF too. Flat OpenDocument XML (fods, fodt, fodp) stays with Office.
const table: ReadonlyArray<readonly [AppKind, Reader, ReadonlyArray<string>]> = [
  ["spreadsheet", "plain", ["xlsx", "xlsm", "xltx", "xltm", "xls", "xlt", "xlsb", "ods", "ots"]],
  ["spreadsheet", "office", ["fods"]],
  ["document", "plain", ["docx", "docm", "dotx", "dotm", "doc", "dot", "odt", "ott", "rtf"]],
  ["document", "office", ["fodt"]],
  ["presentation", "plain", ["pptx", "pptm", "ppsx", "ppsm", "potx", "potm", "ppt", "pps", "pot", "odp", "otp"]],
  ["presentation", "office", ["fodp"]]
]

const formats = new Map<string, FileFormat>(
  table.flatMap(([app, reader, exts]) => exts.map((ext) => [ext, { app, reader, ext }] as const))
)

/**
 * The format of a file by its name's extension (ASCII case-insensitive), or
 * `undefined` when the file is not an Office document Sagasu indexes.
 * The content may still disagree (an xls renamed to xlsx): the extractor
 * checks the bytes and asks for a reroute (R14).
 */
export function fileFormatOf(fileName: string): FileFormat | undefined {
  const dot = fileName.lastIndexOf(".")
  if (dot <= 0 || dot === fileName.length - 1) return undefined
  const ext = fileName.slice(dot + 1).toLowerCase()
  return formats.get(ext)
}
