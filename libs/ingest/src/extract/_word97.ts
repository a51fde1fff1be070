/**
 * Text of a Word 97–2003 document (.doc, .dot; MS-DOC) from its streams,
 * without Office (SPEC W3: the plain workers read it first), and of Word
 * 6.0/95 and Word for Windows 2.0 files (issue 20). The FIB at the
 * start of the `WordDocument` stream says where the piece table (CLX) sits
 * in the table stream (`0Table` or `1Table`) and how long each story is; the
 * pieces give the characters (8-bit "compressed" or UTF-16LE), and the
 * stories split into the same locators as the docx path (`_document.ts`):
 * main-text paragraphs by number, then `header` / `footer`, `footnote:<n>`,
 * `endnote:<n>`, `comment:<n>`, and `textbox` for the text-box stories
 * (which a .doc keeps apart from the paragraphs that anchor them).
 *
 * What Word shows is the text: a field's result, never its code; pictures and
 * drawn objects (0x01, 0x08) are no text; a line break, tab or page break
 * separates words; an optional hyphen is invisible and a non-breaking one a
 * hyphen (as `_word_text.ts` does for docx); a phonetic guide (an EQ field)
 * shows its base text. Paragraphs are numbered as the docx path numbers them:
 * a table row's end mark, a paragraph of its own in a .doc, is not counted.
 *
 * Word 6/95 and Word 2 keep the same stories and piece table in an older
 * FIB (wvWare's `wvGetFIB6` / `wvGetFIB2`): their tables lie in the
 * WordDocument stream (Word 2 has no OLE2 container: the file is that
 * stream), every piece is 8-bit text in the code page of the Windows
 * language the FIB's `lid` names (Shift_JIS for Japanese, whose CPs count
 * bytes), and a file saved whole has no piece table: its text is bytes
 * `[fcMin, fcMac)`. Their header story is read as `header` throughout
 * (which of its stories are footers the sections' flags say, not read) and
 * their table rows are counted as paragraphs (their paragraph properties
 * have another layout).
 *
 * Files this reader does not read fail `needs-office` so that the file is
 * rerouted to the document owner (R14): other FIBs (Word for DOS or the
 * Mac, an unknown nFib), a Word 97 FIB without a piece table. Damage that
 * no reader gets past (a piece outside its stream, pieces that overlap so
 * the text outgrows the stream) fails `corrupt`; encryption (`fEncrypted`)
 * fails `encrypted`.
 *
 * @module
 */
import type { BodyLine } from "@sagasu/domain"
import { ExtractError } from "./extract_error.ts"
import type { LineBudget } from "./_limits.ts"
import { byteDecoder, charsetPages, codePageOfLanguage, isLeadByte } from "./_codepage.ts"
import type { ZipSource } from "./_zip.ts"

/** The streams of a .doc the reader needs; `table` is asked for `0Table` or `1Table` as the FIB says. */
export interface Word97Streams {
  /** The `WordDocument` stream, read by positioned reads (the FIB, then the pieces' characters slice by slice). */
  readonly wordDocument: ZipSource
  readonly table: (name: "0Table" | "1Table") => Uint8Array | undefined
  /** The `Data` stream, read by positioned reads, where a paragraph whose properties do not fit its page keeps them (sprmPHugePapx). */
  readonly data?: ZipSource | undefined
}

const corrupt = (detail: string) => new ExtractError({ reason: "corrupt", detail: `Word document: ${detail}` })
const needsOffice = (detail: string) => new ExtractError({ reason: "needs-office", detail: `Word document (WordDocument stream): ${detail}`, app: "document" })

/** The FIB's `wIdent` of Word 97 and later. */
const wordIdent = 0xa5ec
/** The FIB's `wIdent` of Word 6 and Word 95. */
const word6Ident = 0xa5dc
/** The FIB's `wIdent` of Word for Windows 2.0, a file without an OLE2 container. */
export const word2Ident = 0xa5db
/** Word 97's nFib; Word 6 (101) and Word 95 (104) have another FIB layout. */
const word97nFib = 0xc1
/** nFib values below Word 97's that some writers still put in Word 97 FIBs (betas and converters). */
const lowestWord97nFib = 0xc0
/** nFib of Word 6 (101) to Word 95 (104; 105 from some converters), with {@link word6Ident}: Word 6's FIB layout. */
const word6nFibs = { lowest: 101, highest: 105 } as const
/** Bytes of the WordDocument stream read for the FIB: Word 2007's is about 1,500. */
const fibBytes = 4096

/** Indices of the FibRgFcLcb97 pairs this reader uses (MS-DOC 2.5.6). */
const fcLcb = { plcffndTxt: 3, plcfandTxt: 5, plcfHdd: 11, plcfBtePapx: 13, sttbfffn: 15, clx: 33, plcfendTxt: 47 } as const

/** A pair of the FIB this reader uses. */
type FibPair = keyof typeof fcLcb

/**
 * Where Word 6/95 and Word 2 keep the same pairs: their FIBs list the first
 * 38 in Word 97's order from byte 0x58, 8 bytes a pair (Word 6) or 6 (Word 2:
 * a 4-byte fc and a 2-byte lcb); Word 6's endnotes come later, after fields
 * of other sizes (wvWare's `wvGetFIB6`). Word 2 has no endnotes.
 */
