/**
 * The target decision (R8, R9): which crawled files an indexing run ingests,
 * which stay as they are, and which vanished.
 *
 * @module
 */
import { failureCause } from "./failure_reason.ts"
import { type IngestRow, fileKey } from "./ingest_list.ts"

/**
 * A file found by the crawl: `index` name, `path` relative to the target
 * folder with `/` separators, `size` in bytes, `mtimeMs` in ms since the
 * epoch, and whether its content is only in the cloud (SPEC §5).
 */
export interface CrawledFile {
  readonly index: string
  readonly path: string
  readonly size: number
  readonly mtimeMs: number
  readonly cloudOnly: boolean
}

/**
 * Why a file is a target: `new` (no row), `changed` (size or mtime differ),
 * `pending` (left pending by an earlier run), `retry` (failed last time for a
 * reason of the file, and `retryFailed` set), `environment` (failed last time
 * for a reason of the environment — unreadable, LibreOffice missing or not
 * starting, {@link failureCause}: retried without asking, issue 15),
 * `inFlight` (was being ingested when a run was killed, C1: these go last),
 * `cloud` (cloud-only and downloading was chosen).
 */
export type TargetReason = "new" | "changed" | "pending" | "retry" | "environment" | "inFlight" | "cloud"

/** A file to ingest, with the reason it was chosen. */
export interface Target extends CrawledFile {
  readonly reason: TargetReason
}

/**
 * Per-index counts for the plan and the log (R8, R10). `failedLastTime`:
 * unchanged files that failed last time for a reason of the file (targets
 * only with `retryFailed`, then also counted in `retry`);
 * `failedByEnvironment`: unchanged files that failed last time for a reason
 * of the environment (always targets).
 */
export interface TargetCounts {
  readonly index: string
  readonly new: number
  readonly changed: number
  readonly pending: number
  readonly failedLastTime: number
  readonly failedByEnvironment: number
  readonly retry: number
  readonly unchanged: number
  readonly vanished: number
  readonly cloudSkipped: number
}

/** The result of {@link computeTargetList}. */
export interface TargetList {
  /** Files to ingest in order; files that were in flight at a crash come last (C1). */
  readonly targets: ReadonlyArray<Target>
  /** Rows of files that no longer exist, in folders whose crawl finished (R8). */
  readonly vanished: ReadonlyArray<IngestRow>
  /** Cloud-only files left alone (R9), in crawl order. */
  readonly cloudSkipped: ReadonlyArray<CrawledFile>
  /**
   * The ingest list after this decision: rows of untouched files as they were,
   * targets as `pending` with their new size and mtime, vanished rows gone.
   * Rows of indexes outside `crawledIndexes` are kept exactly (R5, R8).
   */
  readonly rows: ReadonlyArray<IngestRow>
  /** Counts per crawled index, in the order of `crawledIndexes`. */
  readonly counts: ReadonlyArray<TargetCounts>
}

/** Options of {@link computeTargetList}. */
export interface ComputeTargetListOptions {
  /** Indexes whose crawl finished; vanished files are only decided for these (R8). */
  readonly crawledIndexes: ReadonlyArray<string>
  /** Also ingest files that failed last time (R9). */
  readonly retryFailed: boolean
  /** Also ingest cloud-only files, downloading them (R9). */
  readonly includeCloud: boolean
  /** Keys ({@link fileKey}) of files that were in flight when the previous run was killed (C1). */
  readonly inFlight?: ReadonlySet<string>
  /**
   * Entries the crawl could not read (a folder without permission, a share glitch), `path`
   * relative to the index's folder. Rows of files at or under one were not seen, not found gone:
   * like the rows of a folder whose crawl was stopped, they stay exactly as they were (R8), after
   * the others.
   */
  readonly unreadable?: ReadonlyArray<{ readonly index: string; readonly path: string }>
}

// Whether `row` is one of the `unreadable` entries (as `fileKey`s) or lies under one (R8).
function isUnder(row: IngestRow, unreadable: ReadonlyArray<string>): boolean {
  const key = fileKey(row.index, row.path)
  return unreadable.some((u) => key === u || key.startsWith(`${u}/`))
}

/**
 * Decides the target list from the crawl and the previous ingest list (R8, R9).
 * A file is unchanged when its row has the same size and mtime and is `done`
 * (or `failed` for a reason of the file, unless `retryFailed`; a failure of
 * the environment is retried). Pure: the same inputs give the same list.
 */
export function computeTargetList(
  crawled: ReadonlyArray<CrawledFile>,
  previous: ReadonlyArray<IngestRow>,
  options: ComputeTargetListOptions
): TargetList {
  const unreadable = (options.unreadable ?? []).map((u) => fileKey(u.index, u.path))
  // R8: the rows under an unreadable entry are shielded from the decision and kept as they were.
  const shielded = unreadable.length === 0 ? [] : previous.filter((r) => isUnder(r, unreadable))
  if (shielded.length === 0) return decideTargets(crawled, previous, options)
  const list = decideTargets(crawled, previous.filter((r) => !isUnder(r, unreadable)), options)
  return { ...list, rows: [...list.rows, ...shielded] }
}

