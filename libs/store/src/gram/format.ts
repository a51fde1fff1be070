/**
 * The byte layout of the 2-gram index's posting lists (`gram/<seg>.post`,
 * manifest_format.ts lists the files): unsigned LEB128 varints of id
 * deltas, one position-tag byte per id (the domain's `positionTag`), and a
 * skip table before a list longer than {@link POSTING_BLOCK} ids. The
 * tokenizer that makes the grams and their positions is the domain's
 * (`gram.ts`); how they sit in bytes on disk is the store's (issue 17).
 *
 * The hot loops that walk a list id by id (`ListCursor.advance` in
 * segment_reader.ts, the merge in segment_merge.ts) call {@link varintAt},
 * which hands the position after the varint back through
 * {@link varintEnd} instead of a `[value, next]` pair: measured on Node 20
 * over 2 M postings (70 % one-byte deltas), `varintAt` 16.1 ns per id, the
 * loop inlined by hand 16.6 ns, a `{ pos }` cursor object 17.0 ns (load 1–2;
 * an earlier reading: inline 6.9 ns, the pair 10.1 ns, the module variable
 * 7.1 ns). The round-trip tests in format.test.ts and the segment tests
 * hold the readers to {@link encodePostingsInto}'s layout.
 *
 * Effect-free: the cold search (searcher.ts → segment_reader.ts) imports it.
 *
 * @module
 */
import { POSITION_UNKNOWN } from "@sagasu/domain"

/**
 * Appends the unsigned LEB128 varint of `value` (an integer in
 * `[0, 2^32)`) to `out` at `at`; returns the position after it.
 * `out` must have 5 bytes free.
 */
export function writeVarint(out: Uint8Array, at: number, value: number): number {
  let v = value >>> 0
  while (v >= 0x80) {
    out[at++] = (v & 0x7f) | 0x80
    v >>>= 7
  }
  out[at++] = v
  return at
}

/** The number of bytes {@link writeVarint} uses for `value`. */
export function varintLength(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5
}

/** Ids per block of a posting list; lists longer than one block carry a skip table. */
export const POSTING_BLOCK = 128

/**
 * The bytes a posting list of `count` ids may take at most (for sizing a
 * buffer before {@link encodePostingsInto}).
 */
export function maxPostingsBytes(count: number): number {
  return count * 6 + (count > POSTING_BLOCK ? 5 + Math.ceil(count / POSTING_BLOCK) * 10 : 0)
}

/**
 * Encodes the strictly increasing ids `ids[start … start + count)` and their
 * position tags `tags[…]` into `out` at `at`; returns the position after
 * them. Layout:
 *
 * - when `count > POSTING_BLOCK`, a skip table first: `varint(k)` with
 *   k = ⌈count / 128⌉ − 1, then per block b < k: `varint(last id of b − last
 *   id of b−1)` and `varint(bytes of block b)` — so a reader can jump over
 *   whole blocks of a long list when intersecting;
 * - per id: its varint delta (the first id as is), then one byte: the
 *   position of the gram in the line (code points) when it occurs once there
 *   below 255, else {@link POSITION_UNKNOWN}. With the positions, the grams
 *   of a query term must line up (`ri` at p, `ip` at p+1 for `rip`), which
 *   rules out most lines that merely hold all the grams, without reading them.
 *
 * The length is not stored: the dictionary holds the count and the offsets.
 */
export function encodePostingsInto(
  out: Uint8Array,
  at: number,
  ids: ArrayLike<number>,
  tags: ArrayLike<number>,
  start: number,
  count: number
): number {
  let pos = at
  if (count > POSTING_BLOCK) {
    const blocks = Math.ceil(count / POSTING_BLOCK) - 1
    pos = writeVarint(out, pos, blocks)
    let prevLast = 0
    let prev = 0
    for (let b = 0; b < blocks; b++) {
      let bytes = 0
      const from = b * POSTING_BLOCK
      for (let i = from; i < from + POSTING_BLOCK; i++) {
        const id = ids[start + i] ?? 0
        bytes += varintLength(i === 0 ? id : id - prev) + 1
        prev = id
      }
      const last = ids[start + from + POSTING_BLOCK - 1] ?? 0
      pos = writeVarint(out, pos, last - prevLast)
      pos = writeVarint(out, pos, bytes)
      prevLast = last
    }
  }
  let prev = 0
  for (let i = 0; i < count; i++) {
    const id = ids[start + i] ?? 0
    pos = writeVarint(out, pos, i === 0 ? id : id - prev)
    out[pos++] = tags[start + i] ?? POSITION_UNKNOWN
    prev = id
  }
  return pos
}