const oldPairs: Record<2 | 6, Partial<Record<FibPair, number>>> = {
  6: { plcffndTxt: 0x58 + 3 * 8, plcfandTxt: 0x58 + 5 * 8, plcfHdd: 0x58 + 11 * 8, plcfBtePapx: 0x58 + 13 * 8, sttbfffn: 0x58 + 15 * 8, clx: 0x58 + 33 * 8, plcfendTxt: 0x1da },
  2: { plcffndTxt: 0x58 + 3 * 6, plcfandTxt: 0x58 + 5 * 6, plcfHdd: 0x58 + 11 * 6, plcfBtePapx: 0x58 + 13 * 6, clx: 0x58 + 33 * 6 }
}

/** The story lengths of FibRgLw97, in CPs, in the order the stories follow each other in CP space. */
interface Stories {
  readonly text: number
  readonly ftn: number
  readonly hdd: number
  readonly mcr: number
  readonly atn: number
  readonly edn: number
  readonly txbx: number
  readonly hdrTxbx: number
}

/** What the FIB says (MS-DOC 2.5.1; Word 6/95 and Word 2 as wvWare reads them). */
export interface Fib {
  /** The FIB's layout: 8 for Word 97 and later, 6 for Word 6 and Word 95, 2 for Word for Windows 2.0. */
  readonly version: 2 | 6 | 8
  readonly nFib: number
  readonly encrypted: boolean
  readonly complex: boolean
  /** Word 97: the table stream the FIB names. Word 6/95 and Word 2 keep their tables in the WordDocument stream (the file itself for Word 2). */
  readonly tableStream: "0Table" | "1Table"
  readonly stories: Stories
  /**
   * Word 6/95 and Word 2: the code page of the Windows language the FIB's
   * `lid` names (932 for Japanese), Mac Roman for a Macintosh file (`chse`
   * 256); the text's page is decided with the font table
   * ({@link textCodePage}). Word 97's 8-bit text is always cp1252.
   */
  readonly codePage: number
  /** Word 6/95 and Word 2: a Macintosh file (`chse` 256). */
  readonly mac: boolean
  /** Word 6/95 and Word 2: the text of a file saved whole (no piece table) is bytes `[fcMin, fcMac)` of the WordDocument stream. */
  readonly fcMin: number
  readonly fcMac: number
  /** `[fc, lcb]` of a pair of FibRgFcLcb, `undefined` where the FIB has none. */
  readonly pair: (name: FibPair) => readonly [fc: number, lcb: number] | undefined
}

/**
 * Reads the FIB of a `WordDocument` stream (or of a Word 2 file): Word 97
 * and later, Word 6/95 (nFib 101–105) and Word 2 (`wIdent` 0xA5DB). Throws
 * `needs-office` for any other FIB (Word for DOS or the Mac, an unknown
 * identifier), `corrupt` for a truncated one.
 */
export function readFib(stream: Uint8Array): Fib {
  if (stream.length < 0x22) throw corrupt(`the FIB is cut short (${stream.length} bytes)`)
  const v = new DataView(stream.buffer, stream.byteOffset, stream.byteLength)
  const ident = v.getUint16(0, true)
  const nFib = v.getUint16(2, true)
  const flags = v.getUint16(0x0a, true)
  const encrypted = (flags & 0x0100) !== 0
  const complex = (flags & 0x0004) !== 0
  const word6 = ident === word6Ident && nFib >= word6nFibs.lowest && nFib <= word6nFibs.highest
  if (word6 || ident === word2Ident) return readOldFib(v, word6 ? 6 : 2, nFib, encrypted, complex)
  if (ident !== wordIdent) throw needsOffice(`FIB identifier 0x${ident.toString(16)} with nFib ${nFib} is not Word 2's, Word 6/95's or Word 97's`)
  // Encryption is decided first: an encrypted file's other fields are still readable, its text is not.
  if (encrypted) return { version: 8, nFib, encrypted, complex: false, tableStream: "0Table", stories: emptyStories, codePage: 1252, mac: false, fcMin: 0, fcMac: 0, pair: () => undefined }
  if (nFib < lowestWord97nFib) throw needsOffice(`nFib ${nFib}, neither Word 6/95's (${word6nFibs.lowest}–${word6nFibs.highest}) nor Word 97's (${word97nFib})`)
  let at = 0x20
  const u16 = () => {
    if (at + 2 > stream.length) throw corrupt("the FIB is cut short")
    const n = v.getUint16(at, true)
    at += 2
    return n
  }
  const csw = u16()
  at += csw * 2
  const cslw = u16()
  if (cslw < 11) throw needsOffice(`a FIB with ${cslw} long words (Word 97 has 22)`)
  if (at + cslw * 4 > stream.length) throw corrupt("the FIB is cut short")
  const lw = (i: number) => v.getInt32(at + i * 4, true)
  const stories: Stories = { text: lw(3), ftn: lw(4), hdd: lw(5), mcr: lw(6), atn: lw(7), edn: lw(8), txbx: lw(9), hdrTxbx: lw(10) }
  checkStories(stories)
  at += cslw * 4
  const cbRgFcLcb = u16()
  const blob = at
  const pairs = Math.min(cbRgFcLcb, Math.floor((stream.length - blob) / 8))
  const pair = (name: FibPair): readonly [number, number] | undefined => {
    const i = fcLcb[name]
    return i < pairs ? [v.getUint32(blob + i * 8, true), v.getUint32(blob + i * 8 + 4, true)] : undefined
  }
  if (pairs <= fcLcb.clx) throw corrupt(`the FIB is cut short before its piece-table pointer (${pairs} pairs)`)
  return { version: 8, nFib, encrypted, complex, tableStream: (flags & 0x0200) !== 0 ? "1Table" : "0Table", stories, codePage: 1252, mac: false, fcMin: 0, fcMac: 0, pair }
}

