/**
 * Byte-level writers of the containers the extractor must survive, for tests
 * only: zip archives with the features jszip cannot write (ZIP64 records,
 * data descriptors, CP932 names without the UTF-8 flag, precompressed or
 * lying entries, BUG-13, BUG-26) and minimal OLE2 compound files (an
 * encrypted OOXML package, a legacy workbook: BUG-14).
 *
 * @module
 */
import { constants, crc32, deflateRawSync } from "node:zlib"

/** One entry of {@link writeZip}. */
export interface RawZipEntry {
  /** The name; raw bytes are written as given (a CP932 name), a string as UTF-8. */
  readonly name: string | Uint8Array
  /** The content, deflated unless `stored`. */
  readonly data?: string | Uint8Array
  /** Already deflated content (raw deflate), with its inflated size and CRC. */
  readonly deflated?: { readonly bytes: Uint8Array; readonly size: number; readonly crc: number }
  readonly stored?: boolean
  /** Set general-purpose bit 11 (UTF-8 name); default: when the name is a string with non-ASCII characters. */
  readonly utf8Flag?: boolean
  /** Sizes and CRC after the data (bit 3), zeros in the local header, as streaming writers do. */
  readonly dataDescriptor?: boolean
  /** Declare this inflated size instead of the true one (a lying entry). */
  readonly declaredSize?: number
}

/** Options of {@link writeZip}. */
export interface WriteZipOptions {
  /** Write ZIP64 extra fields and end records for every entry, as writers do for archives over 4 GiB. */
  readonly zip64?: boolean
  /** The entries' modification time (UTC, to the 2 s of MS-DOS time); default 1980-01-01 00:00, the format's first day. */
  readonly date?: Date
}

/** `date` as MS-DOS time and date (its UTC fields). */
const dosDateTime = (date: Date): readonly [time: number, day: number] => [
  (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
  ((date.getUTCFullYear() - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate()
]

/** `n` as 2 bytes, little-endian, cut to its low 16 bits (the test writers' integer fields). */
export const u16 = (n: number): Buffer => {
  const b = Buffer.alloc(2)
  b.writeUInt16LE(n & 0xffff)
  return b
}
/** `n` as 4 bytes, little-endian, cut to its low 32 bits (a negative number as its two's complement). */
export const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4)
  b.writeUInt32LE(n >>> 0)
  return b
}
const u64 = (n: number) => {
  const b = Buffer.alloc(8)
  b.writeBigUInt64LE(BigInt(n))
  return b
}

/** A zip archive of `entries`, in order, by hand. */
export function writeZip(entries: ReadonlyArray<RawZipEntry>, options?: WriteZipOptions): Uint8Array {
  const zip64 = options?.zip64 === true
  const [time, day] = options?.date === undefined ? [0, 0x21] : dosDateTime(options.date)
  const chunks: Array<Uint8Array> = []
  const central: Array<Uint8Array> = []
  let offset = 0
  const emit = (b: Uint8Array) => {
    chunks.push(b)
    offset += b.length
  }
  for (const entry of entries) {
    const name = typeof entry.name === "string" ? Buffer.from(entry.name, "utf8") : Buffer.from(entry.name)
    const utf8 = entry.utf8Flag ?? (typeof entry.name === "string" && /[^\x00-\x7f]/.test(entry.name))
    // A view of the caller's bytes, not a copy (a benchmark's parts run to hundreds of megabytes).
    const data = entry.data === undefined ? Buffer.alloc(0) : typeof entry.data === "string" ? Buffer.from(entry.data) : entry.data
    const method = entry.stored === true ? 0 : 8
    const compressed = entry.deflated?.bytes ?? (method === 8 ? deflateRawSync(data) : data)
    const size = entry.declaredSize ?? entry.deflated?.size ?? data.length
    const crc = entry.deflated?.crc ?? crc32(data)
    const flags = (entry.dataDescriptor === true ? 0x0008 : 0) | (utf8 ? 0x0800 : 0)
    const version = zip64 ? 45 : 20
    const localExtra = zip64 ? Buffer.concat([u16(1), u16(16), u64(size), u64(compressed.length)]) : Buffer.alloc(0)
    const dd = entry.dataDescriptor === true
    const localOffset = offset
    emit(
      Buffer.concat([
        u32(0x04034b50), u16(version), u16(flags), u16(method), u16(time), u16(day),
        u32(dd ? 0 : crc), u32(zip64 ? 0xffffffff : dd ? 0 : compressed.length), u32(zip64 ? 0xffffffff : dd ? 0 : size),
        u16(name.length), u16(localExtra.length), name, localExtra
      ])
    )
    emit(compressed)
    if (dd) emit(Buffer.concat([u32(0x08074b50), u32(crc), ...(zip64 ? [u64(compressed.length), u64(size)] : [u32(compressed.length), u32(size)])]))
    const centralExtra = zip64 ? Buffer.concat([u16(1), u16(24), u64(size), u64(compressed.length), u64(localOffset)]) : Buffer.alloc(0)
    central.push(
      Buffer.concat([
        u32(0x02014b50), u16(version), u16(version), u16(flags), u16(method), u16(time), u16(day),
        u32(crc), u32(zip64 ? 0xffffffff : compressed.length), u32(zip64 ? 0xffffffff : size),
        u16(name.length), u16(centralExtra.length), u16(0), u16(0), u16(0), u32(0),
        u32(zip64 ? 0xffffffff : localOffset), name, centralExtra
      ])
    )
  }
  const cdOffset = offset
  for (const c of central) emit(c)
  const cdSize = offset - cdOffset
  if (zip64) {
    const eocd64At = offset
    emit(Buffer.concat([u32(0x06064b50), u64(44), u16(45), u16(45), u32(0), u32(0), u64(entries.length), u64(entries.length), u64(cdSize), u64(cdOffset)]))
    emit(Buffer.concat([u32(0x07064b50), u32(0), u64(eocd64At), u32(1)]))
    emit(Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(0xffff), u16(0xffff), u32(0xffffffff), u32(0xffffffff), u16(0)]))
  } else {
    emit(Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(entries.length), u16(entries.length), u32(cdSize), u32(cdOffset), u16(0)]))
  }
  const all = Buffer.concat(chunks)
  return new Uint8Array(all.buffer, all.byteOffset, all.length)
}

