/**
 * The fast path for sheet data (issue 20): a scanner over the text of a
 * worksheet's `<sheetData>`, written for the few elements that hold cells
 * (`row`, `c`, `v`, `f`, `is` with its runs and readings), that finds each
 * cell's `r`, `s` and `t` and its value with `indexOf` and character codes,
 * and hands the cell's text to the same {@link CellCollector} as the saxes
 * reader, with the same rules (`_worksheet.ts`, `_cell_text.ts`,
 * `_rich_string.ts`): no generic parser event, attribute object or
 * namespace lookup per element.
 *
 * What comes before `<sheetData>` and after `</sheetData>` (sheet
 * properties, merged areas, hyperlinks, headers and footers) still goes
 * through saxes ({@link XmlStream}) to the {@link WorksheetReader}, so the
 * part as a whole is checked as XML as before.
 *
 * The scanner reads only what it recognises and checks what saxes would
 * reject; anything else makes it give the sheet back (a
 * {@link SheetScanFallback} with the reason), and the sheet is read again by
 * the saxes path from its start, so the output is always the saxes path's.
 * What triggers the fallback: an element of another prefix inside
 * `sheetData` (`mc:AlternateContent`, extensions), a namespace declaration
 * there, an element where none belongs (anything but `row` in `sheetData`,
 * `c` in a row, `v`/`f`/`is` in a cell, an element in `v` or `f`), a
 * qualified `r`/`s`/`t` attribute, an entity other than the five XML ones or
 * a character reference to a character XML forbids, a DOCTYPE or an `<?xml`
 * declaration, a forbidden character, a mismatched or unclosed tag, a
 * duplicate, unquoted or unbound attribute, `]]>` or `--` where XML forbids
 * them, nesting past the depth limit, a single text or tag longer than
 * 1 MiB, and a `sheetData` that is not the worksheet's child in the
 * SpreadsheetML namespace (then the saxes path reads on without a restart).
 *
 * @module
 */
import { cellFormsOf, cellTextOf, type CellContext } from "./_cell_text.ts"
import { decodeXString } from "./_rich_string.ts"
import { type CellCollector, formulaText, maxColumn, maxRow, nextCellPosition, nextRowNumber } from "./_worksheet.ts"
import { ns, type XmlStream } from "./_xml.ts"

/** The scanner gives the sheet back to the saxes path; `reason` says why (for tests and profiles). */
export class SheetScanFallback {
  readonly reason: string
  constructor(reason: string) {
    this.reason = reason
  }
}

const fallback = (reason: string): never => {
  throw new SheetScanFallback(reason)
}

/** Characters XML 1.0 does not allow anywhere (saxes rejects them). */
const forbiddenChars = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/

/** The longest construct (a tag, a text, a comment) carried over from one piece of text to the next. */
const maxCarry = 1 << 20

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d

/** A character an XML name may hold (ASCII letters, digits, `._-:` and anything past ASCII). */
const isNameChar = (c: number) =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d || c === 0x2e || c === 0x3a || c >= 0x80

/** Whether `code` is a character XML 1.0 allows (for character references). */
const isXmlChar = (code: number) =>
  code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || (code >= 0x10000 && code <= 0x10ffff)

/** Decodes the five XML entities and character references of `text`, as saxes does; anything else falls back. */
export function decodeXmlEntities(text: string): string {
  let out = ""
  let from = 0
  for (let amp = text.indexOf("&"); amp >= 0; amp = text.indexOf("&", from)) {
    const semi = text.indexOf(";", amp + 1)
    if (semi < 0 || semi - amp > 12) fallback("an & that starts no entity")
    const name = text.slice(amp + 1, semi)
    let ch: string
    if (name === "amp") ch = "&"
    else if (name === "lt") ch = "<"
    else if (name === "gt") ch = ">"
    else if (name === "quot") ch = '"'
    else if (name === "apos") ch = "'"
    else if (/^#[0-9]+$/.test(name) || /^#x[0-9A-Fa-f]+$/.test(name)) {
      const code = name[1] === "x" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
      if (!isXmlChar(code)) fallback("a character reference to a character XML forbids")
      ch = String.fromCodePoint(code)
    } else {
      ch = fallback(`the entity &${name};`)
    }
    out += text.slice(from, amp) + ch
    from = semi + 1
  }
  return out + text.slice(from)
}

