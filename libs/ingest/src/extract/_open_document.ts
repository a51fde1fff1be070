/**
 * An OpenDocument package (ods, odt, odp: ODF 1.0–1.3, OASIS) read without
 * Office (W2, W3; issue 20), into the same parts and lines an OOXML file of
 * its kind gives:
 *
 * - a spreadsheet: one part per `table:table`, its cells by A1 address with
 *   the text the cell shows (`text:p`, which the writer stores beside the
 *   value: LibreOffice's own display, so no number format is applied here) and
 *   the search-only forms of a number or a date (S4); repeated rows and
 *   columns (`table:number-*-repeated`) give a line per cell they stand for;
 *   covered cells of a merged area none; a note (`office:annotation`) is
 *   `A1 comment`, a shape's text `A1 shape` (`shape` for one on the page);
 *   a table hidden by its style is `hidden`;
 * - a text document: one part `document`, paragraphs (`text:p`, `text:h`, in
 *   tables, lists, sections, frames) numbered in order of their start as
 *   Word's are, then the master pages' headers and footers, footnotes
 *   (`footnote:1`), endnotes and comments (`comment:0`);
 * - a presentation: one part `slides` (and `hidden slides` for pages the
 *   slide show skips), each page's paragraphs at its number and its notes at
 *   `3 notes`; the title frames' text are the slides' titles (S4).
 *
 * Left out as in OOXML: deleted tracked changes (`text:tracked-changes`,
 * BUG-15), ruby readings (`text:ruby-text`, BUG-09), a note's citation mark,
 * a comment's author and date, descriptions of pictures. `meta.xml` gives the
 * properties part. A package whose manifest carries `encryption-data` is
 * `encrypted`; a kind of OpenDocument other than these three (a drawing, a
 * formula, a chart) is `needs-office`, rerouted to the owner (R14).
 *
 * @module
 */
import type { AppKind, BodyLine, BodyPart, PartState } from "@sagasu/domain"
import { Effect } from "effect"
import { openDocumentForms, openDocumentValueText } from "./_cell_text.ts"
import type { LineBudget } from "./_limits.ts"
import type { OpcPackage } from "./_opc.ts"
import { emitProperties } from "./_properties.ts"
import { emitLines, emitParts, type ExtractionSink } from "./_sink.ts"
import { ExtraLines, maxColumn, maxRow, refOf } from "./_worksheet.ts"
import { attribute, isElement, type Namespace, type XmlTag, type XmlVisitor } from "./_xml.ts"
import { ExtractError } from "./extract_error.ts"

const uri = (...uris: ReadonlyArray<string>): Namespace => new Set(uris)

/** The OpenDocument vocabularies read here. */
const odf = {
  office: uri("urn:oasis:names:tc:opendocument:xmlns:office:1.0"),
  table: uri("urn:oasis:names:tc:opendocument:xmlns:table:1.0"),
  text: uri("urn:oasis:names:tc:opendocument:xmlns:text:1.0"),
  draw: uri("urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"),
  style: uri("urn:oasis:names:tc:opendocument:xmlns:style:1.0"),
  presentation: uri("urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"),
  svg: uri("urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"),
  manifest: uri("urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"),
  meta: uri("urn:oasis:names:tc:opendocument:xmlns:meta:1.0"),
  dc: uri("http://purl.org/dc/elements/1.1/"),
  xlink: uri("http://www.w3.org/1999/xlink")
} as const

/** The kind of document an OpenDocument `mimetype` names, or `undefined` for one read only by Office (a drawing, a formula, …). */
export function openDocumentKindOf(mimetype: string): AppKind | undefined {
  const m = /^application\/vnd\.oasis\.opendocument\.([a-z-]+)\s*$/.exec(mimetype)
  switch (m?.[1]) {
    case "spreadsheet":
    case "spreadsheet-template":
      return "spreadsheet"
    case "text":
    case "text-template":
    case "text-master":
    case "text-web":
      return "document"
    case "presentation":
    case "presentation-template":
      return "presentation"
    default:
      return undefined
  }
}

