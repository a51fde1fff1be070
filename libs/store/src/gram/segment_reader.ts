/**
 * Reads one segment of the gram index by positioned reads, never the whole
 * files: opening reads the source-file table (`.docs`, decoded lazily) and
 * the sparse key index; a lookup reads one block of the dictionary, then the
 * posting list; a line is one small read of its row in the body index's TSV
 * (format 2 keeps no copy of the text, issue 20). So a `sagasu search` in a
 * fresh process stays fast on a large index, and memory does not grow with
 * the index.
 *
 * A line is read only while its source file's folder is still the one the
 * segment indexed (same inode and mtime as its fingerprint): a folder
 * replaced or removed since reads as no line, and the search takes that file
 * from the fresh tail instead (S1, searcher.ts).
 *
 * @module
 */
import { POSITION_UNKNOWN, fileTypeOf, normalizeForSearch, unescapeTsvField } from "@sagasu/domain"
import * as fs from "node:fs"
import * as path from "node:path"
import { preadSync as pread } from "../_sync_fs.ts"
import { folderIdentityOf } from "./body_walk.ts"
import { type DocPart, DocTable } from "./doc_table.ts"
import type { SegmentEntry } from "./manifest_format.ts"
import { OFFS_PAGE_LINES, POSTING_BLOCK, decodeOffsetsPage, isPagedOffsets, readVarint, varintAt, varintEnd } from "./format.ts"
import { DICT_ENTRY_BYTES, SPARSE_EVERY } from "./segment_builder.ts"

/** Where one posting list lies in `.post` and how many ids it holds. */
export interface PostingRef {
  readonly offset: number
  readonly length: number
  readonly df: number
}

// A row may begin with U+FEFF: keep it.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true })

function preadExact(fd: number, length: number, position: number): Uint8Array {
  const buf = pread(fd, length, position)
  if (buf.length < length) throw new Error(`short read at ${position + buf.length}`)
  return buf
}

// Bytes of a TSV read at once when a line is not in the current window.
const TEXT_WINDOW = 32 * 1024

// TSVs kept open at once while reading lines.
const OPEN_TSVS = 8

/** A source file of an open segment, with what the filters and the ranking need (decoded on first use). */
export interface DocView {
  readonly index: string
  readonly path: string
  readonly normIndex: string
  readonly normPath: string
  readonly type: string
  readonly fingerprint: string
}

/** An open segment; call {@link SegmentReader.close} when done. Methods throw on I/O errors. */
export class SegmentReader {
  readonly id: string
  readonly docs: DocTable
  readonly lines: number
  /** Size of `.post` in bytes. */
  readonly postingsBytes: number
  private readonly deleted: Uint8Array
  private readonly indexRoot: string
  private readonly sparse: Float64Array
  private readonly entries: number
  private readonly fds: { dict: number; post: number; offs: number }
  // Pages of `.offs` kept in memory, so consecutive lines cost one read.
  private readonly offsPages = new Map<number, Uint32Array>()
  // `.offs` in the paged layout: where its page table starts (undefined: not looked at yet; -1: a u32 a line).
  private offsTable: number | undefined
  private mergePage: { page: number; offsets: Uint32Array } | undefined
  private readonly views = new Map<number, DocView>()
  private readonly parts = new Map<number, ReadonlyArray<DocPart>>()
  // Per doc: the folder its lines are read from — the body index's, or its staging folder until it
  // is published — or undefined when neither is the one indexed (checked once per reader).
  private readonly current = new Map<number, string | undefined>()
  private readonly tsvs = new Map<string, { fd: number; window: Uint8Array; start: number }>()

  private constructor(
    id: string,
    docs: DocTable,
    deleted: Uint8Array,
    indexRoot: string,
    lines: number,
    sparse: Float64Array,
    entries: number,
    fds: { dict: number; post: number; offs: number }
  ) {
    this.id = id
    this.docs = docs
    this.deleted = deleted
    this.indexRoot = indexRoot
    this.lines = lines
    this.sparse = sparse
    this.entries = entries
    this.fds = fds
    this.postingsBytes = fs.fstatSync(fds.post).size
  }

