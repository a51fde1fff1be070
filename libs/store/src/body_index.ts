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
 * Moves a staged folder into the body index as a whole (C2): the previous
 * folder is renamed aside, the staged one renamed into place, the old one
 * removed. Sub-folders of the previous folder (source files inside a source
 * folder that shares the name) are carried over.
 */
export const publishFolder = Effect.fn("Store.publishFolder")(function* (staged: string, target: string) {
  const fs = yield* FileSystem.FileSystem
  yield* fs.makeDirectory(path.dirname(target), { recursive: true })
  const aside = `${target}.old-${process.pid}`
  const hadPrevious = yield* fs.exists(target)
  if (hadPrevious) {
    yield* fs.remove(aside, { recursive: true, force: true })
    yield* fs.rename(target, aside)
  }
  yield* fs.rename(staged, target)
  if (hadPrevious) {
    for (const name of yield* fs.readDirectory(aside)) {
      const info = yield* fs.stat(path.join(aside, name))
      if (info.type === "Directory") yield* fs.rename(path.join(aside, name), path.join(target, name))
    }
    yield* fs.remove(aside, { recursive: true })
  }
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
