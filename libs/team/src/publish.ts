/**
 * Publishing the body index to the team server (issue 18): per index, under
 * its writer lock, the server is made to hold what the body index holds —
 * the files whose body-index folder is new or another version published
 * (each in one transaction), the files gone removed (one transaction), then
 * the generation flipped so readers see the whole change at once
 * (schema.ts). The plan is the domain's (`planTeamSync`) from fingerprints
 * on both sides, so a publish cut short (kill -9, a lost connection) is
 * finished by the next one and a publish over a body index that the server
 * has never seen publishes all of it: the server converges to the body
 * index. The caller holds the work folder's lock (R3), so no folder is
 * swapped while it is read.
 *
 * @module
 */
import { decidePublishCommand, decideTeamConnect, messages, planTeamSync, redactConnection } from "@sagasu/domain"
import { type BodyFolder, type StoreReadError, type WorkPaths, WorkStore } from "@sagasu/store"
import { Context, Data, Effect, Fiber, Layer, Queue, Scope } from "effect"
import { pgSinkLayer } from "./pg_sink.ts"
import { TeamError } from "./team_error.ts"
import { type TeamIndexWriter, TeamSink } from "./team_sink.ts"

/** What one index's publish did: files published, removed, left as they were, and the generation readers see now. */
export interface TeamPublishSummary {
  readonly index: string
  readonly published: number
  readonly removed: number
  readonly unchanged: number
  readonly generation: number
}

/** Options of {@link publishToTeam}. */
export interface PublishToTeamOptions {
  /** Called before each index is published (progress). */
  readonly onIndex?: (index: string) => Effect.Effect<void>
}

const bodyIndexError = (paths: WorkPaths) => (e: StoreReadError) => new TeamError({ reason: "body-index", server: paths.index, detail: e.detail })

// The body index's folders by index, then by path.
const bodyFoldersByIndex = (store: WorkStore, paths: WorkPaths) =>
  store.walkBodyIndex(paths).pipe(
    Effect.mapError(bodyIndexError(paths)),
    Effect.map((all) => {
      const byIndex = new Map<string, Map<string, BodyFolder>>()
      for (const f of all) {
        const m = byIndex.get(f.index) ?? new Map<string, BodyFolder>()
        m.set(f.path, f)
        byIndex.set(f.index, m)
      }
      return byIndex
    })
  )

/** Sends one body-index folder through `writer`; false when it is gone or changed while read (the next publish sees it as it is then). */
const sendFolder = (store: WorkStore, paths: WorkPaths, writer: TeamIndexWriter, folder: BodyFolder) =>
  Effect.gen(function* () {
    const parts = yield* store.readBodyFolderParts(folder).pipe(Effect.mapError(bodyIndexError(paths)))
    if (parts === undefined) return false
    // Swapped while it was read (a new version published): not sent as one version; the next publish sends it.
    const after = yield* store.bodyFolderAt(paths, folder.index, folder.path).pipe(Effect.mapError(bodyIndexError(paths)))
    if (after?.fingerprint !== folder.fingerprint) return false
    const stamp = yield* store.sourceStampOf(folder)
    yield* writer.publish({
      path: folder.path, fingerprint: folder.fingerprint, size: stamp?.size, mtimeMs: stamp?.mtimeMs, publishedMs: folder.mtimeMs, parts
    })
    return true
  })

/**
 * One index brought in line through `writer` (its lock held): the domain's
 * plan, each changed file sent, the vanished removed, the flip. `sent`: the
 * files a round sent before (counted as published, not as unchanged).
 */