/** A story length below zero is damage. */
function checkStories(stories: Stories): void {
  for (const [name, n] of Object.entries(stories)) if (n < 0) throw corrupt(`the FIB's ccp of the ${name} story is negative (${n})`)
}

/** The Mac's character set in a Word 6/95 or Word 2 FIB's `chse` (0 is Windows ANSI). */
const chseMacintosh = 256

/**
 * The FIB of Word 6/95 or Word 2 (`v`'s first bytes): fixed offsets, the
 * story lengths from byte 0x34 in Word 97's order (Word 2 has no endnote or
 * text-box stories), the pairs as {@link oldPairs} places them.
 */
function readOldFib(v: DataView, version: 2 | 6, nFib: number, encrypted: boolean, complex: boolean): Fib {
  const length = v.byteLength
  if (length < 0x58) throw corrupt(`the Word ${version === 6 ? "6/95" : "2"} FIB is cut short (${length} bytes)`)
  const lw = (at: number) => v.getInt32(at, true)
  const stories: Stories =
    version === 6
      ? { text: lw(0x34), ftn: lw(0x38), hdd: lw(0x3c), mcr: lw(0x40), atn: lw(0x44), edn: lw(0x48), txbx: lw(0x4c), hdrTxbx: lw(0x50) }
      : { text: lw(0x34), ftn: lw(0x38), hdd: lw(0x3c), mcr: lw(0x40), atn: lw(0x44), edn: 0, txbx: 0, hdrTxbx: 0 }
  checkStories(stories)
  const lid = v.getUint16(0x06, true)
  const chse = v.getUint16(0x14, true)
  const offsets = oldPairs[version]
  const pairBytes = version === 6 ? 8 : 6
  const pair = (name: FibPair): readonly [number, number] | undefined => {
    const at = offsets[name]
    if (at === undefined || at + pairBytes > length) return undefined
    return [v.getUint32(at, true), version === 6 ? v.getUint32(at + 4, true) : v.getUint16(at + 4, true)]
  }
  return {
    version,
    nFib,
    encrypted,
    complex,
    tableStream: "0Table",
    stories,
    codePage: chse === chseMacintosh ? 10000 : codePageOfLanguage(lid),
    mac: chse === chseMacintosh,
    fcMin: v.getUint32(0x18, true),
    fcMac: v.getUint32(0x1c, true),
    pair
  }
}

const emptyStories: Stories = { text: 0, ftn: 0, hdd: 0, mcr: 0, atn: 0, edn: 0, txbx: 0, hdrTxbx: 0 }

/** One piece of the piece table: CPs `[cp, cpEnd)` stored at byte `fc` of the WordDocument stream. */
interface Piece {
  readonly cp: number
  readonly cpEnd: number
  readonly fc: number
  readonly compressed: boolean
}

/**
 * The pieces of the CLX at `[fc, fc + lcb)` of the table stream (MS-DOC
 * 2.9.38): any Prc (property modifiers, skipped), then the Pcdt. In Word
 * 6/95 and Word 2 (`eightBit`) a piece's fc is its byte offset and every
 * piece is 8-bit text.
 */
export function readPieces(table: Uint8Array, fc: number, lcb: number, documentBytes: number, eightBit = false): ReadonlyArray<Piece> {
  if (lcb === 0) throw needsOffice("the FIB names no piece table")
  if (fc + lcb > table.length) throw corrupt(`the piece table (${lcb} bytes at ${fc}) lies outside the table stream (${table.length} bytes)`)
  const v = new DataView(table.buffer, table.byteOffset, table.byteLength)
  const end = fc + lcb
  let at = fc
  while (at < end && table[at] === 0x01) {
    if (at + 3 > end) throw corrupt("a property modifier of the piece table is cut short")
    at += 3 + Math.max(0, v.getInt16(at + 1, true))
  }
  if (at + 5 > end || table[at] !== 0x02) throw corrupt(`no piece descriptor table in the CLX (byte 0x${(table[at] ?? 0).toString(16)} at ${at})`)
  const size = v.getUint32(at + 1, true)
  at += 5
  if (size > end - at || size < 4 || (size - 4) % 12 !== 0) throw corrupt(`the piece descriptor table's size ${size} does not fit the CLX`)
  const n = (size - 4) / 12
  const pieces: Array<Piece> = []
  let bytes = 0
  for (let i = 0; i < n; i++) {
    const cp = v.getUint32(at + i * 4, true)
    const cpEnd = v.getUint32(at + (i + 1) * 4, true)
    if (cpEnd < cp) throw corrupt(`piece ${i} ends before it starts (CP ${cp}–${cpEnd})`)
    const raw = v.getUint32(at + (n + 1) * 4 + i * 8 + 2, true)
    const compressed = eightBit || (raw & 0x40000000) !== 0
    const fcPiece = eightBit ? raw : compressed ? (raw & 0x3fffffff) / 2 : raw & 0x3fffffff
    const length = (cpEnd - cp) * (compressed ? 1 : 2)
    if (fcPiece + length > documentBytes) {
      throw corrupt(`piece ${i} (${cpEnd - cp} characters at byte ${fcPiece}) lies outside the WordDocument stream (${documentBytes} bytes)`)
    }
    // A real file stores each character once; overlapping pieces would let a small file claim endless text.
    bytes += length
    if (bytes > documentBytes) throw corrupt("the pieces hold more text than the WordDocument stream (overlapping pieces)")
    if (i > 0 && cp !== pieces[i - 1]?.cpEnd) throw corrupt(`piece ${i} does not follow piece ${i - 1} (CP ${cp})`)
    pieces.push({ cp, cpEnd, fc: fcPiece, compressed })
  }
  return pieces
}

