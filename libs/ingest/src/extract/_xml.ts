/**
 * Namespace-aware streaming XML for OOXML parts: saxes without its own
 * namespace processing, elements resolved here ({@link NamespaceResolver})
 * and matched by namespace URI + local name (BUG-03: `x:workbook` is the
 * same element as `workbook`), transitional and Strict URIs alike, Markup
 * Compatibility (`mc:AlternateContent`) resolved once here for every format.
 *
 * @module
 */
import { TextDecoder } from "node:util"
import { Effect } from "effect"
import { SaxesParser, type SaxesTagPlain } from "saxes"
import { ExtractError } from "./extract_error.ts"

/** A set of namespace URIs that mean the same vocabulary (transitional and Strict). */
export type Namespace = ReadonlySet<string>

const namespace = (...uris: ReadonlyArray<string>): Namespace => new Set(uris)

/** The vocabularies the extractors read. */
export const ns = {
  spreadsheet: namespace(
    "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
    "http://purl.oclc.org/ooxml/spreadsheetml/main"
  ),
  word: namespace(
    "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
    "http://purl.oclc.org/ooxml/wordprocessingml/main"
  ),
  presentation: namespace(
    "http://schemas.openxmlformats.org/presentationml/2006/main",
    "http://purl.oclc.org/ooxml/presentationml/main"
  ),
  drawing: namespace(
    "http://schemas.openxmlformats.org/drawingml/2006/main",
    "http://purl.oclc.org/ooxml/drawingml/main"
  ),
  math: namespace(
    "http://schemas.openxmlformats.org/officeDocument/2006/math",
    "http://purl.oclc.org/ooxml/officeDocument/math"
  ),
  /** Worksheet drawings (`xdr:`): anchors of shapes, pictures and charts on a sheet. */
  sheetDrawing: namespace(
    "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing",
    "http://purl.oclc.org/ooxml/drawingml/spreadsheetDrawing"
  ),
  chart: namespace("http://schemas.openxmlformats.org/drawingml/2006/chart", "http://purl.oclc.org/ooxml/drawingml/chart"),
  /** Office 2016 charts (`cx:`: waterfall, treemap, …). */
  chartEx: namespace("http://schemas.microsoft.com/office/drawing/2014/chartex"),
  diagram: namespace("http://schemas.openxmlformats.org/drawingml/2006/diagram", "http://purl.oclc.org/ooxml/drawingml/diagram"),
  threadedComments: namespace("http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments"),
  /** Attributes such as `r:id` that point into the part's relationships. */
  relationshipRef: namespace(
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
    "http://purl.oclc.org/ooxml/officeDocument/relationships"
  ),
  /** The `.rels` parts themselves (one URI in both conformance classes). */
  packageRelationships: namespace("http://schemas.openxmlformats.org/package/2006/relationships"),
  compatibility: namespace("http://schemas.openxmlformats.org/markup-compatibility/2006")
} as const

/** An element as the visitor sees it, its name resolved against the namespace declarations in scope. */
export interface XmlTag {
  /** The qualified name as written (`w:p`). */
  readonly name: string
  /** The prefix (`w`), "" for none. */
  readonly prefix: string
  /** The local name (`p`). */
  readonly local: string
  /** The namespace URI of the prefix ("" for no prefix and no default namespace). */
  readonly uri: string
  /** The attributes by qualified name, as written (`w:val` → `"single"`): read them with {@link attribute}. */
  readonly attributes: Readonly<Record<string, string>>
  /** The namespace declarations on this element itself (prefix → URI, "" the default namespace). */
  readonly ns: Readonly<Record<string, string>>
  /** The declarations in scope at this element, its own included. */
  readonly scope: NamespaceScope
  /** The attributes' qualified names in document order. */
  readonly attributeNames: ReadonlyArray<string>
}

const XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace"
const XMLNS_NAMESPACE = "http://www.w3.org/2000/xmlns/"

