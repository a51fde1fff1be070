/**
 * The body index (本文インデックス, `index/<index>/<relative path>/`): one
 * folder per source file holding its TSVs (SPEC §5), staged and swapped in
 * whole (C2).
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import type { PlatformError } from "@effect/platform/Error"
import { type BodyLine, type BodyPartHead, type Extraction, type Failure, bodyTsvFileName, formatBodyTsvHeader, formatBodyTsvLines, formatSourceStamp } from "@sagasu/domain"
import { Effect, type Scope } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { systemError } from "./_sync_fs.ts"
import { crashPoint } from "./crash_point.ts"
import { noteFresh } from "./gram/fresh.ts"
import type { GramIndexError } from "./gram/manifest.ts"
import type { WorkPaths } from "./work_paths.ts"

/** The body-index folder of a source file; `relPath` uses `/` separators. */
export function bodyFolderOf(paths: WorkPaths, index: string, relPath: string): string {
  return path.join(paths.index, index, ...relPath.split("/"))
}

/**
 * A staging folder filled one part at a time while its source file is read
 * (W1), so that a worker holds a bounded batch of lines, never a whole
 * workbook. Parts get `<n>_<name>.tsv` in the order they begin (n from 1);
 * each TSV is its header line followed by the lines appended, byte for byte
 * what {@link stageExtraction} writes for the same parts. The folder holds no
 * `.complete` mark: whoever fills it writes that last, so a folder left by a
 * failure or a killed worker is never published (C2, R7).
 */
export interface StagingFolder<E = PlatformError> {
  /** The staging folder's path. */
  readonly dir: string
  /** Ends the current part, if any, and starts the TSV of the next one with its header line. */
  readonly beginPart: (head: BodyPartHead) => Effect.Effect<void, E>
  /** Appends lines to the current part's TSV; succeeds with the UTF-8 bytes written. Dies before any {@link beginPart}. */
  readonly appendLines: (lines: ReadonlyArray<BodyLine>) => Effect.Effect<number, E>
  /**
   * Appends TSV text already formatted as body lines (`formatBodyTsvLines`'s
   * output for them: each line escaped and ending in `\n`) to the current
   * part's TSV; succeeds with the UTF-8 bytes written. For a reader that
   * formats its lines itself (issue 20). Dies before any {@link beginPart}.
   */
  readonly appendTsv: (tsv: string) => Effect.Effect<number, E>
  /** Cuts the current part's TSV back to its header line: the part is being read again from its start. */
  readonly restartPart: Effect.Effect<void, E>
  /** Ends (closes) the current part's TSV; nothing when no part is open. */
  readonly endPart: Effect.Effect<void>
  /** TSVs begun so far. */
  readonly tsvCount: () => number
  /** UTF-8 bytes in the folder's TSVs so far, header lines included. */
  readonly bytes: () => number
}

/**
 * Empties (or creates) the staging folder `dir` and opens it for writing
 * part by part (see {@link StagingFolder}). The TSV being written is closed
 * when the scope closes, however it ends; the folder itself stays for the
 * caller to complete or remove. Fails with the file system's error (disk
 * full, permissions): a fault of the work folder, see
 * {@link stagingWriteFailure}.
 *
 * Synchronous `node:fs` (STYLE 14): a worker thread's per-file path, which
 * does nothing else meanwhile. Through the platform's FileSystem (remove,
 * make the folder, open, write, close: each a trip to libuv's pool and a
 * fiber suspension) staging a small file cost more than reading it (issue 20:
 * 400 small generated xlsx/docx/pptx, 3.2 ms a file to extract, 5.7 ms more
 * to stage).
 */
