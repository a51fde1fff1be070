/**
 * The progress record (`store/progress.json`, P2, P3): a small JSON file
 * replaced atomically, so reading it costs the same at 10 and 1,000,000
 * files, and it survives the run.
 *
 * @module
 */
import { Progress } from "@sagasu/domain"
import { Effect, Option, Schema } from "effect"
import * as fs from "node:fs"
import { writeFileAtomic } from "./_atomic.ts"
import type { WorkPaths } from "./work_paths.ts"

const encode = Schema.encodeSync(Schema.parseJson(Progress))
const decode = Schema.decodeUnknownOption(Schema.parseJson(Progress))

/** Replaces the progress record (no fsync: losing the last progress in a power cut is harmless). */
export const writeProgress = Effect.fn("Store.writeProgress")(function* (paths: WorkPaths, progress: Progress) {
  yield* writeFileAtomic(paths.progress, encode(progress), { sync: false })
})

/** Reads the last progress, or `None` when no run has written one (or it is unreadable). */
export const readProgress = (paths: WorkPaths): Effect.Effect<Option.Option<Progress>> =>
  Effect.sync(() => {
    try {
      return decode(fs.readFileSync(paths.progress, "utf8"))
    } catch {
      return Option.none()
    }
  })
