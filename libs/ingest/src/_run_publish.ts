/**
 * The indexing run's writing steps after a result (R14–R16; private): the
 * body-index path a done file would take (C2), publishing staged folders,
 * the finally step, the 2-gram update of the closing, and the team server's
 * round and publish (issue 18).
 *
 * @module
 */
import { type RunOutcome, type Settings, type StagedFile, type TeamServerSettings, decideTeamPublish, decideTeamRound, describeWorkFolderError, fileKey } from "@sagasu/domain"
import { type GramUpdateSummary, WorkStore, crashPoint } from "@sagasu/store"
import { type TeamRound, describeTeamError, openTeamRound, pgSinkLayer, publishToTeam } from "@sagasu/team"
import { Cause, Clock, Effect } from "effect"
import * as path from "node:path"
import { type GramRoundHook, type InFlight, type RoundChanges, type RunContext, type RunState, ioFailure } from "./_run_context.ts"

/** C2: the longest body-index path, in bytes, the staged TSVs of `flight` would take; `undefined` when its staging folder cannot be read. */
export const bodyPathBytes = (ctx: RunContext, flight: InFlight): number | undefined =>
  ctx.store.stagedPathBytes(ctx.paths, flight.target.index, flight.target.path, path.join(ctx.paths.root, flight.staging))

/** Tells the 2-gram round, when one is under way, that the fresh log has a new entry (S1). */
export const noteRound = (state: RunState) => state.round?.noted ?? Effect.void

/** R14, C2: each staged folder swapped into the body index, journal `published` after it. */
export const publishStaged = (ctx: RunContext, staged: ReadonlyArray<StagedFile>, state: RunState) =>
  Effect.forEach(
    staged,
    (s) =>
      Effect.gen(function* () {
        // S1: noted in the fresh log first, so it is found at once whatever happens next.
        yield* ctx.store.publishSourceFolder(ctx.paths, s.index, s.path, path.join(ctx.paths.root, s.staging)).pipe(Effect.mapError(ioFailure))
        crashPoint("publish.before-journal")
        yield* ctx.store.appendJournal(ctx.paths, [{ _tag: "published", index: s.index, path: s.path }]).pipe(Effect.mapError(ioFailure))
        state.published.push({ index: s.index, path: s.path })
        yield* noteRound(state)
        // Issue 18: on its way to the team server (queued; the run never waits for the server).
        if (state.team !== undefined) yield* state.team.noted(s.index, s.path)
      }),
    { discard: true }
  )

/**
 * R15: runs on success, error and stop (not on a crash: C1 covers that):
 * every folder still waiting published, the work area emptied, the ingest
 * list rewritten to one line per file, journal `end`. Its own failure is the
 * run's error (`state.finallyError`, R18).
 */
export const finallyStep = (ctx: RunContext, state: RunState) =>
  Effect.gen(function* () {
    const { store, paths, text } = ctx
    yield* ctx.progress({ _tag: "phase", phase: "finalize", current: text.publishing })
    yield* publishStaged(ctx, state.staged, state)
    state.staged = []
    yield* store.emptyWorkArea(paths)
    yield* ctx.progress({ _tag: "current", current: text.rewritingIngestList })
    crashPoint("finally.before-rewrite")
    const rows = yield* store.readIngestList(paths)
    yield* store.rewriteIngestList(paths, rows.filter((r) => !state.removedKeys.has(fileKey(r.index, r.path))))
    yield* store.appendJournal(paths, [{ _tag: "end" }])
  }).pipe(
    Effect.catchAllCause((cause) => {
      // One line a person reads (the system's words, a full disk said so, R18); not a stack trace.
      const message = ctx.text.logFinallyFailed(describeWorkFolderError(causeLine(cause), ctx.language))
      state.finallyError = message
      return ctx.log.write(message, "error")
    })
  )

/**
 * R16: the 2-gram index brought in line with `changes` — by the round when
 * one is under way, else by the options' `updateGram` (none: nothing to do).
 * A failure is a warning in the log; the next run retries.
 */