/** The namespace declarations in scope at an element: its own, then its ancestors'. */
export class NamespaceScope {
  readonly declared: Readonly<Record<string, string>>
  readonly parent: NamespaceScope | undefined

  constructor(declared: Readonly<Record<string, string>>, parent: NamespaceScope | undefined) {
    this.declared = declared
    this.parent = parent
  }

  /** The URI `prefix` ("" the default namespace) is bound to, or undefined when it is not. */
  resolve(prefix: string): string | undefined {
    for (let s: NamespaceScope | undefined = this; s !== undefined; s = s.parent) {
      const uri = s.declared[prefix]
      if (uri !== undefined) return uri
    }
    return undefined
  }
}

const noDeclarations: Readonly<Record<string, string>> = Object.freeze(Object.create(null))
const rootScope = new NamespaceScope(Object.assign(Object.create(null), { xml: XML_NAMESPACE, xmlns: XMLNS_NAMESPACE }), undefined)

/**
 * The namespaces of a part's elements, for saxes run without its own (issue
 * 20: its per-attribute resolution — an expanded name built and kept in a set
 * for every attribute of every element, `w:rsidR` and all — was a quarter of
 * parsing a Word document; saxes without it parses the 12.6 MB
 * `document.xml` of the corpus's `bug65649.docx` in 0.35 s instead of 0.61).
 * Each element's declarations open a scope, its name is resolved, and the
 * errors of saxes's namespace mode for them are kept (an unbound prefix of
 * the element or of an attribute, a malformed name, a declaration that
 * undefines a prefix or misuses `xml` / `xmlns`); an attribute's URI is
 * worked out only when it is read ({@link attribute}). Not kept: two
 * attributes with different prefixes for one URI and the same local name
 * (saxes's "duplicate attribute" by expanded name; the same name twice is
 * still refused).
 */
export class NamespaceResolver {
  private scope = rootScope
  private readonly scopes: Array<NamespaceScope> = []
  // The names of the attributes of the element being read, in order (saxes's `attribute` events): an
  // array is walked several times cheaper than saxes's null-prototype attribute object.
  private names: Array<string> = []

  /** An attribute saxes read, of the element it opens next. */
  attribute(name: string): void {
    this.names.push(name)
  }

  /** The element saxes opened, resolved (the same object, its namespace fields set); throws as saxes did. */
  open(raw: SaxesTagPlain): XmlTag {
    const names = this.names
    let own: Record<string, string> | undefined
    let qualified = false
    if (names.length > 0) {
      this.names = []
      for (let i = 0; i < names.length; i++) {
        const key = names[i]!
        // "xmlns" or "xmlns:…" (x = 120, colon = 58).
        if (key.charCodeAt(0) !== 120 || !key.startsWith("xmlns") || (key.length > 5 && key.charCodeAt(5) !== 58)) {
          qualified ||= key.includes(":")
          continue
        }
        const prefix = key.length === 5 ? "" : key.slice(6)
        const uri = (raw.attributes[key] ?? "").trim()
        if (prefix !== "" && uri === "") throw new Error("invalid attempt to undefine prefix in XML 1.0")
        checkDeclaration(prefix, uri)
        own ??= Object.create(null) as Record<string, string>
        own[prefix] = uri
      }
    }
    const scope = own === undefined ? this.scope : new NamespaceScope(own, this.scope)
    // Every attribute's prefix bound, as saxes checked (a Word element's attributes share one or two prefixes).
    if (qualified) {
      let bound = "\0"
      for (let i = 0; i < names.length; i++) {
        const key = names[i]!
        const colon = key.indexOf(":")
        if (colon < 0) continue
        if (colon === 0 || colon === key.length - 1 || key.indexOf(":", colon + 1) >= 0) throw new Error(`malformed name: ${key}.`)
        if (colon === bound.length && key.startsWith(bound)) continue
        const prefix = key.slice(0, colon)
        if (prefix === "xmlns") continue
        if (scope.resolve(prefix) === undefined) throw new Error(`unbound namespace prefix: ${JSON.stringify(prefix)}.`)
        bound = prefix
      }
    }
    this.scopes.push(this.scope)
    this.scope = scope
    const name = raw.name
    const colon = name.indexOf(":")
    let prefix = ""
    let local = name
    let uri: string
    if (colon < 0) {
      uri = scope.resolve("") ?? ""
    } else {
      prefix = name.slice(0, colon)
      local = name.slice(colon + 1)
      if (prefix === "" || local === "" || local.includes(":")) throw new Error(`malformed name: ${name}.`)
      if (prefix === "xmlns") throw new Error('tags may not have "xmlns" as prefix.')
      const bound = scope.resolve(prefix)
      if (bound === undefined) throw new Error(`unbound namespace prefix: ${JSON.stringify(prefix)}.`)
      uri = bound
    }
    const tag = raw as unknown as Mutable<XmlTag>
    tag.prefix = prefix
    tag.local = local
    tag.uri = uri
    tag.ns = own ?? noDeclarations
    tag.scope = scope
    tag.attributeNames = names
    return tag
  }