/**
 * Raw-deflates `repeat` copies of `body` between `head` and `tail` without
 * ever holding the inflated text: each piece is deflated once with a full
 * flush (blocks end byte-aligned and reference nothing before them), so the
 * copies of the body's compressed bytes simply follow each other. A 200 MB
 * part costs a few megabytes and well under a second.
 */
export function deflateRepeated(head: string, body: string, repeat: number, tail: string): { bytes: Uint8Array; size: number; crc: number } {
  const flush = { finishFlush: constants.Z_FULL_FLUSH }
  const [h, b, t] = [Buffer.from(head), Buffer.from(body), Buffer.from(tail)]
  const parts: Array<Uint8Array> = [deflateRawSync(h, flush)]
  const bodyDeflated = deflateRawSync(b, flush)
  let crc = crc32(h)
  for (let i = 0; i < repeat; i++) {
    parts.push(bodyDeflated)
    crc = crc32(b, crc)
  }
  parts.push(deflateRawSync(t))
  crc = crc32(t, crc)
  return { bytes: new Uint8Array(Buffer.concat(parts)), size: h.length + b.length * repeat + t.length, crc }
}

/**
 * A minimal OLE2 compound file (MS-CFB version 3, 512-byte sectors) holding
 * `streams` in the root storage. Every stream is padded to 4096 bytes so it
 * lives in regular sectors (no mini stream); at most a dozen small streams.
 */
