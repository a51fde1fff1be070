/**
 * Progress of an indexing run (P1–P3): what the GUI shows once a second and
 * what survives the run in `store/progress.json`.
 *
 * @module
 */
import { Schema } from "effect"

/** `crawl` (クロール), `confirm` (確認), `ingest` (取り込み), `finalize` (仕上げ). */
export const Phase = Schema.Literal("crawl", "confirm", "ingest", "finalize")
export type Phase = typeof Phase.Type

/**
 * `processed` files with a result this run, `remaining` targets without one
 * (unknown during the crawl: 0), `failed` among the processed, `current` what
 * is happening now (never empty), `exitCode` once the run has ended (P3).
 */
export const Progress = Schema.Struct({
  phase: Phase,
  processed: Schema.Number,
  remaining: Schema.Number,
  failed: Schema.Number,
  current: Schema.String,
  exitCode: Schema.optional(Schema.Literal(0, 1, 2))
})
export type Progress = typeof Progress.Type

/** The progress at the start of a run. */
export const initialProgress: Progress = { phase: "crawl", processed: 0, remaining: 0, failed: 0, current: "" }

/** Events that change the progress (P2: written at dispatch, at each result and at each phase change). */
export type ProgressEvent =
  | { readonly _tag: "phase"; readonly phase: Phase; readonly current: string; readonly remaining?: number }
  | { readonly _tag: "dispatched"; readonly current: string }
  | { readonly _tag: "result"; readonly failed: boolean; readonly current: string }
  | { readonly _tag: "current"; readonly current: string }
  | { readonly _tag: "ended"; readonly exitCode: 0 | 1 | 2; readonly current: string }

/** The progress after an event (P1). A file that stays pending (stop) does not count as processed. */
export function nextProgress(progress: Progress, event: ProgressEvent): Progress {
  switch (event._tag) {
    case "phase":
      return { ...progress, phase: event.phase, current: event.current, remaining: event.remaining ?? progress.remaining }
    case "dispatched":
    case "current":
      return { ...progress, current: event.current }
    case "result":
      return {
        ...progress,
        processed: progress.processed + 1,
        remaining: Math.max(0, progress.remaining - 1),
        failed: progress.failed + (event.failed ? 1 : 0),
        current: event.current
      }
    case "ended":
      return { ...progress, exitCode: event.exitCode, current: event.current }
  }
}

/**
 * The least time between two writes of `progress.json` for hand-overs and results, ms (P2).
 * The GUI reads it once a second; each write (a temp file renamed over the record) cost the
 * commander ≈ 0.3 ms, twice a file (issue 20: a fifth of its CPU on 2,000 small files).
 */
export const progressRecordIntervalMs = 100

/**
 * P2: whether the progress after `event` is written to `progress.json` now, or `later` — within
 * {@link progressRecordIntervalMs} of the last write, as the latest progress then. A phase change,
 * a new `current` of the finalize step and the end are written at once; so is the first hand-over
 * or result after a quiet spell. `sinceLastWriteMs` is `undefined` before the first write.
 */
export function progressWriteDue(event: ProgressEvent, sinceLastWriteMs: number | undefined): "now" | "later" {
  if (event._tag !== "dispatched" && event._tag !== "result") return "now"
  return sinceLastWriteMs === undefined || sinceLastWriteMs >= progressRecordIntervalMs ? "now" : "later"
}