  /** The element saxes closed: its scope ends. */
  close(): void {
    this.scope = this.scopes.pop() ?? rootScope
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

// What saxes's namespace mode refuses of a declaration (its `nsPairCheck`).
function checkDeclaration(prefix: string, uri: string): void {
  if (prefix === "xml" && uri !== XML_NAMESPACE) throw new Error(`xml prefix must be bound to ${XML_NAMESPACE}.`)
  if (prefix === "xmlns" && uri !== XMLNS_NAMESPACE) throw new Error(`xmlns prefix must be bound to ${XMLNS_NAMESPACE}.`)
  if (uri === XMLNS_NAMESPACE) {
    throw new Error(prefix === "" ? `the default namespace may not be set to ${uri}.` : `may not assign a prefix (even "xmlns") to the URI ${XMLNS_NAMESPACE}.`)
  }
  if (uri === XML_NAMESPACE && prefix !== "xml") {
    throw new Error(prefix === "" ? `the default namespace may not be set to ${uri}.` : "may not assign the xml namespace to another prefix.")
  }
}

/** True when `tag` is `local` in the vocabulary `uris`. */
export const isElement = (tag: XmlTag, uris: Namespace, local: string): boolean =>
  tag.local === local && uris.has(tag.uri)

/**
 * The value of an attribute. Without `uris`, the unqualified attribute `local`
 * (OOXML attributes of the element's own vocabulary are unqualified, except in
 * WordprocessingML); with `uris`, the attribute of that vocabulary whatever
 * its prefix (`r:id`, `ns:id`). Either way a writer that qualified what should
 * not be, or the reverse, is read too: the local name decides.
 */
export function attribute(tag: XmlTag, local: string, uris?: Namespace): string | undefined {
  const attributes = tag.attributes
  const plain = attributes[local]
  if (uris === undefined && plain !== undefined) return plain
  const names = tag.attributeNames
  for (let i = 0; i < names.length; i++) {
    const key = names[i]!
    const colon = key.indexOf(":")
    let uri: string | undefined
    if (colon < 0) {
      if (key !== local) continue
      // An unqualified attribute is in no namespace (the default one does not apply to attributes).
      uri = key === "xmlns" ? XMLNS_NAMESPACE : ""
    } else {
      if (key.length - colon - 1 !== local.length || !key.endsWith(local)) continue
      uri = tag.scope.resolve(key.slice(0, colon))
      if (uri === undefined) continue
    }
    if (uris === undefined ? uri === tag.uri : uris.has(uri)) return attributes[key]
  }
  return plain
}

/** Receives the events of one part, in document order, after Markup Compatibility is resolved. */
export interface XmlVisitor {
  open(tag: XmlTag): void
  close(tag: XmlTag): void
  text(text: string): void
}

/**
 * Markup Compatibility: of each `mc:AlternateContent`, the first `mc:Choice`
 * is read and later choices and the `mc:Fallback` are skipped (Word stores a
 * text box twice, DrawingML under Choice and VML under Fallback: BUG-16). A
 * Fallback is read only when no Choice came before it.
 */
class CompatibilityFilter implements XmlVisitor {
  private skipDepth = 0
  private readonly alternatives: Array<{ taken: boolean }> = []

  /** True while the events are being skipped (a Choice not taken, a Fallback after one). */
  get skipping(): boolean {
    return this.skipDepth > 0
  }

  private readonly inner: XmlVisitor

  constructor(inner: XmlVisitor) {
    this.inner = inner
  }

  open(tag: XmlTag): void {
    if (this.skipDepth > 0) {
      this.skipDepth++
      return
    }
    if (ns.compatibility.has(tag.uri)) {
      if (tag.local === "AlternateContent") {
        this.alternatives.push({ taken: false })
      } else if (tag.local === "Choice" || tag.local === "Fallback") {
        const current = this.alternatives.at(-1)
        if (current === undefined || current.taken) this.skipDepth = 1
        else current.taken = true
      }
      return
    }
    this.inner.open(tag)
  }

  close(tag: XmlTag): void {
    if (this.skipDepth > 0) {
      this.skipDepth--
      return
    }
    if (ns.compatibility.has(tag.uri)) {
      if (tag.local === "AlternateContent") this.alternatives.pop()
      return
    }
    this.inner.close(tag)
  }

  text(text: string): void {
    if (this.skipDepth === 0) this.inner.text(text)
  }
}

/** Characters fed to the parser per step; between steps the fiber yields, so a long part stays interruptible. */
const chunkBytes = 1 << 20

/**
 * The decoder for a part: by byte order mark, then by the shape of `<?xml` in
 * UTF-16 without a mark, then by the declaration's `encoding`, else UTF-8.
 * TextDecoder drops the mark itself (a UTF-8 BOM is common: trait `xml-bom`).
 */
function decoderFor(bytes: Uint8Array): TextDecoder {
  const [b0, b1, b2, b3] = bytes
  if (b0 === 0xfe && b1 === 0xff) return new TextDecoder("utf-16be")
  if (b0 === 0xff && b1 === 0xfe) return new TextDecoder("utf-16le")
  if (b0 === 0x00 && b1 === 0x3c && b2 === 0x00 && b3 === 0x3f) return new TextDecoder("utf-16be")
  if (b0 === 0x3c && b1 === 0x00 && b2 === 0x3f && b3 === 0x00) return new TextDecoder("utf-16le")
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 200))
  const declared = /^(?:\uFEFF|ï»¿)?<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]
  // A declaration read through latin1 cannot be true UTF-16 (that was caught above): only a single-byte or multi-byte legacy charset is honoured.
  if (declared !== undefined && !/^utf-?(8|16)/i.test(declared)) {
    try {
      return new TextDecoder(declared)
    } catch {
      // An unknown label: UTF-8 is what every OOXML writer actually uses.
    }
  }
  return new TextDecoder("utf-8")
}

