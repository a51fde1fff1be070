/**
 * Search over the gram index (SPEC §5 "Search"; issue 6): look the query's
 * 2-grams up in every segment, intersect the posting lists, drop the lines
 * where the grams' recorded positions do not line up, verify the rest
 * against the lines store, and return located hits, best first.
 *
 * Order ("best first"): files whose path names more of the terms first
 * (a file called 見積書 ranks first for 見積), then newer files — the order
 * in which the gram index recorded them: newer segments first, and inside a
 * segment by the folder's mtime (when it was published), newest first; inside
 * a file, in document order. Because line ids follow that order, a search
 * stops as soon as it has `limit` hits, however common the term.
 *
 * A searcher reads one manifest and keeps the files it names open, so an
 * indexing run writing a new generation meanwhile changes nothing it sees.
 *
 * @module
 */
import {
  type FilterSubject,
  type QueryFilter,
  type SearchQuery,
  fileTypeAliases,
  gramRangeOf,
  lineMatchesQuery,
  lookupOfTerm,
  matchLine,
  normalizeForSearch,
  parseSearchQuery,
  passesFilters,
  positionsVerdict,
  termsInPath
} from "@sagasu/domain"
import { type SearchHit, hitOf } from "../search_hit.ts"
import { type Manifest, isCurrentManifest, readManifestSync } from "./manifest.ts"
import type { DocPart, DocRecord } from "./segment_builder.ts"
import { AndCursor, type Cursor, END, ListCursor, SegmentReader, UnionCursor } from "./segment_reader.ts"

/** Options of a search (the CLI's `--index`, `--type`, `--limit`). */
export interface SearchOptions {
  /** At most this many hits (default 100). */
  readonly limit?: number
  /** Only this index (added to the query's `index:` filters). */
  readonly index?: string
  /** Only this file type: an extension (`xlsx`) or `excel`, `word`, `powerpoint`. */
  readonly type?: string
  /** Only the source file at exactly this path (relative, `/`-separated). */
  readonly path?: string
}

/** The query with the options' filters added. */
export function queryWithOptions(text: string, options: SearchOptions): SearchQuery {
  const query = parseSearchQuery(text)
  const filters: Array<QueryFilter> = [...query.filters]
  if (options.index !== undefined) filters.push({ key: "index", values: [normalizeForSearch(options.index)], negate: false })
  if (options.type !== undefined) {
    const t = normalizeForSearch(options.type).replace(/^\./, "")
    filters.push({ key: "type", values: fileTypeAliases[t] ?? [t], negate: false })
  }
  return { ...query, filters }
}

// The candidate lines of a segment: a cursor over the lines holding every
// gram (or character) of every term, and, per term of 2+ characters, the
// position check of its grams. Undefined when a gram is absent.
interface Candidates {
  readonly cursor: Cursor
  /**
   * Whether the grams' positions in the cursor's current line allow every
   * term: `no`, `maybe` (verify the text) or `yes` (every term is there).
   */
  readonly positionsAllow: () => "no" | "maybe" | "yes"
}

function candidatesOf(segment: SegmentReader, query: SearchQuery): Candidates | undefined {
  const cursors: Array<Cursor> = []
  // Per term of 2+ characters: its gram sequence and, at each index of it, the cursor of that gram.
  const checks: Array<{ sequence: ReadonlyArray<number>; cursors: ReadonlyArray<ListCursor> }> = []
  for (const term of query.terms) {
    const lookup = lookupOfTerm(term)
    if (lookup._tag === "grams") {
      const byKey = new Map<number, ListCursor>()
      for (const key of lookup.keys) {
        const ref = segment.lookup(key)
        if (ref === undefined) return undefined
        const c = new ListCursor(segment.readPostings(ref.offset, ref.length), 0, ref.df)
        byKey.set(key, c)
        cursors.push(c)
      }
      if (lookup.sequence.length > 1) {
        checks.push({ sequence: lookup.sequence, cursors: lookup.sequence.map((k) => byKey.get(k)!) })
      }
    } else if (lookup._tag === "first") {
      const [from, to] = gramRangeOf(lookup.codePoint)
      const refs = segment.lookupRange(from, to)
      const first = refs[0]
      const last = refs[refs.length - 1]
      if (first === undefined || last === undefined) return undefined
      // The range's lists lie back to back in .post: one read.
      const bytes = segment.readPostings(first.offset, last.offset + last.length - first.offset)
      const lists = refs.map((r) => new ListCursor(bytes, r.offset - first.offset, r.df))
      cursors.push(lists.length === 1 ? lists[0]! : new UnionCursor(lists))
    }
  }
  if (cursors.length === 0) return undefined
  return {
    cursor: cursors.length === 1 ? cursors[0]! : new AndCursor(cursors),
    positionsAllow: () => {
      let verdict: "no" | "maybe" | "yes" = "yes"
      for (const c of checks) {
        const cursors = c.cursors
        const v = positionsVerdict(c.sequence, (_, i) => cursors[i]!.tag)
        if (v === "no") return "no"
        if (v === "maybe") verdict = "maybe"
      }
      // 1-character terms are exact; 2-character ones have no sequence check and are exact too.
      return verdict
    }
  }
}

