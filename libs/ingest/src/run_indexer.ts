/**
 * The indexing run (インデックス作成, SPEC §1, the seed's first flowchart):
 * the commander that checks the work folder, takes the lock, opens the log,
 * recovers the previous run's journal, crawls, decides and confirms the
 * targets, dispatches them to the workers, records and publishes results, and
 * runs the finally step — every decision taken by a pure function of
 * `@sagasu/domain`.
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import {
  type CrawledFile,
  type ExitCode,
  type FailedFile,
  type Failure,
  type IngestRow,
  type Language,
  type PlanAnswer,
  type ProgressEvent,
  type Settings,
  type StagedFile,
  type TargetList,
  type WorkerKind,
  closingMessage,
  computeTargetList,
  decideOnResult,
  fileKey,
  foldersReadyToPublish,
  makePlan,
  messages,
  nextProgress,
  pickNextDispatch,
  plainQueueFiles,
  recoverFromJournal,
  selectIndexes,
  sourceFolderOf,
  workerKindOf
} from "@sagasu/domain"
import {
  type GramUpdateSummary,
  type RunLog,
  type WorkPaths,
  acquireLock,
  appendIngestRows,
  appendJournal,
  bodyFolderOf,
  checkWorkFolder,
  crashPoint,
  describeOrigin,
  endLeftoverProcesses,
  ensureFreshLog,
  noteFresh,
  hasLegacyLayoutMarks,
  longestPathBytes,
  maxPathBytes,
  openRunLog,
  publishSourceFolder,
  readIngestList,
  readJournal,
  readPendingRemove,
  readSettings,
  removeBodyFolders,
  removeOldSystemIndex,
  resetJournal,
  rewriteIngestList,
  writeOrigins,
  writeProgress
} from "@sagasu/store"
import { Cause, Clock, Context, Data, Deferred, Duration, Effect, Fiber, Layer, Option, Queue, Ref, type Scope, Stream, SubscriptionRef } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { IndexerChannel } from "./channel.ts"
import { crawlFolder } from "./crawl.ts"
import { stagingCompleteMark } from "./ingest_one.ts"
import { IngestFile } from "./ingest_request.ts"
import { IngestWorkers, threadWorkersLayer } from "./workers.ts"

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
}

/** Options of {@link runIndexer}. */
export interface RunIndexerOptions {
  /** The work folder. */
  readonly work: string
  /** The product version for the log header (R4). */
  readonly version: string
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
  /** Lines added to the log header (e.g. the LibreOffice version, R4). */
  readonly headerExtra?: ReadonlyArray<string>
}

// A run-level failure with the message that goes to `channel.error` (R18).
class RunFailure extends Data.TaggedError("RunFailure")<{ readonly message: string; readonly logged?: boolean }> {}

// How the main part of a run ended, before the closing message.
type MainOutcome =
  | { readonly _tag: "error"; readonly message: string }
  | { readonly _tag: "cancelled" } // stop during crawl, cancel or no answer at the confirmation
  | { readonly _tag: "noTargets"; readonly message: string; readonly changes: RoundChanges }
  | { readonly _tag: "ingested"; readonly state: RunState }

// The commander's mutable state while ingesting; only the commander fiber touches it.
interface RunState {
  readonly targets: ReadonlyArray<CrawledFile>
  readonly folders: ReadonlyMap<string, string>
  stopped: boolean
  folderLost: Option.Option<string>
  /** Set when the work folder could not take a file's TSVs (disk full, …): R18, exit 1, the file stays pending. */
  workFolderError: Option.Option<string>
  done: number
  readonly failed: Array<FailedFile>
  staged: Array<StagedFile>
  readonly published: Array<{ index: string; path: string }>
  readonly removed: Array<{ index: string; path: string }>
  readonly removedKeys: Set<string>
  /** Set when the finally step itself failed (disk full, …): the run ends with exit code 1 (R18). */
  finallyError: Option.Option<string>
  /** R16 under way while ingesting; dropped (and discarded) once the run cannot end with R16. */
  round: GramRoundHook | undefined
}

/**
 * Runs one indexing run on `options.work` with `channel` (R1–R18). Never
 * fails and never calls `process.exit`: it returns the exit code (0 completed,
 * 1 error, 2 stopped or cancelled) and sets `channel.exitCode` as its very
 * last act.
 */
export const runIndexer = (
  channel: IndexerChannel,
  options: RunIndexerOptions
): Effect.Effect<ExitCode, never, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const code = yield* runGuarded(channel, options).pipe(
      Effect.catchAll((failure) => Ref.set(channel.error, Option.some(failure.message)).pipe(Effect.as<ExitCode>(1))),
      Effect.catchAllDefect((defect) =>
        Ref.set(channel.error, Option.some(`Unexpected error: ${String(defect)}`)).pipe(Effect.as<ExitCode>(1))
      )
    )
    yield* Deferred.succeed(channel.exitCode, code)
    return code
  })

