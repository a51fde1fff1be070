/**
 * The sieve of a fresh folder (S1, S2): its normalised text in brief, so
 * that a search rules the folder out without reading it. A bit per pair of
 * adjacent UTF-16 units and per run of {@link RUN} (each hashed onto a table
 * sized to the text: 8 bits a character, 2^15 to 2^24 bits) and per unit.
 * Never rules out wrongly. Pairs alone said "may" to a code like PRB003761
 * in every file with a code of that shape and numbers (all its pairs are
 * common); its runs are not.
 *
 * A big folder's sieve is written once, by the worker that staged it
 * ({@link writeFolderSieve}, beside the 2-gram index in `gram/sieves`), so
 * that no search normalises a big fresh file to learn that it does not hold
 * a word (S2: a GUI query during a run spent 100–600 ms normalising and
 * sieving the few-MB files it met first). The file lives while the folder
 * is in the fresh tail: the round removes it when the folder is live in a
 * segment ({@link removeFolderSieves}), a completed update removes the rest
 * ({@link clearSieves}). A missing, damaged or outdated sieve file only
 * costs a read of the text.
 *
 * Sync `node:fs` (STYLE 14): the cold search is Effect-free.
 *
 * @module
 */
import { normalizeForSearch, parseBodyTsvRow } from "@sagasu/domain"
import * as fs from "node:fs"
import * as path from "node:path"

/** The folder of the sieve files in the gram folder (`WorkPaths.sieves`). */
export const sieveDirName = "sieves"

/** A sieve: its folder's fingerprint and the three bit tables. */
export interface Sieve {
  readonly fingerprint: string
  readonly pairs: Uint32Array
  /** 32 − log2(the tables' bits): the shift that takes a hash onto a table. */
  readonly shift: number
  /** A bit per run of {@link RUN} adjacent units, hashed like the pairs. */
  readonly runs: Uint32Array
  /** A bit per UTF-16 unit (65,536 bits). */
  readonly units: Uint32Array
}

/** The bits of the pair table of a sieve over `chars` characters of text: 8 a character, a power of two from 2^15 to 2^24. */
export const sievePairBits = (chars: number): number => Math.min(24, Math.max(15, Math.ceil(Math.log2(Math.max(1, chars * 8)))))

/**
 * A staged folder's TSVs of at least this many bytes in all get a sieve file
 * (smaller ones are read and sieved by a search in a few ms).
 */
export const sieveFileMinBytes = 128 * 1024

const pairHash = (a: number, b: number) => Math.imul((a << 16) | b, 0x9e3779b1) >>> 0
/** The units in a run of the sieve's second table. */
const RUN = 5
const RUN_BASE = 0x01000193
// A run's hash from its rolling sum h = Σ c_i · BASE^(RUN-1-i) (mod 2^32); runOut = BASE^(RUN-1) takes its first unit out.
const runHash = (h: number) => Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0
const runOut = (() => {
  let p = 1
  for (let i = 0; i < RUN - 1; i++) p = Math.imul(p, RUN_BASE)
  return p
})()

const hasBit = (table: Uint32Array, bit: number) => (table[bit >>> 5]! & (1 << (bit & 31))) !== 0

/**
 * A sieve built text by text (each normalised for search, S4; no pair or run
 * is taken across two texts — a word never holds a line feed, where texts
 * are cut). Its tables start at `bits` bits (an upper bound: the
 * characters are not known before the end) and are folded down to the size
 * for the characters added ({@link sievePairBits}) by {@link finish}: a
 * table's bit is the top bits of a hash, so halving one ORs neighbouring
 * bits, and what it lets through stays a superset.
 */
export class SieveBuilder {
  private readonly shift: number
  private readonly pairs: Uint32Array
  private readonly runs: Uint32Array
  private readonly units = new Uint32Array(65536 / 32)
  /** UTF-16 units added so far. */
  chars = 0

  constructor(bits: number) {
    this.shift = 32 - bits
    this.pairs = new Uint32Array((2 ** bits) / 32)
    this.runs = new Uint32Array((2 ** bits) / 32)
  }

