/**
 * Who may search which index on the team server (issue 18): row-level
 * security on every table a search reads (schema.ts) shows a role only the
 * rows of the indexes granted to it — to the role itself or to a group role
 * it is a member of (`pg_has_role(…, 'MEMBER')`). Grants are rows of
 * `sagasu.grants`, written by the publisher (the tables' owner, to whom the
 * policies do not apply); roles are the database's own, made by its
 * administrator.
 *
 * @module
 */
import type { TeamServerSettings } from "@sagasu/domain"
import { Effect } from "effect"
import { attempt, connectClient, shownServer } from "./_connection.ts"
import { migrateSchema } from "./schema.ts"
import { TeamError } from "./team_error.ts"

/**
 * Lets `role` search `index` (`granted`), or no longer. Runs as the role
 * of `server` (the publisher). Fails `no-index` when the server has no such
 * index, `unreachable` with the server's words when the role does not exist.
 */
export const grantTeamIndex = (server: TeamServerSettings, index: string, role: string, granted: boolean) =>
  Effect.scoped(
    Effect.gen(function* () {
      const client = yield* connectClient(server)
      yield* migrateSchema(server, client)
      const id = yield* attempt(server, async () => {
        const r = await client.query<{ id: number }>("SELECT id FROM sagasu.indexes WHERE name = $1", [index])
        return r.rows[0]?.id
      })
      if (id === undefined) return yield* new TeamError({ reason: "no-index", server: shownServer(server), detail: index })
      yield* attempt(server, () =>
        granted
          ? client.query("INSERT INTO sagasu.grants (index_id, role) VALUES ($1, quote_ident($2)::regrole::oid) ON CONFLICT DO NOTHING", [id, role])
          : client.query("DELETE FROM sagasu.grants WHERE index_id = $1 AND role = quote_ident($2)::regrole::oid", [id, role])
      )
    })
  )
