/**
 * An OOXML package (Open Packaging Conventions) over a zip archive: parts by
 * name, relationships resolved by OPC rules, the main part.
 *
 * Readers that look parts up by customary names (`xl/worksheets/sheetN.xml`)
 * lose content (BUG-04, trait `nonstandard-part-path`); everything here goes
 * through relationships.
 *
 * @module
 */
import { Effect } from "effect"
import { ExtractError } from "./extract_error.ts"
import { attribute, defaultMaxXmlDepth, feed, isElement, ns, parseXml, rootElementOf, type PartBytes, type XmlTag, type XmlVisitor } from "./_xml.ts"
import type { ZipArchive, ZipEntry } from "./_zip.ts"

/** A relationship of a part, its target already resolved to a part name. */
export interface Relationship {
  readonly id: string
  /** The last segment of the type URI (`worksheet`, `officeDocument`, …): transitional, Strict and Microsoft URIs share it. */
  readonly type: string
  /** Part name without a leading slash (`xl/worksheets/sheet1.xml`); for external targets, the target as written. */
  readonly target: string
  readonly external: boolean
}

/**
 * Part names compare ASCII-case-insensitively (OPC), and some writers store
 * `xl\workbook.xml` or percent-encoded names: one key for all spellings.
 */
export function partKey(name: string): string {
  let decoded = name.replace(/\\/g, "/")
  try {
    decoded = decodeURIComponent(decoded)
  } catch {
    // A stray `%` is a literal in a zip entry name.
  }
  return decoded.replace(/^\/+/, "").replace(/[A-Z]/g, (c) => c.toLowerCase())
}

/**
 * The part a relationship target names, by OPC rules: a target starting with
 * `/` is from the package root (BUG-04), otherwise relative to the source
 * part's folder; `.` and `..` segments are resolved; a fragment is dropped.
 */
export function resolveTarget(sourcePart: string, target: string): string {
  const path = target.replace(/\\/g, "/").replace(/#.*$/, "")
  const segments = path.startsWith("/") ? [] : sourcePart.split("/").slice(0, -1)
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue
    if (segment === "..") segments.pop()
    else segments.push(segment)
  }
  return segments.join("/")
}

