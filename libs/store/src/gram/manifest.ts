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
 * gram/<seg>.offs               u32 per line: the byte offset of its row in its body-index TSV
 * gram/<seg>.del-<gen>.json     source files of the segment deleted since (doc numbers)
 * gram/fresh-<n>.log            the fresh log (fresh_log.ts): folders published or removed,
 *                               of which those from byte `freshFrom` on are in no segment yet
 * ```
 *
 * Format 2 keeps no copy of the text: a line is read from its row in the
 * body index (issue 20). Segment files are never changed once written; a
 * reader that read a manifest sees exactly the segments it names, and the
 * fresh log's tail tells it which source files to take from the body index
 * instead (S1). Files no manifest names are removed at the start of the next
 * update, or by a round some seconds after it stopped naming them.
 *
 * @module
 */
import { searchNormalizerId } from "@sagasu/domain"
import { Schema } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"

/** The layout of the files of this version; another value means "rebuild". */
export const gramFormat = 2

/**
 * A gram-index operation failed:
 * - `body-index-unreadable`: the body index (`index/`) could not be listed or a TSV read;
 * - `write-failed`: a segment, deletion or manifest file could not be written
 *   (disk full, permissions) — the previous manifest stays in force;
 * - `index-unreadable`: the manifest or a segment it names is missing or
 *   damaged — the next update rebuilds what it cannot read.
 */
export class GramIndexError extends Schema.TaggedError<GramIndexError>()("GramIndexError", {
  reason: Schema.Literal("body-index-unreadable", "write-failed", "index-unreadable"),
  path: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    const what = {
      "body-index-unreadable": "the body index cannot be read",
      "write-failed": "the search index cannot be written; the previous one stays in use",
      "index-unreadable": "the search index is damaged; the next indexing run rebuilds it"
    }[this.reason]
    return `${what} (${this.path})${this.detail === "" ? "" : `: ${this.detail}`}`
  }
}

/** One live segment as the manifest names it. */
export const SegmentEntry = Schema.Struct({
  /** File-name stem of the segment's files. */
  id: Schema.String,
  docs: Schema.Number,
  lines: Schema.Number,
  /** Bytes of the `.text` lines store. */
  textBytes: Schema.Number,
  /** The deletion file (`<id>.del-<gen>.json`), `""` when nothing is deleted. */
  deleted: Schema.String,
  deletedDocs: Schema.Number,
  deletedLines: Schema.Number
})
export type SegmentEntry = typeof SegmentEntry.Type

/**
 * The manifest: segments oldest first; `generation` grows by one per written
 * manifest; `fresh` names the fresh log (`""`: none yet) and `freshFrom` is
 * the byte offset in it from which its entries are in no segment (S1). A
 * manifest of another `format` decodes too, so that it reads as "rebuild".
 */
export const Manifest = Schema.Struct({
  format: Schema.Number,
  normalizer: Schema.String,
  generation: Schema.Number,
  segments: Schema.Array(SegmentEntry),
  fresh: Schema.optionalWith(Schema.String, { default: () => "" }),
  freshFrom: Schema.optionalWith(Schema.Number, { default: () => 0 })
})
export type Manifest = typeof Manifest.Type

/** The manifest of an index with no segments. */
export const emptyManifest: Manifest = { format: gramFormat, normalizer: searchNormalizerId, generation: 0, segments: [], fresh: "", freshFrom: 0 }

/** Path of the manifest inside `gramDir`. */
export const manifestPath = (gramDir: string) => path.join(gramDir, "manifest.json")

const decodeManifest = Schema.decodeUnknownEither(Schema.parseJson(Manifest))

/**
 * Reads the manifest of `gramDir`: `undefined` when there is none, a
 * {@link GramIndexError} (thrown) when it cannot be read or decoded. Sync:
 * called from inside Effect.try.
 */
export function readManifestSync(gramDir: string): Manifest | undefined {
  const file = manifestPath(gramDir)
  let text: string
  try {
    text = fs.readFileSync(file, "utf8")
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw new GramIndexError({ reason: "index-unreadable", path: file, detail: String(e) })
  }
  const decoded = decodeManifest(text)
  if (decoded._tag === "Left") throw new GramIndexError({ reason: "index-unreadable", path: file, detail: decoded.left.message })
  return decoded.right
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
