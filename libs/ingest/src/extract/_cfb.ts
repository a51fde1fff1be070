/**
 * A read-only OLE2 compound file (MS-CFB) read from disk by positioned reads:
 * the header, the DIFAT, the FAT sectors a chain walks through, the
 * directory and the streams asked for — never the whole file (a 1 GiB sparse
 * `.xls` used to cost 1.1 GiB of memory just to look for its FILEPASS
 * record). The legacy readers (xls here, doc and ppt beside it) and the
 * encryption check of `_ole2.ts` go through it.
 *
 * Why not the npm `cfb` package (SheetJS): `CFB.read` takes the whole file as
 * one buffer (`readFileSync` for a path) and builds every stream of the
 * container in memory up front, so it cannot open a 1 GiB file in bounded
 * memory nor stop at a per-stream limit; see ARCHITECTURE.md.
 *
 * Damage is data: an {@link ExtractError} `corrupt` whose kind
 * ({@link cfbDamageOf}) says whether the container is *broken* (a sector
 * chain that loops or links past the FAT: no reader gets past it, trait
 * `corrupt`, oleloop.xls) or *truncated* (sectors past the end of the file, a
 * chain shorter than its stream: Office may still recover part of it).
 *
 * @module
 */
import { closeSync, fstatSync } from "node:fs"
import { ExtractError } from "./extract_error.ts"
import { openForReading, readRange, unreadableError } from "./_read_file.ts"
import { bytesSource, type ZipSource } from "./_zip.ts"

/** An open compound file: its directory, and its streams read on demand. */
export interface CompoundFile {
  /** Every stream and storage below the root, `path` being the names from the root joined by `/` ("Workbook", "ObjectPool/_123/\u0001Ole"). */
  readonly entries: ReadonlyArray<{ readonly path: string; readonly type: "stream" | "storage"; readonly size: number }>
  /** The whole stream at `path` ("Workbook", "WordDocument", "ObjectPool/_123/…"), case-insensitive; undefined when absent. Throws an ExtractError (`corrupt` on damage, `too-large` past maxStreamBytes). */
  readStream(path: string): Uint8Array | undefined
  /**
   * The stream at `path` as positioned reads (`read(start, end)` within the
   * stream), for a reader that walks a big stream without holding it whole;
   * undefined when absent. Throws like `readStream`.
   */
  streamSource(path: string): ZipSource | undefined
  close(): void
}

/** Options of {@link openCompoundFile}. */
export interface CompoundFileOptions {
  /** Largest stream {@link CompoundFile.readStream} returns; a larger one fails `too-large` before anything of it is read. Default 512 MiB. */
  readonly maxStreamBytes?: number
}

/** What kind of damage a `corrupt` error of this module found. */
export type CfbDamage =
  /** A chain that loops or links past its sector table: no reader gets past it (trait `corrupt`, oleloop.xls). */
  | "broken"
  /** Sectors past the end of the file, a chain shorter than its stream: the file was cut; Office may recover some. */
  | "truncated"
  /** A header or directory this reader does not take (sector shift, no root entry); Office may. */
  | "malformed"

const damages = new WeakMap<object, CfbDamage>()

/** The {@link CfbDamage} of an error thrown by this module, or undefined for any other error. */
export function cfbDamageOf(error: unknown): CfbDamage | undefined {
  return typeof error === "object" && error !== null ? damages.get(error) : undefined
}

const damage = (kind: CfbDamage, detail: string): ExtractError => {
  const error = new ExtractError({ reason: "corrupt", detail: `OLE2 container: ${detail}` })
  damages.set(error, kind)
  return error
}

const signature = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]
/** Special sector numbers (MS-CFB 2.1): anything from 0xFFFFFFFA up is not a sector. */
const maxRegularSector = 0xfffffffa
const endOfChain = 0xfffffffe
const freeSector = 0xffffffff
const noStream = 0xffffffff
const miniSectorSize = 64
const defaultMaxStreamBytes = 512 * 1024 ** 2

