/**
 * The indexing run (インデックス作成, SPEC §1, the seed's first flowchart):
 * the commander that checks the work folder, takes the lock, opens the log,
 * recovers the previous run's journal, crawls, decides and confirms the
 * targets, dispatches them to the workers, records and publishes results, and
 * runs the finally step. It reads, asks a pure function of `@sagasu/domain`,
 * and writes: each branch here is the answer of one domain decision.
 *
 * @module
 */
import {
  type ExitCode, type Failure, type IngestResult, type IngestRow, type Language, type PlanAnswer, type ProgressEvent, type RunOutcome,
  computeTargetList, decideAfterTargets, decideBeforeDispatch, decideConfirmation, decideResult, describeWorkFolderError, dispatchHalted, fileKey,
  foldersReadyToPublish, logTimestamp, messages, nextProgress, pickNextDispatch, type Progress, progressRecordIntervalMs, progressWriteDue, settleRun
} from "@sagasu/domain"
import { WorkStore, crashPoint, maxPathBytes } from "@sagasu/store"
import { Clock, Context, Deferred, Effect, Fiber, Layer, Option, Queue, Ref, type Scope, Stream, SubscriptionRef } from "effect"
import * as path from "node:path"
import { DispatchBook } from "./_dispatch_book.ts"
import {
  type InFlight, type RoundChanges, type RunContext, RunFailure, type RunIndexerOptions, type RunState, defaultWorkers,
  ioFailure, isFolder, isRegularFileOrUnknown, logHeader, makeRunState, runFailureMessage, utcOffsetAt
} from "./_run_context.ts"
import {
  crawlSelected, keepPreviousRows, obtainAnswer, prepareWorkArea, removeVanished, reportCloudSkipped, reportCounts, reportResume,
  selectTargetFolders
} from "./_run_prepare.ts"
import { bodyPathBytes, finallyStep, noteRound, openRunTeamRound, publishStaged, publishTeamStep, updateGramIndex } from "./_run_publish.ts"
import type { IndexerChannel } from "./channel.ts"
import { IngestFile } from "./ingest_request.ts"
import { IngestWorkers } from "./workers.ts"

export type { GramRoundHook, RoundChanges, RunIndexerOptions } from "./_run_context.ts"

// How the main part of a run ended: the domain's outcome, with what the 2-gram step needs.
type MainOutcome =
  | Exclude<RunOutcome, { readonly _tag: "NoTargets" | "Ingested" }>
  | { readonly _tag: "NoTargets"; readonly message: string; readonly changes: RoundChanges }
  | { readonly _tag: "Ingested"; readonly state: RunState }

/**
 * Runs one indexing run on `options.work` with `channel` (R1–R18). Never
 * fails and never calls `process.exit`: it returns the exit code (0 completed,
 * 1 error, 2 stopped or cancelled) and sets `channel.exitCode` as its very
 * last act.
 */
export const runIndexer = (
  channel: IndexerChannel,
  options: RunIndexerOptions
): Effect.Effect<ExitCode, never, WorkStore> =>
  Effect.gen(function* () {
    // R18: an unhandled error is the run's error, exit 1.
    // Before the settings are read (the work folder, the lock) the language is Japanese (the default).
    const code = yield* runGuarded(channel, options).pipe(
      Effect.catchAll((failure) => Ref.set(channel.error, Option.some(runFailureMessage(failure, "ja"))).pipe(Effect.as<ExitCode>(1))),
      Effect.catchAllDefect((defect) =>
        Ref.set(channel.error, Option.some(messages("ja").unexpectedError(String(defect)))).pipe(Effect.as<ExitCode>(1))
      )
    )
    yield* Deferred.succeed(channel.exitCode, code) // R1
    return code
  })