/** Encodes ids with their position tags (all unknown when not given); layout: {@link encodePostingsInto}. */
export function encodePostings(ids: ArrayLike<number>, tags?: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(maxPostingsBytes(ids.length))
  const t = tags ?? new Uint8Array(ids.length).fill(POSITION_UNKNOWN)
  return out.slice(0, encodePostingsInto(out, 0, ids, t, 0, ids.length))
}

/**
 * The position after the varint that {@link varintAt} read last (a byte
 * offset into its `bytes`). Read it right after the call: the next call
 * replaces it. Single-threaded use only, as every reader here is.
 */
export let varintEnd = 0

/**
 * Reads the unsigned LEB128 varint at byte `at` of `bytes` and returns its
 * value; the position after it is left in {@link varintEnd}. A varint cut
 * off by the end of `bytes` reads the missing bytes as 0.
 */
export function varintAt(bytes: Uint8Array, at: number): number {
  let pos = at
  let b = bytes[pos++] ?? 0
  let v = b & 0x7f
  let shift = 7
  while (b & 0x80) {
    b = bytes[pos++] ?? 0
    v += (b & 0x7f) * 2 ** shift
    shift += 7
  }
  varintEnd = pos
  return v
}

/** Reads one varint at `at`; returns the value and the position after it (cold paths; hot loops use {@link varintAt}). */
export function readVarint(bytes: Uint8Array, at: number): readonly [value: number, next: number] {
  const v = varintAt(bytes, at)
  return [v, varintEnd]
}

/** Where the entries of a list of `count` ids at `at` begin (after its skip table). */
export function postingStreamStart(bytes: Uint8Array, at: number, count: number): number {
  if (count <= POSTING_BLOCK) return at
  let [blocks, pos] = readVarint(bytes, at)
  for (let i = 0; i < 2 * blocks; i++) pos = readVarint(bytes, pos)[1]
  return pos
}

/** Decodes `count` ids and their position tags written by {@link encodePostingsInto} from `bytes` (from `at`). */
export function decodePostings(bytes: Uint8Array, count: number, at = 0): { ids: Array<number>; tags: Array<number> } {
  const ids: Array<number> = []
  const tags: Array<number> = []
  let prev = 0
  let pos = postingStreamStart(bytes, at, count)
  for (let i = 0; i < count; i++) {
    const [v, next] = readVarint(bytes, pos)
    pos = next
    prev = i === 0 ? v : prev + v
    ids.push(prev)
    tags.push(bytes[pos++] ?? POSITION_UNKNOWN)
  }
  return { ids, tags }
}

/** Lines per page of a `.offs` file: a page is the unit read and decoded. */
export const OFFS_PAGE_LINES = 1024

// The first 8 bytes of a `.offs` file in the paged layout. A file of the first layout (a bare u32
// per line) cannot start with them: its first u32 would be a row offset of 1,179,600,723, past the
// 1 GiB a staged TSV may hold.
const OFFS_MAGIC = new TextEncoder().encode("SGOFFS2\n")

/**
 * Writes a segment's row offsets (`.offs`: per line, the byte offset of its
 * row in its body-index TSV) as they come, into `sink`, in the paged
 * layout (issue 20, disk: 4 bytes a line were 7% of the drive benchmark's
 * work folder; this takes 1–2):
 *
 * ```
 * 0          "SGOFFS2\n"
 * 8          pages of OFFS_PAGE_LINES lines: the first offset as u32,
 *            then per further line the zigzag varint of its offset minus
 *            the previous one (rows of one TSV follow each other: their
 *            lengths; a new TSV starts lower)
 * end−8−8(P+1)  P+1 f64: where each page starts, then where the table starts
 * end−8      u32 lines, u32 pages P
 * ```
 *
 * Call {@link OffsetsWriter.finish} once after the last offset.
 */