/** An open, consistent view of the gram index; see the module doc. */
export class GramSearcher {
  /** The manifest this searcher reads. */
  readonly manifest: Manifest
  private readonly segments: ReadonlyArray<SegmentReader>
  private constructor(manifest: Manifest, segments: ReadonlyArray<SegmentReader>) {
    this.manifest = manifest
    this.segments = segments
  }

  /**
   * Opens the index in `gramDir` as its manifest names it now. Returns
   * `undefined` when there is no usable index (none yet, or written by another
   * format or normaliser: the next indexing run rebuilds it). Throws a
   * GramIndexError when the manifest or a segment is damaged; retries when a
   * newer manifest replaced the one read while its files were being opened.
   */
  static open(gramDir: string): GramSearcher | undefined {
    for (let attempt = 0; ; attempt++) {
      const manifest = readManifestSync(gramDir)
      if (manifest === undefined || !isCurrentManifest(manifest)) return undefined
      const opened: Array<SegmentReader> = []
      try {
        for (const s of manifest.segments) opened.push(SegmentReader.open(gramDir, s))
        return new GramSearcher(manifest, opened)
      } catch (e) {
        for (const r of opened) r.close()
        if (attempt >= 3) throw e
      }
    }
  }

  /** Closes the files of the segments. */
  close(): void {
    for (const s of this.segments) s.close()
  }

  /** Source files and lines the searcher sees (deleted ones excluded). */
  get stats(): { readonly segments: number; readonly docs: number; readonly lines: number } {
    let docs = 0
    let lines = 0
    for (const s of this.segments) {
      for (const d of s.docs) {
        if (d.deleted) continue
        docs++
        lines += d.record.count
      }
    }
    return { segments: this.segments.length, docs, lines }
  }

  /**
   * The hits of `text` (search_query.ts syntax) with the filters of
   * `options`, best first (module doc), at most `limit`. Throws on I/O errors.
   */
  search(text: string, options: SearchOptions = {}): Array<SearchHit> {
    const limit = options.limit ?? 100
    const hits: Array<SearchHit> = []
    if (limit <= 0) return hits
    this.forEachMatch(text, options, (m) => {
      const line = m.read()
      const spans = matchLine(line.text, m.query)
      if (spans === undefined) return true
      hits.push(hitOf(m.doc.index, m.doc.path, m.part.file, m.part.locator, line.loc, line.text, spans))
      return hits.length < limit
    })
    return hits
  }

  /**
   * Calls `f` for every matching line, best first, until `f` returns
   * `false`; `m.read()` reads the line's location and text. The lines
   * store is read only when needed: postings are exact for terms of 1 or 2
   * characters, and for longer ones whenever the grams' position tags spell
   * the term; only lines where a gram occurs several times (or past
   * position 254), or when the query excludes terms, are verified against
   * the text. Throws on I/O errors.
   */
  forEachMatch(text: string, options: SearchOptions, f: (m: MatchedLine) => boolean): void {
    const query = queryWithOptions(text, options)
    if (query.terms.length === 0) return
    // With no exclusions, a line whose gram positions spell every term needs no reading.
    const noExclusions = query.exclude.length === 0
    // Per segment (newest first) and source file: -1 = filtered out, else the number of terms its path names.
    const newestFirst = [...this.segments].reverse()
    const levels = newestFirst.map((segment) =>
      Int8Array.from(segment.docs, (d) => {
        if (d.deleted) return -1
        if (options.path !== undefined && d.record.path !== options.path) return -1
        const subject: FilterSubject = { index: d.normIndex, path: d.normPath, type: d.type }
        if (!passesFilters(query, subject)) return -1
        return termsInPath(query, d.normPath)
      })
    )
    for (let level = query.terms.length; level >= 0; level--) {
      for (const [i, segment] of newestFirst.entries()) {
        const docLevels = levels[i]!
        if (!docLevels.includes(level)) continue
        const candidates = candidatesOf(segment, query)
        if (candidates === undefined) continue
        const cursor = candidates.cursor
        let line = cursor.advance(0)
        while (line !== END) {
          const verdict = candidates.positionsAllow()
          if (verdict === "no") {
            line = cursor.advance(line + 1)
            continue
          }
          const d = segment.docOfLine(line)
          const doc = segment.docs[d]!.record
          if (docLevels[d] !== level) {
            line = cursor.advance(doc.first + doc.count)
            continue
          }
          let cached: { loc: string; text: string } | undefined
          const id = line
          const read = () => (cached ??= segment.line(id))
          if ((verdict === "yes" && noExclusions) || lineMatchesQuery(normalizeForSearch(read().text), query)) {
            const part = doc.parts.find((p) => id >= p.first && id < p.first + p.count)
            if (part !== undefined && !f({ query, doc, part, line: id - part.first, read })) return
          }
          line = cursor.advance(line + 1)
        }
      }
    }
  }
}

/** A line {@link GramSearcher.forEachMatch} found. */
export interface MatchedLine {
  /** The parsed query with the options' filters. */
  readonly query: SearchQuery
  readonly doc: DocRecord
  readonly part: DocPart
  /** 0-based position of the line in its part (its TSV's body lines). */
  readonly line: number
  /** Reads the line's location and original text (once). */
  readonly read: () => { readonly loc: string; readonly text: string }
}
