/**
 * The handlers of `sagasu init` and of index management (issue 16): `add`,
 * `list`, `enable`, `disable`, `rename`, `remove`, `move`. Index management
 * goes through the store's `editIndexes` / `listIndexes` — the API the GUI
 * uses too — which the domain decides (names; a folder equal to, inside or
 * containing another index's is refused, saying which). Each handler prints
 * for a person in the settings' language (Japanese unless `language` is
 * `en`), errors on stderr, and sets the exit code: 0 done, 1 refused or failed.
 *
 * @module
 */
import { type IndexEdit, type Language, alignColumns, defaultSettings, messages } from "@sagasu/domain"
import { formatSettings, WorkStore } from "@sagasu/store"
import { Console, Effect, Either, Option } from "effect"
import * as path from "node:path"
import { errorMessage, workHint } from "./work_dir.ts"
import { forTerminal } from "./terminal_text.ts"
import { jsonForTerminal } from "./json_output.ts"

/** Prints an error for a person and sets exit code 1 (no stack trace). */
const failWith = (message: string) =>
  Effect.gen(function* () {
    yield* Console.error(forTerminal(message, process.stderr))
    process.exitCode = 1
  })

/**
 * `sagasu init`: creates the work folder (R2), or says it is there already —
 * with what to do next while it has no index (new-user trial: a second init
 * said it had prepared the folder again).
 */
export const initCommand = (work: string) =>
  Effect.gen(function* () {
    const existed = Either.isRight(yield* Effect.either(WorkStore.checkWorkFolder(work)))
    const paths = yield* WorkStore.initWorkFolder(work, formatSettings(defaultSettings))
    // A settings file that cannot be read is `sagasu index`'s to report: init says its words in Japanese.
    const settings = yield* WorkStore.readSettings(paths).pipe(Effect.option)
    const text = messages(Option.match(settings, { onNone: (): Language => "ja", onSome: (s) => s.language }))
    const indexes = Option.match(settings, { onNone: () => 0, onSome: (s) => s.targetFolders.length })
    yield* Console.log(forTerminal(existed ? text.workFolderAlreadyReady(paths.root, indexes, workHint(work)) : text.workFolderReady(paths.root, workHint(work))))
  }).pipe(Effect.catchAll((e) => failWith(errorMessage(e, work))))

// One edit through the store; `done` words the success in the settings' language.
const edit = (work: string, change: IndexEdit, done: (language: Language, files: number) => string) =>
  Effect.gen(function* () {
    const paths = yield* WorkStore.checkWorkFolder(work)
    const outcome = yield* WorkStore.editIndexes(paths, change)
    yield* Console.log(forTerminal(done(outcome.settings.language, outcome.files)))
  }).pipe(Effect.catchAll((e) => failWith(errorMessage(e, work))))

/** `sagasu add NAME PATH`: registers a folder (made absolute) as an enabled index. */
export const addCommand = (work: string, name: string, folder: string) => {
  const absolute = path.resolve(folder)
  return edit(work, { _tag: "add", name, path: absolute }, (l) => messages(l).indexAdded(name, absolute, workHint(work)))
}

/** `sagasu enable NAME` / `sagasu disable NAME`: whether `sagasu index` updates the index (R5). */
export const enableCommand = (work: string, name: string, enabled: boolean) =>
  edit(work, { _tag: "enable", name, enabled }, (l) => messages(l).indexEnabled(name, enabled))

/** `sagasu rename OLD NEW`: the index, its ingested files and their search entries take the new name. */
export const renameCommand = (work: string, from: string, to: string) =>
  edit(work, { _tag: "rename", from, to }, (l) => messages(l).indexRenamed(from, to))

/** `sagasu remove NAME`: the index and its ingested text leave Sagasu (the files themselves are untouched). */
export const removeCommand = (work: string, name: string) =>
  edit(work, { _tag: "remove", name }, (l, files) => messages(l).indexRemoved(name, files))

/** `sagasu move NAME PATH`: the index's folder is now `PATH` (made absolute). */
export const moveCommand = (work: string, name: string, folder: string) => {
  const absolute = path.resolve(folder)
  return edit(work, { _tag: "move", name, path: absolute }, (l) => messages(l).indexMoved(name, absolute))
}

/**
 * `sagasu list [--json]`: every index with its folder, whether it is
 * enabled, and its done / failed / pending files; `--json` prints an array of
 * `{name, path, enabled, done, failed, pending}`.
 */
export const listCommand = (work: string, json: boolean) =>
  Effect.gen(function* () {
    const paths = yield* WorkStore.checkWorkFolder(work)
    const { indexes, settings } = yield* WorkStore.listIndexes(paths)
    if (json) return yield* Console.log(jsonForTerminal(indexes))
    const text = messages(settings.language)
    if (indexes.length === 0) return yield* Console.log(forTerminal(text.noIndexes(workHint(work))))
    for (const line of alignColumns(indexes.map(text.indexListed))) yield* Console.log(line)
  }).pipe(Effect.catchAll((e) => failWith(errorMessage(e, work))))

