/**
 * What every step of the indexing run shares (private to `run_indexer.ts`
 * and its helpers): the options of {@link RunIndexerOptions}, the one
 * {@link RunContext} the steps take instead of long parameter lists, the
 * commander's ledger {@link RunState}, and the few questions to the disk
 * the domain's decisions ask.
 *
 * @module
 */
import {
  type CrawledFile, type FailedFile, type Language, type ProgressEvent, type Settings, type StagedFile, type Target, type TeamServerSettings, type WorkerKind,
  describeWorkFolderError, logTimestamp, type messages
} from "@sagasu/domain"
import type { GramUpdateSummary, RunLog, WorkPaths, WorkStore } from "@sagasu/store"
import type { TeamError, TeamRound, TeamSink } from "@sagasu/team"
import { Data, Duration, type Effect, type Fiber, type Layer, Option, type Scope } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import type { IndexerChannel } from "./channel.ts"
import { type IngestWorkers, threadWorkersLayer } from "./workers.ts"

/** Source files whose body-index folders changed in a round: what R16 brings the 2-gram index in line with. */
export interface RoundChanges {
  readonly published: ReadonlyArray<{ readonly index: string; readonly path: string }>
  readonly removed: ReadonlyArray<{ readonly index: string; readonly path: string }>
}

/**
 * R16 overlapped with ingesting (issue 9) and the 2-gram index kept live (S1):
 * opened when the workers start, told after every folder is published (the
 * store noted it in the fresh log before), finished at the end of a run that
 * was neither stopped nor lost a folder (instead of
 * {@link RunIndexerOptions.updateGram}), closed as soon as the run will not
 * get there — which makes what it built live and leaves the rest in the fresh
 * tail, so a stop hides nothing. The store's `openGramRound`.
 */
export interface GramRoundHook {
  /** Called after each publish (the store noted the folder in the fresh log before it). */
  readonly noted: Effect.Effect<void>
  /** Its result, when a {@link GramUpdateSummary}, goes to the log. */
  readonly finish: (changes: RoundChanges) => Effect.Effect<unknown, unknown>
  readonly close: Effect.Effect<void>
  /**
   * Completes when the round's fresh tail is short enough for another file
   * to be handed over (issue 13, S1, S2: a round that falls behind — a busy
   * machine, a long merge — would let the tail, which every search reads
   * whole, grow without bound). Absent: no pacing.
   */
  readonly pace?: Effect.Effect<void>
}

/** LibreOffice as the log header names it (R4): its version (`undefined`: not installed) and the Debian packages that install it. */
export interface LibreOfficeInfo {
  readonly version: string | undefined
  readonly packages: ReadonlyArray<string>
}

/** Options of `runIndexer`. */
export interface RunIndexerOptions {
  /** The work folder. */
  readonly work: string
  /** The product version for the log header (R4). */
  readonly version: string
  /**
   * The ` --work DIR` a command the run suggests repeats (`sagasu disable 共有 --work DIR`: the CLI's
   * `workHint`), "" or absent when none is needed (the default work folder, the GUI).
   */
  readonly nextStepWork?: string
  /** How long to wait for the plan's answer (R10; default 60 minutes). */
  readonly answerTimeout?: Duration.DurationInput
  /**
   * The workers of the run, made once the settings are known (default: worker threads, no Office),
   * given the work folder's paths as the run resolved them (its real path, R3: the Office profiles
   * live in its work area).
   */
  readonly workers?: (settings: Settings, paths: WorkPaths) => Layer.Layer<IngestWorkers>
  /** The R16 hook: bring the 2-gram index in line with what this round changed (a {@link GramUpdateSummary} result goes to the log). */
  readonly updateGram?: (paths: WorkPaths, changes: RoundChanges) => Effect.Effect<unknown, unknown>
  /** R16 started while ingesting ({@link GramRoundHook}); without it, all of R16 runs at the end through `updateGram`. */
  readonly gramRound?: (paths: WorkPaths) => Effect.Effect<GramRoundHook, never, Scope.Scope>
  /**
   * LibreOffice for the log header (R4): its version, or `undefined` when it is not installed (the
   * header then says what fails and which Debian `packages` to install). Absent: no such line. A
   * function is asked once the lock is taken, with the work folder's paths (where it may keep
   * what it found: issue 20).
   */
  readonly libreOffice?: LibreOfficeInfo | ((paths: WorkPaths) => Effect.Effect<LibreOfficeInfo>)
  /**
   * The team server's sink (issue 18), made from the `teamServer` setting when a run publishes
   * (domain `decideTeamPublish`); default PostgreSQL's (`pgSinkLayer`).
   */
  readonly teamSink?: (server: TeamServerSettings) => Layer.Layer<TeamSink, TeamError>
}

/**
 * A run-level failure with the message that goes to `channel.error` (R18); `logged` when the log has
 * it already; `workFolder` when the message is the system's words for an I/O error of the work
 * folder ({@link runFailureMessage} says a full disk in the run's language).
 */
export class RunFailure extends Data.TaggedError("RunFailure")<{
  readonly message: string
  readonly logged?: boolean
  readonly workFolder?: boolean
}> {}

/** An I/O failure of the store as the run's failure (R18). */
export const ioFailure = (e: { readonly message: string }) => new RunFailure({ message: e.message, workFolder: true })

/** The message a person reads for `failure`: a full disk of the work folder in words (R18, `describeWorkFolderError`). */
export const runFailureMessage = (failure: RunFailure, language: Language) =>
  failure.workFolder === true ? describeWorkFolderError(failure.message, language) : failure.message

