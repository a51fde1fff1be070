/**
 * Builds one immutable segment of the gram index in memory and writes its
 * files (manifest.ts shows the layout). Source files may be added in any
 * order; the segment lays them out newest first (by the folder's mtime,
 * {@link newestFirst}), so the search walks ids upwards and can stop at its
 * limit with the newest hits.
 *
 * The text is kept once (issue 20): the body index's TSVs are the lines
 * store. A segment keeps, per line, the byte offset of its row in its TSV
 * (`.offs`), and per part where its rows end; the search reads a line's row
 * from the TSV itself.
 *
 * Postings are built without sorting pairs: a hash table gives each distinct
 * gram a dense number; each line records the dense numbers of its grams;
 * writing counts each gram's lines, then fills the line ids source file by
 * source file in the segment's order, so they come out ascending. Lists are
 * encoded by `encodePostingsInto` (format.ts: varint deltas, skip table for
 * long lists).
 *
 * A source file is fed by a {@link DocFeed}, a block of rows at a time read
 * from disk (so a 300 MB TSV never sits in memory whole, issue 20): one
 * `normalizeForSearch` call covers a block (the normalisation never joins
 * characters across a tab or a line feed, and never makes one); a row with
 * an escape, a carriage return or more than two tabs is read on its own. A
 * row's third field, its search-only forms (S4: `123350` for `¥123,350`),
 * is tokenised after its text at positions past the text's, so a term never
 * lines up across the two and a line read back shows only its text.
 * A feed can be cut between two blocks: what it added becomes a piece of the
 * source file in this segment, and the rest goes on in the next one.
 *
 * @module
 */
import {
  type Locator,
  POSITION_UNKNOWN,
  type PartState,
  GRAM_END,
  gramKey,
  gramOfKey,
  normalizeForSearch,
  parseBodyTsv,
  parseTsvLine,
  positionTag,
  type SourceStamp
} from "@sagasu/domain"
import * as path from "node:path"
import { type DocPart, type DocRecord, encodeDocTable } from "./doc_table.ts"
import { encodeOffsets, encodePostingsInto, maxPostingsBytes } from "./format.ts"
import { writeFileDurableSync } from "./manifest_format.ts"

export type { DocPart, DocRecord } from "./doc_table.ts"

/**
 * A body-index TSV to read: its file name and a positioned read of its
 * bytes (`read(position, length)` returns at most `length` bytes, fewer only
 * at the end of the file; it throws on I/O errors).
 */
export interface TsvSource {
  readonly file: string
  readonly read: (position: number, length: number) => Uint8Array
}

/** The identity of a source file added to a builder (what its {@link DocRecord} keeps besides lines). */
export interface DocInput {
  readonly index: string
  readonly path: string
  readonly fingerprint: string
  readonly mtimeMs: number
  /** Where the TSVs are read from when they are staged, not yet published (relative to the work folder); `""` or absent: the body index. */
  readonly staging?: string
  /** The source file's size and modified time when read (its `.complete` mark); absent when unknown. */
  readonly stamp?: SourceStamp | undefined
}

