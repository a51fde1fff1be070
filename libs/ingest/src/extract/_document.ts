/**
 * Text of a Word document (docx, docm, dotx, dotm): one body part `document`
 * with the main document's paragraphs by number (SmartArt text at its
 * graphic's paragraph), then the paragraphs of its headers, footers,
 * footnotes, endnotes and comments.
 *
 * @module
 */
import { Effect } from "effect"
import type { BodyLine, Extraction } from "@sagasu/domain"
import type { LineBudget } from "./_limits.ts"
import { diagramTexts } from "./_diagram.ts"
import type { OpcPackage, Relationship } from "./_opc.ts"
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
 * The paragraphs of a part read by `reader`, in document order, with the text
 * of each SmartArt diagram right after the paragraph holding it, under that
 * paragraph's number (issue 15 item 8: where the graphic stands, and the
 * numbers of the paragraphs after it unchanged). Diagram data the part links
 * but no graphic named comes last.
 */
const withDiagrams = (pkg: OpcPackage, reader: WordTextReader, rels: ReadonlyArray<Relationship>, budget: LineBudget) =>
  Effect.gen(function* () {
    const paragraphs = reader.ordered()
    if (reader.diagrams.length === 0 && !rels.some((r) => r.type === "diagramData")) return paragraphs
    const diagrams = yield* diagramTexts(pkg, rels, reader.diagrams.map((d) => d.dataId), budget)
    const out: Array<WordParagraph> = []
    let next = 0
    reader.diagrams.forEach((d, i) => {
      for (; next < paragraphs.length && (paragraphs[next]?.number ?? 0) <= d.number; next++) out.push(paragraphs[next] as WordParagraph)
      for (const text of diagrams.anchored[i] ?? []) out.push({ number: d.number, note: d.note, text })
    })
    for (; next < paragraphs.length; next++) out.push(paragraphs[next] as WordParagraph)
    const last = out.at(-1)
    for (const text of diagrams.unanchored) out.push({ number: last?.number ?? 1, note: last?.note, text })
    return out
  })

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
  const relationships = yield* pkg.relationships(documentPart)
  const lines: Array<BodyLine> = []
  for (const p of yield* withDiagrams(pkg, body, relationships, budget)) lines.push({ loc: String(p.number), text: p.text })

  const seen = new Set<string>()
  for (const [type, loc] of companions) {
    for (const r of relationships) {
      if (r.type !== type || r.external || seen.has(r.target) || !pkg.has(r.target)) continue
      seen.add(r.target)
      const reader = new WordTextReader(budget, r.target)
      yield* pkg.readXml(r.target, reader)
      for (const p of yield* withDiagrams(pkg, reader, yield* pkg.relationships(r.target), budget)) lines.push({ loc: loc(p), text: p.text })
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
