/**
 * Builds one immutable segment of the gram index in memory and writes its
 * files (manifest.ts shows the layout). Source files may be added in any
 * order; the segment lays them out newest first (by the folder's mtime,
 * {@link newestFirst}), so the search walks ids upwards and can stop at its
 * limit with the newest hits.
 *
 * Postings are built without sorting pairs: a hash table gives each distinct
 * gram a dense number; each line records the dense numbers of its grams;
 * writing counts each gram's lines, then fills the line ids source file by
 * source file in the segment's order, so they come out ascending. Lists are
 * encoded by the domain's `encodePostingsInto` (varint deltas, skip table for
 * long lists).
 *
 * The hot path (issue 9) takes a body-index TSV as one string
 * ({@link SegmentBuilder.feedDoc}) and works on blocks of rows: the rows'
 * UTF-8 bytes are the lines store as they are (a row is `escaped loc \t text`,
 * which is what `.text` holds when the text has nothing escaped), and one
 * `normalizeForSearch` call covers the block (the normalisation never joins
 * characters across a tab or a line feed, and never makes one). Blocks with an
 * escape or an odd row take the line-by-line path of {@link SegmentBuilder.addDoc}.
 * Both give the same bytes (a test checks it).
 *
 * @module
 */
import {
  type Locator,
  POSITION_UNKNOWN,
  type PartState,
  encodePostingsInto,
  escapeTsvField,
  forEachGramInRange,
  maxPostingsBytes,
  normalizeForSearch,
  parseBodyTsv,
  parseTsvLine,
  positionTag
} from "@sagasu/domain"
import * as path from "node:path"
import { writeFileDurableSync } from "./manifest.ts"

/** One part (TSV) of an indexed source file: lines `[first, first + count)` of the segment. */
export interface DocPart {
  /** The TSV file name (`<n>_<part>.tsv`). */
  readonly file: string
  readonly locator: Locator
  readonly state: PartState
  readonly first: number
  readonly count: number
}

/** One source file in a segment's `.docs.json`. */
export interface DocRecord {
  readonly index: string
  /** Relative to the index folder, `/`-separated, as on disk (never normalised: BUG-30). */
  readonly path: string
  /** Identity of the body-index folder when it was read: inode, mtime, TSV names. */
  readonly fingerprint: string
  /** The folder's mtime (ms): when it was published. */
  readonly mtimeMs: number
  readonly first: number
  readonly count: number
  readonly parts: ReadonlyArray<DocPart>
}

/** A part to add: its TSV file name, header and lines. */
export interface PartInput {
  readonly file: string
  readonly locator: Locator
  readonly state: PartState
  readonly lines: ReadonlyArray<{ readonly loc: string; readonly text: string }>
}

/** A TSV of a source file's folder as read: its file name and whole text (header included). */
export interface TsvInput {
  readonly file: string
  readonly text: string
}

/** The identity of a source file added to a builder (what its {@link DocRecord} keeps besides lines). */
export interface DocInput {
  readonly index: string
  readonly path: string
  readonly fingerprint: string
  readonly mtimeMs: number
}

/** The order of source files in a segment: newest folder first, then by index and path. */
export function newestFirst(a: DocInput, b: DocInput): number {
  return b.mtimeMs - a.mtimeMs || (a.index < b.index ? -1 : a.index > b.index ? 1 : a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
}

/** What a written segment holds (for its manifest entry). */
export interface BuiltSegment {
  readonly id: string
  readonly docs: number
  readonly lines: number
  readonly textBytes: number
}

/** Entries of `.dict`: key f64, postings offset f64, df u32. */
export const DICT_ENTRY_BYTES = 20
/** One key of `.dict` in every `SPARSE_EVERY` goes to `.dix`. */
export const SPARSE_EVERY = 128

class GrowU32 {
  a: Uint32Array
  n = 0
  constructor(capacity: number) {
    this.a = new Uint32Array(capacity)
  }
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Uint32Array(this.a.length * 2)
      b.set(this.a)
      this.a = b
    }
    this.a[this.n++] = v
  }
}

