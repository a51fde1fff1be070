/**
 * The fast path's XML scanner (issue 20): the text inside one element of a
 * SpreadsheetML part whose children the reader knows — a worksheet's
 * `sheetData` (`_sheet_scan.ts`), the shared-string table's `sst`
 * (`_shared_strings.ts`) — read with `indexOf` and character codes, no
 * generic parser event, attribute object or namespace lookup per element.
 * A subclass says which elements may stand where and which text it keeps;
 * this module reads tags, attributes, text, comments, CDATA and processing
 * instructions, and checks what saxes would reject.
 *
 * What comes before the element and after its end tag still goes through
 * saxes ({@link XmlStream}), so the part as a whole is checked as XML as
 * before ({@link PartScan}). Anything the scanner does not read makes it
 * give the part back (a {@link ScanFallback} with the reason), and the part
 * is read again by the saxes path from its start, so the output is always
 * the saxes path's: an element of another prefix inside (`mc:AlternateContent`,
 * extensions), a namespace declaration there, an element the subclass does
 * not expect, an entity other than the five XML ones or a character
 * reference to a character XML forbids, a DOCTYPE or an `<?xml` declaration,
 * a forbidden character, a mismatched or unclosed tag, a duplicate, unquoted
 * or unbound attribute, `]]>` or `--` where XML forbids them, nesting past
 * the depth limit, a single text or tag longer than 1 MiB. An element that is
 * not where SpreadsheetML puts it is left to saxes without a restart.
 *
 * @module
 */
import { ns, type XmlStream } from "./_xml.ts"

/** The scanner gives the part back to the saxes path; `reason` says why (for tests and profiles). */
export class ScanFallback {
  readonly reason: string
  constructor(reason: string) {
    this.reason = reason
  }
}

