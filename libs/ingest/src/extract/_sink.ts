/**
 * Where an extractor puts a file's parts while it reads them (W1): a staging
 * folder that writes each sheet's TSV as the sheet is read, or a collector
 * that builds an {@link Extraction} in memory.
 *
 * @module
 */
import { type BodyLine, type BodyPart, type BodyPartHead, escapeTsvField, type Extraction } from "@sagasu/domain"
import { Effect } from "effect"
import type { ExtractError } from "./extract_error.ts"
import type { LineBudget } from "./_limits.ts"
import { cellAddress, linesOfBatch, type CellBatch } from "./_worksheet.ts"

/**
 * Receives the parts of one file in order: `beginPart`, any number of
 * `appendLines`, `endPart`, for each part. `restartPart` drops the lines
 * given to the current part so far (a sheet read a second time, see
 * `_workbook.ts`). A sink may fail with its own `E` (a disk that is full) or
 * with an {@link ExtractError} (a limit on what it takes, `too-large`).
 */
export interface ExtractionSink<E> {
  /**
   * True when the sink keeps every line in memory. Its lines then stay
   * counted against the file's text budget, and a sheet is read in one
   * pass and held whole (it would be held anyway); otherwise a sheet's
   * lines stream through in batches.
   */
  readonly keepsLines: boolean
  readonly beginPart: (head: BodyPartHead) => Effect.Effect<void, E | ExtractError>
  readonly appendLines: (lines: ReadonlyArray<BodyLine>) => Effect.Effect<void, E | ExtractError>
  /**
   * Optional, for a sink that writes TSV: appends `count` lines already
   * formatted as body-TSV lines (`formatBodyTsvLines`: each `loc \t text \n`,
   * or `loc \t text \t forms \n` for a cell with search-only forms,
   * escaped), so that a sheet's cells need no line objects on their way
   * (issue 20). The text is exactly what `appendLines` would write for them.
   */
  readonly appendTsv?: (tsv: string, count: number) => Effect.Effect<void, E | ExtractError>
  readonly restartPart: Effect.Effect<void, E | ExtractError>
  readonly endPart: Effect.Effect<void, E | ExtractError>
}

/** A sink that builds the {@link Extraction} in memory; `extraction()` is what it holds so far. */
export interface CollectingSink extends ExtractionSink<never> {
  readonly extraction: () => Extraction
}

/**
 * A {@link CollectingSink}. With `keepsLines: false` it still collects but
 * lets the extractor stream, so tests see exactly what a staging folder
 * would be given.
 */
export function collectingSink(options?: { readonly keepsLines?: boolean }): CollectingSink {
  const parts: Array<{ name: string; locator: BodyPartHead["locator"]; state: BodyPartHead["state"]; lines: Array<BodyLine> }> = []
  const current = () => {
    const part = parts.at(-1)
    if (part === undefined) throw new Error("collectingSink: no part begun")
    return part
  }
  return {
    keepsLines: options?.keepsLines ?? true,
    beginPart: (head) => Effect.sync(() => void parts.push({ name: head.name, locator: head.locator, state: head.state, lines: [] })),
    appendLines: (lines) =>
      Effect.sync(() => {
        // Sheets reach hundreds of thousands of lines: a loop, never push(...lines) (the call stack caps spread arguments).
        const part = current()
        for (const line of lines) part.lines.push(line)
      }),
    restartPart: Effect.sync(() => void (current().lines.length = 0)),
    endPart: Effect.void,
    extraction: () => ({ parts })
  }
}

/**
 * Hands `lines` to the current part of `sink`; when the sink does not keep
 * them, their characters go back to `budget` (they are no longer held).
 */
export const emitLines = <E>(sink: ExtractionSink<E>, budget: LineBudget, lines: ReadonlyArray<BodyLine>): Effect.Effect<void, E | ExtractError> =>
  lines.length === 0
    ? Effect.void
    : Effect.map(sink.appendLines(lines), () => {
        if (!sink.keepsLines) budget.release(charsOf(lines))
      })

/** Hands `parts`, each read whole, to `sink` in order: each begun, its lines given ({@link emitLines}), ended. */
export const emitParts = <E>(sink: ExtractionSink<E>, budget: LineBudget, parts: ReadonlyArray<BodyPart>): Effect.Effect<void, E | ExtractError> =>
  Effect.forEach(parts, (part) => Effect.zipRight(Effect.zipRight(sink.beginPart(part), emitLines(sink, budget, part.lines)), sink.endPart), { discard: true })

/**
 * Hands the cells of `batch` that `keep` keeps (all by default) to the
 * current part of `sink`: as TSV text when the sink takes it, else as lines.
 * When the sink does not keep lines, the characters of the whole batch go
 * back to `budget` (the cells dropped are no longer held either).
 */
export const emitCells = <E>(
  sink: ExtractionSink<E>,
  budget: LineBudget,
  batch: CellBatch,
  keep?: (i: number) => boolean
): Effect.Effect<void, E | ExtractError> => {
  if (batch.texts.length === 0) return Effect.void
  const release = Effect.sync(() => {
    if (!sink.keepsLines) budget.release(batch.chars)
  })
  if (sink.appendTsv === undefined) {
    const lines = linesOfBatch(batch, keep)
    return Effect.zipRight(lines.length === 0 ? Effect.void : sink.appendLines(lines), release)
  }
  let tsv = ""
  let count = 0
  const { rows, cols, texts, forms } = batch
  for (let i = 0; i < texts.length; i++) {
    if (keep !== undefined && !keep(i)) continue
    const f = forms[i] ?? ""
    tsv += cellAddress(rows[i] ?? 0, cols[i] ?? 0) + "\t" + escapeTsvField(texts[i] ?? "") + (f === "" ? "\n" : "\t" + escapeTsvField(f) + "\n")
    count++
  }
  return Effect.zipRight(count === 0 ? Effect.void : sink.appendTsv(tsv, count), release)
}

/** The characters of the texts of `lines`. */
export function charsOf(lines: ReadonlyArray<BodyLine>): number {
  let n = 0
  for (const line of lines) n += line.text.length
  return n
}
