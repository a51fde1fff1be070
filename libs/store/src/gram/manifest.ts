/**
 * The Schemas of the gram index's manifest, and its error; the layout, the
 * reader and the writers are in manifest_format.ts (effect-free, on the path
 * of every cold search).
 *
 * @module
 */
import { Schema } from "effect"
import type { Manifest as ManifestShape, SegmentEntry as SegmentEntryShape } from "./manifest_format.ts"

export * from "./manifest_format.ts"

/**
 * A gram-index operation failed:
 * - `body-index-unreadable`: the body index (`index/`) could not be listed or a TSV read;
 * - `write-failed`: a segment, deletion or manifest file could not be written
 *   (disk full, permissions) — the previous manifest stays in force;
 * - `index-unreadable`: the manifest or a segment it names is missing or
 *   damaged — the next update rebuilds what it cannot read.
 */
export class GramIndexError extends Schema.TaggedError<GramIndexError>()("GramIndexError", {
  reason: Schema.Literal("body-index-unreadable", "write-failed", "index-unreadable"),
  path: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    const what = {
      "body-index-unreadable": "the body index cannot be read",
      "write-failed": "the search index cannot be written; the previous one stays in use",
      "index-unreadable": "the search index is damaged; the next indexing run rebuilds it"
    }[this.reason]
    return `${what} (${this.path})${this.detail === "" ? "" : `: ${this.detail}`}`
  }
}

/** One live segment as the manifest names it (the Schema of manifest_format.ts's `SegmentEntry`). */
export const SegmentEntrySchema = Schema.Struct({
  id: Schema.String,
  docs: Schema.Number,
  lines: Schema.Number,
  textBytes: Schema.Number,
  deleted: Schema.String,
  deletedDocs: Schema.Number,
  deletedLines: Schema.Number
})

/** The manifest's Schema (manifest_format.ts's `Manifest`, decoded there by `parseManifest`). */
export const ManifestSchema = Schema.Struct({
  format: Schema.Number,
  normalizer: Schema.String,
  generation: Schema.Number,
  segments: Schema.Array(SegmentEntrySchema),
  fresh: Schema.optionalWith(Schema.String, { default: () => "" }),
  freshFrom: Schema.optionalWith(Schema.Number, { default: () => 0 })
})

// The Schema and the interfaces describe the same shape.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never
const _manifest: Same<typeof ManifestSchema.Type, ManifestShape> = true
const _segment: Same<typeof SegmentEntrySchema.Type, SegmentEntryShape> = true
void _manifest
void _segment