/** MS-DOC 2.4.1: compressed (8-bit) characters are their own code points except these, Word's cp1252 subset. */
const compressedExceptions: ReadonlyMap<string, string> = new Map(
  [
    [0x82, 0x201a], [0x83, 0x0192], [0x84, 0x201e], [0x85, 0x2026], [0x86, 0x2020], [0x87, 0x2021], [0x88, 0x02c6],
    [0x89, 0x2030], [0x8a, 0x0160], [0x8b, 0x2039], [0x8c, 0x0152], [0x91, 0x2018], [0x92, 0x2019], [0x93, 0x201c],
    [0x94, 0x201d], [0x95, 0x2022], [0x96, 0x2013], [0x97, 0x2014], [0x98, 0x02dc], [0x99, 0x2122], [0x9a, 0x0161],
    [0x9b, 0x203a], [0x9c, 0x0153], [0x9f, 0x0178]
  ].map(([byte, code]) => [String.fromCharCode(byte ?? 0), String.fromCharCode(code ?? 0)] as const)
)

/**
 * The characters of a compressed piece's bytes: Latin-1 (one call, no table
 * per character; Node's TextDecoder("windows-1252") is Latin-1 too), then
 * the exceptions where there are any.
 */
function decodeCompressed(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1")
  return /[\u0080-\u009f]/.test(text) ? text.replace(/[\u0080-\u009f]/g, (c) => compressedExceptions.get(c) ?? c) : text
}

const utf16 = new TextDecoder("utf-16le")
/** Characters of a piece read at once: the WordDocument stream is never held whole. */
const sliceChars = 1 << 16

/** A slice of a story's characters, and where its first one is stored: byte `fc` of the WordDocument stream, `step` bytes a character. */
interface Chunk {
  readonly text: string
  readonly fc: number
  readonly step: 1 | 2
}

/**
 * How 8-bit pieces decode: Word 97's "compressed" cp1252 subset, or for
 * Word 6/95 and Word 2 the file's code page, whose double-byte characters
 * (Shift_JIS in a Japanese file) must not be cut between two slices.
 */
interface EightBit {
  readonly decode: (bytes: Uint8Array) => string
  readonly codePage: number
}

const word97EightBit: EightBit = { decode: decodeCompressed, codePage: 1252 }

/** The characters of CPs `[from, to)`, read and decoded piece by piece in slices, in order. */
function* chunks(doc: ZipSource, pieces: ReadonlyArray<Piece>, from: number, to: number, eightBit: EightBit): Generator<Chunk, void, undefined> {
  // The first piece that ends after `from`, by halving: each note of a story starts a walk (40,000 pieces × 100,000 notes took 72 s).
  let lo = 0
  let hi = pieces.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((pieces[mid]?.cpEnd ?? 0) <= from) lo = mid + 1
    else hi = mid
  }
  for (let p = lo; p < pieces.length; p++) {
    const piece = pieces[p] as Piece
    if (piece.cpEnd <= from) continue
    if (piece.cp >= to) break
    const first = Math.max(from, piece.cp) - piece.cp
    const last = Math.min(to, piece.cpEnd) - piece.cp
    for (let a = first; a < last; ) {
      let b = Math.min(last, a + sliceChars)
      if (piece.compressed) {
        let bytes = doc.read(piece.fc + a, piece.fc + b)
        if (b < last && endsInLeadByte(bytes, eightBit.codePage)) {
          b -= 1
          bytes = bytes.subarray(0, bytes.length - 1)
        }
        yield { text: eightBit.decode(bytes), fc: piece.fc + a, step: 1 }
      } else {
        yield { text: utf16.decode(doc.read(piece.fc + a * 2, piece.fc + b * 2)), fc: piece.fc + a * 2, step: 2 }
      }
      a = b
    }
  }
}

/** Does `bytes` (which starts at a character) end with the first byte of a double-byte character of `codePage`? */
function endsInLeadByte(bytes: Uint8Array, codePage: number): boolean {
  if (!isLeadByte(codePage, 0x81)) return false
  let i = 0
  while (i < bytes.length) i += isLeadByte(codePage, bytes[i] ?? 0) ? 2 : 1
  return i > bytes.length
}

/**
 * Tells the table-row marks among the paragraph marks (MS-DOC 2.4.3): a
 * row's end is a paragraph of its own in a .doc, whose properties (PAPX, in
 * the FKP pages the PlcfBtePapx lists) carry sprmPFTtp or sprmPFInnerTtp; a
 * docx has no such paragraph, so these are not counted and the paragraph
 * numbers stay the docx path's. Anything unreadable here counts as an
 * ordinary mark: the numbers may then run ahead, the text is the same.
 */
