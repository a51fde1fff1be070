/**
 * The PostgreSQL sink (issue 18): {@link TeamSink} over one connection
 * that holds the writer locks — session advisory locks `(namespace, index
 * id)`, so a publisher that dies (kill -9, a lost network) frees them with
 * its connection — and writes each file in its own transaction at the
 * index's pending generation (schema.ts). The grams of each line are the
 * domain's (`teamGramsOfLine`), computed here, sent as int8 arrays.
 *
 * @module
 */
import {
  type TeamServerSettings, normalizeForSearch, partNameOfTsvFileName, teamGramsOfLine
} from "@sagasu/domain"
import { crashPoint } from "@sagasu/store"
import { Effect, Layer } from "effect"
import type pg from "pg"
import { attempt, connectClient, shownServer } from "./_connection.ts"
import { migrateSchema, teamLockNamespace } from "./schema.ts"
import { TeamError } from "./team_error.ts"
import { type TeamFile, type TeamIndexWriter, TeamSink } from "./team_sink.ts"

// PostgreSQL text holds neither NUL nor a lone surrogate: both are stored as U+FFFD (and searched as stored).
const unsafeText = /[\u0000]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
/** `text` as the server can hold it: NUL and lone surrogates replaced by U+FFFD. */
export const serverText = (text: string) => text.replace(unsafeText, "\uFFFD")

/** The separator between names, or between a line's text and forms, in the normalised columns (a query term never holds it). */
export const nameSeparator = "\u0001"

/** The normalised names of a file (`names_norm`): its path, then its sheet names (the parts of locator `cell`). */
export function namesNormOf(path: string, parts: ReadonlyArray<{ readonly file: string; readonly locator: string }>): string {
  const names = [normalizeForSearch(path)]
  const seen = new Set<string>()
  for (const p of parts) {
    if (p.locator !== "cell") continue
    const name = partNameOfTsvFileName(p.file)
    if (seen.has(name)) continue
    seen.add(name)
    names.push(normalizeForSearch(name))
  }
  return names.join(nameSeparator)
}

// Lines sent per statement: bounded by rows and by characters.
const BATCH_ROWS = 5000
const BATCH_CHARS = 8 * 1024 * 1024

interface Batch {
  part: Array<number>
  line: Array<number>
  loc: Array<string>
  text: Array<string>
  forms: Array<string>
  norm: Array<string>
  grams: Array<string>
  chars: number
}
const emptyBatch = (): Batch => ({ part: [], line: [], loc: [], text: [], forms: [], norm: [], grams: [], chars: 0 })

const insertLines =
  "INSERT INTO sagasu.lines (file_id, index_id, part, line, loc, text, forms, norm, grams) " +
  "SELECT $1, $2, u.part, u.line, u.loc, u.text, u.forms, u.norm, u.grams::int8[] " +
  "FROM unnest($3::int4[], $4::int4[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) AS u(part, line, loc, text, forms, norm, grams)"

// Runs `body` in a transaction on `client`; rolls back when it throws.
const inTransaction = async <A>(client: pg.Client, body: () => Promise<A>): Promise<A> => {
  await client.query("BEGIN")
  try {
    const result = await body()
    await client.query("COMMIT")
    return result
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined)
    throw e
  }
}

// Writes one file version at generation `born` (its old rows handled by the caller's statements).
const writeFile = async (client: pg.Client, indexId: number, born: number, file: TeamFile) => {
  const path = serverText(file.path)
  const properties: Record<string, string> = {}
  for (const p of file.parts) {
    if (p.locator !== "property") continue
    for (const l of p.lines) properties[serverText(l.loc)] = serverText(l.text)
  }
  const parts = file.parts.map((p) => [serverText(p.file), p.locator])
  const inserted = await client.query<{ id: string }>(
    "INSERT INTO sagasu.files (index_id, path, size, mtime_ms, published_ms, status, properties, parts, names_norm, fingerprint, born) " +
      "VALUES ($1, $2, $3, $4, $5, 'done', $6, $7, $8, $9, $10) RETURNING id",
    [
      indexId, path, file.size ?? null, file.mtimeMs ?? null, Math.round(file.publishedMs), JSON.stringify(properties), JSON.stringify(parts),
      namesNormOf(path, file.parts.map((p) => ({ file: serverText(p.file), locator: p.locator }))), file.fingerprint, born
    ]
  )
  const fileId = inserted.rows[0]?.id
  let batch = emptyBatch()
  const flush = async () => {
    if (batch.part.length === 0) return
    const b = batch
    batch = emptyBatch()
    await client.query(insertLines, [fileId, indexId, b.part, b.line, b.loc, b.text, b.forms, b.norm, b.grams])
    crashPoint("team.mid-file")
  }
  for (const [pi, part] of file.parts.entries()) {
    for (const [li, line] of part.lines.entries()) {
      const text = serverText(line.text)
      const forms = line.forms === undefined || line.forms === "" ? "" : serverText(line.forms)
      const textNorm = normalizeForSearch(text)
      const formsNorm = forms === "" ? "" : normalizeForSearch(forms)
      const grams = teamGramsOfLine(textNorm, formsNorm)
      // A line with no character holds no word: nothing to find it by.
      if (grams.length === 0) continue
      batch.part.push(pi)
      batch.line.push(li)
      batch.loc.push(serverText(line.loc))
      batch.text.push(text)
      batch.forms.push(forms)
      batch.norm.push(formsNorm === "" ? textNorm : `${textNorm}${nameSeparator}${formsNorm}`)
      batch.grams.push(`{${grams.join(",")}}`)
      batch.chars += text.length * 3 + forms.length * 2 + grams.length * 14
      if (batch.part.length >= BATCH_ROWS || batch.chars >= BATCH_CHARS) await flush()
    }
  }
  await flush()
}

