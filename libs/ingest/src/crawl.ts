/**
 * The crawl (SPEC §5 "Crawl", R8): every Office file under a target folder,
 * with its size, mtime and cloud-only flag, and every skip with its reason.
 *
 * @module
 */
import { type CrawlSkipReason, type CrawledFile, fileFormatOf, inBothLanguages } from "@sagasu/domain"
import { Effect, Schema } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { type CloudOnlyRule, platformCloudOnlyRule } from "./cloud_only.ts"

export type { CrawlSkipReason }

/** An entry the crawl passed over, `path` relative to the target folder. */
export interface CrawlSkip {
  readonly path: string
  readonly reason: CrawlSkipReason
  readonly detail: string
}

/** The crawl of one target folder. */
export interface CrawlResult {
  readonly files: ReadonlyArray<CrawledFile>
  readonly skipped: ReadonlyArray<CrawlSkip>
}

/** The target folder itself cannot be read (missing, not a folder, no permission). */
export class CrawlError extends Schema.TaggedError<CrawlError>()("CrawlError", {
  index: Schema.String,
  path: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    return inBothLanguages((text) => text.folderUnreadable(this.index, this.path, this.detail))
  }
}

/** Options of {@link crawlFolder}. */
export interface CrawlFolderOptions {
  readonly cloudOnly?: CloudOnlyRule
  /** Milliseconds of listing after which the crawl lets the event loop run, before its next folder (default 8). */
  readonly sliceMs?: number
}

