/**
 * The work folder as one service (STYLE rules 4 and 14, issue 17): every
 * operation of the store that reads or writes the disk, over
 * `@effect/platform`'s `FileSystem`, behind the tag `"@sagasu/store/WorkStore"`.
 * The ingest library and the apps reach the work folder only through it; the
 * store's own tests run against {@link WorkStore.Default} over a temporary
 * work folder (`testing.ts`, `@sagasu/store/testing`).
 *
 * Errors: the store's own tagged errors where a file's meaning is known
 * (`WorkFolderError`, `SettingsError`, `StoreReadError`, `LockError`,
 * `GramIndexError`, `IndexEditError`) and {@link WorkStoreError} for a
 * write, a move or a removal of the work folder that failed — the
 * platform's error or a `node:fs` one never leaves the service.
 *
 * What is not here: the cold search (`GramSearcher`, `hitContexts`,
 * `workPaths`), which must stay Effect-free (ARCHITECTURE.md), and pure
 * helpers (`bodyFolderOf`, `formatSettings`, `longestPathBytes`, …).
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { type IndexEdit, type IngestRow, type JournalEntry, type Language, type Progress, type Settings, inBothLanguages } from "@sagasu/domain"
import type { Extraction } from "@sagasu/domain"
import { Effect, Schema, type Scope } from "effect"
import * as nodeFs from "node:fs"
import * as path from "node:path"
import {
  type StagingFolder, bodyFolderOf, completeMarkOf, longestPathBytes, openStagingFolder, publishSourceFolder, removeBodyFolder, stageExtraction,
  writeCompleteMark
} from "./body_index.ts"
import { type BodyFolder, bodyFolderAt, completeFolderIn, readBodyFolderParts, sourceStampOf, stagingCompleteMark, walkBodyIndex } from "./gram/body_walk.ts"
import { writeFolderSieve } from "./gram/sieve.ts"
import { type FreshEntry, ensureFreshLog, noteFresh } from "./gram/fresh.ts"
import { type GramRoundOptions, openGramRound } from "./gram/round.ts"
import { type RoundChanges, type UpdateGramOptions, updateGramIndexesOfRound } from "./gram/update.ts"
import { type EditIndexesOptions, editIndexes, listIndexes } from "./index_admin.ts"
import { appendIngestRows, readIngestList, rewriteIngestList } from "./ingest_list_store.ts"
import { appendJournal, readJournal, resetJournal } from "./journal_store.ts"
import { endLeftoverProcesses } from "./leftover_processes.ts"
import { hasLegacyLayoutMarks, removeOldSystemIndex } from "./legacy_layout.ts"
import { acquireLock, isLockHeld } from "./lock.ts"
import { type Origin, describeOrigin, readOrigins, writeOrigins } from "./origins.ts"
import { type Removal, readPendingRemove, removeBodyFolders } from "./pending_remove.ts"
import { progressWrittenAt, readProgress, writeProgress } from "./progress_store.ts"
import { type LogEcho, openRunLog } from "./run_log.ts"
import { type CountBudget, type SearchBudget, searchIndex, searchIndexFiles } from "./search.ts"
import type { SearchOptions } from "./gram/searcher.ts"
import type { FileSearchOptions } from "./gram/file_search.ts"
import { StoreReadError } from "./read_error.ts"
import { readSettings, writeSettings } from "./settings_store.ts"
import { checkWorkFolder, initWorkFolder } from "./work_folder.ts"
import type { WorkPaths } from "./work_paths.ts"

/**
 * A write of the work folder failed (R18): `disk-full` (the system said
 * ENOSPC or EDQUOT — told by its error code, never by its text),
 * `not-writable` (permissions, a folder in the way, any other system
 * error). `path` is what was being written, `detail` the system's words.
 * `message` (Japanese, then English) says what to do.
 */
export class WorkStoreError extends Schema.TaggedError<WorkStoreError>()("WorkStoreError", {
  reason: Schema.Literal("disk-full", "not-writable"),
  path: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    return inBothLanguages((text) => text.workStoreFailed(this.reason, this.path)) + ` (${this.detail})`
  }
}

const diskFullCodes = new Set(["ENOSPC", "EDQUOT"])

// The system's error code of what a platform call or a `node:fs` call failed with, however wrapped.
const codeOf = (e: unknown): string | undefined => {
  for (let x: unknown = e, depth = 0; x !== null && typeof x === "object" && depth < 4; depth++) {
    const code = (x as { readonly code?: unknown }).code
    if (typeof code === "string") return code
    const o = x as { readonly cause?: unknown; readonly error?: unknown }
    x = o.cause ?? o.error
  }
  return undefined
}

