/**
 * Text of a Word 97–2003 document (.doc, .dot; MS-DOC) from its streams,
 * without Office (SPEC W3: the plain workers read it first). The FIB at the
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
 * Files this reader does not read fail `needs-office` so that the file is
 * rerouted to the document owner (R14): Word 6/95 and older FIBs, a FIB
 * without a piece table. Damage that no reader gets past (a piece outside
 * its stream, pieces that overlap so the text outgrows the stream) fails
 * `corrupt`; encryption (`fEncrypted`) fails `encrypted`.
 *
 * @module
 */
import type { BodyLine } from "@sagasu/domain"
import { ExtractError } from "./extract_error.ts"
import type { LineBudget } from "./_limits.ts"
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

/** The FIB's `wIdent` of Word 97 and later (Word 6/95 files seen here carry 0xA5DC). */
const wordIdent = 0xa5ec
/** Word 97's nFib; Word 6 (101) and Word 95 (104) have another FIB layout. */
const word97nFib = 0xc1
/** nFib values below Word 97's that some writers still put in Word 97 FIBs (betas and converters). */
const lowestWord97nFib = 0xc0
/** Bytes of the WordDocument stream read for the FIB: Word 2007's is about 1,500. */
const fibBytes = 4096

/** Indices of the FibRgFcLcb97 pairs this reader uses (MS-DOC 2.5.6). */
const fcLcb = { plcffndTxt: 3, plcfandTxt: 5, plcfHdd: 11, plcfBtePapx: 13, clx: 33, plcfendTxt: 47 } as const

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

/** What the FIB says (MS-DOC 2.5.1). */
export interface Fib {
  readonly nFib: number
  readonly encrypted: boolean
  readonly complex: boolean
  readonly tableStream: "0Table" | "1Table"
  readonly stories: Stories
  /** `[fc, lcb]` of pair `i` of FibRgFcLcb, `undefined` past the FIB's count. */
  readonly pair: (i: number) => readonly [fc: number, lcb: number] | undefined
}

/** Reads the FIB of a `WordDocument` stream; throws `needs-office` for the FIBs of Word 6/95 and older, `corrupt` for a truncated one. */
export function readFib(stream: Uint8Array): Fib {
  if (stream.length < 0x22) throw corrupt(`the FIB is cut short (${stream.length} bytes)`)
  const v = new DataView(stream.buffer, stream.byteOffset, stream.byteLength)
  const ident = v.getUint16(0, true)
  if (ident !== wordIdent) throw needsOffice(`FIB identifier 0x${ident.toString(16)} is not Word 97's`)
  const nFib = v.getUint16(2, true)
  const flags = v.getUint16(0x0a, true)
  const encrypted = (flags & 0x0100) !== 0
  // Encryption is decided first: an encrypted file's other fields are still readable, its text is not.
  if (encrypted) return { nFib, encrypted, complex: false, tableStream: "0Table", stories: emptyStories, pair: () => undefined }
  if (nFib < lowestWord97nFib) throw needsOffice(`a Word 6/95 or older file (nFib ${nFib}; Word 97 is ${word97nFib})`)
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
  for (const [name, n] of Object.entries(stories)) if (n < 0) throw corrupt(`the FIB's ccp of the ${name} story is negative (${n})`)
  at += cslw * 4
  const cbRgFcLcb = u16()
  const blob = at
  const pairs = Math.min(cbRgFcLcb, Math.floor((stream.length - blob) / 8))
  const pair = (i: number): readonly [number, number] | undefined =>
    i < pairs ? [v.getUint32(blob + i * 8, true), v.getUint32(blob + i * 8 + 4, true)] : undefined
  if (pairs <= fcLcb.clx) throw corrupt(`the FIB is cut short before its piece-table pointer (${pairs} pairs)`)
  return { nFib, encrypted, complex: (flags & 0x0004) !== 0, tableStream: (flags & 0x0200) !== 0 ? "1Table" : "0Table", stories, pair }
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
 * 2.9.38): any Prc (property modifiers, skipped), then the Pcdt.
 */
