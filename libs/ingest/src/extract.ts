/**
 * Text extraction of one Office file without Office (SPEC W2, W3):
 * workbooks, documents and presentations in OOXML form, and legacy files in
 * OLE2 containers (BIFF5/BIFF8 .xls, Word 97–2003 and 6.0/95, PowerPoint
 * 97–2003, 95 and 4.0), Excel 2–4 worksheets (BIFF2–4), Word 2.0 and .xlsb, become an {@link Extraction} —
 * one body part per sheet, or one for a document or a presentation. Anything
 * else fails with an {@link ExtractError} whose reason says why: what only
 * Office reads (flat OpenDocument XML, an Excel 4.0 workbook of bound sheets,
 * PowerPoint 3 and Macintosh PowerPoint 4, a legacy workbook
 * the reader finds damaged) is `needs-office`, rerouted to the Office owner
 * (W3, R14); password-protected files are `encrypted`, and so on.
 *
 * The format is found from the bytes, never from the name (BUG-14).
 *
 * A plain worker uses {@link extractFileTo}: the parts go to a sink (its
 * staging folder) while the file is read from disk, a big sheet in batches
 * (W1, issue 9). {@link extractFile} and {@link extractBuffer} hold the
 * whole {@link Extraction} in memory (the Office owners, tests).
 *
 * @module
 */
import { basename, extname } from "node:path"
import { Cause, Effect, Exit, Option } from "effect"
import type { Extraction } from "@sagasu/domain"
import { extractDocument } from "./extract/_document.ts"
import { defaultLimits, LineBudget, type ExtractLimits } from "./extract/_limits.ts"
import { findMainPart } from "./extract/_main_part.ts"
import { openSnapshot, readSnapshot } from "./extract/_read_file.ts"
import { extractOle2 } from "./extract/_legacy.ts"
import { OpcPackage } from "./extract/_opc.ts"
import { extractOpenDocument } from "./extract/_open_document.ts"
import { extractRtf } from "./extract/_rtf.ts"
import { extractPresentation } from "./extract/_presentation.ts"
import { collectingSink, emitParts, type ExtractionSink } from "./extract/_sink.ts"
import { emitProperties, packageProperties } from "./extract/_properties.ts"
import { extractWord2 } from "./extract/_legacy_text.ts"
import { sniffContainer } from "./extract/_sniff.ts"
import { defaultSheetStreaming, extractWorkbook, type SheetStreaming } from "./extract/_workbook.ts"
import type { SheetScanOutcome } from "./extract/_sheet_scan.ts"
import { extractXls } from "./extract/_xls.ts"
import { extractOldXls } from "./extract/_xls_old.ts"
import { extractXlsb } from "./extract/_xlsb.ts"
import { bytesSource, ZipArchive, type ZipSource } from "./extract/_zip.ts"
import { ExtractError } from "./extract/extract_error.ts"

export { ExtractError } from "./extract/extract_error.ts"
export { collectingSink, type CollectingSink, type ExtractionSink } from "./extract/_sink.ts"

/**
 * Limits of one extraction; a file that reaches one fails with `too-large`
 * (BUG-10, BUG-26). Every field is optional.
 */