  /** Adds one normalised text. */
  add(text: string): void {
    const { pairs, runs, units, shift } = this
    this.chars += text.length
    const n = text.length
    if (n === 0) return
    // The units before the run's window and the previous unit kept in locals (one read of the text a
    // unit, no per-unit branch past the first RUN): the bits are those of the plain loop (sieve.test.ts).
    let prev = text.charCodeAt(0)
    units[prev >>> 5]! |= 1 << (prev & 31)
    let h = prev
    const head = Math.min(n, RUN)
    for (let i = 1; i < head; i++) {
      const c = text.charCodeAt(i)
      units[c >>> 5]! |= 1 << (c & 31)
      const p = pairHash(prev, c) >>> shift
      pairs[p >>> 5]! |= 1 << (p & 31)
      h = (Math.imul(h, RUN_BASE) + c) | 0
      prev = c
    }
    if (n >= RUN) {
      const r = runHash(h) >>> shift
      runs[r >>> 5]! |= 1 << (r & 31)
    }
    for (let i = RUN; i < n; i++) {
      const c = text.charCodeAt(i)
      units[c >>> 5]! |= 1 << (c & 31)
      const p = pairHash(prev, c) >>> shift
      pairs[p >>> 5]! |= 1 << (p & 31)
      h = (Math.imul(h - Math.imul(text.charCodeAt(i - RUN), runOut), RUN_BASE) + c) | 0
      const r = runHash(h) >>> shift
      runs[r >>> 5]! |= 1 << (r & 31)
      prev = c
    }
  }

  /** The sieve of what was added, its tables folded to the size for its characters. */
  finish(fingerprint: string): Sieve {
    let bits = 32 - this.shift
    let pairs = this.pairs
    let runs = this.runs
    const target = Math.min(bits, sievePairBits(this.chars))
    for (; bits > target; bits--) {
      pairs = foldTable(pairs)
      runs = foldTable(runs)
    }
    return { fingerprint, pairs, runs, shift: 32 - bits, units: this.units }
  }
}

// A table of 2^k bits as one of 2^(k-1): new bit j is old bit 2j or 2j+1.
function foldTable(table: Uint32Array): Uint32Array {
  const out = new Uint32Array(table.length / 2)
  // The bits of a word at even places, ORed with their odd neighbours, packed into its low 16.
  const pack = (w: number) => {
    let x = (w | (w >>> 1)) & 0x55555555
    x = (x | (x >>> 1)) & 0x33333333
    x = (x | (x >>> 2)) & 0x0f0f0f0f
    x = (x | (x >>> 4)) & 0x00ff00ff
    return (x | (x >>> 8)) & 0x0000ffff
  }
  for (let i = 0; i < out.length; i++) out[i] = (pack(table[2 * i]!) | (pack(table[2 * i + 1]!) << 16)) >>> 0
  return out
}

/** The sieve of `texts` (normalised for search, S4) of the folder with `fingerprint`. */
export function buildSieve(fingerprint: string, texts: ReadonlyArray<string>): Sieve {
  const builder = new SieveBuilder(sievePairBits(texts.reduce((n, t) => n + t.length, 0)))
  for (const text of texts) builder.add(text)
  return builder.finish(fingerprint)
}

/** Whether the text of `sieve` may hold `term` (normalised): `false` only when it does not. */
export function sieveMayHold(sieve: Sieve, term: string): boolean {
  let h = 0
  for (let i = 0; i < term.length; i++) {
    const c = term.charCodeAt(i)
    if ((sieve.units[c >>> 5]! & (1 << (c & 31))) === 0) return false
    if (i > 0 && !hasBit(sieve.pairs, pairHash(term.charCodeAt(i - 1), c) >>> sieve.shift)) return false
    if (i >= RUN) h = (h - Math.imul(term.charCodeAt(i - RUN), runOut)) | 0
    h = (Math.imul(h, RUN_BASE) + c) | 0
    if (i >= RUN - 1 && !hasBit(sieve.runs, runHash(h) >>> sieve.shift)) return false
  }
  return true
}

/** The bytes a sieve holds in memory. */
export const sieveBytes = (s: Sieve): number => s.pairs.byteLength + s.runs.byteLength + s.units.byteLength

/**
 * A TSV's whole text normalised in one call, or undefined when something in
 * it is escaped (a `\` or a CR: an escape may hide a word across it, and the
 * text is not each line's as the reader gives it).
 */
export const wholeNormalized = (text: string): string | undefined =>
  text.includes("\\") || text.includes("\r") ? undefined : normalizeForSearch(text)

