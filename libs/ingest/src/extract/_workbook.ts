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
import type { BodyLine, BodyPart, Extraction, PartState } from "@sagasu/domain"
import { DrawingTextReader } from "./_drawing_text.ts"
import type { LineBudget } from "./_limits.ts"
import type { OpcPackage, Relationship } from "./_opc.ts"
import { ChartTextReader, CommentsReader, SheetDrawingReader, ThreadedCommentsReader, type CellComment } from "./_sheet_extras.ts"
import { SharedStringsReader } from "./_shared_strings.ts"
import { StylesReader } from "./_styles.ts"
import { parseReference, WorksheetReader } from "./_worksheet.ts"
import { attribute, ns, type XmlTag, type XmlVisitor } from "./_xml.ts"

interface SheetEntry {
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
const drawingLines = Effect.fn("Extract.sheetDrawing")(function* (
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
  for (const item of drawing.items) {
    if (item._tag === "text") {
      push(item.loc, item.text)
      continue
    }
    const part = target(item.id)
    if (part === undefined) continue
    if (item._tag === "chart") {
      const chart = new ChartTextReader()
      yield* pkg.readXml(part, chart)
      for (const text of chart.texts) push(item.loc, text)
    } else {
      const diagram = new DrawingTextReader(budget, part)
      yield* pkg.readXml(part, diagram)
      for (const text of diagram.paragraphs) lines.push({ loc: item.loc, text })
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
const sheetExtras = Effect.fn("Extract.sheetExtras")(function* (
  pkg: OpcPackage,
  rels: ReadonlyArray<Relationship>,
  reader: WorksheetReader,
  cells: ReadonlyArray<BodyLine>,
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

  // Only a sheet with hyperlinks needs its cells by address (a map of every cell costs as much as reading a small sheet).
  const cellTexts = reader.hyperlinks.length === 0 ? undefined : new Map(cells.map((l) => [l.loc, l.text]))
  for (const link of reader.hyperlinks) {
    const shown = cellTexts?.get(link.ref.toUpperCase()) ?? ""
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

/**
 * Extracts a workbook whose main part is `workbookPart`. A sheet whose part
 * is missing gives a part without lines, so that part numbers still match
 * sheet positions; a chart sheet gives the text of its chart.
 */
export const extractWorkbook = Effect.fn("Extract.workbook")(function* (
  pkg: OpcPackage,
  workbookPart: string,
  budget: LineBudget
) {
  const book = new WorkbookReader()
  yield* pkg.readXml(workbookPart, book)
  const relationships = yield* pkg.relationships(workbookPart)
  const internal = relationships.filter((r) => !r.external && pkg.has(r.target))
  const byId = new Map(internal.map((r) => [r.id, r]))

  const styles = new StylesReader()
  const stylesPart = internal.find((r) => r.type === "styles")
  if (stylesPart !== undefined) yield* pkg.readXml(stylesPart.target, styles)
  const sharedStrings = new SharedStringsReader(budget)
  const sharedStringsPart = internal.find((r) => r.type === "sharedStrings")
  if (sharedStringsPart !== undefined) yield* pkg.readXml(sharedStringsPart.target, sharedStrings)
  const context = { sharedStrings: sharedStrings.strings, formats: styles.formats(), date1904: book.date1904 }

  const parts: Array<BodyPart> = []
  for (const sheet of book.sheets) {
    const part = byId.get(sheet.relationshipId)
    let lines: Array<BodyLine> = []
    // Sheets reach hundreds of thousands of lines: concat, never push(...lines) (the call stack caps spread arguments).
    if (part !== undefined) {
      const rels = yield* pkg.relationships(part.target)
      if (part.type === "chartsheet") {
        for (const r of rels) {
          if (r.type === "drawing" && !r.external && pkg.has(r.target)) lines = lines.concat(yield* drawingLines(pkg, r.target, budget))
        }
      } else {
        const reader = new WorksheetReader(context, budget, part.target)
        yield* pkg.readXml(part.target, reader)
        lines = [...reader.lines()]
        lines = lines.concat(yield* sheetExtras(pkg, rels, reader, lines, budget))
      }
    }
    parts.push({ name: sheet.name, locator: "cell", state: sheet.state, lines })
  }
  return { parts } satisfies Extraction
})
