/**
 * Text of a workbook (xlsx, xlsm, xltx, xltm): one body part per sheet in
 * workbook order, every part found through relationships (BUG-04) and read by
 * namespace (BUG-03).
 *
 * Why not exceljs: it matches tag names literally (`x:`-prefixed parts come
 * out undefined), finds worksheets by the file name `sheetN.xml`, and knows
 * no Japanese built-in date formats (BUG-03, BUG-04, BUG-07). Reading the
 * few parts that carry text is shorter than working around each of those.
 *
 * @module
 */
import { Effect } from "effect"
import type { BodyLine, PartState } from "@sagasu/domain"
import type { CellContext } from "./_cell_text.ts"
import { diagramTexts } from "./_diagram.ts"
import type { ExtractError } from "./extract_error.ts"
import type { LineBudget } from "./_limits.ts"
import type { OpcPackage, Relationship } from "./_opc.ts"
import { ChartTextReader, CommentsReader, SheetDrawingReader, ThreadedCommentsReader, type CellComment } from "./_sheet_extras.ts"
import { readSharedStrings, readSharedStringsSaxes, SharedStringTable, type SharedStringsReading } from "./_shared_strings.ts"
import { emitCells, emitLines, type ExtractionSink } from "./_sink.ts"
import { StylesReader } from "./_styles.ts"
import { cellAddress, type CellBatch, hidesCells, linesOfBatch, MergeFilter, parseReference, WorksheetReader } from "./_worksheet.ts"
import { type SheetScanOutcome, WorksheetScan } from "./_sheet_scan.ts"
import { attribute, corruptPart, ns, XmlStream, type XmlTag, type XmlVisitor } from "./_xml.ts"

/** A sheet as the workbook part lists it (xlsx and xlsb alike): its name, state and relationship id. */
export interface SheetEntry {
  readonly name: string
  readonly state: PartState
  readonly relationshipId: string
}

/** Reads workbook.xml: the sheets in order and the date system. */
class WorkbookReader implements XmlVisitor {
  readonly sheets: Array<SheetEntry> = []
  date1904 = false

  open(tag: XmlTag): void {
    if (!ns.spreadsheet.has(tag.uri)) return
    if (tag.local === "workbookPr") {
      const value = attribute(tag, "date1904")
      this.date1904 = value === "1" || value === "true"
    } else if (tag.local === "sheet") {
      const state = attribute(tag, "state")
      this.sheets.push({
        name: attribute(tag, "name") ?? `Sheet${this.sheets.length + 1}`,
        state: state === "hidden" || state === "veryHidden" ? state : "visible",
        relationshipId: attribute(tag, "id", ns.relationshipRef) ?? ""
      })
    }
  }

  close(): void {}
  text(): void {}
}

/** Cell order (row, then column) of two A1 references; unparsable ones last. */
const byCell = (a: CellComment, b: CellComment): number => {
  const x = parseReference(a.ref)
  const y = parseReference(b.ref)
  return (x.row ?? Infinity) - (y.row ?? Infinity) || (x.col ?? Infinity) - (y.col ?? Infinity)
}

/**
 * The lines of a sheet's drawing (`xl/drawings/drawingN.xml`, from a
 * worksheet or a chart sheet): text boxes and shapes, then the text of each
 * chart and SmartArt diagram, through the drawing's own relationships.
 */
