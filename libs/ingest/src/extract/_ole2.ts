/**
 * Just enough of the OLE2 compound file format (MS-CFB) to tell a
 * password-protected file from a legacy one without Office (BUG-14, BUG-27):
 * an encrypted OOXML file is an OLE2 container with `EncryptionInfo` /
 * `EncryptedPackage` streams, and the legacy formats carry their own flag
 * (xls FILEPASS record, doc FIB `fEncrypted`, ppt encrypted CurrentUserAtom).
 *
 * The container is read through `_cfb.ts` by positioned reads: only the
 * header, the directory and the first bytes of the streams that carry a flag,
 * never the whole file.
 *
 * @module
 */
import type { AppKind } from "@sagasu/domain"
import type { CompoundFile } from "./_cfb.ts"
import type { ExtractError } from "./extract_error.ts"

/** What an OLE2 container holds, as far as extraction cares (a damaged container is the reader's error, `_cfb.ts`). */
export type Ole2Verdict =
  | { readonly _tag: "encrypted"; readonly detail: string }
  /** `app`: the application whose stream the directory holds (a Word or PowerPoint stream before a workbook's), when one is known. */
  | { readonly _tag: "legacy"; readonly detail: string; readonly app?: AppKind }

/** BIFF8/BIFF5 workbook stream: is there a FILEPASS record (0x002F) in the globals before the first sheet? */
function workbookIsEncrypted(stream: Uint8Array): boolean {
  const v = new DataView(stream.buffer, stream.byteOffset, stream.byteLength)
  for (let at = 0; at + 4 <= stream.length; ) {
    const type = v.getUint16(at, true)
    if (type === 0x002f) return true
    // BOUNDSHEET or EOF: FILEPASS, when present, comes right after the first BOF.
    if (type === 0x0085 || type === 0x000a) return false
    at += 4 + v.getUint16(at + 2, true)
  }
  return false
}

/** The first `limit` bytes of the stream at `path`, or undefined when there is none. */
const head = (file: CompoundFile, path: string, limit: number): Uint8Array | undefined => file.streamSource(path)?.read(0, limit)

/**
 * Looks inside an open OLE2 container (`_cfb.ts`): `encrypted` for an
 * encrypted OOXML package or a legacy file with its encryption flag,
 * otherwise `legacy` (xls, doc, ppt, or any OLE2 content Office may read),
 * naming the streams that say which. Reads the directory and the first bytes
 * of the streams that carry a flag only; throws the container's
 * {@link ExtractError} when those are damaged.
 */
export function inspectOle2(file: CompoundFile): Ole2Verdict {
  // Stream names compare case-insensitively (trait `odd-stream-name-case`: WORKBOOK, worddocument).
  const streams = new Set(file.entries.filter((e) => e.type === "stream" && !e.path.includes("/")).map((e) => e.path.toLowerCase()))
  for (const name of ["encryptedpackage", "encryptioninfo"]) {
    if (streams.has(name)) return { _tag: "encrypted", detail: "OLE2 container with an EncryptionInfo/EncryptedPackage stream (password-protected OOXML)" }
  }
  const workbook = streams.has("workbook") ? "workbook" : streams.has("book") ? "book" : undefined
  if (workbook !== undefined && workbookIsEncrypted(head(file, workbook, 1 << 16) ?? new Uint8Array())) {
    return { _tag: "encrypted", detail: "legacy Excel workbook with a FILEPASS record" }
  }
  const fib = head(file, "worddocument", 12)
  // FIB flags at offset 10: bit 8 is fEncrypted (Word 6 and later).
  if (fib !== undefined && fib.length >= 12 && ((fib[11] ?? 0) & 0x01) !== 0) return { _tag: "encrypted", detail: "legacy Word document with the fEncrypted flag" }
  if (streams.has("current user") || streams.has("encryptedsummary")) {
    const atom = head(file, "current user", 16) ?? new Uint8Array()
    const token = atom.length >= 16 ? new DataView(atom.buffer, atom.byteOffset).getUint32(12, true) : 0
    if (token === 0xf3d1c4df || streams.has("encryptedsummary")) {
      return { _tag: "encrypted", detail: "legacy PowerPoint presentation with an encrypted CurrentUserAtom" }
    }
  }
  const kinds = [...streams].filter((n) => ["workbook", "book", "worddocument", "powerpoint document"].includes(n))
  const app: AppKind | undefined = streams.has("worddocument") ? "document" : streams.has("powerpoint document") ? "presentation" : workbook !== undefined ? "spreadsheet" : undefined
  const detail = `legacy OLE2 file (${kinds.length > 0 ? kinds.join(", ") : "unknown streams"})`
  return app === undefined ? { _tag: "legacy", detail } : { _tag: "legacy", detail, app }
}