class GrowBytes {
  a: Uint8Array
  n = 0
  constructor(capacity: number) {
    this.a = new Uint8Array(capacity)
  }
  reserve(k: number): void {
    if (this.n + k <= this.a.length) return
    let size = this.a.length * 2
    while (size < this.n + k) size *= 2
    const b = new Uint8Array(size)
    b.set(this.a.subarray(0, this.n))
    this.a = b
  }
  bytes(): Uint8Array {
    return this.a.subarray(0, this.n)
  }
}

const encoder = new TextEncoder()

/** Rows handed to one `normalizeForSearch` call and one UTF-8 copy (UTF-16 units, cut at a row's end). */
const BLOCK_UNITS = 1 << 16

/** Lines between two steps of {@link SegmentBuilder.segmentSteps} (and 64 times as many postings when counting). */
const WRITE_STEP = 1 << 16

/** Bytes of postings encoded between two steps of {@link SegmentBuilder.segmentSteps}. */
const ENCODE_STEP = 1 << 22

/** A file of a segment, ready to be written: its name inside the gram folder and its bytes. */
export interface SegmentFile {
  readonly name: string
  readonly data: ReadonlyArray<Uint8Array> | string
}

/** A written segment and its source files in line order (what a deletion file numbers). */
export interface WrittenSegment {
  readonly segment: BuiltSegment
  readonly docs: ReadonlyArray<DocRecord>
}

/** An in-memory segment under construction; see the module doc. */
export class SegmentBuilder {
  private readonly docs: Array<DocRecord> = []
  private lines = 0
  private readonly text = new GrowBytes(1 << 20)
  private readonly offsets = new GrowU32(1 << 16)
  // Gram hash table: open addressing on the key; slot → dense gram number.
  private slotKeys = new Float64Array(1 << 16)
  private slotIds = new Int32Array(1 << 16).fill(-1)
  private gramKeys = new Float64Array(1 << 15)
  // The line stamp that last saw each gram (a gram counts once per line).
  private lastSeen = new Int32Array(1 << 15).fill(-1)
  private grams = 0
  // Dense gram numbers of each line (distinct within the line), back to back.
  private readonly lineGrams = new GrowU32(1 << 20)
  private readonly lineStarts = new GrowU32(1 << 16)
  // Grows with every line tokenised, never goes back (a block taken back keeps its stamps used).
  private stamp = 0
  // Position tag of each entry of lineGrams; where the current line's entry of a gram is.
  private lineTags = new Uint8Array(1 << 20)
  private entryOf = new Int32Array(1 << 15)
  private readonly onGram = (key: number, position: number) => {
    const id = this.gramIdOf(key)
    if (this.lastSeen[id] !== this.stamp) {
      this.lastSeen[id] = this.stamp
      const entry = this.lineGrams.n
      this.entryOf[id] = entry
      this.lineGrams.push(id)
      if (entry >= this.lineTags.length) {
        const grown = new Uint8Array(this.lineTags.length * 2)
        grown.set(this.lineTags)
        this.lineTags = grown
      }
      this.lineTags[entry] = positionTag(position)
    } else {
      this.lineTags[this.entryOf[id] ?? 0] = POSITION_UNKNOWN // seen again in this line
    }
  }

  constructor() {
    this.offsets.push(0)
    this.lineStarts.push(0)
  }

  /** Lines added so far. */
  get lineCount(): number {
    return this.lines
  }

  /** Source files added so far. */
  get docCount(): number {
    return this.docs.length
  }

  /** A measure of the memory the builder holds (bytes, roughly). */
  get memoryBytes(): number {
    return this.text.n + this.lineGrams.n * 10 + this.grams * 44
  }

  /** Adds one source file with its parts in order, line by line (the reference path; see {@link feedDoc}). */
  addDoc(doc: DocInput, parts: ReadonlyArray<PartInput>): void {
    const first = this.lines
    const records: Array<DocPart> = []
    for (const part of parts) {
      const partFirst = this.lines
      for (const line of part.lines) this.addLine(line.loc, line.text)
      records.push({ file: part.file, locator: part.locator, state: part.state, first: partFirst, count: this.lines - partFirst })
    }
    this.docs.push({ ...doc, first, count: this.lines - first, parts: records })
  }

  /** Adds one source file from the texts of its TSVs in part order: {@link feedDoc} in one go. */
  addDocTsvs(doc: DocInput, tsvs: ReadonlyArray<TsvInput>): void {
    const feed = this.feedDoc(doc, tsvs)
    while (feed.next().done !== true) {
      // one block after the other
    }
  }