export const drawingLines = Effect.fnUntraced(function* (
  pkg: OpcPackage,
  drawingPart: string,
  budget: LineBudget
) {
  const drawing = new SheetDrawingReader()
  yield* pkg.readXml(drawingPart, drawing)
  const rels = yield* pkg.relationships(drawingPart)
  const target = (id: string) => rels.find((r) => r.id === id && !r.external && pkg.has(r.target))?.target
  const lines: Array<BodyLine> = []
  const push = (loc: string, text: string) => {
    budget.take(drawingPart, text.length)
    lines.push({ loc, text })
  }
  const diagramItems = drawing.items.filter((item) => item._tag === "diagram")
  const diagrams = diagramItems.length === 0 ? undefined : yield* diagramTexts(pkg, rels, diagramItems.map((d) => d.id), budget)
  for (const item of drawing.items) {
    if (item._tag === "text") {
      push(item.loc, item.text)
    } else if (item._tag === "diagram") {
      for (const text of diagrams?.anchored[diagramItems.indexOf(item)] ?? []) lines.push({ loc: item.loc, text })
    } else {
      const part = target(item.id)
      if (part === undefined) continue
      const chart = new ChartTextReader()
      yield* pkg.readXml(part, chart)
      for (const text of chart.texts) push(item.loc, text)
    }
  }
  return lines
})

/**
 * Everything of a sheet beside its cells, in this order: comments at their
 * cells (`A1 comment`; threaded comments replace the placeholder notes Excel
 * writes beside them), hyperlinks whose display text or target the cell does
 * not already show (`A1 link`), drawing objects (`D5 shape`, `D5 chart`),
 * then headers and footers.
 */
const sheetExtras = Effect.fnUntraced(function* (
  pkg: OpcPackage,
  rels: ReadonlyArray<Relationship>,
  reader: WorksheetReader,
  shownAt: (ref: string) => string,
  budget: LineBudget
) {
  const lines: Array<BodyLine> = []
  const push = (loc: string, text: string) => {
    budget.take(loc, text.length)
    lines.push({ loc, text })
  }
  const internal = rels.filter((r) => !r.external && pkg.has(r.target))

  const threaded: Array<CellComment> = []
  for (const r of internal) {
    if (r.type !== "threadedComment") continue
    const part = new ThreadedCommentsReader()
    yield* pkg.readXml(r.target, part)
    for (const c of part.comments) threaded.push(c)
  }
  const threadedCells = new Set(threaded.map((c) => c.ref.toUpperCase()))
  const notes: Array<CellComment> = []
  for (const r of internal) {
    if (r.type !== "comments") continue
    const part = new CommentsReader()
    yield* pkg.readXml(r.target, part)
    for (const c of part.comments) if (!threadedCells.has(c.ref.toUpperCase())) notes.push(c)
  }
  for (const c of [...notes, ...threaded].sort(byCell)) push(`${c.ref} comment`, c.text)

  for (const link of reader.hyperlinks) {
    const shown = shownAt(link.ref.toUpperCase())
    const external = link.id === undefined ? undefined : rels.find((r) => r.id === link.id)
    const target = external?.external === true ? external.target : link.location
    for (const text of [link.display, target]) {
      if (text !== undefined && text.trim() !== "" && !shown.includes(text.trim())) push(`${link.ref} link`, text.trim())
    }
  }

  for (const r of internal) {
    if (r.type === "drawing") for (const line of yield* drawingLines(pkg, r.target, budget)) lines.push(line)
  }
  for (const [loc, text] of reader.headerFooter) push(loc, text)
  return lines
})

/** The text each cell shows, by upper-case address, from a sheet's cells; only a sheet with hyperlinks needs it. */
const shownIn = (batch: CellBatch, keep: ((i: number) => boolean) | undefined, reader: WorksheetReader): ((ref: string) => string) => {
  if (reader.hyperlinks.length === 0) return () => ""
  const texts = new Map(linesOfBatch(batch, keep).map((l) => [l.loc, l.text]))
  return (ref) => texts.get(ref) ?? ""
}

/** How the cells of a sheet are handed to a sink that does not keep them (W1). */
export interface SheetStreaming {
  /** Cells per batch once a sheet streams. */
  readonly batchLines: number
  /** A sheet is held whole, as it always was, until it holds more than this many cells with text … */
  readonly holdLines: number
  /** … or more than this many characters of them. */
  readonly holdChars: number
}

