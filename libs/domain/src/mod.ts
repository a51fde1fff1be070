/**
 * `@sagasu/domain`: the pure functional core of Sagasu. Schemas of every
 * record (settings, ingest list, journal, extraction output), TSV escaping,
 * the decisions of the indexing run (target list, application kind), search
 * normalisation and matching, and the message catalogue. No I/O, no clock,
 * no randomness (STYLE.md rule 2): time, pids and paths come in as arguments.
 *
 * @example
 * ```ts
 * import { computeTargetList } from "@sagasu/domain"
 * const list = computeTargetList(crawled, previousRows, { crawledIndexes: ["docs"], retryFailed: false, includeCloud: false })
 * ```
 *
 * @module
 */
export * from "./app_kind.ts"
export * from "./crawl_skip.ts"
export * from "./extraction.ts"
export * from "./failure_reason.ts"
export * from "./help_text.ts"
export * from "./ingest_list.ts"
export * from "./journal.ts"
export * from "./messages.ts"
export * from "./normalize.ts"
export * from "./search_match.ts"
export * from "./seeded_random.ts"
export * from "./settings.ts"
export * from "./target_list.ts"
export * from "./tsv.ts"
export * from "./body_tsv.ts"
export * from "./before_dispatch.ts"
export * from "./closing.ts"
export * from "./dispatch.ts"
export * from "./ingest_result.ts"
export * from "./journal_recovery.ts"
export * from "./plan.ts"
export * from "./progress.ts"
export * from "./publish_plan.ts"
export * from "./result_decision.ts"
export * from "./select_indexes.ts"
export * from "./settle_run.ts"
export * from "./gram_check.ts"
export * from "./gram_merge_policy.ts"
export * from "./gram.ts"
export * from "./search_query.ts"
export * from "./file_match.ts"
export * from "./index_admin.ts"
export * from "./display_width.ts"
export * from "./work_option.ts"
export * from "./progress_line.ts"
export * from "./settings_problems.ts"
export * from "./hit_context.ts"
export * from "./team.ts"