/** The record of (a piece of) `doc` holding lines `[first, first + count)` of a builder. */
function recordOf(doc: DocInput, first: number, count: number, parts: ReadonlyArray<DocPart>, piece: boolean): DocRecord {
  return {
    index: doc.index, path: doc.path, fingerprint: doc.fingerprint, mtimeMs: doc.mtimeMs, staging: doc.staging ?? "",
    first, count, parts, sourceMtimeMs: doc.stamp?.mtimeMs ?? -1, sourceSize: doc.stamp?.size ?? -1, piece
  }
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
  /** Bytes of the rows the segment refers to (the body index's TSV bytes it covers). */
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

// A row may begin with U+FEFF: keep it (Buffer.toString does too).
const decoder = new TextDecoder("utf-8", { ignoreBOM: true })

/** Bytes read from a TSV at once, and so the most a block of rows holds (a longer row is read whole). */
const READ_BYTES = 1 << 18

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

/** A part being fed: where its rows stand in the TSV and in the builder. */
interface OpenPart {
  readonly file: string
  readonly locator: Locator
  readonly state: PartState
  /** Builder line of the piece's first line. */
  first: number
  /** Body lines of the TSV before this piece. */
  lineBase: number
  /** Byte offset after the last row fed. */
  end: number
}

const closed = (p: OpenPart, lines: number): DocPart => ({
  file: p.file, locator: p.locator, state: p.state, first: p.first, count: lines - p.first, end: p.end, lineBase: p.lineBase
})

/**
 * Feeds one source file's TSVs into builders a block of rows at a time
 * (see the module doc): `step(builder)` until it returns `false`; `cut(builder)`
 * between two steps records the piece fed so far, so that `builder` can be
 * written and the feed go on in a fresh builder.
 */
export class DocFeed {
  readonly doc: DocInput
  private readonly tsvs: ReadonlyArray<TsvSource>
  private tsv = 0
  private position = 0
  private carry: Uint8Array = new Uint8Array(0)
  private open: OpenPart | undefined
  // The builder of the current piece, the piece's first line there and its finished parts.
  private current: SegmentBuilder | undefined
  private pieceFirst = 0
  private parts: Array<DocPart> = []
  private done = false
  // Cut at least once: every record of this file is a piece of it.
  private wasCut = false

  constructor(doc: DocInput, tsvs: ReadonlyArray<TsvSource>) {
    this.doc = doc
    this.tsvs = tsvs
  }

  /** Whether every row was fed and the last piece recorded. */
  get complete(): boolean {
    return this.done
  }

  /**
   * Adds the next block of rows to `builder`; returns `false` once the
   * source file is complete (its last piece recorded in `builder`). Throws
   * on I/O errors of the sources' `read`.
   */
  step(builder: SegmentBuilder): boolean {
    if (this.done) return false
    if (this.current !== builder) {
      this.current = builder
      this.pieceFirst = builder.lineCount
      if (this.open !== undefined) this.open.first = builder.lineCount
    }
    const source = this.tsvs[this.tsv]
    if (source === undefined) return this.finish(builder)
    const chunk = source.read(this.position, READ_BYTES)
    const atEnd = chunk.length < READ_BYTES
    const start = this.position - this.carry.length
    const bytes = this.carry.length === 0 ? chunk : concat(this.carry, chunk)
    this.position += chunk.length
    const cut = atEnd ? bytes.length : bytes.lastIndexOf(0x0a) + 1
    if (cut === 0 && !atEnd) {
      // A row longer than a read: keep reading until it ends.
      this.carry = bytes
      return true
    }
    let from = 0
    if (this.open === undefined) {
      const nl = bytes.indexOf(0x0a)
      const headerEnd = nl < 0 || nl >= cut ? cut : nl
      const header = parseBodyTsv(decoder.decode(bytes.subarray(0, headerEnd)))
      from = nl < 0 || nl >= cut ? cut : nl + 1
      this.open = { file: source.file, locator: header.locator, state: header.state, first: builder.lineCount, lineBase: 0, end: start + from }
    }
    const part = this.open
    if (from < cut) builder.addRows(bytes.subarray(from, cut), start + from)
    part.end = start + cut
    this.carry = cut < bytes.length ? bytes.slice(cut) : new Uint8Array(0)
    if (atEnd) {
      this.parts.push(closed(part, builder.lineCount))
      this.open = undefined
      this.tsv++
      this.position = 0
      this.carry = new Uint8Array(0)
      if (this.tsv >= this.tsvs.length) return this.finish(builder)
    }
    return true
  }

  /**
   * Takes back from `builder` the lines of the piece being fed (after a
   * failed {@link step}: the folder vanished, a read failed); pieces already
   * cut into other builders stay there. The feed is then complete.
   */
  abandon(builder: SegmentBuilder): void {
    if (!this.done && this.current === builder) builder.truncate(this.pieceFirst)
    this.done = true
  }

  private finish(builder: SegmentBuilder): false {
    builder.addRecord(recordOf(this.doc, this.pieceFirst, builder.lineCount - this.pieceFirst, this.parts, this.wasCut))
    this.parts = []
    this.done = true
    return false
  }

  /**
   * Records in `builder` the piece of the source file fed so far (nothing
   * when no line was fed into it), so that `builder` can be written; the
   * feed goes on in the next builder given to {@link step}.
   */
  cut(builder: SegmentBuilder): void {
    if (this.done || this.current !== builder) return
    const count = builder.lineCount - this.pieceFirst
    if (count === 0) return
    const open = this.open
    const parts = open === undefined ? this.parts : [...this.parts, closed(open, builder.lineCount)]
    builder.addRecord(recordOf(this.doc, this.pieceFirst, count, parts, true))
    this.wasCut = true
    if (open !== undefined) open.lineBase += builder.lineCount - open.first
    this.parts = []
    this.current = undefined
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}

/** An in-memory segment under construction; see the module doc. */
export class SegmentBuilder {
  private readonly docs: Array<DocRecord> = []
  private lines = 0
  // Per line: the byte offset of its row in its TSV.
  private readonly offsets = new GrowU32(1 << 16)
  private rowBytes = 0
  // Gram hash table: open addressing on the gram's two code points; slot → dense gram number.
  private slotFirst = new Int32Array(1 << 16)
  private slotSecond = new Int32Array(1 << 16)
  private slotIds = new Int32Array(1 << 16).fill(-1)
  // Grams of two code points below 256 (digits, Latin letters, punctuation: most grams of a
  // workbook) by (first << 8 | second), without hashing.
  private readonly narrowIds = new Int32Array(1 << 16).fill(-1)
  // Per dense gram number: its two code points (its key is gramKey of them).
  private gramFirst = new Int32Array(1 << 15)
  private gramSecond = new Int32Array(1 << 15)
  // The line stamp that last saw each gram (a gram counts once per line).
  private lastSeen = new Int32Array(1 << 15).fill(-1)
  private grams = 0
  // Dense gram numbers of each line (distinct within the line), back to back.
  private readonly lineGrams = new GrowU32(1 << 20)
  private readonly lineStarts = new GrowU32(1 << 16)
  private stamp = 0
  // Position tag of each entry of lineGrams; where the current line's entry of a gram is.
  private lineTags = new Uint8Array(1 << 20)
  private entryOf = new Int32Array(1 << 15)
  /**
   * The grams of `s[start, end)` as {@link forEachGramInRange} gives them
   * (pairs of code points, then the last one with {@link GRAM_END}), at
   * positions `base`, `base + 1`, …; returns the last position used.
   * Inlined here, without a callback and a float key per gram: tokenising
   * was most of the 2-gram round's CPU (issue 20).
   */
  private addGrams(s: string, start: number, end: number, base: number): number {
    if (start >= end) return base - 1
    let prev = s.charCodeAt(start)
    if ((prev & 0xfc00) === 0xd800) prev = s.codePointAt(start) ?? prev
    let i = start + (prev > 0xffff ? 2 : 1)
    let position = base
    while (i < end) {
      let cp = s.charCodeAt(i)
      if ((cp & 0xfc00) === 0xd800) cp = s.codePointAt(i) ?? cp
      this.addGram(prev, cp, position++)
      prev = cp
      i += cp > 0xffff ? 2 : 1
    }
    this.addGram(prev, GRAM_END, position)
    return position
  }

  private addGram(first: number, second: number, position: number): void {
    let id: number
    if ((first | second) < 256) {
      const at = (first << 8) | second
      id = this.narrowIds[at] ?? -1
      if (id < 0) {
        id = this.newGram(first, second)
        this.narrowIds[at] = id
      }
    } else id = this.wideGramId(first, second)
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
    this.lineStarts.push(0)
  }

  /** Bytes of TSV rows added so far (the text a search would read from the fresh tail instead). */
  get textBytes(): number {
    return this.rowBytes
  }

  /** Lines added so far. */
  get lineCount(): number {
    return this.lines
  }

  /** Source files (or pieces of them) added so far. */
  get docCount(): number {
    return this.docs.length
  }

  /** A measure of the memory the builder holds (bytes, roughly). */
  get memoryBytes(): number {
    return this.lineGrams.n * 5 + this.grams * 40 + this.lines * 8
  }

  /** Drops every line from `lines` on, and the records of source files that begin there. */
  truncate(lines: number): void {
    if (lines >= this.lines) return
    this.lines = lines
    this.offsets.n = lines
    this.lineStarts.n = lines + 1
    this.lineGrams.n = this.lineStarts.a[lines] ?? 0
    while (this.docs.length > 0 && (this.docs[this.docs.length - 1]?.first ?? 0) >= lines && (this.docs[this.docs.length - 1]?.count ?? 0) > 0) this.docs.pop()
  }

  /** Records a source file (or piece) whose lines were added; used by {@link DocFeed}. */
  addRecord(record: DocRecord): void {
    this.docs.push(record)
  }

  /** Adds one source file from its TSVs in one go ({@link DocFeed} without cuts). */
  addDoc(doc: DocInput, tsvs: ReadonlyArray<TsvSource>): void {
    const feed = new DocFeed(doc, tsvs)
    while (feed.step(this)) {
      // one block after the other
    }
  }

  /**
   * Adds the rows of `block` (whole rows of a TSV body, the last perhaps
   * without its line feed), whose first byte stands at `offset` in its TSV.
   * Empty rows are skipped, as `parseBodyTsv` does; used by {@link DocFeed}.
   */
  addRows(block: Uint8Array, offset: number): void {
    const raw = decoder.decode(block)
    const normalized = normalizeForSearch(raw)
    // Checked as the rows are walked (counting the line feeds of both texts first cost 4% of the
    // 2-gram thread, issue 20): should the normalisation ever make or take one, the rows added
    // from this block are taken back and every row is read on its own.
    const linesBefore = this.lines
    // No escape anywhere in the block (most blocks): every row's columns are read in place.
    const plain = !raw.includes("\\") && !raw.includes("\r")
    // Three cursors in step: bytes, the decoded text, its normalisation (which keeps every line
    // feed and tab, so their rows correspond).
    let b = 0
    let r = 0
    let n = 0
    while (b < block.length) {
      let be = block.indexOf(0x0a, b)
      if (be < 0) be = block.length
      let re = raw.indexOf("\n", r)
      if (re < 0) re = raw.length
      let ne = normalized.indexOf("\n", n)
      if (ne < 0) ne = normalized.length
      if ((re === raw.length) !== (ne === normalized.length)) {
        this.truncate(linesBefore)
        this.addRowsOneByOne(block, raw, offset)
        return
      }
      if (be > b) {
        this.offsets.push(offset + b)
        this.stamp++
        // The columns found in the normalised row (its tabs are the raw row's), without a copy of
        // the raw row unless it is read on its own: escaped, or not two or three columns.
        const ntab = plain ? normalized.indexOf("\t", n) : -1
        const ntab2 = ntab >= 0 && ntab < ne ? normalized.indexOf("\t", ntab + 1) : -1
        if (ntab < 0 || ntab >= ne) this.addRow(raw.slice(r, re))
        else if (ntab2 < 0 || ntab2 >= ne) this.addGrams(normalized, ntab + 1, ne, 0)
        else {
          const ntab3 = normalized.indexOf("\t", ntab2 + 1)
          if (ntab3 < 0 || ntab3 >= ne) this.addTextAndForms(normalized, ntab + 1, ntab2, ntab2 + 1, ne)
          else this.addRow(raw.slice(r, re))
        }
        this.lineStarts.push(this.lineGrams.n)
        this.lines++
      }
      b = be + 1
      r = re + 1
      n = ne + 1
    }
    if (n < normalized.length) {
      this.truncate(linesBefore)
      this.addRowsOneByOne(block, raw, offset)
      return
    }
    this.rowBytes += block.length
  }

  private addRowsOneByOne(block: Uint8Array, raw: string, offset: number): void {
    let b = 0
    let r = 0
    while (b < block.length) {
      let be = block.indexOf(0x0a, b)
      if (be < 0) be = block.length
      let re = raw.indexOf("\n", r)
      if (re < 0) re = raw.length
      if (be > b) {
        this.offsets.push(offset + b)
        this.stamp++
        this.addRow(raw.slice(r, re))
        this.lineStarts.push(this.lineGrams.n)
        this.lines++
      }
      b = be + 1
      r = re + 1
    }
    this.rowBytes += block.length
  }

  // The grams of one row read on its own: its text, then its forms (if any).
  private addRow(row: string): void {
    const [, text = "", forms = ""] = parseTsvLine(row)
    const norm = normalizeForSearch(text)
    if (forms === "") {
      this.addGrams(norm, 0, norm.length, 0)
      return
    }
    const nforms = normalizeForSearch(forms)
    const both = norm + "\t" + nforms
    this.addTextAndForms(both, 0, norm.length, norm.length + 1, both.length)
  }

  // The grams of a text `s[a, b)` and its forms `s[c, d)`: the forms' positions start past the
  // text's last gram (position tags then never line a term up across the two: S4).
  private addTextAndForms(s: string, a: number, b: number, c: number, d: number): void {
    const last = this.addGrams(s, a, b, 0)
    this.addGrams(s, c, d, last + 2)
  }

  /** The dense number of the gram (first, second) when either is 256 or more; a new one when unseen. */
  private wideGramId(first: number, second: number): number {
    const mask = this.slotIds.length - 1
    let slot = hashPair(first, second) & mask
    for (;;) {
      const id = this.slotIds[slot] ?? -1
      if (id < 0) break
      if (this.slotFirst[slot] === first && this.slotSecond[slot] === second) return id
      slot = (slot + 1) & mask
    }
    const id = this.newGram(first, second)
    this.slotFirst[slot] = first
    this.slotSecond[slot] = second
    this.slotIds[slot] = id
    if (this.grams * 2 > this.slotIds.length) this.rehash()
    return id
  }

  /** The dense number of an existing gram by its key (-1 when the builder has none). */
  private gramIdOfKey(key: number): number {
    const [first, second] = gramOfKey(key)
    if ((first | second) < 256) return this.narrowIds[(first << 8) | second] ?? -1
    const mask = this.slotIds.length - 1
    for (let slot = hashPair(first, second) & mask; ; slot = (slot + 1) & mask) {
      const id = this.slotIds[slot] ?? -1
      if (id < 0 || (this.slotFirst[slot] === first && this.slotSecond[slot] === second)) return id
    }
  }

  private newGram(first: number, second: number): number {
    const id = this.grams++
    if (id === this.gramFirst.length) this.growGrams()
    this.gramFirst[id] = first
    this.gramSecond[id] = second
    return id
  }

  private growGrams(): void {
    const n = this.gramFirst.length * 2
    const firsts = new Int32Array(n)
    firsts.set(this.gramFirst)
    this.gramFirst = firsts
    const seconds = new Int32Array(n)
    seconds.set(this.gramSecond)
    this.gramSecond = seconds
    const last = new Int32Array(n).fill(-1)
    last.set(this.lastSeen)
    this.lastSeen = last
    const entries = new Int32Array(n)
    entries.set(this.entryOf)
    this.entryOf = entries
  }

  // Grows the hash table (narrow grams stay out of it).
  private rehash(): void {
    const size = this.slotIds.length * 2
    const firsts = new Int32Array(size)
    const seconds = new Int32Array(size)
    const ids = new Int32Array(size).fill(-1)
    const mask = size - 1
    for (let id = 0; id < this.grams; id++) {
      const first = this.gramFirst[id] ?? 0
      const second = this.gramSecond[id] ?? 0
      if ((first | second) < 256) continue
      let slot = hashPair(first, second) & mask
      while ((ids[slot] ?? -1) >= 0) slot = (slot + 1) & mask
      firsts[slot] = first
      seconds[slot] = second
      ids[slot] = id
    }
    this.slotFirst = firsts
    this.slotSecond = seconds
    this.slotIds = ids
  }

  /**
   * Writes the segment's files as `<gramDir>/<id>.*` (each flushed to disk)
   * and returns what the manifest needs. Throws on I/O errors.
   */
  write(gramDir: string, id: string): WrittenSegment {
    const steps = this.segmentSteps(id)
    for (;;) {
      const r = steps.next()
      if (r.done === true) return r.value
      // Sync: the round writes on the commander's thread in steps (round.ts); this is its durable write.
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
    const order = this.docs.map((_, i) => i).sort((x, y) => newestFirst(this.docs[x]!, this.docs[y]!) || x - y)
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
    const newOffs = asAdded ? offs.subarray(0, this.lines) : new Uint32Array(this.lines)
    const docs: Array<DocRecord> = asAdded ? this.docs : []
    let next = 0
    for (const d of order) {
      const doc = this.docs[d]!
      if (!asAdded) {
        const shift = next - doc.first
        docs.push({ ...doc, first: next, parts: doc.parts.map((p) => ({ ...p, first: p.first + shift })) })
      }
      for (let line = doc.first, last = doc.first + doc.count; line < last; line++) {
        for (let j = starts[line] ?? 0, end = starts[line + 1] ?? 0; j < end; j++) {
          const g = lineGrams[j] ?? 0
          const at = fill[g] ?? 0
          ids[at] = next
          tags[at] = lineTags[j] ?? POSITION_UNKNOWN
          fill[g] = at + 1
        }
        if (!asAdded) newOffs[next] = offs[line] ?? 0
        next++
        if (next % WRITE_STEP === 0) yield
      }
    }
    // Grams with no line are not in the dictionary.
    let live = 0
    for (let g = 0; g < n; g++) if ((counts[g] ?? 0) > 0) live++
    const sortedKeys = new Float64Array(live)
    for (let g = 0, k = 0; g < n; g++) if ((counts[g] ?? 0) > 0) sortedKeys[k++] = gramKey(this.gramFirst[g] ?? 0, this.gramSecond[g] ?? 0)
    sortedKeys.sort()
    const post = new GrowBytes(Math.max(1024, total * 2))
    const dict = new DataView(new ArrayBuffer((live + 1) * DICT_ENTRY_BYTES))
    const sparse = new Float64Array(Math.ceil(live / SPARSE_EVERY))
    let encodedAtStep = 0
    for (let rank = 0; rank < live; rank++) {
      const key = sortedKeys[rank] ?? 0
      const g = this.gramIdOfKey(key)
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
    yield { name: id + ".offs", data: encodeOffsets(newOffs) }
    yield { name: id + ".docs", data: [encodeDocTable(docs)] }
    return { segment: { id, docs: docs.length, lines: this.lines, textBytes: this.rowBytes }, docs }
  }
}

/** Mixes the two halves of a gram key into a 32-bit hash. */
function hashPair(first: number, second: number): number {
  let h = Math.imul(second ^ Math.imul(first, 0x85ebca6b), 0x9e3779b1)
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