/** Whether `buf[from, to)` is the name `name`. */
const isName = (buf: string, from: number, to: number, name: string): boolean => to - from === name.length && buf.startsWith(name, from)

/** Whether the `length` characters of `buf` at `a` and at `b` are the same. */
function sameText(buf: string, a: number, b: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (buf.charCodeAt(a + k) !== buf.charCodeAt(b + k)) return false
  return true
}

/** The number `buf[from, to)` writes when it is 1 to 9 decimal digits and nothing else; -1 otherwise. */
function digitsValue(buf: string, from: number, to: number): number {
  if (to <= from || to - from > 9) return -1
  let n = 0
  for (let k = from; k < to; k++) {
    const d = buf.charCodeAt(k) - 0x30
    if (d < 0 || d > 9) return -1
    n = n * 10 + d
  }
  return n
}

/** A cell's style index from its `s` value at `buf[from, to)`, as `Number(value) || 0` reads it. */
function styleNumber(buf: string, from: number, to: number): number {
  const digits = digitsValue(buf, from, to)
  return digits >= 0 ? digits : Number(buf.slice(from, to)) || 0
}

/** Text as saxes gives it: line ends normalised (`\r\n` and `\r` are `\n`), then references decoded. */
const textOf = (raw: string): string => {
  let text = raw.indexOf("\r") >= 0 ? raw.replace(/\r\n?/g, "\n") : raw
  if (text.indexOf("&") >= 0) text = decodeXmlEntities(text)
  return text
}

/** Where an element stands, what is allowed inside it. */
const Level = { SheetData: 0, Row: 1, Cell: 2, Value: 3, Formula: 4, Inline: 5 } as const
type Level = (typeof Level)[keyof typeof Level]

/** What the scanner needs from the part around `sheetData`. */
export interface SheetScanContext {
  readonly cells: CellCollector
  readonly context: CellContext
  /** The prefix of the `sheetData` element (`""` for the default namespace); every element inside must carry it. */
  readonly prefix: string
  /** Namespace prefixes bound on the worksheet and sheetData elements (prefix → URI). */
  readonly declared: ReadonlyMap<string, string>
  /** The SpreadsheetML namespace URIs: an attribute in them named `r`, `s` or `t` is not the plain one the scanner reads. */
  readonly spreadsheetUris: ReadonlySet<string>
  /** How many more levels of elements the part may nest inside `sheetData`. */
  readonly depthLeft: number
}

/**
 * Scans the inside of one `sheetData`, piece by piece ({@link write}),
 * adding each cell with text to the collector. Throws
 * {@link SheetScanFallback} for what it does not read (see the module).
 */
export class SheetDataScanner {
  private carry = ""
  private readonly names: Array<string> = []
  private readonly levels: Array<Level> = []
  private readonly scan: SheetScanContext
  private readonly qRow: string
  private readonly qC: string
  private readonly qV: string
  private readonly qF: string
  private readonly qIs: string
  private readonly qT: string
  private readonly qRPh: string
  private readonly qSheetData: string
  // The row and cell being read (the same state as the saxes reader's).
  /** The last cell's place: the current row and the column of its previous cell (0, 0 before any). */
  private atCol = 0
  private atRow = 0
  private cellType = "n"
  private cellStyle = 0
  private value = ""
  private formula = ""
  private inline = ""
  private hasValue = false
  private phonetic = 0
  private textDepth = 0
  // The attributes r, s, t of the tag being read, found in the text without a copy where they need none.
  /** Where the `r` value stands in the text being read (-1: none, or see {@link attrRText}). */
  private attrRFrom = -1
  private attrRTo = -1
  /** The `r` value, normalised, when it needed normalising (a reference, a line end, a tab). */
  private attrRText: string | undefined
  /** The `s` value as `Number` reads it, 0 when absent or not a number. */
  private attrStyle = 0
  private attrT: string | undefined
  /** Which of `r` (1), `s` (2), `t` (4) the tag has. */
  private attrSeen = 0
  /** Where the tag's other attribute names stand in the text (for the duplicate check). */
  private readonly attrStarts: Array<number> = []
  private readonly attrEnds: Array<number> = []
  private attrCount = 0
  /** The last prefix looked up among the declared ones, and its URI. */
  private lastPrefix = ""
  private lastUri: string | undefined

