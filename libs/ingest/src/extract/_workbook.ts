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
import type { BodyPart, Extraction, PartState } from "@sagasu/domain"
import type { LineBudget } from "./_limits.ts"
import type { OpcPackage } from "./_opc.ts"
import { SharedStringsReader } from "./_shared_strings.ts"
import { StylesReader } from "./_styles.ts"
import { WorksheetReader } from "./_worksheet.ts"
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

/**
 * Extracts a workbook whose main part is `workbookPart`. A sheet whose part
 * is missing, and a chart sheet, give a part without lines, so that part
 * numbers still match sheet positions.
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
  const sharedStrings = new SharedStringsReader()
  const sharedStringsPart = internal.find((r) => r.type === "sharedStrings")
  if (sharedStringsPart !== undefined) yield* pkg.readXml(sharedStringsPart.target, sharedStrings)
  const context = { sharedStrings: sharedStrings.strings, dateKinds: styles.dateKinds(), date1904: book.date1904 }

  const parts: Array<BodyPart> = []
  for (const sheet of book.sheets) {
    const part = byId.get(sheet.relationshipId)
    let lines: BodyPart["lines"] = []
    if (part !== undefined && part.type !== "chartsheet") {
      const reader = new WorksheetReader(context, budget, part.target)
      yield* pkg.readXml(part.target, reader)
      lines = reader.lines()
    }
    parts.push({ name: sheet.name, locator: "cell", state: sheet.state, lines })
  }
  return { parts } satisfies Extraction
})
