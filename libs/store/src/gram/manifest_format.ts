/**
 * The gram index's manifest and error (ARCHITECTURE.md "2-gram index":
 * immutable segments + deletions; a manifest file names the live segments
 * and the fresh log, and is replaced atomically).
 *
 * ```
 * gram/manifest.json            { format, normalizer, generation, segments: [oldest … newest], fresh, freshFrom }
 * gram/<seg>.docs               the segment's source files (doc_table.ts: fingerprint, parts, first line)
 * gram/<seg>.dict               sorted 2-gram keys: 20-byte entries (key f64, offset f64, df u32)
 * gram/<seg>.dix                every 128th key of .dict (read whole when the segment opens)
 * gram/<seg>.post               posting lists: varint deltas of line ids
 * gram/<seg>.offs               per line, the byte offset of its row in its body-index TSV: pages of
 *                               1,024 varint differences (format.ts OffsetsWriter), or in segments
 *                               written before it a u32 a line (both read)
 * gram/<seg>.del-<gen>.json     source files of the segment deleted since (doc numbers)
 * gram/fresh-<n>.log            the fresh log (fresh_log.ts): folders published or removed,
 *                               of which those from byte `freshFrom` on are in no segment yet
 * ```
 *
 * Format 2 keeps no copy of the text: a line is read from its row in the
 * body index (issue 20). Format 3 (issue 14) adds to the doc table each
 * source file's sheet names, its size and modified time and whether it is a
 * piece of a bigger file, and tokenises each row's search-only forms. Segment files are never changed once written; a
 * reader that read a manifest sees exactly the segments it names, and the
 * fresh log's tail tells it which source files to take from the body index
 * instead (S1). Files no manifest names are removed at the start of the next
 * update, or by a round some seconds after it stopped naming them.
 *
 * Sync `node:fs` here (STYLE 14): the cold search reads the manifest and must
 * stay Effect-free (loading Effect's Schema alone cost a cold start ≈ 0.1 s
 * of CPU, more than the search: ARCHITECTURE.md); the writers share the same
 * durable write.
 *
 * @module
 */
import { searchNormalizerId } from "@sagasu/domain"
import * as fs from "node:fs"
import * as path from "node:path"

/** The layout of the files of this version; another value means "rebuild". */
export const gramFormat = 3

/** One live segment as the manifest names it (manifest.ts holds its Schema). */
export interface SegmentEntry {
  /** File-name stem of the segment's files. */
  readonly id: string
  readonly docs: number
  readonly lines: number
  /** Bytes of the body-index rows the segment covers. */
  readonly textBytes: number
  /** The deletion file (`<id>.del-<gen>.json`), `""` when nothing is deleted. */
  readonly deleted: string
  readonly deletedDocs: number
  readonly deletedLines: number
}

/**
 * The manifest (manifest.ts holds its Schema): segments oldest first;
 * `generation` grows by one per written manifest; `fresh` names the fresh
 * log (`""`: none yet) and `freshFrom` is the byte offset in it from which
 * its entries are in no segment (S1). A manifest of another `format` decodes
 * too, so that it reads as "rebuild".
 */
export interface Manifest {
  readonly format: number
  readonly normalizer: string
  readonly generation: number
  readonly segments: ReadonlyArray<SegmentEntry>
  readonly fresh: string
  readonly freshFrom: number
}

/**
 * A gram file could not be read or is not what its format says: `path`
 * names it, `detail` says what is wrong. The store's effects turn it into a
 * GramIndexError (`index-unreadable`).
 */
export class GramFileError extends Error {
  readonly path: string
  readonly detail: string
  constructor(file: string, detail: string) {
    super(`${file}: ${detail}`)
    this.path = file
    this.detail = detail
  }
}

/** The manifest of an index with no segments. */
export const emptyManifest: Manifest = { format: gramFormat, normalizer: searchNormalizerId, generation: 0, segments: [], fresh: "", freshFrom: 0 }

/** Path of the manifest inside `gramDir`. */
export const manifestPath = (gramDir: string) => path.join(gramDir, "manifest.json")

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

/**
 * Decodes a manifest's JSON text, checking the shape the `Manifest` Schema
 * of manifest.ts declares (a test holds the two to the same answers). Own
 * code on the read path of every search: loading Effect's Schema costs a
 * cold `sagasu search` more than the search itself (ARCHITECTURE.md).
 * Throws a message saying what is wrong.
 */