  constructor(scan: SheetScanContext) {
    this.scan = scan
    const q = (local: string) => (scan.prefix === "" ? local : `${scan.prefix}:${local}`)
    this.qRow = q("row")
    this.qC = q("c")
    this.qV = q("v")
    this.qF = q("f")
    this.qIs = q("is")
    this.qT = q("t")
    this.qRPh = q("rPh")
    this.qSheetData = q("sheetData")
  }

  /**
   * Scans the next piece of the part's text. Returns `undefined` while still
   * inside `sheetData`, or the text from `</sheetData>` on (for the saxes
   * stream) once it closes.
   */
  write(text: string): string | undefined {
    if (forbiddenChars.test(text)) fallback("a character XML forbids")
    const buf = this.carry === "" ? text : this.carry + text
    this.carry = ""
    const n = buf.length
    let i = 0
    while (i < n) {
      const lt = buf.indexOf("<", i)
      if (lt < 0) return this.wait(buf, i)
      if (lt > i) this.text(buf, i, lt)
      const c1 = buf.charCodeAt(lt + 1)
      if (Number.isNaN(c1)) return this.wait(buf, lt)
      if (c1 === 0x2f) {
        // `</name>`: most often the name on top of the stack, then `>` (compared in place).
        const depth = this.names.length
        if (depth > 0) {
          const top = this.names[depth - 1] as string
          const after = lt + 2 + top.length
          if (buf.charCodeAt(after) === 0x3e && buf.startsWith(top, lt + 2)) {
            this.close()
            i = after + 1
            continue
          }
        }
        const gt = buf.indexOf(">", lt + 2)
        if (gt < 0) return this.wait(buf, lt)
        let end = gt
        while (end > lt + 2 && isSpace(buf.charCodeAt(end - 1))) end--
        const name = buf.slice(lt + 2, end)
        if (this.names.length === 0) {
          if (name !== this.qSheetData) fallback(`a closing tag </${name}> in sheetData`)
          return buf.slice(lt)
        }
        if (name !== this.names[this.names.length - 1]) fallback(`a closing tag </${name}> that closes nothing open`)
        this.close()
        i = gt + 1
      } else if (c1 === 0x21) {
        // `<!--`, `<![CDATA[`, or a declaration
        if (buf.startsWith("<!--", lt)) {
          const end = buf.indexOf("-->", lt + 4)
          if (end < 0) return this.wait(buf, lt)
          const inner = buf.indexOf("--", lt + 4)
          if (inner < end) fallback("-- inside a comment")
          i = end + 3
        } else if (buf.startsWith("<![CDATA[", lt)) {
          const end = buf.indexOf("]]>", lt + 9)
          if (end < 0) return this.wait(buf, lt)
          this.cdata(buf.slice(lt + 9, end))
          i = end + 3
        } else if (n - lt < 9 && ("<![CDATA[".startsWith(buf.slice(lt)) || "<!--".startsWith(buf.slice(lt)))) {
          return this.wait(buf, lt)
        } else {
          fallback("a markup declaration in sheetData")
        }
      } else if (c1 === 0x3f) {
        // `<?target …?>`: saxes reports processing instructions, the readers ignore them.
        const end = buf.indexOf("?>", lt + 2)
        if (end < 0) return this.wait(buf, lt)
        if (/^xml(?:\s|$)/i.test(buf.slice(lt + 2, Math.min(end, lt + 6)))) fallback("an XML declaration inside the part")
        i = end + 2
      } else {
        const end = this.open(buf, lt)
        if (end < 0) return this.wait(buf, lt)
        i = end
      }
    }
    return undefined
  }

  /** The part ended inside `sheetData`: the saxes path reports what is wrong. */
  end(): never {
    return fallback("the part ends inside sheetData")
  }

  /** Keeps `buf` from `from` for the next piece (a construct not complete yet). */
  private wait(buf: string, from: number): undefined {
    if (buf.length - from > maxCarry) fallback("a text or tag longer than 1 MiB")
    this.carry = buf.slice(from)
    return undefined
  }