/** Elements whose content is not what the reader sees (see the module doc). */
const skippedText = new Set(["tracked-changes", "ruby-text", "note-citation", "sequence-decls", "variable-decls", "user-field-decls", "dde-connection-decls", "alphabetical-index-source", "table-of-content-source", "illustration-index-source", "table-index-source", "object-index-source", "user-index-source", "bibliography-source"])
const skippedOffice = new Set(["forms", "scripts", "event-listeners", "font-face-decls", "settings"])

/** Characters of a paragraph that are no text: control characters but tab and line feed, and the soft hyphen. */
const notText = /[\u0000-\u0008\u000b-\u001f\u007f\u00ad]/
const notTextAll = new RegExp(notText.source, "g")

/** The most spaces one `text:s` stands for (a hostile count must not build a huge string). */
const maxSpaces = 1024
/**
 * The most spaces the `text:s` elements of one paragraph stand for in all;
 * past it each stands for one. A 22-byte element standing for 1,024 spaces
 * made a 137 KB file 123 M characters (found by the hostile-file trial).
 */
const maxParagraphSpaces = 65_536

/**
 * The paragraphs of an OpenDocument part: `text:p` and `text:h` with their
 * spans, links, fields and `text:s` spaces; a paragraph inside another (a
 * frame's text box) is its own and is handed on when it ends. Subclasses
 * route each paragraph (`paragraph`) and follow the elements around them
 * (`enter` may return `"skip"` to leave an element's content out, `leave`).
 */
abstract class ParagraphReader implements XmlVisitor {
  private skipDepth = 0
  private readonly reading: Array<{ text: string; number: number; spaces: number }> = []
  /** Paragraphs started so far (the next one's number is this plus one). */
  protected started = 0
  private readonly tab: string
  private readonly lineBreak: string
  protected readonly budget: LineBudget
  protected readonly partName: string

  constructor(separators: { readonly tab: string; readonly lineBreak: string }, budget: LineBudget, partName: string) {
    this.tab = separators.tab
    this.lineBreak = separators.lineBreak
    this.budget = budget
    this.partName = partName
  }

  protected abstract enter(tag: XmlTag): "skip" | undefined
  protected abstract leave(tag: XmlTag): void
  /** A paragraph ended: its text (untrimmed) and its number among the paragraphs of the part, in order of their start. */
  protected abstract paragraph(text: string, number: number): void

  open(tag: XmlTag): void {
    if (this.skipDepth > 0) {
      this.skipDepth++
      return
    }
    const top = this.reading.at(-1)
    if (odf.text.has(tag.uri)) {
      if (tag.local === "p" || tag.local === "h") {
        this.reading.push({ text: "", number: ++this.started, spaces: 0 })
        return
      }
      if (skippedText.has(tag.local)) {
        this.skipDepth = 1
        return
      }
      if (top !== undefined) {
        if (tag.local === "s") {
          const c = Number(attribute(tag, "c", odf.text) ?? "1")
          const n = top.spaces >= maxParagraphSpaces ? 1 : Number.isInteger(c) && c > 0 ? Math.min(c, maxSpaces) : 1
          top.spaces += n
          this.append(top, " ".repeat(n))
        } else if (tag.local === "tab") this.append(top, this.tab)
        else if (tag.local === "line-break") this.append(top, this.lineBreak)
      }
    } else if ((odf.office.has(tag.uri) && skippedOffice.has(tag.local)) || (odf.svg.has(tag.uri) && (tag.local === "title" || tag.local === "desc"))) {
      this.skipDepth = 1
      return
    }
    if (this.enter(tag) === "skip") this.skipDepth = 1
  }

