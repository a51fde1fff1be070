/**
 * The file-level search on the team server (issue 18; S3, S4, S5): the same
 * query language, hits and snippets as the local search. The server only
 * narrows: for each word, the lines whose grams hold the word's keys
 * (domain team.ts) and whose normalised text holds the word, and the files
 * whose normalised names hold it; a file holding every word is a candidate.
 * The candidates' lines that hold a word or an excluded word come back in
 * document order, and the store's `decideParts` — the domain's FileMatch,
 * as for the body-index scan — decides each file, its hits and its shown
 * locations; `pageOfDecided` orders and pages them as the scan does.
 *
 * Everything is read in one REPEATABLE READ transaction, so a search sees
 * one generation of each index (schema.ts) even while a publisher flips.
 * Readers need only SELECT: row-level security shows a role the indexes
 * granted to it (access.ts).
 *
 * @module
 */
import { type TeamServerSettings, fileTypeOf, normalizeForSearch, parseSearchQuery, teamKeysOfTerm, teamSchemaVersion } from "@sagasu/domain"
import {
  type DecidedFile, type FileSearchOptions, type FileSearchOutcome, type FreshPart, decideParts, filtersOf, pageOfDecided
} from "@sagasu/store"
import { Effect, type Scope } from "effect"
import pg from "pg"
import { clientConfigOf, shownServer, unreachable } from "./_connection.ts"
import { TeamError } from "./team_error.ts"

/** What a search on the team server found: the page, the totals (always exact), `engine: "team"`. */
export interface TeamSearchResult extends FileSearchOutcome {
  readonly engine: "team"
  readonly problem: ""
}

interface FileRow {
  readonly id: string
  readonly index_id: number
  readonly path: string
  readonly size: string | null
  readonly mtime_ms: string | null
  readonly published_ms: string
  readonly parts: ReadonlyArray<readonly [string, string]>
}

interface LineRow {
  readonly file_id: string
  readonly part: number
  readonly line: number
  readonly loc: string
  readonly text: string
  readonly forms: string
}

const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** A client or a pool: what a search runs its statements on. */
type Queryable = Pick<pg.Client, "query">

/** The search itself on one connection (`client`), inside its own read-only transaction. */
const searchOn = async (client: Queryable, server: TeamServerSettings, query: string, options: FileSearchOptions): Promise<FileSearchOutcome> => {
  const parsed = parseSearchQuery(query)
  if (parsed.terms.length === 0) return pageOfDecided([], options, false)
  const filters = filtersOf(parsed, options)
  await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
  try {
    const meta = await client.query<{ t: string | null }>("SELECT to_regclass('sagasu.meta')::text AS t")
    if (meta.rows[0]?.t == null) throw new TeamError({ reason: "empty", server: shownServer(server), detail: "" })
    const version = await client.query<{ value: string }>("SELECT value FROM sagasu.meta WHERE key = 'schema_version'")
    const found = Number(version.rows[0]?.value ?? "0")
    if (found > teamSchemaVersion) throw new TeamError({ reason: "schema-newer", server: shownServer(server), detail: "", found })
    // The indexes this role may read (row-level security), through the filters that name an index.
    const indexes = await client.query<{ id: number; name: string }>("SELECT id, name FROM sagasu.indexes")
    const names = new Map<number, string>()
    for (const i of indexes.rows) {
      const norm = normalizeForSearch(i.name)
      if (indexOnlyFilterPasses(parsed, options, norm)) names.set(i.id, i.name)
    }
    const ids = [...names.keys()]
    if (ids.length === 0) {
      await client.query("COMMIT")
      return pageOfDecided([], options, false)
    }
    // Candidate files: visible at their index's generation, each word in a line or in a name.
    const params: Array<unknown> = [ids]
    const wordClauses = parsed.terms.map((term) => {
      params.push(teamKeysOfTerm(term), term)
      const k = `$${params.length - 1}`
      const t = `$${params.length}`
      return `(f.id IN (SELECT l.file_id FROM sagasu.lines l WHERE l.index_id = ANY($1) AND l.grams @> ${k}::int8[] AND strpos(l.norm, ${t}) > 0)` +
        ` OR strpos(f.names_norm, ${t}) > 0)`
    })
    const files = await client.query<FileRow>(
      "SELECT f.id, f.index_id, f.path, f.size, f.mtime_ms, f.published_ms, f.parts FROM sagasu.files f " +
        "JOIN sagasu.indexes i ON i.id = f.index_id " +
        "WHERE f.index_id = ANY($1) AND f.born <= i.generation AND (f.died IS NULL OR f.died > i.generation) AND " +
        wordClauses.join(" AND "),
      params
    )
    const candidates = files.rows
      .map((f) => ({ row: f, index: names.get(f.index_id) ?? "", mtimeMs: f.mtime_ms === null ? undefined : Number(f.mtime_ms) }))
      .filter((f) => {
        const sortMs = f.mtimeMs ?? Number(f.row.published_ms)
        return filters.passes(f.index, normalizeForSearch(f.index), f.row.path, normalizeForSearch(f.row.path), fileTypeOf(f.row.path), sortMs)
      })
      .sort((a, b) => byCode(a.index, b.index) || byCode(a.row.path, b.row.path))
    // Their lines that hold a word or an excluded word, in document order.
    const lines = new Map<string, Array<LineRow>>()
    if (candidates.length > 0) {
      const lineParams: Array<unknown> = [candidates.map((c) => c.row.id)]
      const holds = [...parsed.terms, ...parsed.exclude].map((term) => {
        lineParams.push(teamKeysOfTerm(term), term)
        return `(grams @> $${lineParams.length - 1}::int8[] AND strpos(norm, $${lineParams.length}) > 0)`
      })
      const found = await client.query<LineRow>(
        "SELECT file_id, part, line, loc, text, forms FROM sagasu.lines WHERE file_id = ANY($1::int8[]) AND (" + holds.join(" OR ") +
          ") ORDER BY file_id, part, line",
        lineParams
      )
      for (const l of found.rows) {
        const list = lines.get(l.file_id)
        if (list === undefined) lines.set(l.file_id, [l])
        else list.push(l)
      }
    }
    await client.query("COMMIT")
    const decided: Array<DecidedFile> = []
    for (const c of candidates) {
      const own = lines.get(c.row.id) ?? []
      const parts: Array<FreshPart> = c.row.parts.map(([file, locator], pi) => ({
        file,
        locator: locator as FreshPart["locator"],
        lines: own.filter((l) => l.part === pi).map((l) => (l.forms === "" ? { loc: l.loc, text: l.text } : { loc: l.loc, text: l.text, forms: l.forms }))
      }))
      const stamp = c.row.size !== null && c.mtimeMs !== undefined ? { size: Number(c.row.size), mtimeMs: c.mtimeMs } : undefined
      const d = decideParts(parsed, c.index, c.row.path, parts, stamp, c.mtimeMs ?? Number(c.row.published_ms))
      if (d.match.matches) decided.push(d)
    }
    return pageOfDecided(decided, options, false)
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined)
    throw e
  }
}