const runGuarded = (channel: IndexerChannel, options: RunIndexerOptions) =>
  Effect.scoped(
    Effect.gen(function* () {
      // R2: the work folder must be usable; nothing is written otherwise.
      const paths = yield* checkWorkFolder(options.work).pipe(Effect.mapError((e) => new RunFailure({ message: e.message })))
      const settingsForMessages = yield* readSettings(paths).pipe(Effect.option)
      const language: Language = Option.match(settingsForMessages, { onNone: () => "ja", onSome: (s) => s.language })
      const text = messages(language)
      // R3: one run per work folder; when held, nothing is touched (not even the log).
      yield* acquireLock(paths).pipe(
        Effect.mapError((e) => new RunFailure({ message: e.reason === "held" ? text.lockHeld : e.message }))
      )
      // R4: the log, only after the lock.
      const log = yield* openRunLog(paths, yield* logHeader(paths, options, settingsForMessages), channel.echo)
      const progress = (event: ProgressEvent) =>
        SubscriptionRef.updateAndGet(channel.progress, (p) => nextProgress(p, event)).pipe(
          Effect.flatMap((p) => writeProgress(paths, p)),
          Effect.ignore
        )

      const outcome: MainOutcome = yield* runMain(channel, options, paths, log, progress).pipe(
        Effect.catchAll((failure) =>
          (failure.logged === true ? Effect.void : log.write(failure.message, "error")).pipe(
            Effect.as<MainOutcome>({ _tag: "error", message: failure.message })
          )
        ),
        Effect.catchAllDefect((defect) => {
          const message = `Unexpected error: ${String(defect)}`
          return log.write(message, "error").pipe(Effect.as<MainOutcome>({ _tag: "error", message }))
        })
      )

      // R16: the 2-gram index, unless stopped or a folder was lost (still under the lock).
      const settled = yield* settle(channel, options, paths, log, text, outcome, language, progress)
      yield* progress({ _tag: "ended", exitCode: settled.code, current: settled.message.split("\n")[0] ?? "" })
      if (settled.code === 1) {
        yield* Ref.set(channel.error, Option.some(settled.message))
      } else {
        yield* log.write(settled.message)
        yield* Ref.set(channel.closing, Option.some({ message: settled.message, failed: settled.failed }))
      }
      return settled.code
    })
  )

// The seed's tail: gram update, folder-lost error, closing message (R16, R17).
const settle = (
  channel: IndexerChannel,
  options: RunIndexerOptions,
  paths: WorkPaths,
  log: RunLog,
  text: ReturnType<typeof messages>,
  outcome: MainOutcome,
  language: Language,
  progress: (event: ProgressEvent) => Effect.Effect<void, never, FileSystem.FileSystem>
): Effect.Effect<{ code: ExitCode; message: string; failed: ReadonlyArray<FailedFile> }, never, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const gram = (changes: RoundChanges, round?: GramRoundHook) => {
      const update = round !== undefined ? round.finish(changes) : options.updateGram?.(paths, changes)
      return update === undefined
        ? Effect.void
        : Effect.gen(function* () {
            // P1: `current` says what is happening (also in progress.json, where a reader sees it).
            yield* progress({ _tag: "current", current: text.updatingGram })
            const started = yield* Clock.currentTimeMillis
            yield* update.pipe(
              Effect.flatMap((summary) =>
                Clock.currentTimeMillis.pipe(Effect.flatMap((now) => log.write(gramUpdatedLine(summary, now - started))))
              ),
              Effect.catchAllCause((cause) => log.write(text.gramFailed(String(cause)), "warn"))
            )
          })
    }
    switch (outcome._tag) {
      case "error":
        return { code: 1, message: outcome.message, failed: [] }
      case "cancelled":
        return { code: 2, message: closingMessage(language, { stopped: true, ok: 0, failed: [] }), failed: [] }
      case "noTargets":
        yield* gram(outcome.changes) // R12
        return { code: 0, message: outcome.message, failed: [] }
      case "ingested": {
        const state = outcome.state
        if (!state.stopped && Option.isNone(state.folderLost) && Option.isNone(state.workFolderError) && Option.isNone(state.finallyError)) {
          yield* gram({ published: state.published, removed: state.removed }, state.round)
        }
        if (Option.isSome(state.folderLost)) return { code: 1, message: state.folderLost.value, failed: state.failed }
        if (Option.isSome(state.workFolderError)) return { code: 1, message: state.workFolderError.value, failed: state.failed }
        if (Option.isSome(state.finallyError)) return { code: 1, message: state.finallyError.value, failed: state.failed }
        const message = closingMessage(language, { stopped: state.stopped, ok: state.done, failed: state.failed })
        return { code: state.stopped ? 2 : 0, message, failed: state.failed }
      }
    }
  })

