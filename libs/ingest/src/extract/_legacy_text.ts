/**
 * Word 97–2003 and PowerPoint 97–2003, 95 and 4.0 files read from their
 * OLE2 container (`_cfb.ts`) by the plain workers (SPEC W3): the streams each reader needs,
 * and the lines handed to the sink in batches while they are read, in the
 * parts the docx and pptx paths give (`document`; `slides` and
 * `hidden slides`).
 *
 * @module
 */
import type { AppKind, BodyLine, BodyPartHead } from "@sagasu/domain"
import { Effect } from "effect"
import { cfbDamageOf, type CompoundFile } from "./_cfb.ts"
import { eightBitCodePage } from "./_codepage.ts"
import type { LineBudget } from "./_limits.ts"
import { readPowerPoint4 } from "./_powerpoint4.ts"
import { isPowerPoint95, readPowerPoint95 } from "./_powerpoint95.ts"
import { readPowerPoint97, type PowerPoint97Line } from "./_powerpoint97.ts"
import { summaryCodePage } from "./_properties.ts"
import { emitLines, type ExtractionSink } from "./_sink.ts"
import { readWord97 } from "./_word97.ts"
import type { ZipSource } from "./_zip.ts"
import { ExtractError } from "./extract_error.ts"

/** The legacy text formats of this module: `powerpoint97` is PowerPoint 97–2003 and 95 (one stream name), `powerpoint4` PowerPoint 4.0. */
export type LegacyText = "word97" | "powerpoint97" | "powerpoint4"

/** Which reader of this module reads `file`, by its root streams; undefined for any other container (a workbook, an unknown one). */
export function legacyTextOf(file: CompoundFile): LegacyText | undefined {
  const root = new Set(file.entries.filter((e) => e.type === "stream" && !e.path.includes("/")).map((e) => e.path.toLowerCase()))
  if (root.has("worddocument")) return "word97"
  if (root.has("powerpoint document")) return "powerpoint97"
  // W3: a PP40 stream is PowerPoint 4.0 (its file has no PowerPoint Document stream).
  if (root.has("pp40")) return "powerpoint4"
  return undefined
}

/** Streams read whole (the table stream, Current User) are this large at most; real ones are kilobytes to a few megabytes. */
const maxWholeStreamBytes = 64 * 1024 ** 2

/** Lines handed to the sink at once, at most, and characters (a batch of long paragraphs goes sooner). */
const batchLines = 1024
const batchChars = 1 << 20

/** The stream at `path` read whole, `too-large` past {@link maxWholeStreamBytes}. */
function wholeStream(file: CompoundFile, path: string): Uint8Array | undefined {
  const entry = file.entries.find((e) => e.type === "stream" && e.path.toLowerCase() === path.toLowerCase())
  if (entry === undefined) return undefined
  if (entry.size > maxWholeStreamBytes) {
    throw new ExtractError({ reason: "too-large", detail: `OLE2 stream ${entry.path} has ${entry.size} bytes; the limit is ${maxWholeStreamBytes}` })
  }
  return file.readStream(entry.path)
}

/**
 * The error of a read: the readers' own (`corrupt` for a structure no reader
 * gets past, `needs-office`, `encrypted`, `too-large`) as they are; a
 * container cut short or with an odd header (`_cfb.ts`'s *truncated* and
 * *malformed* damage) goes to Office, which may still read part of it, as
 * `inspectOle2` decides for any other OLE2 file; a chain that loops stays
 * `corrupt`.
 */
const asExtractError = (e: unknown): ExtractError => {
  if (!(e instanceof ExtractError)) return new ExtractError({ reason: "corrupt", detail: `unexpected failure: ${e instanceof Error ? e.message : String(e)}` })
  const damage = cfbDamageOf(e)
  return damage === "truncated" || damage === "malformed" ? new ExtractError({ reason: "needs-office", detail: `${e.detail} (${damage})`, ...(e.app === undefined ? {} : { app: e.app }) }) : e
}

/** Pulls lines from `lines` in batches into the current part of `sink`; `keep` takes the lines that belong elsewhere (hidden slides). */
const drain = <T, E>(
  lines: Iterator<T, void, undefined>,
  sink: ExtractionSink<E>,
  budget: LineBudget,
  route: (item: T) => BodyLine | undefined
): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    for (;;) {
      const { batch, done } = yield* Effect.try({
        try: () => {
          const batch: Array<BodyLine> = []
          let chars = 0
          for (;;) {
            const next = lines.next()
            if (next.done === true) return { batch, done: true }
            const line = route(next.value)
            if (line === undefined) continue
            batch.push(line)
            chars += line.text.length
            if (batch.length >= batchLines || chars >= batchChars) return { batch, done: false }
          }
        },
        catch: asExtractError
      })
      yield* emitLines(sink, budget, batch)
      if (done) return
    }
  })

/**
 * The reader `open` makes of the main stream `stream` of `file` (the
 * `WordDocument`, the `PowerPoint Document`); `needs-office` naming `app`
 * when the container has no such stream, and whatever `open` throws as an
 * {@link ExtractError}.
 */
const readerOf = <A>(file: CompoundFile, stream: string, app: AppKind, open: (source: ZipSource) => A): Effect.Effect<A, ExtractError> =>
  Effect.try({
    try: () => {
      const source = file.streamSource(stream)
      if (source === undefined) throw new ExtractError({ reason: "needs-office", detail: `OLE2 container without a ${stream} stream`, app })
      return open(source)
    },
    catch: asExtractError
  })

