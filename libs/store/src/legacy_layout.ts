/**
 * Older layouts (R6). A work folder made by a layout older than the previous
 * one carries a mark (`store/layout_legacy`, or the pre-release `index.db`)
 * and its index cannot be used: the run says so in the log. The previous
 * layout's search files (`system_index`) are removed; failing that is a
 * warning, never an error.
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { Effect } from "effect"
import * as path from "node:path"
import type { WorkPaths } from "./work_paths.ts"

/** Whether marks of a layout older than the previous one are present (R6). */
export const hasLegacyLayoutMarks = (paths: WorkPaths): Effect.Effect<boolean, never, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const exists = (p: string) => fs.exists(p).pipe(Effect.orElseSucceed(() => false))
    return (yield* exists(path.join(paths.store, "layout_legacy"))) || (yield* exists(path.join(paths.root, "index.db")))
  })

/**
 * Removes the previous layout's search files `system_index` (R6). Returns the
 * reason as a warning when they exist but cannot be removed.
 */
export const removeOldSystemIndex = (paths: WorkPaths): Effect.Effect<string | undefined, never, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const target = path.join(paths.root, "system_index")
    return yield* fs.remove(target, { recursive: true, force: true }).pipe(
      Effect.as(undefined),
      Effect.catchAll((e) => Effect.succeed(`${target}: ${e.message}`))
    )
  })
