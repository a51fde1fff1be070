/**
 * The plan shown for confirmation (R10): per-index counts, and the answer.
 *
 * @module
 */
import { Schema } from "effect"
import type { CloudFiles } from "./settings.ts"
import type { TargetCounts } from "./target_list.ts"

/**
 * Counts of one selected index, as the confirmation shows them:
 * `failedLastTime` the files that failed for a reason of their own (added by
 * the answer's `retryFailed`), `failedByEnvironment` those that failed for a
 * reason of the environment (ingested again in any case, issue 15).
 */
export const PlanEntry = Schema.Struct({
  index: Schema.String,
  new: Schema.Number,
  changed: Schema.Number,
  pending: Schema.Number,
  failedLastTime: Schema.Number,
  failedByEnvironment: Schema.Number,
  cloudOnly: Schema.Number,
  unchanged: Schema.Number,
  vanished: Schema.Number
})
export type PlanEntry = typeof PlanEntry.Type

/** The plan: one entry per selected index in settings order (unselected indexes never appear, R5). */
export const Plan = Schema.Struct({ entries: Schema.Array(PlanEntry) })
export type Plan = typeof Plan.Type

/** The answer that starts ingesting (`null` on the channel cancels, R10). */
export const PlanAnswer = Schema.Struct({ retryFailed: Schema.Boolean, includeCloud: Schema.Boolean })
export type PlanAnswer = typeof PlanAnswer.Type

/**
 * The plan from the target counts (R10). Counts come from a decision made
 * without retrying failed files and without cloud-only files; the answer can
 * add them, so both are shown as their own columns. Files that failed for the
 * environment are targets already and have their own column too.
 */
export function makePlan(counts: ReadonlyArray<TargetCounts>): Plan {
  return {
    entries: counts.map((c) => ({
      index: c.index,
      new: c.new,
      changed: c.changed,
      pending: c.pending,
      failedLastTime: c.failedLastTime,
      failedByEnvironment: c.failedByEnvironment,
      cloudOnly: c.cloudSkipped,
      unchanged: c.unchanged,
      vanished: c.vanished
    }))
  }
}

/** Options of {@link defaultPlanAnswer}: what the front end said, and the setting. */
export interface DefaultPlanAnswerOptions {
  /** `--retry-failed`, or the channel's `retryFailed`. */
  readonly retryFailed: boolean
  /** `includeCloud` as the front end said it; `undefined` when it did not say. */
  readonly includeCloud: boolean | undefined
  /** The setting `cloudFiles` (R9). */
  readonly cloudFiles: CloudFiles
}

/**
 * The answer when nobody is asked, and the one a terminal's "yes" gives (R9,
 * R10): failed files again only with `retryFailed`; cloud-only files when the
 * front end said so, else when the setting `cloudFiles` is `download`.
 */
export function defaultPlanAnswer(options: DefaultPlanAnswerOptions): PlanAnswer {
  return { retryFailed: options.retryFailed, includeCloud: options.includeCloud ?? options.cloudFiles === "download" }
}

/**
 * How many files `answer` would ingest from `plan` (R9, R10): the plan's
 * counts were decided without retrying failed files and without cloud-only
 * files, so these are new, changed, pending and failed for the environment,
 * plus failed last time with `retryFailed` and cloud-only with
 * `includeCloud` — the number of targets `computeTargetList` gives
 * for that answer. A terminal that can only say yes or no asks nothing when
 * its yes would ingest none (new-user trial: `[y/N]` over a plan of zeros).
 */
export function planTargetCount(plan: Plan, answer: PlanAnswer): number {
  let n = 0
  for (const e of plan.entries) {
    n += e.new + e.changed + e.pending + e.failedByEnvironment + (answer.retryFailed ? e.failedLastTime : 0) + (answer.includeCloud ? e.cloudOnly : 0)
  }
  return n
}

/**
 * How a run gets its answer once the crawl is over (R8, R10; the seed's
 * boxes 「クロール中に中止」 and 「受け渡しの口の ConfirmTargets？」):
 * `Cancel` (a stop came during the crawl: nothing is asked), `Ask` (the
 * channel wants confirmation: the plan goes out and the run waits), or
 * `Answer` with {@link defaultPlanAnswer} when nobody is asked.
 */
export type Confirmation =
  | { readonly _tag: "Cancel" }
  | { readonly _tag: "Ask" }
  | { readonly _tag: "Answer"; readonly answer: PlanAnswer }

/** Options of {@link decideConfirmation}. */
export interface DecideConfirmationOptions extends DefaultPlanAnswerOptions {
  /** A stop came before the crawl of every selected index finished (R8). */
  readonly stoppedDuringCrawl: boolean
  /** The channel's `confirmTargets` (the GUI, the CLI without `--yes`). */
  readonly confirmTargets: boolean
}

/** Decides how the run gets its answer (R8, R10); see {@link Confirmation}. */
export function decideConfirmation(options: DecideConfirmationOptions): Confirmation {
  if (options.stoppedDuringCrawl) return { _tag: "Cancel" }
  return options.confirmTargets ? { _tag: "Ask" } : { _tag: "Answer", answer: defaultPlanAnswer(options) }
}