export interface ExtractFileOptions {
  /**
   * Most bytes inflated from the zip for this file, over all parts read,
   * checked against each part's declared size before inflating and counted
   * again while inflating. Parts stream, so this bounds time, not memory.
   * Default 4 GiB.
   */
  readonly maxInflatedBytes?: number
  /** Highest declared compression ratio (inflated ÷ compressed) of a part of 1 MiB or more. Default 1000. */
  readonly maxCompressionRatio?: number
  /**
   * Most lines (cells, paragraphs) of text in one part: a sheet, a
   * document's body, a presentation's slides. When the whole extraction is
   * held in memory ({@link extractBuffer}, {@link extractFile}) also the most
   * over the file. Default 5,000,000.
   */
  readonly maxLines?: number
  /**
   * Most characters of text held at once for this file: the shared-string
   * table plus the lines not yet handed on (every line, when the extraction
   * is held in memory). This is what bounds memory (a 200 MB sharedStrings
   * part is streamed; only its text is kept). Default 128 Mi characters.
   */
  readonly maxTextChars?: number
  /** Deepest XML element nesting in a part. Default 1000. */
  readonly maxXmlDepth?: number
  /**
   * Largest file {@link extractFile} (which reads it whole) or
   * {@link extractFileTo} (part by part) reads, and largest OLE2 stream read
   * (a workbook stream is read by positioned reads, never whole). Default 1 GiB.
   */
  readonly maxFileBytes?: number
  /**
   * Cells per batch when a big sheet streams to a sink that does not keep
   * its lines ({@link extractFileTo}); a sheet streams once it holds more
   * than 8 batches of cells (or 1 Mi characters). Default 1,024.
   */
  readonly sheetBatchLines?: number
  /**
   * How sheet cells are read: `fast` (the default) scans `sheetData` and the
   * shared-string table's `sst` with the dedicated readers and gives anything
   * they do not recognise to saxes;
   * `saxes` reads every part through saxes (the reference the fast path is
   * tested against, issue 20).
   */
  readonly sheetReader?: "fast" | "saxes"
  /** Told how the fast path read each sheet part: `fast`, `saxes` (read on by saxes) or `fallback` (read again by saxes), with the reason. */
  readonly onSheetScan?: (sheetPart: string, outcome: SheetScanOutcome) => void
  /** The same for the shared-string table (`sheetReader` covers it too). */
  readonly onSharedStringsScan?: (part: string, outcome: SheetScanOutcome) => void
}

const limitsOf = (options: ExtractFileOptions | undefined): ExtractLimits => ({
  maxInflatedBytes: options?.maxInflatedBytes ?? defaultLimits.maxInflatedBytes,
  maxRatio: options?.maxCompressionRatio ?? defaultLimits.maxRatio,
  maxLines: options?.maxLines ?? defaultLimits.maxLines,
  maxTextChars: options?.maxTextChars ?? defaultLimits.maxTextChars,
  maxXmlDepth: options?.maxXmlDepth ?? defaultLimits.maxXmlDepth,
  maxFileBytes: options?.maxFileBytes ?? defaultLimits.maxFileBytes
})

const streamingOf = (options: ExtractFileOptions | undefined): SheetStreaming =>
  options?.sheetBatchLines === undefined
    ? defaultSheetStreaming
    : { ...defaultSheetStreaming, batchLines: options.sheetBatchLines, holdLines: 8 * options.sheetBatchLines }

const fail = (reason: ExtractError["reason"], detail: string) => Effect.fail(new ExtractError({ reason, detail }))

const extractPackage = <E>(
  bytes: ZipSource,
  fileName: string,
  sink: ExtractionSink<E>,
  options: ExtractFileOptions | undefined
): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    const limits = limitsOf(options)
    const zip = yield* Effect.try({
      try: () => new ZipArchive(bytes, { maxInflatedBytes: limits.maxInflatedBytes, maxRatio: limits.maxRatio }),
      catch: (e) => (e instanceof ExtractError ? e : new ExtractError({ reason: "corrupt", detail: String(e) }))
    })
    const pkg = new OpcPackage(zip, { maxXmlDepth: limits.maxXmlDepth })
    const main = yield* findMainPart(pkg, fileName)
    // Lines held in memory are also counted over the file; lines that stream to disk are bounded by what the sink takes.
    const budget = new LineBudget(limits.maxLines, limits.maxTextChars, sink.keepsLines ? limits.maxLines : Infinity)
    if (main.encoding === "opendocument") return yield* extractOpenDocument(pkg, main.kind, sink, budget)
    if (main.encoding === "binary") {
      yield* extractXlsb(pkg, main.part, budget, sink, streamingOf(options))
      return yield* emitProperties(sink, budget, yield* packageProperties(pkg))
    }
    if (main.kind === "spreadsheet") {
      const reading = {
        fast: options?.sheetReader !== "saxes",
        ...(options?.onSheetScan !== undefined ? { observe: options.onSheetScan } : {}),
        ...(options?.onSharedStringsScan !== undefined ? { observeSharedStrings: options.onSharedStringsScan } : {})
      }
      yield* extractWorkbook(pkg, main.part, budget, sink, streamingOf(options), reading)
      return yield* emitProperties(sink, budget, yield* packageProperties(pkg))
    }
    // A document or a presentation is one part, read whole, then handed on.
    budget.startPart()
    const { parts, titles } = main.kind === "document"
      ? { ...(yield* extractDocument(pkg, main.part, budget)), titles: [] }
      : yield* extractPresentation(pkg, main.part, budget)
    yield* emitParts(sink, budget, parts)
    // The document properties, then the slides' titles (S4), as the part `properties`.
    yield* emitProperties(sink, budget, [...(yield* packageProperties(pkg)), ...titles])
  }).pipe(Effect.withSpan("Extract.package"))