const logHeader = (paths: WorkPaths, options: RunIndexerOptions, settings: Option.Option<Settings>) =>
  Effect.gen(function* () {
    const now = new Date(yield* Effect.clockWith((c) => c.currentTimeMillis))
    const lines = [
      `Sagasu ${options.version} — indexing run started ${now.toISOString()}`,
      `OS: ${os.type()} ${os.release()} (${os.arch()}), Node.js ${process.version}, ${os.availableParallelism()} CPU(s), pid ${process.pid}`,
      `Work folder: ${paths.root}`,
      ...(options.headerExtra ?? [])
    ]
    if (Option.isSome(settings)) {
      const s = settings.value
      lines.push(
        `Settings: ingestThreads ${s.ingestThreads ?? "(CPU count)"}, cloudFiles ${s.cloudFiles}, ` +
          `fileTimeoutMinutes ${s.fileTimeoutMinutes}, officeRecycleAfter ${s.officeRecycleAfter}, language ${s.language}`,
        ...s.targetFolders.map((t) => `Index ${t.name}: ${t.path}${t.enabled ? "" : " (not enabled)"}`)
      )
    }
    return lines
  })

const runMain = (
  channel: IndexerChannel,
  options: RunIndexerOptions,
  paths: WorkPaths,
  log: RunLog,
  progress: (event: ProgressEvent) => Effect.Effect<void, never, FileSystem.FileSystem>
): Effect.Effect<MainOutcome, RunFailure, FileSystem.FileSystem | Scope.Scope> =>
  Effect.gen(function* () {
    // R5: settings and the selected indexes.
    const settings = yield* readSettings(paths).pipe(Effect.mapError((e) => new RunFailure({ message: e.message })))
    const text = messages(settings.language)
    const selection = selectIndexes(settings.targetFolders, channel.onlyNames)
    if (selection._tag === "none") return yield* Effect.fail(new RunFailure({ message: text.noEnabledIndex }))
    yield* Ref.set(channel.onlySkipped, selection.onlySkipped)
    for (const s of selection.onlySkipped) yield* log.write(text.onlyNameSkipped(s.name, s.reason), "warn")
    if (selection._tag === "noneSelected") return yield* Effect.fail(new RunFailure({ message: text.noneOfOnlyNames }))
    const selected = selection.selected
    // The way on (issue 16): the selected indexes whose folders are there, with --only, or disable this one.
    const missing = selected.find((t) => !isFolder(t.path))
    if (missing !== undefined) {
      const others = selected.filter((t) => t !== missing && isFolder(t.path)).map((t) => t.name)
      return yield* Effect.fail(new RunFailure({ message: text.targetFolderMissing(missing.name, missing.path, others) }))
    }

    // R6: older layouts.
    if (yield* hasLegacyLayoutMarks(paths)) yield* log.write(text.legacyIndexNotice, "warn")
    const notRemoved = yield* removeOldSystemIndex(paths)
    if (notRemoved !== undefined) yield* log.write(text.oldSystemIndexNotRemoved(notRemoved), "warn")

    // S1: the fresh log every publish and removal is noted in (made now, before the first run, or
    // after an older version: then it names the whole body index until the round has built it).
    const freshLog = yield* ensureFreshLog(paths).pipe(Effect.either)
    if (freshLog._tag === "Left") yield* log.write(text.gramFailed(freshLog.left.message), "warn")

    // C1, W3: a killed run's LibreOffice keeps running and would capture this run's (same profile).
    for (const p of yield* endLeftoverProcesses(paths)) yield* log.write(`ended a process an interrupted run left: ${p.pid} ${p.command.slice(0, 160)}`, "warn")
    // R7: finish what the previous run left: removals, then unpublished staged folders. A record
    // that exists but cannot be read ends the run here (R18), before anything is reset or deleted.
    yield* readPendingRemove(paths).pipe(Effect.flatMap((removals) => removeBodyFolders(paths, removals)), Effect.mapError(ioFailure))
    const previousRows = yield* readIngestList(paths).pipe(Effect.mapError(ioFailure))
    const recovery = recoverFromJournal(yield* readJournal(paths).pipe(Effect.mapError(ioFailure)), previousRows)
    // R7: a folder that cannot be published is carried over: ingested again in this run, last (C1).
    const inFlight = new Set(recovery.inFlight)
    for (const s of recovery.publish) {
      const staged = path.join(paths.root, s.staging)
      if (fs.existsSync(path.join(staged, stagingCompleteMark))) {
        const published = yield* publishSourceFolder(paths, s.index, s.path, staged).pipe(Effect.either)
        if (published._tag === "Left") {
          inFlight.add(fileKey(s.index, s.path))
          yield* log.write(`not recovered: ${s.index}/${s.path} is ingested again (${describeIoError(published.left.message)})`, "warn", "file")
        } else {
          yield* log.write(`recovered: ${s.index}/${s.path} (published the TSVs staged by an interrupted run)`, "info", "file")
        }
      }
    }
    yield* resetJournal(paths).pipe(Effect.mapError(ioFailure))
    yield* Effect.sync(() => fs.rmSync(paths.publish, { recursive: true, force: true }))

    // R8: crawl each selected index; a stop leaves the rest as it was.
    const crawled: Array<CrawledFile> = []
    const crawledIndexes: Array<string> = []
    // Entries the crawl could not read (a folder without permission, a share glitch): `index/path`.
    const unreadable: Array<string> = []
    let stoppedDuringCrawl = false
    for (const target of selected) {
      if (yield* SubscriptionRef.get(channel.stop)) {
        stoppedDuringCrawl = true
        break
      }
      yield* progress({ _tag: "phase", phase: "crawl", current: text.crawling(target.name, target.path) })
      yield* log.write(text.crawling(target.name, target.path))
      const result = yield* crawlFolder(target.name, target.path).pipe(Effect.mapError((e) => new RunFailure({ message: e.message })))
      for (const s of result.skipped) yield* log.write(`skip: ${target.name}/${s.path} (${s.reason}${s.detail === "" ? "" : `: ${s.detail}`})`, "info", "file")
      for (const s of result.skipped) if (s.reason === "unreadable") unreadable.push(fileKey(target.name, s.path))
      crawled.push(...result.files)
      crawledIndexes.push(target.name)
    }
    if (!stoppedDuringCrawl && (yield* SubscriptionRef.get(channel.stop))) stoppedDuringCrawl = true

    // R8: files under an entry the crawl could not read were not seen, not found gone: like the
    // files of a folder whose crawl was stopped, their rows and body index stay exactly as they were.
    const underUnreadable = (r: IngestRow) => {
      const key = fileKey(r.index, r.path)
      return unreadable.some((u) => key === u || key.startsWith(`${u}/`))
    }
    const shielded = previousRows.filter(underUnreadable)
    const decide = (answer: PlanAnswer): TargetList => {
      const list = computeTargetList(crawled, shielded.length === 0 ? previousRows : previousRows.filter((r) => !underUnreadable(r)), {
        crawledIndexes,
        retryFailed: answer.retryFailed,
        includeCloud: answer.includeCloud,
        inFlight
      })
      return shielded.length === 0 ? list : { ...list, rows: [...list.rows, ...shielded] }
    }
    // Cancel and stop keep the previous rows, minus the vanished files (R8, R10).
    const keepPreviousRows = (list: TargetList) =>
      Effect.gen(function* () {
        yield* removeVanished(paths, log, list)
        const vanished = new Set(list.vanished.map((r) => fileKey(r.index, r.path)))
        yield* rewriteIngestList(paths, previousRows.filter((r) => !vanished.has(fileKey(r.index, r.path)))).pipe(
          Effect.mapError(ioFailure)
        )
        return { _tag: "cancelled" } as MainOutcome
      })

    if (stoppedDuringCrawl) return yield* keepPreviousRows(decide({ retryFailed: false, includeCloud: false }))

    // R9, R10: without confirmation, the channel's options (and the setting cloudFiles) decide.
    let answer: PlanAnswer = {
      retryFailed: channel.retryFailed,
      includeCloud: channel.includeCloud ?? settings.cloudFiles === "download"
    }
    if (channel.confirmTargets) {
      const counted = decide({ retryFailed: false, includeCloud: false })
      yield* SubscriptionRef.set(channel.plan, Option.some(makePlan(counted.counts)))
      yield* progress({ _tag: "phase", phase: "confirm", current: text.waitingForAnswer, remaining: counted.targets.length })
      const stopped = channel.stop.changes.pipe(Stream.filter((s) => s), Stream.take(1), Stream.runDrain)
      const reply = yield* Deferred.await(channel.answer).pipe(
        Effect.raceFirst(stopped.pipe(Effect.as(null))),
        Effect.timeoutTo({
          duration: options.answerTimeout ?? Duration.minutes(60),
          onTimeout: () => null,
          onSuccess: (a) => a
        })
      )
      yield* SubscriptionRef.set(channel.plan, Option.none())
      if (reply === null) return yield* keepPreviousRows(counted)
      answer = reply
    }
    const list = decide(answer)

    // R9: cloud-only files left alone, counted per index.
    yield* Ref.set(channel.cloudSkipped, list.cloudSkipped.map((f) => ({ index: f.index, path: f.path })))
    for (const c of list.counts) {
      if (c.cloudSkipped > 0) yield* log.write(text.cloudSkippedIn(c.index, c.cloudSkipped))
    }
    for (const f of list.cloudSkipped) yield* log.write(`  cloud-only: ${f.index}/${f.path}`, "info", "file")

    // R11: the target list into the ingest list, and each index's origin.
    yield* rewriteIngestList(paths, list.rows).pipe(Effect.mapError(ioFailure))
    yield* writeOrigins(paths, yield* Effect.forEach(selected, (t) => describeOrigin(t.name, t.path))).pipe(
      Effect.mapError(ioFailure)
    )
    yield* removeVanished(paths, log, list)

    // R12: nothing to ingest.
    if (list.targets.length === 0) {
      const message = list.cloudSkipped.length > 0 ? text.cloudOnlyLeft : text.noTargetsNeeded
      return { _tag: "noTargets", message, changes: { published: [], removed: list.vanished } } as MainOutcome
    }

    // R13: show the counts and start the worker queues.
    for (const c of list.counts) {
      yield* log.write(
        `${c.index}: new ${c.new}, changed ${c.changed}, pending ${c.pending}, retry ${c.retry}, ` +
          `unchanged ${c.unchanged}, failed last time ${c.failedLastTime}, ` +
          `failed last time for the environment (retried) ${c.failedByEnvironment}, vanished ${c.vanished}`
      )
    }
    yield* log.write(text.targetCounts(list.targets.length))
    yield* progress({ _tag: "phase", phase: "ingest", current: text.targetCounts(list.targets.length), remaining: list.targets.length })

    const state: RunState = {
      targets: list.targets,
      folders: new Map(selected.map((t) => [t.name, t.path])),
      stopped: false,
      folderLost: Option.none(),
      workFolderError: Option.none(),
      done: 0,
      failed: [],
      staged: [],
      published: [],
      removed: list.vanished.map((r) => ({ index: r.index, path: r.path })),
      removedKeys: new Set(),
      finallyError: Option.none(),
      // R16 starts now; its scope is the run's (it ends after the closing step).
      round: options.gramRound === undefined ? undefined : yield* options.gramRound(paths)
    }
    const ingestStarted = yield* Clock.currentTimeMillis
    yield* Effect.scoped(
      Effect.gen(function* () {
        // R15: the finally step, as the finalizer of the scope that owns the workers.
        yield* Effect.addFinalizer(() => finallyStep(paths, log, text, state, progress))
        const makeWorkers = options.workers ?? defaultWorkers
        const workers = Context.get(yield* Layer.build(makeWorkers(settings, paths)), IngestWorkers)
        yield* dispatchLoop(channel, paths, log, text, state, workers, progress)
      })
    )
    const ingestEnded = yield* Clock.currentTimeMillis
    yield* log.write(`ingest phase: ${((ingestEnded - ingestStarted) / 1000).toFixed(1)} s (dispatch, results, publish and the finally step)`)
    return { _tag: "ingested", state } as MainOutcome
  })

