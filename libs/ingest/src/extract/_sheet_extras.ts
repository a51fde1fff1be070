/**
 * The text a sheet carries outside its cells: notes (legacy comments) and
 * threaded comments, text boxes and shapes, charts and SmartArt on the
 * sheet's drawing. Each is found through the sheet's relationships and read
 * by namespace; each line is located at its cell (`A1 comment`) or at the
 * cell its drawing object is anchored to (`D5 shape`, `D5 chart`).
 *
 * @module
 */
import { RichStringReader } from "./_rich_string.ts"
import { columnName } from "./_worksheet.ts"
import { attribute, isElement, ns, type XmlTag, type XmlVisitor } from "./_xml.ts"

/** One note or threaded comment: the cell it is attached to and its text. */
export interface CellComment {
  readonly ref: string
  readonly text: string
}

/**
 * Reads a legacy comments part (`xl/comments1.xml`): each `<comment ref>`
 * with its rich text (author line included, as Excel shows it; phonetic runs
 * excluded).
 */
export class CommentsReader implements XmlVisitor {
  readonly comments: Array<CellComment> = []
  private ref: string | undefined
  private inText = false
  private readonly item = new RichStringReader()

  open(tag: XmlTag): void {
    if (isElement(tag, ns.spreadsheet, "comment")) this.ref = attribute(tag, "ref")
    else if (this.ref !== undefined && isElement(tag, ns.spreadsheet, "text")) this.inText = true
    else if (this.inText) this.item.open(tag)
  }

  close(tag: XmlTag): void {
    if (isElement(tag, ns.spreadsheet, "text")) {
      this.inText = false
    } else if (isElement(tag, ns.spreadsheet, "comment")) {
      const text = this.item.take().trim()
      if (this.ref !== undefined && text !== "") this.comments.push({ ref: this.ref, text })
      this.ref = undefined
    } else if (this.inText) {
      this.item.close(tag)
    }
  }

  text(text: string): void {
    if (this.inText) this.item.text(text)
  }
}

/**
 * Reads a threaded comments part (Excel 365): every comment and reply of a
 * thread, in file order. Excel also writes a legacy note for each thread
 * whose text is a "[Threaded comment] Your version of Excel…" placeholder;
 * the caller drops the notes of cells that have threads.
 */
export class ThreadedCommentsReader implements XmlVisitor {
  readonly comments: Array<CellComment> = []
  private ref: string | undefined
  private inText = false
  private buffer = ""

  open(tag: XmlTag): void {
    if (isElement(tag, ns.threadedComments, "threadedComment")) {
      this.ref = attribute(tag, "ref")
      this.buffer = ""
    } else if (this.ref !== undefined && isElement(tag, ns.threadedComments, "text")) {
      this.inText = true
    }
  }

  close(tag: XmlTag): void {
    if (isElement(tag, ns.threadedComments, "text")) {
      this.inText = false
    } else if (isElement(tag, ns.threadedComments, "threadedComment")) {
      const text = this.buffer.trim()
      if (this.ref !== undefined && text !== "") this.comments.push({ ref: this.ref, text })
      this.ref = undefined
    }
  }

  text(text: string): void {
    if (this.inText) this.buffer += text
  }
}

/** An object of a sheet's drawing: text of its own, or a chart / SmartArt part to read through the drawing's relationships. */
export type DrawingItem =
  | { readonly _tag: "text"; readonly loc: string; readonly text: string }
  | { readonly _tag: "chart"; readonly loc: string; readonly id: string }
  | { readonly _tag: "diagram"; readonly loc: string; readonly id: string }

/**
 * Reads a sheet's drawing part (`xl/drawings/drawing1.xml`): the paragraphs
 * of text boxes and shapes (grouped ones too), and the charts and SmartArt
 * diagrams it references, each located at the top-left cell of its anchor.
 */
export class SheetDrawingReader implements XmlVisitor {
  readonly items: Array<DrawingItem> = []
  private loc = "drawing"
  private anchorDepth = 0
  private fromField: "col" | "row" | undefined
  private inFrom = false
  private from = { col: "", row: "" }
  private paragraph: string | undefined
  private textDepth = 0

