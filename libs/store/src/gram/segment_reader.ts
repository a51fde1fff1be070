/**
 * Reads one segment of the gram index by positioned reads, never the whole
 * files: opening loads the source-file table and the sparse key index; a
 * lookup reads one block of the dictionary, then the posting list; a line is
 * two small reads. So a `sagasu search` in a fresh process stays fast on a
 * large index, and memory does not grow with the index.
 *
 * @module
 */
import { POSITION_UNKNOWN, POSTING_BLOCK, fileTypeOf, normalizeForSearch, readVarint, unescapeTsvField } from "@sagasu/domain"
import * as fs from "node:fs"
import * as path from "node:path"
import type { SegmentEntry } from "./manifest.ts"
import { DICT_ENTRY_BYTES, type DocRecord, SPARSE_EVERY } from "./segment_builder.ts"

/** A source file of an open segment, with what the filters and the ranking need. */
export interface DocView {
  readonly record: DocRecord
  /** Normalised index name, path, and the path's file type. */
  readonly normIndex: string
  readonly normPath: string
  readonly type: string
  /** Deleted since the segment was written (replaced or removed). */
  readonly deleted: boolean
}

/** Where one posting list lies in `.post` and how many ids it holds. */
export interface PostingRef {
  readonly offset: number
  readonly length: number
  readonly df: number
}

const decoder = new TextDecoder()

function preadExact(fd: number, length: number, position: number): Uint8Array {
  const buf = new Uint8Array(length)
  let done = 0
  while (done < length) {
    const n = fs.readSync(fd, buf, done, length - done, position + done)
    if (n === 0) throw new Error(`short read at ${position + done}`)
    done += n
  }
  return buf
}

// Bytes of `.text` read at once when a line is not in the current window.
const TEXT_WINDOW = 32 * 1024

// Pages of `.offs` kept in memory (4 KiB each) so consecutive lines cost one read.
const OFFS_PAGE = 1024

/** An open segment; call {@link SegmentReader.close} when done. Methods throw on I/O errors. */
export class SegmentReader {
  readonly id: string
  readonly docs: ReadonlyArray<DocView>
  readonly lines: number
  /** Size of `.post` in bytes. */
  readonly postingsBytes: number
  private readonly firstLines: Int32Array
  private readonly sparse: Float64Array
  private readonly entries: number
  private readonly fds: { dict: number; post: number; text: number; offs: number }
  private readonly offsPages = new Map<number, DataView>()
  private readonly textBytesTotal: number
  private window: Uint8Array = new Uint8Array(0)
  private windowStart = 0

  private constructor(
    id: string,
    docs: ReadonlyArray<DocView>,
    lines: number,
    sparse: Float64Array,
    entries: number,
    fds: { dict: number; post: number; text: number; offs: number }
  ) {
    this.id = id
    this.docs = docs
    this.lines = lines
    this.sparse = sparse
    this.entries = entries
    this.fds = fds
    this.postingsBytes = fs.fstatSync(fds.post).size
    this.textBytesTotal = fs.fstatSync(fds.text).size
    this.firstLines = Int32Array.from(docs, (d) => d.record.first)
  }

  /** Opens the segment `entry` of `gramDir`; throws when a file is missing or damaged. */
  static open(gramDir: string, entry: SegmentEntry): SegmentReader {
    const file = (ext: string) => path.join(gramDir, entry.id + ext)
    const records = (JSON.parse(fs.readFileSync(file(".docs.json"), "utf8")) as { docs: Array<DocRecord> }).docs
    const deleted = new Set<number>(
      entry.deleted === "" ? [] : (JSON.parse(fs.readFileSync(path.join(gramDir, entry.deleted), "utf8")) as Array<number>)
    )
    const docs = records.map((record, i): DocView => ({
      record,
      normIndex: normalizeForSearch(record.index),
      normPath: normalizeForSearch(record.path),
      type: fileTypeOf(record.path),
      deleted: deleted.has(i)
    }))
    const dix = fs.readFileSync(file(".dix"))
    const sparse = new Float64Array(dix.length / 8)
    const view = new DataView(dix.buffer, dix.byteOffset, dix.byteLength)
    for (let i = 0; i < sparse.length; i++) sparse[i] = view.getFloat64(i * 8, true)
    const fds: Array<number> = []
    try {
      for (const ext of [".dict", ".post", ".text", ".offs"]) fds.push(fs.openSync(file(ext), "r"))
    } catch (e) {
      for (const fd of fds) fs.closeSync(fd)
      throw e
    }
    const [dict = -1, post = -1, text = -1, offs = -1] = fds
    const entries = fs.fstatSync(dict).size / DICT_ENTRY_BYTES - 1
    return new SegmentReader(entry.id, docs, entry.lines, sparse, entries, { dict, post, text, offs })
  }