  close(tag: XmlTag): void {
    if (this.skipDepth > 0) {
      this.skipDepth--
      return
    }
    if (odf.text.has(tag.uri) && (tag.local === "p" || tag.local === "h")) {
      const done = this.reading.pop()
      if (done === undefined) return
      this.budget.release(done.text.length)
      // A soft hyphen (LibreOffice writes U+00AD itself) is no character of the text, as Word's w:softHyphen
      // is none; a carriage return left in a field's value neither, nor a control character an XML 1.1 part
      // may hold (an escape sequence must not reach a terminal).
      this.paragraph(notText.test(done.text) ? done.text.replace(notTextAll, "") : done.text, done.number)
      return
    }
    this.leave(tag)
  }

  text(text: string): void {
    if (this.skipDepth > 0) return
    const top = this.reading.at(-1)
    if (top !== undefined) this.append(top, text)
  }

  /** Adds to a paragraph being read, its characters held against the file's text budget until it ends (`too-large` past it). */
  private append(paragraph: { text: string }, text: string): void {
    this.budget.hold(this.partName, text.length)
    paragraph.text += text
  }
}

/** Style names whose properties hide what uses them: `table:display="false"` (a table), `presentation:visibility="hidden"` (a page). */
class HiddenStyles {
  readonly names = new Set<string>()
  private current: string | undefined

  /** Follows `style:style` and its properties; true when `tag` was one of them. */
  enter(tag: XmlTag): boolean {
    if (!odf.style.has(tag.uri)) return false
    if (tag.local === "style") this.current = attribute(tag, "name", odf.style)
    else if (this.current !== undefined && tag.local === "table-properties" && attribute(tag, "display", odf.table) === "false") this.names.add(this.current)
    else if (this.current !== undefined && tag.local === "drawing-page-properties" && attribute(tag, "visibility", odf.presentation) === "hidden") this.names.add(this.current)
    return true
  }

  stateOf(styleName: string | undefined): PartState {
    return styleName !== undefined && this.names.has(styleName) ? "hidden" : "visible"
  }
}

const repeatOf = (tag: XmlTag, local: string): number => {
  const n = Number(attribute(tag, local, odf.table) ?? "1")
  return Number.isInteger(n) && n > 1 ? n : 1
}

/** What the spreadsheet reader hands on, in order: a sheet begins, lines of it, the sheet ends. */
type SheetEvent =
  | { readonly _tag: "begin"; readonly name: string; readonly state: PartState }
  | { readonly _tag: "lines"; readonly lines: Array<BodyLine> }
  | { readonly _tag: "end" }

interface OdsCell {
  readonly col: number
  readonly repeat: number
  readonly covered: boolean
  readonly type: string
  readonly value: string
  readonly paragraphs: Array<string>
  note: Array<string> | undefined
  /** The targets of the cell's links (`text:a xlink:href`). */
  readonly links: Array<string>
  /** Characters of its paragraphs and note held against the budget until the cell's lines take them. */
  held: number
}

/**
 * Reads a spreadsheet's `content.xml` into {@link events}, which the caller
 * hands to the sink between pieces of the part, so a large sheet streams.
 */
class SpreadsheetReader extends ParagraphReader {
  readonly events: Array<SheetEvent> = []
  private readonly styles = new HiddenStyles()
  private sheet: { extras: ExtraLines; shapes: Array<BodyLine>; name: string } | undefined
  private row = 0
  private rowRepeat = 1
  private rowCells: Array<{ col: number; repeat: number; text: string; forms: string }> = []
  private col = 0
  private cell: OdsCell | undefined
  private inNote = false
  private drawDepth = 0
  private pending: Array<BodyLine> = []
  /** The sheet's notes, `{row, col}` 0-based, written after its cells. */
  private readonly notes: Array<{ row: number; col: number; text: string }> = []
  private notesHeld = 0
  /** Tables begun so far (a table without a name is `Sheet<n>`). */
  private tables = 0
  /** The sheet's cell links, written after its notes as the xlsx path writes them (`A1 link`, when the cell does not show the target). */
  private readonly links: Array<{ row: number; col: number; shown: string; href: string }> = []
  constructor(budget: LineBudget) {
    super({ tab: "\t", lineBreak: "\n" }, budget, "content.xml")
  }

