/**
 * `@sagasu/ingest`: the indexing run — the commander (`runIndexer`) and its
 * channel, the crawl, the plain workers on worker threads, and text
 * extraction from Office files.
 *
 * @example
 * ```ts
 * import { makeChannel, runIndexer } from "@sagasu/ingest"
 * const channel = yield* makeChannel({ confirmTargets: false })
 * const exitCode = yield* runIndexer(channel, { work: "/path/to/work", version: "0.1.0" })
 * ```
 *
 * @module
 */
export * from "./channel.ts"
export * from "./cloud_only.ts"
export * from "./crawl.ts"
export * from "./extract.ts"
export * from "./gram_thread.ts"
export * from "./ingest_one.ts"
export * from "./ingest_request.ts"
export * from "./office/office_failure.ts"
export * from "./office/office_owner.ts"
export * from "./run_indexer.ts"
export * from "./run_workers.ts"
export * from "./workers.ts"
export { type WorkerBundle, workerBundleUrl } from "./worker/worker_bundle.ts"
