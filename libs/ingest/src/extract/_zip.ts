/**
 * A read-only zip archive over a file in memory or read piece by piece from
 * disk, with the limits that keep a zip bomb from exhausting memory (BUG-26).
 *
 * Why not jszip: it has no public way to read an entry's declared size or
 * CRC before inflating, it inflates a whole entry in JavaScript before
 * checking its length, and it decodes CP932 names as UTF-8 (BUG-13). Reading
 * the central directory ourselves lets us refuse an entry by its declared
 * size, inflate with Node's native zlib as a stream (a part is never whole in
 * memory: a 200 MB sharedStrings part costs a few chunks), stop an entry that
 * inflates past what it declared, and verify the CRC (a bad CRC is damage).
 *
 * @module
 */
import { Readable } from "node:stream"
import { createInflateRaw, crc32, inflateRawSync } from "node:zlib"
import { ExtractError } from "./extract_error.ts"

/** Limits on what reading an archive may inflate. */
export interface ZipLimits {
  /** Most bytes inflated from the archive in total, over every entry read. */
  readonly maxInflatedBytes: number
  /** Highest declared uncompressed/compressed ratio for an entry of at least {@link ratioFloorBytes}. */
  readonly maxRatio: number
}

/** Entries smaller than this are never refused for their ratio: a tiny part that compresses well is harmless. */
const ratioFloorBytes = 1 << 20

/** One file of the archive as its central directory declares it. */
export interface ZipEntry {
  /** The name as stored (decoded), separators untouched. */
  readonly name: string
  readonly method: number
  readonly flags: number
  readonly crc32: number
  readonly compressedSize: number
  readonly uncompressedSize: number
  readonly localHeaderOffset: number
}

const corrupt = (detail: string) => new ExtractError({ reason: "corrupt", detail })

const sig = { eocd: 0x06054b50, eocd64: 0x06064b50, locator64: 0x07064b50, central: 0x02014b50, local: 0x04034b50 }

const utf8 = new TextDecoder("utf-8", { fatal: true })
const utf8Lenient = new TextDecoder("utf-8")
const cp932 = new TextDecoder("shift_jis")

/**
 * An entry name (BUG-13): UTF-8 when flag bit 11 says so; otherwise UTF-8
 * when the bytes are valid UTF-8 (many writers forget the flag), else CP932,
 * the code page of Windows' own "compressed folder" on Japanese PCs. Decoding
 * happens before any path split, so a CP932 trail byte 0x5C (表, ソ) is never
 * taken for a backslash separator.
 */
export function decodeEntryName(bytes: Uint8Array, flags: number): string {
  if (flags & 0x0800) return utf8Lenient.decode(bytes)
  try {
    return utf8.decode(bytes)
  } catch {
    return cp932.decode(bytes)
  }
}

/** Bytes of compressed input fed to zlib per write: with deflate's ceiling of about 1032:1 one write inflates to at most ~16 MiB. */
const inputSlice = 1 << 14
/** Parts declared at most this large are inflated whole, in one call; larger ones stream (their memory stays a few chunks). */
const wholeInflateBytes = 4 << 20
/** Bytes of inflated data per chunk handed on (zlib's chunk size when streaming). */
const inflatedPiece = 1 << 16

/** Bytes of compressed input read from the source at a time. */
const readBlock = 1 << 18
/** Bytes of a stored (uncompressed) entry handed out per chunk. */
const storedSlice = 1 << 20

/**
 * Random access to the bytes of an archive: a file held in memory
 * ({@link bytesSource}), or an open file read piece by piece as entries are
 * inflated, so that a worker never holds the whole file (issue 9).
 */
export interface ZipSource {
  /** Bytes in the archive. */
  readonly size: number
  /**
   * The bytes from `start` to `end` (exclusive), fewer only where the source
   * ends early (a file that shrank). Throws an {@link ExtractError}
   * (`unreadable`) when they cannot be read.
   */
  read(start: number, end: number): Uint8Array
}