  protected enter(tag: XmlTag): "skip" | undefined {
    if (this.sheet === undefined) {
      if (this.styles.enter(tag)) return undefined
      if (isElement(tag, odf.table, "table")) {
        this.tables++
        const name = attribute(tag, "name", odf.table) ?? `Sheet${this.tables}`
        this.budget.startPart()
        this.events.push({ _tag: "begin", name, state: this.styles.stateOf(attribute(tag, "style-name", odf.table)) })
        this.sheet = { extras: new ExtraLines(this.budget, name), shapes: [], name }
        this.row = 0
      }
      return undefined
    }
    if (odf.table.has(tag.uri)) {
      if (this.drawDepth > 0 || this.inNote) return undefined
      switch (tag.local) {
        case "table-row":
          this.rowRepeat = repeatOf(tag, "number-rows-repeated")
          this.rowCells = []
          this.col = 0
          return undefined
        case "table-cell":
        case "covered-table-cell":
          this.cell = {
            col: this.col,
            repeat: repeatOf(tag, "number-columns-repeated"),
            covered: tag.local === "covered-table-cell",
            type: attribute(tag, "value-type", odf.office) ?? "",
            value: cellValueOf(tag),
            paragraphs: [],
            note: undefined,
            links: [],
            held: 0
          }
          return undefined
      }
      // Any other table element (a table nested in a cell's shape is read by the shape's paragraphs).
      return undefined
    }
    if (isElement(tag, odf.office, "annotation") && this.cell !== undefined && this.drawDepth === 0) {
      this.inNote = true
      this.cell.note = []
      return undefined
    }
    if (this.inNote && (odf.dc.has(tag.uri) || odf.meta.has(tag.uri))) return "skip"
    if (isElement(tag, odf.text, "a") && this.cell !== undefined && !this.inNote && this.drawDepth === 0) {
      const href = attribute(tag, "href", odf.xlink)
      if (href !== undefined && href !== "") this.cell.links.push(href)
    }
    if (odf.draw.has(tag.uri)) this.drawDepth++
    return undefined
  }

  protected leave(tag: XmlTag): void {
    if (this.sheet === undefined) return
    if (odf.draw.has(tag.uri)) {
      if (this.drawDepth > 0) this.drawDepth--
      return
    }
    if (isElement(tag, odf.office, "annotation") && this.inNote) {
      this.inNote = false
      return
    }
    if (!odf.table.has(tag.uri) || this.drawDepth > 0 || this.inNote) return
    switch (tag.local) {
      case "table-cell":
      case "covered-table-cell":
        this.endCell()
        return
      case "table-row":
        this.endRow()
        return
      case "table":
        this.endSheet()
        return
    }
  }

  protected paragraph(text: string): void {
    const sheet = this.sheet
    if (sheet === undefined) return
    if ((this.inNote || this.drawDepth === 0) && this.cell !== undefined) {
      // Held until the cell's lines (or its note's) take them: a cell of many paragraphs is counted as it grows.
      this.budget.hold(sheet.name, text.length)
      this.cell.held += text.length
    }
    if (this.inNote) this.cell?.note?.push(text)
    else if (this.drawDepth > 0) {
      const trimmed = text.trim()
      if (trimmed === "") return
      this.budget.take(sheet.name, trimmed.length)
      sheet.shapes.push({ loc: this.cell === undefined ? "shape" : `${refOf(this.row, this.cell.col)} shape`, text: trimmed })
    } else this.cell?.paragraphs.push(text)
  }