/**
 * The default {@link SheetStreaming}: a sheet of up to 8,192 cells (and 1 Mi
 * characters) is held whole; a bigger one streams, handed on after each
 * piece (64 KiB) of its XML once at least 1,024 cells wait. Small batches
 * die young in the garbage collector's nursery instead of piling up in the
 * old generation (issue 9: the worker's heap stays near its live set).
 */
export const defaultSheetStreaming: SheetStreaming = { batchLines: 1_024, holdLines: 8_192, holdChars: 1024 ** 2 }

/** One worksheet to read, as {@link worksheetLines} and {@link worksheetLinesWith} take it (and the xlsb reader's `worksheetLines`). */
export interface WorksheetLinesOptions<E> {
  /** The package the worksheet is in. */
  readonly pkg: OpcPackage
  /** The worksheet's part name in the package (`xl/worksheets/sheet1.xml`). */
  readonly sheetPart: string
  /** The worksheet part's relationships: its comments, drawings and hyperlink targets. */
  readonly rels: ReadonlyArray<Relationship>
  /** The workbook's shared strings, number formats and date system, for the text a cell shows. */
  readonly context: CellContext
  /** The extraction's line and character budget; the sheet's lines count against its current part. */
  readonly budget: LineBudget
  /** Where the lines go: the sink's current part, begun by the caller. */
  readonly sink: ExtractionSink<E>
  /** When a big sheet's cells go to the sink in batches instead of held whole (counts of cells and characters). */
  readonly streaming: SheetStreaming
}

/**
 * The lines of one worksheet (cells, then its extras) handed to the sink's
 * current part. A sheet is held whole until it passes
 * `streaming.holdLines`/`holdChars`; from then on its cells go to the sink in
 * batches while the part is read, so that memory stays bounded however big
 * the sheet is (W1, issue 9). The merged areas and hyperlinks of a sheet
 * come after its cells in the file, and cells out of row-major order must be
 * sorted whole: a sheet that streamed and turns out to have an area hiding
 * cells, a hyperlink or cells out of order is read a second time, its lines
 * given so far dropped (`restartPart`), now knowing its areas and links; out
 * of order, it is then held whole and sorted. The lines are exactly those
 * the sheet gives when held whole.
 */
const worksheetLines = <E>(options: WorksheetLinesOptions<E>, reading: SheetReading): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    const { pkg, context, budget, sink } = options
    if (reading.fast) {
      const read = yield* worksheetLinesWith(options, readFast(pkg, context, reading))
      if (read) return
      // The fast path gave the sheet back: what it handed on is dropped, and saxes reads the sheet from its start.
      yield* sink.restartPart
      budget.restartPart()
    }
    yield* worksheetLinesWith(options, readSaxes(pkg))
  })

/** Reads a worksheet part into a reader, cells and all; `false` when the fast path gave the sheet back. */
type ReadSheet = <E>(part: string, reader: WorksheetReader, afterChunk?: Effect.Effect<void, E>) => Effect.Effect<boolean, ExtractError | E>

const readSaxes = (pkg: OpcPackage): ReadSheet => <E>(part: string, reader: WorksheetReader, afterChunk?: Effect.Effect<void, E>) =>
  Effect.as(pkg.readXml(part, reader, afterChunk), true)

/** `sheetData` through the scanner (`_sheet_scan.ts`), the rest of the part through saxes. */
const readFast = (pkg: OpcPackage, context: CellContext, reading: SheetReading): ReadSheet => <E>(part: string, reader: WorksheetReader, afterChunk?: Effect.Effect<void, E>) =>
  Effect.suspend(() => {
    const scan = new WorksheetScan(new XmlStream(part, reader, pkg.maxDepth), reader.cells, context, pkg.maxDepth)
    return pkg.readText(part, (text) => scan.write(text), afterChunk).pipe(
      Effect.flatMap(() =>
        Effect.try({
          try: () => scan.finish(),
          catch: (e) => corruptPart(part, e)
        })
      ),
      Effect.map(() => {
        reading.observe?.(part, scan.outcome)
        return scan.outcome._tag !== "fallback"
      })
    )
  })