/** A {@link ZipSource} over bytes in memory (views, no copies). */
export function bytesSource(bytes: Uint8Array): ZipSource {
  return { size: bytes.length, read: (start, end) => bytes.subarray(start, end) }
}

/**
 * A zip archive read from its central directory. Throws {@link ExtractError}
 * (`corrupt`) when there is no central directory; entries are inflated on
 * demand by {@link ZipArchive.read}.
 */
export class ZipArchive {
  readonly entries: ReadonlyArray<ZipEntry>
  private readonly source: ZipSource
  private readonly limits: ZipLimits
  private inflated = 0

  constructor(source: Uint8Array | ZipSource, limits: ZipLimits) {
    this.source = source instanceof Uint8Array ? bytesSource(source) : source
    this.limits = limits
    this.entries = readCentralDirectory(this.source)
  }

  /**
   * Refuses an entry before inflating anything: `encrypted` for a
   * zip-encrypted entry, `too-large` when its declared size would pass the
   * file's remaining budget or its declared ratio is absurd.
   */
  private admit(entry: ZipEntry): void {
    const { name, uncompressedSize, compressedSize } = entry
    if (entry.flags & 1) throw new ExtractError({ reason: "encrypted", detail: `zip entry ${name} is encrypted` })
    if (this.inflated + uncompressedSize > this.limits.maxInflatedBytes) {
      throw new ExtractError({
        reason: "too-large",
        detail: `${name} declares ${uncompressedSize} bytes; the limit is ${this.limits.maxInflatedBytes} bytes inflated per file`
      })
    }
    if (uncompressedSize >= ratioFloorBytes && uncompressedSize > this.limits.maxRatio * Math.max(compressedSize, 1)) {
      throw new ExtractError({
        reason: "too-large",
        detail: `${name} declares a compression ratio of ${Math.round(uncompressedSize / Math.max(compressedSize, 1))}:1; the limit is ${this.limits.maxRatio}:1`
      })
    }
    if (entry.method !== 0 && entry.method !== 8) throw corrupt(`${name}: unsupported compression method ${entry.method}`)
  }

  /**
   * The inflated bytes of one entry as a stream of chunks, so that no part is
   * ever whole in memory. Fails (throws from the iterator) with what
   * {@link admit} refuses, and with `corrupt` when the entry inflates to more
   * or less than it declared (a lying size is stopped at the declared size,
   * not at the heap limit), its data is damaged, or its CRC does not match.
   * Stopping the iteration early (`return()`) releases the inflater.
   */
  async *chunks(entry: ZipEntry): AsyncGenerator<Uint8Array, void, undefined> {
    this.admit(entry)
    const { name, uncompressedSize } = entry
    const [start, end] = this.compressedRange(entry)
    let total = 0
    let crc = 0
    const take = (out: Uint8Array) => {
      total += out.length
      if (total > uncompressedSize) throw corrupt(`${name}: inflates beyond its declared ${uncompressedSize} bytes`)
      this.inflated += out.length
      if (this.inflated > this.limits.maxInflatedBytes) {
        throw new ExtractError({ reason: "too-large", detail: `${name}: more than ${this.limits.maxInflatedBytes} bytes inflated for this file` })
      }
      crc = crc32(out, crc)
    }
    if (entry.method === 0) {
      for (let at = start; at < end; at += storedSlice) {
        const out = this.source.read(at, Math.min(at + storedSlice, end))
        if (out.length < Math.min(storedSlice, end - at)) throw corrupt(`${name}: data runs past the end of the file (truncated?)`)
        take(out)
        yield out
      }
    } else if (uncompressedSize <= wholeInflateBytes && end - start <= wholeInflateBytes) {
      // A part of a few MB inflates in one native call on this thread: the stream machinery (a
      // thread-pool round trip and several promises per 64 KB) costs more than inflating it.
      // Both sizes are bounded, so a lying compressed size cannot make this read large.
      const data = this.source.read(start, end)
      if (data.length < end - start) throw corrupt(`${name}: data runs past the end of the file (truncated?)`)
      let out: Buffer
      try {
        out = inflateRawSync(data, { maxOutputLength: Math.max(uncompressedSize, 1) })
      } catch (e) {
        if (e instanceof RangeError) throw corrupt(`${name}: inflates beyond its declared ${uncompressedSize} bytes`)
        throw corrupt(`${name}: ${e instanceof Error ? e.message : String(e)}`)
      }
      take(out)
      // Handed on in the streaming path's piece size, so readers batch their output the same way.
      for (let at = 0; at < out.length; at += inflatedPiece) yield out.subarray(at, at + inflatedPiece)
    } else {
      const inflater = createInflateRaw({ chunkSize: inflatedPiece })
      const source = Readable.from(slices(this.source, start, end, name), { objectMode: false })
      source.on("error", (e) => inflater.destroy(e))
      source.pipe(inflater)
      try {
        for await (const out of inflater as AsyncIterable<Buffer>) {
          take(out)
          yield out
        }
      } catch (e) {
        if (e instanceof ExtractError) throw e
        throw corrupt(`${name}: ${e instanceof Error ? e.message : String(e)}`)
      } finally {
        source.unpipe(inflater)
        source.destroy()
        inflater.destroy()
      }
    }
    if (total !== uncompressedSize) throw corrupt(`${name}: inflated ${total} bytes, declared ${uncompressedSize}`)
    if (crc >>> 0 !== entry.crc32) throw corrupt(`${name}: CRC mismatch`)
  }

