/**
 * Index management in one place (issue 16): list, add, enable / disable,
 * rename, remove and move (change folder) of the settings' indexes, for the
 * CLI and the GUI alike. The domain decides (`decideIndexEdit`: names,
 * folders that overlap another index's); this module reads what the decision
 * needs from the disk and carries it out.
 *
 * Add, enable and move write only `setting.config`. Rename and remove also
 * carry the index's data along — body-index folders, ingest list, origin
 * record (R11), 2-gram index — under the work folder's lock (R3), so that a
 * search never shows a name that no longer exists and a renamed index is
 * not ingested again from scratch. Data first, settings last: a crash in
 * between leaves the index under its old name in the settings, and
 *
 * - rename moves the ingest-list rows before the folder: a crash between
 *   them leaves no row claiming a file whose folder is gone, so the next run
 *   ingests again what is missing; running the rename again finishes it
 *   (each step is done only while its old state is there: rows of the old
 *   name, the old folder);
 * - remove removes the folders through `removeBodyFolders` (noted in
 *   `pending_remove.tsv` and the fresh log, R14, S1), then the rows;
 *   running it again finishes it.
 *
 * The new folders of a rename are noted in the fresh log before they move
 * (S1), so search finds them under the new name at once, whether or not the
 * 2-gram update that follows succeeds.
 *
 * @module
 */
import {
  type IndexEdit,
  type IndexEditDecision,
  type IndexRefusal,
  type Language,
  type Settings,
  type TargetFolder,
  decideIndexEdit,
  decodeSettings,
  encodeSettings,
  messages,
  pathStyleOf
} from "@sagasu/domain"
import { FileSystem } from "@effect/platform"
import { Data, Effect, Either, Option, ParseResult } from "effect"
import * as path from "node:path"
import { noteFresh } from "./gram/fresh.ts"
import { removeInLineMark } from "./gram/in_line_mark.ts"
import { updateGramIndexesOfRound } from "./gram/update.ts"
import { readIngestList, rewriteIngestList } from "./ingest_list_store.ts"
import { acquireLock } from "./lock.ts"
import { type Origin, replaceOrigins } from "./origins.ts"
import { removeBodyFolders } from "./pending_remove.ts"
import { readSettings, writeSettings } from "./settings_store.ts"
import type { WorkPaths } from "./work_paths.ts"

/** One index as `sagasu list` and the GUI's table show it: the setting and the ingest list's counts. */
export interface IndexListing {
  readonly name: string
  readonly path: string
  readonly enabled: boolean
  readonly done: number
  readonly failed: number
  readonly pending: number
}

/**
 * The indexes of the work folder `paths`, in settings order, with the
 * ingest list's done / failed / pending counts (an unreadable ingest list
 * fails with StoreReadError; a missing one counts nothing).
 */
export const listIndexes = Effect.fn("Store.listIndexes")(function* (paths: WorkPaths) {
  const settings = yield* readSettings(paths)
  const counts = new Map<string, { done: number; failed: number; pending: number }>()
  for (const row of yield* readIngestList(paths)) {
    const c = counts.get(row.index) ?? { done: 0, failed: 0, pending: 0 }
    c[row.status]++
    counts.set(row.index, c)
  }
  const indexes: ReadonlyArray<IndexListing> = settings.targetFolders.map((t) => ({
    name: t.name,
    path: t.path,
    enabled: t.enabled,
    ...(counts.get(t.name) ?? { done: 0, failed: 0, pending: 0 })
  }))
  return { settings, indexes }
})

/**
 * An edit that was not made: `refused` (the domain's {@link IndexRefusal}),
 * `settings` (`setting.config` cannot be read or the result would not be
 * valid), `lock-held` (an indexing run is going on: rename and remove wait
 * for it, R3), `io` (a file of the work folder could not be read or
 * written). `message` is in the settings' language (Japanese when unknown).
 */
export class IndexEditError extends Data.TaggedError("IndexEditError")<{
  readonly reason: "refused" | "settings" | "lock-held" | "io"
  readonly message: string
  readonly refusal?: IndexRefusal
}> {}

/** What an edit did: the decision, the settings now on disk, and the ingested files it carried (renamed or removed). */
export interface IndexEditOutcome {
  readonly decision: IndexEditDecision
  readonly settings: Settings
  readonly files: number
}