interface RawEntry {
  readonly name: string
  readonly type: number
  readonly left: number
  readonly right: number
  readonly child: number
  readonly start: number
  readonly size: number
}

/** Entry types (MS-CFB 2.6.1). */
const entryType = { storage: 1, stream: 2, root: 5 } as const

class Cfb implements CompoundFile {
  readonly entries: ReadonlyArray<{ readonly path: string; readonly type: "stream" | "storage"; readonly size: number }>
  private readonly source: ZipSource
  private readonly release: () => void
  private readonly maxStreamBytes: number
  private readonly sectorSize: number
  /** Sectors that exist in the file, whole or partly (sector n starts at (n + 1) × sectorSize). */
  private readonly fileSectors: number
  private readonly fatSectors: ReadonlyArray<number>
  /** Entries of the FAT as the header declares it; a link at or past this is broken. */
  private readonly fatLength: number
  /** FAT sectors read so far, by their index in the FAT (a chain only loads the part of the FAT it walks). */
  private readonly fatCache = new Map<number, Uint32Array>()
  private readonly miniCutoff: number
  private readonly firstMiniFatSector: number
  private miniFat: Uint32Array | undefined
  private miniStream: ReadonlyArray<number> | undefined
  private readonly root: RawEntry
  private readonly byPath = new Map<string, RawEntry>()

  constructor(source: ZipSource, release: () => void, options: CompoundFileOptions | undefined) {
    this.source = source
    this.release = release
    this.maxStreamBytes = options?.maxStreamBytes ?? defaultMaxStreamBytes
    const header = source.read(0, 512)
    if (header.length < 512) throw damage("truncated", `${source.size} bytes, shorter than the 512-byte header`)
    if (!signature.every((b, i) => header[i] === b)) throw damage("malformed", "no OLE2 signature")
    const view = new DataView(header.buffer, header.byteOffset, header.byteLength)
    const shift = view.getUint16(0x1e, true)
    if (shift !== 9 && shift !== 12) throw damage("malformed", `sector shift ${shift} (9 or 12 expected)`)
    this.sectorSize = 1 << shift
    this.fileSectors = Math.max(0, Math.ceil(source.size / this.sectorSize) - 1)
    const cutoff = view.getUint32(0x38, true)
    // MS-CFB fixes the cutoff at 4096; a writer that put something else there still meant 4096.
    this.miniCutoff = cutoff === 0 || cutoff > 0x10000 ? 4096 : cutoff
    this.firstMiniFatSector = view.getUint32(0x3c, true)
    this.fatSectors = this.readDifat(view)
    this.fatLength = view.getUint32(0x2c, true) * (this.sectorSize / 4)
    const directory = this.readDirectory(view.getUint32(0x30, true))
    const root = directory[0]
    if (root === undefined || root.type !== entryType.root) throw damage("malformed", "no root entry in the directory")
    this.root = root
    this.entries = this.walkTree(directory)
  }

  /** Sector `n`'s bytes; a sector past the end of the file is truncation. */
  private sector(n: number): Uint8Array {
    if (n >= this.fileSectors) throw damage("truncated", `sector ${n} is past the end of the file (${this.fileSectors} sectors)`)
    const at = (n + 1) * this.sectorSize
    const bytes = this.source.read(at, at + this.sectorSize)
    if (bytes.length < this.sectorSize) {
      // The last sector of a file cut short: what is there is read, the rest is zeros.
      const whole = new Uint8Array(this.sectorSize)
      whole.set(bytes)
      return whole
    }
    return bytes
  }

  private words(n: number): Uint32Array {
    const s = this.sector(n)
    const out = new Uint32Array(this.sectorSize / 4)
    const v = new DataView(s.buffer, s.byteOffset, s.byteLength)
    for (let i = 0; i < out.length; i++) out[i] = v.getUint32(i * 4, true)
    return out
  }

