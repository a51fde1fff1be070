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
import { Schema } from "effect"
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

const statuses: ReadonlySet<string> = new Set(IngestStatus.literals)
const decodeFailure = Schema.decodeSync(FailureFromText)

/**
 * Parses one TSV line into a row; `undefined` for the header, blank lines and
 * lines that are not a valid row (a torn last line after a crash, C1).
 */
export function parseIngestRow(line: string): IngestRow | undefined {
  if (line === "" || line === ingestListHeader) return undefined
  const [index, path, size, mtimeMs, status, reason = ""] = parseTsvLine(line)
  if (index === undefined || path === undefined || size === undefined || mtimeMs === undefined) return undefined
  // The fields are strings by the split and numbers by Number(): what the row's Schema would still
  // check is the status literal and finite numbers — checked directly (issue 20: a Schema decode
  // per row was 70 ms of the 0.15 s a no-change re-run spent reading 20,000 rows).
  if (status === undefined || !statuses.has(status)) return undefined
  const row = { index, path, size: Number(size), mtimeMs: Number(mtimeMs), status: status as IngestStatus }
  if (!Number.isFinite(row.size) || !Number.isFinite(row.mtimeMs)) return undefined
  // Issue 17: the failure is structured from here on; a failed row of any version decodes (`unknown` at worst).
  return row.status === "failed" ? { ...row, failure: decodeFailure(reason) } : row
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