/** `e` (what a parser or a reader threw while reading `partName`) as an {@link ExtractError}: itself when it is one, else `corrupt` naming the part. */
export const corruptPart = (partName: string, e: unknown): ExtractError =>
  e instanceof ExtractError
    ? e
    : new ExtractError({ reason: "corrupt", detail: `${partName}: ${e instanceof Error ? e.message : String(e)}` })

/** The bytes of a part as the zip inflates them, chunk by chunk. */
export type PartBytes = AsyncIterable<Uint8Array>

/** Deepest element nesting accepted by default: real parts stay under ~100 (nested tables), a hostile one goes to millions. */
export const defaultMaxXmlDepth = 1000

/** How a part is parsed. */
export interface ParseXmlOptions<E = never> {
  /** Deepest element nesting; deeper is `too-large` (the parser's own stack would grow without bound). */
  readonly maxDepth?: number
  /**
   * Runs after each piece of text has gone through the visitor (about 64 KiB
   * of the part at a time): where a visitor's collected lines are handed on
   * while the part is still being read (W1); what the last piece leaves is
   * the caller's to take after the parse. Its failure ends the parse.
   */
  readonly afterChunk?: Effect.Effect<void, E>
}

/**
 * Feeds the part's text to `write` in pieces of at most {@link chunkBytes}
 * bytes, decoded with the part's own encoding (found in its first bytes), and
 * releases the inflater however the loop ends (`return()` on interruption or
 * failure). `write` returns `true` when it has read enough (the rest of the
 * part is never inflated), or throws to fail: an {@link ExtractError} as it
 * is, anything else `corrupt`. `after` runs after each piece.
 */
