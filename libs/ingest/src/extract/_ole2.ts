/**
 * Just enough of the OLE2 compound file format (MS-CFB) to tell a
 * password-protected file from a legacy one without Office (BUG-14, BUG-27):
 * an encrypted OOXML file is an OLE2 container with `EncryptionInfo` /
 * `EncryptedPackage` streams, and the legacy formats carry their own flag
 * (xls FILEPASS record, doc FIB `fEncrypted`, ppt encrypted CurrentUserAtom).
 *
 * @module
 */

/** What an OLE2 container holds, as far as extraction cares. */
export type Ole2Verdict =
  | { readonly _tag: "encrypted"; readonly detail: string }
  | { readonly _tag: "legacy"; readonly detail: string }
  /** A sector chain that loops or leaves the table: no reader, Office included, gets past it (trait `corrupt`, oleloop.xls). */
  | { readonly _tag: "corrupt"; readonly detail: string }

interface DirectoryEntry {
  readonly name: string
  readonly type: number
  readonly start: number
  readonly size: number
}

const endOfChain = 0xfffffffe
const brokenChain = "broken sector chain"
const miniStreamCutoff = 4096

class CompoundFile {
  private readonly view: DataView
  private readonly sectorSize: number
  private readonly fat: ReadonlyArray<number>
  readonly entries: ReadonlyArray<DirectoryEntry>
  private readonly bytes: Uint8Array

  constructor(bytes: Uint8Array) {
    this.bytes = bytes
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    if (bytes.length < 512) throw new Error("shorter than an OLE2 header")
    const shift = this.view.getUint16(0x1e, true)
    if (shift !== 9 && shift !== 12) throw new Error(`sector shift ${shift}`)
    this.sectorSize = 1 << shift
    this.fat = this.readFat()
    this.entries = this.readDirectory()
  }

  private sector(n: number): Uint8Array {
    const at = (n + 1) * this.sectorSize
    if (at >= this.bytes.length) throw new Error(`sector ${n} beyond the end of the file`)
    return this.bytes.subarray(at, at + this.sectorSize)
  }

  /** A sector read as little-endian 32-bit words (FAT, DIFAT and mini FAT sectors). */
  private words(n: number): Array<number> {
    const s = this.sector(n)
    const v = new DataView(s.buffer, s.byteOffset, s.byteLength)
    return Array.from({ length: Math.floor(s.length / 4) }, (_, i) => v.getUint32(i * 4, true))
  }

  /** Sector numbers of a chain; a loop or a chain longer than the file is damage (trait `corrupt`, oleloop.xls). */
  private chain(start: number, table: ReadonlyArray<number>): Array<number> {
    const out: Array<number> = []
    for (let s = start; s !== endOfChain; s = table[s] ?? endOfChain) {
      if (s >= table.length || out.length > table.length) throw new Error(brokenChain)
      out.push(s)
    }
    return out
  }

  /** The FAT: its sectors are listed by the header's 109 DIFAT slots, then by a chain of DIFAT sectors. */
  private readFat(): Array<number> {
    const fatSectors: Array<number> = []
    for (let i = 0; i < 109; i++) fatSectors.push(this.view.getUint32(0x4c + i * 4, true))
    const maxSectors = this.bytes.length / this.sectorSize
    for (let difat = this.view.getUint32(0x44, true), guard = 0; difat < endOfChain - 2 && guard < maxSectors; guard++) {
      const words = this.words(difat)
      // The last word of a DIFAT sector links to the next one.
      fatSectors.push(...words.slice(0, -1))
      difat = words.at(-1) ?? endOfChain
    }
    return fatSectors.slice(0, this.view.getUint32(0x2c, true)).flatMap((n) => this.words(n))
  }

  private readDirectory(): Array<DirectoryEntry> {
    const entries: Array<DirectoryEntry> = []
    const utf16 = new TextDecoder("utf-16le")
    for (const n of this.chain(this.view.getUint32(0x30, true), this.fat)) {
      const s = this.sector(n)
      const sv = new DataView(s.buffer, s.byteOffset, s.byteLength)
      for (let at = 0; at + 128 <= s.length; at += 128) {
        const nameBytes = Math.min(sv.getUint16(at + 0x40, true), 64)
        entries.push({
          name: utf16.decode(s.subarray(at, at + Math.max(nameBytes - 2, 0))),
          type: s[at + 0x42] ?? 0,
          start: sv.getUint32(at + 0x74, true),
          size: sv.getUint32(at + 0x78, true)
        })
      }
    }
    return entries
  }

