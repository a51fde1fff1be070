/**
 * The progress record (`store/progress.json`, P2, P3): a small JSON file
 * replaced atomically, so reading it costs the same at 10 and 1,000,000
 * files, and it survives the run.
 *
 * @module
 */
import type { FileSystem } from "@effect/platform"
import { Progress } from "@sagasu/domain"
import { Effect, Option, Schema } from "effect"
import { writeFileAtomic } from "./_atomic.ts"
import { type StoreReadError, readTextIfExists } from "./read_error.ts"
import type { WorkPaths } from "./work_paths.ts"

const encode = Schema.encodeSync(Schema.parseJson(Progress))
const decode = Schema.decodeUnknownOption(Schema.parseJson(Progress))

/** Replaces the progress record (no fsync: losing the last progress in a power cut is harmless). */
export const writeProgress = Effect.fn("Store.writeProgress")(function* (paths: WorkPaths, progress: Progress) {
  yield* writeFileAtomic(paths.progress, encode(progress), { sync: false })
})

/**
 * Reads the last progress, or `None` when no run has written one (or what is
 * there is not a progress record: it is replaced whole, so only a foreign
 * file reads so). A file that cannot be read fails with {@link StoreReadError}.
 */
export const readProgress = (paths: WorkPaths): Effect.Effect<Option.Option<Progress>, StoreReadError, FileSystem.FileSystem> =>
  Effect.map(readTextIfExists(paths.progress), Option.flatMap(decode))