/** Bytes {@link sniffContainer} looks at. */
const headBytes = 4096

/**
 * Extracts a file from its first bytes `head` and its bytes as a `source`
 * read by positioned reads (a zip's parts, an OLE2 container's sectors).
 * Never dies: an unexpected exception becomes `corrupt`.
 */
const extractContainer = <E>(
  head: Uint8Array,
  source: ZipSource,
  fileName: string,
  sink: ExtractionSink<E>,
  options: ExtractFileOptions | undefined
): Effect.Effect<void, ExtractError | E> =>
  Effect.suspend(() => {
    const container = sniffContainer(head)
    switch (container._tag) {
      case "empty":
        return fail("empty-file", "zero bytes")
      case "ole2": {
        const limits = limitsOf(options)
        const budget = new LineBudget(limits.maxLines, limits.maxTextChars, sink.keepsLines ? limits.maxLines : Infinity)
        return extractOle2(source, sink, budget, streamingOf(options), { maxStreamBytes: limits.maxFileBytes })
      }
      case "rtf": {
        const limits = limitsOf(options)
        const budget = new LineBudget(limits.maxLines, limits.maxTextChars, sink.keepsLines ? limits.maxLines : Infinity)
        return extractRtf(source, sink, budget, { maxFileBytes: limits.maxFileBytes })
      }
      case "bare-biff": {
        // The whole file is the record stream (W3): Excel 2–4 through _xls_old.ts, a bare BIFF5/8 stream through _xls.ts.
        const limits = limitsOf(options)
        const budget = new LineBudget(limits.maxLines, limits.maxTextChars, sink.keepsLines ? limits.maxLines : Infinity)
        if (container.version === 5) return extractXls(source, "workbook", budget, sink, streamingOf(options))
        const stem = basename(fileName, extname(fileName)) || fileName
        return extractOldXls(source, "workbook", budget, sink, streamingOf(options), { biff2SheetName: stem })
      }
      case "word2": {
        const limits = limitsOf(options)
        const budget = new LineBudget(limits.maxLines, limits.maxTextChars, sink.keepsLines ? limits.maxLines : Infinity)
        return extractWord2(source, budget, sink)
      }
      case "legacy":
        return Effect.fail(new ExtractError({ reason: "needs-office", detail: container.detail, app: container.app }))
      case "other":
        return fail("not-office", container.detail)
      case "zip":
        return extractPackage(source, fileName, sink, options)
    }
  }).pipe(
    Effect.catchAllDefect((defect) =>
      fail("corrupt", `unexpected failure: ${defect instanceof Error ? defect.message : String(defect)}`)
    )
  )

/**
 * Extracts the text of a file already in memory into `sink`, part by part
 * (see {@link extractFileTo}). `fileName` only breaks ties for a package
 * without relationships; the content decides everything else. Fails with
 * {@link ExtractError} (`empty-file`, `encrypted`, `needs-office`,
 * `not-office`, `corrupt`, `too-large`) or with the sink's own error; what
 * the sink was given before a failure is the caller's to throw away. Never
 * dies: an unexpected exception becomes `corrupt` with its message.
 */