const runGuarded = (channel: IndexerChannel, options: RunIndexerOptions) =>
  Effect.scoped(
    Effect.gen(function* () {
      const store = yield* WorkStore
      // R2: the work folder must be usable; nothing is written otherwise.
      // A missing or unmade work folder suggests the `sagasu init` with the front end's `--work` (new-user trial).
      const paths = yield* store.checkWorkFolder(options.work).pipe(
        Effect.mapError((e) => new RunFailure({ message: e.messageFor(options.nextStepWork) }))
      )
      const settingsForMessages = yield* store.readSettings(paths).pipe(Effect.option)
      const language: Language = Option.match(settingsForMessages, { onNone: () => "ja", onSome: (s) => s.language })
      const text = messages(language)
      // R3: one run per work folder; when held, nothing is touched (not even the log).
      yield* store.acquireLock(paths).pipe(
        Effect.mapError((e) => new RunFailure({ message: e.reason === "held" ? text.lockHeld : e.message }))
      )
      // R4: the log, only after the lock; its first line says when the run started, its last when it ended.
      const startedMs = yield* Clock.currentTimeMillis
      const libreOffice = typeof options.libreOffice === "function" ? yield* options.libreOffice(paths) : options.libreOffice
      const header = logHeader(paths, options, settingsForMessages, text, { nowMs: startedMs, utcOffsetMinutes: utcOffsetAt(startedMs) }, libreOffice)
      const log = yield* store.openRunLog(paths, header, channel.echo, language)
      // P2: every event goes to the channel at once; progress.json gets hand-overs and results at
      // most every progressRecordIntervalMs, the latest progress then (a timer), the rest at once.
      let lastWrite: number | undefined
      let trailing: ReturnType<typeof setTimeout> | undefined
      const writeNow = (p: Progress) => {
        if (trailing !== undefined) clearTimeout(trailing)
        trailing = undefined
        lastWrite = performance.now()
        return store.writeProgress(paths, p).pipe(Effect.ignore)
      }
      const progress = (event: ProgressEvent) =>
        SubscriptionRef.updateAndGet(channel.progress, (p) => nextProgress(p, event)).pipe(
          Effect.flatMap((p) => {
            const since = lastWrite === undefined ? undefined : performance.now() - lastWrite
            if (progressWriteDue(event, since) === "now") return writeNow(p)
            trailing ??= setTimeout(() => {
              trailing = undefined
              Effect.runSync(SubscriptionRef.get(channel.progress).pipe(Effect.flatMap(writeNow)))
            }, Math.max(0, progressRecordIntervalMs - (since ?? 0))).unref()
            return Effect.void
          })
        )
      const ctx: RunContext = { channel, options, store, paths, log, language, text, progress }

      const outcome: MainOutcome = yield* runMain(ctx).pipe(
        Effect.catchAll((failure) => {
          const message = runFailureMessage(failure, language)
          return (failure.logged === true ? Effect.void : log.write(message, "error")).pipe(Effect.as<MainOutcome>({ _tag: "Error", message }))
        }),
        Effect.catchAllDefect((defect) => {
          const message = text.unexpectedError(String(defect))
          return log.write(message, "error").pipe(Effect.as<MainOutcome>({ _tag: "Error", message }))
        })
      )

      // R16, R17: the 2-gram index (still under the lock), then the exit code and the closing.
      const settled = settleRun(language, runOutcomeOf(outcome))
      if (settled.updateGram) yield* updateGramIndex(ctx, gramChangesOf(outcome), roundOf(outcome))
      // Issue 18: the team server brought in line with the body index (the settings as they are now).
      yield* publishTeamStep(ctx, runOutcomeOf(outcome), teamOf(outcome))
      yield* progress({ _tag: "ended", exitCode: settled.code, current: settled.message.split("\n")[0] ?? "" })
      switch (settled.report) {
        case "error":
          yield* Ref.set(channel.error, Option.some(settled.message))
          break
        case "closing":
          yield* log.write(settled.message, "info", "closing")
          yield* Ref.set(channel.closing, Option.some({ message: settled.message, failed: settled.failed }))
      }
      const endedMs = yield* Clock.currentTimeMillis
      yield* log.write(text.logEnded(logTimestamp(endedMs, utcOffsetAt(endedMs)), endedMs - startedMs))
      return settled.code
    })
  )