/** The skip reason of a name by itself, or `undefined` when the name is fine. */
export function skipReasonOfName(name: string): CrawlSkipReason | undefined {
  if (name.startsWith("~$") || /^\.~lock\..*#$/.test(name)) return "owner-file"
  if (name.startsWith(".")) return "hidden"
  if (/\.tmp$/i.test(name)) return "temporary"
  return undefined
}

/**
 * Crawls the target folder `root` of index `index` recursively. Files are
 * Office files by extension (others are ignored without a record); entries
 * are never opened, only listed and `lstat`-ed, so a FIFO cannot block and a
 * cloud placeholder is not downloaded. Symbolic links are followed only while
 * they stay inside `root`, and each real folder is visited once.
 * Fails with {@link CrawlError} only when `root` itself cannot be read.
 */
export const crawlFolder = Effect.fn("Ingest.crawlFolder")(function* (
  index: string,
  root: string,
  options: CrawlFolderOptions = {}
) {
  const cloudOnly = options.cloudOnly ?? platformCloudOnlyRule
  const realRoot = yield* Effect.tryPromise({
    try: async () => {
      const real = await fs.promises.realpath(root)
      if (!(await fs.promises.stat(real)).isDirectory()) throw new Error("not a folder")
      return real
    },
    catch: (e) => new CrawlError({ index, path: root, detail: e instanceof Error ? e.message : String(e) })
  })
  return yield* Effect.promise(() => walk(index, realRoot, cloudOnly, options.sliceMs ?? defaultSliceMs))
})

const strictUtf8 = new TextDecoder("utf-8", { fatal: true })

// The name as a string, or undefined when its bytes are not UTF-8.
function utf8Name(bytes: Buffer): string | undefined {
  try {
    return strictUtf8.decode(bytes)
  } catch {
    return undefined
  }
}

// What the log says of a name that is not UTF-8: its bytes, the undecodable ones in hex.
function invalidNameDetail(bytes: Buffer): string {
  let shown = ""
  for (let i = 0; i < bytes.length; ) {
    let end = Math.min(bytes.length, i + 4)
    let ok: string | undefined
    for (; end > i; end--) {
      ok = utf8Name(bytes.subarray(i, end))
      if (ok !== undefined) break
    }
    if (ok !== undefined && end > i) {
      shown += ok
      i = end
    } else {
      shown += `<${bytes[i]?.toString(16).padStart(2, "0")}>`
      i++
    }
  }
  return `the name is not valid UTF-8 (${shown}); it cannot be opened by name here: rename it, ` +
    "or mount the share with its names in UTF-8 (e.g. iocharset=utf8)"
}

// An entry of a folder: its name (undefined when its bytes are not UTF-8), the name as shown (bad
// bytes as U+FFFD), and its bytes when the folder was listed as bytes.
interface Listed {
  readonly entry: fs.Dirent<string> | fs.Dirent<Buffer>
  readonly name: string | undefined
  readonly shown: string
  readonly bytes?: Buffer
}

// The entries of `dir`, listed as strings; a folder where a name shows U+FFFD is listed again as
// bytes, to tell a name that is not UTF-8 from one that holds U+FFFD itself (a Buffer per name
// cost a quarter of the listing: 350 → 264 ms over the drive tree's 18,082 folders).
function listFolder(dir: string): Array<Listed> {
  const listed = fs.readdirSync(dir, { withFileTypes: true })
  if (!listed.some((entry) => entry.name.includes("\ufffd"))) return listed.map((entry) => ({ entry, name: entry.name, shown: entry.name }))
  return fs.readdirSync(dir, { withFileTypes: true, encoding: "buffer" }).map((entry) => ({
    entry, name: utf8Name(entry.name), shown: entry.name.toString("utf8"), bytes: entry.name
  }))
}

// How long the crawl lists folders before it lets the event loop run (the GUI server crawls on its
// main thread: progress and search requests wait at most this long, plus one folder's listing).
const defaultSliceMs = 8

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

async function walk(index: string, realRoot: string, cloudOnly: CloudOnlyRule, sliceMs: number): Promise<CrawlResult> {
  const files: Array<CrawledFile> = []
  const skipped: Array<CrawlSkip> = []
  const visited = new Set<string>([realRoot])
  const skip = (rel: string, reason: CrawlSkipReason, detail = "") => skipped.push({ path: rel, reason, detail })
  let sliceStart = performance.now()

  // Depth-first, entries sorted by name so the target order is stable. A name that is not UTF-8 is
  // seen as such (listFolder: a string listing replaces its bytes with U+FFFD).
  // Listing and stat are sync, a folder at a time, in slices of `sliceMs` (issue 20): the promise
  // calls made one thread-pool round trip per entry, and a no-change re-run of 20,000 files sat
  // idle 4 of its 7.5 s waiting for them. `dir` is always a real path (the root's, or a link's
  // target), so a folder that is not a link is at the real path `dir/name` without a realpath call.
  const visit = async (dir: string, relDir: string): Promise<void> => {
    if (performance.now() - sliceStart >= sliceMs) {
      await yieldToEventLoop()
      sliceStart = performance.now()
    }
    let entries: Array<Listed>
    try {
      entries = listFolder(dir)
    } catch (e) {
      skip(relDir, "unreadable", e instanceof Error ? e.message : String(e))
      return
    }
    entries.sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0))
    for (const { entry, name: decoded, shown, bytes } of entries) {
      if (decoded === undefined) {
        if (fileFormatOf(shown) !== undefined || entry.isDirectory()) {
          skip(relDir === "" ? shown : `${relDir}/${shown}`, "invalid-name", invalidNameDetail(bytes ?? Buffer.from(shown)))
        }
        continue
      }
      const name = decoded
      const rel = relDir === "" ? name : `${relDir}/${name}`
      const full = path.join(dir, name)
      const byName = skipReasonOfName(name)
      if (byName !== undefined) {
        if (byName !== "hidden" || fileFormatOf(name) !== undefined || entry.isDirectory()) skip(rel, byName)
        continue
      }
      let isDir = entry.isDirectory()
      let isFile = entry.isFile()
      // The folder's real path (where it is listed from).
      let real = full
      if (entry.isSymbolicLink()) {
        try {
          real = fs.realpathSync.native(full)
        } catch (e) {
          skip(rel, "unreadable", e instanceof Error ? e.message : String(e))
          continue
        }
        if (real !== realRoot && !real.startsWith(realRoot + path.sep)) {
          skip(rel, "link-outside", real)
          continue
        }
        let target: fs.Stats | undefined
        try {
          target = fs.statSync(real)
        } catch {
          target = undefined // a dangling link: neither a folder nor a file
        }
        isDir = target?.isDirectory() ?? false
        isFile = target?.isFile() ?? false
      }
      if (isDir) {
        if (visited.has(real)) {
          skip(rel, "loop", real)
          continue
        }
        visited.add(real)
        await visit(real, rel)
        continue
      }
      if (fileFormatOf(name) === undefined) continue
      if (!isFile) {
        skip(rel, "not-a-file")
        continue
      }
      try {
        const stats = fs.statSync(full)
        files.push({ index, path: rel, size: stats.size, mtimeMs: stats.mtimeMs, cloudOnly: cloudOnly(stats, name) })
      } catch (e) {
        skip(rel, "unreadable", e instanceof Error ? e.message : String(e))
      }
    }
  }
  await visit(realRoot, "")
  return { files, skipped }
}