class RowMarks {
  private readonly bounds: ReadonlyArray<number>
  private readonly pages: ReadonlyArray<number>
  private readonly fkps = new Map<number, { readonly fcs: ReadonlyArray<number>; readonly rowEnd: ReadonlyArray<boolean> }>()
  private readonly doc: ZipSource
  private readonly data: ZipSource | undefined

  constructor(doc: ZipSource, data: ZipSource | undefined, table: Uint8Array, pair: readonly [number, number] | undefined) {
    this.doc = doc
    this.data = data
    const [fc, lcb] = pair ?? [0, 0]
    const n = (lcb - 4) / 8
    if (lcb < 12 || !Number.isInteger(n) || fc + lcb > table.length) {
      this.bounds = []
      this.pages = []
      return
    }
    const v = new DataView(table.buffer, table.byteOffset + fc, lcb)
    this.bounds = Array.from({ length: n + 1 }, (_, i) => v.getUint32(i * 4, true))
    this.pages = Array.from({ length: n }, (_, i) => v.getUint32((n + 1) * 4 + i * 4, true) & 0x3fffff)
  }

  /** Is the paragraph mark stored at byte `fc` of the WordDocument stream a table row's end? */
  isRowEnd(fc: number): boolean {
    const i = lastAtMost(this.bounds, fc)
    const page = i === undefined || i >= this.pages.length ? undefined : this.pages[i]
    if (page === undefined) return false
    const fkp = this.fkp(page)
    const j = lastAtMost(fkp.fcs, fc)
    return j !== undefined && fkp.rowEnd[j] === true
  }

  private fkp(page: number) {
    let fkp = this.fkps.get(page)
    if (fkp === undefined) {
      fkp = readPapxFkp(page * 512 + 512 <= this.doc.size ? this.doc.read(page * 512, page * 512 + 512) : new Uint8Array(), this.data)
      this.fkps.set(page, fkp)
    }
    return fkp
  }
}

/** The index of the last of the ascending `xs` that is ≤ `x` (undefined when none is, or `x` is past the last bound). */
function lastAtMost(xs: ReadonlyArray<number>, x: number): number | undefined {
  if (xs.length < 2 || x < (xs[0] ?? 0) || x >= (xs[xs.length - 1] ?? 0)) return undefined
  let lo = 0
  let hi = xs.length - 1
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    if ((xs[mid] ?? 0) <= x) lo = mid
    else hi = mid
  }
  return lo
}

const sprmPFTtp = 0x2417
const sprmPFInnerTtp = 0x244c

const sprmPHugePapx = 0x6646

/** Does this grpprl (sprms from `start` to `end` of `bytes`) mark a table row's end? A sprmPHugePapx sends the reader to the Data stream's copy. */
function grpprlIsRowEnd(bytes: Uint8Array, start: number, end: number, data: ZipSource | undefined, huge: boolean): boolean {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let p = start; p + 2 <= end; ) {
    const sprm = v.getUint16(p, true)
    p += 2
    if ((sprm === sprmPFTtp || sprm === sprmPFInnerTtp) && p < end) return bytes[p] !== 0
    if (sprm === sprmPHugePapx && !huge && data !== undefined && p + 4 <= end) {
      const at = v.getUint32(p, true)
      if (at + 2 > data.size) return false
      const head = data.read(at, at + 2)
      const cb = (head[0] ?? 0) | ((head[1] ?? 0) << 8)
      const grpprl = data.read(at + 2, Math.min(data.size, at + 2 + cb))
      return grpprlIsRowEnd(grpprl, 0, grpprl.length, data, true)
    }
    p += operandBytes(sprm, bytes, p)
  }
  return false
}

/** A PapxFkp page (MS-DOC 2.9.175): the FCs of its runs and, for each, whether its paragraph is a table row's end. */
function readPapxFkp(page: Uint8Array, data: ZipSource | undefined): { readonly fcs: ReadonlyArray<number>; readonly rowEnd: ReadonlyArray<boolean> } {
  if (page.length !== 512) return { fcs: [], rowEnd: [] }
  const v = new DataView(page.buffer, page.byteOffset, 512)
  const crun = page[511] ?? 0
  if (crun === 0 || (crun + 1) * 4 + crun * 13 > 511) return { fcs: [], rowEnd: [] }
  const fcs = Array.from({ length: crun + 1 }, (_, i) => v.getUint32(i * 4, true))
  const rowEnd = Array.from({ length: crun }, (_, i) => {
    const at = (page[(crun + 1) * 4 + i * 13] ?? 0) * 2
    if (at === 0 || at >= 511) return false
    const cb = page[at] ?? 0
    const start = cb === 0 ? at + 2 : at + 1
    const end = Math.min(511, cb === 0 ? start + 2 * (page[at + 1] ?? 0) : start + 2 * cb - 1)
    // GrpPrlAndIstd: the style (2 bytes), then the sprms.
    return grpprlIsRowEnd(page, start + 2, end, data, false)
  })
  return { fcs, rowEnd }
}