  /** The whole inflated entry, for small parts only (`mimetype`); refuses one declared larger than `cap` bytes. */
  async read(entry: ZipEntry, cap: number): Promise<Uint8Array> {
    if (entry.uncompressedSize > cap) {
      throw new ExtractError({ reason: "too-large", detail: `${entry.name} declares ${entry.uncompressedSize} bytes; at most ${cap} are read whole` })
    }
    const parts: Array<Uint8Array> = []
    for await (const chunk of this.chunks(entry)) parts.push(chunk)
    return Buffer.concat(parts)
  }

  /** Where an entry's compressed data lies in the archive: `[start, end)`, after its local header. */
  private compressedRange(entry: ZipEntry): readonly [number, number] {
    const at = entry.localHeaderOffset
    const header = viewAt(this.source, at, 30)
    if (header === undefined || header.getUint32(0, true) !== sig.local) {
      throw corrupt(`${entry.name}: local header not found`)
    }
    const start = at + 30 + header.getUint16(26, true) + header.getUint16(28, true)
    const end = start + entry.compressedSize
    if (end > this.source.size) throw corrupt(`${entry.name}: data runs past the end of the file (truncated?)`)
    return [start, end]
  }
}

const viewOf = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength)

/** A view of `length` bytes of `source` at `start`; `undefined` when the source does not hold them all. */
function viewAt(source: ZipSource, start: number, length: number): DataView | undefined {
  if (start < 0 || start + length > source.size) return undefined
  const bytes = source.read(start, start + length)
  return bytes.length === length ? viewOf(bytes) : undefined
}

/** The bytes from `start` to `end` of `source` in slices of {@link inputSlice}, read {@link readBlock} at a time. */
function* slices(source: ZipSource, start: number, end: number, name: string): Generator<Uint8Array> {
  for (let at = start; at < end; ) {
    const block = source.read(at, Math.min(at + readBlock, end))
    if (block.length === 0) throw corrupt(`${name}: data runs past the end of the file (truncated?)`)
    for (let i = 0; i < block.length; i += inputSlice) yield block.subarray(i, i + inputSlice)
    at += block.length
  }
}

function findEndOfCentralDirectory(bytes: Uint8Array, view: DataView): number {
  // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
  const lowest = Math.max(0, bytes.length - 22 - 0xffff)
  for (let i = bytes.length - 22; i >= lowest; i--) {
    if (view.getUint32(i, true) === sig.eocd) return i
  }
  throw corrupt("no zip central directory (truncated or not a complete zip)")
}