  private top(): Level {
    return this.levels.length === 0 ? Level.SheetData : (this.levels[this.levels.length - 1] as Level)
  }

  /** Text between tags. */
  private text(buf: string, from: number, to: number): void {
    const level = this.top()
    if (level === Level.Value || level === Level.Formula || (level === Level.Inline && this.textDepth > 0)) {
      const raw = buf.slice(from, to)
      if (raw.indexOf("]]>") >= 0) fallback("]]> in text")
      this.route(textOf(raw))
      return
    }
    // Text the readers ignore (white space between tags, mostly): still checked as saxes checks it.
    for (let k = from; k < to; k++) {
      const c = buf.charCodeAt(k)
      if (!isSpace(c)) {
        const raw = buf.slice(k, to)
        if (raw.indexOf("]]>") >= 0) fallback("]]> in text")
        if (raw.indexOf("&") >= 0) decodeXmlEntities(raw)
        return
      }
    }
  }

  private cdata(raw: string): void {
    const level = this.top()
    if (level === Level.Value || level === Level.Formula || (level === Level.Inline && this.textDepth > 0)) {
      this.route(raw.indexOf("\r") >= 0 ? raw.replace(/\r\n?/g, "\n") : raw)
    }
  }

  private route(text: string): void {
    const level = this.top()
    if (level === Level.Inline) this.inline += text
    else if (level === Level.Value) this.value += text
    else this.formula += text
  }

  /**
   * Reads the start tag at `lt`: its name, its attributes (r, s and t
   * kept), its end. Returns the index after it, or -1 when the tag is not
   * complete in `buf`. Names and values are compared and read where they
   * stand in `buf`: a copy is made only of what is kept (`t`, an `r` that
   * needs normalising) or of what is odd (a qualified or an unknown name).
   */
  private open(buf: string, lt: number): number {
    const n = buf.length
    let j = lt + 1
    while (j < n && isNameChar(buf.charCodeAt(j))) j++
    if (j >= n) return -1
    const first = buf.charCodeAt(lt + 1)
    if (j === lt + 1 || (first >= 0x30 && first <= 0x39) || first === 0x2d || first === 0x2e || first === 0x3a) fallback("a < that starts no tag")
    const nameEnd = j
    this.attrRFrom = -1
    this.attrRText = undefined
    this.attrStyle = 0
    this.attrT = undefined
    this.attrSeen = 0
    this.attrCount = 0
    // Attributes, then `>` or `/>`.
    let selfClosing = false
    for (;;) {
      const start = j
      while (j < n && isSpace(buf.charCodeAt(j))) j++
      if (j >= n) return -1
      const c = buf.charCodeAt(j)
      if (c === 0x3e) {
        j++
        break
      }
      if (c === 0x2f) {
        if (j + 1 >= n) return -1
        if (buf.charCodeAt(j + 1) !== 0x3e) fallback("a / in a tag")
        selfClosing = true
        j += 2
        break
      }
      if (j === start) fallback("attributes without white space between them")
      const attrStart = j
      while (j < n && isNameChar(buf.charCodeAt(j))) j++
      if (j >= n) return -1
      if (j === attrStart) fallback("a character that starts no attribute")
      const attrEnd = j
      while (j < n && isSpace(buf.charCodeAt(j))) j++
      if (j >= n) return -1
      if (buf.charCodeAt(j) !== 0x3d) fallback("an attribute without =")
      j++
      while (j < n && isSpace(buf.charCodeAt(j))) j++
      if (j >= n) return -1
      const quote = buf.charCodeAt(j)
      if (quote !== 0x22 && quote !== 0x27) fallback("an attribute value without quotes")
      const close = buf.indexOf(quote === 0x22 ? '"' : "'", j + 1)
      if (close < 0) return -1
      this.attribute(buf, attrStart, attrEnd, j + 1, close)
      j = close + 1
    }
    if (this.names.length >= this.scan.depthLeft) fallback("elements nested past the depth limit")
    this.element(buf, lt + 1, nameEnd, selfClosing)
    return j
  }