export function readPieces(table: Uint8Array, fc: number, lcb: number, documentBytes: number): ReadonlyArray<Piece> {
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
    const compressed = (raw & 0x40000000) !== 0
    const fcPiece = compressed ? (raw & 0x3fffffff) / 2 : raw & 0x3fffffff
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

/** The characters of CPs `[from, to)`, read and decoded piece by piece in slices, in order. */
function* chunks(doc: ZipSource, pieces: ReadonlyArray<Piece>, from: number, to: number): Generator<Chunk, void, undefined> {
  for (const piece of pieces) {
    if (piece.cpEnd <= from) continue
    if (piece.cp >= to) break
    const first = Math.max(from, piece.cp) - piece.cp
    const last = Math.min(to, piece.cpEnd) - piece.cp
    for (let a = first; a < last; a += sliceChars) {
      const b = Math.min(last, a + sliceChars)
      if (piece.compressed) {
        yield { text: decodeCompressed(doc.read(piece.fc + a, piece.fc + b)), fc: piece.fc + a, step: 1 }
      } else {
        yield { text: utf16.decode(doc.read(piece.fc + a * 2, piece.fc + b * 2)), fc: piece.fc + a * 2, step: 2 }
      }
    }
  }
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
      return
    }
    const field = this.fields.at(-1)
    if (field !== undefined && field.inCode && field.code.length < maxCodeChars) field.code += text
  }

  feed({ text: chunk, fc, step }: Chunk): void {
    let run = 0 // start of the pending run of plain characters
    const flush = (i: number) => {
      if (i > run) this.add(chunk.slice(run, i))
      run = i + 1
    }
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i)
      if (c >= 0x20 && c !== 0xad && c !== 0x2011) continue
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
        case 0x09:
        case 0x0b:
          this.add(" ")
          break
        case 0x1e:
        case 0x2011:
          this.add("-")
          break
        default:
        // 0x01 picture, 0x02 note reference, 0x05 comment mark, 0x08 drawn object, 0x1F and U+00AD optional hyphens: nothing shown as text.
      }
    }
    flush(chunk.length)
  }

  /** Ends the current paragraph; `counted` is false for a table row's end, which is no paragraph in a docx. */
  endParagraph(counted = true): void {
    if (counted) this.count++
    const text = this.text
    this.text = ""
    if (text.trim() === "") return
    this.budget.take(this.where, text.length)
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
  const table = streams.table(fib.tableStream)
  if (table === undefined) throw corrupt(`the ${fib.tableStream} stream the FIB names is missing`)
  const [clxFc, clxLcb] = fib.pair(fcLcb.clx) ?? [0, 0]
  const pieces = readPieces(table, clxFc, clxLcb, doc.size)
  const lastCp = pieces.at(-1)?.cpEnd ?? 0

  /** The paragraphs of CPs `[from, to)`, handed on slice by slice (a story is never held whole). */
  function* read(from: number, to: number, where: string): Generator<Paragraph, void, undefined> {
    const story = new StoryReader(budget, where, rows)
    if (to > from) {
      for (const chunk of chunks(doc, pieces, from, Math.min(to, lastCp))) {
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

  const rows = new RowMarks(doc, streams.data, table, fib.pair(fcLcb.plcfBtePapx))
  const hdd = plcCps(table, fib.pair(fcLcb.plcfHdd), 0)
  const ftn = plcCps(table, fib.pair(fcLcb.plcffndTxt), 0)
  const edn = plcCps(table, fib.pair(fcLcb.plcfendTxt), 0)
  const atn = plcCps(table, fib.pair(fcLcb.plcfandTxt), 0)

  return lines()
  function* lines(): Generator<BodyLine, void, undefined> {
    for (const p of read(mainStart, mainStart + s.text, "WordDocument: main text")) yield { loc: String(p.number), text: p.text }
    for (const p of read(txbxStart, txbxStart + s.txbx, "WordDocument: text boxes")) yield { loc: "textbox", text: p.text }
    // Headers, then footers, as the docx path lists its header and footer parts. The header story holds 6
    // separator stories, then per section: even header, odd header, even footer, odd footer, first header, first footer.
    yield* notes(hddStart, s.hdd, hdd, "WordDocument: headers", (i) => (i >= 6 && [0, 1, 4].includes((i - 6) % 6) ? "header" : undefined))
    for (const p of read(hdrTxbxStart, hdrTxbxStart + s.hdrTxbx, "WordDocument: header text boxes")) yield { loc: "header", text: p.text }
    yield* notes(hddStart, s.hdd, hdd, "WordDocument: footers", (i) => (i >= 6 && [2, 3, 5].includes((i - 6) % 6) ? "footer" : undefined))
    yield* notes(ftnStart, s.ftn, ftn, "WordDocument: footnotes", (i) => `footnote:${i + 1}`)
    yield* notes(ednStart, s.edn, edn, "WordDocument: endnotes", (i) => `endnote:${i + 1}`)
    yield* notes(atnStart, s.atn, atn, "WordDocument: comments", (i) => `comment:${i}`)
  }
}