/** `e`, a failed write of `path`, as a {@link WorkStoreError} (its closed reason from the system's error code). */
export function workStoreError(path: string, e: unknown): WorkStoreError {
  return new WorkStoreError({
    reason: diskFullCodes.has(codeOf(e) ?? "") ? "disk-full" : "not-writable",
    path,
    detail: e instanceof Error ? e.message : typeof e === "object" && e !== null && "message" in e ? String(e.message) : String(e)
  })
}

// A synchronous read of the body index (it throws on I/O errors) as an Effect failing with StoreReadError.
const readingBody = <A>(file: string, read: () => A): Effect.Effect<A, StoreReadError> =>
  Effect.try({
    try: read,
    catch: (e) => new StoreReadError({ reason: "unreadable", file, detail: e instanceof Error ? e.message : String(e) })
  })

const make = Effect.gen(function* () {
  const fs = yield* FileSystem.FileSystem
  const withFs = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, Exclude<R, FileSystem.FileSystem>> =>
    Effect.provideService(effect, FileSystem.FileSystem, fs)
  const writing = <A, E, R>(path: string, effect: Effect.Effect<A, E, R>) =>
    withFs(effect).pipe(Effect.mapError((e) => workStoreError(path, e)))
  const staging = (folder: StagingFolder): StagingFolder<WorkStoreError> => ({
    ...folder,
    beginPart: (head) => folder.beginPart(head).pipe(Effect.mapError((e) => workStoreError(folder.dir, e))),
    appendLines: (lines) => folder.appendLines(lines).pipe(Effect.mapError((e) => workStoreError(folder.dir, e))),
    appendTsv: (tsv) => folder.appendTsv(tsv).pipe(Effect.mapError((e) => workStoreError(folder.dir, e))),
    restartPart: folder.restartPart.pipe(Effect.mapError((e) => workStoreError(folder.dir, e)))
  })
  return {
    // The work folder (R2, R3).
    /** Creates the layout at `root` (idempotent) and returns its real path's paths; WorkFolderError. */
    initWorkFolder: (root: string, initialSettings: string) => withFs(initWorkFolder(root, initialSettings)),
    /** Checks `root` is a usable work folder of this layout (R2); its real path's paths; WorkFolderError. */
    checkWorkFolder: (root: string) => withFs(checkWorkFolder(root)),
    /** The single-instance lock for the current scope (R3); LockError `held` when another process has it. */
    acquireLock: (paths: WorkPaths) => withFs(acquireLock(paths)),
    /** Whether another process holds the lock now (display only, R3). */
    isLockHeld: (paths: WorkPaths) => isLockHeld(paths),
    /** Ends LibreOffice processes a killed run left (C1, W3); never fails. */
    endLeftoverProcesses: (paths: WorkPaths) => endLeftoverProcesses(paths),
    /** Whether marks of a layout older than the previous one are there (R6). */
    hasLegacyLayoutMarks: (paths: WorkPaths) => withFs(hasLegacyLayoutMarks(paths)),
    /** Removes the previous layout's `system_index` (R6); its failure as a warning's text. */
    removeOldSystemIndex: (paths: WorkPaths) => withFs(removeOldSystemIndex(paths)),

    // Settings (SPEC §5).
    /** Reads and decodes `setting.config`; SettingsError. */
    readSettings: (paths: WorkPaths) => withFs(readSettings(paths)),
    /** Writes `setting.config` atomically. */
    writeSettings: (paths: WorkPaths, settings: Settings) => writing(paths.settings, writeSettings(paths, settings)),

    // Records of the run (C1, R7, R11, R14, P2).
    /** The ingest list (latest row per file); StoreReadError. */
    readIngestList: (paths: WorkPaths) => withFs(readIngestList(paths)),
    /** Appends rows with one write (C1). */
    appendIngestRows: (paths: WorkPaths, rows: ReadonlyArray<IngestRow>) => writing(paths.ingestList, appendIngestRows(paths, rows)),
    /** Rewrites the ingest list to exactly `rows` (R15), atomically. */
    rewriteIngestList: (paths: WorkPaths, rows: ReadonlyArray<IngestRow>) => writing(paths.ingestList, rewriteIngestList(paths, rows)),
    /** The journal's entries (R7); StoreReadError. */
    readJournal: (paths: WorkPaths) => withFs(readJournal(paths)),
    /** Appends journal entries with one write (C1). */
    appendJournal: (paths: WorkPaths, entries: ReadonlyArray<JournalEntry>) => writing(paths.journal, appendJournal(paths, entries)),
    /** Starts an empty journal (R7). */
    resetJournal: (paths: WorkPaths) => writing(paths.journal, resetJournal(paths)),
    /** The last progress record, if any (P2, P3); StoreReadError. */
    readProgress: (paths: WorkPaths) => withFs(readProgress(paths)),
    /** When the progress record was last written, ms since the epoch (an ended run: when it ended); `None` when unknown. */
    progressWrittenAt: (paths: WorkPaths) => withFs(progressWrittenAt(paths)),
    /** Replaces the progress record (P2). */
    writeProgress: (paths: WorkPaths, progress: Progress) => writing(paths.progress, writeProgress(paths, progress)),
    /** Removals a crashed run left (R14); StoreReadError. */
    readPendingRemove: (paths: WorkPaths) => withFs(readPendingRemove(paths)),
    /** Removes body-index folders, recorded before and noted in the fresh log (R14, S1). */
    removeBodyFolders: (paths: WorkPaths, removals: ReadonlyArray<Removal>) =>
      withFs(removeBodyFolders(paths, removals)).pipe(
        Effect.mapError((e) => (e._tag === "GramIndexError" ? e : workStoreError(paths.index, e)))
      ),
    /** The origin records (R11); StoreReadError. */
    readOrigins: (paths: WorkPaths) => withFs(readOrigins(paths)),
    /** Describes an index's folder as it is now (R11). */
    describeOrigin: (index: string, folder: string) => withFs(describeOrigin(index, folder)),
    /** Replaces the records of the given indexes (R11). */
    writeOrigins: (paths: WorkPaths, origins: ReadonlyArray<Origin>) =>
      withFs(writeOrigins(paths, origins)).pipe(
        Effect.mapError((e) => (e._tag === "StoreReadError" ? e : workStoreError(paths.origins, e)))
      ),
    /** Opens the run's log (R4), closed with the scope; the older logs rotated (five kept), its own troubles said in `language`. */
    openRunLog: (paths: WorkPaths, header: ReadonlyArray<string>, echo?: LogEcho, language?: Language) => openRunLog(paths, header, echo, language),

    // The body index (C2, W1).
    /** Empties `dir` and opens it for writing part by part (W1), closed with the scope. */
    openStagingFolder: (dir: string): Effect.Effect<StagingFolder<WorkStoreError>, WorkStoreError, Scope.Scope> =>
      writing(dir, openStagingFolder(dir)).pipe(Effect.map(staging)),
    /** Writes an extraction held in memory into the staging folder `dir`; the number of TSVs. */
    stageExtraction: (dir: string, extraction: Extraction) => writing(dir, stageExtraction(dir, extraction)),
    /**
     * Writes the staging folder `dir`'s `.complete` mark, last (C2, R7): the size and modified
     * time of `source` (issue 14), read now. Given `sieves` (the work folder's `sieves` path), a
     * big folder's sieve is then written there (S2, gram/sieve.ts); a sieve that cannot be
     * written is left out (it only saves a search a read).
     */
    completeStaging: (dir: string, source: string, sieves?: string) =>
      writing(dir, Effect.flatMap(completeMarkOf(source), (mark) => writeCompleteMark(dir, stagingCompleteMark, mark))).pipe(
        Effect.tap(() =>
          sieves === undefined ? Effect.void : Effect.sync(() => {
            try {
              const folder = completeFolderIn(dir, "", "")
              if (folder !== undefined) writeFolderSieve(sieves, folder)
            } catch {
              // S2: without its sieve, a search reads the folder's text instead.
            }
          })
        )
      ),
    /** Removes the staging folder `dir` and what is in it (a file that is not done leaves none). */
    discardStaging: (dir: string) => writing(dir, fs.remove(dir, { recursive: true, force: true })),
    /** Notes, then publishes a staged folder as a source file's body-index folder (C2, S1). */
    publishSourceFolder: (paths: WorkPaths, index: string, relPath: string, staged: string) =>
      publishSourceFolder(paths, index, relPath, staged).pipe(
        Effect.mapError((e) => (e._tag === "GramIndexError" ? e : workStoreError(staged, e)))
      ),
    /** Whether the staging folder `dir` holds its `.complete` mark (written last: its TSVs are whole, R7). */
    isStagingComplete: (dir: string) =>
      fs.exists(path.join(dir, stagingCompleteMark)).pipe(Effect.orElseSucceed(() => false)),
    /**
     * C2: the longest body-index path, in bytes, the TSVs staged in `dir` would take as the
     * folder of `index`/`relPath`; `undefined` when `dir` cannot be read. Synchronous: the
     * result decision asks it as a thunk, once per done file, on the run's per-file path (the
     * one `readdir` of body_index.ts `publishFolder`, measured there).
     */
    stagedPathBytes: (paths: WorkPaths, index: string, relPath: string, dir: string): number | undefined => {
      let names: Array<string>
      try {
        names = nodeFs.readdirSync(dir) // sync: see above
      } catch {
        return undefined
      }
      return longestPathBytes(bodyFolderOf(paths, index, relPath), names)
    },
    /** R7: empties the staging area `publish/` (after the previous run's folders were recovered). */
    clearStagingArea: (paths: WorkPaths) => writing(paths.publish, fs.remove(paths.publish, { recursive: true, force: true })),
    /** R15: empties this process's staging folders and `tmp/` (the finally step). */
    emptyWorkArea: (paths: WorkPaths) =>
      writing(paths.tmp, Effect.all([
        fs.remove(path.join(paths.publish, String(process.pid)), { recursive: true, force: true }),
        fs.remove(paths.tmp, { recursive: true, force: true }),
        fs.makeDirectory(paths.tmp, { recursive: true })
      ], { discard: true })),
    /** Removes one source file's TSVs from the body index. */
    removeBodyFolder: (paths: WorkPaths, index: string, relPath: string) =>
      writing(paths.index, removeBodyFolder(paths, index, relPath)),

    // The body index as the team server publishes it (issue 18): each source file's folder read whole.
    // Sync reads, as the 2-gram round's walk they share (body_walk.ts); a read that failed is a StoreReadError.
    /** Every source file's body-index folder (a folder holding a TSV), in no particular order. */
    walkBodyIndex: (paths: WorkPaths) => readingBody(paths.index, () => walkBodyIndex(paths.index)),
    /** The body-index folder of `index`/`relPath` (`/`-separated) as the walk lists it; `undefined` when it holds no TSV or is gone. */
    bodyFolderAt: (paths: WorkPaths, index: string, relPath: string) =>
      readingBody(paths.index, () => bodyFolderAt(paths.index, index, relPath)),
    /** A folder's TSVs read whole and parsed, in part order; `undefined` when the folder or a TSV vanished meanwhile (read it again). */
    readBodyFolderParts: (folder: BodyFolder) => readingBody(folder.dir, () => readBodyFolderParts(folder)),
    /** The source file's size and modified time its folder's `.complete` mark holds (issue 14); `undefined` when it holds none. */
    sourceStampOf: (folder: BodyFolder) => Effect.sync(() => sourceStampOf(folder.dir)),

    // The 2-gram index (S1, R16).
    /** Makes sure the gram folder has a current manifest with a fresh log (S1); GramIndexError. */
    ensureFreshLog: (paths: WorkPaths) => ensureFreshLog(paths),
    /** Notes changes of the body index in the fresh log before they happen (S1); GramIndexError. */
    noteFresh: (paths: WorkPaths, entries: ReadonlyArray<FreshEntry>) => noteFresh(paths, entries),
    /** Opens a 2-gram round for the run (R16, S1), in the scope. */
    openGramRound: (paths: WorkPaths, options?: GramRoundOptions) => openGramRound(paths, options),
    /** Brings the 2-gram index in line with what a round changed (R16); GramIndexError. */
    updateGramIndexesOfRound: (paths: WorkPaths, changes: RoundChanges, options?: UpdateGramOptions) =>
      updateGramIndexesOfRound(paths, changes, options),

    // Search (S1–S5) inside an Effect program (the cold search uses GramSearcher directly).
    /** Line-level search: the gram index, else a scan of the body index. */
    searchIndex: (paths: WorkPaths, query: string, options?: SearchOptions & SearchBudget) => withFs(searchIndex(paths, query, options)),
    /** File-level search (S5): the gram index, else a scan of the body index. */
    searchIndexFiles: (paths: WorkPaths, query: string, options?: FileSearchOptions & SearchBudget & CountBudget) =>
      withFs(searchIndexFiles(paths, query, options)),

    // Index management (issue 16).
    /** The settings' indexes with the ingest list's counts. */
    listIndexes: (paths: WorkPaths) => withFs(listIndexes(paths)),
    /** One edit of the indexes, decided by the domain and carried out (IndexEditError). */
    editIndexes: (paths: WorkPaths, edit: IndexEdit, options?: EditIndexesOptions) => withFs(editIndexes(paths, edit, options))
  }
})

/**
 * The work folder on disk as a service (see the module doc). `WorkStore.Default`
 * runs over Node's file system; `WorkStore.DefaultWithoutDependencies` over
 * the `FileSystem` the caller provides. Each method is also a static accessor
 * (`WorkStore.readSettings(paths)`), for callers that need one call.
 */
export class WorkStore extends Effect.Service<WorkStore>()("@sagasu/store/WorkStore", {
  effect: make,
  dependencies: [NodeFileSystem.layer],
  accessors: true
}) {}
