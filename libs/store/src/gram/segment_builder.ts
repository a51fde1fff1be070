/**
 * Builds one immutable segment of the gram index in memory and writes its
 * files (manifest.ts shows the layout). Line ids are given in the order
 * source files are added, so the caller adds the newest files first: the
 * search walks ids upwards and can stop at its limit with the newest hits.
 *
 * Postings are built without sorting pairs: a hash table gives each distinct
 * gram a dense number; a first pass over the lines counts each gram's lines,
 * a second fills the line ids, which come out ascending. Lists are encoded
 * by the domain's `encodePostingsInto` (varint deltas, skip table for long lists).
 *
 * @module
 */
import {
  type Locator,
  POSITION_UNKNOWN,
  type PartState,
  encodePostingsInto,
  escapeTsvField,
  forEachGramOfLine,
  maxPostingsBytes,
  normalizeForSearch,
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
  private counts = new Uint32Array(1 << 15)
  private lastLine = new Int32Array(1 << 15).fill(-1)
  private grams = 0
  // Dense gram numbers of each line (distinct within the line), back to back.
  private readonly lineGrams = new GrowU32(1 << 20)
  private readonly lineStarts = new GrowU32(1 << 16)
  private currentLine = 0
  // Position tag of each entry of lineGrams; where the current line's entry of a gram is.
  private lineTags = new Uint8Array(1 << 20)
  private entryOf = new Int32Array(1 << 15)
  private readonly onGram = (key: number, position: number) => {
    const id = this.gramIdOf(key)
    if (this.lastLine[id] !== this.currentLine) {
      this.lastLine[id] = this.currentLine
      this.counts[id] = (this.counts[id] ?? 0) + 1
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

  /** Adds one source file with its parts in order; its lines get the next ids. */
  addDoc(doc: { index: string; path: string; fingerprint: string; mtimeMs: number }, parts: ReadonlyArray<PartInput>): void {
    const first = this.lines
    const records: Array<DocPart> = []
    for (const part of parts) {
      const partFirst = this.lines
      for (const line of part.lines) this.addLine(line.loc, line.text)
      records.push({ file: part.file, locator: part.locator, state: part.state, first: partFirst, count: this.lines - partFirst })
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
    this.currentLine = this.lines
    forEachGramOfLine(normalizeForSearch(text), this.onGram)
    this.lineStarts.push(this.lineGrams.n)
    this.lines++
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
    const counts = new Uint32Array(n)
    counts.set(this.counts)
    this.counts = counts
    const last = new Int32Array(n).fill(-1)
    last.set(this.lastLine)
    this.lastLine = last
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
    const n = this.grams
    const sortedKeys = this.gramKeys.slice(0, n).sort()
    // Where each gram's ids go in one flat array, in dense-number order.
    const fill = new Uint32Array(n)
    let total = 0
    for (let g = 0; g < n; g++) {
      fill[g] = total
      total += this.counts[g] ?? 0
    }
    const ids = new Uint32Array(total)
    const tags = new Uint8Array(total)
    const lineGrams = this.lineGrams.a
    const lineTags = this.lineTags
    const starts = this.lineStarts.a
    for (let line = 0; line < this.lines; line++) {
      for (let j = starts[line] ?? 0, end = starts[line + 1] ?? 0; j < end; j++) {
        const g = lineGrams[j] ?? 0
        const at = fill[g] ?? 0
        ids[at] = line
        tags[at] = lineTags[j] ?? POSITION_UNKNOWN
        fill[g] = at + 1
      }
    }
    const post = new GrowBytes(Math.max(1024, total * 2))
    const dict = new DataView(new ArrayBuffer((n + 1) * DICT_ENTRY_BYTES))
    const sparse = new Float64Array(Math.ceil(n / SPARSE_EVERY))
    for (let rank = 0; rank < n; rank++) {
      const key = sortedKeys[rank] ?? 0
      const g = this.gramIdOf(key)
      const count = this.counts[g] ?? 0
      const start = (fill[g] ?? 0) - count
      dict.setFloat64(rank * DICT_ENTRY_BYTES, key, true)
      dict.setFloat64(rank * DICT_ENTRY_BYTES + 8, post.n, true)
      dict.setUint32(rank * DICT_ENTRY_BYTES + 16, count, true)
      if (rank % SPARSE_EVERY === 0) sparse[rank / SPARSE_EVERY] = key
      post.reserve(maxPostingsBytes(count))
      post.n = encodePostingsInto(post.a, post.n, ids, tags, start, count)
    }
    // Sentinel entry: the end of the last posting list.
    dict.setFloat64(n * DICT_ENTRY_BYTES, Number.MAX_VALUE, true)
    dict.setFloat64(n * DICT_ENTRY_BYTES + 8, post.n, true)
    const file = (ext: string) => path.join(gramDir, id + ext)
    writeFileDurableSync(file(".post"), [post.bytes()])
    writeFileDurableSync(file(".dict"), [new Uint8Array(dict.buffer)])
    writeFileDurableSync(file(".dix"), [littleEndianF64(sparse)])
    writeFileDurableSync(file(".text"), [this.text.bytes()])
    writeFileDurableSync(file(".offs"), [littleEndianU32(this.offsets.a.subarray(0, this.offsets.n))])
    writeFileDurableSync(file(".docs.json"), JSON.stringify({ docs: this.docs }))
    return { id, docs: this.docs.length, lines: this.lines, textBytes: this.text.n }
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

/** The bytes of `a` in little-endian order whatever the platform's order. */
export function littleEndianF64(a: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(a.length * 8)
  const view = new DataView(out.buffer)
  for (let i = 0; i < a.length; i++) view.setFloat64(i * 8, a[i] ?? 0, true)
  return out
}

/** The bytes of `a` in little-endian order whatever the platform's order. */
export function littleEndianU32(a: Uint32Array): Uint8Array {
  const out = new Uint8Array(a.length * 4)
  const view = new DataView(out.buffer)
  for (let i = 0; i < a.length; i++) view.setUint32(i * 4, a[i] ?? 0, true)
  return out
}