  /** The first `limit` bytes of a stream, from regular sectors or from the mini stream. */
  read(entry: DirectoryEntry, limit: number): Uint8Array {
    const want = Math.min(entry.size, limit)
    const parts: Array<Uint8Array> = []
    let have = 0
    if (entry.size >= miniStreamCutoff) {
      for (const n of this.chain(entry.start, this.fat)) {
        if (have >= want) break
        const s = this.sector(n)
        parts.push(s)
        have += s.length
      }
    } else {
      const root = this.entries[0]
      if (root === undefined) throw new Error("no root entry")
      const container = this.chain(root.start, this.fat).map((n) => this.sector(n))
      const miniFat = this.chain(this.view.getUint32(0x3c, true), this.fat).flatMap((n) => this.words(n))
      const perSector = this.sectorSize / 64
      for (const m of this.chain(entry.start, miniFat)) {
        if (have >= want) break
        const s = container[Math.floor(m / perSector)]
        if (s === undefined) throw new Error("mini sector beyond the mini stream")
        const at = (m % perSector) * 64
        parts.push(s.subarray(at, at + 64))
        have += 64
      }
    }
    return Buffer.concat(parts).subarray(0, want)
  }
}

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

/**
 * Looks inside an OLE2 container: `encrypted` for an encrypted OOXML package
 * or a legacy file with its encryption flag, otherwise `legacy` (xls, doc,
 * ppt, or any OLE2 content Office may read). A container too damaged to walk
 * is `legacy` too: only Office can tell more (traits `corrupt`,
 * `damaged-structure`).
 */
export function inspectOle2(bytes: Uint8Array): Ole2Verdict {
  let file: CompoundFile
  try {
    file = new CompoundFile(bytes)
  } catch (e) {
    const message = (e as Error).message
    if (message === brokenChain) return { _tag: "corrupt", detail: `OLE2 container with a ${message} (a loop or a link past the table)` }
    return { _tag: "legacy", detail: `OLE2 container that cannot be walked (${message})` }
  }
  const streams = new Map<string, DirectoryEntry>()
  for (const entry of file.entries) {
    // Stream names compare case-insensitively (trait `odd-stream-name-case`: WORKBOOK, worddocument).
    if (entry.type === 2 && !streams.has(entry.name.toLowerCase())) streams.set(entry.name.toLowerCase(), entry)
  }
  for (const name of ["encryptedpackage", "encryptioninfo"]) {
    if (streams.has(name)) return { _tag: "encrypted", detail: "OLE2 container with an EncryptionInfo/EncryptedPackage stream (password-protected OOXML)" }
  }
  try {
    const workbook = streams.get("workbook") ?? streams.get("book")
    if (workbook !== undefined && workbookIsEncrypted(file.read(workbook, 1 << 16))) {
      return { _tag: "encrypted", detail: "legacy Excel workbook with a FILEPASS record" }
    }
    const word = streams.get("worddocument")
    if (word !== undefined) {
      const fib = file.read(word, 12)
      // FIB flags at offset 10: bit 8 is fEncrypted (Word 6 and later).
      if (fib.length >= 12 && ((fib[11] ?? 0) & 0x01) !== 0) return { _tag: "encrypted", detail: "legacy Word document with the fEncrypted flag" }
    }
    const currentUser = streams.get("current user")
    if (currentUser !== undefined || streams.has("encryptedsummary")) {
      const atom = currentUser === undefined ? new Uint8Array() : file.read(currentUser, 16)
      const token = atom.length >= 16 ? new DataView(atom.buffer, atom.byteOffset).getUint32(12, true) : 0
      if (token === 0xf3d1c4df || streams.has("encryptedsummary")) {
        return { _tag: "encrypted", detail: "legacy PowerPoint presentation with an encrypted CurrentUserAtom" }
      }
    }
  } catch (e) {
    return { _tag: "legacy", detail: `OLE2 container with damaged streams (${(e as Error).message})` }
  }
  const kinds = [...streams.keys()].filter((n) => ["workbook", "book", "worddocument", "powerpoint document"].includes(n))
  return { _tag: "legacy", detail: `legacy OLE2 file (${kinds.length > 0 ? kinds.join(", ") : "unknown streams"})` }
}
