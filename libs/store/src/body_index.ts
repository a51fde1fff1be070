/**
 * The body index (本文インデックス, `index/<index>/<relative path>/`): one
 * folder per source file holding its TSVs (SPEC §5), staged and swapped in
 * whole (C2).
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { type Extraction, bodyTsvFileName, formatBodyTsv } from "@sagasu/domain"
import { Effect } from "effect"
import * as path from "node:path"
import { crashPoint } from "./crash_point.ts"
import type { WorkPaths } from "./work_folder.ts"

/** The body-index folder of a source file; `relPath` uses `/` separators. */
export function bodyFolderOf(paths: WorkPaths, index: string, relPath: string): string {
  return path.join(paths.index, index, ...relPath.split("/"))
}

/**
 * Writes the TSVs of an extraction into an empty staging folder `dir`
 * (created), one `<n>_<name>.tsv` per part in order.
 */
export const stageExtraction = Effect.fn("Store.stageExtraction")(function* (dir: string, extraction: Extraction) {
  const fs = yield* FileSystem.FileSystem
  yield* fs.remove(dir, { recursive: true, force: true })
  yield* fs.makeDirectory(dir, { recursive: true })
  let n = 0
  for (const part of extraction.parts) {
    n++
    yield* fs.writeFileString(path.join(dir, bodyTsvFileName(n, part.name)), formatBodyTsv(part))
  }
  return n
})

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
 * The start of the reason a worker gives when a file's TSVs could not be
 * written to its staging folder: a fault of the work folder (disk full,
 * permissions), not of the source file, so the run ends with an error and the
 * file stays pending (R18) instead of failing for good.
 */
export const stagingWriteFailedReason = "unreadable: the TSVs could not be written to the work folder"

/** Whether a failed result's `reason` is a {@link stagingWriteFailedReason}. */
export function isStagingWriteFailure(reason: string): boolean {
  return reason.startsWith(stagingWriteFailedReason)
}

/**
 * Moves a staged folder into the body index as a whole (C2). Sub-folders of
 * the previous folder (source files inside a source folder that shares the
 * file's name) are first moved into the staged folder, then the previous
 * folder is renamed aside to `<staged>.replaced` — inside the staging area,
 * never inside the body index, so a crash cannot leave a stray folder there —
 * and the staged folder renamed into place. A crash between the two renames
 * leaves no folder, and the journal's `start` without `published` makes the
 * next run publish the staged folder (R7).
 */
export const publishFolder = Effect.fn("Store.publishFolder")(function* (staged: string, target: string) {
  const fs = yield* FileSystem.FileSystem
  yield* fs.makeDirectory(path.dirname(target), { recursive: true })
  const aside = `${staged}.replaced`
  if (yield* fs.exists(target)) {
    for (const name of yield* fs.readDirectory(target)) {
      const info = yield* fs.stat(path.join(target, name))
      if (info.type === "Directory" && !(yield* fs.exists(path.join(staged, name)))) {
        yield* fs.rename(path.join(target, name), path.join(staged, name))
      }
    }
    yield* fs.remove(aside, { recursive: true, force: true })
    yield* fs.rename(target, aside)
    crashPoint("publish.after-aside")
  }
  yield* fs.rename(staged, target)
  yield* fs.remove(aside, { recursive: true, force: true })
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
