/**
 * Test support: the workers of a run, watched. Tests, the chaos campaign
 * and benchmarks record what the commander dispatched, when, and how each
 * file ended, around the real workers. Used by tests and tools only
 * (`@sagasu/ingest/testing`).
 *
 * @module
 */
import type { IngestResult, WorkerKind } from "@sagasu/domain"
import { Effect, Layer } from "effect"
import type { IngestFile } from "./ingest_request.ts"
import { IngestWorkers } from "./workers.ts"

/**
 * A layer of {@link IngestWorkers} over the workers it is provided with in
 * which every ingest goes through `around`: `ingest` is those workers' own
 * effect for `request` (by `kind`), and what `around` returns is what the
 * commander gets. Everything else is the workers' own.
 */
export const aroundIngest = (
  around: (kind: WorkerKind, request: IngestFile, ingest: Effect.Effect<IngestResult>) => Effect.Effect<IngestResult>
): Layer.Layer<IngestWorkers, never, IngestWorkers> =>
  Layer.effect(
    IngestWorkers,
    Effect.map(IngestWorkers, (w) => ({ ...w, ingest: (kind: WorkerKind, request: IngestFile, worker?: number) => around(kind, request, w.ingest(kind, request, worker)) }))
  )
