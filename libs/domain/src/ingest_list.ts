/**
 * The ingest list (取り込み一覧, `store/ingest_list.tsv`): one row per source
 * file with its size, mtime and status (SPEC terms, C1, R15).
 *
 * On disk it is a TSV with a header line; during a run rows are appended one
 * per result, so a file may have several rows and the last one wins
 * ({@link latestRows}). The finally step rewrites it to one row per file.
 *
 * @module
 */
import { Either, Schema } from "effect"
import { Failure, FailureFromText, formatFailureText } from "./failure_reason.ts"
import { formatTsvLine, parseTsvLine } from "./tsv.ts"

/** `done` (済), `failed` (失敗), `pending` (未取り込み). */
export const IngestStatus = Schema.Literal("done", "failed", "pending")
export type IngestStatus = typeof IngestStatus.Type

/**
 * One row: `index` name, `path` relative to the target folder with `/`
 * separators, `size` in bytes, `mtimeMs` (ms since the epoch, may carry a
 * fraction), `status`, and the {@link Failure} of a `failed` row (absent
 * otherwise). On disk the failure is the `reason` column's text
 * ({@link FailureFromText}, decoded here at the row format's edge).
 */
export const IngestRow = Schema.Struct({
  index: Schema.String,
  path: Schema.String,
  size: Schema.Number,
  mtimeMs: Schema.Number,
  status: IngestStatus,
  failure: Schema.optional(Failure)
})
export type IngestRow = typeof IngestRow.Type

// A line's fields as text; `reason` is the failure's text of a failed row ("" otherwise).
const IngestLine = Schema.Struct({
  index: Schema.String,
  path: Schema.String,
  size: Schema.Number,
  mtimeMs: Schema.Number,
  status: IngestStatus,
  reason: Schema.String
})

/** The header line of `ingest_list.tsv`. */
export const ingestListHeader = "index\tpath\tsize\tmtime_ms\tstatus\treason"

/** The key of a source file across indexes: index name and relative path. */
export function fileKey(index: string, path: string): string {
  return `${index}\u0000${path}`
}

/** Formats a row as one TSV line (no terminator). */
export function formatIngestRow(row: IngestRow): string {
  const reason = row.status === "failed" && row.failure !== undefined ? formatFailureText(row.failure) : ""
  return formatTsvLine([row.index, row.path, String(row.size), String(row.mtimeMs), row.status, reason])
}

const decodeLine = Schema.decodeUnknownEither(IngestLine)
const decodeFailure = Schema.decodeSync(FailureFromText)

/**
 * Parses one TSV line into a row; `undefined` for the header, blank lines and
 * lines that are not a valid row (a torn last line after a crash, C1).
 */
export function parseIngestRow(line: string): IngestRow | undefined {
  if (line === "" || line === ingestListHeader) return undefined
  const [index, path, size, mtimeMs, status, reason = ""] = parseTsvLine(line)
  if (index === undefined || path === undefined || size === undefined || mtimeMs === undefined) return undefined
  const decoded = decodeLine({ index, path, size: Number(size), mtimeMs: Number(mtimeMs), status, reason })
  if (Either.isLeft(decoded) || !Number.isFinite(decoded.right.size) || !Number.isFinite(decoded.right.mtimeMs)) return undefined
  const { reason: text, ...row } = decoded.right
  // Issue 17: the failure is structured from here on; a failed row of any version decodes (`unknown` at worst).
  return row.status === "failed" ? { ...row, failure: decodeFailure(text) } : row
}

/**
 * The current row of every file: the last row per {@link fileKey}, in the
 * order each file was first seen. Appended rows therefore override earlier
 * ones (C1).
 */
export function latestRows(rows: Iterable<IngestRow>): Array<IngestRow> {
  const byKey = new Map<string, IngestRow>()
  for (const row of rows) byKey.set(fileKey(row.index, row.path), row)
  return [...byKey.values()]
}

/** Parses a whole ingest-list text (header optional) into its latest rows. */
export function parseIngestList(text: string): Array<IngestRow> {
  const rows: Array<IngestRow> = []
  for (const line of text.split("\n")) {
    const row = parseIngestRow(line.endsWith("\r") ? line.slice(0, -1) : line)
    if (row !== undefined) rows.push(row)
  }
  return latestRows(rows)
}

/** Formats a whole ingest list (header + one line per row, each ending in `\n`). */
export function formatIngestList(rows: Iterable<IngestRow>): string {
  let text = ingestListHeader + "\n"
  for (const row of rows) text += formatIngestRow(row) + "\n"
  return text
}