  private endCell(): void {
    const cell = this.cell
    this.cell = undefined
    if (cell === undefined) return
    this.budget.release(cell.held)
    this.col = cell.col + cell.repeat
    if (cell.col >= maxColumn) return
    if (cell.note !== undefined && this.row < maxRow) {
      const text = cell.note.join("\n")
      // Held until the sheet's end writes the notes.
      this.budget.hold(this.partName, text.length)
      this.notesHeld += text.length
      this.notes.push({ row: this.row, col: cell.col, text })
    }
    if (cell.covered) return
    const shown = cell.paragraphs.length > 0 ? cell.paragraphs.join("\n") : openDocumentValueText(cell.type, cell.value)
    if (this.row < maxRow) for (const href of cell.links) this.links.push({ row: this.row, col: cell.col, shown, href })
    // A cell of spaces is kept, as the xlsx path keeps it.
    if (shown === "") return
    this.rowCells.push({ col: cell.col, repeat: Math.min(cell.repeat, maxColumn - cell.col), text: shown, forms: openDocumentForms(cell.type, cell.value, shown) })
  }

  private endRow(): void {
    const repeat = Math.min(this.rowRepeat, Math.max(0, maxRow - this.row))
    const sheet = this.sheet
    if (sheet !== undefined) {
      for (let r = 0; r < repeat && this.rowCells.length > 0; r++) {
        for (const c of this.rowCells) {
          for (let k = 0; k < c.repeat; k++) {
            this.budget.take(sheet.name, c.text.length + c.forms.length)
            const loc = refOf(this.row + r, c.col + k)
            this.pending.push(c.forms === "" ? { loc, text: c.text } : { loc, text: c.text, forms: c.forms })
          }
        }
        if (this.pending.length >= 8192) this.flushLines()
      }
    }
    this.row += this.rowRepeat
    this.rowCells = []
  }

  private flushLines(): void {
    if (this.pending.length === 0) return
    this.events.push({ _tag: "lines", lines: this.pending })
    this.pending = []
  }

  private endSheet(): void {
    const sheet = this.sheet
    if (sheet === undefined) return
    this.flushLines()
    this.budget.release(this.notesHeld)
    this.notesHeld = 0
    sheet.extras.comments(this.notes)
    this.notes.length = 0
    for (const l of this.links) sheet.extras.link(refOf(l.row, l.col), l.shown, undefined, l.href)
    this.links.length = 0
    const extra = [...sheet.extras.lines, ...sheet.shapes]
    if (extra.length > 0) this.events.push({ _tag: "lines", lines: extra })
    this.events.push({ _tag: "end" })
    this.sheet = undefined
  }
}

/** The value attribute of a cell for its `office:value-type`. */
function cellValueOf(tag: XmlTag): string {
  switch (attribute(tag, "value-type", odf.office)) {
    case "date":
      return attribute(tag, "date-value", odf.office) ?? ""
    case "time":
      return attribute(tag, "time-value", odf.office) ?? ""
    case "boolean":
      return attribute(tag, "boolean-value", odf.office) ?? ""
    case "string":
      return attribute(tag, "string-value", odf.office) ?? ""
    default:
      return attribute(tag, "value", odf.office) ?? ""
  }
}

/** A master page's header or footer (`style:header`, `style:footer-left`, `style:header-first`, …). */
const masterRegion = /^(header|footer)(-left|-first)?$/

/**
 * Reads a text document's `content.xml` (the body, its notes and comments)
 * or `styles.xml` (the master pages' headers and footers) into lines.
 */
class DocumentReader extends ParagraphReader {
  readonly body: Array<{ number: number; text: string }> = []
  readonly footnotes: Array<BodyLine> = []
  readonly endnotes: Array<BodyLine> = []
  readonly comments: Array<BodyLine> = []
  readonly headers: Array<BodyLine> = []
  readonly footers: Array<BodyLine> = []
  /** The notes and comments being read, innermost last: their lines' `loc` and the depth of their element. */
  private readonly places: Array<{ readonly loc: string; readonly depth: number }> = []
  private depth = 0
  private inBody = false
  private masterPart: "header" | "footer" | undefined
  private readonly masterTexts = new Set<string>()
  private readonly counts = { footnote: 0, endnote: 0, comment: -1 }
  constructor(budget: LineBudget, partName: string) {
    super({ tab: " ", lineBreak: " " }, budget, partName)
  }

