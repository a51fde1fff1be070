/**
 * The source-file table of a gram segment (`<seg>.docs`, format 2): a binary
 * file read whole in one call and decoded lazily, so that opening a segment
 * of 50,000 source files in a fresh `sagasu search` costs a read, not a
 * JSON parse of megabytes (S2: a cold CLI search costs little more than the
 * start of Node).
 *
 * ```
 * 0    magic "SGDOCS4\n"
 * 8    u32 docs, u32 parts, u32 stringBytes, u32 normBytes
 * 24   docs × 64 B   u32 first, u32 count, f64 mtimeMs, u32 partFirst, u32 partCount,
 *                    u32 index, u32 path, u32 fingerprint, u32 staging (string refs), u32 normStart,
 *                    f64 sourceMtimeMs, f64 sourceSize (-1: unknown), u32 flags (1: a piece)
 *      parts × 24 B  u32 first, u32 count, u32 file (string ref), u32 end, u32 lineBase,
 *                    u8 locator, u8 state, u16 0
 *      strings       each: u32 byte length, then its UTF-8 bytes (refs are offsets here)
 *      norm          each source file's names in doc order — its normalised path, then each
 *                    normalised sheet name after a U+0001 — followed by a NUL
 * ```
 *
 * `sourceMtimeMs` and `sourceSize` are the source file's modified time and
 * size when it was read (its `.complete` mark, issue 14: shown, sorted and
 * filtered by); `-1` when the mark holds none (a folder published by an
 * older version). A doc flagged as a *piece* holds part of a big source file
 * whose other lines are in other docs (of this segment or others): a
 * file-level search reads all of them together (S3).
 *
 * `staging` is `""`, or the staging folder (relative to the work folder)
 * that held the file's TSVs, done and waiting to be published, when they
 * were read (R14): until the folder is published there — a rename, so the
 * same fingerprint — its lines are read from the staging folder.
 *
 * `end` is the byte offset in the part's TSV where the rows this segment
 * holds end (the line store keeps each row's start, `.offs`); `lineBase` is
 * the position of the part's first line here among the TSV's body lines (not
 * 0 when a big TSV spans segments). The normalised paths lie back to back so
 * that a query term is looked up in all of them with one byte search (UTF-8
 * is self-synchronising: a byte match is a character match).
 *
 * @module
 */
import { type Locator, type PartState, normalizeForSearch, partNameOfTsvFileName } from "@sagasu/domain"

/** One part (a TSV, or the piece of it this segment holds): lines `[first, first + count)` of the segment. */
export interface DocPart {
  /** The TSV file name (`<n>_<part>.tsv`). */
  readonly file: string
  readonly locator: Locator
  readonly state: PartState
  readonly first: number
  readonly count: number
  /** Byte offset in the TSV where this piece's rows end. */
  readonly end: number
  /** Position of the piece's first line among the TSV's body lines. */
  readonly lineBase: number
}

/** One source file of a segment (or the piece of it this segment holds). */
export interface DocRecord {
  readonly index: string
  /** Relative to the index folder, `/`-separated, as on disk (never normalised: BUG-30). */
  readonly path: string
  /** Identity of the body-index folder when it was read: inode, mtime, TSV names. */
  readonly fingerprint: string
  /** The folder's mtime (ms): when it was published. */
  readonly mtimeMs: number
  /** `""`, or where the TSVs were staged when read: the place to read them until they are published. */
  readonly staging: string
  readonly first: number
  readonly count: number
  readonly parts: ReadonlyArray<DocPart>
  /** The source file's modified time (ms) when read; `-1` when unknown. */
  readonly sourceMtimeMs: number
  /** The source file's size (bytes) when read; `-1` when unknown. */
  readonly sourceSize: number
  /** The record holds only part of the source file's lines (a big file cut across segments). */
  readonly piece: boolean
}

/** The names of a source file the search matches (S4): its path, then its sheet names (parts of locator `cell`). */
export function sheetNamesOf(parts: ReadonlyArray<Pick<DocPart, "file" | "locator">>): Array<string> {
  const out: Array<string> = []
  for (const p of parts) {
    if (p.locator !== "cell") continue
    const name = partNameOfTsvFileName(p.file)
    if (!out.includes(name)) out.push(name)
  }
  return out
}