export const updateGramIndex = (ctx: RunContext, changes: RoundChanges, round: GramRoundHook | undefined) => {
  const update = round !== undefined ? round.finish(changes) : ctx.options.updateGram?.(ctx.paths, changes)
  if (update === undefined) return Effect.void
  return Effect.gen(function* () {
    // P1: `current` says what is happening (also in progress.json, where a reader sees it).
    yield* ctx.progress({ _tag: "current", current: ctx.text.updatingGram })
    const started = yield* Clock.currentTimeMillis
    yield* update.pipe(
      Effect.flatMap((summary) =>
        Clock.currentTimeMillis.pipe(Effect.flatMap((now) => ctx.log.write(gramUpdatedLine(ctx, summary, now - started), "info", "detail")))
      ),
      Effect.catchAllCause((cause) => ctx.log.write(ctx.text.gramFailed(causeLine(cause)), "warn"))
    )
  })
}

// The log line of a finished R16, with what the store's update reports when it does.
const gramUpdatedLine = (ctx: RunContext, summary: unknown, ms: number) => {
  if (typeof summary !== "object" || summary === null || !("indexed" in summary) || !("prebuilt" in summary)) {
    return ctx.text.logGramUpdated(undefined, ms)
  }
  return ctx.text.logGramUpdated(summary as GramUpdateSummary, ms)
}

/** A cause in one line: its first failure's or defect's message (the rest of `Cause.pretty` is a stack). */
export const causeLine = (cause: Cause.Cause<unknown>) => {
  const squashed = Cause.squash(cause)
  const text = squashed instanceof Error ? squashed.message : String(squashed)
  return text.split("\n")[0] ?? ""
}

/**
 * Issue 18: the run's {@link TeamRound} when the domain says so
 * (`decideTeamRound`): the files published from now on go to the team
 * server as they come (visible at the end's flip); none without a
 * `teamServer`. Opened in the run's scope; never waits for the server.
 */
export const openRunTeamRound = (ctx: RunContext, settings: Settings) => Effect.gen(function* () {
  const step = decideTeamRound(settings)
  if (step._tag === "Skip") return undefined
  return yield* openTeamRound(ctx.paths, step.indexes, teamSinkOf(ctx, step.server)).pipe(Effect.provideService(WorkStore, ctx.store))
})

/**
 * Issue 18: the body index published to the team server when the domain
 * says so (`decideTeamPublish` of the settings as they are now and the run's
 * `outcome`), still under the work folder's lock: by the run's
 * {@link TeamRound} when it has one (what it sent while ingesting is not
 * sent again), else anew; each index's result a log line. A failure — the
 * server unreachable, another publisher holding an index (the lock's
 * message) — is a warning: the local index is complete, and the next run or
 * `sagasu publish` goes on from what the server holds.
 */
export const publishTeamStep = (ctx: RunContext, outcome: RunOutcome, round: TeamRound | undefined) => Effect.gen(function* () {
  const settings = yield* ctx.store.readSettings(ctx.paths).pipe(Effect.option)
  if (settings._tag === "None") return
  const step = decideTeamPublish(settings.value, outcome)
  if (step._tag === "Skip") return
  const options = { onIndex: (index: string) => ctx.progress({ _tag: "current", current: ctx.text.teamPublishing(index) }) }
  const publish = round !== undefined
    ? round.finish(options)
    : publishToTeam(ctx.paths, step.indexes, options).pipe(Effect.provide(teamSinkOf(ctx, step.server)), Effect.provideService(WorkStore, ctx.store))
  yield* publish.pipe(
    Effect.flatMap((summaries) => Effect.forEach(summaries, (s) => ctx.log.write(ctx.text.teamPublished(s.index, s)), { discard: true })),
    Effect.catchAll((e) => ctx.log.write(ctx.text.teamPublishFailed(describeTeamError(e, ctx.language)), "warn")),
    Effect.catchAllDefect((defect) => ctx.log.write(ctx.text.teamPublishFailed(String(defect)), "warn"))
  )
})

// The sink of the run's team server (the options' test layer, else PostgreSQL's).
const teamSinkOf = (ctx: RunContext, server: TeamServerSettings) => (ctx.options.teamSink ?? pgSinkLayer)(server)