/** The size of a sprm's operand at `at` (MS-DOC 2.2.5.1: from the sprm's spra bits, or the operand's own size byte). */
function operandBytes(sprm: number, bytes: Uint8Array, at: number): number {
  switch (sprm >>> 13) {
    case 0:
    case 1:
      return 1
    case 2:
    case 4:
    case 5:
      return 2
    case 3:
      return 4
    case 7:
      return 3
    default:
      // sprmTDefTable gives its size in two bytes, one more than it is; the others in one.
      if (sprm === 0xd608) return 1 + ((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8))
      return 1 + (bytes[at] ?? 0)
  }
}

/** A paragraph of a story: its 1-based number in the story (empty ones count) and its text. */
interface Paragraph {
  readonly number: number
  readonly text: string
}

/** A growing paragraph is held against the budget each time it has grown by this many characters. */
const holdStep = 1 << 20

/** Fields nest this deep at most; deeper ones count as code (real documents nest a few levels). */
const maxFieldDepth = 256
/** Characters of a field's code kept (to read an EQ field); the rest of a longer code is dropped. */
const maxCodeChars = 4096

/**
 * The text Word shows for a field that has no result: an `EQ` field that
 * sets a phonetic guide (`EQ \* jc2 … \o\ad(\s\up 10(とうきょう),東京)`, how
 * Word 97 stores ruby) shows its base text; the reading is left out as the
 * docx path leaves out `w:rt` (BUG-09). Other fields without a result show
 * nothing.
 */
export function fieldWithoutResult(code: string): string {
  if (!/^\s*EQ\b/i.test(code)) return ""
  const ruby = /\\o\s*(?:\\a[dlcr]\s*)?\(\s*\\s\s*\\up\s*-?\d+\s*\((.*)\)\s*,(.*)\)\s*$/s.exec(code)
  return ruby?.[2] ?? ""
}

/**
 * Word's view of the characters of one story: paragraphs end at 0x0D, a
 * table cell or row mark (0x07) and a section break (0x0C); a field
 * (0x13 code 0x14 result 0x15, nested) shows its result only.
 */
class StoryReader {
  private paragraphs: Array<Paragraph> = []
  private text = ""
  /** Characters of {@link text} already held against the budget. */
  private held = 0
  private count = 0
  /** For each open field: still in its code (before 0x14)?, and the start of its code. */
  private readonly fields: Array<{ inCode: boolean; code: string }> = []
  private inCode = 0
  /** Fields opened past {@link maxFieldDepth}, not tracked. */
  private overflow = 0

  private readonly budget: LineBudget
  private readonly where: string

  private readonly rows: RowMarks | undefined

  constructor(budget: LineBudget, where: string, rows?: RowMarks) {
    this.budget = budget
    this.where = where
    this.rows = rows
  }

  /** Text shown, or code of the innermost field. */
  private add(text: string): void {
    if (this.overflow > 0) return
    if (this.inCode === 0) {
      this.text += text
      // A paragraph is held against the file's budget as it grows, not only at its end (issue 20: bounded memory).
      if (this.text.length - this.held >= holdStep) {
        this.budget.hold(this.where, this.text.length - this.held)
        this.held = this.text.length
      }
      return
    }
    const field = this.fields.at(-1)
    if (field !== undefined && field.inCode && field.code.length < maxCodeChars) field.code += text
  }

  feed({ text: raw, fc, step }: Chunk): void {
    // Tabs and vertical tabs separate words, hyphens stay hyphens: mapped in place (same length, so fc still
    // follows i), a run of them stays one slice (a paragraph of 16 MB of tabs took 700 MB as one string each).
    const chunk = /[\t\v\x1e\u2011]/.test(raw) ? raw.replace(/[\t\v]/g, " ").replace(/[\x1e\u2011]/g, "-") : raw
    let run = 0 // start of the pending run of plain characters
    const flush = (i: number) => {
      if (i > run) this.add(chunk.slice(run, i))
      run = i + 1
    }
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i)
      if (c >= 0x20 && c !== 0xad && c !== 0x7f && (c < 0x80 || c > 0x9f)) continue
      flush(i)
      switch (c) {
        case 0x0d:
        case 0x07:
          this.endParagraph(this.rows?.isRowEnd(fc + i * step) !== true)
          break
        case 0x0c:
          this.endParagraph()
          break
        case 0x13:
          if (this.fields.length >= maxFieldDepth || this.overflow > 0) {
            this.overflow++
          } else {
            this.fields.push({ inCode: true, code: "" })
            this.inCode++
          }
          break
        case 0x14: {
          const field = this.fields.at(-1)
          if (this.overflow === 0 && field?.inCode === true) {
            field.inCode = false
            this.inCode--
          }
          break
        }
        case 0x15: {
          if (this.overflow > 0) {
            this.overflow--
            break
          }
          const field = this.fields.pop()
          if (field?.inCode === true) {
            this.inCode--
            this.add(fieldWithoutResult(field.code))
          }
          break
        }
        default:
        // 0x01 picture, 0x02 note reference, 0x05 comment mark, 0x08 drawn object, 0x1F and U+00AD optional hyphens: nothing shown
        // as text; nor the other control characters (DEL, C1: a Word 6 file's cp1252 holes), which must not reach a terminal.
      }
    }
    flush(chunk.length)
  }

  /** Ends the current paragraph; `counted` is false for a table row's end, which is no paragraph in a docx. */
  endParagraph(counted = true): void {
    if (counted) this.count++
    const text = this.text
    const held = this.held
    this.text = ""
    this.held = 0
    if (text.trim() === "") {
      this.budget.release(held)
      return
    }
    this.budget.take(this.where, text.length - held)
    this.paragraphs.push({ number: this.count, text })
  }

  /** Ends a story that does not end with a paragraph mark (damage, or a story cut by its CP range). */
  finish(): void {
    if (this.text !== "") this.endParagraph()
  }

  /** The paragraphs ended since the last call. */
  take(): ReadonlyArray<Paragraph> {
    const out = this.paragraphs
    this.paragraphs = []
    return out
  }
}

