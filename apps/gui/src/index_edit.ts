/**
 * The indexes table of the page (issue 7): the settings' target folders with
 * the ingest list's counts, and the edits add / rename / remove / enable,
 * written to `setting.config` through the store and validated with the
 * Settings Schema. Rename and remove also carry the index's data along
 * (body index, ingest list, origin record, 2-gram index), under the lock of
 * the work folder (R3), so that search never shows a name that no longer
 * exists and a renamed index is not ingested again from scratch.
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { type Settings, IndexName, decodeSettings, encodeSettings, formatTsvLine, messages } from "@sagasu/domain"
import {
  type WorkPaths,
  acquireLock,
  readIngestList,
  readOrigins,
  readSettings,
  removeBodyFolders,
  rewriteIngestList,
  updateGramIndexesOfRound,
  writeFileAtomic,
  writeSettings
} from "@sagasu/store"
import { Data, Effect, Either, ParseResult, Schema } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import type { IndexEdit, IndexesView } from "./api.ts"
import { type UiLanguage, uiText } from "./page/ui_text.ts"

/** An edit the page must show as refused, with a message in the page's language. */
export class EditRefused extends Data.TaggedError("EditRefused")<{ readonly message: string }> {}

/** The indexes table: every target folder with its done / failed / pending counts. */
export const readIndexesView = (paths: WorkPaths): Effect.Effect<IndexesView, never, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const settings = yield* readSettings(paths).pipe(Effect.either)
    if (Either.isLeft(settings)) return { language: "ja", indexes: [], settingsError: settings.left.message }
    const counts = new Map<string, { done: number; failed: number; pending: number }>()
    for (const row of yield* readIngestList(paths).pipe(Effect.orElseSucceed(() => []))) {
      const c = counts.get(row.index) ?? { done: 0, failed: 0, pending: 0 }
      c[row.status]++
      counts.set(row.index, c)
    }
    return {
      language: settings.right.language,
      settingsError: null,
      indexes: settings.right.targetFolders.map((t) => ({
        name: t.name,
        path: t.path,
        enabled: t.enabled,
        ...(counts.get(t.name) ?? { done: 0, failed: 0, pending: 0 })
      }))
    }
  })

/** Writes the language setting (the page and the run's messages follow it). */
export const setLanguage = (paths: WorkPaths, language: UiLanguage) =>
  Effect.gen(function* () {
    const settings = yield* readSettings(paths).pipe(Effect.mapError(() => new EditRefused({ message: uiText(language).errSettings })))
    yield* writeSettings(paths, { ...settings, language }).pipe(Effect.mapError((e) => new EditRefused({ message: e.message })))
  })

/**
 * Applies one edit and returns the new table. Fails with {@link EditRefused}
 * (a message for the page) when the edit is invalid, the settings cannot be
 * read, or — for rename and remove — another indexing run holds the lock.
 */
export const editIndexes = (paths: WorkPaths, edit: IndexEdit) =>
  Effect.gen(function* () {
    const settings = yield* readSettings(paths).pipe(
      Effect.mapError((e) => new EditRefused({ message: `${uiText("ja").errSettings}\n${e.message}` }))
    )
    const t = uiText(settings.language)
    const refuse = (message: string) => Effect.fail(new EditRefused({ message }))
    const folders = settings.targetFolders
    const exists = (name: string) => folders.some((f) => f.name === name)
    switch (edit._tag) {
      case "add": {
        const name = yield* validName(edit.name, settings.language)
        if (exists(name)) return yield* refuse(t.errNameTaken(name))
        const folder = edit.path.trim()
        if (folder === "") return yield* refuse(t.errFolderEmpty)
        if (!path.isAbsolute(folder)) return yield* refuse(t.errFolderRelative)
        if (!isFolder(folder)) return yield* refuse(t.errFolderMissing(folder))
        yield* save(paths, { ...settings, targetFolders: [...folders, { name, path: folder, enabled: true }] })
        break
      }
      case "enable": {
        if (!exists(edit.name)) return yield* refuse(t.errNoSuchIndex(edit.name))
        yield* save(paths, { ...settings, targetFolders: folders.map((f) => (f.name === edit.name ? { ...f, enabled: edit.enabled } : f)) })
        break
      }
      case "rename": {
        if (!exists(edit.from)) return yield* refuse(t.errNoSuchIndex(edit.from))
        const to = yield* validName(edit.to, settings.language)
        if (to === edit.from) break
        if (exists(to)) return yield* refuse(t.errNameTaken(to))
        const next = { ...settings, targetFolders: folders.map((f) => (f.name === edit.from ? { ...f, name: to } : f)) }
        yield* validSettings(next)
        yield* underLock(paths, settings, renameData(paths, edit.from, to, next))
        break
      }
      case "remove": {
        if (!exists(edit.name)) return yield* refuse(t.errNoSuchIndex(edit.name))
        const next = { ...settings, targetFolders: folders.filter((f) => f.name !== edit.name) }
        yield* underLock(paths, settings, removeData(paths, edit.name, next))
        break
      }
    }
    return yield* readIndexesView(paths)
  })

