/**
 * A legacy Office file in an OLE2 container (MS-CFB), read without Office
 * where a plain reader exists (W3): an Excel 5.0–2003 workbook through
 * `_xls.ts`, a Word 97–2003 or Word 6.0/95 document or a PowerPoint
 * 97–2003, 95 or 4.0 presentation through `_legacy_text.ts`. Everything else —
 * PowerPoint 3 and Macintosh PowerPoint 4, OLE2 files of other kinds, containers cut short — is
 * `needs-office`, rerouted to the Office owner of its kind (R14), as is a
 * workbook the reader finds damaged; an encrypted file is `encrypted` and a
 * container whose sector chains loop is `corrupt` (no reader gets past it).
 *
 * @module
 */
import type { AppKind } from "@sagasu/domain"
import { Effect } from "effect"
import { cfbDamageOf, openCompoundFile } from "./_cfb.ts"
import { extractPowerPoint4, extractPowerPoint97, extractWord97, legacyTextOf } from "./_legacy_text.ts"
import type { LineBudget } from "./_limits.ts"
import { inspectOle2 } from "./_ole2.ts"
import { emitProperties, ole2Properties } from "./_properties.ts"
import type { ExtractionSink } from "./_sink.ts"
import type { SheetStreaming } from "./_workbook.ts"
import { extractXls } from "./_xls.ts"
import type { ZipSource } from "./_zip.ts"
import { ExtractError } from "./extract_error.ts"

/** Limits of reading one OLE2 file. */
export interface Ole2Limits {
  /** Largest stream read (the workbook stream is read by positioned reads, never held: this bounds time). */
  readonly maxStreamBytes: number
}

/**
 * Damage of the container itself: a loop is `corrupt`; a file cut short or
 * an odd header goes to Office, which may still read part of it.
 */
const containerError = (e: unknown): ExtractError => {
  if (!(e instanceof ExtractError)) return new ExtractError({ reason: "corrupt", detail: `OLE2 container: ${e instanceof Error ? e.message : String(e)}` })
  const damage = cfbDamageOf(e)
  if (damage === undefined || damage === "broken") return e
  return new ExtractError({ reason: "needs-office", detail: `${e.detail} (${damage})`, ...(e.app === undefined ? {} : { app: e.app }) })
}

// The owner of the content the OLE2 directory names (issue 17: a field, not words of the detail).
const appOf = (verdict: { readonly app?: AppKind }) => (verdict.app === undefined ? {} : { app: verdict.app })

/**
 * Extracts the OLE2 file in `source` into `sink` (one part per sheet of a
 * workbook), or fails: `encrypted`, `corrupt`, `needs-office` (with what was
 * found, e.g. `legacy OLE2 file (worddocument)`), `too-large`, or the sink's
 * error.
 */
export const extractOle2 = <E>(
  source: ZipSource,
  sink: ExtractionSink<E>,
  budget: LineBudget,
  streaming: SheetStreaming,
  limits: Ole2Limits
): Effect.Effect<void, ExtractError | E> =>
  Effect.acquireUseRelease(
    Effect.try({ try: () => openCompoundFile(source, { maxStreamBytes: limits.maxStreamBytes }), catch: containerError }),
    (file) =>
      Effect.gen(function* () {
        const verdict = yield* Effect.try({ try: () => inspectOle2(file), catch: containerError })
        if (verdict._tag !== "legacy") return yield* Effect.fail(new ExtractError({ reason: verdict._tag, detail: verdict.detail }))
        // A workbook saved as "Excel 97–2003 & 5.0/95" holds both streams: Workbook is the BIFF8 one.
        const streamName = ["Workbook", "Book"].find((name) => file.entries.some((e) => e.type === "stream" && e.path.toLowerCase() === name.toLowerCase()))
        if (streamName === undefined) {
          // Word 97–2003 or 6.0/95, PowerPoint 97–2003 or 95, or PowerPoint 4.0 (a PP40 stream); anything else is needs-office (rerouted).
          const format = yield* Effect.try({ try: () => legacyTextOf(file), catch: containerError })
          if (format === "word97") yield* extractWord97(file, budget, sink)
          else if (format === "powerpoint97") yield* extractPowerPoint97(file, budget, sink)
          else if (format === "powerpoint4") yield* extractPowerPoint4(file, budget, sink)
          else return yield* Effect.fail(new ExtractError({ reason: "needs-office", detail: verdict.detail, ...appOf(verdict) }))
          // The summary information's title, author, … (S4) as the part `properties`.
          return yield* emitProperties(sink, budget, ole2Properties(file))
        }
        const stream = yield* Effect.try({ try: () => file.streamSource(streamName), catch: containerError })
        if (stream === undefined) return yield* Effect.fail(new ExtractError({ reason: "needs-office", detail: verdict.detail, ...appOf(verdict) }))
        yield* extractXls(stream, streamName, budget, sink, streaming).pipe(
          Effect.mapError((e) => (e instanceof ExtractError ? containerError(e) : e))
        )
        return yield* emitProperties(sink, budget, ole2Properties(file))
      }),
    (file) => Effect.sync(() => file.close())
  ).pipe(Effect.withSpan("Extract.ole2"))
