/**
 * What a worker does with one file (W1): extract it and write its TSVs into
 * the staging folder, then mark the folder complete. Runs inside a worker
 * thread for plain workers; never writes the ingest list, log, progress or
 * body index.
 *
 * @module
 */
import { type FileNote, type IngestResult, fileFormatOf } from "@sagasu/domain"
import { WorkStore, type WorkStoreError, sieveFileMinBytes, stagingWriteFailure } from "@sagasu/store"
import { Effect } from "effect"
import * as path from "node:path"
import { ExtractError, extractFileTo, type ExtractFileOptions, type ExtractionSink } from "./extract.ts"

export { stagingCompleteMark } from "@sagasu/store"

/**
 * The most UTF-8 bytes of TSV one source file may stage, 1 GiB: the bound on
 * a file's output now that `maxLines` counts per sheet (BUG-10). A 93 MB
 * workbook of ten full sheets, 13 million cells, stages 0.29 GB.
 */
export const defaultMaxStagedBytes = 1024 ** 3

/** The log note of a file that is done with no text at all; its block is a warning (R4, issue 15 item 10). */
export const noTextWarning: FileNote = { _tag: "NoText" }

/** Options of {@link ingestPlain}. */
export interface IngestPlainOptions {
  /** Limits of the extraction (`maxLines` applies per sheet / part here). */
  readonly extract?: ExtractFileOptions
  /** Most UTF-8 bytes of TSV the file may stage; past it the file fails `too-large`. Default {@link defaultMaxStagedBytes}. */
  readonly maxStagedBytes?: number
  /** Where a big folder's sieve is written once staged (S2: the work folder's `sieves`); none when not given. */
  readonly sieves?: string
}

/**
 * Ingests `source` into the staging folder `staging` without Office (W1, W2):
 * each part's TSV is written while the part is read, so that a worker holds
 * about one batch of a big sheet rather than the whole workbook, and
 * `.complete` is written last (C2, R7). Returns `done` with the TSV count;
 * needs-Office content comes back as `reroute` with the owner's application;
 * any other extraction failure as `failed` with the extractor's reason (a
 * file past `maxStagedBytes` as `too-large`), a write failure of the work
 * folder as `failed` with `stagingWriteFailure` (R18). A `done` file
 * with no text at all gets {@link noTextWarning} in its log. A file that is
 * not `done` leaves no staging folder (what was written of it is removed).
 * Never fails.
 */
export const ingestPlain = Effect.fn("Ingest.ingestPlain")(function* (source: string, staging: string, options?: IngestPlainOptions) {
  const store = yield* WorkStore
  const started = Date.now()
  const maxStagedBytes = options?.maxStagedBytes ?? defaultMaxStagedBytes
  let lines = 0
  let partLines = 0
  let stagedBytes = 0
  const staged = yield* Effect.scoped(
    Effect.gen(function* () {
      const folder = yield* store.openStagingFolder(staging)
      const counted = (count: number) => {
        lines += count
        partLines += count
        return folder.bytes() > maxStagedBytes
          ? Effect.fail(new ExtractError({ reason: "too-large", detail: `staged TSVs: more than ${maxStagedBytes} bytes of text` }))
          : Effect.void
      }
      const sink: ExtractionSink<WorkStoreError> = {
        keepsLines: false,
        beginPart: (head) => {
          partLines = 0
          return folder.beginPart(head)
        },
        appendLines: (batch) => Effect.flatMap(folder.appendLines(batch), () => counted(batch.length)),
        appendTsv: (tsv, count) => Effect.flatMap(folder.appendTsv(tsv), () => counted(count)),
        restartPart: Effect.map(folder.restartPart, () => {
          lines -= partLines
          partLines = 0
        }),
        endPart: folder.endPart
      }
      yield* extractFileTo(source, sink, options?.extract)
      yield* folder.endPart
      stagedBytes = folder.bytes()
      return folder.tsvCount()
    })
  ).pipe(
    // C2, R7: the TSVs are closed; the mark goes last, with the source's size and date (issue 14).
    // S2: a small folder has no sieve to write (not even its folder listed for one).
    Effect.tap(() => store.completeStaging(staging, source, stagedBytes >= sieveFileMinBytes ? options?.sieves : undefined)),
    Effect.either
  )
  if (staged._tag === "Right") {
    const log: Array<FileNote> = [{ _tag: "Read", parts: staged.right, lines, ms: Date.now() - started }]
    // Issue 15 item 10: a file read without error that shows no text at all is worth a look (a format part we do not read?).
    if (lines === 0) log.push(noTextWarning)
    return { status: "done", tsvCount: staged.right, log, lines } satisfies IngestResult
  }
  // Nothing of a file that is not done may stay where it could be taken for its TSVs.
  yield* store.discardStaging(staging).pipe(Effect.ignore)
  const e = staged.left
  if (!(e instanceof ExtractError)) {
    const failure = stagingWriteFailure(e.detail)
    return { status: "failed", failure, log: [] } satisfies IngestResult
  }
  const failure = { reason: e.reason, detail: e.detail }
  if (e.reason === "needs-office") {
    // Behind an unknown name, the owner of what the reader found (issue 17: a field of the error); else the spreadsheet owner's LibreOffice tries.
    const app = fileFormatOf(path.basename(source))?.app ?? e.app ?? "spreadsheet"
    return { status: "reroute", failure, app, log: [] } satisfies IngestResult
  }
  // The failure is the block's first line (R4), said once: no note repeats it.
  return { status: "failed", failure, log: [] } satisfies IngestResult
})
