/**
 * The container format of a file, from its first bytes: names lie (an xls
 * renamed to xlsx, an encrypted xlsx that is really OLE2, a PNG called
 * `.xlsx`), so the parser is chosen by content (BUG-14).
 *
 * @module
 */
import type { AppKind } from "@sagasu/domain"

/** What the first bytes say. */
export type Container =
  | { readonly _tag: "empty" }
  | { readonly _tag: "zip" }
  | { readonly _tag: "ole2" }
  /** An RTF document (`{\rtf`), read by `_rtf.ts` (W3, issue 20). */
  | { readonly _tag: "rtf" }
  /**
   * A workbook's BIFF record stream without an OLE2 container (trait
   * `bare-biff-stream`): Excel 2.x–4.0 (`version` 2, 3, 4: `_xls_old.ts`),
   * or a bare BIFF5/8 stream (`version` 5, read by `_xls.ts`).
   */
  | { readonly _tag: "bare-biff"; readonly version: 2 | 3 | 4 | 5 }
  /** A Word for Windows 2.0 document: its FIB at byte 0, no container (read by `_word97.ts`, issue 20). */
  | { readonly _tag: "word2" }
  /** A legacy Office format outside OLE2 that only Office reads; `app` the application of the format found. */
  | { readonly _tag: "legacy"; readonly detail: string; readonly app: AppKind }
  | { readonly _tag: "other"; readonly detail: string }

const startsWith = (bytes: Uint8Array, prefix: ReadonlyArray<number>): boolean =>
  prefix.every((b, i) => bytes[i] === b)

/** BOF record types of a bare BIFF stream and the version each starts. */
const bareBofs: ReadonlyMap<number, 2 | 3 | 4 | 5> = new Map([
  [0x0009, 2],
  [0x0209, 3],
  [0x0409, 4],
  [0x0809, 5]
])

/**
 * BIFF2–4 (and bare BIFF5/8) workbooks are a record stream without a
 * container: a BOF record first (trait `bare-biff-stream`); the BIFF version
 * it starts, or `undefined`.
 */
function bareBiffVersion(bytes: Uint8Array): 2 | 3 | 4 | 5 | undefined {
  if (bytes.length < 8) return undefined
  const type = (bytes[0] ?? 0) | ((bytes[1] ?? 0) << 8)
  const length = (bytes[2] ?? 0) | ((bytes[3] ?? 0) << 8)
  return length >= 4 && length <= 20 ? bareBofs.get(type) : undefined
}

/** Office 2003 XML (SpreadsheetML, WordML) names its application in a processing instruction near the top. */
function office2003Xml(bytes: Uint8Array): Progid | undefined {
  const head = new TextDecoder("utf-8").decode(bytes.subarray(0, 4096))
  return /<\?mso-application\s+progid\s*=\s*["'](Excel\.Sheet|Word\.Document|PowerPoint\.Show)["']/.exec(head)?.[1] as Progid | undefined
}

type Progid = "Excel.Sheet" | "Word.Document" | "PowerPoint.Show"
const progidApps: Record<Progid, AppKind> = { "Excel.Sheet": "spreadsheet", "Word.Document": "document", "PowerPoint.Show": "presentation" }

/** Classifies a file by its first bytes. */
export function sniffContainer(bytes: Uint8Array): Container {
  if (bytes.length === 0) return { _tag: "empty" }
  // Local file header, or the end record of an empty archive.
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return { _tag: "zip" }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return { _tag: "ole2" }
  const biff = bareBiffVersion(bytes)
  if (biff !== undefined) return { _tag: "bare-biff", version: biff }
  // Word 2.0's FIB: wIdent 0xA5DB and nFib 45; two bytes alone also start other files, which go to Office as before.
  if (startsWith(bytes, [0xdb, 0xa5, 0x2d, 0x00])) return { _tag: "word2" }
  if (startsWith(bytes, [0xdb, 0xa5])) return { _tag: "legacy", detail: "a Word 2 signature (DB A5) without Word 2.0's nFib", app: "document" }
  if (startsWith(bytes, [0x7b, 0x5c, 0x72, 0x74, 0x66])) return { _tag: "rtf" }
  const progid = office2003Xml(bytes)
  if (progid !== undefined) return { _tag: "legacy", detail: `Office 2003 XML (${progid})`, app: progidApps[progid] }
  const hex = [...bytes.subarray(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join(" ")
  return { _tag: "other", detail: `neither a zip nor an OLE2 container (first bytes ${hex})` }
}