/** Gives the part back: throws a {@link ScanFallback}. */
export const fallback = (reason: string): never => {
  throw new ScanFallback(reason)
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
function decodeXmlEntities(text: string): string {
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
export const isName = (buf: string, from: number, to: number, name: string): boolean => to - from === name.length && buf.startsWith(name, from)

/** Whether the `length` characters of `buf` at `a` and at `b` are the same. */
function sameText(buf: string, a: number, b: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (buf.charCodeAt(a + k) !== buf.charCodeAt(b + k)) return false
  return true
}

/** The number `buf[from, to)` writes when it is 1 to 9 decimal digits and nothing else; -1 otherwise. */
export function digitsValue(buf: string, from: number, to: number): number {
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

/** What a scanner needs from the part around its element. */
export interface ScanContext {
  /** The prefix of the element (`""` for the default namespace); every element inside must carry it. */
  readonly prefix: string
  /** Namespace prefixes bound on the element and its ancestors up to depth 2 (prefix → URI). */
  readonly declared: ReadonlyMap<string, string>
  /** The SpreadsheetML namespace URIs: an attribute in them named `r`, `s` or `t` is not the plain one the scanner reads. */
  readonly spreadsheetUris: ReadonlySet<string>
  /** How many more levels of elements the part may nest inside the element. */
  readonly depthLeft: number
}

/**
 * Scans the inside of one element, piece by piece ({@link write}). Levels
 * are the subclass's numbers, 0 being the element itself; the subclass
 * opens elements ({@link element}, then {@link enter}), closes them
 * ({@link closeElement}) and takes the text of the levels it
 * {@link collects} ({@link route}). The attributes `r`, `s` and `t` of the
 * tag being read are kept for it (the sheet's cells). Throws
 * {@link ScanFallback} for what it does not read (see the module).
 */
export abstract class ElementScanner {
  private carry = ""
  protected readonly names: Array<string> = []
  protected readonly levels: Array<number> = []
  protected readonly scan: ScanContext
  private readonly containerLocal: string
  private readonly qContainer: string
  // The attributes r, s, t of the tag being read, found in the text without a copy where they need none.
  /** Where the `r` value stands in the text being read (-1: none, or see {@link attrRText}). */
  protected attrRFrom = -1
  protected attrRTo = -1
  /** The `r` value, normalised, when it needed normalising (a reference, a line end, a tab). */
  protected attrRText: string | undefined
  /** The `s` value as `Number` reads it, 0 when absent or not a number. */
  protected attrStyle = 0
  protected attrT: string | undefined
  /** Which of `r` (1), `s` (2), `t` (4) the tag has. */
  private attrSeen = 0
  /** Where the tag's other attribute names stand in the text (for the duplicate check). */
  private readonly attrStarts: Array<number> = []
  private readonly attrEnds: Array<number> = []
  private attrCount = 0
  /** The last prefix looked up among the declared ones, and its URI. */
  private lastPrefix = ""
  private lastUri: string | undefined
  // Inside a rich string (an inline string's `is`, a shared string's `si`): readings and text runs
  // counted as RichStringReader counts them (`_rich_string.ts`).
  private readonly qT: string
  private readonly qRPh: string
  private phonetic = 0
  /** `t` elements open outside a reading: the rich string's text is kept while above 0. */
  protected textDepth = 0

  /** A scanner of the inside of the element named `local` (with `scan.prefix`). */
  constructor(scan: ScanContext, local: string) {
    this.scan = scan
    this.containerLocal = local
    this.qContainer = this.qualify(local)
    this.qT = this.qualify("t")
    this.qRPh = this.qualify("rPh")
  }

  /** A rich string begins: no reading or text run open. */
  protected startRich(): void {
    this.phonetic = 0
    this.textDepth = 0
  }

  /** An element named `name` opened inside a rich string. */
  protected richOpen(name: string): void {
    if (name === this.qRPh) this.phonetic++
    else if (this.phonetic === 0 && name === this.qT) this.textDepth++
  }

  /** An element named `name` inside a rich string closed. */
  protected richClose(name: string): void {
    if (name === this.qRPh) this.phonetic--
    else if (this.phonetic === 0 && name === this.qT) this.textDepth--
  }

  /** `local` with the element's prefix, as the names inside are written. */
  protected qualify(local: string): string {
    return this.scan.prefix === "" ? local : `${this.scan.prefix}:${local}`
  }

  /** Whether the text of an element at `level` is kept (given to {@link route}). */
  protected abstract collects(level: number): boolean

  /** Text (references decoded, line ends normalised) inside an element at a level it {@link collects}. */
  protected abstract route(text: string): void

  /** An element opened, its name at `buf[from, to)`; the subclass checks it and calls {@link enter} (or falls back). */
  protected abstract element(buf: string, from: number, to: number, selfClosing: boolean): void

  /** An element at `level` closed (`name` as written). */
  protected abstract closeElement(name: string, level: number): void

  /**
   * Scans the next piece of the part's text. Returns `undefined` while still
   * inside the element, or the text from its end tag on (for the saxes
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
          if (name !== this.qContainer) fallback(`a closing tag </${name}> in ${this.containerLocal}`)
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
          fallback(`a markup declaration in ${this.containerLocal}`)
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

  /** The part ended inside the element: the saxes path reports what is wrong. */
  end(): never {
    return fallback(`the part ends inside ${this.containerLocal}`)
  }

  /** Keeps `buf` from `from` for the next piece (a construct not complete yet). */
  private wait(buf: string, from: number): undefined {
    if (buf.length - from > maxCarry) fallback("a text or tag longer than 1 MiB")
    this.carry = buf.slice(from)
    return undefined
  }

  /** The level of the innermost open element (0: the scanned element itself). */
  protected top(): number {
    return this.levels.length === 0 ? 0 : (this.levels[this.levels.length - 1] as number)
  }

  /** Opens `name` at `level` (closed again at once when `selfClosing`). */
  protected enter(name: string, level: number, selfClosing: boolean): void {
    if (selfClosing) {
      this.closeElement(name, level)
      return
    }
    this.names.push(name)
    this.levels.push(level)
  }

  /** Text between tags. */
  private text(buf: string, from: number, to: number): void {
    if (this.collects(this.top())) {
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

  /** A CDATA section's text. */
  private cdata(raw: string): void {
    if (this.collects(this.top())) {
      this.route(raw.indexOf("\r") >= 0 ? raw.replace(/\r\n?/g, "\n") : raw)
    }
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
      if (length === 5 && buf.startsWith("xmlns", nameFrom)) fallback(`a namespace declaration inside ${this.containerLocal}`)
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
      if (prefix === "xmlns") fallback(`a namespace declaration inside ${this.containerLocal}`)
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

  /** Whether `name` carries the element's own prefix and no other. */
  protected ownPrefix(name: string): boolean {
    const p = this.scan.prefix
    if (p === "") return name.indexOf(":") < 0
    return name.length > p.length + 1 && name.charCodeAt(p.length) === 0x3a && name.startsWith(p) && name.indexOf(":", p.length + 1) < 0
  }

  protected unexpected(name: string, where: string): never {
    return fallback(`the element <${name}> in ${where}`)
  }

  /** The element on top of the stack closes. */
  private close(): void {
    const name = this.names.pop() as string
    const level = this.levels.pop() as number
    this.closeElement(name, level)
  }

}

/** Where the reader of a part stands. */
const Mode = {
  /** Before the element: text waits until its start tag is seen whole. */
  Prefix: 0,
  /** Inside the element: the scanner reads. */
  Data: 1,
  /** After its end tag, or a part the scanner does not read: saxes reads. */
  Saxes: 2,
  /** The scanner gave up: the rest of the part is not read. */
  Abandoned: 3
} as const
type Mode = (typeof Mode)[keyof typeof Mode]

/** How the fast path read a part: `fast`, or `saxes` (read on by saxes without a restart, reason given), or `fallback` (restart). */
export type ScanOutcome =
  | { readonly _tag: "fast" }
  | { readonly _tag: "saxes"; readonly reason: string }
  | { readonly _tag: "fallback"; readonly reason: string }

/**
 * Finds the start tag of the first element named `local` (any prefix) in
 * `text` from `from`, skipping comments, processing instructions and CDATA:
 * its start, its end (after `>`), and whether it closes itself. `incomplete`
 * when the text ends before it is known; `doctype` for a DOCTYPE (saxes
 * refuses it).
 */
function findStartTag(text: string, from: number, local: string): { start: number; end: number; selfClosing: boolean } | "incomplete" | "doctype" {
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
    if (name.slice(name.indexOf(":") + 1) === local && nameStart === lt + 1) return { start: lt, end: j + 1, selfClosing: text.charCodeAt(j - 1) === 0x2f }
    i = j + 1
  }
}

/** The most text held before the element's start tag is found; past it, saxes reads the part. */
const maxPrefix = 1 << 20

/**
 * Reads a part whose text `write` is given piece by piece (see
 * `OpcPackage.readText`): the text around the element named `local` goes to
 * `stream` (the saxes stream of the part's reader), the text inside to the
 * scanner `open` makes once the element is found where SpreadsheetML puts it
 * (at `depth`: 1 for the root, 2 for a child of the root). Call
 * {@link write} with each piece, then {@link finish}; `outcome` says how it
 * went. After a fallback the caller drops what the scanner gave and reads
 * the part again with saxes.
 */
export class PartScan {
  outcome: ScanOutcome = { _tag: "fast" }
  private mode: Mode = Mode.Prefix
  private pending = ""
  private scanner: ElementScanner | undefined
  private readonly stream: XmlStream
  private readonly local: string
  private readonly depth: number
  private readonly open: (scan: ScanContext) => ElementScanner
  private readonly maxDepth: number

  constructor(stream: XmlStream, local: string, depth: number, open: (scan: ScanContext) => ElementScanner, maxDepth: number) {
    this.stream = stream
    this.local = local
    this.depth = depth
    this.open = open
    this.maxDepth = maxDepth
  }

  /** The next piece of the part's text. Throws what saxes throws (malformed XML outside the element). */
  write(text: string): void {
    try {
      this.step(text)
    } catch (e) {
      if (!(e instanceof ScanFallback)) throw e
      this.outcome = { _tag: "fallback", reason: e.reason }
      this.mode = Mode.Abandoned
    }
  }

  /** The part has ended. Throws what saxes throws at the end. */
  finish(): void {
    if (this.mode === Mode.Prefix) {
      this.saxes(this.pending, `no ${this.local} element`)
      this.pending = ""
    }
    if (this.mode === Mode.Data) {
      this.outcome = { _tag: "fallback", reason: `the part ends inside ${this.local}` }
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
        const rest = (this.scanner as ElementScanner).write(text)
        if (rest !== undefined) {
          this.mode = Mode.Saxes
          this.stream.write(rest)
        }
        return
      }
      case Mode.Prefix: {
        this.pending += text
        // The text before the element is short (a declaration, sheet properties, views, columns): searched again whole as it grows.
        const found = findStartTag(this.pending, 0, this.local)
        if (found === "incomplete") {
          if (this.pending.length > maxPrefix) {
            const all = this.pending
            this.pending = ""
            this.saxes(all, `no ${this.local} in the first MiB`)
          }
          return
        }
        const all = this.pending
        this.pending = ""
        if (found === "doctype") return this.saxes(all, "a DOCTYPE")
        this.stream.write(all.slice(0, found.end))
        const tag = this.stream.lastOpened
        const inPlace =
          tag !== undefined &&
          tag.local === this.local &&
          ns.spreadsheet.has(tag.uri) &&
          this.stream.depth === (found.selfClosing ? this.depth - 1 : this.depth) &&
          !this.stream.skipping
        if (!inPlace) return this.saxes(all.slice(found.end), `${this.local} is not where SpreadsheetML puts it`)
        if (found.selfClosing) {
          // An empty element (`<sheetData/>`): nothing to scan.
          this.mode = Mode.Saxes
          this.stream.write(all.slice(found.end))
          return
        }
        const spreadsheetUris = new Set([...this.stream.declared.values()].filter((uri) => ns.spreadsheet.has(uri)))
        this.scanner = this.open({ prefix: tag.prefix, declared: this.stream.declared, spreadsheetUris, depthLeft: this.maxDepth - this.depth })
        this.mode = Mode.Data
        return this.step(all.slice(found.end))
      }
    }
  }
}