  /**
   * The FAT's sector numbers: the header's 109 slots, then the DIFAT chain.
   * FAT sectors that would only describe sectors past the end of the file
   * are dropped (a sparse file declaring a huge FAT costs nothing).
   */
  private readDifat(view: DataView): ReadonlyArray<number> {
    const perSector = this.sectorSize / 4
    const declared = view.getUint32(0x2c, true)
    const useful = Math.min(declared, Math.ceil(this.fileSectors / perSector))
    const out: Array<number> = []
    for (let i = 0; i < 109 && out.length < useful; i++) out.push(view.getUint32(0x4c + i * 4, true))
    let next = view.getUint32(0x44, true)
    for (let hops = 0; out.length < useful && next < maxRegularSector; hops++) {
      if (hops > this.fileSectors) throw damage("broken", "the DIFAT chain loops")
      const words = this.words(next)
      // The last word of a DIFAT sector links to the next one.
      for (let i = 0; i < perSector - 1 && out.length < useful; i++) out.push(words[i] ?? freeSector)
      next = words[perSector - 1] ?? endOfChain
    }
    return out
  }

  private fatEntry(n: number): number {
    const perSector = this.sectorSize / 4
    const index = Math.floor(n / perSector)
    let words = this.fatCache.get(index)
    if (words === undefined) {
      const at = this.fatSectors[index]
      // FAT sectors past the ones that describe the file were not read: their sectors are past its end.
      if (at === undefined) throw damage("truncated", `sector ${n} is past the end of the file`)
      if (at >= maxRegularSector) throw damage("broken", `sector ${n} has no FAT entry`)
      words = this.words(at)
      this.fatCache.set(index, words)
    }
    return words[n % perSector] ?? freeSector
  }

  /**
   * The sectors of a chain from `start`, at most `limit` of them (a stream
   * needs no more than its size). A chain that comes back on itself or links
   * past its table is broken (oleloop.xls); the walk is bounded by the
   * table's length, so it ends.
   */
  private chain(start: number, limit: number, next: (n: number) => number, tableLength: number): Array<number> {
    const out: Array<number> = []
    // One bit per table entry: a chain visits each sector at most once.
    const seen = new Uint8Array(Math.ceil(tableLength / 8))
    for (let s = start; s !== endOfChain && out.length < limit; s = next(s)) {
      if (s >= tableLength) throw damage("broken", `a sector chain links to ${s}, past its table of ${tableLength} entries`)
      const bit = 1 << (s & 7)
      if (((seen[s >> 3] ?? 0) & bit) !== 0) throw damage("broken", `a sector chain loops at sector ${s}`)
      seen[s >> 3] = (seen[s >> 3] ?? 0) | bit
      out.push(s)
    }
    return out
  }

  private fatChain(start: number, limit = Infinity): Array<number> {
    return this.chain(start, limit, (n) => this.fatEntry(n), this.fatLength)
  }

  private readDirectory(first: number): Array<RawEntry> {
    const entries: Array<RawEntry> = []
    const utf16 = new TextDecoder("utf-16le")
    for (const n of this.fatChain(first)) {
      const s = this.sector(n)
      const v = new DataView(s.buffer, s.byteOffset, s.byteLength)
      for (let at = 0; at + 128 <= s.length; at += 128) {
        const nameBytes = Math.min(v.getUint16(at + 0x40, true), 64)
        entries.push({
          name: utf16.decode(s.subarray(at, at + Math.max(nameBytes - 2, 0))),
          type: s[at + 0x42] ?? 0,
          left: v.getUint32(at + 0x44, true),
          right: v.getUint32(at + 0x48, true),
          child: v.getUint32(at + 0x4c, true),
          start: v.getUint32(at + 0x74, true),
          // Version 3 files may leave garbage in the high half of the size (MS-CFB 2.6.3); streams past 4 GiB do not occur.
          size: v.getUint32(at + 0x78, true)
        })
      }
    }
    return entries
  }