  /**
   * One attribute of the tag being read, its name at `buf[nameFrom, nameTo)`
   * and its value at `buf[from, to)`: checked, and kept when it is `r`, `s`
   * or `t`.
   */
  private attribute(buf: string, nameFrom: number, nameTo: number, from: number, to: number): void {
    const length = nameTo - nameFrom
    const c0 = buf.charCodeAt(nameFrom)
    const ours = length === 1 && (c0 === 0x72 || c0 === 0x73 || c0 === 0x74)
    if (ours) {
      const bit = 1 << (c0 - 0x72)
      if ((this.attrSeen & bit) !== 0) fallback(`the attribute ${String.fromCharCode(c0)} twice`)
      this.attrSeen |= bit
    } else {
      for (let k = 0; k < this.attrCount; k++) {
        const at = this.attrStarts[k] as number
        if ((this.attrEnds[k] as number) - at === length && sameText(buf, at, nameFrom, length)) fallback(`the attribute ${buf.slice(nameFrom, nameTo)} twice`)
      }
      this.attrStarts[this.attrCount] = nameFrom
      this.attrEnds[this.attrCount++] = nameTo
    }
    // One pass for what needs a closer look: a character below space (line ends, tabs), & or <.
    let plain = true
    for (let k = from; k < to; k++) {
      const c = buf.charCodeAt(k)
      if (c < 0x20 || c === 0x26 || c === 0x3c) {
        plain = false
        break
      }
    }
    const raw = plain ? "" : buf.slice(from, to)
    if (!plain && raw.indexOf("<") >= 0) fallback("a < in an attribute value")
    if (!ours) {
      let colon = -1
      for (let k = nameFrom; k < nameTo; k++) {
        if (buf.charCodeAt(k) === 0x3a) {
          colon = k
          break
        }
      }
      if (colon >= 0) return this.qualified(buf, nameFrom, nameTo, colon)
      if (length === 5 && buf.startsWith("xmlns", nameFrom)) fallback("a namespace declaration inside sheetData")
      if ((c0 >= 0x30 && c0 <= 0x39) || c0 === 0x2d || c0 === 0x2e) fallback(`the attribute name ${buf.slice(nameFrom, nameTo)}`)
      if (!plain && raw.indexOf("&") >= 0) decodeXmlEntities(raw)
      return
    }
    // Attribute-value normalisation as saxes does it: line ends, then white space characters as spaces, then references.
    let value: string | undefined
    if (!plain) {
      value = raw.replace(/\r\n?/g, "\n").replace(/[\t\n]/g, " ")
      if (value.indexOf("&") >= 0) value = decodeXmlEntities(value)
    }
    if (c0 === 0x72) {
      if (value === undefined) {
        this.attrRFrom = from
        this.attrRTo = to
      } else {
        this.attrRText = value
      }
    } else if (c0 === 0x73) {
      this.attrStyle = value === undefined ? styleNumber(buf, from, to) : Number(value) || 0
    } else {
      this.attrT = value ?? buf.slice(from, to)
    }
  }

  /** A qualified attribute name (`prefix:local`, the colon at `colon`): checked as saxes checks it; its value is not read. */
  private qualified(buf: string, nameFrom: number, nameTo: number, colon: number): void {
    const length = colon - nameFrom
    let uri: string | undefined
    if (length > 0 && length === this.lastPrefix.length && buf.startsWith(this.lastPrefix, nameFrom)) {
      uri = this.lastUri
    } else {
      const prefix = buf.slice(nameFrom, colon)
      if (prefix === "xmlns") fallback("a namespace declaration inside sheetData")
      if (colon === nameFrom || colon === nameTo - 1) fallback(`the attribute name ${buf.slice(nameFrom, nameTo)}`)
      if (prefix === "xml") uri = undefined
      else {
        uri = this.scan.declared.get(prefix)
        if (uri === undefined) fallback(`the unbound prefix of ${buf.slice(nameFrom, nameTo)}`)
      }
      this.lastPrefix = prefix
      this.lastUri = uri
    }
    for (let k = colon + 1; k < nameTo; k++) if (buf.charCodeAt(k) === 0x3a) fallback(`the attribute name ${buf.slice(nameFrom, nameTo)}`)
    if (colon === nameTo - 1) fallback(`the attribute name ${buf.slice(nameFrom, nameTo)}`)
    if (uri === undefined) return
    const local = buf.charCodeAt(colon + 1)
    if (nameTo - colon === 2 && (local === 0x72 || local === 0x73 || local === 0x74) && this.scan.spreadsheetUris.has(uri)) {
      fallback(`a qualified ${buf.slice(nameFrom, nameTo)}`)
    }
  }

