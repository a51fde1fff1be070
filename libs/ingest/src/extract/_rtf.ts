/**
 * An RTF document (Word, WordPad, LibreOffice, report tools; RTF 1.x) read
 * without Office (W2, W3; issue 20) into the docx path's part and locators:
 * one part `document`, the body's paragraphs by number (every `\par` counts,
 * empty ones too; a table cell's `\cell` ends one), then headers, footers,
 * footnotes (`footnote:1`), endnotes and comments (`comment:0`); the `\info`
 * group gives the properties part.
 *
 * The file is read a piece at a time and never held: a byte-level state
 * machine keeps the group stack across pieces. Text comes from plain bytes
 * and `\'hh` escapes decoded in the code page of the current font's
 * `\fcharset` (else `\ansicpg`: Shift_JIS for `\ansicpg932` or a
 * `\fcharset128` font, a double-byte character whose second byte was
 * written plainly included), and `\uN` with its `\ucN` fallback skipped.
 * Left out as in docx: field instructions (`\fldinst`; the result is read),
 * pictures and objects' data, list numbers (`\listtext`, `\pntext`), index
 * and TOC entries, footnote separators, every destination marked `\*` that
 * is not a comment, and a shape's properties (its `\shptxt` text is read).
 *
 * @module
 */
import type { BodyLine, BodyPart } from "@sagasu/domain"
import { Effect } from "effect"
import { byteDecoder, type ByteDecoder, charsetPages } from "./_codepage.ts"
import type { LineBudget } from "./_limits.ts"
import { emitProperties } from "./_properties.ts"
import { emitParts, type ExtractionSink } from "./_sink.ts"
import type { ZipSource } from "./_zip.ts"
import { ExtractError } from "./extract_error.ts"

/** Where the text of a group goes. */
type Destination =
  | "body"
  | "header"
  | "footer"
  | "footnote"
  | "endnote"
  | "comment"
  | "fonttbl"
  | "info"
  | "property"
  | "fldinst"
  | "shape"
  | "skip"

interface Group {
  destination: Destination
  /** `\ucN`: characters of the fallback after each `\uN`. */
  uc: number
  /** `\fN`, the current font. */
  font: number
  /**
   * The fonts of the three character classes (`\loch`, `\hich`, `\dbch`
   * followed by `\af` or `\f`), as Word writes `\loch\af0\hich\af0\dbch\f11`
   * before a run of Japanese; a run's bytes decode in the font of the class
   * named last, else in {@link font}.
   */
  classFonts: { loch?: number; hich?: number; dbch?: number }
  /** The class named last. */
  charClass: "loch" | "hich" | "dbch" | undefined
  /** Between `\rtlch` and `\ltrch`: an `\af` there is the complex-script font, not a class's. */
  rtl: boolean
  /** `\deleted`: a tracked deletion, not the text (BUG-15, as the docx path). */
  deleted: boolean
  /** Set on the group of a `\shpinst`, whose properties are skipped but whose `\shptxt` is read. */
  shape: boolean
  /** Inside `\*\ud` of `\upr`: the properties' Unicode form, which replaces the ANSI one read before. */
  unicodeProperties: boolean
  /** The field a `\field` group opened: its instruction's text and whether its result gave any. */
  field: { instruction: string; result: boolean } | undefined
  /** The property an `\info` subgroup holds (`title`, …). */
  property: string | undefined
  /** The loc of a note or comment's lines. */
  noteLoc: string | undefined
  /**
   * Set when this group opened a place of its own (a header, a note, a
   * comment, a property): the text of the paragraph around it, taken up
   * again when the group ends.
   */
  saved: string | undefined
}

/** Destinations whose text is not the reader's (see the module doc); a group naming one is skipped whole. */
const skippedDestinations = new Set([
  "colortbl", "stylesheet", "listtable", "listoverridetable", "revtbl", "rsidtbl", "generator", "pict", "nonshppict",
  "datafield", "formfield", "bkmkstart", "bkmkend", "pntext", "pntxta", "pntxtb", "listtext", "xe", "tc", "themedata",
  "colorschememapping", "latentstyles", "datastore", "xmlnstbl", "ftnsep", "ftnsepc", "aftnsep", "aftnsepc", "atnid",
  "atnauthor", "atndate", "atnref", "atrfstart", "atrfend", "objdata", "objclass", "objname", "template", "userprops",
  "pgdsctbl", "mmathPr", "falt", "panose", "fname", "filetbl", "protusertbl", "docvar", "wgrffmtfilter", "do", "sp", "sn", "sv"
])

