/**
 * Merges segments into one, dropping deleted source files (the merge policy
 * of the gram index keeps the number of segments small, issue 6). The inputs
 * are given newest first and their lines are laid end to end in that order,
 * so line ids stay in "newest first" order and each posting list of the
 * result is the inputs' lists, renumbered, one after the other — no sorting.
 *
 * Sync `node:fs` here (STYLE 14): a merge streams posting lists through an 8
 * MiB buffer in steps on the commander's thread (`letOthersRun` between
 * steps, docs/benchmarks.md "2-gram"), reading with the Effect-free segment
 * reader; a FileSystem write per buffer would put a fiber and a thread-pool
 * round trip in every step.
 *
 * @module
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { writeAllSync, writeFileDurableSync } from "./manifest_format.ts"
import { type DocRecord, encodeDocTable } from "./doc_table.ts"
import { OffsetsWriter, encodePostingsInto, maxPostingsBytes, postingStreamStart, varintAt, varintEnd } from "./format.ts"
import { DICT_ENTRY_BYTES, SPARSE_EVERY, type WrittenSegment, littleEndianF64 } from "./segment_builder.ts"
import type { SegmentReader } from "./segment_reader.ts"

/** Writes a file through a buffer; {@link BufferedFile.finish} flushes, fsyncs and closes it. */
class BufferedFile {
  private readonly fd: number
  private buf = new Uint8Array(1 << 22)
  private n = 0
  written = 0
  constructor(file: string) {
    this.fd = fs.openSync(file, "w")
  }
  /** Room for `k` more bytes at `this.at`. */
  reserve(k: number): Uint8Array {
    if (this.n + k > this.buf.length) {
      this.flush()
      if (k > this.buf.length) this.buf = new Uint8Array(k)
    }
    return this.buf
  }
  get at(): number {
    return this.n
  }
  set at(v: number) {
    this.written += v - this.n
    this.n = v
  }
  write(bytes: Uint8Array): void {
    if (bytes.length > this.buf.length / 2) {
      this.flush()
      writeAllSync(this.fd, bytes)
      this.written += bytes.length
      return
    }
    this.reserve(bytes.length).set(bytes, this.n)
    this.at = this.n + bytes.length
  }
  private flush(): void {
    writeAllSync(this.fd, this.buf.subarray(0, this.n))
    this.n = 0
  }
  finish(): void {
    try {
      this.flush()
      fs.fsyncSync(this.fd)
    } finally {
      fs.closeSync(this.fd)
    }
  }
  abandon(): void {
    fs.closeSync(this.fd)
  }
}

/** Reads a file forward in large windows (posting lists are consumed in key order). */
class ForwardReader {
  private buf: Uint8Array = new Uint8Array(0)
  private start = 0
  private readonly segment: SegmentReader
  private readonly window: number
  constructor(segment: SegmentReader, window = 1 << 22) {
    this.segment = segment
    this.window = window
  }
  /** The bytes `[offset, offset + length)`; offsets must not go backwards. */
  get(offset: number, length: number): { bytes: Uint8Array; at: number } {
    if (offset < this.start || offset + length > this.start + this.buf.length) {
      this.start = offset
      this.buf = this.segment.readPostings(offset, Math.max(length, Math.min(this.window, this.segment.postingsBytes - offset)))
    }
    return { bytes: this.buf, at: offset - this.start }
  }
}

/**
 * Writes the segment `<gramDir>/<id>.*` holding the live source files of
 * `inputs` (newest first). Throws on I/O errors (the caller removes what was
 * written; no manifest names it yet).
 */
export function mergeSegments(gramDir: string, id: string, inputs: ReadonlyArray<SegmentReader>): WrittenSegment {
  const steps = mergeSteps(gramDir, id, inputs)
  for (;;) {
    const r = steps.next()
    if (r.done === true) return r.value
  }
}

// Posting ids decoded between two steps of mergeSteps.
const MERGE_STEP = 1 << 18

// Row offsets copied to the merged `.offs` per read: 4 MiB, however long a run of live docs is.
const OFFS_CHUNK = 1 << 20