// The Schema decides what a valid name is; its messages become the page's words.
const validName = (raw: string, language: UiLanguage) => {
  const t = uiText(language)
  const name = raw.trim()
  return Schema.decodeUnknownEither(IndexName)(name).pipe(
    Either.mapLeft((e) => {
      const why = ParseResult.TreeFormatter.formatErrorSync(e)
      const message = why.includes("empty")
        ? t.errNameEmpty
        : why.includes("spaces")
        ? t.errNameSpaces
        : why.includes("100")
        ? t.errNameLong
        : why.includes("contain")
        ? t.errNameChars
        : why
      return new EditRefused({ message })
    })
  )
}

// The whole settings file through the Schema once more (unique names, …) before it is written.
const validSettings = (settings: Settings) =>
  Either.mapLeft(
    decodeSettings(encodeSettings(settings)),
    (e) => new EditRefused({ message: ParseResult.TreeFormatter.formatErrorSync(e) })
  )

const save = (paths: WorkPaths, settings: Settings) =>
  Effect.gen(function* () {
    const valid = yield* validSettings(settings)
    yield* writeSettings(paths, valid).pipe(Effect.mapError((e) => new EditRefused({ message: e.message })))
  })

// Rename and remove touch what only the holder of the lock may write (R3).
const underLock = <E, R>(paths: WorkPaths, settings: Settings, effect: Effect.Effect<void, E, R>) =>
  Effect.scoped(
    Effect.gen(function* () {
      yield* acquireLock(paths).pipe(
        Effect.mapError((e) => new EditRefused({ message: e.reason === "held" ? messages(settings.language).lockHeld : e.message }))
      )
      yield* effect
    })
  )

// Data first, settings last: a crash in between leaves the index as it was in the settings,
// and the next run ingests what is missing.
const renameData = (paths: WorkPaths, from: string, to: string, next: Settings) =>
  Effect.gen(function* () {
    const rows = yield* readIngestList(paths).pipe(Effect.mapError(ioRefused))
    // Both names passed IndexName: single path segments, so the folders stay inside index/.
    yield* attempt(() => {
      const source = path.join(paths.index, from)
      const target = path.join(paths.index, to)
      fs.rmSync(target, { recursive: true, force: true })
      if (fs.existsSync(source)) fs.renameSync(source, target)
    })
    yield* rewriteIngestList(paths, rows.map((r) => (r.index === from ? { ...r, index: to } : r))).pipe(Effect.mapError(ioRefused))
    yield* rewriteOrigins(paths, (o) => (o.index === from ? [{ ...o, index: to }] : [o]))
    yield* save(paths, next)
    yield* updateGramIndexesOfRound(paths, { published: [], removed: [] }).pipe(Effect.ignore)
  })

const removeData = (paths: WorkPaths, name: string, next: Settings) =>
  Effect.gen(function* () {
    const rows = yield* readIngestList(paths).pipe(Effect.mapError(ioRefused))
    const own = rows.filter((r) => r.index === name)
    yield* removeBodyFolders(paths, own.map((r) => ({ index: r.index, path: r.path }))).pipe(Effect.mapError(ioRefused))
    yield* attempt(() => fs.rmSync(path.join(paths.index, name), { recursive: true, force: true }))
    yield* rewriteIngestList(paths, rows.filter((r) => r.index !== name)).pipe(Effect.mapError(ioRefused))
    yield* rewriteOrigins(paths, (o) => (o.index === name ? [] : [o]))
    yield* save(paths, next)
    yield* updateGramIndexesOfRound(paths, { published: [], removed: own.map((r) => ({ index: r.index, path: r.path })) }).pipe(
      Effect.ignore
    )
  })

type Origin = Effect.Effect.Success<ReturnType<typeof readOrigins>>[number]

// The origin records (R11) follow the index's name.
const rewriteOrigins = (paths: WorkPaths, f: (o: Origin) => ReadonlyArray<Origin>) =>
  Effect.gen(function* () {
    const origins = (yield* readOrigins(paths)).flatMap(f)
    yield* writeFileAtomic(
      paths.origins,
      origins.map((o) => formatTsvLine([o.index, o.path, o.realPath, o.identity]) + "\n").join("")
    ).pipe(Effect.mapError(ioRefused))
  })

const ioRefused = (e: { readonly message: string }) => new EditRefused({ message: e.message })

const attempt = (f: () => void) =>
  Effect.try({ try: f, catch: (e) => new EditRefused({ message: e instanceof Error ? e.message : String(e) }) })

const isFolder = (p: string) => {
  try {
    return fs.statSync(p).isDirectory()
  } catch {
    return false
  }
}