const MAGIC = "SGDOCS4\n"
const HEADER = 24
const DOC = 64
const PART = 24
const locators: ReadonlyArray<Locator> = ["cell", "paragraph", "slide", "property"]
const states: ReadonlyArray<PartState> = ["visible", "hidden", "veryHidden"]
const encoder = new TextEncoder()
// Between a doc's names in the norm area; a query term never holds it (the parser makes controls spaces).
const NAME_SEPARATOR = "\u0001"
// A row may begin with U+FEFF: keep it (Buffer.toString does too).
const decoder = new TextDecoder("utf-8", { ignoreBOM: true })

/** The bytes of a `.docs` file holding `docs` in line order. */
export function encodeDocTable(docs: ReadonlyArray<DocRecord>): Uint8Array {
  const strings: Array<Uint8Array> = []
  const refs = new Map<string, number>()
  let stringBytes = 0
  const ref = (s: string) => {
    const known = refs.get(s)
    if (known !== undefined) return known
    const bytes = encoder.encode(s)
    const at = stringBytes
    refs.set(s, at)
    strings.push(bytes)
    stringBytes += 4 + bytes.length
    return at
  }
  const norms: Array<Uint8Array> = []
  let normBytes = 0
  let partCount = 0
  for (const d of docs) partCount += d.parts.length
  const head = new Uint8Array(HEADER + docs.length * DOC + partCount * PART)
  const view = new DataView(head.buffer)
  head.set(encoder.encode(MAGIC), 0)
  let part = 0
  docs.forEach((d, i) => {
    const at = HEADER + i * DOC
    view.setUint32(at, d.first, true)
    view.setUint32(at + 4, d.count, true)
    view.setFloat64(at + 8, d.mtimeMs, true)
    view.setUint32(at + 16, part, true)
    view.setUint32(at + 20, d.parts.length, true)
    view.setUint32(at + 24, ref(d.index), true)
    view.setUint32(at + 28, ref(d.path), true)
    view.setUint32(at + 32, ref(d.fingerprint), true)
    view.setUint32(at + 36, ref(d.staging), true)
    view.setUint32(at + 40, normBytes, true)
    view.setFloat64(at + 44, d.sourceMtimeMs, true)
    view.setFloat64(at + 52, d.sourceSize, true)
    view.setUint32(at + 60, d.piece ? 1 : 0, true)
    let names = normalizeForSearch(d.path)
    for (const sheet of sheetNamesOf(d.parts)) names += NAME_SEPARATOR + normalizeForSearch(sheet).replace(/[\u0000\u0001]/g, " ")
    const norm = encoder.encode(names + "\u0000")
    norms.push(norm)
    normBytes += norm.length
    for (const p of d.parts) {
      const pat = HEADER + docs.length * DOC + part * PART
      view.setUint32(pat, p.first, true)
      view.setUint32(pat + 4, p.count, true)
      view.setUint32(pat + 8, ref(p.file), true)
      view.setUint32(pat + 12, p.end, true)
      view.setUint32(pat + 16, p.lineBase, true)
      view.setUint8(pat + 20, Math.max(0, locators.indexOf(p.locator)))
      view.setUint8(pat + 21, Math.max(0, states.indexOf(p.state)))
      part++
    }
  })
  view.setUint32(8, docs.length, true)
  view.setUint32(12, partCount, true)
  view.setUint32(16, stringBytes, true)
  view.setUint32(20, normBytes, true)
  const out = new Uint8Array(head.length + stringBytes + normBytes)
  out.set(head, 0)
  let at = head.length
  const sv = new DataView(out.buffer)
  for (const s of strings) {
    sv.setUint32(at, s.length, true)
    out.set(s, at + 4)
    at += 4 + s.length
  }
  for (const n of norms) {
    out.set(n, at)
    at += n.length
  }
  return out
}

/**
 * A `.docs` file in memory, decoded on demand. Throws (an Error naming the
 * defect) when the bytes are not a doc table of this format.
 */
export class DocTable {
  readonly length: number
  readonly partCount: number
  private readonly bytes: Uint8Array
  private readonly view: DataView
  private readonly partsAt: number
  private readonly stringsAt: number
  private readonly normAt: number
  private readonly normEnd: number
  private readonly cache = new Map<number, string>()
  private readonly firsts: Uint32Array