/** Options of {@link editIndexes}. */
export interface EditIndexesOptions {
  /** Whose path rules compare folders (default: this process's platform). */
  readonly platform?: string
}

/**
 * Makes one edit of the indexes of `paths` (see the module doc): decides it
 * in the domain with what the disk says (is the new path a folder, the real
 * paths of the folders), then writes. Fails with {@link IndexEditError}.
 */
export const editIndexes = (paths: WorkPaths, edit: IndexEdit, options: EditIndexesOptions = {}) =>
  Effect.gen(function* () {
    const settings = yield* readSettings(paths).pipe(
      Effect.mapError((e) => new IndexEditError({ reason: "settings", message: e.message }))
    )
    const language = settings.language
    const folders = settings.targetFolders
    const newFolder = edit._tag === "add" || edit._tag === "move" ? edit.path : undefined
    const decided = decideIndexEdit(folders, edit, {
      style: pathStyleOf(options.platform ?? process.platform),
      ...(newFolder !== undefined ? { folder: { ...(yield* folderKind(newFolder)), realPath: yield* realPathOf(newFolder) } } : {}),
      realPaths: yield* realPathsOf(folders)
    })
    if (Either.isLeft(decided)) {
      return yield* new IndexEditError({ reason: "refused", refusal: decided.left, message: messages(language).indexRefused(decided.left) })
    }
    const decision = decided.right
    switch (decision._tag) {
      case "none":
        return { decision, settings, files: 0 } satisfies IndexEditOutcome
      case "settings": {
        const next = yield* saveSettings(paths, { ...settings, targetFolders: decision.targetFolders })
        return { decision, settings: next, files: 0 } satisfies IndexEditOutcome
      }
      case "rename":
      case "remove": {
        const next = yield* validSettings({ ...settings, targetFolders: decision.targetFolders })
        const files = yield* underLock(paths, language, decision._tag === "rename"
          ? renameData(paths, decision.from, decision.to, next)
          : removeData(paths, decision.name, next))
        return { decision, settings: next, files } satisfies IndexEditOutcome
      }
    }
  })

// The whole settings file through the Schema once more (unique names, …) before it is written.
const validSettings = (settings: Settings) =>
  Either.mapLeft(
    decodeSettings(encodeSettings(settings)),
    (e) => new IndexEditError({ reason: "settings", message: ParseResult.TreeFormatter.formatErrorSync(e) })
  )

const saveSettings = (paths: WorkPaths, settings: Settings) =>
  Effect.gen(function* () {
    const valid = yield* validSettings(settings)
    yield* writeSettings(paths, valid).pipe(Effect.mapError(ioError))
    return valid
  })

// Rename and remove touch what only the holder of the lock may write (R3).
const underLock = <A, R>(paths: WorkPaths, language: Language, effect: Effect.Effect<A, IndexEditError, R>) =>
  Effect.scoped(
    Effect.gen(function* () {
      yield* acquireLock(paths).pipe(
        Effect.mapError((e) =>
          e.reason === "held"
            ? new IndexEditError({ reason: "lock-held", message: messages(language).lockHeld })
            : new IndexEditError({ reason: "io", message: e.message })
        )
      )
      return yield* effect
    })
  )