export const openStagingFolder = (dir: string): Effect.Effect<StagingFolder, PlatformError, Scope.Scope> =>
  Effect.gen(function* () {
    yield* Effect.try({
      try: () => {
        // A new folder is the usual case: `mkdirSync` says so by naming what it made (`undefined`: it was there, a left-over).
        if (fs.mkdirSync(dir, { recursive: true }) !== undefined) return
        fs.rmSync(dir, { recursive: true, force: true })
        fs.mkdirSync(dir, { recursive: true })
      },
      catch: (e) => systemError("makeDirectory", dir, e)
    })
    let n = 0
    let total = 0
    let current: { readonly fd: number; readonly file: string; position: number; headerBytes: number; lineBytes: number } | undefined
    const closePart = () => {
      const part = current
      current = undefined
      if (part !== undefined) {
        try {
          fs.closeSync(part.fd)
        } catch {
          // Closing a file we wrote fails only when its descriptor is gone: nothing more to do.
        }
      }
    }
    const endPart = Effect.sync(closePart)
    yield* Effect.addFinalizer(() => endPart)
    // Every byte of `bytes` at the part's position (a regular file takes them whole; the loop is for the rule).
    const write = (part: NonNullable<typeof current>, bytes: Uint8Array) =>
      Effect.try({
        try: () => {
          let done = 0
          while (done < bytes.length) done += fs.writeSync(part.fd, bytes, done, bytes.length - done, part.position + done)
          part.position += bytes.length
        },
        catch: (e) => systemError("write", part.file, e)
      })
    const beginPart = (head: BodyPartHead) =>
      Effect.gen(function* () {
        closePart()
        n++
        const file = path.join(dir, bodyTsvFileName(n, head.name))
        const fd = yield* Effect.try({ try: () => fs.openSync(file, "w"), catch: (e) => systemError("open", file, e) })
        const part = { fd, file, position: 0, headerBytes: 0, lineBytes: 0 }
        current = part
        const header = Buffer.from(formatBodyTsvHeader(head), "utf8")
        yield* write(part, header)
        part.headerBytes = header.length
        total += header.length
      })
    const appendTsv = (tsv: string) =>
      Effect.suspend(() => {
        const part = current
        if (part === undefined) return Effect.dieMessage("StagingFolder.appendTsv: no part begun")
        if (tsv.length === 0) return Effect.succeed(0)
        const chunk = Buffer.from(tsv, "utf8")
        return write(part, chunk).pipe(
          Effect.map(() => {
            part.lineBytes += chunk.length
            total += chunk.length
            return chunk.length
          })
        )
      })
    const appendLines = (lines: ReadonlyArray<BodyLine>) => (lines.length === 0 ? Effect.succeed(0) : appendTsv(formatBodyTsvLines(lines)))
    const restartPart = Effect.suspend(() => {
      const part = current
      if (part === undefined) return Effect.dieMessage("StagingFolder.restartPart: no part begun")
      return Effect.try({
        try: () => {
          fs.ftruncateSync(part.fd, part.headerBytes)
          part.position = part.headerBytes
          total -= part.lineBytes
          part.lineBytes = 0
        },
        catch: (e) => systemError("truncate", part.file, e)
      })
    })
    return { dir, beginPart, appendLines, appendTsv, restartPart, endPart, tsvCount: () => n, bytes: () => total } satisfies StagingFolder
  })

/**
 * Writes the TSVs of an extraction held in memory into an empty staging
 * folder `dir` (created), one `<n>_<name>.tsv` per part in order, and
 * succeeds with the number of TSVs. The Office owners' path; a plain worker
 * streams through {@link openStagingFolder} instead. No `.complete` mark
 * (the caller writes it last, R7).
 */
export const stageExtraction = Effect.fn("Store.stageExtraction")(function* (dir: string, extraction: Extraction) {
  const folder = yield* openStagingFolder(dir)
  for (const part of extraction.parts) {
    yield* folder.beginPart(part)
    yield* folder.appendLines(part.lines)
  }
  yield* folder.endPart
  return folder.tsvCount()
}, Effect.scoped)

/**
 * The longest path, in bytes, this system takes (PATH_MAX less the NUL): 4095
 * on Linux, 1023 on macOS; Windows is given its long-path limit.
 */
export const maxPathBytes: number = process.platform === "linux" ? 4095 : process.platform === "darwin" ? 1023 : 32_766

/** The byte length of the longest of `folder` and `folder/<name>` for each of `names` (a body-index folder and its TSVs). */
export function longestPathBytes(folder: string, names: ReadonlyArray<string>): number {
  const base = Buffer.byteLength(folder)
  return Math.max(base, ...names.map((n) => base + 1 + Buffer.byteLength(n)))
}

/**
 * The failure a worker gives when a file's TSVs could not be written to its
 * staging folder (`error` the file system's words): a fault of the work
 * folder (disk full, permissions), not of the source file — the domain's
 * `work-folder` reason, so the run ends with an error and the file stays
 * pending (R18) instead of failing for good.
 */
export function stagingWriteFailure(error: string): Failure {
  return { reason: "work-folder", detail: `the TSVs could not be written to the work folder (${error})` }
}

/**
 * The text of the `.complete` mark of the staging folder of `source` (R7,
 * C2: written last): the source file's size and modified time as a
 * {@link formatSourceStamp} stamp (issue 14: the search shows them and
 * sorts by date without opening the source), read now; `""` when the source
 * cannot be stat'ed (the mark is still a mark).
 */