  /**
   * Adds one source file from the texts of its TSVs (as `parseBodyTsv` reads
   * them), one block of rows per step, so that a caller can let other work
   * run between steps. The source file is complete when the generator is
   * done; a builder whose feed was abandoned half way must not be written.
   */
  *feedDoc(doc: DocInput, tsvs: ReadonlyArray<TsvInput>): Generator<void, void, undefined> {
    const first = this.lines
    const records: Array<DocPart> = []
    for (const tsv of tsvs) {
      const partFirst = this.lines
      const text = tsv.text
      const headerEnd = text.indexOf("\n")
      const header = parseBodyTsv(headerEnd < 0 ? text : text.slice(0, headerEnd))
      let at = headerEnd < 0 ? text.length : headerEnd + 1
      while (at < text.length) {
        const cut = text.indexOf("\n", Math.min(text.length, at + BLOCK_UNITS))
        const end = cut < 0 ? text.length : cut + 1
        this.addRows(text.slice(at, end))
        at = end
        if (at < text.length) yield
      }
      records.push({ file: tsv.file, locator: header.locator, state: header.state, first: partFirst, count: this.lines - partFirst })
    }
    this.docs.push({ ...doc, first, count: this.lines - first, parts: records })
  }

  private addLine(loc: string, text: string): void {
    const stored = escapeTsvField(loc) + "\t" + text
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.text.reserve(stored.length * 3)
    const { written } = encoder.encodeInto(stored, this.text.a.subarray(this.text.n))
    this.text.n += written
    this.offsets.push(this.text.n)
    this.stamp++
    const normalized = normalizeForSearch(text)
    forEachGramInRange(normalized, 0, normalized.length, this.onGram)
    this.lineStarts.push(this.lineGrams.n)
    this.lines++
  }

  // Rows of a TSV body (each ending in `\n` but perhaps the last; empty rows skipped, as parseBodyTsv does).
  private addRows(block: string): void {
    if (block.includes("\\") || block.includes("\r") || !this.addRowsAsIs(block)) {
      for (const row of block.split("\n")) {
        if (row === "") continue
        const [loc = "", text = ""] = parseTsvLine(row)
        this.addLine(loc, text)
      }
    }
  }

  // The fast path: rows with exactly one tab and nothing escaped are `loc \t text` as the lines
  // store keeps them. False (and nothing kept) for a block with another row.
  private addRowsAsIs(block: string): boolean {
    const text = this.text
    const offsets = this.offsets
    const textFrom = text.n
    const offsetsFrom = offsets.n
    text.reserve(block.length * 3)
    const a = text.a
    const { written } = encoder.encodeInto(block, a.subarray(textFrom))
    // Drop the line feeds in place, noting where each line ends; check one tab per row.
    let to = textFrom
    let rowStart = textFrom
    let tabs = 0
    for (let from = textFrom, end = textFrom + written; from < end; from++) {
      const b = a[from] ?? 0
      if (b === 0x0a) {
        if (to > rowStart) {
          if (tabs !== 1) return this.takeBack(textFrom, offsetsFrom)
          offsets.push(to)
        }
        rowStart = to
        tabs = 0
        continue
      }
      if (b === 0x09) tabs++
      a[to++] = b
    }
    if (to > rowStart) {
      if (tabs !== 1) return this.takeBack(textFrom, offsetsFrom)
      offsets.push(to)
    }
    text.n = to
    // Grams of each row's text, from one normalisation of the block.
    const linesFrom = this.lines
    const gramsFrom = this.lineGrams.n
    const startsFrom = this.lineStarts.n
    const normalized = normalizeForSearch(block)
    const n = normalized.length
    let pos = 0
    while (pos < n) {
      let end = normalized.indexOf("\n", pos)
      if (end < 0) end = n
      if (end > pos) {
        const tab = normalized.indexOf("\t", pos)
        this.stamp++
        if (tab >= 0 && tab < end) forEachGramInRange(normalized, tab + 1, end, this.onGram)
        this.lineStarts.push(this.lineGrams.n)
        this.lines++
      }
      pos = end + 1
    }
    if (this.lines - linesFrom === offsets.n - offsetsFrom) return true
    // Never seen: the normalisation changed the rows. Take the block back (grams it added stay
    // in the table, with no line: writing leaves them out) and go line by line.
    this.lines = linesFrom
    this.lineGrams.n = gramsFrom
    this.lineStarts.n = startsFrom
    return this.takeBack(textFrom, offsetsFrom)
  }

