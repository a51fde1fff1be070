/**
 * Text of a Word document (docx, docm, dotx, dotm): one body part `document`
 * with the main document's paragraphs by number (SmartArt text at its
 * graphic's paragraph, the text of an altChunk where it stands), then the
 * paragraphs of its headers, footers, footnotes, endnotes and comments.
 *
 * @module
 */
import { Effect } from "effect"
import type { BodyLine, Extraction } from "@sagasu/domain"
import { chunkParagraphs } from "./_alt_chunk.ts"
import { diagramTexts } from "./_diagram.ts"
import { defaultLimits, type LineBudget } from "./_limits.ts"
import { findMainPart } from "./_main_part.ts"
import { OpcPackage, type Relationship } from "./_opc.ts"
import { bytesSource, ZipArchive } from "./_zip.ts"
import { ExtractError } from "./extract_error.ts"
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

/** How deep altChunks may nest packages (a merged document whose chunks are merged documents). */
const maxChunkDepth = 3

/**
 * The paragraphs of a part read by `reader`, in document order: the text of
 * each SmartArt diagram right after the paragraph holding it, under that
 * paragraph's number (issue 15 item 8: where the graphic stands, and the
 * numbers of the paragraphs after it unchanged); the text of each altChunk
 * under the number of the block it takes (issue 15 item 10). Diagram data the
 * part links but no graphic named comes last. `rels` is read only when the
 * part has a diagram or a chunk, or `sweep` asks for the unnamed diagrams.
 */
const withEmbedded = (
  pkg: OpcPackage,
  reader: WordTextReader,
  rels: Effect.Effect<ReadonlyArray<Relationship>, ExtractError>,
  budget: LineBudget,
  depth: number,
  sweep: boolean
) =>
  Effect.gen(function* () {
    const paragraphs = reader.ordered()
    if (reader.diagrams.length === 0 && reader.altChunks.length === 0 && !sweep) return paragraphs
    const relationships = yield* rels
    if (reader.diagrams.length === 0 && reader.altChunks.length === 0 && !relationships.some((r) => r.type === "diagramData")) return paragraphs
    const diagrams = yield* diagramTexts(pkg, relationships, reader.diagrams.map((d) => d.dataId), budget)
    // Each inserted block: the number it follows (a diagram stands inside its paragraph, a chunk is its own block) and its lines.
    const blocks: Array<{ number: number; after: boolean; lines: Array<WordParagraph> }> = []
    reader.diagrams.forEach((d, i) =>
      blocks.push({ number: d.number, after: true, lines: (diagrams.anchored[i] ?? []).map((text) => ({ number: d.number, note: d.note, text })) })
    )
    for (const chunk of reader.altChunks) {
      const r = relationships.find((x) => x.id === chunk.id && !x.external && pkg.has(x.target))
      const texts = r === undefined ? [] : yield* altChunkText(pkg, r.target, budget, depth)
      blocks.push({ number: chunk.number, after: false, lines: texts.map((text) => ({ number: chunk.number, note: chunk.note, text })) })
    }
    blocks.sort((a, b) => a.number - b.number)
    const out: Array<WordParagraph> = []
    let next = 0
    for (const block of blocks) {
      for (; next < paragraphs.length && ((paragraphs[next]?.number ?? 0) < block.number || (block.after && paragraphs[next]?.number === block.number)); next++) {
        out.push(paragraphs[next] as WordParagraph)
      }
      for (const line of block.lines) out.push(line)
    }
    for (; next < paragraphs.length; next++) out.push(paragraphs[next] as WordParagraph)
    const last = out.at(-1)
    for (const text of diagrams.unanchored) out.push({ number: last?.number ?? 1, note: last?.note, text })
    return out
  })

/**
 * The paragraphs of the altChunk part `part`: a WordprocessingML package is
 * read as a document (its body, companions and chunks, up to
 * {@link maxChunkDepth} packages deep), anything else by `_alt_chunk.ts`.
 */
const altChunkText = (pkg: OpcPackage, part: string, budget: LineBudget, depth: number): Effect.Effect<ReadonlyArray<string>, ExtractError> =>
  Effect.flatMap(pkg.bytes(part, maxChunkBytes), (bytes) =>
    chunkParagraphs(bytes, part, budget, (inner) =>
      depth >= maxChunkDepth
        ? Effect.succeed([])
        : Effect.gen(function* () {
            const zip = yield* Effect.try({
              try: () => new ZipArchive(bytesSource(inner), { maxInflatedBytes: defaultLimits.maxInflatedBytes, maxRatio: defaultLimits.maxRatio }),
              catch: (e) => (e instanceof ExtractError ? e : new ExtractError({ reason: "corrupt", detail: `${part}: ${String(e)}` }))
            })
            const nested = new OpcPackage(zip)
            const main = yield* findMainPart(nested, "chunk.docx")
            if (main.kind !== "document" || main.encoding !== "xml") return []
            const { parts } = yield* documentOf(nested, main.part, budget, depth + 1)
            return parts.flatMap((p) => p.lines.map((l) => l.text))
          })
    )
  )

/** The most bytes of one altChunk part read whole (the zip's own limits still bound what is inflated). */
const maxChunkBytes = 256 * 1024 ** 2

/**
 * Extracts a document whose main part is `documentPart`. Body lines are
 * `{loc: "<paragraph number>", text}`; companion parts are found through the
 * main part's relationships, each read once.
 */
export const extractDocument = (pkg: OpcPackage, documentPart: string, budget: LineBudget) => documentOf(pkg, documentPart, budget, 0)

const documentOf = Effect.fn("Extract.document")(function* (pkg: OpcPackage, documentPart: string, budget: LineBudget, depth: number) {
  const body = new WordTextReader(budget, documentPart)
  yield* pkg.readXml(documentPart, body)
  const relationships = yield* pkg.relationships(documentPart)
  const lines: Array<BodyLine> = []
  for (const p of yield* withEmbedded(pkg, body, Effect.succeed(relationships), budget, depth, true)) lines.push({ loc: String(p.number), text: p.text })

  const seen = new Set<string>()
  for (const [type, loc] of companions) {
    for (const r of relationships) {
      if (r.type !== type || r.external || seen.has(r.target) || !pkg.has(r.target)) continue
      seen.add(r.target)
      const reader = new WordTextReader(budget, r.target)
      yield* pkg.readXml(r.target, reader)
      for (const p of yield* withEmbedded(pkg, reader, pkg.relationships(r.target), budget, depth, false)) lines.push({ loc: loc(p), text: p.text })
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