  /** Closes the segment's files. */
  close(): void {
    for (const fd of Object.values(this.fds)) fs.closeSync(fd)
  }

  /** The number of the doc holding `line` (binary search). */
  docOfLine(line: number): number {
    let lo = 0
    let hi = this.firstLines.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if ((this.firstLines[mid] ?? 0) <= line) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  // Index of the first dictionary entry whose key is ≥ key (entries when none).
  private lowerBound(key: number): number {
    let lo = 0
    let hi = this.sparse.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((this.sparse[mid] ?? 0) < key) lo = mid + 1
      else hi = mid
    }
    // Entries of block lo-1 are < key only up to somewhere inside it.
    const block = Math.max(0, lo - 1)
    const start = block * SPARSE_EVERY
    const count = Math.min(SPARSE_EVERY, this.entries - start)
    if (count <= 0) return this.entries
    const view = this.readDict(start, count)
    let a = 0
    let b = count
    while (a < b) {
      const mid = (a + b) >> 1
      if (view.getFloat64(mid * DICT_ENTRY_BYTES, true) < key) a = mid + 1
      else b = mid
    }
    if (a < count) return start + a
    // Past this block: the next block starts with a key ≥ key.
    return Math.min(this.entries, start + SPARSE_EVERY)
  }

  private readDict(start: number, count: number): DataView {
    const bytes = preadExact(this.fds.dict, (count + 1) * DICT_ENTRY_BYTES, start * DICT_ENTRY_BYTES)
    return new DataView(bytes.buffer)
  }

  /** The posting lists of all keys in `[from, to)` (one dictionary read). */
  lookupRange(from: number, to: number): Array<PostingRef> {
    const a = this.lowerBound(from)
    if (a >= this.entries) return []
    const b = this.lowerBound(to)
    if (b <= a) return []
    const view = this.readDict(a, b - a)
    const refs: Array<PostingRef> = []
    for (let i = 0; i < b - a; i++) {
      const offset = view.getFloat64(i * DICT_ENTRY_BYTES + 8, true)
      const next = view.getFloat64((i + 1) * DICT_ENTRY_BYTES + 8, true)
      refs.push({ offset, length: next - offset, df: view.getUint32(i * DICT_ENTRY_BYTES + 16, true) })
    }
    return refs
  }

  /** The posting list of `key`, or `undefined` when no line holds the gram. */
  lookup(key: number): PostingRef | undefined {
    const a = this.lowerBound(key)
    if (a >= this.entries) return undefined
    const view = this.readDict(a, 1)
    if (view.getFloat64(0, true) !== key) return undefined
    const offset = view.getFloat64(8, true)
    return { offset, length: view.getFloat64(DICT_ENTRY_BYTES + 8, true) - offset, df: view.getUint32(16, true) }
  }

  /** Reads `length` bytes of `.post` from `offset` (one posting list or a run of them). */
  readPostings(offset: number, length: number): Uint8Array {
    return length === 0 ? new Uint8Array(0) : preadExact(this.fds.post, length, offset)
  }