  /**
   * Paths from the red-black trees of the directory. A stream the tree does
   * not reach (a damaged tree, phpexcel_bad_cfb_dir.xls) is still listed
   * under its bare name when no reached entry has it: Office finds it too.
   */
  private walkTree(directory: ReadonlyArray<RawEntry>): Array<{ path: string; type: "stream" | "storage"; size: number }> {
    const out: Array<{ path: string; type: "stream" | "storage"; size: number }> = []
    const visited = new Set<number>([0])
    const add = (path: string, entry: RawEntry, index: number) => {
      const key = path.toLowerCase()
      if (this.byPath.has(key)) return
      this.byPath.set(key, entry)
      visited.add(index)
      out.push({ path, type: entry.type === entryType.stream ? "stream" : "storage", size: entry.size })
    }
    const walk = (index: number, prefix: string, depth: number) => {
      // Siblings form a binary tree; walk it with an explicit stack (a degenerate tree is a long list).
      const stack = [index]
      while (stack.length > 0) {
        const i = stack.pop() ?? noStream
        if (i === noStream || i >= directory.length || visited.has(i)) continue
        const entry = directory[i]
        if (entry === undefined) continue
        visited.add(i)
        stack.push(entry.left, entry.right)
        if (entry.type !== entryType.stream && entry.type !== entryType.storage) continue
        const path = prefix + entry.name
        add(path, entry, i)
        if (entry.type === entryType.storage && depth < 64) walk(entry.child, `${path}/`, depth + 1)
      }
    }
    walk(this.root.child, "", 0)
    directory.forEach((entry, i) => {
      if (!visited.has(i) && entry.type === entryType.stream && entry.name !== "") add(entry.name, entry, i)
    })
    return out
  }

  readStream(path: string): Uint8Array | undefined {
    const source = this.streamSource(path)
    return source === undefined ? undefined : source.read(0, source.size)
  }

  /**
   * The stream at `path` as positioned reads, for a reader that walks a big
   * stream (a workbook's records) without holding it: `read(start, end)`
   * gives those bytes of the stream. Undefined when absent; throws like
   * {@link CompoundFile.readStream} (the size limit and the chain are checked
   * here, the sectors' presence as they are read).
   */
  streamSource(path: string): ZipSource | undefined {
    const entry = this.byPath.get(path.toLowerCase())
    if (entry === undefined || entry.type !== entryType.stream) return undefined
    const { size } = entry
    if (size > this.maxStreamBytes) {
      throw new ExtractError({ reason: "too-large", detail: `OLE2 stream ${path} has ${size} bytes; the limit is ${this.maxStreamBytes}` })
    }
    if (size === 0) return bytesSource(new Uint8Array())
    if (size < this.miniCutoff) return bytesSource(this.readMini(entry, path))
    return this.regularSource(entry, path)
  }

  /**
   * A regular stream's bytes by positioned reads. Its sector chain is walked
   * only as far as the reads reach (the encryption check reads 64 KiB of a
   * 1 GiB stream: 128 sectors, not 2 million), with the same damage checks
   * as {@link chain}: a loop or a link past the table is broken, a chain that
   * ends before the stream does is truncated.
   */
  private regularSource(entry: RawEntry, path: string): ZipSource {
    const { size, start } = entry
    const need = Math.ceil(size / this.sectorSize)
    if (need > this.fileSectors) throw damage("truncated", `stream ${path} declares ${size} bytes, more than the file holds`)
    let sectors = new Uint32Array(Math.min(need, 1024))
    let walked = 0
    let next = start
    let seen: Uint8Array | undefined
    const walkTo = (n: number) => {
      for (; walked < n; walked++) {
        const s = next
        if (s === endOfChain) throw damage("truncated", `stream ${path} declares ${size} bytes; its chain holds ${walked * this.sectorSize}`)
        if (s >= this.fatLength) throw damage("broken", `a sector chain links to ${s}, past its table of ${this.fatLength} entries`)
        seen ??= new Uint8Array(Math.ceil(this.fatLength / 8))
        const bit = 1 << (s & 7)
        if (((seen[s >> 3] ?? 0) & bit) !== 0) throw damage("broken", `a sector chain loops at sector ${s}`)
        seen[s >> 3] = (seen[s >> 3] ?? 0) | bit
        if (walked === sectors.length) {
          const grown = new Uint32Array(Math.min(need, sectors.length * 2))
          grown.set(sectors)
          sectors = grown
        }
        sectors[walked] = s
        next = walked + 1 < need ? this.fatEntry(s) : endOfChain
      }
    }
    const read = (from: number, to: number): Uint8Array => {
      const end = Math.min(to, size)
      if (end <= from) return new Uint8Array()
      const last = Math.ceil(end / this.sectorSize)
      walkTo(last)
      const out = new Uint8Array(end - from)
      // Consecutive sectors (the usual layout) are read in one call.
      for (let i = Math.floor(from / this.sectorSize); i < last; ) {
        let j = i + 1
        while (j < last && sectors[j] === (sectors[j - 1] ?? 0) + 1) j++
        const first = sectors[i] ?? 0
        const final = sectors[j - 1] ?? 0
        if (final >= this.fileSectors) throw damage("truncated", `stream ${path}: sector ${final} is past the end of the file`)
        const runStart = i * this.sectorSize
        const lo = Math.max(from, runStart)
        const hi = Math.min(end, j * this.sectorSize)
        const fileAt = (first + 1) * this.sectorSize + (lo - runStart)
        const bytes = this.source.read(fileAt, fileAt + (hi - lo))
        if (bytes.length < hi - lo) throw damage("truncated", `stream ${path} runs past the end of the file`)
        out.set(bytes, lo - from)
        i = j
      }
      return out
    }
    return { size, read }
  }