const convergeIndex = (
  store: WorkStore, paths: WorkPaths, writer: TeamIndexWriter, local: ReadonlyMap<string, BodyFolder>, sent: ReadonlySet<string> = new Set()
) =>
  Effect.gen(function* () {
    const plan = planTeamSync(new Map([...local].map(([p, f]) => [p, f.fingerprint])), yield* writer.fingerprints)
    const published = new Set<string>()
    for (const p of plan.publish) {
      const folder = local.get(p)
      if (folder !== undefined && (yield* sendFolder(store, paths, writer, folder))) published.add(p)
    }
    yield* writer.remove(plan.remove)
    const generation = yield* writer.flip
    const sentBefore = [...sent].filter((p) => local.has(p) && !plan.publish.includes(p)).length
    return {
      index: writer.index, published: published.size + sentBefore, removed: plan.remove.length, unchanged: plan.unchanged - sentBefore, generation
    } satisfies TeamPublishSummary
  })

/**
 * Publishes the body index of `indexes` (names; an index with no body index
 * is published empty) through the {@link TeamSink}, one index after the
 * other, reading the body index through the {@link WorkStore}; the
 * summaries in that order. Fails `held` when another publisher
 * has an index's lock (the indexes before it are published), and with the
 * sink's errors.
 */
export const publishToTeam = Effect.fn("Team.publish")(function* (
  paths: WorkPaths,
  indexes: ReadonlyArray<string>,
  options: PublishToTeamOptions = {}
) {
  const sink = yield* TeamSink
  const store = yield* WorkStore
  const byIndex = yield* bodyFoldersByIndex(store, paths)
  const summaries: Array<TeamPublishSummary> = []
  for (const index of indexes) {
    if (options.onIndex !== undefined) yield* options.onIndex(index)
    const local = byIndex.get(index) ?? new Map<string, BodyFolder>()
    summaries.push(yield* Effect.scoped(Effect.flatMap(sink.openIndex(index), (writer) => convergeIndex(store, paths, writer, local))))
  }
  return summaries
})

/**
 * Publishing while a run ingests (issue 18): the files the run publishes
 * into the body index are sent to the team server as they come, each in its
 * own transaction at the pending generation, by a fiber of their own — so
 * the end of the run has little left to send. Readers see nothing of it
 * before {@link TeamRound.finish} flips.
 */
export interface TeamRound {
  /** A source file's folder was published into the body index (queued; never waits for the server). */
  readonly noted: (index: string, path: string) => Effect.Effect<void>
  /**
   * Waits for the files queued, then brings every index in line with the
   * body index and flips it (as {@link publishToTeam}); fails when the round
   * could not open (the server, a held lock) or a statement failed — the
   * caller then closes the round (its scope) and publishes anew.
   */
  readonly finish: (options?: PublishToTeamOptions) => Effect.Effect<ReadonlyArray<TeamPublishSummary>, TeamError>
}

/**
 * Opens a {@link TeamRound} for `indexes` through the sink `sink`, in the
 * background: connecting and taking the indexes' writer locks happen on the
 * round's fiber, so the run never waits for the server. The connection,
 * the locks and the fiber end with the scope (a round closed without
 * `finish` leaves what it sent invisible, for the next publish to go on from).
 * The body index is read through the {@link WorkStore} of the context.
 */
export const openTeamRound = (
  paths: WorkPaths,
  indexes: ReadonlyArray<string>,
  sink: Layer.Layer<TeamSink, TeamError>
): Effect.Effect<TeamRound, never, Scope.Scope | WorkStore> =>
  Effect.gen(function* () {
    const scope = yield* Effect.scope
    const store = yield* WorkStore
    const queue = yield* Queue.unbounded<{ readonly index: string; readonly path: string } | undefined>()
    const fiber = yield* Effect.forkIn(
      Effect.gen(function* () {
        const context = yield* Layer.buildWithScope(sink, scope)
        const writers = new Map<string, { readonly writer: TeamIndexWriter; readonly sent: Set<string> }>()
        for (const index of indexes) writers.set(index, { writer: yield* Scope.extend(Context.get(context, TeamSink).openIndex(index), scope), sent: new Set() })
        for (;;) {
          const item = yield* Queue.take(queue)
          if (item === undefined) return writers
          const w = writers.get(item.index)
          const folder = yield* store.bodyFolderAt(paths, item.index, item.path).pipe(Effect.mapError(bodyIndexError(paths)))
          if (w !== undefined && folder !== undefined && (yield* sendFolder(store, paths, w.writer, folder))) w.sent.add(item.path)
        }
      }),
      scope
    )
    return {
      noted: (index, path) => Queue.offer(queue, { index, path }).pipe(Effect.asVoid),
      finish: (options = {}) =>
        Effect.gen(function* () {
          yield* Queue.offer(queue, undefined)
          const writers = yield* Fiber.join(fiber)
          const byIndex = yield* bodyFoldersByIndex(store, paths)
          const summaries: Array<TeamPublishSummary> = []
          for (const [index, { writer, sent }] of writers) {
            if (options.onIndex !== undefined) yield* options.onIndex(index)
            summaries.push(yield* convergeIndex(store, paths, writer, byIndex.get(index) ?? new Map<string, BodyFolder>(), sent))
          }
          return summaries
        })
    }
  })