  private offsetOf(line: number): number {
    const page = Math.floor(line / OFFS_PAGE)
    let view = this.offsPages.get(page)
    if (view === undefined) {
      const start = page * OFFS_PAGE
      const count = Math.min(OFFS_PAGE, this.lines + 1 - start)
      const bytes = preadExact(this.fds.offs, count * 4, start * 4)
      view = new DataView(bytes.buffer)
      if (this.offsPages.size > 256) this.offsPages.clear()
      this.offsPages.set(page, view)
    }
    return view.getUint32((line - page * OFFS_PAGE) * 4, true)
  }

  /** The location and original text of line `line`. */
  line(line: number): { loc: string; text: string } {
    const start = this.offsetOf(line)
    const end = this.offsetOf(line + 1)
    // Candidates come in ascending order: read the lines store in windows.
    if (start < this.windowStart || end > this.windowStart + this.window.length) {
      const size = Math.max(end - start, TEXT_WINDOW)
      this.windowStart = start
      this.window = preadExact(this.fds.text, Math.min(size, this.textBytesTotal - start), start)
    }
    const record = decoder.decode(this.window.subarray(start - this.windowStart, end - this.windowStart))
    const tab = record.indexOf("\t")
    return { loc: unescapeTsvField(record.slice(0, tab)), text: record.slice(tab + 1) }
  }

  /** The raw bytes of lines `[first, first + count)` of `.text` (for merging). */
  textBytes(first: number, count: number): Uint8Array {
    const start = this.offsetOf(first)
    const end = this.offsetOf(first + count)
    return end === start ? new Uint8Array(0) : preadExact(this.fds.text, end - start, start)
  }

  /** The byte offsets of lines `[first, first + count]` relative to the first (for merging). */
  lineOffsets(first: number, count: number): Uint32Array {
    const out = new Uint32Array(count + 1)
    const base = this.offsetOf(first)
    for (let i = 0; i <= count; i++) out[i] = this.offsetOf(first + i) - base
    return out
  }

  /** Every dictionary entry in key order (for merging): keys, offsets, dfs. */
  readAllEntries(): { keys: Float64Array; offsets: Float64Array; dfs: Uint32Array } {
    const view = this.readDict(0, this.entries)
    const keys = new Float64Array(this.entries)
    const offsets = new Float64Array(this.entries + 1)
    const dfs = new Uint32Array(this.entries)
    for (let i = 0; i < this.entries; i++) {
      keys[i] = view.getFloat64(i * DICT_ENTRY_BYTES, true)
      offsets[i] = view.getFloat64(i * DICT_ENTRY_BYTES + 8, true)
      dfs[i] = view.getUint32(i * DICT_ENTRY_BYTES + 16, true)
    }
    offsets[this.entries] = view.getFloat64(this.entries * DICT_ENTRY_BYTES + 8, true)
    return { keys, offsets, dfs }
  }
}

/** The id no posting list reaches: a cursor past its end shows it. */
export const END = 0xffffffff

/** A forward-only walk over ascending line ids. */
export interface Cursor {
  /** The current id (`-1` before the start, {@link END} after the end). */
  readonly cur: number
  /** Ids in the underlying lists (an upper bound for unions). */
  readonly df: number
  /** Moves to the first id ≥ `target` and returns it (or {@link END}). */
  advance(target: number): number
}

/**
 * A cursor over one posting list held in memory (layout: the domain's
 * `encodePostingsInto`). Long lists carry a skip table, so advancing far
 * (intersecting with a rarer list) jumps over whole blocks of 128 ids
 * instead of decoding them.
 */
