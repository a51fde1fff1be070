/**
 * The record layer of a BIFF5/BIFF8 workbook stream (MS-XLS 2.1.4): records
 * read one at a time from the stream by positioned reads, the strings of
 * records continued by CONTINUE records (the shared-string table, a long
 * formula result, a text box), and the string forms of each version.
 *
 * Damage found here is an {@link ExtractError} `needs-office` naming the
 * record: LibreOffice reads many damaged workbooks up to the damage, so the
 * file goes to the Office owner (W3) rather than failing here.
 *
 * @module
 */
import { ExtractError } from "./extract_error.ts"
import type { ZipSource } from "./_zip.ts"

/** Record types used by the xls reader (MS-XLS 2.3). */
export const rt = {
  formula: 0x0006,
  eof: 0x000a,
  header: 0x0014,
  footer: 0x0015,
  note: 0x001c,
  dateMode: 0x0022,
  filePass: 0x002f,
  continue: 0x003c,
  codePage: 0x0042,
  obj: 0x005d,
  boundSheet: 0x0085,
  mulRk: 0x00bd,
  rString: 0x00d6,
  xf: 0x00e0,
  mergedCells: 0x00e5,
  msoDrawing: 0x00ec,
  sst: 0x00fc,
  labelSst: 0x00fd,
  txo: 0x01b6,
  hlink: 0x01b8,
  number: 0x0203,
  label: 0x0204,
  boolErr: 0x0205,
  string: 0x0207,
  rk: 0x027e,
  format: 0x041e,
  bof: 0x0809
} as const

/** A reader's damage: the workbook goes to the Office owner, which may read past it. */
/** The text of an error value (MS-XLS 2.5.97 BErr) in a BOOLERR record, a cached formula result, or an xlsb cell: BIFF2 to BIFF12 alike. */
export const errorTexts: Readonly<Record<number, string>> = {
  0x00: "#NULL!",
  0x07: "#DIV/0!",
  0x0f: "#VALUE!",
  0x17: "#REF!",
  0x1d: "#NAME?",
  0x24: "#NUM!",
  0x2a: "#N/A",
  0x2b: "#GETTING_DATA"
}

export const damaged = (detail: string): ExtractError =>
  new ExtractError({ reason: "needs-office", detail: `legacy Excel workbook the plain reader cannot read (${detail})` })

export const u16 = (b: Uint8Array, at: number): number => (b[at] ?? 0) | ((b[at + 1] ?? 0) << 8)
export const u32 = (b: Uint8Array, at: number): number => ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8) | ((b[at + 2] ?? 0) << 16) | ((b[at + 3] ?? 0) << 24)) >>> 0

const scratch = new DataView(new ArrayBuffer(8))
/** The little-endian IEEE double at `at`. */
export function f64(b: Uint8Array, at: number): number {
  for (let i = 0; i < 8; i++) scratch.setUint8(i, b[at + i] ?? 0)
  return scratch.getFloat64(0, true)
}

/** An RK number (MS-XLS 2.5.218): a 30-bit integer or the high 30 bits of a double, maybe divided by 100. */
export function rkNumber(rk: number): number {
  let n: number
  if (rk & 0x02) {
    n = rk >> 2
  } else {
    scratch.setUint32(0, 0, true)
    scratch.setUint32(4, (rk & 0xfffffffc) >>> 0, true)
    n = scratch.getFloat64(0, true)
  }
  return rk & 0x01 ? n / 100 : n
}

/** Characters of a compressed BIFF8 string: the low bytes of UTF-16, that is ISO-8859-1 (not windows-1252). */
const latin1 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.length).toString("latin1")
const utf16 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.length & ~1).toString("utf16le")

/** One record: its type, where it starts in the stream, and its body. */
export interface BiffRecord {
  readonly type: number
  readonly offset: number
  readonly data: Uint8Array
}

/** Empty records of type 0 in a row taken before the bytes count as zeros rather than records. */
const maxZeroRecords = 1024

/** Bytes of the stream read at a time. */
const readBlock = 1 << 16

/**
 * Reads the records of a workbook stream in order from a position. A record
 * whose length runs past the end of the stream is damage; a few bytes too
 * few for a record header at the very end are the end.
 */
export class RecordCursor {
  private readonly source: ZipSource
  private readonly streamName: string
  private buffer: Uint8Array = new Uint8Array()
  private bufferStart = 0
  private at: number
  private zeros = 0

  constructor(source: ZipSource, streamName: string, start = 0) {
    this.source = source
    this.streamName = streamName
    this.at = start
  }

  /** Where the next record starts. */
  get position(): number {
    return this.at
  }

  /** Moves to the record at `offset`. */
  seek(offset: number): void {
    this.at = offset
    this.zeros = 0
  }

  private bytes(at: number, n: number): Uint8Array {
    if (at < this.bufferStart || at + n > this.bufferStart + this.buffer.length) {
      this.buffer = this.source.read(at, Math.min(this.source.size, at + Math.max(n, readBlock)))
      this.bufferStart = at
      if (this.buffer.length < n) throw damaged(`the ${this.streamName} stream ends inside a record at offset ${at}`)
    }
    return this.buffer.subarray(at - this.bufferStart, at - this.bufferStart + n)
  }

  /** The type of the next record, or undefined at the end of the stream. */
  peekType(): number | undefined {
    if (this.at + 4 > this.source.size) return undefined
    return u16(this.bytes(this.at, 4), 0)
  }