/** The message catalogue of the run's language. */
export type Text = ReturnType<typeof messages>

/** What every step of a run is given: the channel, the options, the store and the work folder, the log, the language and the progress writer. */
export interface RunContext {
  readonly channel: IndexerChannel
  readonly options: RunIndexerOptions
  /** The work folder's store (every read and write of it). */
  readonly store: WorkStore
  readonly paths: WorkPaths
  readonly log: RunLog
  readonly language: Language
  readonly text: Text
  /** P1, P2: the next progress, into the channel and `progress.json` (a failure to write it is ignored). */
  readonly progress: (event: ProgressEvent) => Effect.Effect<void>
}

/** A dispatched file: its target number (1-based), worker kind and number, staging folder (relative to the work folder), fiber. */
export interface InFlight {
  readonly n: number
  readonly target: CrawledFile
  kind: WorkerKind
  worker: number
  staging: string
  fiber: Fiber.RuntimeFiber<void>
}

/**
 * The commander's ledger while ingesting: only the commander fiber touches
 * it; the domain decides from what it holds (`dispatchHalted`, `settleRun`).
 */
export interface RunState {
  readonly targets: ReadonlyArray<Target>
  /** The target folder of each selected index. */
  readonly folders: ReadonlyMap<string, string>
  stopped: boolean
  /** The message of a lost target folder (R13): exit 1, the rest stays pending. */
  folderLost: string | undefined
  /** Set when the work folder could not take a file's TSVs (disk full, …): R18, exit 1, the file stays pending. */
  workFolderError: string | undefined
  /** Set when the finally step itself failed (disk full, …): the run ends with exit code 1 (R18). */
  finallyError: string | undefined
  done: number
  readonly failed: Array<FailedFile>
  staged: Array<StagedFile>
  readonly published: Array<{ index: string; path: string }>
  readonly removed: Array<{ index: string; path: string }>
  readonly removedKeys: Set<string>
  /** R16 under way while ingesting; dropped (and discarded) once the run cannot end with R16. */
  round: GramRoundHook | undefined
  /** Issue 18: the published folders sent to the team server while ingesting (flipped visible at the end). */
  readonly team: TeamRound | undefined
}

/** A fresh ledger for `targets` of the `selected` indexes, the vanished files already removed (R8). */
export const makeRunState = (options: {
  readonly targets: ReadonlyArray<Target>
  readonly selected: ReadonlyArray<{ readonly name: string; readonly path: string }>
  readonly vanished: ReadonlyArray<{ readonly index: string; readonly path: string }>
  readonly round: GramRoundHook | undefined
  readonly team?: TeamRound | undefined
}): RunState => ({
  targets: options.targets,
  folders: new Map(options.selected.map((t) => [t.name, t.path])),
  stopped: false,
  folderLost: undefined,
  workFolderError: undefined,
  finallyError: undefined,
  done: 0,
  failed: [],
  staged: [],
  published: [],
  removed: options.vanished.map((r) => ({ index: r.index, path: r.path })),
  removedKeys: new Set(),
  round: options.round,
  team: options.team
})

/** The workers when the options give none: worker threads, no Office (W2). */
export const defaultWorkers = (settings: Settings) =>
  threadWorkersLayer({
    threads: settings.ingestThreads ?? os.availableParallelism(),
    fileTimeout: Duration.minutes(settings.fileTimeoutMinutes)
  })

/**
 * False when `p` is missing or is not a regular file; true for a regular file, and when it cannot
 * be told (permission denied on the way: the worker then fails it as unreadable, to be retried).
 */
export const isRegularFileOrUnknown = (p: string) => {
  try {
    return fs.statSync(p).isFile()
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    return code !== "ENOENT" && code !== "ENOTDIR"
  }
}

/** Whether `p` is a folder (false when it cannot be told). */
export const isFolder = (p: string) => {
  try {
    return fs.statSync(p).isDirectory()
  } catch {
    return false
  }
}

/**
 * The log header's lines (R4), in the run's language: version and start time, environment, work
 * folder, LibreOffice (`libreOffice`, the options' as the run found it), and the settings summary
 * with each index when the settings are readable. `nowMs` and `utcOffsetMinutes` (east of UTC)
 * make the start time (`logTimestamp`).
 */
export const logHeader = (
  paths: WorkPaths,
  options: RunIndexerOptions,
  settings: Option.Option<Settings>,
  text: Text,
  at: { readonly nowMs: number; readonly utcOffsetMinutes: number },
  libreOffice: LibreOfficeInfo | undefined
) => {
  const lines = [
    text.logStarted(options.version, logTimestamp(at.nowMs, at.utcOffsetMinutes)),
    text.logEnvironment({
      os: `${os.type()} ${os.release()} (${os.arch()})`, node: process.version, cpus: os.availableParallelism(), pid: process.pid
    }),
    text.logWorkFolder(paths.root),
    ...(libreOffice === undefined ? [] : [text.logLibreOffice(libreOffice.version, libreOffice.packages)])
  ]
  return Option.match(settings, {
    onNone: () => lines,
    onSome: (s) => [...lines, text.logSettings(s, os.availableParallelism()), ...s.targetFolders.map((t) => text.logIndex(t))]
  })
}

/** Minutes east of UTC at `ms` on this machine (the log's times, R4). */
export const utcOffsetAt = (ms: number) => -new Date(ms).getTimezoneOffset()