/**
 * The sieve of a folder's TSV texts (whole, or pieces of whole rows) of the
 * folder with `fingerprint`: each normalised at once (normalising never joins
 * or makes characters across a tab or a line feed), or row by row when
 * escaped — the one way a search and a worker read a TSV into a sieve.
 */
export function sieveOfTsvTexts(fingerprint: string, texts: ReadonlyArray<string>): Sieve {
  const builder = new SieveBuilder(sievePairBits(texts.reduce((n, t) => n + t.length, 0)))
  for (const text of texts) addChunk(builder, text)
  return builder.finish(fingerprint)
}

// File: "SGSV1\n", the fingerprint's UTF-8 length (u32 LE) and bytes, the shift (u32), then units, pairs, runs (u32 LE each).
const MAGIC = Buffer.from("SGSV1\n", "latin1")

/** A sieve as its file holds it. */
export function encodeSieve(sieve: Sieve): Buffer {
  const fp = Buffer.from(sieve.fingerprint, "utf8")
  const head = Buffer.alloc(MAGIC.length + 8 + fp.length)
  MAGIC.copy(head, 0)
  head.writeUInt32LE(fp.length, MAGIC.length)
  fp.copy(head, MAGIC.length + 4)
  head.writeUInt32LE(sieve.shift, MAGIC.length + 4 + fp.length)
  const table = (t: Uint32Array) => Buffer.from(t.buffer, t.byteOffset, t.byteLength)
  return Buffer.concat([head, table(sieve.units), table(sieve.pairs), table(sieve.runs)])
}

/**
 * The sieve a file holds, when it is whole and of the folder with
 * `fingerprint`; `undefined` otherwise (another folder's, damaged, cut
 * short: the caller reads the text instead).
 */
export function decodeSieve(bytes: Uint8Array, fingerprint: string): Sieve | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (buf.length < MAGIC.length + 8 || !buf.subarray(0, MAGIC.length).equals(MAGIC)) return undefined
  const fpLength = buf.readUInt32LE(MAGIC.length)
  const at = MAGIC.length + 4 + fpLength
  if (at + 4 > buf.length || buf.toString("utf8", MAGIC.length + 4, at) !== fingerprint) return undefined
  const shift = buf.readUInt32LE(at)
  const bits = 32 - shift
  if (bits < 15 || bits > 24) return undefined
  const tableBytes = 2 ** bits / 8
  const start = at + 4
  if (buf.length !== start + 8192 + 2 * tableBytes) return undefined
  // Copied out: the tables are read as u32 words, whatever the alignment of the buffer.
  const words = (from: number, n: number) => {
    const out = new Uint32Array(n / 4)
    Buffer.from(out.buffer).set(buf.subarray(from, from + n))
    return out
  }
  return { fingerprint, shift, units: words(start, 8192), pairs: words(start + 8192, tableBytes), runs: words(start + 8192 + tableBytes, tableBytes) }
}

/** The name of the sieve file of the folder with `fingerprint` (a 64-bit FNV-1a of it, in hex). */
export function sieveFileName(fingerprint: string): string {
  let lo = 0x811c9dc5
  let hi = 0x01000193
  for (let i = 0; i < fingerprint.length; i++) {
    const c = fingerprint.charCodeAt(i)
    lo = Math.imul(lo ^ c, 0x01000193) >>> 0
    hi = Math.imul(hi ^ c ^ (lo >>> 7), 0x01000193) >>> 0
  }
  return `${hi.toString(16).padStart(8, "0")}${lo.toString(16).padStart(8, "0")}.sieve`
}

/** Reads the sieve file of the folder with `fingerprint` in `sieveDir`, or `undefined` (none, damaged, another folder's). */
export function readSieveFile(sieveDir: string, fingerprint: string): Sieve | undefined {
  try {
    return decodeSieve(fs.readFileSync(path.join(sieveDir, sieveFileName(fingerprint))), fingerprint)
  } catch {
    return undefined
  }
}

/**
 * Writes the sieve of a complete staged folder (`dir`, its `.complete` mark
 * written: its fingerprint no longer changes, and its publish is a rename
 * that keeps it) into `sieveDir`, when its TSVs hold at least
 * {@link sieveFileMinBytes} bytes; written aside and renamed, so a search
 * never reads half of one. Returns whether it wrote one. Throws on I/O
 * errors (the caller ignores them: the sieve only saves a read).
 */