  constructor(bytes: Uint8Array) {
    this.bytes = bytes
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    if (bytes.length < HEADER || decoder.decode(bytes.subarray(0, 8)) !== MAGIC) throw new Error("not a doc table of this format")
    this.length = this.view.getUint32(8, true)
    this.partCount = this.view.getUint32(12, true)
    this.partsAt = HEADER + this.length * DOC
    this.stringsAt = this.partsAt + this.partCount * PART
    this.normAt = this.stringsAt + this.view.getUint32(16, true)
    this.normEnd = this.normAt + this.view.getUint32(20, true)
    if (this.normEnd !== bytes.length) throw new Error(`doc table of ${bytes.length} bytes, its header says ${this.normEnd}`)
    this.firsts = new Uint32Array(this.length)
    for (let d = 0; d < this.length; d++) this.firsts[d] = this.view.getUint32(HEADER + d * DOC, true)
  }

  private string(ref: number): string {
    const known = this.cache.get(ref)
    if (known !== undefined) return known
    const at = this.stringsAt + ref
    const n = this.view.getUint32(at, true)
    const s = decoder.decode(this.bytes.subarray(at + 4, at + 4 + n))
    this.cache.set(ref, s)
    return s
  }

  /** First line of doc `d`. */
  first(d: number): number {
    return this.firsts[d] ?? 0
  }
  /** Lines of doc `d`. */
  count(d: number): number {
    return this.view.getUint32(HEADER + d * DOC + 4, true)
  }
  mtimeMs(d: number): number {
    return this.view.getFloat64(HEADER + d * DOC + 8, true)
  }
  index(d: number): string {
    return this.string(this.view.getUint32(HEADER + d * DOC + 24, true))
  }
  path(d: number): string {
    return this.string(this.view.getUint32(HEADER + d * DOC + 28, true))
  }
  fingerprint(d: number): string {
    return this.string(this.view.getUint32(HEADER + d * DOC + 32, true))
  }
  /** Where doc `d`'s TSVs were staged when read (`""`: read from the body index). */
  staging(d: number): string {
    return this.string(this.view.getUint32(HEADER + d * DOC + 36, true))
  }
  /** The normalised path of doc `d` (normalizeForSearch of {@link path}). */
  normPath(d: number): string {
    const names = this.normNames(d)
    const cut = names.indexOf(NAME_SEPARATOR)
    return cut < 0 ? names : names.slice(0, cut)
  }

  /** The normalised names of doc `d` as stored: its path, then each sheet name after a U+0001. */
  normNames(d: number): string {
    const from = this.normAt + this.view.getUint32(HEADER + d * DOC + 40, true)
    const to = d + 1 < this.length ? this.normAt + this.view.getUint32(HEADER + (d + 1) * DOC + 40, true) : this.normEnd
    return decoder.decode(this.bytes.subarray(from, to - 1))
  }

  /** The source file's modified time (ms) when doc `d` was read; `-1` when unknown. */
  sourceMtimeMs(d: number): number {
    return this.view.getFloat64(HEADER + d * DOC + 44, true)
  }

  /** The source file's size (bytes) when doc `d` was read; `-1` when unknown. */
  sourceSize(d: number): number {
    return this.view.getFloat64(HEADER + d * DOC + 52, true)
  }

  /** Whether doc `d` holds only part of its source file's lines (see the module doc). */
  isPiece(d: number): boolean {
    return (this.view.getUint32(HEADER + d * DOC + 60, true) & 1) === 1
  }

  /** The parts of doc `d`, in order. */
  parts(d: number): Array<DocPart> {
    const first = this.view.getUint32(HEADER + d * DOC + 16, true)
    const n = this.view.getUint32(HEADER + d * DOC + 20, true)
    const out: Array<DocPart> = []
    for (let p = first; p < first + n; p++) {
      const at = this.partsAt + p * PART
      out.push({
        first: this.view.getUint32(at, true),
        count: this.view.getUint32(at + 4, true),
        file: this.string(this.view.getUint32(at + 8, true)),
        end: this.view.getUint32(at + 12, true),
        lineBase: this.view.getUint32(at + 16, true),
        locator: locators[this.view.getUint8(at + 20)] ?? "cell",
        state: states[this.view.getUint8(at + 21)] ?? "visible"
      })
    }
    return out
  }

