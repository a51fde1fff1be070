/**
 * `@sagasu/store/testing`: the store's test layer (STYLE rule 4, issue 17),
 * for tests and tools only (never imported by production code;
 * tools/src/dependency_rule.ts checks it).
 *
 * {@link WorkStoreTest} provides the {@link WorkStore} over Node's file
 * system and a {@link TestWorkFolder}: a work folder initialised with the
 * default settings in a temporary folder of its own, removed with everything
 * in it when the layer's scope closes.
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { NodeContext, NodeFileSystem } from "@effect/platform-node"
import { defaultSettings } from "@sagasu/domain"
import { Context, Effect, Layer, Scope } from "effect"
import { formatSettings } from "./settings_store.ts"
import type { WorkPaths } from "./work_paths.ts"
import { WorkStore } from "./work_store.ts"

/** The temporary work folder of a test. */
export interface TestWorkFolderShape {
  /** Its paths (its real path's, as `initWorkFolder` gives them). */
  readonly paths: WorkPaths
  /** Another empty temporary folder, removed with the test's scope (for a folder that is not a work folder yet). */
  readonly tempDir: Effect.Effect<string>
}

/** The test's temporary work folder (see {@link WorkStoreTest}). */
export class TestWorkFolder extends Context.Tag("@sagasu/store/TestWorkFolder")<TestWorkFolder, TestWorkFolderShape>() {}

const testWorkFolder = Layer.scoped(
  TestWorkFolder,
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const store = yield* WorkStore
    const scope = yield* Effect.scope
    const tempDir = fs.makeTempDirectoryScoped({ prefix: "sagasu-store-" }).pipe(Scope.extend(scope), Effect.orDie)
    const paths = yield* store.initWorkFolder(yield* tempDir, formatSettings(defaultSettings)).pipe(Effect.orDie)
    return { paths, tempDir }
  })
)

/** {@link WorkStore} and a fresh {@link TestWorkFolder}, over Node's file system; the folder goes when the scope closes. */
export const WorkStoreTest: Layer.Layer<WorkStore | TestWorkFolder | FileSystem.FileSystem> = testWorkFolder.pipe(
  Layer.provideMerge(WorkStore.Default),
  Layer.provideMerge(NodeFileSystem.layer)
)

/*
 * The store's operations as free functions over the `FileSystem` in the
 * context, for tests and tools that set up or look into a work folder
 * (fixtures, benchmarks, the chaos harness) without going through the
 * service. Production code uses {@link WorkStore}.
 */
export { appendIngestRows, readIngestList, rewriteIngestList } from "./ingest_list_store.ts"
export { appendJournal, readJournal, resetJournal } from "./journal_store.ts"
export { completeMarkOf, openStagingFolder, publishFolder, publishSourceFolder, removeBodyFolder, stageExtraction } from "./body_index.ts"
export { acquireLock, isLockHeld } from "./lock.ts"
export { describeOrigin, readOrigins, writeOrigins } from "./origins.ts"
export { readPendingRemove, removeBodyFolders } from "./pending_remove.ts"
export { readProgress, writeProgress } from "./progress_store.ts"
export { openRunLog } from "./run_log.ts"
export { readSettings, writeSettings } from "./settings_store.ts"
export { checkWorkFolder, initWorkFolder } from "./work_folder.ts"
export { openGramSearcher, searchIndex, searchIndexFiles } from "./search.ts"
export { scanBodyIndex, scanBodyIndexFiles } from "./search_scan.ts"
export { updateGramIndexesOfRound } from "./gram/update.ts"
export { openGramRound } from "./gram/round.ts"
export { ensureFreshLog, noteFresh } from "./gram/fresh.ts"
// The 2-gram index's own pieces, for the builder and merge benchmarks (tools/src/bench/gram_build.ts, gram_merge.ts).
export { tsvSourcesOf, walkBodyIndex } from "./gram/body_walk.ts"
export { readManifestSync } from "./gram/manifest_format.ts"
export { DocFeed, SegmentBuilder } from "./gram/segment_builder.ts"
export { mergeSegments } from "./gram/segment_merge.ts"
export { SegmentReader } from "./gram/segment_reader.ts"
export { editIndexes, listIndexes } from "./index_admin.ts"
export { endLeftoverProcesses, findLeftoverProcesses, leftoverMarker } from "./leftover_processes.ts"

/** Node's platform services and {@link WorkStore} over Node's file system: what a test of a run or a worker provides. */
export const NodeWithWorkStore: Layer.Layer<NodeContext.NodeContext | WorkStore> = Layer.merge(NodeContext.layer, WorkStore.Default)