  /** The number of the row a `<row>` start tag opens ({@link nextRowNumber} on its `r`). */
  private rowNumber(buf: string): number {
    if (this.attrRFrom >= 0) {
      const digits = digitsValue(buf, this.attrRFrom, this.attrRTo)
      return digits > 0 ? digits : nextRowNumber(digits === 0 ? "0" : buf.slice(this.attrRFrom, this.attrRTo), this.atRow)
    }
    return nextRowNumber(this.attrRText, this.atRow)
  }

  /** Places the cell a `<c>` start tag opens ({@link nextCellPosition} on its `r`) in {@link atCol} and {@link atRow}. */
  private placeCell(buf: string): void {
    if (this.attrRFrom >= 0) {
      // parseCellReference, read where the value stands: up to four letters, then digits, both in Excel's range.
      const to = this.attrRTo
      let i = this.attrRFrom
      let col = 0
      for (; i < to && i < this.attrRFrom + 4; i++) {
        const c = buf.charCodeAt(i) | 0x20
        if (c < 0x61 || c > 0x7a) break
        col = col * 26 + (c - 0x60)
      }
      if (col > 0 && col <= maxColumn && i < to) {
        let row = 0
        for (; i < to; i++) {
          const d = buf.charCodeAt(i) - 0x30
          if (d < 0 || d > 9) break
          row = row * 10 + d
        }
        if (i === to && row > 0 && row <= maxRow) {
          this.atCol = col
          this.atRow = row
          return
        }
      }
    } else if (this.attrRText !== undefined) {
      const at = nextCellPosition(this.attrRText, { col: this.atCol, row: this.atRow })
      this.atCol = at.col
      this.atRow = at.row
      return
    }
    this.atCol++
    if (this.atRow === 0) this.atRow = 1
  }

  /** An element opened, its name at `buf[from, to)` (and closed again when `selfClosing`). */
  private element(buf: string, from: number, to: number, selfClosing: boolean): void {
    const level = this.top()
    let inner: Level
    let name: string
    switch (level) {
      case Level.SheetData:
        if (!isName(buf, from, to, this.qRow)) return this.unexpected(buf.slice(from, to), "sheetData")
        name = this.qRow
        this.atRow = this.rowNumber(buf)
        this.atCol = 0
        inner = Level.Row
        break
      case Level.Row: {
        if (!isName(buf, from, to, this.qC)) return this.unexpected(buf.slice(from, to), "a row")
        name = this.qC
        this.placeCell(buf)
        this.cellType = this.attrT ?? "n"
        this.cellStyle = this.attrStyle
        this.value = ""
        this.formula = ""
        this.inline = ""
        this.hasValue = false
        inner = Level.Cell
        break
      }
      case Level.Cell:
        if (isName(buf, from, to, this.qV)) {
          name = this.qV
          this.hasValue = true
          inner = Level.Value
        } else if (isName(buf, from, to, this.qF)) {
          name = this.qF
          inner = Level.Formula
        } else if (isName(buf, from, to, this.qIs)) {
          name = this.qIs
          this.hasValue = true
          this.phonetic = 0
          this.textDepth = 0
          inner = Level.Inline
        } else {
          return this.unexpected(buf.slice(from, to), "a cell")
        }
        break
      case Level.Inline:
        // Runs, run properties, readings: read like the saxes path's rich-string reader.
        name = buf.slice(from, to)
        if (!this.ownPrefix(name)) return this.unexpected(name, "an inline string")
        if (name === this.qRPh) this.phonetic++
        else if (this.phonetic === 0 && name === this.qT) this.textDepth++
        inner = Level.Inline
        break
      default:
        return this.unexpected(buf.slice(from, to), "a value or formula")
    }
    if (selfClosing) {
      this.closeElement(name, inner)
      return
    }
    this.names.push(name)
    this.levels.push(inner)
  }