function readCentralDirectory(source: ZipSource): ReadonlyArray<ZipEntry> {
  const size = source.size
  if (size < 22) throw corrupt("too short to be a zip archive")
  // Only the end of the archive, then its central directory, are read here.
  const tailStart = Math.max(0, size - 22 - 0xffff)
  const tail = source.read(tailStart, size)
  const tailView = viewOf(tail)
  const eocdInTail = findEndOfCentralDirectory(tail, tailView)
  const eocd = tailStart + eocdInTail
  let count = tailView.getUint16(eocdInTail + 10, true)
  let directorySize = tailView.getUint32(eocdInTail + 12, true)
  let offset = tailView.getUint32(eocdInTail + 16, true)
  const locator = count === 0xffff || directorySize === 0xffffffff || offset === 0xffffffff ? viewAt(source, eocd - 20, 20) : undefined
  if (locator !== undefined && locator.getUint32(0, true) === sig.locator64) {
    const record = viewAt(source, Number(locator.getBigUint64(8, true)), 56)
    if (record === undefined || record.getUint32(0, true) !== sig.eocd64) throw corrupt("broken zip64 end record")
    count = Number(record.getBigUint64(32, true))
    directorySize = Number(record.getBigUint64(40, true))
    offset = Number(record.getBigUint64(48, true))
  }
  // Data prepended to the archive (self-extractors) shifts every offset by the same amount;
  // the directory then sits right before the end record instead of where it says.
  const declaredFits = viewAt(source, offset, 4)?.getUint32(0, true) === sig.central
  const shift = declaredFits || eocd - directorySize < 0 ? 0 : eocd - directorySize - offset
  const first = offset + shift
  // The directory and whatever follows it up to the end of the file: its entries are read from here.
  const bytes = count > 0 && first >= 0 && first < size ? source.read(first, size) : new Uint8Array()
  const view = viewOf(bytes)
  let p = 0
  const entries: Array<ZipEntry> = []
  for (let i = 0; i < count; i++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== sig.central) throw corrupt("broken zip central directory")
    const nameLength = view.getUint16(p + 28, true)
    const extraLength = view.getUint16(p + 30, true)
    const commentLength = view.getUint16(p + 32, true)
    const nameBytes = bytes.subarray(p + 46, p + 46 + nameLength)
    let uncompressedSize = view.getUint32(p + 24, true)
    let compressedSize = view.getUint32(p + 20, true)
    let localHeaderOffset = view.getUint32(p + 42, true)
    const flags = view.getUint16(p + 8, true)
    let name: string | undefined
    // zip64: the 32-bit fields hold 0xFFFFFFFF and the real values sit in extra field 0x0001, in this order.
    for (let e = p + 46 + nameLength, end = e + extraLength; e + 4 <= end; ) {
      const id = view.getUint16(e, true)
      const len = view.getUint16(e + 2, true)
      if (id === 1) {
        let f = e + 4
        const next = () => {
          const v = f + 8 <= e + 4 + len ? Number(view.getBigUint64(f, true)) : undefined
          f += 8
          return v
        }
        if (uncompressedSize === 0xffffffff) uncompressedSize = next() ?? uncompressedSize
        if (compressedSize === 0xffffffff) compressedSize = next() ?? compressedSize
        if (localHeaderOffset === 0xffffffff) localHeaderOffset = next() ?? localHeaderOffset
      } else if (id === 0x7075 && len > 5) {
        // Info-ZIP Unicode Path: the UTF-8 name beside a legacy-code-page one.
        try {
          name = utf8.decode(bytes.subarray(e + 9, e + 4 + len))
        } catch {
          // A broken Unicode Path field: the header's own name stands.
        }
      }
      e += 4 + len
    }
    entries.push({
      name: name ?? decodeEntryName(nameBytes, flags),
      flags,
      method: view.getUint16(p + 10, true),
      crc32: view.getUint32(p + 16, true),
      compressedSize,
      uncompressedSize,
      localHeaderOffset: localHeaderOffset + shift
    })
    p += 46 + nameLength + extraLength + commentLength
  }
  return entries
}