/** `xl/workbook.xml` → `xl/_rels/workbook.xml.rels`; the package itself (`""`) → `_rels/.rels`. */
const relationshipsPartOf = (part: string): string => {
  const slash = part.lastIndexOf("/")
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`
}

/** An OOXML package: parts are inflated and parsed on demand, as streams. */
export class OpcPackage {
  private readonly parts = new Map<string, ZipEntry>()
  private readonly zip: ZipArchive
  private readonly maxXmlDepth: number

  constructor(zip: ZipArchive, options?: { readonly maxXmlDepth?: number }) {
    this.zip = zip
    this.maxXmlDepth = options?.maxXmlDepth ?? defaultMaxXmlDepth
    for (const entry of zip.entries) {
      const key = partKey(entry.name)
      // Folder entries (trait `zip-directory-entries`) are not parts; the first of duplicate names wins.
      if (key !== "" && !key.endsWith("/") && !this.parts.has(key)) this.parts.set(key, entry)
    }
  }

  /** True when the package holds the part. */
  has(part: string): boolean {
    return this.parts.has(partKey(part))
  }

  /** True when some part lies under one of the top-level `folders` (ASCII case ignored). */
  hasFolder(folders: ReadonlyArray<string>): boolean {
    const prefixes = folders.map((f) => `${partKey(f)}/`)
    for (const key of this.parts.keys()) if (prefixes.some((p) => key.startsWith(p))) return true
    return false
  }

  private entry(part: string): Effect.Effect<ZipEntry, ExtractError> {
    const entry = this.parts.get(partKey(part))
    return entry === undefined
      ? Effect.fail(new ExtractError({ reason: "corrupt", detail: `part ${part} is missing` }))
      : Effect.succeed(entry)
  }

  /** The inflated bytes of a small part, whole (at most `cap` bytes); `corrupt` when it is missing. */
  bytes(part: string, cap = 1 << 16): Effect.Effect<Uint8Array, ExtractError> {
    return Effect.flatMap(this.entry(part), (entry) =>
      Effect.tryPromise({
        try: () => this.zip.read(entry, cap),
        catch: (e) => (e instanceof ExtractError ? e : new ExtractError({ reason: "corrupt", detail: `${part}: ${String(e)}` }))
      })
    )
  }

  /** The root element of a part, inflating only as far as it. */
  rootElement(part: string): Effect.Effect<XmlTag, ExtractError> {
    return Effect.flatMap(this.entry(part), (entry) => rootElementOf(this.source(entry), part))
  }

  /**
   * Parses a part with `visitor` as it inflates; `corrupt` when it is missing
   * or malformed. `afterChunk` runs between pieces of the part (see
   * `ParseXmlOptions.afterChunk`) and its failure ends the parse.
   */
  readXml<E = never>(part: string, visitor: XmlVisitor, afterChunk?: Effect.Effect<void, E>): Effect.Effect<void, ExtractError | E> {
    return Effect.flatMap(this.entry(part), (entry) =>
      parseXml(this.source(entry), part, visitor, { maxDepth: this.maxXmlDepth, ...(afterChunk !== undefined ? { afterChunk } : {}) })
    )
  }

  /**
   * Hands the inflated bytes of a part to `each` chunk by chunk as it
   * inflates (a binary part: xlsb records); `afterChunk` runs after each
   * chunk and its failure ends the read. `corrupt` when the part is missing
   * or does not inflate; an {@link ExtractError} thrown by `each` ends the
   * read with it.
   */
  readBytes<E = never>(part: string, each: (chunk: Uint8Array) => void, afterChunk?: Effect.Effect<void, E>): Effect.Effect<void, ExtractError | E> {
    return Effect.flatMap(this.entry(part), (entry) =>
      Effect.suspend(() => {
        const iterator = this.zip.chunks(entry)
        const asError = (e: unknown) => (e instanceof ExtractError ? e : new ExtractError({ reason: "corrupt", detail: `${part}: ${e instanceof Error ? e.message : String(e)}` }))
        const next = Effect.tryPromise({ try: () => iterator.next(), catch: asError })
        return Effect.gen(function* () {
          for (let r = yield* next; !r.done; r = yield* next) {
            const chunk = r.value
            yield* Effect.try({ try: () => each(chunk), catch: asError })
            if (afterChunk !== undefined) yield* afterChunk
          }
        }).pipe(Effect.ensuring(Effect.promise(() => Promise.resolve(iterator.return(undefined)).catch(() => undefined))))
      })
    )
  }

  /**
   * Feeds the decoded text of a part to `write`, piece by piece, as it
   * inflates (what {@link readXml} parses): for a reader that parses a part
   * itself (the fast sheet path). `write` may throw an {@link ExtractError};
   * anything else it throws is `corrupt`. `corrupt` when the part is missing.
   */
  readText<E = never>(part: string, write: (text: string) => void, afterChunk?: Effect.Effect<void, E>): Effect.Effect<void, ExtractError | E> {
    return Effect.flatMap(this.entry(part), (entry) => feed(this.source(entry), part, write, afterChunk))
  }

  /** The deepest element nesting parts may have. */
  get maxDepth(): number {
    return this.maxXmlDepth
  }

  private source(entry: ZipEntry): PartBytes {
    return { [Symbol.asyncIterator]: () => this.zip.chunks(entry) }
  }

  /**
   * The relationships of a part (`""` for the package's own), in file order.
   * A part without a relationships part has none; a malformed one is `corrupt`.
   */
  relationships(part: string): Effect.Effect<ReadonlyArray<Relationship>, ExtractError> {
    const relsPart = relationshipsPartOf(part)
    if (!this.has(relsPart)) return Effect.succeed([])
    const found: Array<Relationship> = []
    return Effect.as(
      this.readXml(relsPart, {
        open(tag) {
          if (!isElement(tag, ns.packageRelationships, "Relationship")) return
          const id = attribute(tag, "Id") ?? ""
          const type = (attribute(tag, "Type") ?? "").replace(/.*\//, "")
          const target = attribute(tag, "Target") ?? ""
          const external = attribute(tag, "TargetMode") === "External"
          found.push({ id, type, external, target: external ? target : resolveTarget(part, target) })
        },
        close() {},
        text() {}
      }),
      found
    )
  }
}
