/**
 * The ingest list on disk (`store/ingest_list.tsv`, C1, R11, R15).
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { type IngestRow, formatIngestList, formatIngestRow, ingestListHeader, parseIngestList } from "@sagasu/domain"
import { Effect, Option } from "effect"
import { writeFileAtomic } from "./_atomic.ts"
import { readTextIfExists } from "./read_error.ts"
import type { WorkPaths } from "./work_paths.ts"

/**
 * Reads the ingest list: the latest row per file; an absent file is an empty
 * list; any other read error fails with {@link StoreReadError} (R18).
 */
export const readIngestList = Effect.fn("Store.readIngestList")(function* (paths: WorkPaths) {
  return parseIngestList(Option.getOrElse(yield* readTextIfExists(paths.ingestList), () => ""))
})

/**
 * Appends rows with a single write each call (C1: a finished result is never
 * lost; a torn last line is ignored by the reader). Creates the file with its
 * header when absent.
 */
export const appendIngestRows = Effect.fn("Store.appendIngestRows")(function* (
  paths: WorkPaths,
  rows: ReadonlyArray<IngestRow>
) {
  const fs = yield* FileSystem.FileSystem
  const exists = yield* fs.exists(paths.ingestList)
  let text = exists ? "" : ingestListHeader + "\n"
  for (const row of rows) text += formatIngestRow(row) + "\n"
  // A torn line from a crash may lack its newline: start on a fresh line.
  if (exists) text = "\n" + text
  yield* fs.writeFileString(paths.ingestList, text, { flag: "a" })
})

/** Rewrites the ingest list to exactly `rows`, one line per file (R15), atomically. */
export const rewriteIngestList = Effect.fn("Store.rewriteIngestList")(function* (
  paths: WorkPaths,
  rows: ReadonlyArray<IngestRow>
) {
  yield* writeFileAtomic(paths.ingestList, formatIngestList(rows))
})