/**
 * {@link worksheetLines} with one way of reading the part; `false` when that
 * way gave the sheet back (the held cells are released, the sink's part is
 * the caller's to restart).
 */
const worksheetLinesWith = <E>(options: WorksheetLinesOptions<E>, readSheet: ReadSheet): Effect.Effect<boolean, ExtractError | E> =>
  Effect.gen(function* () {
    const { pkg, sheetPart, rels, context, budget, sink, streaming } = options
    const reader = new WorksheetReader(context, budget, sheetPart)
    const drop = (from: WorksheetReader) => budget.release(from.takeCells().chars)
    let streamed = false
    const handOn = (last: boolean) =>
      Effect.suspend(() => {
        if (!reader.ordered) {
          // Cells out of order are sorted whole: a sheet that already streamed is read again (below).
          if (streamed) {
            drop(reader)
            reader.stopCollecting()
          }
          return Effect.void
        }
        if (!streamed && (sink.keepsLines || (reader.heldCells <= streaming.holdLines && reader.heldChars <= streaming.holdChars))) return Effect.void
        if (streamed && !last && reader.heldCells < streaming.batchLines) return Effect.void
        streamed = true
        return emitCells(sink, budget, reader.takeCells())
      })
    if (!(yield* readSheet(sheetPart, reader, handOn(false)))) {
      drop(reader)
      return false
    }

    if (!streamed) {
      const { batch, keep } = reader.remaining()
      const extras = yield* sheetExtras(pkg, rels, reader, shownIn(batch, keep, reader), budget)
      yield* emitCells(sink, budget, batch, keep)
      yield* emitLines(sink, budget, extras)
      return true
    }
    if (reader.ordered && !reader.areas.some(hidesCells) && reader.hyperlinks.length === 0) {
      yield* handOn(true)
      yield* emitLines(sink, budget, yield* sheetExtras(pkg, rels, reader, () => "", budget))
      return true
    }

    // Read again, knowing what the first reading learnt only at its end.
    drop(reader)
    yield* sink.restartPart
    budget.restartPart()
    const again = new WorksheetReader(context, budget, sheetPart)
    if (!reader.ordered) {
      // Bounded like any sheet held whole: maxLines per part and maxTextChars.
      if (!(yield* readSheet<never>(sheetPart, again))) {
        drop(again)
        return false
      }
      const { batch, keep } = again.remaining()
      const extras = yield* sheetExtras(pkg, rels, again, shownIn(batch, keep, again), budget)
      yield* emitCells(sink, budget, batch, keep)
      yield* emitLines(sink, budget, extras)
      return true
    }
    const merged = new MergeFilter(reader.areas)
    const linked = new Set(reader.hyperlinks.map((h) => h.ref.toUpperCase()))
    const shown = new Map<string, string>()
    const handOnKnowing = (last: boolean) =>
      Effect.suspend(() => {
        if (!last && again.heldCells < streaming.batchLines) return Effect.void
        const batch = again.takeCells()
        const keep = (i: number): boolean => {
          const row = batch.rows[i] ?? 0
          const col = batch.cols[i] ?? 0
          if (!merged.keeps(row, col)) return false
          if (linked.size > 0) {
            const loc = cellAddress(row, col)
            if (linked.has(loc)) shown.set(loc, batch.texts[i] ?? "")
          }
          return true
        }
        return emitCells(sink, budget, batch, keep)
      })
    if (!(yield* readSheet(sheetPart, again, handOnKnowing(false)))) {
      drop(again)
      return false
    }
    yield* handOnKnowing(true)
    yield* emitLines(sink, budget, yield* sheetExtras(pkg, rels, again, (ref) => shown.get(ref) ?? "", budget))
    return true
  })