  private ownPrefix(name: string): boolean {
    const p = this.scan.prefix
    if (p === "") return name.indexOf(":") < 0
    return name.length > p.length + 1 && name.charCodeAt(p.length) === 0x3a && name.startsWith(p) && name.indexOf(":", p.length + 1) < 0
  }

  private unexpected(name: string, where: string): never {
    return fallback(`the element <${name}> in ${where}`)
  }

  /** The element on top of the stack closes. */
  private close(): void {
    const name = this.names.pop() as string
    const level = this.levels.pop() as Level
    this.closeElement(name, level)
  }

  private closeElement(name: string, level: Level): void {
    if (level === Level.Cell) {
      const text = this.hasValue
        ? cellTextOf(this.cellType, this.cellStyle, this.value, decodeXString(this.inline), this.scan.context)
        : formulaText(this.formula)
      if (text !== "") {
        this.scan.cells.add(this.atRow, this.atCol, text, this.hasValue ? cellFormsOf(this.cellType, this.cellStyle, this.value, text, this.scan.context) : "")
      }
    } else if (level === Level.Inline && this.top() === Level.Inline) {
      // An element inside the inline string closes (the string itself closes with the cell's Inline → Cell step).
      if (name === this.qRPh) this.phonetic--
      else if (this.phonetic === 0 && name === this.qT) this.textDepth--
    }
  }
}

/** Where the reader of a worksheet part stands. */
const Mode = {
  /** Before `<sheetData>`: text waits until its start tag is seen whole. */
  Prefix: 0,
  /** Inside `sheetData`: the scanner reads. */
  Data: 1,
  /** After `</sheetData>`, or a part the scanner does not read: saxes reads. */
  Saxes: 2,
  /** The scanner gave up: the rest of the part is not read. */
  Abandoned: 3
} as const
type Mode = (typeof Mode)[keyof typeof Mode]

/** How the fast path read a sheet: `fast`, or `saxes` (read on by saxes without a restart, reason given), or `fallback` (restart). */
export type SheetScanOutcome =
  | { readonly _tag: "fast" }
  | { readonly _tag: "saxes"; readonly reason: string }
  | { readonly _tag: "fallback"; readonly reason: string }

/**
 * Finds the start tag of the first element named `sheetData` (any prefix) in
 * `text` from `from`, skipping comments, processing instructions and CDATA:
 * its start, its end (after `>`), and whether it closes itself. `incomplete`
 * when the text ends before it is known; `doctype` for a DOCTYPE (saxes
 * refuses it).
 */
function findSheetData(text: string, from: number): { start: number; end: number; selfClosing: boolean } | "incomplete" | "doctype" {
  let i = from
  for (;;) {
    const lt = text.indexOf("<", i)
    if (lt < 0 || lt + 1 >= text.length) return "incomplete"
    if (text.startsWith("<!--", lt)) {
      const end = text.indexOf("-->", lt + 4)
      if (end < 0) return "incomplete"
      i = end + 3
      continue
    }
    if (text.startsWith("<![CDATA[", lt)) {
      const end = text.indexOf("]]>", lt + 9)
      if (end < 0) return "incomplete"
      i = end + 3
      continue
    }
    if (text.charCodeAt(lt + 1) === 0x21) {
      if (text.length - lt < 9) return "incomplete"
      return "doctype"
    }
    if (text.charCodeAt(lt + 1) === 0x3f) {
      const end = text.indexOf("?>", lt + 2)
      if (end < 0) return "incomplete"
      i = end + 2
      continue
    }
    // A tag: its name, then its end, past quoted attribute values.
    let j = lt + 1
    if (text.charCodeAt(j) === 0x2f) j++
    const nameStart = j
    while (j < text.length && isNameChar(text.charCodeAt(j))) j++
    if (j >= text.length) return "incomplete"
    const name = text.slice(nameStart, j)
    let quote = 0
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j)
      if (quote !== 0) {
        if (c === quote) quote = 0
      } else if (c === 0x22 || c === 0x27) {
        quote = c
      } else if (c === 0x3e) {
        break
      }
    }
    if (j >= text.length) return "incomplete"
    const local = name.slice(name.indexOf(":") + 1)
    if (local === "sheetData" && nameStart === lt + 1) return { start: lt, end: j + 1, selfClosing: text.charCodeAt(j - 1) === 0x2f }
    i = j + 1
  }
}

