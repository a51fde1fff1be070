/**
 * The messages between the commander and a plain worker thread (W1, W2,
 * issue 20), and the control words they share. The commander sends files
 * ahead of the one the worker reads; the worker reads them one at a time in
 * the order they came and answers each with its result, in that order. A
 * stop is a word in shared memory, not a message, so that a file taken from
 * the queue after the stop is never read (W5), whatever the thread's
 * message queue holds at that moment.
 *
 * @module
 */
import { IngestResult } from "@sagasu/domain"
import { Schema } from "effect"

/** One file for the worker's queue: `seq` names it in the answer. */
export const PlainRequest = Schema.Struct({
  _tag: Schema.Literal("ingest"),
  seq: Schema.Number,
  index: Schema.String,
  path: Schema.String,
  source: Schema.String,
  staging: Schema.String,
  sieves: Schema.optional(Schema.String)
})
export type PlainRequest = typeof PlainRequest.Type

/** What a worker says: it is ready for files, or the result of file `seq`. */
export const PlainAnswer = Schema.Union(
  Schema.Struct({ _tag: Schema.Literal("ready") }),
  Schema.Struct({ _tag: Schema.Literal("result"), seq: Schema.Number, result: IngestResult })
)
export type PlainAnswer = typeof PlainAnswer.Type

/** The shared control words (an `Int32Array` over a SharedArrayBuffer): word 0 is set to 1 by a stop (W5). */
export const controlWords = 1

/** Index of the stop word in the control words. */
export const stopWord = 0

/** The result of a file taken from the queue after a stop (W5): not read, nothing staged. */
export const stoppedResult: IngestResult = { status: "stopped", log: [] }

/** What the worker thread gets as `workerData`. */
export interface PlainWorkerData {
  readonly control: SharedArrayBuffer
}
