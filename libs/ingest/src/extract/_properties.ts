/**
 * A file's document properties as a part of its own (SPEC S4, issue 14):
 * title, subject, author, keywords, description, category, last author,
 * company and manager — from an OOXML package's `docProps/core.xml` and
 * `docProps/app.xml`, or a legacy OLE2 file's SummaryInformation and
 * DocumentSummaryInformation property sets (MS-OLEPS) — and a presentation's
 * slide titles (`slide 3`). They go last, as the part `properties` of
 * locator `property` (`title\t四半期報告`), only when the file has some, so
 * the search finds a file by its title like by its text.
 *
 * Properties are a help, never a reason to fail: a damaged or missing
 * property part gives none, and the file's text is read as before.
 *
 * @module
 */
import { type BodyLine, propertiesPartName } from "@sagasu/domain"
import { Effect } from "effect"
import type { CompoundFile } from "./_cfb.ts"
import { byteDecoder } from "./_codepage.ts"
import type { LineBudget } from "./_limits.ts"
import type { OpcPackage } from "./_opc.ts"
import { emitLines, type ExtractionSink } from "./_sink.ts"
import type { XmlTag, XmlVisitor } from "./_xml.ts"
import { ExtractError } from "./extract_error.ts"

/** The properties read, by their `loc` in the part, in this order. */
const coreNames: ReadonlyArray<readonly [element: string, loc: string]> = [
  ["title", "title"],
  ["subject", "subject"],
  ["creator", "author"],
  ["keywords", "keywords"],
  ["description", "description"],
  ["category", "category"],
  ["lastModifiedBy", "lastModifiedBy"]
]
const appNames: ReadonlyArray<readonly [element: string, loc: string]> = [
  ["Company", "company"],
  ["Manager", "manager"]
]

// Reads the text of the root's direct children named in `names` (any namespace: core.xml mixes dc, cp, dcterms).
class PropertyReader implements XmlVisitor {
  readonly values = new Map<string, string>()
  private depth = 0
  private current: string | undefined
  private text_ = ""
  private readonly names: ReadonlyMap<string, string>
  constructor(names: ReadonlyArray<readonly [string, string]>) {
    this.names = new Map(names)
  }
  open(tag: XmlTag): void {
    this.depth++
    if (this.depth === 2) {
      this.current = this.names.get(tag.local)
      this.text_ = ""
    }
  }
  close(): void {
    if (this.depth === 2 && this.current !== undefined) {
      const value = this.text_.replace(/\s+/g, " ").trim()
      if (value !== "" && !this.values.has(this.current)) this.values.set(this.current, value)
      this.current = undefined
    }
    this.depth--
  }
  text(text: string): void {
    if (this.current !== undefined && this.depth >= 2) this.text_ += text
  }
}

// The part of a package-level relationship, else its customary name.
const propertyPart = (pkg: OpcPackage, types: ReadonlyArray<string>, customary: string) =>
  pkg.relationships("").pipe(
    Effect.map((rels) => rels.find((r) => types.includes(r.type) && !r.external)?.target ?? customary),
    Effect.orElseSucceed(() => customary)
  )

/**
 * The document properties of an OOXML package (`docProps/core.xml`,
 * `docProps/app.xml`, found through the package's relationships), as lines
 * `{loc: "title", text}`; none from a part that is missing or damaged.
 */
export const packageProperties = (pkg: OpcPackage): Effect.Effect<Array<BodyLine>> =>
  Effect.gen(function* () {
    const lines: Array<BodyLine> = []
    for (const [types, customary, names] of [
      [["core-properties"], "docProps/core.xml", coreNames],
      // Transitional, then Strict's name.
      [["extended-properties", "extendedProperties"], "docProps/app.xml", appNames]
    ] as const) {
      const part = yield* propertyPart(pkg, types, customary)
      if (!pkg.has(part)) continue
      const reader = new PropertyReader(names)
      const read = yield* Effect.either(pkg.readXml(part, reader))
      if (read._tag === "Left") continue
      for (const [, loc] of names) {
        const text = reader.values.get(loc)
        if (text !== undefined) lines.push({ loc, text })
      }
    }
    return lines
  })

// MS-OLEPS property identifiers, per property set: FMTID_SummaryInformation and FMTID_DocSummaryInformation.
const summaryIds: ReadonlyArray<readonly [number, string]> = [[2, "title"], [3, "subject"], [4, "author"], [5, "keywords"], [6, "description"], [8, "lastModifiedBy"]]
const documentSummaryIds: ReadonlyArray<readonly [number, string]> = [[2, "category"], [14, "manager"], [15, "company"]]

/**
 * The first property set of an MS-OLEPS stream: each property's offset in
 * the stream by its id, and the set's code page (property 1, a VT_I2), when
 * it has one. Undefined when the stream is no property set; entries out of
 * bounds end the table with what was read.
 */
function firstPropertySet(stream: Uint8Array): { readonly offsets: ReadonlyMap<number, number>; readonly codePage: number | undefined } | undefined {
  const v = new DataView(stream.buffer, stream.byteOffset, stream.byteLength)
  const u32 = (at: number) => (at + 4 <= stream.length ? v.getUint32(at, true) : -1)
  if (stream.length < 48 || v.getUint16(0, true) !== 0xfffe) return undefined
  const set = u32(44)
  if (set < 0 || set + 8 > stream.length) return undefined
  const count = Math.min(u32(set + 4), 1024)
  const offsets = new Map<number, number>()
  for (let i = 0; i < count; i++) {
    const id = u32(set + 8 + i * 8)
    const offset = u32(set + 12 + i * 8)
    if (id < 0 || offset < 0) break
    offsets.set(id, set + offset)
  }
  const cp = offsets.get(1)
  const codePage = cp !== undefined && cp + 6 <= stream.length && v.getUint16(cp, true) === 0x0002 ? v.getUint16(cp + 4, true) : undefined
  return { offsets, codePage }
}

