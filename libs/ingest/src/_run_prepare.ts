/**
 * The indexing run before dispatch (R5–R12; private): each step asks its
 * domain decision and does its shell effect — which indexes (R5), the work
 * area made ready (R6, R7, C1, S1), the crawl (R8), the confirmation (R10),
 * the ingest list kept on cancel (R8, R10) and the lines the log gets (R9, R13).
 *
 * @module
 */
import {
  type CancelReason, type Confirmation, type CrawledFile, type IngestRow, type PlanAnswer, type Settings, type TargetFolder, type TargetList,
  describeWorkFolderError, fileKey, findMissingTargetFolder, makePlan, recoverFromJournal, rowsKeptOnCancel, selectIndexes
} from "@sagasu/domain"
import { Deferred, Duration, Effect, Option, Ref, Stream, SubscriptionRef } from "effect"
import * as path from "node:path"
import { type RunContext, RunFailure, ioFailure, isFolder } from "./_run_context.ts"
import { crawlFolder } from "./crawl.ts"

/** R5: the selected indexes (`selectIndexes`), each skipped name logged; a missing folder names the way on (issue 16). */
export const selectTargetFolders = (ctx: RunContext, settings: Settings) =>
  Effect.gen(function* () {
    const { channel, log, text } = ctx
    const selection = selectIndexes(settings.targetFolders, channel.onlyNames)
    if (selection._tag === "none") return yield* Effect.fail(new RunFailure({ message: text.noEnabledIndex(ctx.options.nextStepWork) }))
    yield* Ref.set(channel.onlySkipped, selection.onlySkipped)
    for (const s of selection.onlySkipped) yield* log.write(text.onlyNameSkipped(s.name, s.reason), "warn")
    if (selection._tag === "noneSelected") return yield* Effect.fail(new RunFailure({ message: text.noneOfOnlyNames }))
    const missing = findMissingTargetFolder(selection.selected, isFolder)
    if (missing !== undefined) {
      return yield* Effect.fail(new RunFailure({ message: text.targetFolderMissing(missing.missing.name, missing.missing.path, missing.others, ctx.options.nextStepWork) }))
    }
    return selection.selected
  })

/**
 * R6, S1, C1, R7: older layouts noticed, the fresh log made, a killed run's
 * LibreOffice ended, the previous run's removals and unpublished staged
 * folders finished (`recoverFromJournal`). Returns the previous ingest list
 * and the keys of files to ingest again last (C1: in flight at a kill, or
 * not recoverable).
 */
export const prepareWorkArea = (ctx: RunContext) =>
  Effect.gen(function* () {
    const { store, paths, log, text } = ctx
    // R6: older layouts.
    if (yield* store.hasLegacyLayoutMarks(paths)) yield* log.write(text.legacyIndexNotice, "warn")
    const notRemoved = yield* store.removeOldSystemIndex(paths)
    if (notRemoved !== undefined) yield* log.write(text.oldSystemIndexNotRemoved(notRemoved), "warn")

    // S1: the fresh log every publish and removal is noted in (made now, before the first run, or
    // after an older version: then it names the whole body index until the round has built it).
    const freshLog = yield* store.ensureFreshLog(paths).pipe(Effect.either)
    if (freshLog._tag === "Left") yield* log.write(text.gramFailed(freshLog.left.message), "warn")

    // C1, W3: a killed run's LibreOffice keeps running and would capture this run's (same profile).
    for (const p of yield* store.endLeftoverProcesses(paths)) yield* log.write(text.logLeftoverEnded(p.pid, p.command.slice(0, 160)), "warn")
    // R7: finish what the previous run left: removals, then unpublished staged folders. A record
    // that exists but cannot be read ends the run here (R18), before anything is reset or deleted.
    yield* store.readPendingRemove(paths).pipe(Effect.flatMap((removals) => store.removeBodyFolders(paths, removals)), Effect.mapError(ioFailure))
    const previousRows = yield* store.readIngestList(paths).pipe(Effect.mapError(ioFailure))
    const recovery = recoverFromJournal(yield* store.readJournal(paths).pipe(Effect.mapError(ioFailure)), previousRows)
    // R7: a folder that cannot be published is carried over: ingested again in this run, last (C1).
    const inFlight = new Set(recovery.inFlight)
    for (const s of recovery.publish) {
      const staged = path.join(paths.root, s.staging)
      if (!(yield* store.isStagingComplete(staged))) continue
      const published = yield* store.publishSourceFolder(paths, s.index, s.path, staged).pipe(Effect.either)
      if (published._tag === "Left") {
        inFlight.add(fileKey(s.index, s.path))
        yield* log.write(text.logNotRecovered(`${s.index}/${s.path}`, describeWorkFolderError(published.left.message, ctx.language)), "warn", "file")
      } else {
        yield* log.write(text.logRecovered(`${s.index}/${s.path}`), "info", "file")
      }
    }
    yield* store.resetJournal(paths).pipe(Effect.mapError(ioFailure))
    yield* store.clearStagingArea(paths).pipe(Effect.mapError(ioFailure))
    return { previousRows, inFlight: inFlight as ReadonlySet<string> }
  })

