/**
 * Older layouts (R6). A work folder made by a layout older than the previous
 * one carries a mark (`store/layout_legacy`, or the pre-release `index.db`)
 * and its index cannot be used: the run says so in the log. The previous
 * layout's search files (`system_index`) are removed; failing that is a
 * warning, never an error.
 *
 * @module
 */
import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import type { WorkPaths } from "./work_paths.ts"

/** Whether marks of a layout older than the previous one are present (R6). */
export const hasLegacyLayoutMarks = (paths: WorkPaths): Effect.Effect<boolean> =>
  Effect.sync(() =>
    fs.existsSync(path.join(paths.store, "layout_legacy")) || fs.existsSync(path.join(paths.root, "index.db"))
  )

/**
 * Removes the previous layout's search files `system_index` (R6). Returns the
 * reason as a warning when they exist but cannot be removed.
 */
export const removeOldSystemIndex = (paths: WorkPaths): Effect.Effect<string | undefined> =>
  Effect.sync(() => {
    const target = path.join(paths.root, "system_index")
    try {
      fs.rmSync(target, { recursive: true, force: true })
      return undefined
    } catch (e) {
      return `${target}: ${e instanceof Error ? e.message : String(e)}`
    }
  })
