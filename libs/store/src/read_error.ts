/**
 * Reading the work folder's own files (STYLE rule 14, R18, issue 15): only
 * "does not exist" means empty. Any other failure — a permission, an I/O
 * error, a folder where the file should be — is {@link StoreReadError}: the
 * run ends with exit 1 and its message, and nothing is reset or deleted
 * because of it (an unreadable journal taken for an empty one would throw
 * away the staged folders R7 exists to publish).
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { inBothLanguages, parseTsvLine } from "@sagasu/domain"
import { Effect, Option, Schema } from "effect"
import * as path from "node:path"

/** A file of the work folder exists (or may) but could not be read (`unreadable`); `file` is its path. */
export class StoreReadError extends Schema.TaggedError<StoreReadError>()("StoreReadError", {
  reason: Schema.Literal("unreadable"),
  file: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    const name = `${path.basename(path.dirname(this.file))}/${path.basename(this.file)}`
    return inBothLanguages((text) => text.storeFileUnreadable(name, this.detail, this.file))
  }
}

/**
 * The text of `file` (UTF-8), `None` when it does not exist; fails with
 * {@link StoreReadError} on any other error.
 */
export const readTextIfExists = (file: string): Effect.Effect<Option.Option<string>, StoreReadError, FileSystem.FileSystem> =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.readFileString(file)).pipe(
    Effect.map(Option.some),
    Effect.catchIf(
      (e) => e._tag === "SystemError" && e.reason === "NotFound",
      () => Effect.succeed(Option.none<string>())
    ),
    Effect.mapError((e) => new StoreReadError({ reason: "unreadable", file, detail: e.message }))
  )

/**
 * The records of the TSV file `file`, one per non-empty line, each made by
 * `parse` from the line's fields (`[]` passes a line over, e.g. one with a
 * field missing); none when the file does not exist; {@link StoreReadError}
 * when it cannot be read. The small records of `store/` (origins.tsv,
 * pending_remove.tsv).
 */
export const readTsvRecords = <A>(
  file: string,
  parse: (fields: Array<string>) => ReadonlyArray<A>
): Effect.Effect<Array<A>, StoreReadError, FileSystem.FileSystem> =>
  Effect.map(readTextIfExists(file), (found) =>
    Option.getOrElse(found, () => "")
      .split("\n")
      .filter((l) => l !== "")
      .flatMap((line) => parse(parseTsvLine(line)))
  )