/** `\info` subgroups read as properties, by their `loc` in the properties part, in the OOXML order. */
const infoProperties: ReadonlyArray<readonly [word: string, loc: string]> = [
  ["title", "title"],
  ["subject", "subject"],
  ["author", "author"],
  ["keywords", "keywords"],
  ["doccomm", "description"],
  ["category", "category"],
  ["operator", "lastModifiedBy"],
  ["company", "company"],
  ["manager", "manager"]
]
const infoLoc: ReadonlyMap<string, string> = new Map(infoProperties)

/** Control symbols and words that stand for characters. */
const characterWords: ReadonlyMap<string, string> = new Map([
  ["line", " "], ["tab", " "], ["emdash", "\u2014"], ["endash", "\u2013"], ["emspace", " "], ["enspace", " "], ["qmspace", " "],
  ["bullet", "\u2022"], ["lquote", "\u2018"], ["rquote", "\u2019"], ["ldblquote", "\u201c"], ["rdblquote", "\u201d"],
  ["~", "\u00a0"], ["_", "-"], ["-", ""], ["{", "{"], ["}", "}"], ["\\", "\\"]
])

const isDoubleBytePage = (page: number): boolean => page === 932 || page === 936 || page === 949 || page === 950 || page === 1361
const isLeadByte = (page: number, b: number): boolean => (page === 932 ? (b >= 0x81 && b <= 0x9f) || (b >= 0xe0 && b <= 0xfc) : b >= 0x81 && b <= 0xfe)

/** The deepest group nesting read; deeper is `too-large` (a hostile file, not a document). */
const maxGroupDepth = 2000
/** The longest numeric parameter kept (RTF's are 16- or 32-bit). */
const maxParamDigits = 10

/** The state machine's states: text, after a backslash, a control word's letters, its parameter, a `\'hh` escape's two digits, `\bin` data. */
const State = { Text: 0, Escape: 1, Word: 2, Param: 3, Hex1: 4, Hex2: 5, Binary: 6 } as const
type State = (typeof State)[keyof typeof State]

/**
 * The RTF state machine: {@link write} each piece of the file in order,
 * then {@link end}. Lines collect in the fields named after their place.
 */
export class RtfReader {
  readonly body: Array<BodyLine> = []
  readonly headers: Array<BodyLine> = []
  readonly footers: Array<BodyLine> = []
  readonly footnotes: Array<BodyLine> = []
  readonly endnotes: Array<BodyLine> = []
  readonly comments: Array<BodyLine> = []
  readonly properties = new Map<string, string>()

  private state: State = State.Text
  private word = ""
  private param = ""
  private negative = false
  private hex = 0
  private binaryLeft = 0
  /** A `\*` was read: the group's next control word names a destination, skipped unless known. */
  private starred = false
  /** The control word read first in the current group (a destination names itself there). */
  private groupStart = false
  private readonly groups: Array<Group> = []
  private group: Group = {
    destination: "body",
    uc: 1,
    font: -1,
    classFonts: {},
    charClass: undefined,
    rtl: false,
    deleted: false,
    shape: false,
    unicodeProperties: false,
    field: undefined,
    property: undefined,
    noteLoc: undefined,
    saved: undefined
  }
  private defaultPage = 1252
  private defaultFont = -1
  private readonly fontPages = new Map<number, number>()
  private fontBeingDefined = -1
  /** Fallback characters of the last `\uN` still to skip. */
  private skipping = 0
  /** Bytes of the current run, decoded when the run ends. */
  private bytes: Array<number> = []
  private bytesPage = 1252
  private needTrail = false
  /** The document's outermost group has closed. */
  private ended = false
  private paragraph = ""
  private paragraphs = 0
  private readonly counts = { footnote: 0, endnote: 0, comment: -1 }
  private readonly decoders = new Map<number, ByteDecoder>()
  private readonly budget: LineBudget

  constructor(budget: LineBudget) {
    this.budget = budget
  }