const defaultWorkers = (settings: Settings) =>
  threadWorkersLayer({
    threads: settings.ingestThreads ?? os.availableParallelism(),
    fileTimeout: Duration.minutes(settings.fileTimeoutMinutes)
  })

const ioFailure = (e: { readonly message: string }) => new RunFailure({ message: describeIoError(e.message) })

// R18: a full disk says so in words a person can act on; the system's detail follows.
const describeIoError = (detail: string) =>
  /ENOSPC|EDQUOT|no space left/i.test(detail)
    ? `The disk of the work folder is full: free some space and start indexing again; it continues where it stopped. (${detail})`
    : detail

// The log line of a finished R16, with what the store's update reports when it does.
const gramUpdatedLine = (summary: unknown, ms: number) => {
  const seconds = `${(ms / 1000).toFixed(1)} s`
  if (typeof summary !== "object" || summary === null || !("indexed" in summary) || !("prebuilt" in summary)) {
    return `2-gram index updated: ${seconds}`
  }
  const s = summary as GramUpdateSummary
  return `2-gram index updated: ${s.indexed} file(s) indexed (${s.prebuilt} while ingesting), ${s.removed} removed, ` +
    `${s.merges} merge(s), ${s.segments} segment(s), ${seconds}`
}

// False when `p` is missing or is not a regular file; true for a regular file, and when it cannot
// be told (permission denied on the way: the worker then fails it as unreadable, to be retried).
const isRegularFileOrUnknown = (p: string) => {
  try {
    return fs.statSync(p).isFile()
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    return code !== "ENOENT" && code !== "ENOTDIR"
  }
}