/**
 * Where the live lines of one input go in the merged segment: runs of
 * consecutive live lines, `[from[k], from[k] + length[k])` → `to[k] + (line − from[k])`,
 * sorted by `from`; a line in no run is a deleted doc's and is dropped. A
 * few numbers a run of live docs instead of a 4-byte entry a line: the
 * drive benchmark's merges held a 234 MB table for an input of 58 M lines
 * (issue 20: memory).
 */
interface LineRuns {
  readonly from: Array<number>
  readonly to: Array<number>
  readonly length: Array<number>
}

/** The index of the run holding `line` or the first run after it (`runs.from.length` when none). */
function runIndexOf(runs: LineRuns, line: number): number {
  let lo = 0
  let hi = runs.from.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if ((runs.from[mid] ?? 0) + (runs.length[mid] ?? 0) <= line) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * {@link mergeSegments} in steps of a few milliseconds: each `undefined`
 * yielded is a point where a caller on a busy thread may let other work
 * run. Files are written as it goes (page-cache writes of ≤ 4 MiB each).
 */
export function* mergeSteps(gramDir: string, id: string, inputs: ReadonlyArray<SegmentReader>): Generator<undefined, WrittenSegment, undefined> {
  const file = (ext: string) => path.join(gramDir, id + ext)
  const docs: Array<DocRecord> = []
  const remaps: Array<LineRuns> = []
  const offs = new BufferedFile(file(".offs"))
  const offsets = new OffsetsWriter((bytes) => offs.write(bytes))
  let next = 0
  let textBytes = 0
  try {
    for (const input of inputs) {
      const remap: LineRuns = { from: [], to: [], length: [] }
      remaps.push(remap)
      const table = input.docs
      let d = 0
      while (d < table.length) {
        if (input.isDeleted(d)) {
          d++
          continue
        }
        // A run of live docs: its row offsets copied in reads of OFFS_CHUNK lines, its lines one LineRuns run.
        let e = d
        while (e < table.length && !input.isDeleted(e)) e++
        const first = table.first(d)
        const count = table.first(e - 1) + table.count(e - 1) - first
        // The text a part covers: from its first row's offset (read from the copied chunks) to its end.
        const partFirst: Array<number> = []
        for (let k = d; k < e; k++) {
          const r = table.record(k)
          const shift = next + (r.first - first)
          docs.push({ ...r, first: shift, parts: r.parts.map((p) => ({ ...p, first: p.first - r.first + shift })) })
          for (const p of r.parts) {
            if (p.count === 0) continue
            textBytes += p.end
            partFirst.push(p.first)
          }
        }
        for (let done = 0; done < count; done += OFFS_CHUNK) {
          const chunk = input.rowOffsets(first + done, Math.min(OFFS_CHUNK, count - done))
          offsets.push(chunk)
          for (const line of partFirst) {
            const at = line - first - done
            if (at >= 0 && at < chunk.length) textBytes -= chunk[at] ?? 0
          }
        }
        if (count > 0) {
          remap.from.push(first)
          remap.to.push(next)
          remap.length.push(count)
        }
        next += count
        d = e
        yield
      }
    }
    offsets.finish()
    offs.finish()
  } catch (e) {
    offs.abandon()
    throw e
  }
  writeFileDurableSync(file(".docs"), [encodeDocTable(docs)])

  // An input none of whose lines is dropped moves by a constant: its ids are renumbered by adding
  // it, without looking up runs (most merges of a run: nothing of theirs was deleted since).
  const shifts = inputs.map((input, i) => {
    const remap = remaps[i]!
    return remap.from.length === 1 && remap.from[0] === 0 && (remap.length[0] ?? 0) === input.lines ? (remap.to[0] ?? 0) : -1
  })
  const dicts = inputs.map((s) => s.readAllEntries())
  const readers = inputs.map((s) => new ForwardReader(s))
  const at = inputs.map(() => 0)
  const post = new BufferedFile(file(".post"))
  const dict: Array<Uint8Array> = []
  let dictChunk = new DataView(new ArrayBuffer(DICT_ENTRY_BYTES * 65536))
  let inChunk = 0
  const sparse: Array<number> = []
  let entries = 0
  let decoded = 0
  // The ids of the list being merged, renumbered.
  let merged = new Uint32Array(1 << 16)
  let mergedTags = new Uint8Array(1 << 16)
  const pushEntry = (key: number, offset: number, df: number) => {
    if (inChunk === 65536) {
      dict.push(new Uint8Array(dictChunk.buffer))
      dictChunk = new DataView(new ArrayBuffer(DICT_ENTRY_BYTES * 65536))
      inChunk = 0
    }
    dictChunk.setFloat64(inChunk * DICT_ENTRY_BYTES, key, true)
    dictChunk.setFloat64(inChunk * DICT_ENTRY_BYTES + 8, offset, true)
    dictChunk.setUint32(inChunk * DICT_ENTRY_BYTES + 16, df, true)
    inChunk++
    if (entries % SPARSE_EVERY === 0) sparse.push(key)
    entries++
  }
  try {
    for (;;) {
      let key = Infinity
      for (let i = 0; i < dicts.length; i++) {
        const k = dicts[i]!.keys[at[i]!]
        if (k !== undefined && k < key) key = k
      }
      if (key === Infinity) break
      const start = post.written
      let df = 0
      for (let i = 0; i < dicts.length; i++) {
        const dct = dicts[i]!
        const j = at[i]!
        if (dct.keys[j] !== key) continue
        at[i] = j + 1
        const count = dct.dfs[j] ?? 0
        const offset = dct.offsets[j] ?? 0
        const { bytes, at: from } = readers[i]!.get(offset, (dct.offsets[j + 1] ?? 0) - offset)
        let pos = postingStreamStart(bytes, from, count)
        // Room for every id of this list (a deleted doc's are dropped, never more).
        if (df + count > merged.length) {
          let size = merged.length * 2
          while (size < df + count) size *= 2
          const grown = new Uint32Array(size)
          grown.set(merged.subarray(0, df))
          merged = grown
          const grownTags = new Uint8Array(size)
          grownTags.set(mergedTags.subarray(0, df))
          mergedTags = grownTags
        }
        const shift = shifts[i]!
        if (shift >= 0) {
          // varintAt inlined (the hot loop of a merge): LEB128, a byte past the end read as 0.
          let cur = shift
          for (let c = 0; c < count; c++) {
            let b = bytes[pos++] ?? 0
            let v = b & 0x7f
            for (let scale = 128; b & 0x80; scale *= 128) {
              b = bytes[pos++] ?? 0
              v += (b & 0x7f) * scale
            }
            cur += v
            mergedTags[df] = bytes[pos++] ?? 0
            merged[df++] = cur
          }
          decoded += count
          continue
        }
        const remap = remaps[i]!
        const runs = remap.from.length
        let cur = 0
        let k = 0
        let runFrom = 0
        let runEnd = 0
        for (let c = 0; c < count; c++) {
          const v = varintAt(bytes, pos)
          pos = varintEnd
          cur = c === 0 ? v : cur + v
          const tag = bytes[pos++] ?? 0
          // The ids ascend: a run is looked up only when the list leaves the one it is in.
          if (c === 0 || cur >= runEnd) {
            k = runIndexOf(remap, cur)
            runFrom = k < runs ? (remap.from[k] ?? 0) : Infinity
            runEnd = k < runs ? runFrom + (remap.length[k] ?? 0) : Infinity
          }
          if (cur < runFrom) continue // a deleted doc's line
          const mapped = (remap.to[k] ?? 0) + (cur - runFrom)
          mergedTags[df] = tag
          merged[df++] = mapped
        }
        decoded += count
      }
      if (df > 0) {
        const out = post.reserve(maxPostingsBytes(df))
        post.at = encodePostingsInto(out, post.at, merged, mergedTags, 0, df)
        pushEntry(key, start, df)
      }
      if (decoded >= MERGE_STEP) {
        decoded = 0
        yield
      }
    }
    pushEntry(Number.MAX_VALUE, post.written, 0)
    post.finish()
  } catch (e) {
    post.abandon()
    throw e
  }
  // The sentinel counted as an entry for the sparse index only when it opened a block: drop it.
  if ((entries - 1) % SPARSE_EVERY === 0) sparse.pop()
  dict.push(new Uint8Array(dictChunk.buffer, 0, inChunk * DICT_ENTRY_BYTES))
  writeFileDurableSync(file(".dict"), dict)
  writeFileDurableSync(file(".dix"), [littleEndianF64(sparse)])
  return { segment: { id, docs: docs.length, lines: next, textBytes }, docs }
}
