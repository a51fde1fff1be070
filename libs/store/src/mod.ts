/**
 * `@sagasu/store`: the work folder on disk — its layout, settings, ingest
 * list, body index, 2-gram index and searches. Every write is atomic and
 * done by one writer (STYLE rule 7). Everything that touches the disk is a
 * method of the {@link WorkStore} service (issue 17); the cold search's
 * `GramSearcher`, `hitContexts` and `workPaths` are Effect-free and stand
 * alone. Tests get a temporary work folder from `@sagasu/store/testing`.
 *
 * @example
 * ```ts
 * import { WorkStore } from "@sagasu/store"
 * const program = Effect.gen(function* () {
 *   const store = yield* WorkStore
 *   const paths = yield* store.checkWorkFolder("/home/me/.local/share/sagasu")
 *   return yield* store.readSettings(paths)
 * }).pipe(Effect.provide(WorkStore.Default))
 * ```
 *
 * @module
 */
// The service: every read and write of the work folder.
export { WorkStore, WorkStoreError } from "./work_store.ts"

// Errors the service's methods fail with.
export { WorkFolderError } from "./work_folder.ts"
export { SettingsError, formatSettings } from "./settings_store.ts"
export { StoreReadError } from "./read_error.ts"
export { LockError, lockAddress } from "./lock.ts"
export { GramIndexError } from "./gram/manifest.ts"
export {
  type EditIndexesOptions, IndexEditError, type IndexEditOutcome, type IndexListing
} from "./index_admin.ts"

// Shapes and pure helpers of the work folder.
export * from "./work_paths.ts"
export {
  type StagingFolder, bodyFolderOf, longestPathBytes, maxPathBytes, stagingWriteFailure
} from "./body_index.ts"
export { crashPoint, type CrashPointName } from "./crash_point.ts"
export type { Origin } from "./origins.ts"
export type { Removal } from "./pending_remove.ts"
export type { LogEcho, LogLevel, LogLineKind, RunLog } from "./run_log.ts"
export type { LeftoverProcess } from "./leftover_processes.ts"
export type { CountBudget, FileSearchResult, SearchBudget, SearchResult } from "./search.ts"
export {
  type GramUpdateSummary,
  type RoundChanges,
  type SourceRef,
  type UpdateGramOptions
} from "./gram/update.ts"
export { type GramRound, type GramRoundOptions, defaultRoundBuilderBytes } from "./gram/round.ts"
export type { FreshEntry } from "./gram/fresh.ts"
export { type BodyFolder, stagingCompleteMark } from "./gram/body_walk.ts"
export { sieveFileMinBytes } from "./gram/sieve.ts"

// The cold search (Effect-free: ARCHITECTURE.md).
export { GramSearcher, type MatchedLine, type SearchControl, type SearchOutcome, queryWithOptions, type SearchOptions } from "./gram/searcher.ts"
export type { FileSearchControl, FileSearchOptions, FileSearchOutcome } from "./gram/file_search.ts"
export { type FileHit, type HitLocator, type SearchHit, type SearchTotals, nameHitOf } from "./search_hit.ts"
export { hitContexts, maxContextTsvBytes } from "./hit_context.ts"

// The file-level decision and page of the scan, pure, shared with the team server's search (issue 18).
export { type DecidedFile, type Filters, decideParts, filtersOf } from "./gram/file_search.ts"
export type { FreshPart } from "./gram/fresh_doc.ts"
export { pageOfDecided } from "./search_scan.ts"
