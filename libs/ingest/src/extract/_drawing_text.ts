/**
 * The paragraphs of a DrawingML-bearing part: a slide, a notes page, a
 * SmartArt data or drawing part. Text sits in `a:p` paragraphs of shapes, group shapes
 * and table cells alike, so one reader serves them all.
 *
 * @module
 */
import type { LineBudget } from "./_limits.ts"
import { attribute, isElement, ns, type XmlTag, type XmlVisitor } from "./_xml.ts"

/**
 * Collects the non-empty `a:p` paragraphs of a part into {@link paragraphs}:
 * `a:t` runs joined (fields such as the slide number included), `a:br` as a
 * space. Shapes that are placeholders of a type in `skipPlaceholders` are
 * left out (a notes page's slide image and slide number: BUG-17).
 */
export class DrawingTextReader implements XmlVisitor {
  readonly paragraphs: Array<string> = []
  /**
   * The SmartArt graphics of the part in document order: the relationship id
   * of each one's data part (`dgm:relIds r:dm`), and how many paragraphs came
   * before it, which is where its text goes (`_diagram.ts`).
   */
  readonly diagrams: Array<{ readonly at: number; readonly dataId: string | undefined }> = []
  /** The slide says `show="0"`: hidden in the slide show. */
  hidden = false
  /** The paragraphs of the part's title placeholders (`title`, `ctrTitle`), also in {@link paragraphs}: a slide's title (S4). */
  readonly titles: Array<string> = []
  private readonly shapes: Array<{ skip: boolean; title: boolean }> = []
  private paragraph: string | undefined
  private textDepth = 0

  private readonly budget: LineBudget
  private readonly partName: string
  private readonly skipPlaceholders: ReadonlySet<string>

  constructor(budget: LineBudget, partName: string, skipPlaceholders: ReadonlySet<string> = new Set()) {
    this.budget = budget
    this.partName = partName
    this.skipPlaceholders = skipPlaceholders
  }

  open(tag: XmlTag): void {
    if (ns.drawing.has(tag.uri)) {
      if (tag.local === "p") this.paragraph = ""
      else if (tag.local === "t") this.textDepth++
      else if (tag.local === "br" && this.paragraph !== undefined) this.paragraph += " "
    } else if (isElement(tag, ns.diagram, "relIds")) {
      this.diagrams.push({ at: this.paragraphs.length, dataId: attribute(tag, "dm", ns.relationshipRef) })
    } else if (isElement(tag, ns.presentation, "sld")) {
      const show = attribute(tag, "show")
      this.hidden = show === "0" || show === "false"
    } else if (isElement(tag, ns.presentation, "sp")) {
      this.shapes.push({ skip: false, title: false })
    } else if (isElement(tag, ns.presentation, "ph")) {
      const shape = this.shapes.at(-1)
      const type = attribute(tag, "type") ?? ""
      if (shape !== undefined && this.skipPlaceholders.has(type)) shape.skip = true
      if (shape !== undefined && (type === "title" || type === "ctrTitle")) shape.title = true
    }
  }

  close(tag: XmlTag): void {
    if (ns.drawing.has(tag.uri)) {
      if (tag.local === "t") {
        this.textDepth--
      } else if (tag.local === "p") {
        const text = this.paragraph ?? ""
        this.paragraph = undefined
        if (text.trim() !== "" && this.shapes.at(-1)?.skip !== true) {
          this.budget.take(this.partName, text.length)
          this.paragraphs.push(text)
          if (this.shapes.at(-1)?.title === true) this.titles.push(text)
        }
      }
    } else if (isElement(tag, ns.presentation, "sp")) {
      this.shapes.pop()
    }
  }

  text(text: string): void {
    if (this.textDepth > 0 && this.paragraph !== undefined) this.paragraph += text
  }
}