// The domain's view of an outcome, for `settleRun`.
const runOutcomeOf = (outcome: MainOutcome): RunOutcome => {
  switch (outcome._tag) {
    case "NoTargets":
      return { _tag: "NoTargets", message: outcome.message }
    case "Ingested": {
      const s = outcome.state
      return {
        _tag: "Ingested", stopped: s.stopped, folderLost: s.folderLost, workFolderError: s.workFolderError,
        finallyError: s.finallyError, done: s.done, failed: s.failed
      }
    }
    default:
      return outcome
  }
}

// What R16 brings in line, and the round that does it (none: the options' updateGram, R12).
const gramChangesOf = (outcome: MainOutcome): RoundChanges =>
  outcome._tag === "Ingested"
    ? { published: outcome.state.published, removed: outcome.state.removed }
    : outcome._tag === "NoTargets" ? outcome.changes : { published: [], removed: [] }
const roundOf = (outcome: MainOutcome) => (outcome._tag === "Ingested" ? outcome.state.round : undefined)
const teamOf = (outcome: MainOutcome) => (outcome._tag === "Ingested" ? outcome.state.team : undefined)

const runMain = (run: RunContext): Effect.Effect<MainOutcome, RunFailure, Scope.Scope> =>
  Effect.gen(function* () {
    const { channel, options, store, paths, log } = run
    // R5: settings and the selected indexes.
    const settings = yield* store.readSettings(paths).pipe(Effect.mapError((e) => new RunFailure({ message: e.message })))
    const ctx: RunContext = { ...run, text: messages(settings.language) }
    const text = ctx.text
    const selected = yield* selectTargetFolders(ctx, settings)
    // R6, R7, C1, S1: the work area made ready.
    const { previousRows, inFlight } = yield* prepareWorkArea(ctx)

    // R8: crawl each selected index; a stop leaves the rest as it was.
    const crawl = yield* crawlSelected(ctx, selected)
    const decide = (answer: PlanAnswer) =>
      computeTargetList(crawl.files, previousRows, { crawledIndexes: crawl.crawledIndexes, unreadable: crawl.unreadable, inFlight, ...answer })
    // The counts are shown as decided without retrying failed files or downloading (R10).
    const uncounted: PlanAnswer = { retryFailed: false, includeCloud: false }
    // R8, R10: a stop during the crawl cancels; else ask (the GUI, the CLI without --yes), or take
    // the answer when nobody is asked (R9).
    const confirmation = decideConfirmation({
      stoppedDuringCrawl: crawl.stopped, confirmTargets: channel.confirmTargets,
      retryFailed: channel.retryFailed, includeCloud: channel.includeCloud, cloudFiles: settings.cloudFiles
    })
    // Given the answer (nobody asked), the list is decided once, with it.
    const counted = decide(confirmation._tag === "Answer" ? confirmation.answer : uncounted)
    if (!crawl.stopped) yield* reportResume(ctx, counted)
    const reply = yield* obtainAnswer(ctx, confirmation, counted)
    if (reply._tag === "Cancelled") {
      yield* keepPreviousRows(ctx, previousRows, reply.counted)
      return { _tag: "Cancelled", why: reply.why } as MainOutcome
    }
    const list = confirmation._tag === "Answer" ? counted : decide(reply.answer)
    yield* reportCloudSkipped(ctx, list) // R9

    // R11: the target list into the ingest list, and each index's origin.
    yield* store.rewriteIngestList(paths, list.rows).pipe(Effect.mapError(ioFailure))
    yield* store.writeOrigins(paths, yield* Effect.forEach(selected, (t) => store.describeOrigin(t.name, t.path))).pipe(Effect.mapError(ioFailure))
    yield* removeVanished(ctx, list)

    // R12: nothing to ingest.
    const after = decideAfterTargets(list)
    if (after._tag === "NoTargets") {
      return { _tag: "NoTargets", message: text[after.message], changes: { published: [], removed: list.vanished } } as MainOutcome
    }

    // R13: show the counts and start the worker queues.
    yield* reportCounts(ctx, list)
    // P1: `current` names the file being ingested; none yet (the target count is the log's line, above).
    yield* ctx.progress({ _tag: "phase", phase: "ingest", current: "", remaining: list.targets.length })
    // R16 starts now; its scope is the run's (it ends after the closing step).
    const round = options.gramRound === undefined ? undefined : yield* options.gramRound(paths)
    // Issue 18: the files published from now on go to the team server as they come (visible at the end's flip).
    const team = yield* openRunTeamRound(ctx, settings)
    const state = makeRunState({ targets: list.targets, selected, vanished: list.vanished, round, team })
    const ingestStarted = yield* Clock.currentTimeMillis
    yield* Effect.scoped(
      Effect.gen(function* () {
        // R15: the finally step, as the finalizer of the scope that owns the workers.
        yield* Effect.addFinalizer(() => finallyStep(ctx, state))
        const makeWorkers = options.workers ?? defaultWorkers
        const workers = Context.get(yield* Layer.build(makeWorkers(settings, paths)), IngestWorkers)
        yield* dispatchLoop(ctx, state, workers)
      })
    )
    const ingestEnded = yield* Clock.currentTimeMillis
    yield* log.write(text.logIngestPhase(ingestEnded - ingestStarted), "info", "detail")
    return { _tag: "Ingested", state } as MainOutcome
  })

