/**
 * Removals in progress (`store/pending_remove.tsv`, R14): the body-index
 * folders about to be removed are written down before and the record cleared
 * after, so a crash between the two is finished by the next run.
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { formatTsvLine } from "@sagasu/domain"
import { Effect } from "effect"
import { writeFileAtomic } from "./_atomic.ts"
import { removeBodyFolder } from "./body_index.ts"
import { noteFresh } from "./gram/fresh.ts"
import { type StoreReadError, readTsvRecords } from "./read_error.ts"
import type { WorkPaths } from "./work_paths.ts"

/** A source file whose body-index folder is to be removed. */
export interface Removal {
  readonly index: string
  readonly path: string
}

/** Reads the removals a crashed run left (empty when there is no record; {@link StoreReadError} when it cannot be read). */
export const readPendingRemove = (paths: WorkPaths): Effect.Effect<Array<Removal>, StoreReadError, FileSystem.FileSystem> =>
  readTsvRecords(paths.pendingRemove, ([index, path]) => (index === undefined || path === undefined ? [] : [{ index, path }]))

/**
 * Removes the body-index folders of `removals`, recording them in
 * `pending_remove.tsv` first and clearing the record after (R14), and
 * noting them in the fresh log before (S1: a search stops showing them at
 * once, whether or not the 2-gram index is brought in line yet).
 */
export const removeBodyFolders = Effect.fn("Store.removeBodyFolders")(function* (
  paths: WorkPaths,
  removals: ReadonlyArray<Removal>
) {
  if (removals.length === 0) return
  yield* noteFresh(paths, removals.map((r) => ({ op: "-" as const, index: r.index, path: r.path })))
  yield* writeFileAtomic(paths.pendingRemove, removals.map((r) => formatTsvLine([r.index, r.path]) + "\n").join(""))
  for (const r of removals) yield* removeBodyFolder(paths, r.index, r.path)
  const fs = yield* FileSystem.FileSystem
  yield* fs.remove(paths.pendingRemove, { force: true })
})
