/**
 * The record of each index's source folder (`store/origins.tsv`, R11): the
 * configured path, its real path and the folder's device and inode, so a later
 * run can tell a moved folder from a new one (BUG-23: the same share reached
 * through another path form).
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { formatTsvLine } from "@sagasu/domain"
import { Effect, Option } from "effect"
import { writeFileAtomic } from "./_atomic.ts"
import { type StoreReadError, readTsvRecords } from "./read_error.ts"
import type { WorkPaths } from "./work_paths.ts"

/** One index's source folder as last seen. */
export interface Origin {
  readonly index: string
  readonly path: string
  readonly realPath: string
  /** `<dev>:<ino>` of the folder, or empty when unknown. */
  readonly identity: string
}

/** Reads the origin records (empty when there is no file; {@link StoreReadError} when it cannot be read). */
export const readOrigins = (paths: WorkPaths): Effect.Effect<Array<Origin>, StoreReadError, FileSystem.FileSystem> =>
  readTsvRecords(paths.origins, ([index, path, realPath = "", identity = ""]) =>
    index === undefined || path === undefined ? [] : [{ index, path, realPath, identity }]
  )

/** Describes the folder of an index as it is now (real path, device and inode). */
export const describeOrigin = (index: string, folder: string): Effect.Effect<Origin, never, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const realPath = yield* fs.realPath(folder)
    const st = yield* fs.stat(realPath)
    return { index, path: folder, realPath, identity: `${st.dev}:${Option.getOrElse(st.ino, () => 0)}` }
  }).pipe(Effect.orElseSucceed(() => ({ index, path: folder, realPath: "", identity: "" })))

/** Replaces the records of the given indexes, keeping the others (R11). */
export const writeOrigins = Effect.fn("Store.writeOrigins")(function* (paths: WorkPaths, origins: ReadonlyArray<Origin>) {
  const replaced = new Set(origins.map((o) => o.index))
  const kept = (yield* readOrigins(paths)).filter((o) => !replaced.has(o.index))
  yield* writeAll(paths, [...kept, ...origins])
})

/** Rewrites every record through `f` (an index renamed or removed: its record follows it, issue 16). */
export const replaceOrigins = Effect.fn("Store.replaceOrigins")(function* (
  paths: WorkPaths,
  f: (origin: Origin) => ReadonlyArray<Origin>
) {
  yield* writeAll(paths, (yield* readOrigins(paths)).flatMap(f))
})

const writeAll = (paths: WorkPaths, origins: ReadonlyArray<Origin>) =>
  writeFileAtomic(paths.origins, origins.map((o) => formatTsvLine([o.index, o.path, o.realPath, o.identity]) + "\n").join(""))