  /** Doc `d` as a record. */
  record(d: number): DocRecord {
    return {
      index: this.index(d), path: this.path(d), fingerprint: this.fingerprint(d), mtimeMs: this.mtimeMs(d), staging: this.staging(d),
      first: this.first(d), count: this.count(d), parts: this.parts(d),
      sourceMtimeMs: this.sourceMtimeMs(d), sourceSize: this.sourceSize(d), piece: this.isPiece(d)
    }
  }

  /** The doc holding `line` (binary search over first lines). */
  docOfLine(line: number): number {
    const firsts = this.firsts
    let lo = 0
    let hi = firsts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if ((firsts[mid] ?? 0) <= line) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  /**
   * The docs whose normalised names (path or a sheet name) contain
   * `normalizedTerm`, ascending: one byte search over all names.
   */
  docsWithNameContaining(normalizedTerm: string): Array<number> {
    const needle = encoder.encode(normalizedTerm)
    const out: Array<number> = []
    if (needle.length === 0 || this.length === 0) return out
    const hay = this.bytes.subarray(this.normAt, this.normEnd)
    const buf = Buffer.from(hay.buffer, hay.byteOffset, hay.byteLength)
    let from = 0
    for (;;) {
      const at = buf.indexOf(needle, from)
      if (at < 0) break
      const d = this.docOfNormOffset(at)
      if (out[out.length - 1] !== d) out.push(d)
      // Next doc: past this doc's NUL.
      const end = buf.indexOf(0, at)
      from = end < 0 ? buf.length : end + 1
    }
    return out
  }

  /**
   * {@link docsWithNameContaining} with, per doc, whether its *path* holds
   * the term (not only a sheet name): `inPath[k]` for `docs[k]`. Decodes no
   * name (S2, issue 13: a term common in file names, such as 見積, is found
   * in thousands of paths; decoding each cost a cold search tens of ms). The
   * path comes first among a doc's names and a term never holds U+0001, so
   * the doc's first match lies in its path exactly when no U+0001 comes
   * before it.
   */
  namesContaining(normalizedTerm: string): { readonly docs: Array<number>; readonly inPath: Array<boolean> } {
    const needle = encoder.encode(normalizedTerm)
    const docs: Array<number> = []
    const inPath: Array<boolean> = []
    if (needle.length === 0 || this.length === 0) return { docs, inPath }
    const hay = this.bytes.subarray(this.normAt, this.normEnd)
    const buf = Buffer.from(hay.buffer, hay.byteOffset, hay.byteLength)
    let from = 0
    let d = 0
    for (;;) {
      const at = buf.indexOf(needle, from)
      if (at < 0) break
      d = this.docOfNormOffsetFrom(at, d)
      docs.push(d)
      inPath.push(hay.subarray(this.normStarts()[d] ?? 0, at).indexOf(1) < 0)
      // Next doc: past this doc's NUL.
      const end = buf.indexOf(0, at)
      from = end < 0 ? buf.length : end + 1
    }
    return { docs, inPath }
  }

  private starts: Uint32Array | undefined

  // Where each doc's names start in the norm area (read once, on the first name search).
  private normStarts(): Uint32Array {
    if (this.starts === undefined) {
      const starts = new Uint32Array(this.length)
      for (let d = 0; d < this.length; d++) starts[d] = this.view.getUint32(HEADER + d * DOC + 40, true)
      this.starts = starts
    }
    return this.starts
  }

  // The doc whose names hold `offset`, at or after doc `from` (matches come in order): a gallop, then a binary search.
  private docOfNormOffsetFrom(offset: number, from: number): number {
    const starts = this.normStarts()
    let lo = from
    let step = 1
    let hi = from + 1
    while (hi < starts.length && (starts[hi] ?? 0) <= offset) {
      lo = hi
      step *= 2
      hi = lo + step
    }
    hi = Math.min(hi, starts.length) - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if ((starts[mid] ?? 0) <= offset) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  private docOfNormOffset(offset: number): number {
    let lo = 0
    let hi = this.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (this.view.getUint32(HEADER + mid * DOC + 40, true) <= offset) lo = mid
      else hi = mid - 1
    }
    return lo
  }
}