export const feed = <E = never>(
  source: PartBytes,
  partName: string,
  write: (text: string) => boolean | void,
  after: Effect.Effect<void, E> = Effect.void as Effect.Effect<void, E>
): Effect.Effect<void, ExtractError | E> =>
  Effect.suspend(() => {
    const iterator = source[Symbol.asyncIterator]()
    const next = Effect.tryPromise({ try: () => iterator.next(), catch: (e) => corruptPart(partName, e) })
    return Effect.gen(function* () {
      // Enough leading bytes to see a byte order mark and the declaration's encoding.
      let head: Array<Uint8Array> = []
      let headLength = 0
      let done = false
      while (headLength < 256) {
        const r = yield* next
        if (r.done) {
          done = true
          break
        }
        head.push(r.value)
        headLength += r.value.length
      }
      const first = head.length === 1 ? (head[0] ?? new Uint8Array()) : Buffer.concat(head)
      head = []
      const decoder = decoderFor(first)
      // Set when `write` has read enough.
      let enough = false
      const write1 = (bytes: Uint8Array) =>
        Effect.zipRight(
          Effect.try({ try: () => void (enough = write(decoder.decode(bytes, { stream: true })) === true), catch: (e) => corruptPart(partName, e) }),
          after
        )
      const writeAll = Effect.fnUntraced(function* (bytes: Uint8Array) {
        for (let at = 0; at < bytes.length && !enough; at += chunkBytes) {
          yield* write1(bytes.subarray(at, at + chunkBytes))
          yield* Effect.yieldNow()
        }
      })
      yield* writeAll(first)
      while (!done && !enough) {
        const r = yield* next
        if (r.done) break
        yield* writeAll(r.value)
      }
      if (!enough) yield* Effect.try({ try: () => void write(decoder.decode()), catch: (e) => corruptPart(partName, e) })
    }).pipe(Effect.ensuring(Effect.promise(() => Promise.resolve(iterator.return?.()).catch(() => undefined))))
  })

const refuseDoctype = (partName: string) => () => {
  throw new ExtractError({ reason: "corrupt", detail: `${partName}: declares a DTD, which Office document parts must not (entities are never expanded)` })
}

/**
 * Parses one part and sends its events to `visitor`. Fails with `corrupt`
 * (naming the part and the parser's message) on malformed XML and on any DTD:
 * OPC forbids DTDs in parts, and refusing them is what keeps entity expansion
 * and external entities (trait `xml-entity-attack`) out — saxes itself never
 * fetches an external entity. Nesting deeper than `maxDepth` is `too-large`.
 * An {@link ExtractError} thrown by the visitor passes through unchanged.
 * No tracing span: it runs once per part, and a span is a dozen fiber steps
 * and a stack capture (spans stay on the per-file steps, issue 20).
 */
export const parseXml = <E = never>(
  source: PartBytes,
  partName: string,
  visitor: XmlVisitor,
  options?: ParseXmlOptions<E>
): Effect.Effect<void, ExtractError | E> => Effect.gen(function* () {
  const stream = new XmlStream(partName, visitor, options?.maxDepth ?? defaultMaxXmlDepth)
  yield* feed(source, partName, (text) => stream.write(text), options?.afterChunk)
  yield* Effect.try({ try: () => stream.close(), catch: (e) => corruptPart(partName, e) })
})

