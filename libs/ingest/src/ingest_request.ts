/**
 * The message a worker receives for one file (W1), as a Schema so it crosses
 * the worker-thread boundary typed (STYLE rule 9).
 *
 * @module
 */
import { IngestResult } from "@sagasu/domain"
import { Schema } from "effect"

/**
 * Ingest one file: `source` is the absolute path of the source file,
 * `staging` the absolute, empty staging folder to write its TSVs into.
 * `index`/`path` name it in the log; `sieves`, where its sieve goes (S2).
 */
export class IngestFile extends Schema.TaggedRequest<IngestFile>()("IngestFile", {
  failure: Schema.Never,
  success: IngestResult,
  payload: {
    index: Schema.String,
    path: Schema.String,
    source: Schema.String,
    staging: Schema.String,
    /** Where a big folder's sieve goes once staged (S2: the work folder's `sieves`); none: no sieve. */
    sieves: Schema.optional(Schema.String)
  }
}) {}

/** The messages plain workers understand. */
export const PlainWorkerMessage = IngestFile