export class OffsetsWriter {
  private readonly sink: (bytes: Uint8Array) => void
  private readonly page = new Uint8Array(4 + 5 * OFFS_PAGE_LINES)
  private pageBytes = 0
  private inPage = 0
  private prev = 0
  private written = 0
  private lines = 0
  private readonly starts: Array<number> = []
  constructor(sink: (bytes: Uint8Array) => void) {
    this.sink = sink
    this.emit(OFFS_MAGIC)
  }

  private emit(bytes: Uint8Array): void {
    this.sink(bytes)
    this.written += bytes.length
  }

  private endPage(): void {
    if (this.inPage === 0) return
    this.starts.push(this.written)
    this.emit(this.page.slice(0, this.pageBytes))
    this.pageBytes = 0
    this.inPage = 0
  }

  /** Appends the offsets of the next lines (each in `[0, 2^32)`). */
  push(offsets: ArrayLike<number>): void {
    const page = this.page
    for (let i = 0; i < offsets.length; i++) {
      const v = (offsets[i] ?? 0) >>> 0
      if (this.inPage === 0) {
        page[0] = v & 0xff
        page[1] = (v >>> 8) & 0xff
        page[2] = (v >>> 16) & 0xff
        page[3] = v >>> 24
        this.pageBytes = 4
      } else {
        // Zigzag: up to 33 bits, past writeVarint's 32.
        const d = v - this.prev
        let z = d >= 0 ? d * 2 : -d * 2 - 1
        let pos = this.pageBytes
        while (z >= 0x80) {
          page[pos++] = (z % 0x80) | 0x80
          z = Math.floor(z / 0x80)
        }
        page[pos++] = z
        this.pageBytes = pos
      }
      this.prev = v
      this.lines++
      if (++this.inPage === OFFS_PAGE_LINES) this.endPage()
    }
  }

  /** Writes the last page and the page table. */
  finish(): void {
    this.endPage()
    const pages = this.starts.length
    const tail = new DataView(new ArrayBuffer(8 * (pages + 1) + 8))
    this.starts.forEach((s, p) => tail.setFloat64(8 * p, s, true))
    tail.setFloat64(8 * pages, this.written, true)
    tail.setUint32(8 * (pages + 1), this.lines, true)
    tail.setUint32(8 * (pages + 1) + 4, pages, true)
    this.emit(new Uint8Array(tail.buffer))
  }
}

/** The bytes of {@link OffsetsWriter}'s layout for `offsets` (a segment built in memory). */
export function encodeOffsets(offsets: ArrayLike<number>): Array<Uint8Array> {
  const out: Array<Uint8Array> = []
  const w = new OffsetsWriter((b) => out.push(b))
  w.push(offsets)
  w.finish()
  return out
}

/** Whether `head` (a `.offs` file's first 8 bytes) starts {@link OffsetsWriter}'s paged layout. */
export function isPagedOffsets(head: Uint8Array): boolean {
  return head.length >= OFFS_MAGIC.length && OFFS_MAGIC.every((b, i) => head[i] === b)
}

/** Decodes one page of {@link OffsetsWriter}'s layout holding `count` lines. */
export function decodeOffsetsPage(bytes: Uint8Array, count: number): Uint32Array {
  const out = new Uint32Array(count)
  if (count === 0) return out
  let v = ((bytes[0] ?? 0) | ((bytes[1] ?? 0) << 8) | ((bytes[2] ?? 0) << 16) | ((bytes[3] ?? 0) << 24)) >>> 0
  out[0] = v
  let pos = 4
  for (let i = 1; i < count; i++) {
    const z = varintAt(bytes, pos)
    pos = varintEnd
    v += z % 2 === 0 ? z / 2 : -(z + 1) / 2
    out[i] = v
  }
  return out
}