  protected enter(tag: XmlTag): "skip" | undefined {
    this.depth++
    if (isElement(tag, odf.office, "text")) this.inBody = true
    else if (odf.style.has(tag.uri) && masterRegion.test(tag.local)) {
      if (attribute(tag, "display", odf.style) === "false") {
        this.depth--
        return "skip"
      }
      this.masterPart = tag.local.startsWith("header") ? "header" : "footer"
    } else if (isElement(tag, odf.text, "note")) {
      const kind = attribute(tag, "note-class", odf.text) === "endnote" ? "endnote" : "footnote"
      this.places.push({ loc: `${kind}:${++this.counts[kind]}`, depth: this.depth })
    } else if (isElement(tag, odf.office, "annotation")) {
      this.places.push({ loc: `comment:${++this.counts.comment}`, depth: this.depth })
    } else if (this.places.length > 0 && (odf.dc.has(tag.uri) || odf.meta.has(tag.uri))) {
      this.depth--
      return "skip"
    }
    return undefined
  }

  protected leave(tag: XmlTag): void {
    if (this.places.at(-1)?.depth === this.depth) this.places.pop()
    if (isElement(tag, odf.office, "text")) this.inBody = false
    else if (odf.style.has(tag.uri) && masterRegion.test(tag.local)) this.masterPart = undefined
    this.depth--
  }

  protected paragraph(text: string, number: number): void {
    // Kept as written, as the docx path keeps a paragraph: only one of nothing but spaces is dropped.
    if (text.trim() === "") return
    const place = this.places.at(-1)
    if (place !== undefined) {
      this.budget.take(this.partName, text.length)
      const line = { loc: place.loc, text }
      if (place.loc.startsWith("comment:")) this.comments.push(line)
      else if (place.loc.startsWith("endnote:")) this.endnotes.push(line)
      else this.footnotes.push(line)
      return
    }
    if (this.masterPart !== undefined) {
      const into = this.masterPart === "header" ? this.headers : this.footers
      // Master pages repeat one header for several page styles: each text once.
      const key = `${this.masterPart}\t${text}`
      if (this.masterTexts.has(key)) return
      this.masterTexts.add(key)
      this.budget.take(this.partName, text.length)
      into.push({ loc: this.masterPart, text })
      return
    }
    if (!this.inBody) return
    this.budget.take(this.partName, text.length)
    this.body.push({ number, text })
  }

  /** Notes and comments take no number among the body's paragraphs. */
  override open(tag: XmlTag): void {
    const before = this.started
    super.open(tag)
    if (this.started > before && this.places.length > 0) this.started = before
  }
}

/** Placeholders of a notes page that are not its notes. */
const notesPlaceholders: ReadonlySet<string> = new Set(["page-number", "date-time", "header", "footer"])

/**
 * Reads a presentation's `content.xml`: each `draw:page` a slide, its
 * `presentation:notes` the slide's notes, frames of class `title` its title.
 */
class PresentationReader extends ParagraphReader {
  readonly shown: Array<BodyLine> = []
  readonly hidden: Array<BodyLine> = []
  readonly titles: Array<BodyLine> = []
  private readonly styles = new HiddenStyles()
  private slide: { n: string; lines: Array<BodyLine>; hidden: boolean; title: Array<string> } | undefined
  private slides = 0
  private notesDepth = 0
  private titleDepth = 0
  constructor(budget: LineBudget) {
    super({ tab: " ", lineBreak: " " }, budget, "content.xml")
  }

