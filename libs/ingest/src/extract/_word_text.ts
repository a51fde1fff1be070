/**
 * The paragraphs of one WordprocessingML part (the main document, a header,
 * footnotes, comments, …) as the reader sees them: runs joined, revisions
 * accepted, readings and field codes left out.
 *
 * @module
 */
import type { LineBudget } from "./_limits.ts"
import { attribute, isElement, ns, type XmlTag, type XmlVisitor } from "./_xml.ts"

/** One non-empty paragraph of a part. */
export interface WordParagraph {
  /** 1-based position among all paragraphs of the part (empty ones count), in order of their start. */
  readonly number: number
  /** The `w:id` of the footnote, endnote or comment the paragraph belongs to. */
  readonly note: string | undefined
  readonly text: string
}

/**
 * Subtrees whose text is not the reader's: deleted and moved-away revisions
 * (BUG-15: only the result of tracked changes is the text), ruby readings
 * `w:rt` (BUG-09: 東京, not 東京とうきょう).
 */
const skipped = new Set(["del", "moveFrom", "rt"])

/** Run content that stands for characters (BUG-19): separators become a space so that words are never glued. */
const runCharacters: ReadonlyMap<string, string> = new Map([
  ["tab", " "],
  ["ptab", " "],
  ["br", " "],
  ["cr", " "],
  ["noBreakHyphen", "-"],
  ["softHyphen", ""]
])

/** Separator footnotes and endnotes hold only the separator line. */
const separatorTypes = new Set(["separator", "continuationSeparator", "continuationNotice"])

/**
 * Collects the paragraphs of a part (see {@link ordered}). Text is what
 * `w:t` (and math `m:t`) hold; `w:delText` and `w:instrText` are never read.
 * A paragraph inside a text box (`w:txbxContent`) nested in another
 * paragraph is its own paragraph; Markup Compatibility already dropped the
 * VML copy of the box (BUG-16).
 */
export class WordTextReader implements XmlVisitor {
  /**
   * The SmartArt graphics of the part in document order: the number of the
   * paragraph holding each one, the note it belongs to, and the relationship
   * id of its data part (`dgm:relIds r:dm`); `_diagram.ts` reads their text.
   */
  readonly diagrams: Array<{ readonly number: number; readonly note: string | undefined; readonly dataId: string | undefined }> = []
  /**
   * The `w:altChunk` elements of the part (issue 15 item 10): the paragraph
   * number each one takes (a chunk is one block of the body, its lines share
   * the number), the note it belongs to, and the relationship id of its part.
   */
  readonly altChunks: Array<{ readonly number: number; readonly note: string | undefined; readonly id: string | undefined }> = []
  private readonly paragraphs: Array<WordParagraph> = []
  private readonly stack: Array<{ number: number; note: string | undefined; text: string }> = []
  private count = 0
  private skipDepth = 0
  private runDepth = 0
  private textDepth = 0
  private note: string | undefined

  private readonly budget: LineBudget
  private readonly partName: string

  constructor(budget: LineBudget, partName: string) {
    this.budget = budget
    this.partName = partName
  }

  open(tag: XmlTag): void {
    if (this.skipDepth > 0) {
      this.skipDepth++
      return
    }
    if (isElement(tag, ns.math, "t")) {
      this.textDepth++
      return
    }
    if (isElement(tag, ns.diagram, "relIds")) {
      this.diagrams.push({ number: this.stack.at(-1)?.number ?? this.count, note: this.note, dataId: attribute(tag, "dm", ns.relationshipRef) })
      return
    }
    if (!ns.word.has(tag.uri)) return
    const local = tag.local
    if (skipped.has(local)) {
      this.skipDepth = 1
    } else if (local === "p") {
      this.stack.push({ number: ++this.count, note: this.note, text: "" })
    } else if (local === "altChunk") {
      this.altChunks.push({ number: ++this.count, note: this.note, id: attribute(tag, "id", ns.relationshipRef) })
    } else if (local === "r") {
      this.runDepth++
    } else if (local === "t") {
      this.textDepth++
    } else if (local === "footnote" || local === "endnote" || local === "comment") {
      if (separatorTypes.has(attribute(tag, "type", ns.word) ?? "")) this.skipDepth = 1
      else this.note = attribute(tag, "id", ns.word)
    } else if (this.runDepth > 0) {
      const chars = local === "sym" ? symbolCharacter(tag) : runCharacters.get(local)
      if (chars !== undefined) this.append(chars)
    }
  }

  close(tag: XmlTag): void {
    if (this.skipDepth > 0) {
      this.skipDepth--
      return
    }
    if (isElement(tag, ns.math, "t")) {
      this.textDepth--
      return
    }
    if (!ns.word.has(tag.uri)) return
    switch (tag.local) {
      case "p": {
        const paragraph = this.stack.pop()
        if (paragraph !== undefined && paragraph.text.trim() !== "") {
          this.budget.take(this.partName, paragraph.text.length)
          this.paragraphs.push(paragraph)
        }
        return
      }
      case "r":
        this.runDepth--
        return
      case "t":
        this.textDepth--
        return
      case "footnote":
      case "endnote":
      case "comment":
        this.note = undefined
        return
    }
  }

  text(text: string): void {
    // Typed as characters, a soft hyphen (U+00AD) is as invisible as w:softHyphen and a non-breaking hyphen (U+2011) reads as a hyphen (BUG-19).
    if (this.textDepth > 0 && this.skipDepth === 0) this.append(text.replace(/\u00AD/g, "").replace(/\u2011/g, "-"))
  }

  private append(text: string): void {
    const current = this.stack.at(-1)
    if (current !== undefined) current.text += text
  }

  /** Paragraphs in document order (a text box's paragraphs end before the paragraph holding them). */
  ordered(): ReadonlyArray<WordParagraph> {
    return [...this.paragraphs].sort((a, b) => a.number - b.number)
  }
}

/**
 * `w:sym` names a glyph of a symbol font by code; codes in the private-use
 * area (Wingdings and the like) have no meaning as text, so they separate
 * words like a space does.
 */
function symbolCharacter(tag: XmlTag): string {
  const code = parseInt(attribute(tag, "char", ns.word) ?? "", 16)
  return Number.isInteger(code) && code > 0x20 && (code < 0xe000 || code > 0xf8ff) ? String.fromCodePoint(code) : " "
}
