/**
 * The progress record (`store/progress.json`, P2, P3): a small JSON file
 * replaced atomically, so reading it costs the same at 10 and 1,000,000
 * files, and it survives the run.
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { Progress } from "@sagasu/domain"
import { Effect, Option, Schema } from "effect"
import { writeFileAtomicSync } from "./_atomic.ts"
import { type StoreReadError, readTextIfExists } from "./read_error.ts"
import type { WorkPaths } from "./work_paths.ts"

const encode = Schema.encodeSync(Schema.parseJson(Progress))
const decode = Schema.decodeUnknownOption(Schema.parseJson(Progress))

/**
 * Replaces the progress record (no fsync: losing the last progress in a power cut is harmless).
 * Synchronous `node:fs` (STYLE 14): P2 writes it twice a file, on the commander's per-file path;
 * through the platform's FileSystem (open, write, close, rename, each a fiber suspension and a
 * span) the writes were a quarter of the commander's CPU on 2,000 small files (issue 20). Fails
 * with the system's error.
 */
export const writeProgress = (paths: WorkPaths, progress: Progress): Effect.Effect<void, unknown> =>
  Effect.try({ try: () => writeFileAtomicSync(paths.progress, encode(progress)), catch: (e) => e })

/**
 * Reads the last progress, or `None` when no run has written one (or what is
 * there is not a progress record: it is replaced whole, so only a foreign
 * file reads so). A file that cannot be read fails with {@link StoreReadError}.
 */
export const readProgress = (paths: WorkPaths): Effect.Effect<Option.Option<Progress>, StoreReadError, FileSystem.FileSystem> =>
  Effect.map(readTextIfExists(paths.progress), Option.flatMap(decode))

/**
 * When the progress record was last written (ms since the epoch), or `None`
 * when there is none or it cannot be read: for a run that ended, when it
 * ended (its last write is the `ended` step, P2); for one killed, about
 * when it stopped. Never fails (`status` shows it only when known).
 */
export const progressWrittenAt = (paths: WorkPaths): Effect.Effect<Option.Option<number>, never, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.stat(paths.progress)).pipe(
    Effect.map((info) => Option.map(info.mtime, (d) => d.getTime())),
    Effect.orElseSucceed(() => Option.none<number>())
  )