/** Which reader reads a sheet's cells (issue 20). */
export interface SheetReading {
  /** The fast path (`_sheet_scan.ts`, `_shared_strings.ts`) for `sheetData` and `sst`, saxes for the rest and for what the fast path gives back; `false`: saxes for all. */
  readonly fast: boolean
  /** Told, for each sheet part the fast path read, how it went (tests and profiles). */
  readonly observe?: (sheetPart: string, outcome: SheetScanOutcome) => void
  /** Told, for each shared-string table the fast path read, how it went. */
  readonly observeSharedStrings?: SharedStringsReading
}

/** The default {@link SheetReading}: the fast path. */
export const defaultSheetReading: SheetReading = { fast: true }

/**
 * Extracts a workbook whose main part is `workbookPart` into `sink`: one
 * part per sheet, in workbook order, each begun, filled and ended before the
 * next is read (W1), so that with a staging folder as the sink a worker holds
 * at most about one batch of a big sheet (see `worksheetLines`). Lines are
 * counted per sheet against the budget. A sheet whose part is missing gives
 * a part without lines, so that part numbers still match sheet positions; a
 * chart sheet gives the text of its chart.
 */
export const extractWorkbook = <E>(
  pkg: OpcPackage,
  workbookPart: string,
  budget: LineBudget,
  sink: ExtractionSink<E>,
  streaming: SheetStreaming = defaultSheetStreaming,
  reading: SheetReading = defaultSheetReading
): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    const book = new WorkbookReader()
    yield* pkg.readXml(workbookPart, book)
    const relationships = yield* pkg.relationships(workbookPart)
    const internal = relationships.filter((r) => !r.external && pkg.has(r.target))
    const byId = new Map(internal.map((r) => [r.id, r]))

    const styles = new StylesReader()
    const stylesPart = internal.find((r) => r.type === "styles")
    if (stylesPart !== undefined) yield* pkg.readXml(stylesPart.target, styles)
    const sharedStringsPart = internal.find((r) => r.type === "sharedStrings")
    const sharedStrings = yield* sharedStringsPart === undefined
      ? Effect.succeed(new SharedStringTable())
      : reading.fast
        ? readSharedStrings(pkg, sharedStringsPart.target, budget, reading.observeSharedStrings)
        : readSharedStringsSaxes(pkg, sharedStringsPart.target, budget)
    const context = { sharedStrings, formats: styles.formats(), date1904: book.date1904 }

    yield* sheetParts(pkg, book.sheets, byId, budget, sink, (sheetPart, rels) =>
      worksheetLines({ pkg, sheetPart, rels, context, budget, sink, streaming }, reading)
    )
  }).pipe(Effect.withSpan("Extract.workbook"))

/**
 * The sheets of a workbook (xlsx or xlsb) into `sink`, in `sheets`' order,
 * each begun, filled and ended before the next: the budget's part count
 * starts again for each; a sheet whose relationship `byId` lacks gives a
 * part without lines (part numbers still match sheet positions); a chart
 * sheet gives the text of its drawings; a worksheet is read by
 * `readWorksheet` (its part and relationships).
 */
export const sheetParts = <E>(
  pkg: OpcPackage,
  sheets: ReadonlyArray<SheetEntry>,
  byId: ReadonlyMap<string, Relationship>,
  budget: LineBudget,
  sink: ExtractionSink<E>,
  readWorksheet: (sheetPart: string, rels: ReadonlyArray<Relationship>) => Effect.Effect<void, ExtractError | E>
): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    for (const sheet of sheets) {
      const part = byId.get(sheet.relationshipId)
      budget.startPart()
      yield* sink.beginPart({ name: sheet.name, locator: "cell", state: sheet.state })
      if (part !== undefined) {
        const rels = yield* pkg.relationships(part.target)
        if (part.type === "chartsheet") {
          for (const r of rels) {
            if (r.type === "drawing" && !r.external && pkg.has(r.target)) yield* emitLines(sink, budget, yield* drawingLines(pkg, r.target, budget))
          }
        } else {
          yield* readWorksheet(part.target, rels)
        }
      }
      yield* sink.endPart
    }
  })