/** CP boundaries of a PLC at `[fc, fc + lcb)` of the table stream whose data items are `itemBytes` long (0 for a PLC of CPs only). */
function plcCps(table: Uint8Array, pair: readonly [number, number] | undefined, itemBytes: number): ReadonlyArray<number> | undefined {
  if (pair === undefined) return undefined
  const [fc, lcb] = pair
  if (lcb < 4 || fc + lcb > table.length) return undefined
  const n = itemBytes === 0 ? lcb / 4 - 1 : (lcb - 4) / (4 + itemBytes)
  if (!Number.isInteger(n) || n < 0) return undefined
  const v = new DataView(table.buffer, table.byteOffset + fc, lcb)
  return Array.from({ length: n + 1 }, (_, i) => v.getUint32(i * 4, true))
}

/** The table structures of a FIB: `structure(name)` is the bytes holding the pair `name` names and where in them it lies. */
interface Tables {
  readonly structure: (name: FibPair) => readonly [bytes: Uint8Array, pair: readonly [number, number]] | undefined
}

/**
 * Word 97: the table stream the FIB names, whole (`corrupt` when missing).
 * Word 6/95 and Word 2: each structure read from the WordDocument stream
 * where the FIB says, only when asked (a structure outside the stream is
 * none).
 */
function tablesOf(fib: Fib, streams: Word97Streams): Tables {
  if (fib.version === 8) {
    const table = streams.table(fib.tableStream)
    if (table === undefined) throw corrupt(`the ${fib.tableStream} stream the FIB names is missing`)
    return {
      structure: (name) => {
        const pair = fib.pair(name)
        return pair === undefined ? undefined : [table, pair]
      }
    }
  }
  const doc = streams.wordDocument
  return {
    structure: (name) => {
      const [fc, lcb] = fib.pair(name) ?? [0, 0]
      if (lcb === 0 || fc + lcb > doc.size || lcb > maxOldStructureBytes) return undefined
      return [doc.read(fc, fc + lcb), [0, lcb]]
    }
  }
}

/** A Word 6/95 or Word 2 table structure larger than this is damage (a piece table of 1 M pieces is 8 MB, a PLC of 1 M notes 4 MB). */
const maxOldStructureBytes = 16 * 1024 ** 2

/**
 * The pieces of the text: the piece table, or in Word 6/95 and Word 2
 * saved whole (not `complex`, no CLX) one 8-bit piece of bytes
 * `[fcMin, fcMac)`.
 */
function piecesOf(fib: Fib, tables: Tables, documentBytes: number): ReadonlyArray<Piece> {
  const clx = tables.structure("clx")
  if (fib.version === 8) {
    const [table, [fc, lcb]] = clx ?? [new Uint8Array(), [0, 0]]
    return readPieces(table, fc, lcb, documentBytes)
  }
  if (clx !== undefined) return readPieces(clx[0], clx[1][0], clx[1][1], documentBytes, true)
  if (fib.complex) throw corrupt("a Word 6/95 or Word 2 file saved in pieces names no piece table")
  if (fib.fcMac < fib.fcMin || fib.fcMac > documentBytes) {
    throw corrupt(`the text (bytes ${fib.fcMin}–${fib.fcMac}) lies outside the WordDocument stream (${documentBytes} bytes)`)
  }
  return [{ cp: 0, cpEnd: fib.fcMac - fib.fcMin, fc: fib.fcMin, compressed: true }]
}

/**
 * The code page of a Word 6/95 or Word 2 file's text: a Mac file's Mac
 * Roman; else the page of the FIB's language when that is not Western;
 * else the page of the first font whose character set names one other than
 * ANSI (a Czech or Russian text written by an English Word: its fonts say
 * EASTEUROPE or RUSSIAN, as Apache POI guesses); else windows-1252.
 * LibreOffice follows each run's font; one page a document is what this
 * reader can tell without the character properties.
 */
function textCodePage(fib: Fib, tables: Tables): number {
  if (fib.mac || fib.codePage !== 1252) return fib.codePage
  const fonts = fib.version === 6 ? tables.structure("sttbfffn") : undefined
  if (fonts === undefined) return 1252
  const [bytes, [fc, lcb]] = fonts
  // STTBF of FFN (Word 6): its byte count, then each font: cbFfnM1, flags, wWeight (2), chs, ixchSzAlt, name.
  const end = Math.min(fc + lcb, fc + ((bytes[fc] ?? 0) | ((bytes[fc + 1] ?? 0) << 8)), bytes.length)
  for (let at = fc + 2; at + 6 <= end; at += (bytes[at] ?? 0) + 1) {
    const page = charsetPages.get(bytes[at + 4] ?? 0)
    if (page !== undefined && page !== 1252) return page
  }
  return 1252
}

