/**
 * Text of a presentation (pptx, pptm, ppsx, potx): one body part `slides`,
 * slides in presentation order (`p:sldIdLst`, not file names), each slide's
 * SmartArt text where its diagram stands, then its charts' text and speaker
 * notes. Hidden
 * slides (`show="0"`) are marked the way hidden sheets are: their lines go
 * to a second part `hidden slides` with state `hidden`, keeping their slide
 * numbers, so the `slide` locator grammar (`3`, `3 notes`) stays the same.
 *
 * @module
 */
import { Effect } from "effect"
import type { BodyLine, BodyPart } from "@sagasu/domain"
import { diagramTexts } from "./_diagram.ts"
import { DrawingTextReader } from "./_drawing_text.ts"
import { ChartTextReader } from "./_sheet_extras.ts"
import type { LineBudget } from "./_limits.ts"
import type { OpcPackage } from "./_opc.ts"
import { attribute, isElement, ns, type XmlTag, type XmlVisitor } from "./_xml.ts"

/** Reads presentation.xml: the relationship ids of the slides, in presentation order. */
class SlideListReader implements XmlVisitor {
  readonly slideIds: Array<string> = []

  open(tag: XmlTag): void {
    if (isElement(tag, ns.presentation, "sldId")) this.slideIds.push(attribute(tag, "id", ns.relationshipRef) ?? "")
  }

  close(): void {}
  text(): void {}
}

/** A notes page repeats the slide as a picture and its number; neither is what the speaker wrote. */
const notesPlaceholdersSkipped: ReadonlySet<string> = new Set(["sldImg", "sldNum"])

/**
 * Extracts a presentation whose main part is `presentationPart`. Lines are
 * `{loc: "<slide number>", text}` per paragraph and `{loc: "<n> notes", text}`
 * for the notes found through the slide's own `notesSlide` relationship
 * (BUG-17: never by file number). `titles` are the slides' titles as
 * property lines `{loc: "slide <n>", text}` (S4: the properties part).
 */
export const extractPresentation = Effect.fn("Extract.presentation")(function* (
  pkg: OpcPackage,
  presentationPart: string,
  budget: LineBudget
) {
  const list = new SlideListReader()
  yield* pkg.readXml(presentationPart, list)
  const relationships = yield* pkg.relationships(presentationPart)
  const slideParts = new Map(relationships.filter((r) => r.type === "slide" && !r.external).map((r) => [r.id, r.target]))

  const shown: Array<BodyLine> = []
  const hidden: Array<BodyLine> = []
  // Each slide's title (its title placeholders' text), for the properties part (S4).
  const titles: Array<BodyLine> = []
  /** A part's paragraphs with its SmartArt text where each diagram stands (issue 15 item 8). */
  const read = Effect.fnUntraced(function* (lines: Array<BodyLine>, part: string, loc: string, skip?: ReadonlySet<string>) {
    const reader = new DrawingTextReader(budget, part, skip)
    yield* pkg.readXml(part, reader)
    const rels = yield* pkg.relationships(part)
    const diagrams = yield* diagramTexts(pkg, rels, reader.diagrams.map((d) => d.dataId), budget)
    let next = 0
    const flush = (upTo: number) => {
      for (; next < upTo; next++) lines.push({ loc, text: reader.paragraphs[next] ?? "" })
    }
    reader.diagrams.forEach((d, i) => {
      flush(d.at)
      for (const text of diagrams.anchored[i] ?? []) lines.push({ loc, text })
    })
    flush(reader.paragraphs.length)
    for (const text of diagrams.unanchored) lines.push({ loc, text })
    return { hidden: reader.hidden, rels, titles: reader.titles }
  })
  for (const [index, id] of list.slideIds.entries()) {
    const slide = slideParts.get(id)
    if (slide === undefined || !pkg.has(slide)) continue
    const n = String(index + 1)
    const lines: Array<BodyLine> = []
    const { hidden: isHidden, rels, titles: slideTitles } = yield* read(lines, slide, n)
    if (slideTitles.length > 0) titles.push({ loc: `slide ${n}`, text: slideTitles.join(" ") })
    const own = rels.filter((r) => !r.external && pkg.has(r.target))
    for (const r of own) {
      if (r.type !== "chart") continue
      const chart = new ChartTextReader()
      yield* pkg.readXml(r.target, chart)
      for (const text of chart.texts) {
        budget.take(r.target, text.length)
        lines.push({ loc: n, text })
      }
    }
    for (const r of own) if (r.type === "notesSlide") yield* read(lines, r.target, `${n} notes`, notesPlaceholdersSkipped)
    for (const line of lines) (isHidden ? hidden : shown).push(line)
  }
  const parts: Array<BodyPart> = [{ name: "slides", locator: "slide", state: "visible", lines: shown }]
  if (hidden.length > 0) parts.push({ name: "hidden slides", locator: "slide", state: "hidden", lines: hidden })
  return { parts, titles }
})
