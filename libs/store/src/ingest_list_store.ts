/**
 * The ingest list on disk (`store/ingest_list.tsv`, C1, R11, R15).
 *
 * @module
 */
import type { PlatformError } from "@effect/platform/Error"
import { type IngestRow, formatIngestList, formatIngestRow, ingestListHeader, parseIngestList } from "@sagasu/domain"
import { Effect, Option } from "effect"
import * as fs from "node:fs"
import { systemError } from "./_sync_fs.ts"
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
 * header when absent. Fails with the platform's `SystemError` (disk full,
 * permissions).
 *
 * Synchronous `node:fs` (STYLE 14): once per file of a run, as the journal's
 * append (journal_store.ts, measured there); through the platform's
 * FileSystem it was an `access` and an open/write/close, four thread-pool
 * round trips and their fibers (issue 20).
 */
export const appendIngestRows = (paths: WorkPaths, rows: ReadonlyArray<IngestRow>): Effect.Effect<void, PlatformError> =>
  Effect.try({
    try: () => {
      let text = ""
      for (const row of rows) text += formatIngestRow(row) + "\n"
      const fd = fs.openSync(paths.ingestList, "a") // sync: see above
      try {
        // A new list begins with its header; an old one's torn last line from a crash may lack its newline: start on a fresh line.
        text = (fs.fstatSync(fd).size === 0 ? ingestListHeader + "\n" : "\n") + text
        fs.writeFileSync(fd, text) // sync: see above
      } finally {
        fs.closeSync(fd)
      }
    },
    catch: (e) => systemError("writeFile", paths.ingestList, e)
  })

/** Rewrites the ingest list to exactly `rows`, one line per file (R15), atomically. */
export const rewriteIngestList = Effect.fn("Store.rewriteIngestList")(function* (
  paths: WorkPaths,
  rows: ReadonlyArray<IngestRow>
) {
  yield* writeFileAtomic(paths.ingestList, formatIngestList(rows))
})