/** CP boundaries of a PLC of CPs only, from {@link Tables.structure}. */
const plcCpsOf = (structure: readonly [Uint8Array, readonly [number, number]] | undefined) =>
  structure === undefined ? undefined : plcCps(structure[0], structure[1], 0)

/**
 * Reads the text of a .doc from its streams (see the module): the FIB and
 * the piece table at once, then the stories as the lines are pulled, in the
 * order the docx path gives them: main text, text boxes, headers, footers,
 * footnotes, endnotes, comments. Throws an {@link ExtractError} (`encrypted`,
 * `needs-office`, `corrupt`), and while iterated `corrupt` or `too-large`
 * from `budget`.
 */
export function readWord97(streams: Word97Streams, budget: LineBudget): Iterator<BodyLine, void, undefined> {
  const doc = streams.wordDocument
  const fib = readFib(doc.read(0, Math.min(doc.size, fibBytes)))
  if (fib.encrypted) throw new ExtractError({ reason: "encrypted", detail: "legacy Word document with the fEncrypted flag" })
  const tables = tablesOf(fib, streams)
  const pieces = piecesOf(fib, tables, doc.size)
  const lastCp = pieces.at(-1)?.cpEnd ?? 0
  const codePage = fib.version === 8 ? 1252 : textCodePage(fib, tables)
  const eightBit: EightBit = fib.version === 8 ? word97EightBit : { decode: byteDecoder(codePage).decode, codePage }

  /** The paragraphs of CPs `[from, to)`, handed on slice by slice (a story is never held whole). */
  function* read(from: number, to: number, where: string): Generator<Paragraph, void, undefined> {
    const story = new StoryReader(budget, where, rows)
    if (to > from) {
      for (const chunk of chunks(doc, pieces, from, Math.min(to, lastCp), eightBit)) {
        story.feed(chunk)
        yield* story.take()
      }
    }
    story.finish()
    yield* story.take()
  }
  /** A story split into notes at the CPs of its PLC (relative to the story); each note's lines get `loc(index)`, none when undefined. */
  function* notes(start: number, length: number, cps: ReadonlyArray<number> | undefined, where: string, loc: (i: number) => string | undefined) {
    if (length === 0) return
    const bounds = cps !== undefined && cps.length >= 2 ? cps : [0, length]
    for (let i = 0; i + 1 < bounds.length; i++) {
      const a = Math.min(bounds[i] ?? 0, length)
      const b = Math.min(bounds[i + 1] ?? 0, length)
      const name = loc(i)
      if (b <= a || name === undefined) continue
      for (const p of read(start + a, start + b, where)) yield { loc: name, text: p.text }
    }
  }

  const s = fib.stories
  let cp = 0
  const next = (length: number) => {
    const start = cp
    cp += length
    return start
  }
  const mainStart = next(s.text)
  const ftnStart = next(s.ftn)
  const hddStart = next(s.hdd)
  next(s.mcr)
  const atnStart = next(s.atn)
  const ednStart = next(s.edn)
  const txbxStart = next(s.txbx)
  const hdrTxbxStart = next(s.hdrTxbx)

  // Word 6/95's and Word 2's paragraph properties have another layout (one-byte sprms): their row marks count as paragraphs.
  const papx = fib.version === 8 ? tables.structure("plcfBtePapx") : undefined
  const rows = papx === undefined ? undefined : new RowMarks(doc, streams.data, papx[0], papx[1])
  const hdd = plcCpsOf(tables.structure("plcfHdd"))
  const ftn = plcCpsOf(tables.structure("plcffndTxt"))
  const edn = plcCpsOf(tables.structure("plcfendTxt"))
  const atn = plcCpsOf(tables.structure("plcfandTxt"))
  // Word 6/95 and Word 2: headers and footers share one story whose order the sections' flags give (not read): all are `header`.
  const headerOf = (i: number) => (fib.version === 8 ? (i >= 6 && [0, 1, 4].includes((i - 6) % 6) ? "header" : undefined) : "header")
  const footerOf = (i: number) => (fib.version === 8 && i >= 6 && [2, 3, 5].includes((i - 6) % 6) ? "footer" : undefined)

  return lines()
  function* lines(): Generator<BodyLine, void, undefined> {
    for (const p of read(mainStart, mainStart + s.text, "WordDocument: main text")) yield { loc: String(p.number), text: p.text }
    for (const p of read(txbxStart, txbxStart + s.txbx, "WordDocument: text boxes")) yield { loc: "textbox", text: p.text }
    // Headers, then footers, as the docx path lists its header and footer parts. The header story holds 6
    // separator stories, then per section: even header, odd header, even footer, odd footer, first header, first footer.
    yield* notes(hddStart, s.hdd, hdd, "WordDocument: headers", headerOf)
    for (const p of read(hdrTxbxStart, hdrTxbxStart + s.hdrTxbx, "WordDocument: header text boxes")) yield { loc: "header", text: p.text }
    yield* notes(hddStart, s.hdd, hdd, "WordDocument: footers", footerOf)
    yield* notes(ftnStart, s.ftn, ftn, "WordDocument: footnotes", (i) => `footnote:${i + 1}`)
    yield* notes(ednStart, s.edn, edn, "WordDocument: endnotes", (i) => `endnote:${i + 1}`)
    yield* notes(atnStart, s.atn, atn, "WordDocument: comments", (i) => `comment:${i}`)
  }
}