  /** Reads the next piece of the file. Throws an {@link ExtractError} (`too-large`) past the limits. */
  write(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i] ?? 0
      switch (this.state) {
        case State.Binary:
          if (--this.binaryLeft <= 0) this.state = State.Text
          continue
        case State.Text:
          this.textByte(b)
          continue
        case State.Escape:
          if ((b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a)) {
            this.word = String.fromCharCode(b)
            this.param = ""
            this.negative = false
            this.state = State.Word
          } else if (b === 0x27) this.state = State.Hex1
          else {
            this.state = State.Text
            if (b === 0x0a || b === 0x0d) this.controlWord("par", undefined)
            else this.controlSymbol(String.fromCharCode(b))
          }
          continue
        case State.Word:
          if ((b >= 0x61 && b <= 0x7a) || (b >= 0x41 && b <= 0x5a)) {
            if (this.word.length < 64) this.word += String.fromCharCode(b)
            continue
          }
          if (b === 0x2d && this.param === "" && !this.negative) {
            this.negative = true
            this.state = State.Param
            continue
          }
          if (b >= 0x30 && b <= 0x39) {
            this.param = String.fromCharCode(b)
            this.state = State.Param
            continue
          }
          this.endWord(b)
          continue
        case State.Param:
          if (b >= 0x30 && b <= 0x39) {
            if (this.param.length < maxParamDigits) this.param += String.fromCharCode(b)
            continue
          }
          this.endWord(b)
          continue
        case State.Hex1:
        case State.Hex2: {
          const v = hexValue(b)
          if (v < 0) {
            // A broken escape: what follows is text again.
            this.state = State.Text
            this.textByte(b)
            continue
          }
          if (this.state === State.Hex1) {
            this.hex = v
            this.state = State.Hex2
          } else {
            this.state = State.Text
            this.escapedByte((this.hex << 4) | v)
          }
          continue
        }
      }
    }
  }

  /** Ends the file: what an unclosed group or paragraph holds is kept (closing the document's group ends its last paragraph). */
  end(): void {
    if (this.state === State.Word || this.state === State.Param) this.endWord(-1)
    while (this.groups.length > 0) this.closeGroup()
  }

  private endWord(next: number): void {
    const param = this.param === "" ? undefined : (this.negative ? -1 : 1) * Number(this.param)
    this.state = State.Text
    this.controlWord(this.word, param)
    if ((this.state as State) === State.Binary) {
      // \binN's data begins right after its number (a space there is the delimiter, not data).
      if (next >= 0 && next !== 0x20 && --this.binaryLeft <= 0) this.state = State.Text
      return
    }
    // The space after a control word is its delimiter; anything else is read again.
    if (next >= 0 && next !== 0x20) this.textByte(next)
  }

  private textByte(b: number): void {
    switch (b) {
      case 0x5c:
        this.state = State.Escape
        return
      case 0x7b:
        this.openGroup()
        return
      case 0x7d:
        this.closeGroup()
        return
      case 0x0a:
      case 0x0d:
        return
    }
    if (this.skipping > 0) {
      this.skipping--
      return
    }
    if (this.group.destination === "skip" || this.ended) return
    if (this.needTrail && this.bytes.length > 0) {
      this.pushByte(b)
      return
    }
    // Control characters (NUL, BEL, ESC, …) are no text: a document must not reach the searcher's terminal
    // with them (found by the hostile-file trial); a tab is a space, as \tab.
    if (b < 0x20) {
      if (b === 0x09) {
        this.flushBytes()
        this.addText(" ")
      }
      return
    }
    // Plain bytes join the run decoded at its end (one string, not one per character).
    this.pushByte(b)
  }

  private escapedByte(b: number): void {
    if (this.skipping > 0) {
      this.skipping--
      return
    }
    if (this.group.destination === "skip" || this.ended) return
    // \'hh of a control character is none either, unless it is a double-byte character's second byte.
    if (b < 0x20 && !(this.needTrail && this.bytes.length > 0)) return
    this.pushByte(b)
  }

  private pushByte(b: number): void {
    const page = this.pageNow()
    if (this.bytes.length > 0 && page !== this.bytesPage) this.flushBytes()
    this.bytesPage = page
    this.bytes.push(b)
    if (isDoubleBytePage(page)) this.needTrail = this.needTrail ? false : isLeadByte(page, b)
    if (this.bytes.length >= 4096 && !this.needTrail) this.flushBytes()
  }

  private pageNow(): number {
    const g = this.group
    // The document's properties are in the document's code page, whatever font the body left set.
    if (g.destination === "property") return this.defaultPage
    const font = (g.charClass === undefined ? undefined : g.classFonts[g.charClass]) ?? g.font
    return this.fontPages.get(font) ?? this.fontPages.get(this.defaultFont) ?? this.defaultPage
  }

  private flushBytes(): void {
    if (this.bytes.length === 0) return
    let decoder = this.decoders.get(this.bytesPage)
    if (decoder === undefined) {
      decoder = byteDecoder(this.bytesPage)
      this.decoders.set(this.bytesPage, decoder)
    }
    const text = decoder.decode(Uint8Array.from(this.bytes))
    this.bytes = []
    this.needTrail = false
    this.addText(text)
  }

  private addText(text: string): void {
    const g = this.group
    const d = g.destination
    if (d === "skip" || d === "info" || d === "fonttbl" || g.deleted) return
    if (g.field !== undefined && d !== "fldinst") g.field.result ||= text.trim() !== ""
    this.paragraph += text
    this.budget.hold("rtf", text.length)
  }

  private openGroup(): void {
    this.flushBytes()
    this.skipping = 0
    if (this.groups.length >= maxGroupDepth) throw new ExtractError({ reason: "too-large", detail: `RTF groups nested deeper than ${maxGroupDepth} levels` })
    this.groups.push(this.group)
    this.group = { ...this.group, classFonts: { ...this.group.classFonts }, saved: undefined }
    this.groupStart = true
    this.starred = false
  }

  private closeGroup(): void {
    this.flushBytes()
    this.skipping = 0
    const inner = this.group
    const outer = this.groups.pop()
    if (outer === undefined) return // a stray brace
    if (inner.saved !== undefined) {
      if (inner.destination === "fldinst") {
        if (inner.field !== undefined) inner.field.instruction += this.paragraph
        this.budget.release(this.paragraph.length)
        this.paragraph = ""
      } else if (inner.destination === "property") {
        const value = this.paragraph.replace(/\s+/g, " ").trim()
        this.budget.release(this.paragraph.length)
        this.paragraph = ""
        if (inner.property !== undefined && value !== "" && (inner.unicodeProperties || !this.properties.has(inner.property))) this.properties.set(inner.property, value)
      } else this.endParagraph(inner) // a header, note or comment ends with its group
      // The paragraph around it goes on.
      this.paragraph = inner.saved
    }
    // A field whose result is empty shows its instruction's base text where Word draws it from
    // the instruction (ruby: EQ \o\ad(\s\up 11(ふり),担当者) shows 担当者 with its reading above).
    if (inner.field !== undefined && outer.field !== inner.field && !inner.field.result) {
      const base = rubyBase(inner.field.instruction)
      if (base !== undefined) {
        this.group = outer
        this.addText(base)
      }
    }
    if (inner.destination === "fonttbl" && outer.destination === "fonttbl") this.fontBeingDefined = -1
    this.group = outer
    this.groupStart = false
    this.starred = false
    // The document's own group closed: what follows it is not the document (LibreOffice reads nothing there).
    if (this.groups.length === 0) {
      this.flushBytes()
      this.endParagraph(this.group)
      this.ended = true
    }
  }

  /** The group opens a place of its own; the paragraph around it is set aside until the group ends. */
  private destination(destination: Destination, noteLoc?: string): void {
    this.group.saved ??= this.paragraph
    this.paragraph = ""
    this.group.destination = destination
    this.group.noteLoc = noteLoc
  }

  private endParagraph(group: Group): void {
    // A \par inside the font table, \info or a skipped group ends no paragraph of the text around it.
    if (!textDestinations.has(group.destination)) return
    // Kept as written, as the docx path keeps a paragraph: only one of nothing but spaces is dropped.
    const text = this.paragraph.trim() === "" ? "" : this.paragraph
    this.budget.release(this.paragraph.length)
    this.paragraph = ""
    const d = group.destination
    if (d === "body") this.paragraphs++
    if (text === "") return
    const into = d === "body" || d === "shape" ? this.body : d === "header" ? this.headers : d === "footer" ? this.footers : d === "footnote" ? this.footnotes : d === "endnote" ? this.endnotes : this.comments
    // A shape's text stands at the paragraph that holds the shape, whose number it does not move.
    const loc = d === "body" ? String(this.paragraphs) : d === "shape" ? String(this.paragraphs + 1) : d === "header" || d === "footer" ? d : (group.noteLoc ?? d)
    this.budget.take("rtf", text.length)
    into.push({ loc, text })
  }

  private controlSymbol(symbol: string): void {
    if (symbol === "*") {
      this.starred = true
      return
    }
    const text = characterWords.get(symbol)
    if (text === undefined) return
    // A fallback character of \uN may be written as a symbol (\{, \~).
    if (this.skipping > 0) {
      this.skipping--
      return
    }
    this.flushBytes()
    this.addText(text)
  }

  private controlWord(word: string, param: number | undefined): void {
    const first = this.groupStart
    this.groupStart = false
    if (word !== "u" && word !== "bin") this.skipping = 0
    const starred = this.starred
    this.starred = false
    const g = this.group
    if (g.destination === "skip") {
      if (word === "bin" && param !== undefined && param > 0) this.binary(param)
      // A shape's text inside its skipped properties is read (\shptxt), where the shape stands.
      if (word === "shptxt" && first && g.shape) {
        // Where the shape stands: the nearest group around it that is not skipped (the body, a note, a header).
        const around = this.groups.findLast((o) => o.destination !== "skip")
        const d = around?.destination ?? "body"
        this.destination(d === "body" ? "shape" : d, around?.noteLoc)
      }
      return
    }
    if (first && skippedDestinations.has(word)) {
      this.group.destination = "skip"
      return
    }
    // `\*` marks a destination an older reader may skip: those read here are read (LibreOffice writes `{\*\footnote`).
    if (first && starred && !starredRead.has(word) && !(g.destination === "info" && (infoLoc.has(word) || word === "ud"))) {
      this.group.destination = "skip"
      return
    }
    switch (word) {
      case "ansicpg":
        if (param !== undefined && param > 0) this.defaultPage = param
        return
      case "deff":
        if (param !== undefined) this.defaultFont = param
        return
      case "uc":
        if (param !== undefined && param >= 0) g.uc = Math.min(param, 8)
        return
      case "u": {
        if (param === undefined) return
        this.flushBytes()
        const code = param < 0 ? param + 65536 : param & 0xffff
        // A control character (\u13 for a field's carriage return) is no text; a tab is a space, as \tab.
        this.addText(code === 9 ? " " : code < 0x20 ? "" : String.fromCharCode(code))
        this.skipping = g.uc
        return
      }
      case "f":
        if (param === undefined) return
        if (g.destination === "fonttbl") this.fontBeingDefined = param
        else {
          this.flushBytes()
          g.font = param
          if (g.charClass !== undefined) g.classFonts[g.charClass] = param
        }
        return
      case "af":
        if (param !== undefined && g.destination !== "fonttbl" && !g.rtl && g.charClass !== undefined) {
          this.flushBytes()
          g.classFonts[g.charClass] = param
        }
        return
      case "rtlch":
        g.rtl = true
        return
      case "ltrch":
        g.rtl = false
        return
      case "plain":
        this.flushBytes()
        g.font = this.defaultFont
        g.classFonts = {}
        g.charClass = undefined
        g.rtl = false
        g.deleted = false
        return
      case "deleted":
        this.flushBytes()
        g.deleted = param !== 0
        return
      case "field":
        if (first) g.field = { instruction: "", result: false }
        return
      case "fldinst":
        if (g.field !== undefined) this.destination("fldinst")
        else g.destination = "skip"
        return
      case "fcharset":
        if (g.destination === "fonttbl" && param !== undefined && this.fontBeingDefined >= 0) {
          const page = charsetPages.get(param)
          if (page !== undefined) this.fontPages.set(this.fontBeingDefined, page)
        }
        return
      case "cpg":
        if (g.destination === "fonttbl" && param !== undefined && param > 0 && this.fontBeingDefined >= 0) this.fontPages.set(this.fontBeingDefined, param)
        return
      case "dbch":
      case "loch":
      case "hich":
        this.flushBytes()
        g.charClass = word
        return
      case "bin":
        if (param !== undefined && param > 0) this.binary(param)
        return
      case "fonttbl":
        g.destination = "fonttbl"
        return
      case "info":
        g.destination = "info"
        return
      case "header":
      case "headerl":
      case "headerr":
      case "headerf":
        this.destination("header")
        return
      case "footer":
      case "footerl":
      case "footerr":
      case "footerf":
        this.destination("footer")
        return
      case "footnote":
        this.destination("footnote", `footnote:${++this.counts.footnote}`)
        return
      case "ftnalt":
        // An endnote is a \footnote group that says \ftnalt.
        if (g.destination === "footnote") {
          this.counts.footnote--
          g.destination = "endnote"
          g.noteLoc = `endnote:${++this.counts.endnote}`
        }
        return
      case "annotation":
        this.destination("comment", `comment:${++this.counts.comment}`)
        return
      case "shpinst":
        g.destination = "skip"
        g.shape = true
        return
      case "par":
      case "cell":
      case "nestcell":
        this.flushBytes()
        this.endParagraph(g)
        return
    }
    if (g.destination === "info" && first) {
      // {\upr{\title ANSI}{\*\ud{\title Unicode}}}: both read, the Unicode one wins.
      if (word === "upr") return
      if (word === "ud") {
        g.unicodeProperties = true
        return
      }
      const loc = infoLoc.get(word)
      if (loc === undefined) g.destination = "skip"
      else {
        this.destination("property")
        g.property = loc
      }
      return
    }
    const text = characterWords.get(word)
    if (text !== undefined) {
      this.flushBytes()
      this.addText(text)
    }
  }

  private binary(length: number): void {
    this.binaryLeft = length
    this.state = State.Binary
  }
}