  /** The next record, or undefined at the end of the stream. */
  next(): BiffRecord | undefined {
    if (this.at + 4 > this.source.size) return undefined
    const head = this.bytes(this.at, 4)
    const type = u16(head, 0)
    const length = u16(head, 2)
    if (this.at + 4 + length > this.source.size) {
      throw damaged(
        `record 0x${type.toString(16).padStart(4, "0")} at offset ${this.at} declares ${length} bytes, past the end of the ${this.streamName} stream (${this.source.size} bytes)`
      )
    }
    // No BIFF5/8 substream has records of type 0: a long run of empty ones is zeros (a sparse or wiped file), not a workbook.
    if (type === 0 && length === 0) {
      if (++this.zeros > maxZeroRecords) throw damaged(`zeros where records should be, from offset ${this.at - 4 * maxZeroRecords} of the ${this.streamName} stream`)
    } else {
      this.zeros = 0
    }
    const record = { type, offset: this.at, data: this.bytes(this.at + 4, length) }
    this.at += 4 + length
    return record
  }

  /** The body of the next record when it is a CONTINUE, taking it; undefined otherwise. */
  nextContinue(): Uint8Array | undefined {
    return this.peekType() === rt.continue ? this.next()?.data : undefined
  }
}

/**
 * The body of a record and of the CONTINUE records after it, read as one
 * sequence of bytes, except that characters of a BIFF8 string that go on in
 * the next record start there with a new flag byte (MS-XLS 2.5.293: the
 * high-byte flag may change at the boundary).
 */
export class ContinuedBytes {
  private segment: Uint8Array
  private at: number
  private readonly more: () => Uint8Array | undefined

  constructor(first: Uint8Array, more: () => Uint8Array | undefined, start = 0) {
    this.segment = first
    this.at = start
    this.more = more
  }

  private advance(): void {
    const next = this.more()
    if (next === undefined) throw damaged("a string runs past its record and its CONTINUE records")
    this.segment = next
    this.at = 0
  }

  /** Where the next byte is within the current record. */
  get offset(): number {
    return this.at
  }

  /** True when nothing is left in this record (a CONTINUE may still follow). */
  get atSegmentEnd(): boolean {
    return this.at >= this.segment.length
  }

  byte(): number {
    while (this.at >= this.segment.length) this.advance()
    return this.segment[this.at++] ?? 0
  }

  u16(): number {
    return this.byte() | (this.byte() << 8)
  }

  u32(): number {
    return (this.u16() | (this.u16() << 16)) >>> 0
  }

  skip(n: number): void {
    for (let left = n; left > 0; ) {
      while (this.at >= this.segment.length) this.advance()
      const take = Math.min(left, this.segment.length - this.at)
      this.at += take
      left -= take
    }
  }

  /** `count` characters, one byte each (`high` false) or two, the flag read anew at each record boundary. */
  chars(count: number, high: boolean): string {
    let out = ""
    let wide = high
    for (let left = count; left > 0; ) {
      if (this.at >= this.segment.length) {
        this.advance()
        wide = (this.byte() & 0x01) !== 0
        continue
      }
      const width = wide ? 2 : 1
      const take = Math.min(left, Math.floor((this.segment.length - this.at) / width))
      if (take === 0) throw damaged("a two-byte character split across records")
      const bytes = this.segment.subarray(this.at, this.at + take * width)
      out += wide ? utf16(bytes) : latin1(bytes)
      this.at += take * width
      left -= take
    }
    return out
  }
}

/**
 * A BIFF8 rich extended string (XLUnicodeRichExtendedString, MS-XLS
 * 2.5.293): its characters; formatting runs and the phonetic block
 * (furigana) are skipped, never part of the text.
 */
export function readRichExtendedString(bytes: ContinuedBytes): string {
  const count = bytes.u16()
  const flags = bytes.byte()
  const runs = flags & 0x08 ? bytes.u16() : 0
  const ext = flags & 0x04 ? bytes.u32() : 0
  const text = bytes.chars(count, (flags & 0x01) !== 0)
  if (runs > 0) bytes.skip(4 * runs)
  if (ext > 0) bytes.skip(ext)
  return text
}

/**
 * A BIFF8 XLUnicodeString (16- or 8-bit count, flags, characters) at `at` of
 * one record; `{text, end}`. The rich and phonetic parts some writers flag
 * are skipped like those of a shared string; a count past the record takes
 * what the record holds.
 */
export function unicodeStringAt(b: Uint8Array, at: number, countBytes: 1 | 2 = 2): { readonly text: string; readonly end: number } {
  const bytes = new ContinuedBytes(b, () => undefined, at)
  const count = countBytes === 2 ? bytes.u16() : bytes.byte()
  const flags = bytes.byte()
  const runs = flags & 0x08 ? bytes.u16() : 0
  const ext = flags & 0x04 ? bytes.u32() : 0
  const width = (flags & 0x01) + 1
  const text = bytes.chars(Math.min(count, Math.floor((b.length - bytes.offset) / width)), width === 2)
  return { text, end: bytes.offset + 4 * runs + ext }
}

/** A BIFF5 byte string (8- or 16-bit count, then bytes in the code page) at `at` of one record. */
export function byteStringAt(b: Uint8Array, at: number, countBytes: 1 | 2, decode: (bytes: Uint8Array) => string): { readonly text: string; readonly end: number } {
  const count = countBytes === 2 ? u16(b, at) : (b[at] ?? 0)
  const start = at + countBytes
  const end = Math.min(b.length, start + count)
  return { text: decode(b.subarray(start, end)), end }
}