export const completeMarkOf = (source: string): Effect.Effect<string> =>
  // Synchronous `node:fs` (STYLE 14): once a file, on a worker's per-file path (see openStagingFolder).
  Effect.sync(() => {
    try {
      const info = fs.statSync(source)
      // Whole milliseconds as before, when the platform's stat gave Node's Date (which rounds mtimeMs).
      return formatSourceStamp({ size: info.size, mtimeMs: Math.round(info.mtimeMs) })
    } catch {
      return ""
    }
  })

/**
 * Writes the `.complete` mark `mark` into the staging folder `dir` (R7, C2: last, once its TSVs
 * are closed). Synchronous `node:fs`, as {@link openStagingFolder}; fails with the file system's error.
 */
export const writeCompleteMark = (dir: string, name: string, mark: string): Effect.Effect<void, PlatformError> =>
  Effect.try({ try: () => fs.writeFileSync(path.join(dir, name), mark), catch: (e) => systemError("writeFile", path.join(dir, name), e) })

/**
 * Moves a staged folder into the body index as a whole (C2). Sub-folders of
 * the previous folder (source files inside a source folder that shares the
 * file's name) are first moved into the staged folder, then the previous
 * folder is renamed aside to `<staged>.replaced` — inside the staging area,
 * never inside the body index, so a crash cannot leave a stray folder there —
 * and the staged folder renamed into place. A crash between the two renames
 * leaves no folder, and the journal's `start` without `published` makes the
 * next run publish the staged folder (R7).
 *
 * Sync `node:fs` (STYLE 14, a measured hot path: once per file of a run):
 * ≈ 0.9 ms of CPU a publish through the platform's FileSystem (four thread
 * pool round trips and their fibers), a few tens of µs this way.
 */
export const publishFolder = (staged: string, target: string): Effect.Effect<void, PlatformError> =>
  Effect.try({
    try: () => {
      fs.mkdirSync(path.dirname(target), { recursive: true })
      const aside = `${staged}.replaced`
      let previous: Array<fs.Dirent> | undefined
      try {
        previous = fs.readdirSync(target, { withFileTypes: true })
      } catch (e) {
        // No previous folder is the usual case (a new file); any other error is a failure (STYLE 14).
        if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e
      }
      if (previous !== undefined) {
        for (const entry of previous) {
          if (entry.isDirectory() && !fs.existsSync(path.join(staged, entry.name))) {
            fs.renameSync(path.join(target, entry.name), path.join(staged, entry.name))
          }
        }
        fs.rmSync(aside, { recursive: true, force: true })
        fs.renameSync(target, aside)
        crashPoint("publish.after-aside")
      }
      fs.renameSync(staged, target)
      if (previous !== undefined) fs.rmSync(aside, { recursive: true, force: true })
    },
    catch: (e) => systemError("publishFolder", target, e)
  })

/**
 * Removes the TSVs of a source file from the body index (its folder's files;
 * sub-folders of other source files stay), then empty parent folders up to
 * the index folder.
 */
export const removeBodyFolder = Effect.fn("Store.removeBodyFolder")(function* (
  paths: WorkPaths,
  index: string,
  relPath: string
) {
  const fs = yield* FileSystem.FileSystem
  const folder = bodyFolderOf(paths, index, relPath)
  if (!(yield* fs.exists(folder))) return
  for (const name of yield* fs.readDirectory(folder)) {
    const info = yield* fs.stat(path.join(folder, name))
    if (info.type !== "Directory") yield* fs.remove(path.join(folder, name))
  }
  const stop = path.join(paths.index, index)
  let dir = folder
  while (dir.startsWith(stop + path.sep)) {
    if ((yield* fs.readDirectory(dir)).length > 0) break
    yield* fs.remove(dir, { recursive: true })
    dir = path.dirname(dir)
  }
})

/**
 * Publishes the staged folder `staged` as the body-index folder of the
 * source file `index`/`relPath` ({@link publishFolder}, C2), after noting it
 * in the fresh log so that search finds it within seconds, whatever happens
 * next (S1). Fails with the platform's error, or a GramIndexError when the
 * note cannot be written (then nothing is published).
 */
export const publishSourceFolder = (
  paths: WorkPaths,
  index: string,
  relPath: string,
  staged: string
): Effect.Effect<void, PlatformError | GramIndexError> =>
  // Untraced: once per file of a run, and a span costs ≈ 20 µs (issue 20).
  Effect.zipRight(noteFresh(paths, [{ op: "+", index, path: relPath }]), publishFolder(staged, bodyFolderOf(paths, index, relPath)))
