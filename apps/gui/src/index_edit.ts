/**
 * The indexes table of the page (issue 7): the settings' target folders with
 * the ingest list's counts, and the edits add / rename / remove / enable /
 * move. The edits are the store's index management (`editIndexes` of
 * `@sagasu/store`, issue 16), the same the CLI's commands use: decided in the
 * domain (names, folders overlapping another index's), written through the
 * store — rename and remove carry the index's data along (body index, ingest
 * list, origin record, 2-gram index) under the lock of the work folder (R3).
 * This module only shapes the page's requests and answers.
 *
 * @module
 */
import type { IndexEdit as DomainEdit } from "@sagasu/domain"
import { type WorkPaths, WorkStore } from "@sagasu/store"
import { Data, Effect, Either } from "effect"
import type { IndexEdit, IndexesView } from "./api.ts"
import { type UiLanguage, uiText } from "./page/ui_text.ts"

/** An edit the page must show as refused, with a message in the page's language. */
export class EditRefused extends Data.TaggedError("EditRefused")<{ readonly message: string }> {}

/** The indexes table: every target folder with its done / failed / pending counts. */
export const readIndexesView = (paths: WorkPaths): Effect.Effect<IndexesView, never, WorkStore> =>
  Effect.gen(function* () {
    const listed = yield* WorkStore.listIndexes(paths).pipe(
      Effect.catchTag("StoreReadError", () => Effect.map(WorkStore.readSettings(paths), (settings) => ({ settings, indexes: withoutCounts(settings.targetFolders) }))),
      Effect.either
    )
    if (Either.isLeft(listed)) return { language: "ja", indexes: [], settingsError: listed.left.message }
    return { language: listed.right.settings.language, settingsError: null, indexes: listed.right.indexes }
  })

const withoutCounts = (folders: ReadonlyArray<{ readonly name: string; readonly path: string; readonly enabled: boolean }>) =>
  folders.map((t) => ({ name: t.name, path: t.path, enabled: t.enabled, done: 0, failed: 0, pending: 0 }))

/** Writes the language setting (the page and the run's messages follow it). */
export const setLanguage = (paths: WorkPaths, language: UiLanguage) =>
  Effect.gen(function* () {
    const settings = yield* WorkStore.readSettings(paths).pipe(Effect.mapError(() => new EditRefused({ message: uiText(language).errSettings })))
    yield* WorkStore.writeSettings(paths, { ...settings, language }).pipe(Effect.mapError((e) => new EditRefused({ message: e.message })))
  })

/**
 * Applies one edit and returns the new table. Fails with {@link EditRefused}
 * (a message for the page) when the edit is invalid, the settings cannot be
 * read, or — for rename and remove — another indexing run holds the lock.
 * Names and paths typed in the page are taken without their surrounding spaces.
 */
export const editIndexes = (paths: WorkPaths, edit: IndexEdit) =>
  Effect.gen(function* () {
    yield* WorkStore.editIndexes(paths, trimmed(edit)).pipe(
      Effect.mapError((e) => new EditRefused({ message: e.reason === "settings" ? `${uiText("ja").errSettings}\n${e.message}` : e.message }))
    )
    return yield* readIndexesView(paths)
  })

const trimmed = (edit: IndexEdit): DomainEdit => {
  switch (edit._tag) {
    case "add":
      return { _tag: "add", name: edit.name.trim(), path: edit.path.trim() }
    case "rename":
      return { _tag: "rename", from: edit.from, to: edit.to.trim() }
    case "move":
      return { _tag: "move", name: edit.name, path: edit.path.trim() }
    default:
      return edit
  }
}