/** What the crawl of the selected indexes found (R8): the files, the indexes it finished, the entries it could not read, and whether a stop ended it. */
export interface CrawlResult {
  readonly files: ReadonlyArray<CrawledFile>
  readonly crawledIndexes: ReadonlyArray<string>
  readonly unreadable: ReadonlyArray<{ readonly index: string; readonly path: string }>
  readonly stopped: boolean
}

/** R8: crawls each selected index in order; a stop leaves the rest as it was (not looked at). */
export const crawlSelected = (ctx: RunContext, selected: ReadonlyArray<TargetFolder>) =>
  Effect.gen(function* () {
    const { channel, log, text } = ctx
    const files: Array<CrawledFile> = []
    const crawledIndexes: Array<string> = []
    // Entries the crawl could not read (a folder without permission, a share glitch).
    const unreadable: Array<{ index: string; path: string }> = []
    for (const target of selected) {
      if (yield* SubscriptionRef.get(channel.stop)) break
      yield* ctx.progress({ _tag: "phase", phase: "crawl", current: text.crawling(target.name, target.path) })
      yield* log.write(text.crawling(target.name, target.path))
      const result = yield* crawlFolder(target.name, target.path).pipe(Effect.mapError((e) => new RunFailure({ message: e.message })))
      // An entry that cannot be read (a folder without permission, a dangling link) leaves files out
      // of the run: a warning a terminal shows; the other skips (a loop, a lock file…) are file lines.
      for (const s of result.skipped) {
        const unreadableEntry = s.reason === "unreadable"
        yield* log.write(text.logSkipped(`${target.name}/${s.path}`, s.reason, s.detail), unreadableEntry ? "warn" : "info", unreadableEntry ? "fileAlert" : "file")
        if (unreadableEntry) unreadable.push({ index: target.name, path: s.path })
      }
      files.push(...result.files)
      crawledIndexes.push(target.name)
    }
    // A stop that came after the last folder still cancels before anything is asked or written.
    const stopped = yield* SubscriptionRef.get(channel.stop)
    return { files, crawledIndexes, unreadable, stopped } satisfies CrawlResult
  })

/** The answer of {@link askForAnswer}: `Answered`, or `Cancelled` (cancel, stop or no answer in time) with the counted list. */
export type Reply =
  | { readonly _tag: "Answered"; readonly answer: PlanAnswer }
  | { readonly _tag: "Cancelled"; readonly counted: TargetList; readonly why: CancelReason }

/**
 * R10: the plan of `counted` into the channel, the phase `confirm`, and the
 * wait for the answer; cancel, stop or no answer within the timeout (60
 * minutes) is `Cancelled`. The plan is removed when the wait ends.
 */