  /**
   * Opens the segment `entry` of `gramDir`, whose lines stand in the body
   * index at `indexRoot`; throws when a file is missing or damaged.
   */
  static open(gramDir: string, entry: SegmentEntry, indexRoot: string): SegmentReader {
    const file = (ext: string) => path.join(gramDir, entry.id + ext)
    const docs = new DocTable(fs.readFileSync(file(".docs")))
    const deleted = new Uint8Array(docs.length)
    if (entry.deleted !== "") {
      for (const d of JSON.parse(fs.readFileSync(path.join(gramDir, entry.deleted), "utf8")) as Array<number>) {
        if (d >= 0 && d < deleted.length) deleted[d] = 1
      }
    }
    const dix = fs.readFileSync(file(".dix"))
    const sparse = new Float64Array(dix.length / 8)
    const view = new DataView(dix.buffer, dix.byteOffset, dix.byteLength)
    for (let i = 0; i < sparse.length; i++) sparse[i] = view.getFloat64(i * 8, true)
    const fds: Array<number> = []
    try {
      for (const ext of [".dict", ".post", ".offs"]) fds.push(fs.openSync(file(ext), "r"))
    } catch (e) {
      for (const fd of fds) fs.closeSync(fd)
      throw e
    }
    const [dict = -1, post = -1, offs = -1] = fds
    const entries = fs.fstatSync(dict).size / DICT_ENTRY_BYTES - 1
    return new SegmentReader(entry.id, docs, deleted, indexRoot, entry.lines, sparse, entries, { dict, post, offs })
  }

  /** Closes the segment's files. */
  close(): void {
    for (const fd of Object.values(this.fds)) fs.closeSync(fd)
    for (const t of this.tsvs.values()) fs.closeSync(t.fd)
    this.tsvs.clear()
  }

  /** Whether doc `d` was deleted since the segment was written (replaced or removed). */
  isDeleted(d: number): boolean {
    return this.deleted[d] === 1
  }

  /** Doc `d` with its normalised names and type (cached). */
  view(d: number): DocView {
    let v = this.views.get(d)
    if (v === undefined) {
      const p = this.docs.path(d)
      const index = this.docs.index(d)
      v = { index, path: p, normIndex: normalizeForSearch(index), normPath: this.docs.normPath(d), type: fileTypeOf(p), fingerprint: this.docs.fingerprint(d) }
      this.views.set(d, v)
    }
    return v
  }

  /** The parts of doc `d` (cached). */
  partsOf(d: number): ReadonlyArray<DocPart> {
    let parts = this.parts.get(d)
    if (parts === undefined) {
      parts = this.docs.parts(d)
      if (this.parts.size > 4096) this.parts.clear()
      this.parts.set(d, parts)
    }
    return parts
  }

  /** The number of the doc holding `line`. */
  docOfLine(line: number): number {
    return this.docs.docOfLine(line)
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
    const page = Math.floor(line / OFFS_PAGE_LINES)
    let offsets = this.offsPages.get(page)
    if (offsets === undefined) {
      offsets = this.readOffsPage(page)
      if (this.offsPages.size > 256) this.offsPages.clear()
      this.offsPages.set(page, offsets)
    }
    return offsets[line - page * OFFS_PAGE_LINES] ?? 0
  }

  // Page `page` of `.offs`, in either layout: format.ts's paged one (OffsetsWriter), or a u32 a line
  // (segments written before it, read as they are).
  private readOffsPage(page: number): Uint32Array {
    const start = page * OFFS_PAGE_LINES
    const count = Math.min(OFFS_PAGE_LINES, this.lines - start)
    if (this.offsTable === undefined) {
      const size = fs.fstatSync(this.fds.offs).size
      const paged = size >= 16 && isPagedOffsets(preadExact(this.fds.offs, 8, 0))
      this.offsTable = paged ? size - 8 - 8 * (Math.ceil(this.lines / OFFS_PAGE_LINES) + 1) : -1
    }
    if (this.offsTable < 0) {
      const view = new DataView(preadExact(this.fds.offs, count * 4, start * 4).buffer)
      const out = new Uint32Array(count)
      for (let i = 0; i < count; i++) out[i] = view.getUint32(i * 4, true)
      return out
    }
    const where = new DataView(preadExact(this.fds.offs, 16, this.offsTable + 8 * page).buffer)
    const from = where.getFloat64(0, true)
    return decodeOffsetsPage(preadExact(this.fds.offs, where.getFloat64(8, true) - from, from), count)
  }

  /**
   * The folder doc `d`'s lines are read from: its body-index folder while it
   * is the one this segment indexed, else its staging folder while the file
   * waits there to be published (R14), else `undefined` (replaced or removed
   * since: the fresh tail has it).
   */
  folderOf(d: number): string | undefined {
    if (this.current.has(d)) return this.current.get(d)
    const v = this.view(d)
    const matches = (dir: string) => {
      const info = fs.statSync(dir, { throwIfNoEntry: false })
      return info !== undefined && v.fingerprint.startsWith(folderIdentityOf(info) + ":")
    }
    const body = path.join(this.indexRoot, v.index, ...v.path.split("/"))
    const staging = this.docs.staging(d)
    const staged = staging === "" ? undefined : path.join(path.dirname(this.indexRoot), ...staging.split("/"))
    const dir = matches(body) ? body : staged !== undefined && matches(staged) ? staged : undefined
    this.current.set(d, dir)
    return dir
  }

