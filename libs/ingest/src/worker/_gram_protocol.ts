/**
 * The messages between the commander and the 2-gram round's thread (R16,
 * S1; issue 20): the round reads the fresh log and the body index and writes
 * the gram index on a thread of its own, so that tokenising and merging never
 * hold up the commander — its results, its dispatch, a GUI's requests.
 *
 * The commander opens the round, says after each change noted in the fresh
 * log how far the log is done (`noted`: the log's size, read right after the
 * change, so the round never reads an entry before its change is made), and
 * ends it with `finish` (R16) or `close` (a stop, a lost folder, an error:
 * what was built goes live, the rest stays in the fresh tail).
 *
 * @module
 */
import { Schema } from "effect"

/** What the round thread is asked. */
export const GramRequest = Schema.Union(
  /** Open the round of the work folder at `root` (its real path, as the run resolved it). */
  Schema.Struct({
    _tag: Schema.Literal("open"),
    root: Schema.String,
    builderMemoryBytes: Schema.optionalWith(Schema.Number, { exact: true }),
    flushIntervalMs: Schema.optionalWith(Schema.Number, { exact: true }),
    mergeFactor: Schema.optionalWith(Schema.Number, { exact: true })
  }),
  /** The fresh log is done up to byte `logBytes`. */
  Schema.Struct({ _tag: Schema.Literal("noted"), logBytes: Schema.Number }),
  /** R16: finish and bring the gram index in line with these changes. */
  Schema.Struct({
    _tag: Schema.Literal("finish"),
    published: Schema.Array(Schema.Struct({ index: Schema.String, path: Schema.String })),
    removed: Schema.Array(Schema.Struct({ index: Schema.String, path: Schema.String }))
  }),
  /** The run will not finish: make what was built live and stop. */
  Schema.Struct({ _tag: Schema.Literal("close") })
)
export type GramRequest = typeof GramRequest.Type

/** The summary of R16's update (the store's `GramUpdateSummary`). */
export const GramSummary = Schema.Struct({
  indexed: Schema.Number,
  removed: Schema.Number,
  prebuilt: Schema.Number,
  repaired: Schema.Number,
  rebuilt: Schema.Boolean,
  merges: Schema.Number,
  segments: Schema.Number,
  generation: Schema.Number
})

/** What the round thread answers. */
export const GramAnswer = Schema.Union(
  /** Opened; `freshLog` is the log it reads (null: it only waits for `finish`). */
  Schema.Struct({ _tag: Schema.Literal("opened"), freshLog: Schema.NullOr(Schema.String) }),
  Schema.Struct({ _tag: Schema.Literal("finished"), summary: GramSummary }),
  /** `finish` failed: the store's GramIndexError, field by field. */
  Schema.Struct({
    _tag: Schema.Literal("failed"),
    reason: Schema.Literal("body-index-unreadable", "write-failed", "index-unreadable"),
    path: Schema.String,
    detail: Schema.String
  }),
  Schema.Struct({ _tag: Schema.Literal("closed") }),
  /** Not an answer: the round has taken in every entry of the log up to byte `consumedTo` (sent as it reads). */
  Schema.Struct({ _tag: Schema.Literal("progress"), consumedTo: Schema.Number })
)
export type GramAnswer = typeof GramAnswer.Type