/**
 * The code page of a legacy OLE2 file's summary information (property 1 of
 * `\u0005SummaryInformation`): the Windows code page its 8-bit strings are
 * in, which PowerPoint 95 and 4.0 also write their text in. Undefined when
 * the stream is missing, too large, damaged or names none.
 */
export function summaryCodePage(file: CompoundFile): number | undefined {
  try {
    const entry = file.entries.find((e) => e.type === "stream" && e.path.toLowerCase() === "\u0005summaryinformation")
    if (entry === undefined || entry.size > maxPropertyStreamBytes) return undefined
    const stream = file.readStream(entry.path)
    return stream === undefined ? undefined : firstPropertySet(stream)?.codePage
  } catch {
    // A damaged summary stream names no code page; the text is read in the default one.
    return undefined
  }
}

/**
 * The string properties `ids` of the first property set of an MS-OLEPS
 * stream: VT_LPSTR in the set's code page (property 1), VT_LPWSTR as
 * UTF-16. Anything out of bounds ends the reading with what was read.
 */
export function propertySetStrings(stream: Uint8Array, ids: ReadonlyArray<readonly [number, string]>): Map<string, string> {
  const out = new Map<string, string>()
  const v = new DataView(stream.buffer, stream.byteOffset, stream.byteLength)
  const u32 = (at: number) => (at + 4 <= stream.length ? v.getUint32(at, true) : -1)
  const set = firstPropertySet(stream)
  if (set === undefined) return out
  const { offsets } = set
  const codePage = set.codePage ?? 1252
  const decoder = byteDecoder(codePage)
  for (const [id, loc] of ids) {
    const at = offsets.get(id)
    if (at === undefined || at + 8 > stream.length) continue
    const type = v.getUint16(at, true)
    const size = u32(at + 4)
    let text: string | undefined
    if (type === 0x001e && size >= 0 && at + 8 + size <= stream.length) {
      const bytes = stream.subarray(at + 8, at + 8 + size)
      const end = codePage === 1200 ? bytes.length : bytes.indexOf(0)
      text = codePage === 1200 ? new TextDecoder("utf-16le").decode(bytes) : decoder.decode(end < 0 ? bytes : bytes.subarray(0, end))
    } else if (type === 0x001f && size >= 0 && at + 8 + size * 2 <= stream.length) {
      text = new TextDecoder("utf-16le").decode(stream.subarray(at + 8, at + 8 + size * 2))
    }
    // eslint-disable-next-line no-control-regex
    const value = text?.replace(/\u0000+$/, "").replace(/[\u0000-\u001f]+/g, " ").trim()
    if (value !== undefined && value !== "") out.set(loc, value)
  }
  return out
}

/**
 * The document properties of a legacy OLE2 file (its `\u0005SummaryInformation`
 * and `\u0005DocumentSummaryInformation` streams), as lines; none when the
 * streams are missing, too large (4 MiB) or damaged.
 */
export function ole2Properties(file: CompoundFile): Array<BodyLine> {
  // A summary stream may hold a thumbnail picture (Word 95's Word95.doc: 95 KB); past this it is not read.
  const lines: Array<BodyLine> = []
  for (const [name, ids] of [["\u0005SummaryInformation", summaryIds], ["\u0005DocumentSummaryInformation", documentSummaryIds]] as const) {
    try {
      const entry = file.entries.find((e) => e.type === "stream" && e.path.toLowerCase() === name.toLowerCase())
      if (entry === undefined || entry.size > maxPropertyStreamBytes) continue
      const stream = file.readStream(entry.path)
      if (stream === undefined) continue
      for (const [loc, text] of propertySetStrings(stream, ids)) lines.push({ loc, text })
    } catch {
      // A damaged property stream gives no properties; the file's text is read as before.
    }
  }
  const order = [...summaryIds, ...documentSummaryIds].map(([, loc]) => loc)
  return lines.sort((a, b) => order.indexOf(a.loc) - order.indexOf(b.loc))
}

/** The largest property stream read (read whole): a few kilobytes of strings, plus a thumbnail of up to a few hundred. */
const maxPropertyStreamBytes = 4 * 1024 ** 2

/** Hands `lines` to `sink` as the part {@link propertiesPartName} (locator `property`), when there are any. */
export const emitProperties = <E>(sink: ExtractionSink<E>, budget: LineBudget, lines: ReadonlyArray<BodyLine>): Effect.Effect<void, E | ExtractError> =>
  lines.length === 0
    ? Effect.void
    : Effect.gen(function* () {
      budget.startPart()
      // A limit is a failure of the file (too-large), not a defect: taken inside Effect.try.
      yield* Effect.try({
        try: () => {
          for (const l of lines) budget.take(propertiesPartName, l.text.length)
        },
        catch: (e) => (e instanceof ExtractError ? e : new ExtractError({ reason: "corrupt", detail: `properties: ${String(e)}` }))
      })
      yield* sink.beginPart({ name: propertiesPartName, locator: "property", state: "visible" })
      yield* emitLines(sink, budget, lines)
      yield* sink.endPart
    })