export function parseManifest(text: string): Manifest {
  const v: unknown = JSON.parse(text)
  if (!isObject(v)) throw new Error("the manifest is not an object")
  const num = (o: Record<string, unknown>, k: string, at: string) => {
    if (typeof o[k] !== "number") throw new Error(`${at}${k} is not a number`)
    return o[k]
  }
  const str = (o: Record<string, unknown>, k: string, at: string) => {
    if (typeof o[k] !== "string") throw new Error(`${at}${k} is not a string`)
    return o[k]
  }
  if (!Array.isArray(v.segments)) throw new Error("segments is not an array")
  const segments = v.segments.map((s: unknown, i): SegmentEntry => {
    const at = `segments[${i}].`
    if (!isObject(s)) throw new Error(`segments[${i}] is not an object`)
    return {
      id: str(s, "id", at), docs: num(s, "docs", at), lines: num(s, "lines", at), textBytes: num(s, "textBytes", at),
      deleted: str(s, "deleted", at), deletedDocs: num(s, "deletedDocs", at), deletedLines: num(s, "deletedLines", at)
    }
  })
  return {
    format: num(v, "format", ""),
    normalizer: str(v, "normalizer", ""),
    generation: num(v, "generation", ""),
    segments,
    fresh: v.fresh === undefined ? "" : str(v, "fresh", ""),
    freshFrom: v.freshFrom === undefined ? 0 : num(v, "freshFrom", "")
  }
}

/**
 * Reads the manifest of `gramDir`: `undefined` when there is none, a
 * {@link GramFileError} (thrown) when it cannot be read or decoded.
 */
export function readManifestSync(gramDir: string): Manifest | undefined {
  const file = manifestPath(gramDir)
  let text: string
  try {
    text = fs.readFileSync(file, "utf8")
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw new GramFileError(file, String(e))
  }
  try {
    return parseManifest(text)
  } catch (e) {
    throw new GramFileError(file, e instanceof Error ? e.message : String(e))
  }
}

/** Whether a manifest was written by this format and normaliser (else the index is rebuilt). */
export function isCurrentManifest(m: Manifest): boolean {
  return m.format === gramFormat && m.normalizer === searchNormalizerId
}

/** The files of a segment, by extension (format 2: no lines store; the body index holds the text). */
export const segmentExtensions: ReadonlyArray<string> = [".docs", ".dict", ".dix", ".post", ".offs"]

/** The files a manifest names besides its segments' (names inside the gram folder). */
export function filesOfManifest(m: Manifest): Array<string> {
  return m.fresh === "" ? [] : [m.fresh]
}

/** The files a segment entry consists of (names inside the gram folder). */
export function filesOfSegment(entry: SegmentEntry): Array<string> {
  const files = segmentExtensions.map((ext) => entry.id + ext)
  if (entry.deleted !== "") files.push(entry.deleted)
  return files
}

/**
 * Writes a file and flushes it to disk before returning (segment files must
 * be durable before a manifest names them). Sync; throws on failure.
 */
export function writeFileDurableSync(file: string, chunks: ReadonlyArray<Uint8Array> | string): void {
  const fd = fs.openSync(file, "w")
  try {
    if (typeof chunks === "string") fs.writeSync(fd, chunks)
    else for (const c of chunks) writeAllSync(fd, c)
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}

/** Writes every byte of `data` at the fd's current position. */
export function writeAllSync(fd: number, data: Uint8Array): void {
  let done = 0
  while (done < data.length) done += fs.writeSync(fd, data, done, data.length - done)
}

/**
 * Replaces the manifest atomically (temp file, fsync, rename, fsync of the
 * folder where the platform allows): readers see the old or the new one.
 */
export function writeManifestSync(gramDir: string, manifest: Manifest): void {
  const file = manifestPath(gramDir)
  const temp = `${file}.tmp-${process.pid}`
  writeFileDurableSync(temp, JSON.stringify(manifest, null, 1) + "\n")
  fs.renameSync(temp, file)
  try {
    const dirFd = fs.openSync(gramDir, "r")
    try {
      fs.fsyncSync(dirFd)
    } finally {
      fs.closeSync(dirFd)
    }
  } catch {
    // Windows cannot open a folder for fsync; the rename is still atomic.
  }
}
