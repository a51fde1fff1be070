/**
 * The output of extracting one source file: what a worker hands back and what
 * the body index stores as TSV files (SPEC §5 "Body index", W1).
 *
 * @module
 */
import { Schema } from "effect"

/**
 * The name of a body-index TSV's first column: `cell` for workbooks (A1-style
 * addresses), `paragraph` for documents, `slide` for presentations (SPEC §5),
 * `property` for the file's document properties (S4: `title`, `subject`,
 * `author`, `keywords`, …, and `slide 3` for a slide's title; the part
 * {@link propertiesPartName}, written last, only when the file has some).
 */
export const Locator = Schema.Literal("cell", "paragraph", "slide", "property")
export type Locator = typeof Locator.Type

/** Visibility of a sheet or slide as the file declares it (issue 3: hidden sheets are marked). */
export const PartState = Schema.Literal("visible", "hidden", "veryHidden")
export type PartState = typeof PartState.Type

/**
 * One line of a body-index TSV: where the text stands (`A1`, `12`, `3`,
 * `3 notes`, `header`, `comment:2`, …) and the text itself, unescaped; and,
 * for a number or a date, its search-only `forms` (S4: how people type the
 * value — `123350` for `¥123,350`, `2009/9/4 2009/09/04 2009年9月4日` for a
 * date — separated by spaces). A search matches the forms as it matches the
 * text; a snippet shows only the text (what Excel shows). Absent (never
 * `""`) when there are none.
 */
export const BodyLine = Schema.Struct({
  loc: Schema.String,
  text: Schema.String,
  forms: Schema.optional(Schema.String)
})
export type BodyLine = typeof BodyLine.Type

/**
 * One TSV of the body index: a sheet of a workbook, or the body of a document
 * or presentation. `name` is the sheet name (or `document` / `slides`);
 * the TSV file is named `<n>_<name>.tsv` with `n` the 1-based position in
 * {@link Extraction.parts}.
 */
export const BodyPart = Schema.Struct({
  name: Schema.String,
  locator: Locator,
  state: PartState,
  lines: Schema.Array(BodyLine)
})
export type BodyPart = typeof BodyPart.Type

/** The name of the part holding a file's document properties (locator `property`). */
export const propertiesPartName = "properties"

/** Everything extracted from one source file, parts in document order. */
export const Extraction = Schema.Struct({
  parts: Schema.Array(BodyPart)
})
export type Extraction = typeof Extraction.Type

/**
 * Why a file could not be extracted. Closed list so that the ingest list's
 * reasons stay specific and countable (SPEC: "a broken file is a failed row
 * with a reason"):
 * - `empty-file`: zero bytes;
 * - `encrypted`: password-protected (an OLE container with EncryptionInfo, or a
 *   legacy file with its encryption flag);
 * - `needs-office`: a format only the Office owner can read (PowerPoint 95 and
 *   4.0, flat OpenDocument XML, a legacy workbook the plain reader finds damaged, …, or such
 *   content behind an OOXML name): the plain worker reroutes it (R14);
 * - `not-office`: the content is not an Office file at all;
 * - `corrupt`: a damaged zip or XML part;
 * - `too-large`: a limit on inflated bytes, ratio or cells was hit;
 * - `unreadable`: the file could not be read from disk (permissions, I/O).
 */
export const ExtractFailure = Schema.Literal(
  "empty-file",
  "encrypted",
  "needs-office",
  "not-office",
  "corrupt",
  "too-large",
  "unreadable"
)
export type ExtractFailure = typeof ExtractFailure.Type