  /** Whether doc `d`'s text is still the one this segment indexed (in the body index, or staged). */
  isCurrent(d: number): boolean {
    return this.folderOf(d) !== undefined
  }

  /**
   * The location and original text of line `line` (and its search-only
   * forms, `""` when none: S4 — a snippet shows only the text), read from
   * its row in the body index; `undefined` when its folder is no longer the
   * one indexed (replaced or removed since: {@link isCurrent}) or its TSV is
   * gone.
   */
  line(line: number): { loc: string; text: string; forms: string } | undefined {
    const d = this.docs.docOfLine(line)
    const parts = this.partsOf(d)
    const part = parts.find((p) => line >= p.first && line < p.first + p.count)
    if (part === undefined) return undefined
    const start = this.offsetOf(line)
    const end = line + 1 < part.first + part.count ? this.offsetOf(line + 1) : part.end
    let bytes: Uint8Array | undefined
    for (let attempt = 0; attempt < 2 && bytes === undefined; attempt++) {
      const dir = this.folderOf(d)
      if (dir === undefined) return undefined
      bytes = this.rowBytes(path.join(dir, part.file), start, end)
      // Moved since it was looked up (a staged folder published by a rename): look again.
      if (bytes === undefined) this.current.delete(d)
    }
    if (bytes === undefined) return undefined
    let row = decoder.decode(bytes)
    while (row.endsWith("\n")) row = row.slice(0, -1)
    const tab = row.indexOf("\t")
    if (tab < 0) return { loc: unescapeTsvField(row), text: "", forms: "" }
    const next = row.indexOf("\t", tab + 1)
    if (next < 0) return { loc: unescapeTsvField(row.slice(0, tab)), text: unescapeTsvField(row.slice(tab + 1)), forms: "" }
    const after = row.indexOf("\t", next + 1)
    return {
      loc: unescapeTsvField(row.slice(0, tab)),
      text: unescapeTsvField(row.slice(tab + 1, next)),
      forms: unescapeTsvField(after < 0 ? row.slice(next + 1) : row.slice(next + 1, after))
    }
  }

  // Bytes [start, end) of a TSV through a window (candidates come in ascending order).
  private rowBytes(file: string, start: number, end: number): Uint8Array | undefined {
    let t = this.tsvs.get(file)
    if (t === undefined) {
      let fd: number
      try {
        fd = fs.openSync(file, "r")
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code
        if (code === "ENOENT" || code === "ENOTDIR") return undefined
        throw e
      }
      if (this.tsvs.size >= OPEN_TSVS) {
        const [oldest, open] = this.tsvs.entries().next().value as [string, { fd: number }]
        fs.closeSync(open.fd)
        this.tsvs.delete(oldest)
      }
      t = { fd, window: new Uint8Array(0), start: 0 }
      this.tsvs.set(file, t)
    }
    if (start < t.start || end > t.start + t.window.length) {
      t.start = start
      t.window = pread(t.fd, Math.max(end - start, TEXT_WINDOW), start)
      if (t.window.length < end - start) return undefined
    }
    return t.window.subarray(start - t.start, end - t.start)
  }

  /** The row offsets of lines `[first, first + count)` (for merging). */
  rowOffsets(first: number, count: number): Uint32Array {
    const out = new Uint32Array(count)
    let i = 0
    while (i < count) {
      const line = first + i
      const page = Math.floor(line / OFFS_PAGE_LINES)
      // Pages straight from the file, not through the cache a search keeps; the last one kept (a merge
      // asks for each part's first row, in line order).
      let offsets = this.offsPages.get(page) ?? (this.mergePage?.page === page ? this.mergePage.offsets : undefined)
      if (offsets === undefined) {
        offsets = this.readOffsPage(page)
        this.mergePage = { page, offsets }
      }
      const from = line - page * OFFS_PAGE_LINES
      const n = Math.min(offsets.length - from, count - i)
      out.set(offsets.subarray(from, from + n), i)
      i += n
    }
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
 * A cursor over one posting list held in memory (layout: format.ts's
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
      const v = varintAt(bytes, pos)
      pos = varintEnd
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