/** Destinations whose paragraphs are lines. */
const textDestinations: ReadonlySet<Destination> = new Set(["body", "header", "footer", "footnote", "endnote", "comment", "shape"])

/** Destinations marked `\*` that are read: comments, shapes' text, notes, a field's instruction (kept aside, see `rubyBase`). */
const starredRead: ReadonlySet<string> = new Set(["annotation", "shpinst", "shptxt", "footnote", "fldinst"])

/** The base text of a ruby field's instruction (`EQ \o\ad(\s\up 11(ふり),担当者)` → `担当者`), if it is one. */
function rubyBase(instruction: string): string | undefined {
  // Switches may come first (LibreOffice writes EQ \* jc2 \* "Font:…" \* hps10 \o\ad(…)).
  const m = /^\s*EQ\b.*?\\o\\a[a-z]*\(\\s\\up\s*-?\d+\([^()]*\),\s*([^()]*)\)/is.exec(instruction)
  return m?.[1]
}

const hexValue = (b: number): number => (b >= 0x30 && b <= 0x39 ? b - 0x30 : b >= 0x61 && b <= 0x66 ? b - 0x57 : b >= 0x41 && b <= 0x46 ? b - 0x37 : -1)

/** Bytes of the file read at a time. */
const pieceBytes = 64 * 1024