// Whether an index passes the filters that can be told from its name alone (the index options and `index:`).
const indexOnlyFilterPasses = (parsed: ReturnType<typeof parseSearchQuery>, options: FileSearchOptions, normIndex: string): boolean => {
  const wanted = options.index === undefined ? undefined : (typeof options.index === "string" ? [options.index] : options.index).map((i) => normalizeForSearch(i))
  if (wanted !== undefined && !wanted.includes(normIndex)) return false
  for (const f of parsed.filters) {
    if (f.key !== "index") continue
    if (f.values.includes(normIndex) === f.negate) return false
  }
  return true
}

const asTeamError = (server: TeamServerSettings) => (e: unknown) => (e instanceof TeamError ? e : unreachable(server)(e))

/**
 * Searches the team server `server` for `query` (search_query.ts syntax)
 * with the page, order and filters of `options`, as the role its setting
 * names: each file holding every word once, best first, with its best
 * located hits and snippets — the hits of the local search of the same
 * body index. Fails `unreachable`, `empty` (nothing published yet) or
 * `schema-newer`.
 */
export const searchTeamFiles = (server: TeamServerSettings, query: string, options: FileSearchOptions = {}) =>
  Effect.scoped(
    Effect.gen(function* () {
      const searcher = yield* openTeamSearcher(server)
      return yield* searcher.search(query, options)
    })
  )

/** A searcher that keeps its connections between searches (the GUI). */
export interface TeamSearcher {
  readonly search: (query: string, options?: FileSearchOptions) => Effect.Effect<TeamSearchResult, TeamError>
}

/**
 * Opens a {@link TeamSearcher} of `server` (a pool of at most two
 * connections), closed with the scope.
 */
export const openTeamSearcher = (server: TeamServerSettings): Effect.Effect<TeamSearcher, TeamError, Scope.Scope> =>
  Effect.gen(function* () {
    const config = yield* clientConfigOf(server)
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const p = new pg.Pool({ ...config, max: 2, idleTimeoutMillis: 30_000 })
        p.on("error", () => {})
        return p
      }),
      (p) => Effect.promise(() => p.end().catch(() => undefined))
    )
    return {
      search: (query, options = {}) =>
        Effect.tryPromise({
          try: async () => {
            const client = await pool.connect()
            try {
              return await searchOn(client, server, query, options)
            } finally {
              client.release()
            }
          },
          catch: asTeamError(server)
        }).pipe(Effect.map((outcome): TeamSearchResult => ({ ...outcome, engine: "team", problem: "" })))
    }
  })