export const askForAnswer = (ctx: RunContext, counted: TargetList) =>
  Effect.gen(function* () {
    const { channel, text } = ctx
    yield* SubscriptionRef.set(channel.plan, Option.some(makePlan(counted.counts)))
    yield* ctx.progress({ _tag: "phase", phase: "confirm", current: text.waitingForAnswer, remaining: counted.targets.length })
    const stopped = channel.stop.changes.pipe(Stream.filter((s) => s), Stream.take(1), Stream.runDrain)
    const limit = Duration.decode(ctx.options.answerTimeout ?? Duration.minutes(60))
    const cancelled = (why: CancelReason): Reply => ({ _tag: "Cancelled", counted, why })
    const reply = yield* Deferred.await(channel.answer).pipe(
      Effect.map((answer): Reply => (answer === null ? cancelled({ _tag: "declined" }) : { _tag: "Answered", answer })),
      Effect.raceFirst(stopped.pipe(Effect.as(cancelled({ _tag: "stopped" })))),
      Effect.timeoutTo({ duration: limit, onTimeout: () => cancelled({ _tag: "timedOut", minutes: Duration.toMinutes(limit) }), onSuccess: (r) => r })
    )
    yield* SubscriptionRef.set(channel.plan, Option.none())
    return reply
  })

/**
 * R8, R10: the answer as `decideConfirmation` said to get it: cancelled
 * (with the list `counted`), asked for ({@link askForAnswer}, showing `counted`), or given.
 */
export const obtainAnswer = (ctx: RunContext, confirmation: Confirmation, counted: TargetList): Effect.Effect<Reply> => {
  switch (confirmation._tag) {
    case "Cancel":
      return Effect.succeed({ _tag: "Cancelled", counted, why: { _tag: "stopped" } })
    case "Ask":
      return askForAnswer(ctx, counted)
    case "Answer":
      return Effect.succeed({ _tag: "Answered", answer: confirmation.answer })
  }
}

/** R8, R12: the files `list` found vanished leave the body index (logged one by one). */
export const removeVanished = (ctx: RunContext, list: TargetList) =>
  Effect.gen(function* () {
    yield* ctx.store.removeBodyFolders(ctx.paths, list.vanished).pipe(Effect.mapError(ioFailure))
    for (const r of list.vanished) yield* ctx.log.write(ctx.text.logRemovedVanished(`${r.index}/${r.path}`), "info", "file")
  })

/** R8, R10: cancel and stop keep the previous rows (`rowsKeptOnCancel`), minus the vanished files, whose removal is kept. */
export const keepPreviousRows = (ctx: RunContext, previousRows: ReadonlyArray<IngestRow>, list: TargetList) =>
  Effect.gen(function* () {
    yield* removeVanished(ctx, list)
    yield* ctx.store.rewriteIngestList(ctx.paths, rowsKeptOnCancel(previousRows, list)).pipe(Effect.mapError(ioFailure))
  })

/** R9: the cloud-only files left alone, into the channel and the log, counted per index. */
export const reportCloudSkipped = (ctx: RunContext, list: TargetList) =>
  Effect.gen(function* () {
    const { channel, log, text } = ctx
    yield* Ref.set(channel.cloudSkipped, list.cloudSkipped.map((f) => ({ index: f.index, path: f.path })))
    for (const c of list.counts) {
      if (c.cloudSkipped > 0) yield* log.write(text.cloudSkippedIn(c.index, c.cloudSkipped))
    }
    for (const f of list.cloudSkipped) yield* log.write(text.logCloudOnlyFile(`${f.index}/${f.path}`), "info", "file")
  })

/**
 * R8, C1: when the plan takes up files an earlier run left pending (stopped, or killed), a line that
 * says so in words, before the plan is shown (a new user saw only its 未取り込み count).
 */
export const reportResume = (ctx: RunContext, list: TargetList) => {
  const pending = list.counts.reduce((n, c) => n + c.pending, 0)
  return pending > 0 ? ctx.log.write(ctx.text.resumingPending(pending)) : Effect.void
}

/** R13: the counts per index, then the number of targets, into the log. */
export const reportCounts = (ctx: RunContext, list: TargetList) =>
  Effect.gen(function* () {
    for (const c of list.counts) yield* ctx.log.write(ctx.text.logIndexCounts(c), "info", "plan")
    yield* ctx.log.write(ctx.text.targetCounts(list.targets.length))
  })