/** The most text held before `<sheetData>` is found; past it, saxes reads the part. */
const maxPrefix = 1 << 20

/**
 * Reads the worksheet part `write`'s text comes from (see
 * `OpcPackage.readText`): the text around `sheetData` goes to `stream` (the
 * saxes stream of the worksheet reader), the text inside to a
 * {@link SheetDataScanner} adding to `cells`. Call {@link write} with each
 * piece, then {@link finish}; `outcome` says how it went. A fallback leaves
 * the cells added so far in the collector: the caller drops them and reads
 * the sheet again with saxes.
 */
export class WorksheetScan {
  outcome: SheetScanOutcome = { _tag: "fast" }
  private mode: Mode = Mode.Prefix
  private pending = ""
  private scanner: SheetDataScanner | undefined
  private readonly stream: XmlStream
  private readonly cells: CellCollector
  private readonly context: CellContext
  private readonly maxDepth: number

  constructor(stream: XmlStream, cells: CellCollector, context: CellContext, maxDepth: number) {
    this.stream = stream
    this.cells = cells
    this.context = context
    this.maxDepth = maxDepth
  }

  /** The next piece of the part's text. Throws what saxes throws (malformed XML outside sheetData). */
  write(text: string): void {
    try {
      this.step(text)
    } catch (e) {
      if (!(e instanceof SheetScanFallback)) throw e
      this.outcome = { _tag: "fallback", reason: e.reason }
      this.mode = Mode.Abandoned
    }
  }

  /** The part has ended. Throws what saxes throws at the end. */
  finish(): void {
    if (this.mode === Mode.Prefix) {
      this.saxes(this.pending, "no sheetData element")
      this.pending = ""
    }
    if (this.mode === Mode.Data) {
      this.outcome = { _tag: "fallback", reason: "the part ends inside sheetData" }
      this.mode = Mode.Abandoned
    }
    if (this.mode === Mode.Saxes) this.stream.close()
  }

  private saxes(text: string, reason: string): void {
    this.mode = Mode.Saxes
    if (this.outcome._tag === "fast") this.outcome = { _tag: "saxes", reason }
    if (text !== "") this.stream.write(text)
  }

  private step(text: string): void {
    switch (this.mode) {
      case Mode.Abandoned:
        return
      case Mode.Saxes:
        this.stream.write(text)
        return
      case Mode.Data: {
        const rest = (this.scanner as SheetDataScanner).write(text)
        if (rest !== undefined) {
          this.mode = Mode.Saxes
          this.stream.write(rest)
        }
        return
      }
      case Mode.Prefix: {
        this.pending += text
        // The text before sheetData is short (sheet properties, views, columns): searched again whole as it grows.
        const found = findSheetData(this.pending, 0)
        if (found === "incomplete") {
          if (this.pending.length > maxPrefix) {
            const all = this.pending
            this.pending = ""
            this.saxes(all, "no sheetData in the first MiB")
          }
          return
        }
        const all = this.pending
        this.pending = ""
        if (found === "doctype") return this.saxes(all, "a DOCTYPE")
        this.stream.write(all.slice(0, found.end))
        const tag = this.stream.lastOpened
        const inPlace =
          tag !== undefined && tag.local === "sheetData" && ns.spreadsheet.has(tag.uri) && this.stream.depth === (found.selfClosing ? 1 : 2) && !this.stream.skipping
        if (!inPlace) return this.saxes(all.slice(found.end), "sheetData is not the worksheet's SpreadsheetML child")
        if (found.selfClosing) {
          // `<sheetData/>`: no cells to scan.
          this.mode = Mode.Saxes
          this.stream.write(all.slice(found.end))
          return
        }
        const spreadsheetUris = new Set([...this.stream.declared.values()].filter((uri) => ns.spreadsheet.has(uri)))
        this.scanner = new SheetDataScanner({
          cells: this.cells,
          context: this.context,
          prefix: tag.prefix,
          declared: this.stream.declared,
          spreadsheetUris,
          depthLeft: this.maxDepth - 2
        })
        this.mode = Mode.Data
        return this.step(all.slice(found.end))
      }
    }
  }
}
