/**
 * The plain worker thread's entry (W1, W2): a queue of files from the
 * commander, read one at a time in the order they came with
 * {@link ingestPlain}, each answered with its result; at a lower OS priority
 * so a GUI in the same process stays responsive. A file taken after the stop
 * word is set is answered `stopped` without being read (W5). The protocol is
 * `_plain_protocol.ts`.
 *
 * @module
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import { WorkStore } from "@sagasu/store"
import { Either, Layer, ManagedRuntime, Schema } from "effect"
import * as os from "node:os"
import { parentPort, workerData } from "node:worker_threads"
import { ingestPlain } from "../ingest_one.ts"
import { type PlainAnswer, PlainRequest, type PlainWorkerData, stopWord, stoppedResult } from "./_plain_protocol.ts"

try {
  // On Linux this lowers only the calling thread (setpriority applies per thread).
  os.setPriority(10)
} catch {
  // Not allowed here (some containers): run at normal priority.
}

const port = parentPort
if (port === null) throw new Error("plain_worker.ts runs only as a worker thread")
const control = new Int32Array((workerData as PlainWorkerData).control)
const runtime = ManagedRuntime.make(Layer.merge(NodeContext.layer, WorkStore.Default))
const decode = Schema.decodeUnknownEither(PlainRequest)
const queue: Array<PlainRequest> = []
let reading = false

const answer = (message: PlainAnswer) => port.postMessage(message)

async function readQueue(): Promise<void> {
  reading = true
  try {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      // W5: a file still queued when the stop came is answered without being read.
      if (Atomics.load(control, stopWord) !== 0) {
        answer({ _tag: "result", seq: file.seq, result: stoppedResult })
        continue
      }
      let result
      try {
        result = await runtime.runPromise(ingestPlain(file.source, file.staging, file.sieves !== undefined ? { sieves: file.sieves } : undefined))
      } catch (e) {
        // ingestPlain never fails: this is a defect of the reader.
        result = { status: "failed" as const, failure: { reason: "corrupt" as const, detail: `the worker failed on this file (${String(e)})` }, log: [] }
      }
      answer({ _tag: "result", seq: file.seq, result })
    }
  } finally {
    reading = false
  }
}

port.on("message", (message: unknown) => {
  const request = decode(message)
  if (Either.isLeft(request)) {
    // Not from this commander's protocol: answer it, if it can be named, so that nothing waits for it.
    const seq = (message as { seq?: unknown } | null)?.seq
    if (typeof seq === "number") answer({ _tag: "result", seq, result: { status: "failed", failure: { reason: "corrupt", detail: "the worker could not read the request" }, log: [] } })
    return
  }
  queue.push(request.right)
  if (!reading) void readQueue()
})
answer({ _tag: "ready" })
