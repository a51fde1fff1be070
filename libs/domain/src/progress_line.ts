/**
 * The progress line of `sagasu index` (P1, issue 16 "Terminal conventions"):
 * phase, bar, counts, elapsed time, rate and ETA, and what is happening,
 * fitted to the terminal's width in display columns. The same line, without
 * a width, is what a non-terminal output (a log) gets now and then
 * ({@link plainProgressDue}).
 *
 * The labels are terminal-only words kept beside the layout they must fit
 * (their widths decide what is left out first), in Japanese and English.
 *
 * @module
 */
import { displayWidth, truncateToWidth } from "./display_width.ts"
import type { Progress } from "./progress.ts"
import type { Language } from "./settings.ts"

const label: Record<Language, {
  readonly phase: Record<Progress["phase"], string>
  readonly failed: string
  readonly elapsed: string
  readonly rate: string
  readonly eta: string
}> = {
  ja: {
    phase: { crawl: "クロール", confirm: "確認", ingest: "取り込み", finalize: "仕上げ" },
    failed: "失敗", elapsed: "経過", rate: "件/秒", eta: "残り約"
  },
  en: {
    phase: { crawl: "crawl", confirm: "confirm", ingest: "ingest", finalize: "finalize" },
    failed: "failed", elapsed: "elapsed", rate: "files/s", eta: "ETA"
  }
}

/** Options of {@link formatProgressLine}. */
export interface ProgressLineOptions {
  readonly language: Language
  /** Time since the run started, ms. */
  readonly elapsedMs: number
  /** Time since the ingest phase started, ms (`undefined` before it): the rate and the ETA are counted over it. */
  readonly ingestElapsedMs?: number | undefined
  /** The terminal's width: the line takes at most `columns - 1` (`undefined`: no limit, no bar). */
  readonly columns?: number | undefined
}

/** `m:ss`, or `h:mm:ss` from an hour on (whole seconds, rounded down). */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  const two = (n: number) => String(n).padStart(2, "0")
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  return h > 0 ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`
}

/** Files per second over the ingest phase; `undefined` before a second of it or before the first result. */
export function ingestRate(processed: number, ingestElapsedMs: number | undefined): number | undefined {
  if (ingestElapsedMs === undefined || ingestElapsedMs < 1000 || processed === 0) return undefined
  return processed / (ingestElapsedMs / 1000)
}

const barCells = (done: number, total: number, cells: number) => {
  const filled = total === 0 ? 0 : Math.min(cells, Math.floor((cells * done) / total))
  return `[${"#".repeat(filled)}${"-".repeat(cells - filled)}]`
}

// A path or message on one line: control characters (a newline in a file name) would break the redraw.
const oneLine = (text: string) => text.replace(/\p{Cc}/gu, "?")

/**
 * The progress line (P1): `取り込み [####----] 12/300 4% 失敗 1  経過 0:42 2.9 件/秒 残り約 1:39  共有/見積/…xlsx`.
 * With `columns`, at most `columns - 1` display columns (the last column
 * left free, so no terminal wraps it): `current` is cut from its start
 * first (the file name is its end) down to 16 columns, then the bar
 * narrows, the rate goes, the bar goes (the percentage stays), then the
 * path is cut down to 8 columns, then the elapsed time and ETA go, then
 * the path, and last the line is cut. A new user watching a run in 80
 * columns saw no file name once files had failed (issue 20): the bar and
 * the rate had kept its place.
 */
export function formatProgressLine(progress: Progress, options: ProgressLineOptions): string {
  const l = label[options.language]
  const counting = progress.phase === "ingest" || progress.phase === "finalize"
  const total = progress.processed + progress.remaining
  const counts = counting
    ? `${progress.processed}/${total} ${total === 0 ? 100 : Math.floor((100 * progress.processed) / total)}%` +
      (progress.failed > 0 ? ` ${l.failed} ${progress.failed}` : "")
    : ""
  const rate = counting ? ingestRate(progress.processed, options.ingestElapsedMs) : undefined
  const elapsed = `${l.elapsed} ${formatDuration(options.elapsedMs)}`
  const perSecond = rate === undefined ? [] : [`${rate >= 10 ? Math.round(rate) : rate.toFixed(1)} ${l.rate}`]
  const eta = rate === undefined || progress.phase !== "ingest" ? [] : [`${l.eta} ${formatDuration((progress.remaining / rate) * 1000)}`]
  // The stats in full (2), without the rate (1), or none (0).
  const stats = (level: 0 | 1 | 2) => (level === 0 ? "" : [elapsed, ...(level === 2 ? perSecond : []), ...eta].join(" "))
  const current = oneLine(progress.current)
  const build = (cells: number, level: 0 | 1 | 2) =>
    [
      l.phase[progress.phase],
      ...(counting && cells > 0 ? [barCells(progress.processed, total, cells)] : []),
      ...(counts === "" ? [] : [counts]),
      ...(level > 0 ? [" " + stats(level)] : [])
    ].join(" ")
  if (options.columns === undefined) return build(0, 2) + (current === "" ? "" : `  ${current}`)

  const room = Math.max(0, options.columns - 1)
  const withCurrent = (head: string, left: number) =>
    current === "" || left < 8 ? head : `${head}  ${truncateToWidth(current, left, { cut: "start", ellipsis: "..." })}`
  // [bar cells, stats level, least columns of the path]: what goes first is at the start.
  const minCurrent = Math.min(displayWidth(current), 16)
  const minShort = Math.min(displayWidth(current), 8)
  const steps = [[24, 2, minCurrent], [12, 2, minCurrent], [12, 1, minCurrent], [0, 1, minCurrent], [0, 1, minShort], [0, 0, minShort], [0, 0, 0]] as const
  for (const [cells, level, least] of steps) {
    const head = build(cells, level)
    const left = room - displayWidth(head) - 2
    if (left >= least && displayWidth(head) <= room) return withCurrent(head, left)
  }
  return truncateToWidth(build(0, 0), room)
}

/** What {@link plainProgressDue} remembers of the last plain line printed. */
export interface PlainProgressState {
  /** The tenth of the files done at the last line (0…10; -1 before the first). */
  readonly tenth: number
  /** When it was printed, ms (any clock, the same for every call). */
  readonly atMs: number
  readonly processed: number
}

/** Before any plain line. */
export const initialPlainProgress: PlainProgressState = { tenth: -1, atMs: 0, processed: 0 }

/**
 * Whether output that is not a terminal (a log, a pipe) gets a plain progress
 * line now (issue 16): in the ingest phase, each time another tenth of the
 * files is done (at most eleven lines a run, whatever its size), and every
 * `everyMs` (default 60 s) in between if files were done meanwhile, so a
 * long run shows it is alive. Returns the new state when a line is due.
 */
export function plainProgressDue(
  state: PlainProgressState,
  progress: Progress,
  options: { readonly nowMs: number; readonly everyMs?: number }
): PlainProgressState | undefined {
  if (progress.phase !== "ingest" && progress.phase !== "finalize") return undefined
  const total = progress.processed + progress.remaining
  const tenth = total === 0 ? 10 : Math.floor((10 * progress.processed) / total)
  if (tenth > state.tenth) return { tenth, atMs: options.nowMs, processed: progress.processed }
  if (progress.processed > state.processed && options.nowMs - state.atMs >= (options.everyMs ?? 60_000)) {
    return { tenth, atMs: options.nowMs, processed: progress.processed }
  }
  return undefined
}