/** A team command refused before it reached the server: no team server set, an unknown index name, a connection string refused (the message in the settings' language). */
export class TeamCommandRefused extends Data.TaggedError("TeamCommandRefused")<{ readonly message: string }> {}

/**
 * `sagasu publish [--only NAME]…` (issue 18): the work folder `work`'s body
 * index published to its team server — every registered index, or the
 * `only` ones — under the work folder's lock (R3: not while an indexing
 * run is going on; that run publishes at its end). The catch-up for a
 * work folder indexed before the team server was set, or after a publish
 * that failed. The summaries and the settings' language for the caller's
 * sentences; fails with the store's errors, {@link TeamCommandRefused} or a
 * {@link TeamError}.
 */
export const publishWorkFolder = Effect.fn("Team.publishWorkFolder")(function* (
  work: string,
  only: ReadonlyArray<string>,
  options: PublishToTeamOptions = {}
) {
  const store = yield* WorkStore
  const paths = yield* store.checkWorkFolder(work)
  const settings = yield* store.readSettings(paths)
  const text = messages(settings.language)
  const step = decidePublishCommand(settings, only)
  switch (step._tag) {
    case "NotConfigured":
      return yield* new TeamCommandRefused({ message: text.teamNotConfigured })
    case "UnknownIndex":
      return yield* new TeamCommandRefused({ message: `${text.onlyNameSkipped(step.name, "unknown")}\n${text.knownIndexNames(settings.targetFolders)}` })
    case "Publish": {
      const summaries = yield* Effect.scoped(
        Effect.gen(function* () {
          yield* store.acquireLock(paths).pipe(Effect.mapError((e) => (e.reason === "held" ? new TeamCommandRefused({ message: text.lockHeld }) : e)))
          return yield* publishToTeam(paths, step.indexes, options).pipe(Effect.provide(pgSinkLayer(step.server)))
        })
      )
      return { summaries, language: settings.language }
    }
  }
})

/**
 * `sagasu team connect URL [--search] [--password-env NAME] [--password-file PATH]`
 * (issue 18): the `teamServer` setting of the work folder `work` written
 * (domain `decideTeamConnect`: a `postgres://` URL without a password in
 * it). The sentence saying what was set, in the settings' language; fails
 * with the store's errors or {@link TeamCommandRefused}.
 */
export const connectWorkFolder = Effect.fn("Team.connectWorkFolder")(function* (
  work: string,
  url: string,
  options: { readonly search: boolean; readonly passwordEnv?: string | undefined; readonly passwordFile?: string | undefined }
) {
  const store = yield* WorkStore
  const paths = yield* store.checkWorkFolder(work)
  const settings = yield* store.readSettings(paths)
  const text = messages(settings.language)
  const decided = decideTeamConnect(url, options)
  if (decided._tag === "Refused") return yield* new TeamCommandRefused({ message: text.teamUrlRefused(decided.reason) })
  yield* store.writeSettings(paths, { ...settings, teamServer: decided.server })
  return text.teamConnected(redactConnection(decided.server.url), decided.server.search, decided.server.passwordEnv)
})
