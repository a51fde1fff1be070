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
import {
  type BodyFolder, type WorkPaths, acquireLock, checkWorkFolder, readBodyFolderParts, readSettings, sourceStampOf, walkBodyIndex, writeSettings
} from "@sagasu/store"
import { Data, Effect } from "effect"
import { pgSinkLayer } from "./pg_sink.ts"
import { TeamError } from "./team_error.ts"
import { TeamSink } from "./team_sink.ts"

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

const bodyIndexError = (paths: WorkPaths) => (e: unknown) =>
  new TeamError({ reason: "body-index", server: paths.index, detail: e instanceof Error ? e.message : String(e) })

/**
 * Publishes the body index of `indexes` (names; an index with no body index
 * is published empty) through the {@link TeamSink}, one index after the
 * other; the summaries in that order. Fails `held` when another publisher
 * has an index's lock (the indexes before it are published), and with the
 * sink's errors.
 */
export const publishToTeam = Effect.fn("Team.publish")(function* (
  paths: WorkPaths,
  indexes: ReadonlyArray<string>,
  options: PublishToTeamOptions = {}
) {
  const sink = yield* TeamSink
  const all = yield* Effect.try({ try: () => walkBodyIndex(paths.index), catch: bodyIndexError(paths) })
  const byIndex = new Map<string, Map<string, BodyFolder>>()
  for (const f of all) {
    const m = byIndex.get(f.index) ?? new Map<string, BodyFolder>()
    m.set(f.path, f)
    byIndex.set(f.index, m)
  }
  const summaries: Array<TeamPublishSummary> = []
  for (const index of indexes) {
    if (options.onIndex !== undefined) yield* options.onIndex(index)
    const local = byIndex.get(index) ?? new Map<string, BodyFolder>()
    const summary = yield* Effect.scoped(
      Effect.gen(function* () {
        const writer = yield* sink.openIndex(index)
        const plan = planTeamSync(new Map([...local].map(([p, f]) => [p, f.fingerprint])), yield* writer.fingerprints)
        let published = 0
        for (const p of plan.publish) {
          const folder = local.get(p)
          if (folder === undefined) continue
          const parts = yield* Effect.try({ try: () => readBodyFolderParts(folder), catch: bodyIndexError(paths) })
          // Gone since the walk: the next publish sees it as it is then.
          if (parts === undefined) continue
          const stamp = sourceStampOf(folder.dir)
          yield* writer.publish({
            path: p, fingerprint: folder.fingerprint, size: stamp?.size, mtimeMs: stamp?.mtimeMs, publishedMs: folder.mtimeMs, parts
          })
          published++
        }
        yield* writer.remove(plan.remove)
        const generation = yield* writer.flip
        return { index, published, removed: plan.remove.length, unchanged: plan.unchanged, generation }
      })
    )
    summaries.push(summary)
  }
  return summaries
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
  const paths = yield* checkWorkFolder(work)
  const settings = yield* readSettings(paths)
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
          yield* acquireLock(paths).pipe(Effect.mapError((e) => (e.reason === "held" ? new TeamCommandRefused({ message: text.lockHeld }) : e)))
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
  const paths = yield* checkWorkFolder(work)
  const settings = yield* readSettings(paths)
  const text = messages(settings.language)
  const decided = decideTeamConnect(url, options)
  if (decided._tag === "Refused") return yield* new TeamCommandRefused({ message: text.teamUrlRefused(decided.reason) })
  yield* writeSettings(paths, { ...settings, teamServer: decided.server })
  return text.teamConnected(redactConnection(decided.server.url), decided.server.search, decided.server.passwordEnv)
})
