/**
 * Text of a Word document (docx, docm, dotx, dotm): one body part `document`
 * with the main document's paragraphs by number, then the paragraphs of its
 * headers, footers, footnotes, endnotes and comments.
 *
 * @module
 */
import { Effect } from "effect"
import type { BodyLine, Extraction } from "@sagasu/domain"
import type { LineBudget } from "./_limits.ts"
import type { OpcPackage } from "./_opc.ts"
import { ChartTextReader } from "./_sheet_extras.ts"
import { WordTextReader, type WordParagraph } from "./_word_text.ts"

/** The parts beside the body, in the order their lines follow the body, with the locator of their lines. */
const companions: ReadonlyArray<readonly [type: string, loc: (p: WordParagraph) => string]> = [
  ["header", () => "header"],
  ["footer", () => "footer"],
  ["footnotes", (p) => `footnote:${p.note ?? ""}`],
  ["endnotes", (p) => `endnote:${p.note ?? ""}`],
  ["comments", (p) => `comment:${p.note ?? ""}`]
]

/**
 * Extracts a document whose main part is `documentPart`. Body lines are
 * `{loc: "<paragraph number>", text}`; companion parts are found through the
 * main part's relationships, each read once.
 */
export const extractDocument = Effect.fn("Extract.document")(function* (
  pkg: OpcPackage,
  documentPart: string,
  budget: LineBudget
) {
  const body = new WordTextReader(budget, documentPart)
  yield* pkg.readXml(documentPart, body)
  const lines: Array<BodyLine> = body.ordered().map((p) => ({ loc: String(p.number), text: p.text }))

  const relationships = yield* pkg.relationships(documentPart)
  const seen = new Set<string>()
  for (const [type, loc] of companions) {
    for (const r of relationships) {
      if (r.type !== type || r.external || seen.has(r.target) || !pkg.has(r.target)) continue
      seen.add(r.target)
      const reader = new WordTextReader(budget, r.target)
      yield* pkg.readXml(r.target, reader)
      for (const p of reader.ordered()) lines.push({ loc: loc(p), text: p.text })
    }
  }
  // Charts embedded in the body: their titles, series names and categories.
  for (const r of relationships) {
    if (r.type !== "chart" || r.external || !pkg.has(r.target)) continue
    const chart = new ChartTextReader()
    yield* pkg.readXml(r.target, chart)
    for (const text of chart.texts) {
      budget.take(r.target, text.length)
      lines.push({ loc: "chart", text })
    }
  }
  return { parts: [{ name: "document", locator: "paragraph", state: "visible", lines }] } satisfies Extraction
})
