/**
 * The journal (`store/journal/ingest.tsv`, SPEC C1, R7): an append-only record
 * of `start` (始, a file handed to a worker, staged under `staging`),
 * `published` (出, its folder swapped into the body index) and `end` (終, the
 * finally step finished).
 *
 * @module
 */
import { Either, Schema } from "effect"
import { formatTsvLine, parseTsvLine } from "./tsv.ts"

/** A file handed to a worker; its TSVs will be staged in `staging` (relative to the work folder). */
export const JournalStart = Schema.TaggedStruct("start", {
  index: Schema.String,
  path: Schema.String,
  staging: Schema.String
})
/** A file's folder was swapped into the body index. */
export const JournalPublished = Schema.TaggedStruct("published", {
  index: Schema.String,
  path: Schema.String
})
/** The run's finally step completed. */
export const JournalEnd = Schema.TaggedStruct("end", {})

export const JournalEntry = Schema.Union(JournalStart, JournalPublished, JournalEnd)
export type JournalEntry = typeof JournalEntry.Type

/** Formats an entry as one TSV line (no terminator). */
export function formatJournalEntry(entry: JournalEntry): string {
  switch (entry._tag) {
    case "start":
      return formatTsvLine(["start", entry.index, entry.path, entry.staging])
    case "published":
      return formatTsvLine(["published", entry.index, entry.path])
    case "end":
      return "end"
  }
}

const decodeEntry = Schema.decodeUnknownEither(JournalEntry)

/** Parses one line; `undefined` for blank or torn lines (a crash mid-append, C1). */
export function parseJournalEntry(line: string): JournalEntry | undefined {
  const [tag, index, path, staging] = parseTsvLine(line)
  const decoded = decodeEntry({ _tag: tag, index, path, staging })
  return Either.isRight(decoded) ? decoded.right : undefined
}