  private takeBack(textFrom: number, offsetsFrom: number): false {
    this.text.n = textFrom
    this.offsets.n = offsetsFrom
    return false
  }

  private gramIdOf(key: number): number {
    let mask = this.slotKeys.length - 1
    let slot = hashKey(key) & mask
    for (;;) {
      const id = this.slotIds[slot] ?? -1
      if (id < 0) break
      if (this.slotKeys[slot] === key) return id
      slot = (slot + 1) & mask
    }
    const id = this.grams++
    if (id === this.gramKeys.length) this.growGrams()
    this.gramKeys[id] = key
    this.slotKeys[slot] = key
    this.slotIds[slot] = id
    if (this.grams * 2 > this.slotKeys.length) {
      this.rehash()
      mask = this.slotKeys.length - 1
    }
    return id
  }

  private growGrams(): void {
    const n = this.gramKeys.length * 2
    const keys = new Float64Array(n)
    keys.set(this.gramKeys)
    this.gramKeys = keys
    const last = new Int32Array(n).fill(-1)
    last.set(this.lastSeen)
    this.lastSeen = last
    const entries = new Int32Array(n)
    entries.set(this.entryOf)
    this.entryOf = entries
  }

  private rehash(): void {
    const size = this.slotKeys.length * 2
    const keys = new Float64Array(size)
    const ids = new Int32Array(size).fill(-1)
    const mask = size - 1
    for (let id = 0; id < this.grams; id++) {
      const key = this.gramKeys[id] ?? 0
      let slot = hashKey(key) & mask
      while ((ids[slot] ?? -1) >= 0) slot = (slot + 1) & mask
      keys[slot] = key
      ids[slot] = id
    }
    this.slotKeys = keys
    this.slotIds = ids
  }

  /**
   * Writes the segment's files as `<gramDir>/<id>.*` (each flushed to disk)
   * and returns what the manifest needs. Throws on I/O errors.
   */
  write(gramDir: string, id: string): BuiltSegment {
    const steps = this.segmentSteps(id)
    for (;;) {
      const r = steps.next()
      if (r.done === true) return r.value.segment
      if (r.value !== undefined) writeFileDurableSync(path.join(gramDir, r.value.name), r.value.data)
    }
  }

