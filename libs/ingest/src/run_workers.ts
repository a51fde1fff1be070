/**
 * The workers of a real run (W1–W4): plain worker threads plus the three
 * Office owners, each owner reached through the same `IngestFile` message and
 * staging its TSVs like a plain worker, so the commander cannot tell them
 * apart except by their worker kind.
 *
 * @module
 */
import { CommandExecutor, type FileSystem } from "@effect/platform"
import type { IngestResult, Settings } from "@sagasu/domain"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { type WorkPaths, WorkStore, stagingWriteFailure } from "@sagasu/store"
import { gramRoundThread } from "./gram_thread.ts"
import { Duration, Effect, Layer, Option } from "effect"
import * as fsSync from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { libreOfficePackages } from "./office/office_failure.ts"
import { makeOfficeOwners, officeVersion } from "./office/office_owner.ts"
import type { RunIndexerOptions } from "./run_indexer.ts"
import { workAreaTooFull, workFolderFailure } from "./work_area_space.ts"
import { type IngestWorkers, type OfficeIngest, threadWorkersLayer } from "./workers.ts"

/** Options of {@link standardWorkersLayer}. */
export interface StandardWorkersOptions {
  /** The LibreOffice command (default `soffice`). */
  readonly officeCommand?: string
}

/**
 * Plain workers (`ingestThreads`, default CPU count) and the Office owners
 * (their LibreOffice started only when a file needs it, recycled after
 * `officeRecycleAfter` files), with the per-file limit `fileTimeoutMinutes`.
 * Everything ends when the layer's scope closes (R15).
 */
export const standardWorkersLayer = (
  paths: WorkPaths,
  settings: Settings,
  options: StandardWorkersOptions = {}
): Layer.Layer<IngestWorkers, never, CommandExecutor.CommandExecutor | FileSystem.FileSystem | WorkStore> =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const fileTimeout = Duration.minutes(settings.fileTimeoutMinutes)
      const owners = yield* makeOfficeOwners({
        workArea: paths.tmp,
        recycleAfter: settings.officeRecycleAfter,
        timeout: fileTimeout,
        ...(options.officeCommand !== undefined ? { command: options.officeCommand } : {})
      })
      const store = yield* WorkStore
      const office: OfficeIngest = (app, request) => {
        // R18 (issue 15): LibreOffice on a (nearly) full disk dies or hangs instead of failing; it is not asked.
        const tooFull = workAreaTooFull(paths.tmp, sizeOf(request.source))
        if (tooFull !== undefined) return Effect.succeed<IngestResult>({ status: "failed", failure: tooFull, log: [] })
        return owners[app].ingest(request.source).pipe(
          Effect.flatMap((read) =>
            store.stageExtraction(request.staging, read.extraction).pipe(
              // No sieve written here (S2): this runs on the commander's thread, which a GUI answers on;
              // a search sieves such a folder itself (sieve.ts).
              Effect.tap(() => store.completeStaging(request.staging, request.source)),
              Effect.map((tsvCount): IngestResult => ({
                status: "done", tsvCount, log: [...read.log],
                lines: read.extraction.parts.reduce((n, part) => n + part.lines.length, 0)
              })),
              Effect.catchAll((e) =>
                Effect.succeed<IngestResult>({
                  status: "failed", failure: stagingWriteFailure(e.detail), log: [] // R18: a work-folder fault, not the file's
                })
              )
            )
          ),
          Effect.catchTag("OfficeFailure", (e) =>
            Effect.sync((): IngestResult => {
              // R18 (issue 15): LibreOffice failing for the work area's full disk is not the file's failure.
              const full = workFolderFailure(e, { workArea: paths.tmp, sourceBytes: sizeOf(request.source) })
              // The failure is the block's first line (R4), said once.
              return { status: "failed", failure: full ?? { reason: e.reason, detail: e.detail }, log: [] }
            })
          )
        )
      }
      return threadWorkersLayer({
        threads: settings.ingestThreads ?? os.availableParallelism(),
        fileTimeout,
        office
      })
    })
  )

const sizeOf = (file: string) => {
  try {
    return fsSync.statSync(file).size
  } catch {
    return 0
  }
}

/**
 * The options every front end runs with (CLI and GUI alike): the standard
 * workers, the LibreOffice version (or how to install it) in the log header
 * (R4), and the 2-gram update as the R16 hook, started while ingesting. Needs a CommandExecutor
 * to ask LibreOffice for its version, and the WorkStore the run and its workers write through.
 */
export const standardRunOptions = (
  work: string,
  version: string
): Effect.Effect<RunIndexerOptions, never, CommandExecutor.CommandExecutor | WorkStore> =>
  Effect.gen(function* () {
    const executor = yield* CommandExecutor.CommandExecutor
    const store = yield* WorkStore
    return {
      work,
      version,
      workers: (settings, paths) =>
        standardWorkersLayer(paths, settings).pipe(Layer.provide(Layer.succeed(WorkStore, store)), Layer.provide(NodeContext.layer)),
      // Asked once the lock is taken; kept in the work folder while the installed files stay the same (issue 20).
      libreOffice: (paths) =>
        officeVersion({ cacheFile: path.join(paths.store, "office_version.json") }).pipe(
          Effect.map((version) => ({ version: Option.getOrUndefined(version), packages: libreOfficePackages })),
          Effect.provideService(CommandExecutor.CommandExecutor, executor)
        ),
      updateGram: (paths, changes) => store.updateGramIndexesOfRound(paths, changes),
      gramRound: (paths) => gramRoundThread(paths).pipe(Effect.provideService(WorkStore, store))
    } satisfies RunIndexerOptions
  })
