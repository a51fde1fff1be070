/**
 * The file-level search on the team server (issue 18; S3, S4, S5): the same
 * query language, hits and snippets as the local search. The server
 * narrows: for each word, the lines whose grams hold the word's keys
 * (domain team.ts) and whose normalised text holds the word, and the files
 * whose normalised names hold it; a file holding every word is a candidate.
 * For every candidate the server then says, line by line in document
 * order, which words and whether an excluded word the line holds (bits,
 * no text), and the domain's FileMatch decides the file from them — its
 * match, hits and nearness, so the order and the totals. Only the files of
 * the page have their lines' text read, and the store's `decideParts` —
 * as for the body-index scan — decides them again from the text and picks
 * their shown locations; `pageOfDecided` orders and pages as the scan does.
 *
 * Everything is read in one REPEATABLE READ transaction, so a search sees
 * one generation of each index (schema.ts) even while a publisher flips.
 * Readers need only SELECT: row-level security shows a role the indexes
 * granted to it (access.ts).
 *
 * @module
 */
import {
  FileMatch, type TeamServerSettings, fileNamesOf, fileTypeOf, matchNames, normalizeForSearch, parseSearchQuery, partNameOfTsvFileName,
  teamKeysOfTerm, teamSchemaVersion
} from "@sagasu/domain"
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

// The sheet names of a file: its parts of locator `cell`, once each, in order (as decideParts finds them).
const sheetNamesOf = (parts: ReadonlyArray<readonly [string, string]>): Array<string> => {
  const out: Array<string> = []
  for (const [file, locator] of parts) {
    if (locator !== "cell") continue
    const name = partNameOfTsvFileName(file)
    if (!out.includes(name)) out.push(name)
  }
  return out
}

// The source stamp of a candidate, when the server knows it.
const stampOf = (c: { readonly row: FileRow; readonly mtimeMs: number | undefined }) =>
  c.row.size !== null && c.mtimeMs !== undefined ? { size: Number(c.row.size), mtimeMs: c.mtimeMs } : undefined

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
    // Phase 1, every candidate: which words (a bit each) and whether an excluded word each of its lines holds,
    // computed by the server from the normalised text — the FileMatch of each file, without its text.
    const words = [...parsed.terms, ...parsed.exclude]
    const holdParams: Array<unknown> = []
    const holds = words.map((term) => {
      holdParams.push(teamKeysOfTerm(term), term)
      return `(grams @> $${holdParams.length - 1}::int8[] AND strpos(norm, $${holdParams.length}) > 0)`
    })
    // The placeholders above count from $1; in the statements $1 is the list of files, so they move up one.
    const shifted = (sql: string) => sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + 1}`)
    const maskSql = parsed.terms.map((_, i) => `(CASE WHEN strpos(norm, $${2 * i + 3}) > 0 THEN ${2 ** i} ELSE 0 END)`).join(" + ")
    const excludedSql = parsed.exclude.length === 0
      ? "false"
      : parsed.exclude.map((_, j) => `strpos(norm, $${2 * (parsed.terms.length + j) + 3}) > 0`).join(" OR ")
    const lineRows = candidates.length === 0
      ? []
      : (await client.query<{ file_id: string; part: number; line: number; mask: number; excluded: boolean }>(
        `SELECT file_id, part, line, ${maskSql} AS mask, ${excludedSql} AS excluded FROM sagasu.lines ` +
          `WHERE file_id = ANY($1::int8[]) AND (${holds.map(shifted).join(" OR ")}) ORDER BY file_id, part, line`,
        [candidates.map((c) => c.row.id), ...holdParams]
      )).rows
    const byFile = new Map<string, Array<{ part: number; line: number; mask: number; excluded: boolean }>>()
    for (const l of lineRows) {
      const list = byFile.get(l.file_id)
      if (list === undefined) byFile.set(l.file_id, [l])
      else list.push(l)
    }
    const decided: Array<DecidedFile> = []
    for (const c of candidates) {
      const names = matchNames(parsed, fileNamesOf(c.row.path, sheetNamesOf(c.row.parts)))
      const match = new FileMatch<number>(parsed, names)
      if (!match.excluded) {
        for (const l of byFile.get(c.row.id) ?? []) {
          if (l.excluded) {
            match.exclude()
            break
          }
          match.add(l.mask, l.part * 4294967296 + l.line)
        }
      }
      if (!match.matches) continue
      let pathTerms = 0
      const normPath = normalizeForSearch(c.row.path)
      parsed.terms.forEach((t, i) => {
        if (normPath.includes(t)) pathTerms |= 1 << i
      })
      const stamp = stampOf(c)
      const d: DecidedFile = {
        index: c.index, path: c.row.path, match, names, pathTerms, modifiedMs: stamp?.mtimeMs, size: stamp?.size,
        sortMs: c.mtimeMs ?? Number(c.row.published_ms), show: () => [], redo: () => d
      }
      decided.push(d)
    }
    // Phase 2, the page's files only: their lines holding a word read whole and decided by the store's
    // decideParts, as the scan decides them — the same match (so the same order), and the shown locations.
    const first = pageOfDecided(decided, options, false)
    const onPage = new Set(first.files.map((f) => `${f.index}\u0000${f.path}`))
    const pageFiles = candidates.filter((c) => onPage.has(`${c.index}\u0000${c.row.path}`))
    const lines = new Map<string, Array<LineRow>>()
    if (pageFiles.length > 0) {
      const found = await client.query<LineRow>(
        `SELECT file_id, part, line, loc, text, forms FROM sagasu.lines WHERE file_id = ANY($1::int8[]) AND (${holds.map(shifted).join(" OR ")}) ` +
          "ORDER BY file_id, part, line",
        [pageFiles.map((c) => c.row.id), ...holdParams]
      )
      for (const l of found.rows) {
        const list = lines.get(l.file_id)
        if (list === undefined) lines.set(l.file_id, [l])
        else list.push(l)
      }
    }
    await client.query("COMMIT")
    const shown = new Map<string, DecidedFile>()
    for (const c of pageFiles) {
      const own = lines.get(c.row.id) ?? []
      const parts: Array<FreshPart> = c.row.parts.map(([file, locator], pi) => ({
        file,
        locator: locator as FreshPart["locator"],
        lines: own.filter((l) => l.part === pi).map((l) => (l.forms === "" ? { loc: l.loc, text: l.text } : { loc: l.loc, text: l.text, forms: l.forms }))
      }))
      shown.set(`${c.index}\u0000${c.row.path}`, decideParts(parsed, c.index, c.row.path, parts, stampOf(c), c.mtimeMs ?? Number(c.row.published_ms)))
    }
    return pageOfDecided(decided.map((d) => shown.get(`${d.index}\u0000${d.path}`) ?? d), options, false)
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
