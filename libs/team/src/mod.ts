/**
 * `@sagasu/team`: the team server (issue 18) — the body index published to
 * PostgreSQL through a sink port, and searched there with the local
 * search's query language and rules.
 *
 * @example
 * ```ts
 * import { WorkStore } from "@sagasu/store"
 * import { pgSinkLayer, publishToTeam, searchTeamFiles } from "@sagasu/team"
 * const summaries = yield* publishToTeam(paths, ["共有"]).pipe(Effect.provide(pgSinkLayer(settings.teamServer)), Effect.provide(WorkStore.Default))
 * const result = yield* searchTeamFiles(settings.teamServer, "見積")
 * ```
 *
 * @module
 */
export * from "./access.ts"
export * from "./pg_sink.ts"
export * from "./publish.ts"
export { migrateSchema, migrations, readSchemaVersion, teamLockNamespace } from "./schema.ts"
export * from "./team_error.ts"
export * from "./team_search.ts"
export * from "./team_sink.ts"