const isFolder = (p: string) => {
  try {
    return fs.statSync(p).isDirectory()
  } catch {
    return false
  }
}

const removeVanished = (paths: WorkPaths, log: RunLog, list: TargetList) =>
  Effect.gen(function* () {
    if (list.vanished.length === 0) return
    yield* removeBodyFolders(paths, list.vanished).pipe(Effect.mapError(ioFailure))
    for (const r of list.vanished) yield* log.write(`removed: ${r.index}/${r.path} (the source file is gone)`, "info", "file")
  })

// A dispatched file: its target number (1-based), worker kind and number, fiber.
interface InFlight {
  readonly n: number
  readonly target: CrawledFile
  kind: WorkerKind
  worker: number
  staging: string
  fiber: Fiber.RuntimeFiber<void>
}

interface Arrival {
  readonly key: string
  readonly result: import("@sagasu/domain").IngestResult
}

// R13, R14: dispatch within the 200-file window, take results one at a time, publish finished folders.
const dispatchLoop = (
  channel: IndexerChannel,
  paths: WorkPaths,
  log: RunLog,
  text: ReturnType<typeof messages>,
  state: RunState,
  workers: IngestWorkers["Type"],
  progress: (event: ProgressEvent) => Effect.Effect<void, never, FileSystem.FileSystem>
) =>
  Effect.gen(function* () {
    const total = state.targets.length
    const results = yield* Queue.unbounded<Arrival>()
    const notDispatched = state.targets.map((target, i) => ({ target, n: i + 1, kind: workerKindOf(target.path) }))
    const inFlight = new Map<string, InFlight>()
    // Worker numbers for the staging folders `publish/<pid>/w<n>` (C2): plain first, then the owners.
    const threads = workers.slots.plain
    const ownerNumber: Record<Exclude<WorkerKind, "plain">, number> = { spreadsheet: threads + 1, document: threads + 2, presentation: threads + 3 }
    // What each plain worker holds (issue 20: files queued ahead of the one it reads, when it queues).
    const plainLoad = Array.from({ length: threads }, () => ({ files: 0, bytes: 0 }))
    const queueFiles = workers.queues === true ? plainQueueFiles : 1
    const busy = (kind: WorkerKind) => {
      let n = 0
      for (const f of inFlight.values()) if (f.kind === kind) n++
      return n
    }
    const room = () => ({
      plain: plainLoad,
      owners: {
        spreadsheet: workers.slots.spreadsheet - busy("spreadsheet"),
        document: workers.slots.document - busy("document"),
        presentation: workers.slots.presentation - busy("presentation")
      }
    })
    // R14: the source folders with a file in flight, and with one not yet dispatched, counted (a
    // folder is published when both are 0; a scan of every target per result was O(n²) in a run).
    const folderOf = (t: { readonly index: string; readonly path: string }) => sourceFolderOf(t.index, t.path)
    const flightFolders = new Map<string, number>()
    const waitingFolders = new Map<string, number>()
    const count = (m: Map<string, number>, key: string, by: number) => {
      const n = (m.get(key) ?? 0) + by
      if (n === 0) m.delete(key)
      else m.set(key, n)
    }
    for (const d of notDispatched) count(waitingFolders, folderOf(d.target), 1)
    let officeInterrupted = false
    let queuesStopped = false
    // W5, R13: once nothing more is handed over, the files still queued come back stopped, unread.
    const stopQueues = Effect.suspend(() => {
      if (queuesStopped || workers.stop === undefined) return Effect.void
      queuesStopped = true
      return workers.stop
    })

    const submit = (flight: InFlight) =>
      Effect.gen(function* () {
        const key = fileKey(flight.target.index, flight.target.path)
        flight.staging = path.join("publish", String(process.pid), `w${flight.worker}`, String(flight.n))
        yield* appendJournal(paths, [{ _tag: "start", index: flight.target.index, path: flight.target.path, staging: flight.staging }]).pipe(
          Effect.mapError(ioFailure)
        )
        crashPoint("journal.after-start")
        const request = new IngestFile({
          index: flight.target.index,
          path: flight.target.path,
          source: path.join(state.folders.get(flight.target.index) ?? "", ...flight.target.path.split("/")),
          staging: path.join(paths.root, flight.staging)
        })
        flight.fiber = yield* workers.ingest(flight.kind, request, flight.worker).pipe(
          Effect.flatMap((result) => Queue.offer(results, { key, result })),
          Effect.asVoid,
          Effect.forkScoped
        )
        inFlight.set(key, flight)
      })

    for (;;) {
      // W5: a stop ends Office conversions at once; plain files may finish.
      if (!officeInterrupted && (yield* SubscriptionRef.get(channel.stop))) {
        officeInterrupted = true
        state.stopped = true
        for (const [key, f] of inFlight) {
          if (f.kind !== "plain") {
            yield* Fiber.interrupt(f.fiber)
            yield* Queue.offer(results, { key, result: { status: "stopped", log: [] } })
          }
        }
      }
      const canDispatch = !state.stopped && Option.isNone(state.folderLost) && Option.isNone(state.workFolderError)
      if (!canDispatch) yield* stopQueues
      if (!canDispatch && state.round !== undefined) {
        // R16 will not run (stopped, folder lost, work folder full): what the round built goes live,
        // the rest stays in the fresh tail (S1); the CPU is left to the files in flight.
        yield* state.round.close
        state.round = undefined
      }
      const pick = canDispatch ? pickNextDispatch(notDispatched, room(), { queueFiles }) : undefined
      if (pick !== undefined) {
        const [next] = notDispatched.splice(pick.at, 1)
        if (next === undefined) continue
        count(waitingFolders, folderOf(next.target), -1)
        const root = state.folders.get(next.target.index) ?? ""
        const source = path.join(root, ...next.target.path.split("/"))
        // Gone, or no longer a regular file (a FIFO in its place would block the worker's read
        // for good; the crawl skips it as not-a-file, so it is as good as gone).
        if (!isRegularFileOrUnknown(source)) {
          if (!isFolder(root)) {
            // R13: the whole target folder is gone: hand over nothing more, the rest stays pending.
            state.folderLost = Option.some(text.targetFolderLost(next.target.index, root))
            notDispatched.unshift(next)
            count(waitingFolders, folderOf(next.target), 1)
            yield* log.write(text.targetFolderLost(next.target.index, root), "error")
            continue
          }
          // R13: the source file is gone but its folder exists.
          yield* removeBodyFolders(paths, [next.target]).pipe(Effect.mapError(ioFailure))
          state.removedKeys.add(fileKey(next.target.index, next.target.path))
          state.removed.push({ index: next.target.index, path: next.target.path })
          yield* log.block(next.n, total, `${next.target.index}/${next.target.path}: ${text.sourceVanished}`, [])
          yield* progress({ _tag: "result", failed: false, current: `${next.target.index}/${next.target.path}` })
          continue
        }
        const worker = next.kind === "plain" ? pick.worker : ownerNumber[next.kind]
        if (next.kind === "plain") {
          const load = plainLoad[worker - 1]
          if (load !== undefined) {
            load.files++
            load.bytes += next.target.size
          }
        }
        count(flightFolders, folderOf(next.target), 1)
        yield* submit({ n: next.n, target: next.target, kind: next.kind, worker, staging: "", fiber: undefined as never })
        yield* progress({ _tag: "dispatched", current: `${next.target.index}/${next.target.path}` })
        continue
      }
      if (inFlight.size === 0) break

      // R14: one result at a time (or wake up when a stop arrives).
      const stopSignal = channel.stop.changes.pipe(Stream.filter((s) => s), Stream.take(1), Stream.runDrain)
      const arrival = officeInterrupted
        ? yield* Queue.take(results)
        : yield* Queue.take(results).pipe(Effect.raceFirst(stopSignal.pipe(Effect.as(undefined))))
      if (arrival === undefined) continue
      const flight = inFlight.get(arrival.key)
      if (flight === undefined) continue
      inFlight.delete(arrival.key)
      if (flight.kind === "plain") {
        const load = plainLoad[flight.worker - 1]
        if (load !== undefined) {
          load.files--
          load.bytes -= flight.target.size
        }
      }
      crashPoint("result.before-append")
      const stopRequested = yield* SubscriptionRef.get(channel.stop)
      const targetRoot = state.folders.get(flight.target.index) ?? ""
      const targetGone = arrival.result.status === "failed" && !isFolder(targetRoot)
      const decision = decideOnResult(arrival.result, { stopRequested, fromOwner: flight.kind !== "plain", targetGone })
      const name = `${flight.target.index}/${flight.target.path}`
      const row = (status: IngestRow["status"], failure?: Failure): IngestRow => ({
        index: flight.target.index, path: flight.target.path, size: flight.target.size, mtimeMs: flight.target.mtimeMs, status,
        ...(failure === undefined ? {} : { failure })
      })
      switch (decision._tag) {
        case "Reroute":
          yield* submit({ ...flight, kind: decision.app, worker: ownerNumber[decision.app] })
          yield* log.write(`${name}: reading it needs Office; handed to the ${decision.app} owner`, "info", "file")
          continue
        case "KeepPending":
          state.stopped = true
          yield* appendIngestRows(paths, [row("pending")]).pipe(Effect.mapError(ioFailure))
          yield* log.block(flight.n, total, `${name}: stopped (stays pending)`, arrival.result.log)
          break
        case "TargetLost":
          // R13: the target folder went while the file waited or was read: nothing more is handed
          // over, the file stays pending, the run ends naming the folder.
          if (Option.isNone(state.folderLost)) {
            state.folderLost = Option.some(text.targetFolderLost(flight.target.index, targetRoot))
            yield* log.write(text.targetFolderLost(flight.target.index, targetRoot), "error")
          }
          yield* log.block(flight.n, total, `${name}: not recorded (stays pending, its R11 row): its folder is gone`, arrival.result.log)
          break
        case "WorkFolderFailed":
          // R18: the work folder could not take the file's TSVs or LibreOffice's files (disk full, …):
          // not the file's fault. It stays pending (its R11 row), nothing more is handed over, the run
          // ends with exit 1.
          state.workFolderError = Option.some(describeIoError(decision.failure.detail))
          yield* log.block(flight.n, total, `${name}: not recorded (stays pending): ${text.failure(decision.failure)}`, arrival.result.log, "error")
          break
        case "Record": {
          // C2: a folder whose body-index path the system cannot hold would fail its publish (and
          // every later run's): the file fails here instead, before a done row could claim it.
          const tooLong = decision.status === "done" ? bodyPathTooLong(paths, flight) : undefined
          const status = tooLong === undefined ? decision.status : "failed"
          const failure = tooLong ?? (decision.status === "failed" ? decision.failure : undefined)
          const lines = arrival.result.status === "done" ? arrival.result.lines : undefined
          yield* log.block(
            flight.n, total,
            `${name}: ${failure === undefined ? "done" : `failed (${text.failure(failure)})`}`,
            arrival.result.log,
            // A file done with no text at all is a warning too (issue 15 item 10).
            status === "done" && lines !== 0 ? "info" : "warn"
          )
          if (status === "done") {
            // S1: a done file is findable at once, from its staging folder while it waits for the rest
            // of its source folder to be published (R14); noted before its row says done.
            const staging = flight.staging.split(path.sep).join("/")
            yield* noteFresh(paths, [{ op: "~", index: flight.target.index, path: flight.target.path, staging }]).pipe(Effect.mapError(ioFailure))
            if (state.round !== undefined) yield* state.round.noted
          }
          yield* appendIngestRows(paths, [row(status, failure)]).pipe(Effect.mapError(ioFailure))
          if (failure === undefined) {
            state.done++
            state.staged.push({ index: flight.target.index, path: flight.target.path, staging: flight.staging })
          } else {
            state.failed.push({ index: flight.target.index, path: flight.target.path, failure })
            // The text of an earlier version must not stay searchable (a path too long has none).
            if (tooLong === undefined) yield* removeBodyFolders(paths, [flight.target]).pipe(Effect.mapError(ioFailure))
            state.removed.push({ index: flight.target.index, path: flight.target.path })
          }
          yield* progress({ _tag: "result", failed: status === "failed", current: name })
          break
        }
      }
      // R14: publish every folder with nothing in flight and nothing left to dispatch.
      count(flightFolders, folderOf(flight.target), -1)
      const stoppedNow = state.stopped
      const plan = foldersReadyToPublish(state.staged, (folder) => flightFolders.has(folder) || (!stoppedNow && waitingFolders.has(folder)))
      if (plan.publish.length > 0) {
        yield* publishStaged(paths, plan.publish, state)
        state.staged = [...plan.wait]
      }
    }
  })

