/**
 * `@sagasu/store`: the work folder on disk — its layout, settings, ingest
 * list, body index and the first (scanning) search. Every write is atomic
 * and done by one writer (STYLE rule 7).
 *
 * @example
 * ```ts
 * import { checkWorkFolder, readSettings } from "@sagasu/store"
 * const paths = yield* checkWorkFolder("/home/me/.local/share/sagasu")
 * const settings = yield* readSettings(paths)
 * ```
 *
 * @module
 */
export * from "./body_index.ts"
export * from "./crash_point.ts"
export * from "./ingest_list_store.ts"
export * from "./search_scan.ts"
export * from "./settings_store.ts"
export * from "./work_folder.ts"
export { writeFileAtomic } from "./_atomic.ts"
export * from "./index_admin.ts"
export { hitContexts, maxContextTsvBytes } from "./hit_context.ts"
export * from "./journal_store.ts"
export * from "./legacy_layout.ts"
export * from "./leftover_processes.ts"
export * from "./lock.ts"
export * from "./origins.ts"
export * from "./pending_remove.ts"
export * from "./progress_store.ts"
export { StoreReadError } from "./read_error.ts"
export * from "./run_log.ts"
export * from "./search.ts"
export { GramSearcher, type MatchedLine, type SearchControl, type SearchOutcome, queryWithOptions, type SearchOptions } from "./gram/searcher.ts"
export type { FileSearchControl, FileSearchOptions, FileSearchOutcome } from "./gram/file_search.ts"
export { pageOfDecided } from "./search_scan.ts"
export { type FileHit, type HitLocator, type SearchTotals, nameHitOf } from "./search_hit.ts"
export * from "./work_paths.ts"
export {
  type GramUpdateSummary,
  type RoundChanges,
  type SourceRef,
  type UpdateGramOptions,
  updateGramIndexesOfRound
} from "./gram/update.ts"
export { type GramRound, type GramRoundOptions, defaultRoundBuilderBytes, openGramRound } from "./gram/round.ts"
export { GramIndexError } from "./gram/manifest.ts"
export { type FreshEntry, ensureFreshLog, noteFresh } from "./gram/fresh.ts"
export { type BodyFolder, bodyFolderAt, readBodyFolderParts, sourceStampOf, stagingCompleteMark, walkBodyIndex } from "./gram/body_walk.ts"
export { type DecidedFile, type Filters, decideParts, filtersOf } from "./gram/file_search.ts"
export type { FreshPart } from "./gram/fresh_doc.ts"