export function writeFolderSieve(
  sieveDir: string,
  folder: { readonly fingerprint: string; readonly dir: string; readonly files: ReadonlyArray<string> },
  chunkBytes: number = sieveChunkBytes
): boolean {
  let bytes = 0
  for (const file of folder.files) bytes += fs.statSync(path.join(folder.dir, file)).size
  if (bytes < sieveFileMinBytes) return false
  // Read a few MB at a time (a staged file may hold up to a GiB of text: issue 20's memory bound);
  // its UTF-8 bytes bound its characters, and the tables fold down to them at the end.
  const builder = new SieveBuilder(sievePairBits(bytes))
  for (const file of folder.files) {
    const whole = forEachChunk(path.join(folder.dir, file), chunkBytes, (chunk) => addChunk(builder, chunk))
    if (!whole) return false
  }
  const sieve = builder.finish(folder.fingerprint)
  fs.mkdirSync(sieveDir, { recursive: true })
  const target = path.join(sieveDir, sieveFileName(folder.fingerprint))
  const aside = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
  fs.writeFileSync(aside, encodeSieve(sieve))
  fs.renameSync(aside, target)
  return true
}

// A piece of whole rows of a TSV (its header row among them, or not: its bits only let more through)
// into the sieve: normalised at once, or row by row when escaped.
function addChunk(builder: SieveBuilder, chunk: string): void {
  const whole = wholeNormalized(chunk)
  if (whole !== undefined) {
    builder.add(whole)
    return
  }
  for (const row of chunk.split("\n")) {
    if (row === "") continue
    const line = parseBodyTsvRow(row)
    builder.add(normalizeForSearch(line.text))
    if (line.forms !== undefined) builder.add(normalizeForSearch(line.forms))
  }
}

/** How many bytes of a TSV a sieve writer reads at a time (cut after a line feed). */
export const sieveChunkBytes = 4 * 1024 * 1024

// Calls `f` with the text of `file` in pieces of whole lines (the last may lack its line feed).
// Returns false, having stopped, at a line longer than a piece: cut there, a word across the cut would be
// in no pair or run of the sieve, which would then say no wrongly (a writer writes no sieve then).
function forEachChunk(file: string, chunkBytes: number, f: (text: string) => void): boolean {
  const fd = fs.openSync(file, "r")
  try {
    // No bigger than the file and its end (a piece that holds it all never cuts a line), and not
    // zeroed: a new zeroed piece of 4 MB for each big folder was 3% of a plain worker's CPU (issue 20).
    const buf = Buffer.allocUnsafe(Math.min(chunkBytes, fs.fstatSync(fd).size + 1))
    let held = 0
    for (;;) {
      const end = held + fs.readSync(fd, buf, held, buf.length - held, null)
      if (end === held) {
        if (held > 0) f(buf.toString("utf8", 0, held))
        return true
      }
      // Up to the last line feed (a byte no UTF-8 sequence holds otherwise).
      const cut = buf.lastIndexOf(0x0a, end - 1) + 1
      if (cut === 0) {
        if (end === buf.length) return false
        held = end
        continue
      }
      f(buf.toString("utf8", 0, cut))
      buf.copy(buf, 0, cut, end)
      held = end - cut
    }
  } finally {
    fs.closeSync(fd)
  }
}

/**
 * Removes the sieve files of the folders with `fingerprints` from `sieveDir`
 * (the round, for the folders a flush made live): one listing, an unlink
 * only for those there (most folders are small and have none); never throws.
 */
export function removeFolderSieves(sieveDir: string, fingerprints: Iterable<string>): void {
  let present: Set<string>
  try {
    present = new Set(fs.readdirSync(sieveDir))
  } catch {
    return
  }
  for (const fingerprint of fingerprints) {
    const name = sieveFileName(fingerprint)
    if (!present.has(name)) continue
    try {
      fs.unlinkSync(path.join(sieveDir, name))
    } catch {
      // Gone meanwhile.
    }
  }
}

/** Removes every sieve file of `sieveDir` (the fresh tail is empty: a completed update); never throws. */
export function clearSieves(sieveDir: string): void {
  let names: Array<string>
  try {
    names = fs.readdirSync(sieveDir)
  } catch {
    return
  }
  for (const name of names) {
    try {
      fs.unlinkSync(path.join(sieveDir, name))
    } catch {
      // Gone meanwhile.
    }
  }
}