  open(tag: XmlTag): void {
    if (ns.sheetDrawing.has(tag.uri)) {
      if (tag.local === "twoCellAnchor" || tag.local === "oneCellAnchor" || tag.local === "absoluteAnchor") {
        if (this.anchorDepth++ === 0) {
          this.loc = "drawing"
          this.from = { col: "", row: "" }
        }
      } else if (tag.local === "from") {
        this.inFrom = true
      } else if (this.inFrom && (tag.local === "col" || tag.local === "row")) {
        this.fromField = tag.local
      }
    } else if (ns.drawing.has(tag.uri)) {
      if (tag.local === "p") this.paragraph = ""
      else if (tag.local === "t") this.textDepth++
      else if (tag.local === "br" && this.paragraph !== undefined) this.paragraph += " "
    } else if ((isElement(tag, ns.chart, "chart") || isElement(tag, ns.chartEx, "chart"))) {
      const id = attribute(tag, "id", ns.relationshipRef)
      if (id !== undefined) this.items.push({ _tag: "chart", loc: this.at("chart"), id })
    } else if (isElement(tag, ns.diagram, "relIds")) {
      const id = attribute(tag, "dm", ns.relationshipRef)
      if (id !== undefined) this.items.push({ _tag: "diagram", loc: this.at("shape"), id })
    }
  }

  close(tag: XmlTag): void {
    if (ns.sheetDrawing.has(tag.uri)) {
      if (tag.local === "twoCellAnchor" || tag.local === "oneCellAnchor" || tag.local === "absoluteAnchor") this.anchorDepth--
      else if (tag.local === "from") this.inFrom = false
      else if (tag.local === "col" || tag.local === "row") this.fromField = undefined
    } else if (ns.drawing.has(tag.uri)) {
      if (tag.local === "t") {
        this.textDepth--
      } else if (tag.local === "p") {
        const text = (this.paragraph ?? "").trim()
        this.paragraph = undefined
        if (text !== "") this.items.push({ _tag: "text", loc: this.at("shape"), text })
      }
    }
  }

  text(text: string): void {
    if (this.fromField !== undefined) this.from[this.fromField] += text
    else if (this.textDepth > 0 && this.paragraph !== undefined) this.paragraph += text
  }

  /** `D5 shape`: the anchor's top-left cell (`from` is 0-based), or the kind alone for an absolute anchor. */
  private at(kind: string): string {
    const col = Number(this.from.col)
    const row = Number(this.from.row)
    if (this.from.col === "" || this.from.row === "" || !Number.isInteger(col) || !Number.isInteger(row)) return kind
    return `${columnName(col + 1)}${row + 1} ${kind}`
  }
}

/**
 * Reads a chart part (`c:chartSpace` or Office 2016 `cx:chartSpace`): the
 * title and axis titles (rich text paragraphs) and the cached texts of series
 * names and categories, each once, in file order. Numbers are not read: they
 * are the cells' values, already indexed where the data lives.
 */
export class ChartTextReader implements XmlVisitor {
  readonly texts: Array<string> = []
  private readonly seen = new Set<string>()
  private paragraph: string | undefined
  private textDepth = 0
  private strCacheDepth = 0
  private value: string | undefined

  open(tag: XmlTag): void {
    if (ns.drawing.has(tag.uri)) {
      if (tag.local === "p") this.paragraph = ""
      else if (tag.local === "t") this.textDepth++
    } else if (ns.chart.has(tag.uri) || ns.chartEx.has(tag.uri)) {
      if (tag.local === "strCache" || tag.local === "strDim" || tag.local === "lvl") this.strCacheDepth++
      else if ((tag.local === "v" || tag.local === "pt") && this.strCacheDepth > 0) this.value = ""
    }
  }

  close(tag: XmlTag): void {
    if (ns.drawing.has(tag.uri)) {
      if (tag.local === "t") {
        this.textDepth--
      } else if (tag.local === "p") {
        this.add(this.paragraph ?? "")
        this.paragraph = undefined
      }
    } else if (ns.chart.has(tag.uri) || ns.chartEx.has(tag.uri)) {
      if (tag.local === "strCache" || tag.local === "strDim" || tag.local === "lvl") {
        this.strCacheDepth--
      } else if (tag.local === "v" && this.value !== undefined) {
        this.add(this.value)
        this.value = undefined
      } else if (tag.local === "pt") {
        // cx:pt holds its text directly; c:pt holds a c:v (already added).
        if (this.value !== undefined) this.add(this.value)
        this.value = undefined
      }
    }
  }

  text(text: string): void {
    if (this.textDepth > 0 && this.paragraph !== undefined) this.paragraph += text
    else if (this.value !== undefined) this.value += text
  }

  private add(raw: string): void {
    const text = raw.trim()
    if (text === "" || this.seen.has(text)) return
    this.seen.add(text)
    this.texts.push(text)
  }
}
