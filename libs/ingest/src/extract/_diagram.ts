/**
 * The text of SmartArt diagrams, for every format that anchors them (a
 * slide, a Word part, a sheet drawing): a graphic names its data part
 * (`dgm:relIds r:dm`, `…/diagrams/data1.xml`, the `dgm:dataModel` holding
 * the text the user typed); a file whose data part is missing still has the
 * drawing Office rendered from it (`dsp:drawing`, `…/diagrams/drawing1.xml`,
 * reached through the anchoring part's `diagramDrawing` relationship), and
 * that is read instead (issue 15 item 8).
 *
 * @module
 */
import { Effect } from "effect"
import { DrawingTextReader } from "./_drawing_text.ts"
import type { LineBudget } from "./_limits.ts"
import type { OpcPackage, Relationship } from "./_opc.ts"
import { attribute, type Namespace, type XmlTag, type XmlVisitor } from "./_xml.ts"

/** Office's own diagram extensions (`dsp:`): the drawing part and the data model's link to it. */
const diagramDrawingNs: Namespace = new Set(["http://schemas.microsoft.com/office/drawing/2008/diagram"])

/** A data part's paragraphs, and the relationship id (of the anchoring part) of the drawing Office made from it. */
class DiagramDataReader implements XmlVisitor {
  drawingId: string | undefined
  readonly drawing: DrawingTextReader

  constructor(budget: LineBudget, partName: string) {
    this.drawing = new DrawingTextReader(budget, partName)
  }

  open(tag: XmlTag): void {
    if (tag.local === "dataModelExt" && diagramDrawingNs.has(tag.uri)) this.drawingId = attribute(tag, "relId")
    else this.drawing.open(tag)
  }

  close(tag: XmlTag): void {
    this.drawing.close(tag)
  }

  text(text: string): void {
    this.drawing.text(text)
  }
}

/** The text of the diagrams of one part. */
export interface DiagramTexts {
  /** The paragraphs of each anchored diagram, in the order of the anchors given. */
  readonly anchored: ReadonlyArray<ReadonlyArray<string>>
  /** The paragraphs of the part's data parts that no anchor named (a graphic the reader did not see): nothing is lost. */
  readonly unanchored: ReadonlyArray<string>
}

/**
 * Reads the diagrams a part anchors. `dataIds` are the `r:dm` relationship
 * ids of its graphics in document order (`undefined` for a graphic without
 * one), `rels` the part's relationships. Each graphic gets the paragraphs of
 * its data part; a graphic whose data part is missing gets those of a
 * drawing part (`diagramDrawing`) that no present data part claims, in the
 * order of the relationships. Data parts the anchors did not name come last,
 * in `unanchored`.
 */
export const diagramTexts = Effect.fnUntraced(function* (
  pkg: OpcPackage,
  rels: ReadonlyArray<Relationship>,
  dataIds: ReadonlyArray<string | undefined>,
  budget: LineBudget
) {
  const internal = rels.filter((r) => !r.external && pkg.has(r.target))
  const byId = new Map(internal.map((r) => [r.id, r]))
  const claimed = new Set<string>()
  const read = new Set<string>()
  const fromData = new Map<string, ReadonlyArray<string>>()
  const readData = (r: Relationship) =>
    Effect.gen(function* () {
      const reader = new DiagramDataReader(budget, r.target)
      yield* pkg.readXml(r.target, reader)
      if (reader.drawingId !== undefined) claimed.add(reader.drawingId)
      read.add(r.target)
      fromData.set(r.id, reader.drawing.paragraphs)
    })
  for (const id of dataIds) {
    const r = id === undefined ? undefined : byId.get(id)
    if (r !== undefined && r.type === "diagramData" && !fromData.has(r.id)) yield* readData(r)
  }
  const unanchored: Array<string> = []
  for (const r of internal) {
    if (r.type !== "diagramData" || read.has(r.target)) continue
    yield* readData(r)
    for (const p of fromData.get(r.id) ?? []) unanchored.push(p)
  }
  const spare = internal.filter((r) => r.type === "diagramDrawing" && !claimed.has(r.id))
  const anchored: Array<ReadonlyArray<string>> = []
  for (const id of dataIds) {
    const data = id === undefined ? undefined : fromData.get(id)
    if (data !== undefined) {
      anchored.push(data)
      continue
    }
    const drawing = spare.shift()
    if (drawing === undefined) {
      anchored.push([])
      continue
    }
    const reader = new DrawingTextReader(budget, drawing.target)
    yield* pkg.readXml(drawing.target, reader)
    anchored.push(reader.paragraphs)
  }
  return { anchored, unanchored } satisfies DiagramTexts
})
