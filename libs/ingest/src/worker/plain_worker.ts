/**
 * The plain worker thread's entry (W2): answers `IngestFile` requests with
 * {@link ingestPlain}, at a lower OS priority so a GUI in the same process
 * stays responsive.
 *
 * @module
 */
import { WorkerRunner } from "@effect/platform"
import { NodeContext, NodeRuntime, NodeWorkerRunner } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import * as os from "node:os"
import { ingestPlain } from "../ingest_one.ts"
import { IngestFile } from "../ingest_request.ts"

try {
  // On Linux this lowers only the calling thread (setpriority applies per thread).
  os.setPriority(10)
} catch {
  // Not allowed here (some containers): run at normal priority.
}

WorkerRunner.layerSerialized(IngestFile, {
  IngestFile: (request) => ingestPlain(request.source, request.staging)
}).pipe(
  Layer.provide(NodeWorkerRunner.layer),
  Layer.launch,
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain
)