/**
 * The writer of one index on `client` (the lock is the caller's): publish,
 * remove and flip at the pending generation `visible + 1`.
 */
const indexWriter = (server: TeamServerSettings, client: pg.Client, index: string, indexId: number, visible: number): TeamIndexWriter => {
  let visibleGeneration = visible
  const pending = () => visibleGeneration + 1
  return {
    index,
    get visibleGeneration() {
      return visibleGeneration
    },
    fingerprints: attempt(server, async () => {
      const r = await client.query<{ path: string; fingerprint: string }>(
        "SELECT path, fingerprint FROM sagasu.files WHERE index_id = $1 AND died IS NULL",
        [indexId]
      )
      return new Map(r.rows.map((row) => [row.path, row.fingerprint]))
    }),
    publish: (file) =>
      attempt(server, () =>
        inTransaction(client, async () => {
          const g = pending()
          const path = serverText(file.path)
          // A version written earlier at this pending generation (a run cut short) was never seen: it goes.
          await client.query("DELETE FROM sagasu.files WHERE index_id = $1 AND path = $2 AND born = $3", [indexId, path, g])
          await client.query("UPDATE sagasu.files SET died = $3 WHERE index_id = $1 AND path = $2 AND died IS NULL", [indexId, path, g])
          await writeFile(client, indexId, g, file)
        })
      ),
    remove: (paths) =>
      paths.length === 0
        ? Effect.void
        : attempt(server, () =>
          inTransaction(client, async () => {
            const g = pending()
            const list = paths.map(serverText)
            await client.query("DELETE FROM sagasu.files WHERE index_id = $1 AND path = ANY($2) AND born = $3", [indexId, list, g])
            await client.query("UPDATE sagasu.files SET died = $3 WHERE index_id = $1 AND path = ANY($2) AND died IS NULL", [indexId, list, g])
          })
        ),
    flip: attempt(server, async () => {
      const g = pending()
      const changed = await client.query<{ changed: boolean }>(
        "SELECT EXISTS (SELECT 1 FROM sagasu.files WHERE index_id = $1 AND (born = $2 OR died = $2)) AS changed",
        [indexId, g]
      )
      if (changed.rows[0]?.changed !== true) return visibleGeneration
      crashPoint("team.before-flip")
      await client.query("UPDATE sagasu.indexes SET generation = $2, flipped_at = now() WHERE id = $1", [indexId, g])
      visibleGeneration = g
      // No reader sees these any more (one that started before the flip keeps its snapshot).
      await client.query("DELETE FROM sagasu.files WHERE index_id = $1 AND died IS NOT NULL AND died <= $2", [indexId, g])
      return g
    })
  }
}

/**
 * The PostgreSQL {@link TeamSink} of `server`: connects (the layer's
 * scope), creates or migrates the schema (schema.ts), and opens indexes for
 * writing under their writer locks. Fails `unreachable` when the server
 * cannot be reached or refuses, `schema-newer` when a newer Sagasu made
 * its tables.
 */
export const pgSinkLayer = (server: TeamServerSettings): Layer.Layer<TeamSink, TeamError> =>
  Layer.scoped(
    TeamSink,
    Effect.gen(function* () {
      const client = yield* connectClient(server)
      yield* migrateSchema(server, client)
      const openIndex = (index: string) =>
        Effect.gen(function* () {
          const { id } = yield* attempt(server, async () => {
            await client.query("INSERT INTO sagasu.indexes (name) VALUES ($1) ON CONFLICT (name) DO NOTHING", [index])
            const r = await client.query<{ id: number }>("SELECT id FROM sagasu.indexes WHERE name = $1", [index])
            return { id: r.rows[0]?.id ?? 0 }
          })
          yield* Effect.acquireRelease(
            attempt(server, async () => {
              const r = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1, $2) AS ok", [teamLockNamespace, id])
              return r.rows[0]?.ok === true
            }).pipe(
              Effect.filterOrFail(
                (ok) => ok,
                () => new TeamError({ reason: "held", server: shownServer(server), detail: index })
              )
            ),
            () => Effect.promise(() => client.query("SELECT pg_advisory_unlock($1, $2)", [teamLockNamespace, id]).catch(() => undefined))
          )
          // Read after the lock: another publisher may have flipped just before.
          const visible = yield* attempt(server, async () => {
            const r = await client.query<{ generation: string }>("SELECT generation FROM sagasu.indexes WHERE id = $1", [id])
            return Number(r.rows[0]?.generation ?? "0")
          })
          return indexWriter(server, client, index, id, visible)
        })
      return { openIndex }
    })
  )