interface Arrival {
  readonly key: string
  readonly result: IngestResult
}

const stoppedResult: IngestResult = { status: "stopped", log: [] }

// R13, R14: dispatch within the 200-file window, take results one at a time, publish finished folders.
const dispatchLoop = (ctx: RunContext, state: RunState, workers: IngestWorkers["Type"]) =>
  Effect.gen(function* () {
    const { channel, store, paths, log, text, progress } = ctx
    const total = state.targets.length
    // A file's notes in the run's words (R4).
    const notes = (result: IngestResult) => result.log.map((n) => text.logNote(n))
    // A result, or `undefined`: the stop has been asked for (R8, W5) — the loop looks at it at once.
    const results = yield* Queue.unbounded<Arrival | undefined>()
    const book = new DispatchBook(state.targets, workers)
    let officeInterrupted = false
    let halted = false
    // R13, W5, R16: once nothing more is handed over, the files still queued come back stopped,
    // unread; R16 will not run, so what the round built goes live and the rest stays in the
    // fresh tail (S1); the CPU is left to the files in flight.
    const halt = Effect.suspend(() => {
      if (halted) return Effect.void
      halted = true
      const round = state.round
      state.round = undefined
      return Effect.all([workers.stop ?? Effect.void, round?.close ?? Effect.void], { discard: true })
    })
    const targetRoot = (flight: { readonly target: { readonly index: string } }) => state.folders.get(flight.target.index) ?? ""
    const folderLost = (index: string, root: string) =>
      Effect.suspend(() => {
        state.folderLost = text.targetFolderLost(index, root)
        return log.write(state.folderLost, "error")
      })

    const submit = (flight: InFlight) =>
      Effect.gen(function* () {
        const key = fileKey(flight.target.index, flight.target.path)
        flight.staging = path.join("publish", String(process.pid), `w${flight.worker}`, String(flight.n))
        yield* store.appendJournal(paths, [{ _tag: "start", index: flight.target.index, path: flight.target.path, staging: flight.staging }]).pipe(
          Effect.mapError(ioFailure)
        )
        crashPoint("journal.after-start")
        const request = new IngestFile({
          index: flight.target.index,
          path: flight.target.path,
          source: path.join(targetRoot(flight), ...flight.target.path.split("/")),
          staging: path.join(paths.root, flight.staging),
          sieves: paths.sieves
        })
        flight.fiber = yield* workers.ingest(flight.kind, request, flight.worker).pipe(
          Effect.flatMap((result) => Queue.offer(results, { key, result })),
          Effect.asVoid,
          Effect.forkScoped
        )
        book.inFlight.set(key, flight)
      })

    // One watcher for the run, not a race with a new subscription to the stop for every result
    // (issue 20: on 2,000 small files that race was a fifth of the commander's CPU).
    const stopSeen = yield* Deferred.make<void>()
    yield* channel.stop.changes.pipe(
      Stream.filter((s) => s),
      Stream.take(1),
      Stream.runForEach(() => Deferred.succeed(stopSeen, undefined).pipe(Effect.zipRight(Queue.offer(results, undefined)))),
      Effect.forkScoped
    )
    const stopRaised = Deferred.await(stopSeen)
    for (;;) {
      // W5: when a stop arrives, Office conversions end at once (stoppedAtOnce); plain files may finish.
      if (!officeInterrupted && (yield* SubscriptionRef.get(channel.stop))) {
        officeInterrupted = true
        state.stopped = true
        for (const [key, f] of book.flightsStoppedAtOnce()) {
          yield* Fiber.interrupt(f.fiber)
          yield* Queue.offer(results, { key, result: stoppedResult })
        }
      }
      const stop = dispatchHalted({ stopped: state.stopped, folderLost: state.folderLost !== undefined, workFolderFailed: state.workFolderError !== undefined })
      if (stop) yield* halt
      const pick = stop ? undefined : pickNextDispatch(book.notDispatched, book.room(), { queueFiles: book.queueFiles })
      const next = pick === undefined ? undefined : book.take(pick.at)
      if (pick !== undefined) {
        if (next === undefined) continue
        const root = targetRoot(next)
        const source = path.join(root, ...next.target.path.split("/"))
        const name = `${next.target.index}/${next.target.path}`
        switch (decideBeforeDispatch({ sourceIsFile: () => isRegularFileOrUnknown(source), folderIsThere: () => isFolder(root) })._tag) {
          case "FolderLost": // R13: hand over nothing more, the rest stays pending.
            book.putBack(next)
            yield* folderLost(next.target.index, root)
            break
          case "SourceGone": // R13: the source file is gone but its folder exists.
            yield* store.removeBodyFolders(paths, [next.target]).pipe(Effect.mapError(ioFailure))
            state.removedKeys.add(fileKey(next.target.index, next.target.path))
            state.removed.push({ index: next.target.index, path: next.target.path })
            yield* log.block(next.n, total, text.logFile(name, { _tag: "sourceVanished" }), [])
            yield* progress({ _tag: "result", failed: false, current: name })
            break
          case "Submit": {
            // Issue 13 (S1, S2): a 2-gram round that fell behind holds the hand-over until it has read
            // what was noted; a stop meanwhile leaves the file where it was.
            if (state.round?.pace !== undefined) {
              yield* state.round.pace.pipe(Effect.raceFirst(stopRaised))
              if (yield* SubscriptionRef.get(channel.stop)) {
                book.putBack(next)
                break
              }
            }
            const worker = book.assign(next, pick.worker)
            yield* submit({ n: next.n, target: next.target, kind: next.kind, worker, staging: "", fiber: undefined as never })
            yield* progress({ _tag: "dispatched", current: name })
          }
        }
        continue
      }
      if (book.inFlight.size === 0) break

      // R14: one result at a time (or wake up when a stop arrives).
      const arrival = yield* Queue.take(results)
      const flight = arrival === undefined ? undefined : book.land(arrival.key)
      if (arrival === undefined || flight === undefined) continue
      crashPoint("result.before-append")
      const name = `${flight.target.index}/${flight.target.path}`
      const row = (status: IngestRow["status"], failure?: Failure): IngestRow => ({
        index: flight.target.index, path: flight.target.path, size: flight.target.size, mtimeMs: flight.target.mtimeMs, status,
        ...(failure === undefined ? {} : { failure })
      })
      const step = decideResult(arrival.result, {
        stopRequested: yield* SubscriptionRef.get(channel.stop),
        fromOwner: flight.kind !== "plain",
        targetGone: () => !isFolder(targetRoot(flight)),
        bodyPathBytes: () => bodyPathBytes(ctx, flight),
        maxPathBytes
      })
      switch (step._tag) {
        case "Reroute":
          yield* submit({ ...flight, kind: step.app, worker: book.ownerNumber[step.app] })
          yield* log.write(text.logFile(name, { _tag: "rerouted", app: step.app }), "info", "file")
          continue
        case "KeepPending":
          state.stopped = true
          yield* store.appendIngestRows(paths, [row("pending")]).pipe(Effect.mapError(ioFailure))
          yield* log.block(flight.n, total, text.logFile(name, { _tag: "stopped" }), notes(arrival.result))
          break
        case "TargetLost":
          // R13: the target folder went while the file waited or was read: nothing more is handed
          // over, the file stays pending, the run ends naming the folder (the first one lost).
          yield* state.folderLost === undefined ? folderLost(flight.target.index, targetRoot(flight)) : Effect.void
          yield* log.block(flight.n, total, text.logFile(name, { _tag: "folderGone" }), notes(arrival.result))
          break
        case "WorkFolderFailed":
          // R18: not the file's fault. It stays pending (its R11 row), nothing more is handed over,
          // the run ends with exit 1.
          state.workFolderError = describeWorkFolderError(step.failure.detail, ctx.language)
          yield* log.block(flight.n, total, text.logFile(name, { _tag: "notRecorded", failure: step.failure }), notes(arrival.result), "error")
          break
        case "Done": {
          // A file done with no text at all is a warning (issue 15 item 10).
          // Issue 15 item 10: a file with no text at all is a warning no closing list repeats: a terminal shows it.
          yield* log.block(flight.n, total, text.logFile(name, { _tag: "done" }), notes(arrival.result), step.empty ? "warn" : "info", step.empty ? "fileAlert" : "file")
          // S1: a done file is findable at once, from its staging folder while it waits for the rest
          // of its source folder to be published (R14); noted before its row says done.
          const staging = flight.staging.split(path.sep).join("/")
          yield* store.noteFresh(paths, [{ op: "~", index: flight.target.index, path: flight.target.path, staging }]).pipe(Effect.mapError(ioFailure))
          yield* noteRound(state)
          yield* store.appendIngestRows(paths, [row("done")]).pipe(Effect.mapError(ioFailure))
          state.done++
          state.staged.push({ index: flight.target.index, path: flight.target.path, staging: flight.staging })
          yield* progress({ _tag: "result", failed: false, current: name })
          break
        }
        case "Failed":
          yield* log.block(flight.n, total, text.logFile(name, { _tag: "failed", failure: step.failure }), notes(arrival.result), "warn")
          yield* store.appendIngestRows(paths, [row("failed", step.failure)]).pipe(Effect.mapError(ioFailure))
          state.failed.push({ index: flight.target.index, path: flight.target.path, failure: step.failure })
          // The text of an earlier version must not stay searchable (a path too long has none).
          if (step.removeBody) yield* store.removeBodyFolders(paths, [flight.target]).pipe(Effect.mapError(ioFailure))
          state.removed.push({ index: flight.target.index, path: flight.target.path })
          yield* progress({ _tag: "result", failed: true, current: name })
      }
      // R14: publish every folder with nothing in flight and nothing left to dispatch.
      book.settle(flight)
      const stopped = state.stopped
      const plan = foldersReadyToPublish(state.staged, (folder) => book.isBusy(folder, stopped))
      yield* publishStaged(ctx, plan.publish, state)
      state.staged = [...plan.wait]
    }
  })