const renameData = (paths: WorkPaths, from: string, to: string, next: Settings) =>
  Effect.gen(function* () {
    const rows = yield* readIngestList(paths).pipe(Effect.mapError(ioError))
    const own = rows.filter((r) => r.index === from)
    // Rows of the new name are an interrupted rename's when the old name has none (run again), else stale.
    const moved = own.length > 0 ? rows.filter((r) => r.index !== to).map((r) => (r.index === from ? { ...r, index: to } : r)) : rows
    const carried = moved.filter((r) => r.index === to)
    // Both names passed IndexName: single path segments, so the folders stay inside index/.
    const source = path.join(paths.index, from)
    const target = path.join(paths.index, to)
    const fs = yield* FileSystem.FileSystem
    const sourceThere = yield* fs.exists(source).pipe(Effect.mapError(ioError))
    // Issue 20: the folders move without a note for the old names; the update at the end must walk.
    yield* dropInLineMark(paths)
    // S1: the folders under their new name are noted before they move; the old ones read as gone once moved.
    if (sourceThere) yield* noteFresh(paths, carried.map((r) => ({ op: "+" as const, index: to, path: r.path }))).pipe(Effect.mapError(ioError))
    if (own.length > 0) yield* rewriteIngestList(paths, moved).pipe(Effect.mapError(ioError))
    if (sourceThere) {
      // A leftover folder of the new name goes — unless it is the old one itself (a change of case
      // only, on a file system that ignores case: removing it would remove the index's data).
      if (!(yield* sameFolder(source, target))) yield* fs.remove(target, { recursive: true, force: true }).pipe(Effect.mapError(ioError))
      yield* fs.rename(source, target).pipe(Effect.mapError(ioError))
    }
    yield* replaceOrigins(paths, (o: Origin) => (o.index === to ? [] : o.index === from ? [{ ...o, index: to }] : [o])).pipe(
      Effect.mapError(ioError)
    )
    yield* writeSettings(paths, next).pipe(Effect.mapError(ioError))
    yield* updateGramIndexesOfRound(paths, {
      published: carried.map((r) => ({ index: to, path: r.path })),
      removed: carried.map((r) => ({ index: from, path: r.path }))
    }).pipe(Effect.ignore)
    return carried.length
  })

const removeData = (paths: WorkPaths, name: string, next: Settings) =>
  Effect.gen(function* () {
    const rows = yield* readIngestList(paths).pipe(Effect.mapError(ioError))
    const own = rows.filter((r) => r.index === name).map((r) => ({ index: r.index, path: r.path }))
    // Issue 20: the index's folder goes whole, folders without a row too, unnoted; the update at the end must walk.
    yield* dropInLineMark(paths)
    yield* removeBodyFolders(paths, own).pipe(Effect.mapError(ioError))
    const fs = yield* FileSystem.FileSystem
    yield* fs.remove(path.join(paths.index, name), { recursive: true, force: true }).pipe(Effect.mapError(ioError))
    yield* rewriteIngestList(paths, rows.filter((r) => r.index !== name)).pipe(Effect.mapError(ioError))
    yield* replaceOrigins(paths, (o: Origin) => (o.index === name ? [] : [o])).pipe(Effect.mapError(ioError))
    yield* writeSettings(paths, next).pipe(Effect.mapError(ioError))
    yield* updateGramIndexesOfRound(paths, { published: [], removed: own }).pipe(Effect.ignore)
    return own.length
  })

const ioError = (e: { readonly message: string }) => new IndexEditError({ reason: "io", message: e.message })

// The 2-gram update's in-line mark removed (gram/in_line_mark.ts) before a change the fresh log does not name in full.
const dropInLineMark = (paths: WorkPaths) =>
  Effect.try({ try: () => removeInLineMark(paths.gram), catch: (e) => ioError({ message: e instanceof Error ? e.message : String(e) }) })

// Whether `p` is a folder, else a file (a path that is neither, or cannot be read, is neither).
const folderKind = (p: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.stat(p)).pipe(
    Effect.map((info) => ({ isFolder: info.type === "Directory", isFile: info.type === "File" })),
    Effect.orElseSucceed(() => ({ isFolder: false, isFile: false }))
  )

const sameFolder = (a: string, b: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => Effect.all([fs.stat(a), fs.stat(b)])).pipe(
    Effect.map(([x, y]) => x.dev === y.dev && Option.isSome(x.ino) && Option.getEquivalence((p: number, q: number) => p === q)(x.ino, y.ino)),
    Effect.orElseSucceed(() => false)
  )

const realPathOf = (p: string) =>
  Effect.flatMap(FileSystem.FileSystem, (fs) => fs.realPath(p)).pipe(
    Effect.map((real): string | undefined => real),
    Effect.orElseSucceed(() => undefined)
  )

const realPathsOf = (folders: ReadonlyArray<TargetFolder>) =>
  Effect.gen(function* () {
    const out = new Map<string, string>()
    for (const f of folders) {
      const real = path.isAbsolute(f.path) ? yield* realPathOf(f.path) : undefined
      if (real !== undefined) out.set(f.name, real)
    }
    return out as ReadonlyMap<string, string>
  })