export const extractBufferTo = <E>(
  bytes: Uint8Array,
  fileName: string,
  sink: ExtractionSink<E>,
  options?: ExtractFileOptions
): Effect.Effect<void, ExtractError | E> =>
  extractContainer(bytes, bytesSource(bytes), fileName, sink, options).pipe(Effect.withSpan("Extract.extractBufferTo"))

/**
 * Extracts the text of a file already in memory and holds it whole: `{parts}`
 * as {@link extractFile} describes. Lines count against `maxLines` per part
 * and over the file. Fails with {@link ExtractError} like
 * {@link extractBufferTo}; never dies.
 */
export const extractBuffer = (bytes: Uint8Array, fileName: string, options?: ExtractFileOptions): Effect.Effect<Extraction, ExtractError> =>
  Effect.suspend(() => {
    const sink = collectingSink()
    return Effect.map(extractBufferTo(bytes, fileName, sink, options), () => sink.extraction())
  })

const readWhole = (path: string, options?: ExtractFileOptions) =>
  Effect.tryPromise({
    try: () => readSnapshot(path, options?.maxFileBytes ?? defaultLimits.maxFileBytes),
    catch: (e) =>
      e instanceof ExtractError ? e : new ExtractError({ reason: "unreadable", detail: e instanceof Error ? e.message : String(e) })
  })

/**
 * Reads the file at `path` and extracts its text: `{parts}` with one part
 * per sheet (`locator: "cell"`, lines `{loc: "A1", text}`), or one part
 * `document` (`"paragraph"`: `"12"`, `"header"`, `"footnote:3"`, …) or
 * `slides` (`"slide"`: `"3"`, `"3 notes"`), held whole in memory. Fails with
 * {@link ExtractError}; `unreadable` when the file cannot be read or changes
 * while it is read, `too-large` over `maxFileBytes`.
 */
export const extractFile = (path: string, options?: ExtractFileOptions): Effect.Effect<Extraction, ExtractError> =>
  Effect.flatMap(readWhole(path, options), (bytes) => extractBuffer(bytes, basename(path), options))

/**
 * Reads the file at `path` and hands its text to `sink` while reading it
 * (W1): each part (sheet, document body, slide deck) is begun, filled and
 * ended in order, the parts and lines being those {@link extractFile} gives.
 * A zip is read from disk part by part as it is inflated, never whole; with
 * a sink that does not keep its lines a big sheet streams in batches
 * (`sheetBatchLines`), so memory stays bounded by about one batch plus the
 * shared-string table, and `maxLines` applies per part only: the sink bounds
 * the total (a staging folder by its bytes). Fails like {@link extractFile}
 * (a file that changed while it was read is `unreadable`, whatever else went
 * wrong), or with the sink's error; a part may have been begun and partly
 * filled when it fails.
 */
export const extractFileTo = <E>(path: string, sink: ExtractionSink<E>, options?: ExtractFileOptions): Effect.Effect<void, ExtractError | E> =>
  Effect.acquireUseRelease(
    Effect.try({
      try: () => openSnapshot(path, options?.maxFileBytes ?? defaultLimits.maxFileBytes),
      catch: (e) => (e instanceof ExtractError ? e : new ExtractError({ reason: "unreadable", detail: String(e) }))
    }),
    (file) =>
      Effect.gen(function* () {
        const { source } = file
        const head = yield* Effect.try({ try: () => source.read(0, Math.min(headBytes, source.size)), catch: (e) => e as ExtractError })
        const outcome = yield* Effect.exit(extractContainer(head, source, basename(path), sink, options))
        // A file saved while it was read gives a torn mix: unreadable (retried on the next run), whatever
        // the extraction made of it; only the sink's own failure (the work folder's) goes first.
        const sinkFailed = Exit.isFailure(outcome) && Option.exists(Cause.failureOption(outcome.cause), (e) => !(e instanceof ExtractError))
        if (!sinkFailed) yield* Effect.try({ try: () => file.verify(), catch: (e) => e as ExtractError })
        return yield* outcome
      }),
    (file) => Effect.sync(() => file.close())
  ).pipe(Effect.withSpan("Extract.extractFileTo"))