  /**
   * The files of {@link write}, computed in steps of a few milliseconds (so
   * a caller on a busy thread can let other work run between them): each
   * step yields `undefined`, or a file that the caller writes durably
   * before it asks for the next. The result also gives the source files in
   * the segment's line order. The builder is left as it was.
   */
  *segmentSteps(id: string): Generator<SegmentFile | undefined, WrittenSegment, undefined> {
    const n = this.grams
    const lineGrams = this.lineGrams.a
    const lineTags = this.lineTags
    const starts = this.lineStarts.a
    const offs = this.offsets.a
    const total = this.lineGrams.n
    // Newest first; the usual caller already added them so.
    const order = this.docs.map((_, i) => i).sort((x, y) => newestFirst(this.docs[x]!, this.docs[y]!))
    const asAdded = order.every((d, i) => d === i)
    const counts = new Uint32Array(n)
    for (let j = 0; j < total; j++) {
      const g = lineGrams[j] ?? 0
      counts[g] = (counts[g] ?? 0) + 1
      if (j % (WRITE_STEP * 64) === WRITE_STEP * 64 - 1) yield
    }
    // Where each gram's ids go in one flat array, in dense-number order.
    const fill = new Uint32Array(n)
    let sum = 0
    for (let g = 0; g < n; g++) {
      fill[g] = sum
      sum += counts[g] ?? 0
    }
    const ids = new Uint32Array(total)
    const tags = new Uint8Array(total)
    const newOffs = asAdded ? this.offsets.a.subarray(0, this.offsets.n) : new Uint32Array(this.lines + 1)
    const textParts: Array<Uint8Array> = asAdded ? [this.text.bytes()] : []
    const docs: Array<DocRecord> = asAdded ? this.docs : []
    let next = 0
    let bytes = 0
    for (const d of order) {
      const doc = this.docs[d]!
      if (!asAdded) {
        const shift = next - doc.first
        docs.push({ ...doc, first: next, parts: doc.parts.map((p) => ({ ...p, first: p.first + shift })) })
        textParts.push(this.text.a.subarray(offs[doc.first] ?? 0, offs[doc.first + doc.count] ?? 0))
      }
      for (let line = doc.first, last = doc.first + doc.count; line < last; line++) {
        for (let j = starts[line] ?? 0, end = starts[line + 1] ?? 0; j < end; j++) {
          const g = lineGrams[j] ?? 0
          const at = fill[g] ?? 0
          ids[at] = next
          tags[at] = lineTags[j] ?? POSITION_UNKNOWN
          fill[g] = at + 1
        }
        if (!asAdded) {
          bytes += (offs[line + 1] ?? 0) - (offs[line] ?? 0)
          newOffs[next + 1] = bytes
        }
        next++
        if (next % WRITE_STEP === 0) yield
      }
    }
    // Grams of lines taken back have no line: not in the dictionary.
    let live = 0
    for (let g = 0; g < n; g++) if ((counts[g] ?? 0) > 0) live++
    const sortedKeys = new Float64Array(live)
    for (let g = 0, k = 0; g < n; g++) if ((counts[g] ?? 0) > 0) sortedKeys[k++] = this.gramKeys[g] ?? 0
    sortedKeys.sort()
    const post = new GrowBytes(Math.max(1024, total * 2))
    const dict = new DataView(new ArrayBuffer((live + 1) * DICT_ENTRY_BYTES))
    const sparse = new Float64Array(Math.ceil(live / SPARSE_EVERY))
    let encodedAtStep = 0
    for (let rank = 0; rank < live; rank++) {
      const key = sortedKeys[rank] ?? 0
      const g = this.gramIdOf(key)
      const count = counts[g] ?? 0
      const start = (fill[g] ?? 0) - count
      dict.setFloat64(rank * DICT_ENTRY_BYTES, key, true)
      dict.setFloat64(rank * DICT_ENTRY_BYTES + 8, post.n, true)
      dict.setUint32(rank * DICT_ENTRY_BYTES + 16, count, true)
      if (rank % SPARSE_EVERY === 0) sparse[rank / SPARSE_EVERY] = key
      post.reserve(maxPostingsBytes(count))
      post.n = encodePostingsInto(post.a, post.n, ids, tags, start, count)
      if (post.n - encodedAtStep >= ENCODE_STEP || rank % 4096 === 4095) {
        encodedAtStep = post.n
        yield
      }
    }
    // Sentinel entry: the end of the last posting list.
    dict.setFloat64(live * DICT_ENTRY_BYTES, Number.MAX_VALUE, true)
    dict.setFloat64(live * DICT_ENTRY_BYTES + 8, post.n, true)
    yield { name: id + ".post", data: [post.bytes()] }
    yield { name: id + ".dict", data: [new Uint8Array(dict.buffer)] }
    yield { name: id + ".dix", data: [littleEndianF64(sparse)] }
    yield { name: id + ".text", data: textParts }
    yield { name: id + ".offs", data: [littleEndianU32(newOffs)] }
    yield { name: id + ".docs.json", data: JSON.stringify({ docs }) }
    return { segment: { id, docs: docs.length, lines: this.lines, textBytes: this.text.n }, docs }
  }
}

/** Mixes the two halves of a gram key into a 32-bit hash. */
function hashKey(key: number): number {
  const lo = key >>> 0
  const hi = (key / 4294967296) >>> 0
  let h = Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1)
  h ^= h >>> 15
  return h >>> 0
}

const littleEndianPlatform = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1

/** The bytes of `a` in little-endian order whatever the platform's order. */
export function littleEndianF64(a: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(a.length * 8)
  const view = new DataView(out.buffer)
  for (let i = 0; i < a.length; i++) view.setFloat64(i * 8, a[i] ?? 0, true)
  return out
}

/** The bytes of `a` in little-endian order whatever the platform's order. */
export function littleEndianU32(a: Uint32Array): Uint8Array {
  if (littleEndianPlatform) return new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
  const out = new Uint8Array(a.length * 4)
  const view = new DataView(out.buffer)
  for (let i = 0; i < a.length; i++) view.setUint32(i * 4, a[i] ?? 0, true)
  return out
}