  private readMini(entry: RawEntry, path: string): Uint8Array {
    const { size, start } = entry
    if (this.miniFat === undefined) {
      const sectors = this.fatChain(this.firstMiniFatSector)
      const table = new Uint32Array(sectors.length * (this.sectorSize / 4))
      sectors.forEach((n, i) => table.set(this.words(n), i * (this.sectorSize / 4)))
      this.miniFat = table
      this.miniStream = this.fatChain(this.root.start, Math.ceil(this.root.size / this.sectorSize))
    }
    const miniFat = this.miniFat
    const container = this.miniStream ?? []
    const need = Math.ceil(size / miniSectorSize)
    const minis = this.chain(start, need, (n) => miniFat[n] ?? freeSector, miniFat.length)
    if (minis.length < need) throw damage("truncated", `stream ${path} declares ${size} bytes; its mini chain holds ${minis.length * miniSectorSize}`)
    const perSector = this.sectorSize / miniSectorSize
    const out = new Uint8Array(size)
    minis.forEach((m, i) => {
      const holder = container[Math.floor(m / perSector)]
      if (holder === undefined) throw damage("broken", `stream ${path}: mini sector ${m} is past the mini stream`)
      const s = this.sector(holder)
      const at = (m % perSector) * miniSectorSize
      out.set(s.subarray(at, at + Math.min(miniSectorSize, size - i * miniSectorSize)), i * miniSectorSize)
    })
    return out
  }

  close(): void {
    this.release()
  }
}

/**
 * Opens the compound file `file` (a path, read by positioned reads; or the
 * file's bytes, for tests and callers that hold them; or a {@link ZipSource}
 * such as a plain worker's open snapshot, which the caller closes). Reads
 * the header, the DIFAT and the directory; streams are read by
 * {@link CompoundFile.readStream}. Throws an {@link ExtractError}:
 * `unreadable` when the file cannot be opened or read, `corrupt` (with a
 * {@link cfbDamageOf} kind) when the container is damaged.
 */
export function openCompoundFile(file: string | Uint8Array | ZipSource, options?: CompoundFileOptions): CompoundFile {
  if (typeof file !== "string") return new Cfb(file instanceof Uint8Array ? bytesSource(file) : file, () => undefined, options)
  const fd = openForReading(file)
  let closed = false
  const release = () => {
    if (closed) return
    closed = true
    closeSync(fd)
  }
  try {
    const size = fstatSync(fd).size
    const source: ZipSource = {
      size,
      read: (start, end) => readRange(fd, start, Math.min(end, size))
    }
    return new Cfb(source, release, options)
  } catch (e) {
    release()
    throw e instanceof ExtractError ? e : unreadableError(e)
  }
}
