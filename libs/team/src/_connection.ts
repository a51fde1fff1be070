/**
 * Connecting to the team server (issue 18, private): the `teamServer`
 * setting made into a `pg` client configuration, the password read from
 * the environment variable or the file the setting names (else `pg` asks
 * `PGPASSWORD` and `~/.pgpass` itself), and a client opened and closed
 * with its scope. The password is never part of a message: errors name
 * the server through `redactConnection`.
 *
 * @module
 */
import { type TeamServerSettings, redactConnection } from "@sagasu/domain"
import { Effect, type Scope } from "effect"
import * as fs from "node:fs"
import pg from "pg"
import { parseIntoClientConfig } from "pg-connection-string"
import { TeamError } from "./team_error.ts"

/** The server as messages show it. */
export const shownServer = (server: TeamServerSettings) => redactConnection(server.url)

/** A failure of the server (connecting, a statement) as a {@link TeamError} `unreachable`. */
export const unreachable = (server: TeamServerSettings) => (e: unknown) => {
  const detail = e instanceof Error ? e.message : String(e)
  // pg's words when the server asks for a password and the client has none (SCRAM).
  if (detail.includes("client password must be a string")) return new TeamError({ reason: "no-password", server: shownServer(server), detail: server.passwordEnv })
  return new TeamError({ reason: "unreachable", server: shownServer(server), detail })
}

/** Runs a `pg` call as an Effect, its failure an `unreachable` {@link TeamError}. */
export const attempt = <A>(server: TeamServerSettings, f: () => Promise<A>) =>
  Effect.tryPromise({ try: f, catch: unreachable(server) })

/**
 * The `pg` configuration of `server`: its url parsed, the password from
 * `env[passwordEnv]`, else the first line of `passwordFile`; `application_name` `sagasu`.
 */
export const clientConfigOf = (server: TeamServerSettings, env: NodeJS.ProcessEnv = process.env) =>
  Effect.gen(function* () {
    const config = yield* Effect.try({ try: () => parseIntoClientConfig(server.url), catch: unreachable(server) })
    let password = env[server.passwordEnv]
    if ((password === undefined || password === "") && server.passwordFile !== undefined) {
      const file = server.passwordFile
      password = yield* Effect.try({
        try: () => fs.readFileSync(file, "utf8").split(/\r?\n/)[0] ?? "",
        catch: (e) => new TeamError({ reason: "password-file", server: file, detail: e instanceof Error ? e.message : String(e) })
      })
    }
    return {
      ...config,
      ...(password !== undefined && password !== "" ? { password } : {}),
      application_name: "sagasu",
      connectionTimeoutMillis: 30_000
    } satisfies pg.ClientConfig
  })

/** A connected client of `server`, ended when the scope closes (a dropped connection releases its locks on the server). */
export const connectClient = (server: TeamServerSettings): Effect.Effect<pg.Client, TeamError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.gen(function* () {
      const config = yield* clientConfigOf(server)
      const client = new pg.Client(config)
      // A connection lost later surfaces as the failure of the statement that meets it.
      client.on("error", () => {})
      yield* attempt(server, () => client.connect())
      return client
    }),
    (client) => Effect.promise(() => client.end().catch(() => undefined))
  )