// The failure of a done file that cannot be published because its body-index paths pass the system's limit.
const bodyPathTooLong = (paths: WorkPaths, flight: InFlight): Failure | undefined => {
  let names: Array<string>
  try {
    names = fs.readdirSync(path.join(paths.root, flight.staging))
  } catch {
    return undefined
  }
  const bytes = longestPathBytes(bodyFolderOf(paths, flight.target.index, flight.target.path), names)
  return bytes > maxPathBytes
    ? {
        reason: "path-too-long",
        detail: `its body-index path would be ${bytes} bytes, more than this system allows (${maxPathBytes}); ` +
          "move the work folder to a shorter path or the file to a less deep folder"
      }
    : undefined
}

const publishStaged = (paths: WorkPaths, staged: ReadonlyArray<StagedFile>, state: RunState) =>
  Effect.forEach(
    staged,
    (s) =>
      Effect.gen(function* () {
        // S1: noted in the fresh log first, so it is found at once whatever happens next.
        yield* publishSourceFolder(paths, s.index, s.path, path.join(paths.root, s.staging)).pipe(Effect.mapError(ioFailure))
        crashPoint("publish.before-journal")
        yield* appendJournal(paths, [{ _tag: "published", index: s.index, path: s.path }]).pipe(Effect.mapError(ioFailure))
        state.published.push({ index: s.index, path: s.path })
        if (state.round !== undefined) yield* state.round.noted
      }),
    { discard: true }
  )