/**
 * Extracts the RTF document in `source` into `sink` (see the module doc).
 * Fails `too-large` past `maxFileBytes` or the budget, or with the sink's error.
 */
export const extractRtf = <E>(
  source: ZipSource,
  sink: ExtractionSink<E>,
  budget: LineBudget,
  limits: { readonly maxFileBytes: number }
): Effect.Effect<void, ExtractError | E> =>
  Effect.gen(function* () {
    if (source.size > limits.maxFileBytes) {
      return yield* Effect.fail(new ExtractError({ reason: "too-large", detail: `RTF file of ${source.size} bytes, over the limit of ${limits.maxFileBytes}` }))
    }
    budget.startPart()
    const reader = new RtfReader(budget)
    const asError = (e: unknown) => (e instanceof ExtractError ? e : new ExtractError({ reason: "corrupt", detail: `RTF: ${e instanceof Error ? e.message : String(e)}` }))
    for (let at = 0; at < source.size; at += pieceBytes) {
      const piece = source.read(at, Math.min(source.size, at + pieceBytes))
      yield* Effect.try({ try: () => reader.write(piece), catch: asError })
      if (piece.length < Math.min(pieceBytes, source.size - at)) break // the file shrank
    }
    yield* Effect.try({ try: () => reader.end(), catch: asError })
    const lines: Array<BodyLine> = [...reader.body]
    for (const more of [reader.headers, reader.footers, reader.footnotes, reader.endnotes, reader.comments]) for (const line of more) lines.push(line)
    const parts: Array<BodyPart> = [{ name: "document", locator: "paragraph", state: "visible", lines }]
    yield* emitParts(sink, budget, parts)
    const properties = infoProperties.flatMap(([, loc]) => {
      const text = reader.properties.get(loc)
      return text === undefined ? [] : [{ loc, text }]
    })
    yield* emitProperties(sink, budget, properties)
  }).pipe(Effect.withSpan("Extract.rtf"))