const documentPart: BodyPartHead = { name: "document", locator: "paragraph", state: "visible" }
const slidesPart: BodyPartHead = { name: "slides", locator: "slide", state: "visible" }
const hiddenSlidesPart: BodyPartHead = { name: "hidden slides", locator: "slide", state: "hidden" }

/**
 * Reads the Word document in `file` (Word 97–2003, Word 6.0 and Word 95)
 * into `sink`: one part `document` (see `_word97.ts`). Fails with an
 * {@link ExtractError} or the sink's error.
 */
export const extractWord97 = <E>(file: CompoundFile, budget: LineBudget, sink: ExtractionSink<E>): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    const lines = yield* readerOf(file, "WordDocument", "document", (wordDocument) =>
      readWord97({ wordDocument, table: (name) => wholeStream(file, name), data: file.streamSource("Data") }, budget)
    )
    yield* emitDocument(lines, budget, sink)
  }).pipe(Effect.withSpan("Extract.word97"))

/**
 * Reads a Word for Windows 2.0 document — a file without an OLE2
 * container, its FIB at byte 0 (`_sniff.ts`) — into `sink` as one part
 * `document`, as `_word97.ts` reads a Word 6/95 file (W3: no LibreOffice).
 * Fails with an {@link ExtractError} or the sink's error.
 */
export const extractWord2 = <E>(source: ZipSource, budget: LineBudget, sink: ExtractionSink<E>): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    const lines = yield* Effect.try({ try: () => readWord97({ wordDocument: source, table: () => undefined }, budget), catch: asExtractError })
    yield* emitDocument(lines, budget, sink)
  }).pipe(Effect.withSpan("Extract.word2"))

/** The part `document` of `lines`, pulled in batches. */
const emitDocument = <E>(lines: Iterator<BodyLine, void, undefined>, budget: LineBudget, sink: ExtractionSink<E>): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    budget.startPart()
    yield* sink.beginPart(documentPart)
    yield* drain(lines, sink, budget, (line) => line)
    yield* sink.endPart
  })

/**
 * Reads the PowerPoint presentation in `file` into `sink`: PowerPoint
 * 97–2003 (see `_powerpoint97.ts`) as a part `slides`, and `hidden slides`
 * when some are hidden; PowerPoint 95 (a `PowerPoint Document` stream of
 * 16-byte record headers, `_powerpoint95.ts`) as a part `slides`, its text
 * in the summary information's code page. Fails with an
 * {@link ExtractError} or the sink's error.
 */
export const extractPowerPoint97 = <E>(file: CompoundFile, budget: LineBudget, sink: ExtractionSink<E>): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    const lines = yield* readerOf(file, "PowerPoint Document", "presentation", (document): Iterator<PowerPoint97Line, void, undefined> =>
      // W3: PowerPoint 95 has no CurrentUserAtom; its stream is told by its first records, and read here too.
      isPowerPoint95(document)
        ? visibleLines(readPowerPoint95({ document, codePage: slideTextCodePage(file) }, budget))
        : readPowerPoint97({ currentUser: wholeStream(file, "Current User"), document }, budget)
    )
    // Hidden slides are few; their lines wait for their own part, as the pptx path keeps them apart.
    const hidden: Array<BodyLine> = []
    budget.startPart()
    yield* sink.beginPart(slidesPart)
    yield* drain(lines, sink, budget, (item) => {
      if (!item.hidden) return item.line
      hidden.push(item.line)
      return undefined
    })
    yield* sink.endPart
    if (hidden.length === 0) return
    yield* sink.beginPart(hiddenSlidesPart)
    yield* emitLines(sink, budget, hidden)
    yield* sink.endPart
  }).pipe(Effect.withSpan("Extract.powerpoint97"))

/**
 * Reads the PowerPoint 4.0 presentation in `file` (its `PP40` stream, see
 * `_powerpoint4.ts`) into `sink` as a part `slides`, its text in the summary
 * information's code page. Fails with an {@link ExtractError} or the sink's
 * error.
 */
export const extractPowerPoint4 = <E>(file: CompoundFile, budget: LineBudget, sink: ExtractionSink<E>): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    const lines = yield* readerOf(file, "PP40", "presentation", (pp40) => readPowerPoint4({ pp40, codePage: slideTextCodePage(file) }, budget))
    budget.startPart()
    yield* sink.beginPart(slidesPart)
    yield* drain(lines, sink, budget, (line) => line)
    yield* sink.endPart
  }).pipe(Effect.withSpan("Extract.powerpoint4"))

/** The code page of a PowerPoint 95 or 4.0 file's 8-bit text: its summary information's (a Unicode page read as 1252), else 1252. */
const slideTextCodePage = (file: CompoundFile): number => eightBitCodePage(summaryCodePage(file) ?? 1252)

/** Lines of a format whose slides this reader marks none hidden (PowerPoint 95), as visible lines. */
function* visibleLines(lines: Iterator<BodyLine, void, undefined>): Generator<PowerPoint97Line, void, undefined> {
  for (let next = lines.next(); next.done !== true; next = lines.next()) yield { hidden: false, line: next.value }
}