/**
 * One part's text going through saxes (namespaces on), the nesting limit,
 * the DTD refusal and Markup Compatibility, to a visitor: what
 * {@link parseXml} does, written piece by piece. A reader that takes over a
 * stretch of the part itself (the fast sheet path, `_sheet_scan.ts`) writes
 * the text before and after that stretch here, and reads {@link depth},
 * {@link skipping} and {@link lastOpened} to know where it stands.
 */
export class XmlStream {
  /** Elements open at the end of the text written so far. */
  depth = 0
  /** The last element opened, and the namespace declarations of every element opened at depth 1 or 2 (prefix → URI). */
  lastOpened: XmlTag | undefined
  readonly declared = new Map<string, string>()
  private readonly parser = new SaxesParser({ xmlns: false, position: false })
  private readonly names = new NamespaceResolver()
  private readonly filter: CompatibilityFilter

  constructor(partName: string, visitor: XmlVisitor, maxDepth: number = defaultMaxXmlDepth) {
    this.filter = new CompatibilityFilter(visitor)
    const parser = this.parser
    parser.on("doctype", refuseDoctype(partName))
    parser.on("attribute", (a) => this.names.attribute(a.name))
    parser.on("opentag", (raw) => {
      if (++this.depth > maxDepth) {
        throw new ExtractError({ reason: "too-large", detail: `${partName}: elements nested deeper than ${maxDepth} levels` })
      }
      const tag = this.names.open(raw)
      this.lastOpened = tag
      if (this.depth <= 2) for (const prefix in tag.ns) this.declared.set(prefix, tag.ns[prefix] ?? "")
      this.filter.open(tag)
    })
    parser.on("closetag", (raw) => {
      this.depth--
      this.names.close()
      this.filter.close(raw as unknown as XmlTag)
    })
    parser.on("text", (text) => this.filter.text(text))
    parser.on("cdata", (text) => this.filter.text(text))
  }

  /** True inside an `mc:Choice` or `mc:Fallback` that Markup Compatibility skips. */
  get skipping(): boolean {
    return this.filter.skipping
  }

  /** Parses the next piece of the part's text; throws what saxes or the visitor throws. */
  write(text: string): void {
    this.parser.write(text)
  }

  /** Ends the part: throws when the XML is not complete. */
  close(): void {
    this.parser.close()
  }
}

/** Stops the parser once the root element is seen. */
class RootFound {
  readonly tag: XmlTag

  constructor(tag: XmlTag) {
    this.tag = tag
  }
}

/**
 * The root element of a part, inflating and reading only as far as it: what
 * a package's main part is (a workbook, a document, a presentation) is
 * decided by its content, not by the file's extension. `corrupt` when the XML
 * breaks before the root or there is none.
 */
export const rootElementOf = (source: PartBytes, partName: string): Effect.Effect<XmlTag, ExtractError> => {
  const parser = new SaxesParser({ xmlns: false, position: false })
  const names = new NamespaceResolver()
  parser.on("doctype", refuseDoctype(partName))
  parser.on("attribute", (a) => names.attribute(a.name))
  parser.on("opentag", (raw) => {
    throw new RootFound(names.open(raw))
  })
  let root: XmlTag | undefined
  const write = (text: string): boolean => {
    try {
      parser.write(text)
    } catch (e) {
      if (!(e instanceof RootFound)) throw e
      root = e.tag
    }
    // Found: feed() stops, the rest of the part is never inflated (and no error is made: a stack capture each file, issue 20).
    return root !== undefined
  }
  return feed(source, partName, write).pipe(
    Effect.flatMap(() =>
      root !== undefined ? Effect.succeed(root) : Effect.fail(corruptPart(partName, new Error("no root element")))
    )
  )
}