export function writeCfb(streams: ReadonlyArray<readonly [name: string, data: Uint8Array]>): Uint8Array {
  const sector = 512
  const end = 0xfffffffe
  const free = 0xffffffff
  const none = 0xffffffff
  const dirSectors = Math.ceil((streams.length + 1) / 4)
  const padded = streams.map(([, d]) => {
    const b = Buffer.alloc(Math.max(4096, Math.ceil(d.length / sector) * sector))
    Buffer.from(d).copy(b)
    return b
  })
  const fat: Array<number> = [0xfffffffd]
  for (let i = 0; i < dirSectors; i++) fat.push(i === dirSectors - 1 ? end : fat.length + 1)
  const starts: Array<number> = []
  for (const b of padded) {
    starts.push(fat.length)
    const n = b.length / sector
    for (let i = 0; i < n; i++) fat.push(i === n - 1 ? end : fat.length + 1)
  }
  if (fat.length > sector / 4) throw new Error("writeCfb: too many sectors for one FAT sector")
  while (fat.length < sector / 4) fat.push(free)

  const header = cfbHeader({ fatSectors: 1, firstFat: 0, dirSector: 1 })

  const fatSector = Buffer.alloc(sector)
  fat.forEach((v, i) => fatSector.writeUInt32LE(v >>> 0, i * 4))

  const directory = Buffer.alloc(dirSectors * sector)
  cfbDirectoryEntry(directory, 0, { name: "Root Entry", type: 5, child: streams.length > 0 ? 1 : none, right: none, start: end, size: 0 })
  streams.forEach(([name], i) =>
    cfbDirectoryEntry(directory, i + 1, { name, type: 2, child: none, right: i + 1 < streams.length ? i + 2 : none, start: starts[i] ?? end, size: padded[i]?.length ?? 0 })
  )
  for (let i = streams.length + 1; i < dirSectors * 4; i++) {
    directory.writeUInt32LE(none, i * 128 + 0x44)
    directory.writeUInt32LE(none, i * 128 + 0x48)
    directory.writeUInt32LE(none, i * 128 + 0x4c)
  }
  return new Uint8Array(Buffer.concat([header, fatSector, directory, ...padded]))
}

/** Where a version 3 compound file's structures lie, for {@link cfbHeader}. */
export interface CfbLayout {
  /** FAT sectors, consecutive from `firstFat`; the first 109 are listed in the header, the rest in the DIFAT. */
  readonly fatSectors: number
  readonly firstFat: number
  /** The first directory sector. */
  readonly dirSector: number
  /** DIFAT sectors, consecutive from sector 0 (default none). */
  readonly difatSectors?: number
}

const cfbEndOfChain = 0xfffffffe
const cfbFree = 0xffffffff

/**
 * The 512-byte header of a version 3 compound file (MS-CFB 2.2: 512-byte
 * sectors, 64-byte mini sectors, no mini FAT) with the structures where
 * `layout` puts them.
 */
export function cfbHeader(layout: CfbLayout): Buffer {
  const difatSectors = layout.difatSectors ?? 0
  const header = Buffer.alloc(512)
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0)
  header.writeUInt16LE(0x003e, 0x18)
  header.writeUInt16LE(3, 0x1a)
  header.writeUInt16LE(0xfffe, 0x1c)
  header.writeUInt16LE(9, 0x1e)
  header.writeUInt16LE(6, 0x20)
  header.writeUInt32LE(layout.fatSectors, 0x2c)
  header.writeUInt32LE(layout.dirSector, 0x30)
  header.writeUInt32LE(4096, 0x38)
  header.writeUInt32LE(cfbEndOfChain, 0x3c)
  header.writeUInt32LE(difatSectors > 0 ? 0 : cfbEndOfChain, 0x44)
  header.writeUInt32LE(difatSectors, 0x48)
  for (let i = 0; i < 109; i++) header.writeUInt32LE(i < layout.fatSectors ? layout.firstFat + i : cfbFree, 0x4c + i * 4)
  return header
}

/** One entry of a compound file's directory: a storage (`type` 1), a stream (2) or the root (5), with its tree links. */
export interface CfbDirectoryEntry {
  readonly name: string
  readonly type: number
  readonly child: number
  readonly right: number
  readonly start: number
  readonly size: number
}

/** Writes `entry` as the `i`-th 128-byte entry of `directory` (black, no left sibling). */
export function cfbDirectoryEntry(directory: Buffer, i: number, entry: CfbDirectoryEntry): void {
  const at = i * 128
  const utf16 = Buffer.from(`${entry.name}\0`, "utf16le")
  utf16.copy(directory, at)
  directory.writeUInt16LE(utf16.length, at + 0x40)
  directory[at + 0x42] = entry.type
  directory[at + 0x43] = 1
  directory.writeUInt32LE(cfbFree, at + 0x44)
  directory.writeUInt32LE(entry.right >>> 0, at + 0x48)
  directory.writeUInt32LE(entry.child >>> 0, at + 0x4c)
  directory.writeUInt32LE(entry.start >>> 0, at + 0x74)
  directory.writeUInt32LE(entry.size >>> 0, at + 0x78)
}