export class ListCursor implements Cursor {
  cur = -1
  /** The position tag of the current id (domain `positionTag`). */
  tag = POSITION_UNKNOWN
  readonly df: number
  private readonly bytes: Uint8Array
  private pos: number
  private left: number
  // Skip table: last id of block b, start of block b (b = 0 … blocks).
  private readonly skipLast: Uint32Array | undefined
  private readonly skipStart: Uint32Array | undefined
  constructor(bytes: Uint8Array, at: number, df: number) {
    this.bytes = bytes
    this.df = df
    this.left = df
    if (df > POSTING_BLOCK) {
      let [blocks, pos] = readVarint(bytes, at)
      const last = new Uint32Array(blocks)
      const lengths = new Uint32Array(blocks)
      let id = 0
      for (let b = 0; b < blocks; b++) {
        const [delta, p1] = readVarint(bytes, pos)
        const [length, p2] = readVarint(bytes, p1)
        id += delta
        last[b] = id
        lengths[b] = length
        pos = p2
      }
      const start = new Uint32Array(blocks + 1)
      start[0] = pos
      for (let b = 0; b < blocks; b++) start[b + 1] = (start[b] ?? 0) + (lengths[b] ?? 0)
      this.skipLast = last
      this.skipStart = start
      this.pos = pos
    } else {
      this.skipLast = undefined
      this.skipStart = undefined
      this.pos = at
    }
  }

  advance(target: number): number {
    const bytes = this.bytes
    let cur = this.cur
    if (cur >= target) return cur
    let pos = this.pos
    let left = this.left
    const skipLast = this.skipLast
    if (skipLast !== undefined && left > 0) {
      // Jump to the first block that may hold target, if it lies ahead.
      const consumed = this.df - left
      const from = Math.floor(consumed / POSTING_BLOCK)
      let k = from
      while (k < skipLast.length && (skipLast[k] ?? 0) < target) k++
      if (k > from) {
        cur = skipLast[k - 1] ?? 0
        pos = this.skipStart?.[k] ?? pos
        left = this.df - k * POSTING_BLOCK
      }
    }
    while (cur < target) {
      if (left === 0) {
        cur = END
        break
      }
      let b = bytes[pos++] ?? 0
      let v = b & 0x7f
      let shift = 7
      while (b & 0x80) {
        b = bytes[pos++] ?? 0
        v += (b & 0x7f) * 2 ** shift
        shift += 7
      }
      cur = left === this.df ? v : cur + v
      this.tag = bytes[pos++] ?? POSITION_UNKNOWN
      left--
    }
    this.pos = pos
    this.left = left
    this.cur = cur
    return cur
  }
}

/** The union of several cursors (the lines holding a 1-character term). */
export class UnionCursor implements Cursor {
  cur = -1
  readonly df: number
  private readonly heap: Array<Cursor>
  constructor(cursors: ReadonlyArray<Cursor>) {
    this.heap = [...cursors]
    this.df = cursors.reduce((n, c) => n + c.df, 0)
  }

  advance(target: number): number {
    const heap = this.heap
    if (this.cur < 0) {
      for (const c of heap) c.advance(target)
      heap.sort((a, b) => a.cur - b.cur)
    }
    // Restore the heap property after moving the top down.
    for (;;) {
      const top = heap[0]
      if (top === undefined) return (this.cur = END)
      if (top.cur >= target) return (this.cur = top.cur)
      top.advance(target)
      let i = 0
      const n = heap.length
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let m = i
        if (l < n && heap[l]!.cur < heap[m]!.cur) m = l
        if (r < n && heap[r]!.cur < heap[m]!.cur) m = r
        if (m === i) break
        const t = heap[i]!
        heap[i] = heap[m]!
        heap[m] = t
        i = m
      }
    }
  }
}

/** The intersection of several cursors (every gram of every term). */
export class AndCursor implements Cursor {
  cur = -1
  readonly df: number
  private readonly cursors: ReadonlyArray<Cursor>
  constructor(cursors: ReadonlyArray<Cursor>) {
    // The rarest list leads: it proposes the fewest candidates.
    this.cursors = [...cursors].sort((a, b) => a.df - b.df)
    this.df = this.cursors[0]?.df ?? 0
  }

  advance(target: number): number {
    let candidate = target
    const cursors = this.cursors
    if (cursors.length === 0) return (this.cur = END)
    outer: for (;;) {
      for (const c of cursors) {
        const v = c.cur >= candidate ? c.cur : c.advance(candidate)
        if (v === END) return (this.cur = END)
        if (v > candidate) {
          candidate = v
          continue outer
        }
      }
      return (this.cur = candidate)
    }
  }
}