/**
 * The ingest list after a cancel or a stop before ingesting (R8, R10): the
 * previous rows as they were (this run's targets are not recorded as
 * pending), minus the rows of the files `list` found vanished, whose
 * removal is kept.
 */
export function rowsKeptOnCancel(previous: ReadonlyArray<IngestRow>, list: TargetList): ReadonlyArray<IngestRow> {
  const vanished = new Set(list.vanished.map((r) => fileKey(r.index, r.path)))
  return previous.filter((r) => !vanished.has(fileKey(r.index, r.path)))
}

/**
 * What a run does once its target list is written (R12): `NoTargets` with
 * the closing message's key — `cloudOnlyLeft` when only skipped cloud-only
 * files remain (R9), else `noTargetsNeeded` — or `Ingest`.
 */
export type AfterTargets =
  | { readonly _tag: "NoTargets"; readonly message: "cloudOnlyLeft" | "noTargetsNeeded" }
  | { readonly _tag: "Ingest" }

/** Decides whether the run has anything to ingest (R9, R12). */
export function decideAfterTargets(list: TargetList): AfterTargets {
  if (list.targets.length > 0) return { _tag: "Ingest" }
  return { _tag: "NoTargets", message: list.cloudSkipped.length > 0 ? "cloudOnlyLeft" : "noTargetsNeeded" }
}

function decideTargets(
  crawled: ReadonlyArray<CrawledFile>,
  previous: ReadonlyArray<IngestRow>,
  options: ComputeTargetListOptions
): TargetList {
  const crawledIndexes = new Set(options.crawledIndexes)
  const inFlight = options.inFlight ?? new Set<string>()
  const previousByKey = new Map(previous.map((row) => [fileKey(row.index, row.path), row]))
  const seen = new Set<string>()
  const first: Array<Target> = []
  const last: Array<Target> = []
  const cloudSkipped: Array<CrawledFile> = []
  const counts = new Map<string, { -readonly [K in keyof TargetCounts]: TargetCounts[K] }>()
  for (const index of options.crawledIndexes) {
    counts.set(index, {
      index, new: 0, changed: 0, pending: 0, failedLastTime: 0, failedByEnvironment: 0, retry: 0, unchanged: 0, vanished: 0, cloudSkipped: 0
    })
  }
  const countOf = (index: string) => {
    let c = counts.get(index)
    if (c === undefined) {
      c = { index, new: 0, changed: 0, pending: 0, failedLastTime: 0, failedByEnvironment: 0, retry: 0, unchanged: 0, vanished: 0, cloudSkipped: 0 }
      counts.set(index, c)
    }
    return c
  }
  const newRows = new Map<string, IngestRow>()

  for (const file of crawled) {
    const key = fileKey(file.index, file.path)
    if (seen.has(key)) continue
    seen.add(key)
    const count = countOf(file.index)
    const row = previousByKey.get(key)
    const same = row !== undefined && row.size === file.size && row.mtimeMs === file.mtimeMs
    let reason: TargetReason | undefined
    if (inFlight.has(key)) reason = "inFlight"
    else if (row === undefined) reason = "new"
    else if (!same) reason = "changed"
    else if (row.status === "pending") reason = "pending"
    else if (row.status === "failed" && failureCause(row.failure?.reason ?? "unknown") !== "file") {
      // Not the file's fault: retried without asking (a work-folder reason is never recorded; an
      // older version's row with one is retried too).
      reason = "environment"
    } else if (row.status === "failed") {
      count.failedLastTime++
      if (options.retryFailed) reason = "retry"
    }
    if (reason !== undefined && file.cloudOnly && !options.includeCloud) {
      // R9: not downloaded, not a target, not added; an existing row stays as it is.
      cloudSkipped.push(file)
      count.cloudSkipped++
      if (row !== undefined) newRows.set(key, row)
      continue
    }
    if (reason === undefined) {
      // A failed file that is not retried is counted as failedLastTime only.
      if (row?.status !== "failed") count.unchanged++
      if (row !== undefined) newRows.set(key, row)
      continue
    }
    if (reason === "new") count.new++
    else if (reason === "changed") count.changed++
    else if (reason === "pending" || reason === "inFlight") count.pending++
    else if (reason === "retry") count.retry++
    else if (reason === "environment") count.failedByEnvironment++
    const target: Target = { ...file, reason: file.cloudOnly && reason === "new" ? "cloud" : reason }
    ;(reason === "inFlight" ? last : first).push(target)
    newRows.set(key, {
      index: file.index, path: file.path, size: file.size, mtimeMs: file.mtimeMs, status: "pending"
    })
  }

  const vanished: Array<IngestRow> = []
  const rows: Array<IngestRow> = []
  for (const row of previous) {
    const key = fileKey(row.index, row.path)
    if (!crawledIndexes.has(row.index)) {
      rows.push(row)
    } else if (!seen.has(key)) {
      vanished.push(row)
      countOf(row.index).vanished++
    } else {
      const updated = newRows.get(key)
      if (updated !== undefined) rows.push(updated)
      newRows.delete(key)
    }
  }
  rows.push(...newRows.values())

  return {
    targets: [...first, ...last],
    vanished,
    cloudSkipped,
    rows,
    counts: options.crawledIndexes.map((index) => countOf(index))
  }
}