  protected enter(tag: XmlTag): "skip" | undefined {
    if (this.slide === undefined) {
      if (this.styles.enter(tag)) return undefined
      if (isElement(tag, odf.draw, "page")) {
        this.slide = { n: String(++this.slides), lines: [], hidden: this.styles.stateOf(attribute(tag, "style-name", odf.draw)) === "hidden", title: [] }
      }
      return undefined
    }
    if (isElement(tag, odf.presentation, "notes")) this.notesDepth++
    // A notes page repeats the slide's number, date, header and footer: not what the speaker wrote (BUG-17).
    else if (this.notesDepth > 0 && odf.draw.has(tag.uri) && notesPlaceholders.has(attribute(tag, "class", odf.presentation) ?? "")) return "skip"
    else if (this.titleDepth > 0) this.titleDepth++
    else if (this.notesDepth === 0 && odf.draw.has(tag.uri) && attribute(tag, "class", odf.presentation) === "title") this.titleDepth = 1
    return undefined
  }

  protected leave(tag: XmlTag): void {
    const slide = this.slide
    if (slide === undefined) return
    if (isElement(tag, odf.presentation, "notes")) this.notesDepth--
    else if (this.titleDepth > 0) this.titleDepth--
    else if (isElement(tag, odf.draw, "page")) {
      if (slide.title.length > 0) this.titles.push({ loc: `slide ${slide.n}`, text: slide.title.join(" ") })
      for (const line of slide.lines) (slide.hidden ? this.hidden : this.shown).push(line)
      this.slide = undefined
    }
  }

  protected paragraph(text: string): void {
    const slide = this.slide
    if (slide === undefined || text.trim() === "") return
    this.budget.take("content.xml", text.length)
    slide.lines.push({ loc: this.notesDepth > 0 ? `${slide.n} notes` : slide.n, text })
    if (this.titleDepth > 0) slide.title.push(text)
  }
}

/** `meta.xml`'s properties, by their `loc` in the properties part. */
const metaNames: ReadonlyArray<readonly [vocabulary: Namespace, element: string, loc: string]> = [
  [odf.dc, "title", "title"],
  [odf.dc, "subject", "subject"],
  [odf.meta, "initial-creator", "author"],
  [odf.meta, "keyword", "keywords"],
  [odf.dc, "description", "description"],
  [odf.dc, "creator", "lastModifiedBy"]
]
/** `meta:user-defined` properties by their `meta:name`: what LibreOffice keeps of an OOXML file's category, company and manager. */
const userDefinedNames: ReadonlyMap<string, string> = new Map([
  ["Category", "category"],
  ["OOXMLCorePropertyCategory", "category"],
  ["Company", "company"],
  ["Manager", "manager"]
])
/** The properties part's order, the OOXML path's. */
const propertyOrder = ["title", "subject", "author", "keywords", "description", "category", "lastModifiedBy", "company", "manager"]

/** Reads `office:meta`'s children named in {@link metaNames} and {@link userDefinedNames}; keywords, which may repeat, are joined by a space. */
class MetaReader implements XmlVisitor {
  readonly values = new Map<string, string>()
  private current: string | undefined
  private text_ = ""

  open(tag: XmlTag): void {
    this.current = isElement(tag, odf.meta, "user-defined")
      ? userDefinedNames.get(attribute(tag, "name", odf.meta) ?? "")
      : metaNames.find(([v, local]) => isElement(tag, v, local))?.[2]
    this.text_ = ""
  }

  close(): void {
    if (this.current === undefined) return
    const value = this.text_.replace(/\s+/g, " ").trim()
    const known = this.values.get(this.current)
    if (value !== "") this.values.set(this.current, known === undefined ? value : this.current === "keywords" ? `${known} ${value}` : known)
    this.current = undefined
  }

  text(text: string): void {
    if (this.current !== undefined) this.text_ += text
  }
}

