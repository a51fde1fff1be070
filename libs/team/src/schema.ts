/**
 * The team server's tables (issue 18), created and migrated by the product:
 * schema `sagasu`, version {@link teamSchemaVersion} recorded in
 * `sagasu.meta`.
 *
 * - `indexes`: one row per index name — its visible `generation` (the flip,
 *   below) and when it last flipped.
 * - `files`: one row per *version* of a source file — index, path, the
 *   source's size and modified time (the `.complete` stamp; null when
 *   unknown), when its body-index folder was published, `status`, its
 *   document `properties` (jsonb, from the properties part), its `parts`
 *   (the TSV names and locators, in order: the sheet names come from
 *   them), `names_norm` (its path and sheet names normalised, one
 *   U+0001 between names, so a term never matches across two), the body
 *   folder's `fingerprint`, and `born` / `died`: the generations from which
 *   and up to which it is visible.
 * - `lines`: one row per located line — file, index, part and line number
 *   (document order), `loc`, the `text` and its search-only `forms` (S4) as
 *   the body index holds them, `norm` (the normalised text, and, after a
 *   U+0001, the normalised forms) and `grams` (int8[] with GIN: team.ts in
 *   the domain).
 * - `grants`: which role may read which index (row-level security,
 *   access.ts).
 *
 * **Generations.** A publisher writes at `generation + 1` (pending): a
 * file's new version is `born` there and the version it replaces `died`
 * there; readers see, per index, the versions with `born <= generation`
 * and `died` null or after it — so they see the index as the last flip left
 * it until the next flip, which is one `UPDATE` of `indexes.generation`.
 * Versions that died at or before the visible generation are deleted after
 * the flip. A killed publisher's pending rows stay invisible; the next
 * publish goes on at the same pending generation.
 *
 * @module
 */
import { type TeamServerSettings, teamSchemaVersion } from "@sagasu/domain"
import { Effect } from "effect"
import type pg from "pg"
import { attempt, shownServer } from "./_connection.ts"
import { TeamError } from "./team_error.ts"

/** The advisory-lock namespace of Sagasu on the server: `(namespace, 0)` serialises migrations, `(namespace, index id)` is an index's writer lock. */
export const teamLockNamespace = 0x53414753 // "SAGS"

/** Each version's statements, in order: `migrations[n]` brings the schema from version n to n + 1. */
export const migrations: ReadonlyArray<ReadonlyArray<string>> = [
  [
    `CREATE TABLE sagasu.indexes (
      id serial PRIMARY KEY,
      name text NOT NULL UNIQUE,
      generation bigint NOT NULL DEFAULT 0,
      flipped_at timestamptz
    )`,
    `CREATE TABLE sagasu.files (
      id bigserial PRIMARY KEY,
      index_id int NOT NULL REFERENCES sagasu.indexes(id) ON DELETE CASCADE,
      path text NOT NULL,
      size bigint,
      mtime_ms bigint,
      published_ms bigint NOT NULL,
      status text NOT NULL DEFAULT 'done',
      properties jsonb NOT NULL DEFAULT '{}',
      parts jsonb NOT NULL DEFAULT '[]',
      names_norm text NOT NULL,
      fingerprint text NOT NULL,
      born bigint NOT NULL,
      died bigint
    )`,
    "CREATE INDEX files_live ON sagasu.files (index_id, path) WHERE died IS NULL",
    "CREATE INDEX files_dead ON sagasu.files (index_id, died) WHERE died IS NOT NULL",
    "CREATE INDEX files_born ON sagasu.files (index_id, born)",
    `CREATE TABLE sagasu.lines (
      file_id bigint NOT NULL REFERENCES sagasu.files(id) ON DELETE CASCADE,
      index_id int NOT NULL,
      part int NOT NULL,
      line int NOT NULL,
      loc text NOT NULL,
      text text NOT NULL,
      forms text NOT NULL DEFAULT '',
      norm text NOT NULL,
      grams int8[] NOT NULL,
      PRIMARY KEY (file_id, part, line)
    )`,
    "CREATE INDEX lines_grams ON sagasu.lines USING gin (grams)",
    `CREATE TABLE sagasu.grants (
      index_id int NOT NULL REFERENCES sagasu.indexes(id) ON DELETE CASCADE,
      role oid NOT NULL,
      PRIMARY KEY (index_id, role)
    )`,
    // Access (access.ts): every role may read the tables; each row only when the role is granted its index.
    "GRANT USAGE ON SCHEMA sagasu TO PUBLIC",
    "GRANT SELECT ON sagasu.meta, sagasu.indexes, sagasu.files, sagasu.lines, sagasu.grants TO PUBLIC",
    "ALTER TABLE sagasu.grants ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY grants_own ON sagasu.grants FOR SELECT USING (pg_has_role(current_user, role, 'MEMBER'))",
    "ALTER TABLE sagasu.indexes ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY indexes_granted ON sagasu.indexes FOR SELECT USING (id IN (SELECT g.index_id FROM sagasu.grants g))",
    "ALTER TABLE sagasu.files ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY files_granted ON sagasu.files FOR SELECT USING (index_id IN (SELECT g.index_id FROM sagasu.grants g))",
    "ALTER TABLE sagasu.lines ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY lines_granted ON sagasu.lines FOR SELECT USING (index_id IN (SELECT g.index_id FROM sagasu.grants g))"
  ]
]

/** The schema version the server holds (0: none yet); fails `unreachable` when it cannot be read. */
export const readSchemaVersion = (server: TeamServerSettings, client: pg.Client) =>
  attempt(server, async () => {
    const exists = await client.query<{ t: string | null }>("SELECT to_regclass('sagasu.meta')::text AS t")
    if (exists.rows[0]?.t == null) return 0
    const r = await client.query<{ value: string }>("SELECT value FROM sagasu.meta WHERE key = 'schema_version'")
    return Number(r.rows[0]?.value ?? "0")
  })

/**
 * Creates or migrates the schema to {@link teamSchemaVersion} in one
 * transaction, one publisher at a time (an advisory lock); fails
 * `schema-newer` when a newer Sagasu made it. Needs the right to create a
 * schema in the database (the publisher's role; readers never call it).
 */
export const migrateSchema = (server: TeamServerSettings, client: pg.Client) =>
  Effect.gen(function* () {
    const found = yield* readSchemaVersion(server, client)
    if (found > teamSchemaVersion) {
      return yield* new TeamError({ reason: "schema-newer", server: shownServer(server), detail: "", found })
    }
    if (found === teamSchemaVersion) return
    yield* attempt(server, async () => {
      await client.query("BEGIN")
      try {
        await client.query("SELECT pg_advisory_xact_lock($1, 0)", [teamLockNamespace])
        await client.query("CREATE SCHEMA IF NOT EXISTS sagasu")
        await client.query("CREATE TABLE IF NOT EXISTS sagasu.meta (key text PRIMARY KEY, value text NOT NULL)")
        const r = await client.query<{ value: string }>("SELECT value FROM sagasu.meta WHERE key = 'schema_version'")
        const now = Number(r.rows[0]?.value ?? "0")
        for (let v = now; v < teamSchemaVersion; v++) for (const sql of migrations[v] ?? []) await client.query(sql)
        await client.query(
          "INSERT INTO sagasu.meta (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
          [String(teamSchemaVersion)]
        )
        await client.query("COMMIT")
      } catch (e) {
        await client.query("ROLLBACK").catch(() => undefined)
        throw e
      }
    })
  })