// R15: runs on success, error and stop (not on a crash: C1 covers that).
const finallyStep = (
  paths: WorkPaths,
  log: RunLog,
  text: ReturnType<typeof messages>,
  state: RunState,
  progress: (event: ProgressEvent) => Effect.Effect<void, never, FileSystem.FileSystem>
) =>
  Effect.gen(function* () {
    yield* progress({ _tag: "phase", phase: "finalize", current: text.publishing })
    yield* publishStaged(paths, state.staged, state)
    state.staged = []
    yield* Effect.sync(() => {
      fs.rmSync(path.join(paths.publish, String(process.pid)), { recursive: true, force: true })
      fs.rmSync(paths.tmp, { recursive: true, force: true })
      fs.mkdirSync(paths.tmp, { recursive: true })
    })
    yield* progress({ _tag: "current", current: text.rewritingIngestList })
    crashPoint("finally.before-rewrite")
    const rows = yield* readIngestList(paths)
    yield* rewriteIngestList(paths, rows.filter((r) => !state.removedKeys.has(fileKey(r.index, r.path))))
    yield* appendJournal(paths, [{ _tag: "end" }])
  }).pipe(
    Effect.catchAllCause((cause) => {
      const message = `The finally step failed: ${Cause.pretty(cause)}`
      state.finallyError = Option.some(message)
      return log.write(message, "error")
    })
  )