const metaProperties = (pkg: OpcPackage): Effect.Effect<Array<BodyLine>> => {
  if (!pkg.has("meta.xml")) return Effect.succeed([])
  const reader = new MetaReader()
  return pkg.readXml("meta.xml", reader).pipe(
    Effect.map(() => propertyOrder.flatMap((loc) => {
      const text = reader.values.get(loc)
      return text === undefined ? [] : [{ loc, text }]
    })),
    // Properties are a help, never a reason to fail (S4).
    Effect.orElseSucceed(() => [])
  )
}

/** True when `META-INF/manifest.xml` says some entry is encrypted (a password-protected file). */
const isEncrypted = (pkg: OpcPackage): Effect.Effect<boolean, ExtractError> => {
  if (!pkg.has("META-INF/manifest.xml")) return Effect.succeed(false)
  let found = false
  const reader: XmlVisitor = {
    open: (tag) => {
      if (isElement(tag, odf.manifest, "encryption-data")) found = true
    },
    close() {},
    text() {}
  }
  return Effect.map(pkg.readXml("META-INF/manifest.xml", reader), () => found)
}

/**
 * Extracts the OpenDocument package `pkg`, a `kind` its `mimetype` entry
 * names ({@link openDocumentKindOf}), into `sink` (see the module doc). Fails
 * `encrypted` for a password-protected file, `corrupt` for a missing or
 * malformed `content.xml`, `too-large` past the budget, or with the sink's
 * error.
 */
export const extractOpenDocument = <E>(
  pkg: OpcPackage,
  kind: AppKind,
  sink: ExtractionSink<E>,
  budget: LineBudget
): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    if (yield* isEncrypted(pkg)) {
      return yield* Effect.fail(new ExtractError({ reason: "encrypted", detail: "OpenDocument file with encryption data in its manifest" }))
    }
    if (!pkg.has("content.xml")) return yield* Effect.fail(new ExtractError({ reason: "corrupt", detail: "an OpenDocument package without content.xml" }))
    let titles: Array<BodyLine> = []
    if (kind === "spreadsheet") {
      const reader = new SpreadsheetReader(budget)
      const drain = Effect.suspend(() => {
        const events = reader.events.splice(0)
        return Effect.forEach(events, (e) => (e._tag === "begin" ? sink.beginPart({ name: e.name, locator: "cell", state: e.state }) : e._tag === "end" ? sink.endPart : emitLines(sink, budget, e.lines)), { discard: true })
      })
      yield* pkg.readXml("content.xml", reader, drain)
      yield* drain
    } else {
      budget.startPart()
      const parts: Array<BodyPart> = []
      if (kind === "document") {
        const content = new DocumentReader(budget, "content.xml")
        yield* pkg.readXml("content.xml", content)
        const styles = new DocumentReader(budget, "styles.xml")
        if (pkg.has("styles.xml")) yield* pkg.readXml("styles.xml", styles)
        // A frame's paragraphs end before the paragraph holding them: in order of their start, as Word's.
        const lines: Array<BodyLine> = content.body.sort((a, b) => a.number - b.number).map((p) => ({ loc: String(p.number), text: p.text }))
        for (const more of [styles.headers, styles.footers, content.footnotes, content.endnotes, content.comments]) for (const line of more) lines.push(line)
        parts.push({ name: "document", locator: "paragraph", state: "visible", lines })
      } else {
        const content = new PresentationReader(budget)
        yield* pkg.readXml("content.xml", content)
        parts.push({ name: "slides", locator: "slide", state: "visible", lines: content.shown })
        if (content.hidden.length > 0) parts.push({ name: "hidden slides", locator: "slide", state: "hidden", lines: content.hidden })
        titles = content.titles
      }
      yield* emitParts(sink, budget, parts)
    }
    yield* emitProperties(sink, budget, [...(yield* metaProperties(pkg)), ...titles])
  }).pipe(Effect.withSpan("Extract.openDocument"))
