/**
 * What a worker does with one file (W1): extract it and write its TSVs into
 * the staging folder, then mark the folder complete. Runs inside a worker
 * thread for plain workers; never writes the ingest list, log, progress or
 * body index.
 *
 * @module
 */
import { type IngestResult, fileFormatOf } from "@sagasu/domain"
import { stageExtraction } from "@sagasu/store"
import { FileSystem } from "@effect/platform"
import { Effect } from "effect"
import * as path from "node:path"
import { extractFile } from "./extract.ts"

/** Name of the file that marks a staging folder as complete (R7: only complete folders are published). */
export const stagingCompleteMark = ".complete"

/**
 * Ingests `source` into `staging` without Office (W2). Needs-Office content
 * comes back as `reroute` with the owner's application; any other failure as
 * `failed` with the extractor's reason. Never fails.
 */
export const ingestPlain = Effect.fn("Ingest.ingestPlain")(function* (source: string, staging: string) {
  const fs = yield* FileSystem.FileSystem
  const started = Date.now()
  const extracted = yield* extractFile(source).pipe(Effect.either)
  if (extracted._tag === "Left") {
    const e = extracted.left
    const reason = `${e.reason}: ${e.detail}`
    if (e.reason === "needs-office") {
      const app = fileFormatOf(path.basename(source))?.app ?? appOfDetail(e.detail)
      return { status: "reroute", tsvCount: 0, reason, app, log: [reason] } satisfies IngestResult
    }
    return { status: "failed", tsvCount: 0, reason, log: [e.message] } satisfies IngestResult
  }
  const parts = extracted.right.parts
  const staged = yield* stageExtraction(staging, extracted.right).pipe(
    Effect.zipLeft(fs.writeFileString(path.join(staging, stagingCompleteMark), "")),
    Effect.either
  )
  if (staged._tag === "Left") {
    const reason = `unreadable: the TSVs could not be written to the work folder (${staged.left.message})`
    return { status: "failed", tsvCount: 0, reason, log: [reason] } satisfies IngestResult
  }
  const lines = parts.reduce((n, p) => n + p.lines.length, 0)
  const log = [`${parts.length} part(s), ${lines} line(s), ${Date.now() - started} ms`]
  return { status: "done", tsvCount: staged.right, reason: "", log } satisfies IngestResult
})

// An OLE2 file behind an unknown name: the extractor's detail names the stream it found.
function appOfDetail(detail: string): "spreadsheet" | "document" | "presentation" {
  if (/word/i.test(detail)) return "document"
  if (/powerpoint/i.test(detail)) return "presentation"
  return "spreadsheet"
}
