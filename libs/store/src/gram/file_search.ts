/**
 * The file-level search of the gram index (SPEC S3, S4, S5; issue 14):
 * every word somewhere in the file, no excluded word anywhere in it, each
 * file once with its best located hits, its number of hits, its modified
 * date and size; totals; paging; order by relevance or by date.
 *
 * Files come from the fresh tail (read whole from the body index, S1) and
 * from the segments, newest first; a file the fresh tail names is masked in
 * the segments. Both go through the domain's {@link FileMatch}, so a file
 * gives the same answer wherever it is read from (the scan, search_scan.ts,
 * too).
 *
 * Relevance is a walk in tiers, each in "newest first" order (the fresh tail,
 * then the segments newest first, inside a segment by doc number):
 * 1. files whose path holds more of the words first (`見積書.xlsx` for
 *    `見積`), from the doc tables' names alone (one byte search per word);
 * 2. then, among the others, the *near* files — one location holds every
 *    word — found by the line-level walk over every word's grams;
 * 3. then the files whose words are spread out, found by leapfrogging from
 *    one word's lines to the next's, doc by doc.
 * A file is decided from the postings (exact for 1–2 characters and
 * wherever the position tags spell a term; else its row is read). The walk
 * stops once it has the page and one file more — so the first page costs
 * about as much as today's first hits, however common the words — and then
 * goes on counting the totals until it is done or `countDeadline` passes
 * (the totals then say they are lower bounds). Order by date needs every
 * match: it walks them all (within the budget), then sorts.
 *
 * A big source file cut into pieces (flagged in the doc tables) is read
 * from all its pieces together, once, where its first piece is met.
 *
 * @module
 */
import {
  FileMatch,
  type FileName,
  type NamesMatch,
  type SearchQuery,
  allTermsMask,
  fileNamesOf,
  holdsExcluded,
  locationHolds,
  matchNames,
  normalizeForSearch,
  partNameOfTsvFileName,
  resolveFileType,
  spansOfTerms,
  termCount,
  termMaskOf
} from "@sagasu/domain"
import { type FileHit, type SearchHit, type SearchTotals, hitOf, nameHitOf } from "../search_hit.ts"
import { docKey } from "./body_walk.ts"
import { sheetNamesOf } from "./doc_table.ts"
import { type FreshDoc, type FreshPart, freshStampOf, readFreshParts } from "./fresh_doc.ts"
import { END, type SegmentReader } from "./segment_reader.ts"
import { LineTexts, PostingCache, TermLines, candidatesOf } from "./term_cursor.ts"

/** Options of a file-level search: the page, the order, and the filters of the CLI and the GUI. */
export interface FileSearchOptions {
  /** Files to skip before the page (default 0). */
  readonly offset?: number
  /** Files on the page (default 20). */
  readonly limit?: number
  /** `relevance` (default; module doc) or `modified`: newest source file first. */
  readonly sort?: "relevance" | "modified"
  /** Located hits kept per file (default 3). */
  readonly locations?: number
  /** Only these indexes (any of them). */
  readonly index?: string | ReadonlyArray<string>
  /** Only files of this type: an extension or a group (search_query.ts `fileTypeGroups`); an unknown one finds nothing. */
  readonly type?: string | ReadonlyArray<string>
  /** Only the source file at exactly this path (relative, `/`-separated). */
  readonly path?: string
  /** Only files inside this folder of their index (a `/`-separated path prefix, normalised like the text). */
  readonly folder?: string
  /** Only files modified at or after this time (ms since the epoch). */
  readonly modifiedFrom?: number
  /** Only files modified before this time (ms since the epoch). */
  readonly modifiedTo?: number
  /** Count the totals past the page (default true); when false they cover what the walk saw. */
  readonly totals?: boolean
  /** Stop counting the totals once the clock (`SearchControl.now`) passes this; the page is not affected. */
  readonly countDeadline?: number
}

/** Control of a search: a budget and a way to cancel (searcher.ts `SearchControl`, S2). */
export interface FileSearchControl {
  readonly deadline?: number
  readonly now?: () => number
  readonly cancelled?: () => boolean
}

/** What a file-level search found. */
export interface FileSearchOutcome {
  /** The page: at most `limit` files from `offset` on, in the order asked. */
  readonly files: ReadonlyArray<FileHit>
  readonly offset: number
  readonly totals: SearchTotals
  /** There are files after this page. */
  readonly more: boolean
  /** The budget ran out or the search was cancelled before the page was complete (S2). */
  readonly partial: boolean
}

/** What a file-level search reads: the searcher's segments (oldest first) and fresh tail. */
export interface FileSearchSource {
  readonly segments: ReadonlyArray<SegmentReader>
  /** Keys (body_walk.ts `docKey`) of the fresh tail's source files, masked in the segments. */
  readonly fresh: ReadonlySet<string>
  /** The fresh tail's source files, newest first. */
  readonly freshDocs: ReadonlyArray<FreshDoc>
  /** The pieces of big source files, by key (searcher.ts computes them once). */
  readonly pieces: ReadonlyMap<string, ReadonlyArray<{ readonly segment: SegmentReader; readonly d: number }>>
}

// Candidates between two looks at the clock.
const CHECK_EVERY = 64

/** Stop the walk: the page (and one more) is complete, or time is up. */
class Stop {
  readonly why: "page" | "time"
  constructor(why: "page" | "time") {
    this.why = why
  }
}

/**
 * The filters of a file-level search (the query's `index:`/`type:`/`path:`
 * and the options' index, type, path, folder and dates) as one test of a
 * source file: `passes(index, normIndex, path, normPath, type, modifiedMs)`.
 */
export interface Filters {
  readonly query: SearchQuery
  /** No filter at all: every file passes (so a doc's names need not be decoded to decide it). */
  readonly none: boolean
  readonly passes: (index: string, normIndex: string, path: string, normPath: string, type: string, modifiedMs: number) => boolean
}

/** The {@link Filters} of `query` and `options` (every way a file-level search reads a file applies the same). */
export function filtersOf(query: SearchQuery, options: FileSearchOptions): Filters {
  const indexes = options.index === undefined ? undefined : (typeof options.index === "string" ? [options.index] : options.index).map((i) => normalizeForSearch(i))
  const typeValues = options.type === undefined ? undefined : typeof options.type === "string" ? [options.type] : options.type
  const types = typeValues === undefined ? undefined : new Set(typeValues.flatMap((t) => resolveFileType(t) ?? []))
  const folder = options.folder === undefined ? "" : normalizeForSearch(options.folder.replace(/\\/g, "/")).replace(/^\/+|\/+$/g, "")
  const from = options.modifiedFrom
  const to = options.modifiedTo
  const query0 = query
  const none = indexes === undefined && types === undefined && options.path === undefined && folder === "" && from === undefined && to === undefined && query.filters.length === 0
  return {
    query,
    none,
    passes: (_index, normIndex, path, normPath, type, modifiedMs) => {
      if (indexes !== undefined && !indexes.includes(normIndex)) return false
      if (types !== undefined && !types.has(type)) return false
      if (options.path !== undefined && path !== options.path) return false
      if (folder !== "" && !normPath.startsWith(folder + "/")) return false
      if (from !== undefined && !(modifiedMs >= from)) return false
      if (to !== undefined && !(modifiedMs < to)) return false
      for (const f of query0.filters) {
        const hit = f.values.some((v) => (f.key === "index" ? normIndex === v : f.key === "type" ? type === v : normPath.includes(v)))
        if (hit === f.negate) return false
      }
      return true
    }
  }
}

/** A file as the walk decides it: how it matched and how to show it. */
interface Decided {
  readonly index: string
  readonly path: string
  readonly match: FileMatch<number>
  readonly names: NamesMatch
  readonly pathTerms: number
  readonly modifiedMs: number | undefined
  readonly size: number | undefined
  /** The date it sorts by: its source file's modified time, else when its folder was published. */
  readonly sortMs: number
  /** Reads the located hits of the picks. */
  readonly show: (k: number) => ReadonlyArray<SearchHit>
  /** Decides the file again from scratch (keeping its picks): for the page of a search by date. */
  readonly redo: () => Decided | undefined
  /** A big file read from its pieces: its key (body_walk.ts `docKey`), so that it is emitted once. */
  readonly pieceKey?: string
}

// Refs of a FileMatch: a piece or part number in the high half, a line in the low half.
const HIGH = 4294967296

/** What a segment's doc table says of a query's terms in file names. */
interface SegmentNames {
  /** Docs whose names hold some term: d → terms in its path, terms in any name. */
  readonly named: Map<number, { path: number; any: number }>
  /** Docs whose names hold an excluded term. */
  readonly excluded: Set<number>
}

/** The per-segment state of one search. */
class SegmentState {
  readonly segment: SegmentReader
  readonly postings: PostingCache
  readonly texts: LineTexts
  private readonly verdicts = new Map<number, boolean>()
  private readonly findNames: (st: SegmentState) => SegmentNames
  private names: SegmentNames | undefined
  constructor(segment: SegmentReader, findNames: (st: SegmentState) => SegmentNames) {
    this.segment = segment
    this.postings = new PostingCache(segment)
    this.texts = new LineTexts(segment)
    this.findNames = findNames
  }

  // Found when the walk first reaches the segment (S2: a page found in the newest segment looks no further).
  private found(): SegmentNames {
    return (this.names ??= this.findNames(this))
  }

  /** Docs whose names hold some term: d → terms in its path, terms in any name. */
  get named(): ReadonlyMap<number, { readonly path: number; readonly any: number }> {
    return this.found().named
  }

  /** Docs whose names hold an excluded term. */
  get excludedByName(): ReadonlySet<number> {
    return this.found().excluded
  }

  /** Whether doc `d` is searched: not deleted, not in the fresh tail, through the filters. */
  passes(d: number, fresh: ReadonlySet<string>, filters: Filters): boolean {
    let v = this.verdicts.get(d)
    if (v === undefined) {
      const s = this.segment
      if (s.isDeleted(d)) v = false
      // The common case, no filter and no fresh tail: nothing of the doc to decode (S2, issue 13).
      else if (filters.none && fresh.size === 0) v = true
      else {
        const doc = s.view(d)
        if (fresh.has(docKey(doc.index, doc.path))) v = false
        else {
          const src = s.docs.sourceMtimeMs(d)
          v = filters.passes(doc.index, doc.normIndex, doc.path, doc.normPath, doc.type, src >= 0 ? src : s.docs.mtimeMs(d))
        }
      }
      this.verdicts.set(d, v)
    }
    return v
  }

  /** Terms of the query in doc `d`'s path (its tier). */
  pathMask(d: number): number {
    return this.named.get(d)?.path ?? 0
  }
}

// The names of a file that hold no term and no excluded term.
const noNames: NamesMatch = { hits: [], mask: 0, excluded: false }

/** One search over a {@link FileSearchSource}; see the module doc. */
export class FileSearch {
  private readonly source: FileSearchSource
  private readonly filters: Filters
  private readonly query: SearchQuery
  private readonly options: FileSearchOptions
  private readonly control: FileSearchControl
  private readonly now: () => number
  private readonly states: ReadonlyArray<SegmentState>
  private readonly freshFiles: Array<{ readonly doc: FreshDoc; decided: Decided | null | undefined }>
  private ticks = 0
  private counting = false
  // Big files decided from their pieces in this search, by key (undefined: filtered out).
  private readonly piecesDecided = new Map<string, Decided | undefined>()

  constructor(source: FileSearchSource, query: SearchQuery, options: FileSearchOptions, control: FileSearchControl) {
    this.source = source
    this.query = query
    this.options = options
    this.control = control
    this.now = control.now ?? (() => performance.now())
    this.filters = filtersOf(query, options)
    this.states = [...source.segments].reverse().map((s) => new SegmentState(s, (st) => this.findNamed(st)))
    this.freshFiles = source.freshDocs.map((doc) => ({ doc, decided: undefined }))
  }

  // Docs whose names hold a term or an excluded term: one byte search per term over the doc table.
  private findNamed(st: SegmentState): SegmentNames {
    const docs = st.segment.docs
    const named = new Map<number, { path: number; any: number }>()
    const excluded = new Set<number>()
    this.query.terms.forEach((t, i) => {
      const found = docs.namesContaining(t)
      found.docs.forEach((d, k) => {
        let n = named.get(d)
        if (n === undefined) {
          n = { path: 0, any: 0 }
          named.set(d, n)
        }
        n.any |= 1 << i
        if (found.inPath[k] === true) n.path |= 1 << i
      })
    })
    for (const e of this.query.exclude) for (const d of docs.docsWithNameContaining(e)) excluded.add(d)
    // A piece's names are those of its whole file: the union over its pieces, wherever they are.
    for (const pieces of this.source.pieces.values()) {
      if (!pieces.some((p) => p.segment === st.segment)) continue
      const union = this.piecesNames(pieces)
      for (const p of pieces) {
        if (p.segment !== st.segment) continue
        if (union.any !== 0) named.set(p.d, { path: union.path, any: union.any })
        else named.delete(p.d)
        if (union.excluded) excluded.add(p.d)
      }
    }
    return { named, excluded }
  }

  // The terms the names of a big file's pieces hold together (decoded: a few docs).
  private piecesNames(pieces: ReadonlyArray<{ readonly segment: SegmentReader; readonly d: number }>): { path: number; any: number; excluded: boolean } {
    let path = 0
    let any = 0
    let excluded = false
    for (const p of pieces) {
      const names = p.segment.docs.normNames(p.d).split("\u0001")
      this.query.terms.forEach((t, i) => {
        if (names[0]!.includes(t)) path |= 1 << i
        if (names.some((n) => n.includes(t))) any |= 1 << i
      })
      if (this.query.exclude.some((e) => names.some((n) => n.includes(e)))) excluded = true
    }
    return { path, any, excluded }
  }

  // Locations a FileMatch keeps for picking: none once the page is complete (only counting goes on).
  private keep(): number | undefined {
    return this.counting ? 0 : undefined
  }

  private tick(): void {
    if (++this.ticks % CHECK_EVERY !== 0) return
    if (this.control.cancelled?.() === true || (this.control.deadline !== undefined && this.now() > this.control.deadline)) throw new Stop("time")
    if (this.counting && this.options.countDeadline !== undefined && this.now() > this.options.countDeadline) throw new Stop("time")
  }

  /** Runs the search (module doc). Throws on I/O errors. */
  run(): FileSearchOutcome {
    const offset = Math.max(0, this.options.offset ?? 0)
    const limit = Math.max(0, this.options.limit ?? 20)
    const k = Math.max(0, this.options.locations ?? 3)
    const wantTotals = this.options.totals ?? true
    const page: Array<FileHit> = []
    let files = 0
    let hits = 0
    let exact = true
    let partial = false
    let more = false
    const byDate = this.options.sort === "modified"
    const all: Array<{ readonly sortMs: number; readonly n: number; readonly redo: () => Decided | undefined }> = []
    // By date, every match is kept only as its date and a way to decide it again (with fresh cursors).
    if (byDate) this.counting = true
    const emit = (decided: Decided) => {
      const n = files++
      hits += decided.match.hits
      if (byDate) {
        all.push({ sortMs: decided.sortMs, n, redo: decided.redo })
        return
      }
      if (n >= offset && n < offset + limit) page.push(this.fileHitOf(decided, k))
      else if (n >= offset + limit) {
        more = true
        if (!wantTotals) throw new Stop("page")
        this.counting = true
      }
    }
    if (this.query.terms.length > 0) {
      try {
        this.walk(emit)
      } catch (e) {
        if (!(e instanceof Stop)) throw e
        if (e.why === "time") {
          exact = false
          // Out of time before the page was complete (or, by date, before every match was seen).
          if (byDate || page.length < limit) partial = true
        } else exact = false
      }
    }
    if (byDate) {
      all.sort((a, b) => b.sortMs - a.sortMs || a.n - b.n)
      this.counting = false
      for (const { redo } of all.slice(offset, offset + limit)) {
        const decided = redo()
        if (decided !== undefined) page.push(this.fileHitOf(decided, k))
      }
      more = all.length > offset + limit
    }
    return { files: page, offset, totals: { hits, files, exact }, more, partial }
  }

  private fileHitOf(decided: Decided, k: number): FileHit {
    return {
      index: decided.index,
      path: decided.path,
      hits: decided.match.hits,
      modifiedMs: decided.modifiedMs,
      size: decided.size,
      nameTerms: termCount(decided.pathTerms),
      near: decided.match.near,
      locations: decided.show(k)
    }
  }

  // Every matching file once, in relevance order, handed to `emit`.
  private walk(emit: (d: Decided) => void): void {
    const q = this.query
    const done = this.states.map(() => new Set<number>())
    // A big file's pieces stand in several segments: it is emitted once.
    const emittedPieces = new Set<string>()
    const emitOnce = (decided: Decided) => {
      if (decided.pieceKey !== undefined) {
        if (emittedPieces.has(decided.pieceKey)) return
        emittedPieces.add(decided.pieceKey)
      }
      emit(decided)
    }
    const levels = q.terms.length
    for (let level = levels; level >= 1; level--) {
      for (const f of this.freshFiles) {
        this.tick()
        if (termCount(this.freshPathMask(f.doc)) !== level) continue
        const decided = this.decideFresh(f)
        if (decided !== undefined && decided.match.matches) emit(decided)
      }
      for (const [i, st] of this.states.entries()) {
        const docs = [...st.named].filter(([d, m]) => termCount(m.path) === level && !done[i]!.has(d)).map(([d]) => d).sort((a, b) => a - b)
        if (docs.length === 0) continue
        const cursors = this.cursorsOf(st)
        for (const d of docs) {
          this.tick()
          done[i]!.add(d)
          const decided = this.decideSegmentDoc(st, d, cursors)
          if (decided !== undefined && decided.match.matches) emitOnce(decided)
        }
      }
    }
    // Level 0: near files first, then the spread ones (for one word, every file is near).
    for (const f of this.freshFiles) {
      this.tick()
      if (this.freshPathMask(f.doc) !== 0) continue
      const decided = this.decideFresh(f)
      if (decided !== undefined && decided.match.matches && decided.match.near) emit(decided)
    }
    for (const [i, st] of this.states.entries()) this.nearPass(st, done[i]!, emitOnce)
    if (levels < 2) return
    for (const f of this.freshFiles) {
      this.tick()
      if (this.freshPathMask(f.doc) !== 0) continue
      const decided = this.decideFresh(f)
      if (decided !== undefined && decided.match.matches && !decided.match.near) emit(decided)
    }
    for (const [i, st] of this.states.entries()) this.spreadPass(st, done[i]!, emitOnce)
  }

  private freshPathMask(doc: FreshDoc): number {
    let m = 0
    this.query.terms.forEach((t, i) => {
      if (doc.normPath.includes(t)) m |= 1 << i
    })
    return m
  }

  private cursorsOf(st: SegmentState): { readonly terms: ReadonlyArray<TermLines>; readonly exclude: ReadonlyArray<TermLines> } {
    return {
      terms: this.query.terms.map((t) => new TermLines(t, st.postings, st.texts)),
      exclude: this.query.exclude.map((t) => new TermLines(t, st.postings, st.texts))
    }
  }

  // Level-0 docs of a segment where one location holds every word: the line-level walk, and the docs
  // whose sheet names hold words (decided one by one), in doc order.
  private nearPass(st: SegmentState, done: Set<number>, emit: (d: Decided) => void): void {
    const seg = st.segment
    const named = [...st.named].filter(([d, m]) => m.path === 0 && !done.has(d)).map(([d]) => d).sort((a, b) => a - b)
    let nextNamed = 0
    const cursors = this.cursorsOf(st)
    const namedCursors = named.length > 0 ? this.cursorsOf(st) : cursors
    const decideNamedUpTo = (limit: number) => {
      for (; nextNamed < named.length && named[nextNamed]! < limit; nextNamed++) {
        const d = named[nextNamed]!
        this.tick()
        const decided = this.decideSegmentDoc(st, d, namedCursors)
        if (decided !== undefined && decided.match.matches && decided.match.near) {
          done.add(d)
          emit(decided)
        }
      }
    }
    const candidates = candidatesOf(seg, this.query, st.postings)
    if (candidates !== undefined) {
      const cursor = candidates.cursor
      let line = cursor.advance(0)
      while (line !== END) {
        this.tick()
        const d = seg.docOfLine(line)
        const end = seg.docs.first(d) + seg.docs.count(d)
        decideNamedUpTo(d)
        if (done.has(d) || st.named.has(d) || !st.passes(d, this.source.fresh, this.filters)) {
          line = cursor.advance(end)
          continue
        }
        const verdict = candidates.positionsAllow()
        if (verdict === "no") {
          line = cursor.advance(line + 1)
          continue
        }
        if (verdict === "maybe") {
          const l = st.texts.normalized(line)
          if (l === undefined || !this.query.terms.every((t) => locationHolds(l.text, l.forms, t))) {
            line = cursor.advance(line + 1)
            continue
          }
        }
        done.add(d)
        const decided = this.decideSegmentDoc(st, d, cursors)
        if (decided !== undefined && decided.match.matches) emit(decided)
        line = cursor.advance(end)
      }
    }
    decideNamedUpTo(Infinity)
  }

  // Level-0 docs of a segment holding every word, none in one location: leapfrog from the rarest
  // word's lines, doc by doc.
  private spreadPass(st: SegmentState, done: Set<number>, emit: (d: Decided) => void): void {
    const seg = st.segment
    // Docs with words in their sheet names, and pieces of big files (whose words may stand in other
    // pieces): decided one by one, in doc order with the others.
    const one = new Set([...st.named].filter(([d, m]) => m.path === 0 && !done.has(d)).map(([d]) => d))
    for (const pieces of this.source.pieces.values()) for (const p of pieces) if (p.segment === seg && !done.has(p.d) && !st.named.has(p.d)) one.add(p.d)
    const named = [...one].sort((a, b) => a - b)
    const cursors = this.cursorsOf(st)
    const lead = cursors.terms.reduce((a, b) => (b.df < a.df ? b : a))
    if (lead.df === 0 && named.length === 0) return
    const namedCursors = named.length > 0 ? this.cursorsOf(st) : cursors
    let nextNamed = 0
    const decideNamedUpTo = (limit: number) => {
      for (; nextNamed < named.length && named[nextNamed]! < limit; nextNamed++) {
        const d = named[nextNamed]!
        this.tick()
        const decided = this.decideSegmentDoc(st, d, namedCursors)
        if (decided !== undefined && decided.match.matches && !decided.match.near) emit(decided)
      }
    }
    let pos = 0
    for (;;) {
      this.tick()
      const x = lead.next(pos)
      if (x === END) break
      const d = seg.docOfLine(x)
      const a = seg.docs.first(d)
      const b = a + seg.docs.count(d)
      decideNamedUpTo(d)
      pos = b
      if (done.has(d) || one.has(d) || !st.passes(d, this.source.fresh, this.filters)) continue
      let all = true
      for (const c of cursors.terms) {
        if (c === lead) continue
        const n = c.next(a)
        if (n >= b) {
          all = false
          // No doc before the one holding this word's next line can hold every word.
          if (n !== END) pos = Math.max(pos, seg.docs.first(seg.docOfLine(n)))
          else pos = END
          break
        }
      }
      if (!all) {
        if (pos === END) break
        continue
      }
      done.add(d)
      const decided = this.decideSegmentDoc(st, d, cursors)
      if (decided !== undefined && decided.match.matches && !decided.match.near) emit(decided)
    }
    decideNamedUpTo(Infinity)
  }

  // A fresh file decided once per search (read whole).
  private decideFresh(f: { readonly doc: FreshDoc; decided: Decided | null | undefined }): Decided | undefined {
    if (f.decided !== undefined) return f.decided ?? undefined
    const doc = f.doc
    const stamp = freshStampOf(doc)
    const sortMs = stamp?.mtimeMs ?? doc.mtimeMs
    if (!this.filters.passes(doc.index, doc.normIndex, doc.path, doc.normPath, doc.type, sortMs)) {
      f.decided = null
      return undefined
    }
    // Most of the tail holds none of the words: ruled out by one read of its whole text (S2).
    const parts = readFreshParts(doc.folder, this.query.terms, doc.sieves, [...this.query.terms, ...this.query.exclude])
    if (parts === undefined) {
      f.decided = null
      return undefined
    }
    const decided = decideParts(this.query, doc.index, doc.path, parts, stamp, sortMs, () => this.tick())
    f.decided = decided
    return decided
  }

  // A segment doc (or the file of the piece it is) decided from the postings.
  private decideSegmentDoc(
    st: SegmentState,
    d: number,
    cursors: { readonly terms: ReadonlyArray<TermLines>; readonly exclude: ReadonlyArray<TermLines> }
  ): Decided | undefined {
    const seg = st.segment
    if (!st.passes(d, this.source.fresh, this.filters)) return undefined
    if (seg.docs.isPiece(d)) {
      // A big file is decided once, from all its pieces, wherever its first piece is met; it is
      // emitted once (emitOnce), by the pass it belongs to (near or spread).
      const view = seg.view(d)
      const key = docKey(view.index, view.path)
      if (!this.piecesDecided.has(key)) this.piecesDecided.set(key, this.decidePieces(key))
      return this.piecesDecided.get(key)
    }
    // A doc whose names hold no term and no excluded term (the doc table's byte search said so) matches
    // nothing by its names: nothing of it is decoded, so counting the totals costs the postings alone (S2).
    const names = st.named.has(d) || st.excludedByName.has(d) ? matchNames(this.query, fileNamesOf(seg.view(d).path, sheetNamesOf(seg.partsOf(d)))) : noNames
    const match = new FileMatch<number>(this.query, names, this.keep())
    const a = seg.docs.first(d)
    const b = a + seg.docs.count(d)
    if (!match.excluded) this.scanDoc(match, cursors, a, b, 0, true)
    const src = seg.docs.sourceMtimeMs(d)
    const size = seg.docs.sourceSize(d)
    return {
      get index() {
        return seg.view(d).index
      },
      get path() {
        return seg.view(d).path
      },
      match,
      names,
      pathTerms: st.pathMask(d),
      modifiedMs: src >= 0 ? src : undefined,
      size: size >= 0 ? size : undefined,
      sortMs: src >= 0 ? src : seg.docs.mtimeMs(d),
      show: (k) => this.showSegment(seg.view(d).index, seg.view(d).path, names, match, k, [{ seg, d }]),
      redo: () => this.decideSegmentDoc(st, d, this.cursorsOf(st))
    }
  }

  // The lines [a, b) holding a term or an excluded term, through the cursors (refs: piece · HIGH + line).
  // A whole file (`wholeFile`) missing a word is decided without counting; a piece of a big file
  // is not: its other pieces may hold the words it lacks.
  private scanDoc(
    match: FileMatch<number>,
    cursors: { readonly terms: ReadonlyArray<TermLines>; readonly exclude: ReadonlyArray<TermLines> },
    a: number,
    b: number,
    piece: number,
    wholeFile: boolean
  ): void {
    for (const e of cursors.exclude) {
      if (e.next(a) < b) {
        match.exclude()
        return
      }
    }
    if (wholeFile) {
      const needed = allTermsMask(this.query) & ~match.nameMask
      for (let i = 0; i < cursors.terms.length; i++) {
        if ((needed & (1 << i)) !== 0 && cursors.terms[i]!.next(a) >= b) return
      }
    }
    let pos = a
    const terms = cursors.terms
    for (;;) {
      this.tick()
      let best = END
      let mask = 0
      for (let i = 0; i < terms.length; i++) {
        const n = terms[i]!.next(pos)
        if (n < best) {
          best = n
          mask = 1 << i
        } else if (n === best && n !== END) mask |= 1 << i
      }
      if (best >= b) break
      match.add(mask, piece * HIGH + best)
      pos = best + 1
    }
  }

  // A big file read from all its pieces, in their order.
  private decidePieces(key: string): Decided | undefined {
    const pieces = [...(this.source.pieces.get(key) ?? [])]
    if (pieces.length === 0) return undefined
    pieces.sort((x, y) => pieceOrder(x.segment, x.d, y.segment, y.d))
    const first = pieces[0]!
    const view = first.segment.view(first.d)
    const sheets: Array<string> = []
    for (const p of pieces) for (const s of sheetNamesOf(p.segment.partsOf(p.d))) if (!sheets.includes(s)) sheets.push(s)
    const names = matchNames(this.query, fileNamesOf(view.path, sheets))
    const match = new FileMatch<number>(this.query, names, this.keep())
    // Every piece through cursors of its own (the walk's may stand past it). The totals' deadline
    // applies only once the page is complete (`counting`): reading a big file's pieces for the page
    // must not stop at it (a one-letter query found nothing, "out of time", after 50 ms).
    for (const [n, p] of pieces.entries()) {
      if (match.excluded) break
      const st = this.states.find((s) => s.segment === p.segment)
      if (st === undefined || p.segment.isDeleted(p.d)) continue
      const a = p.segment.docs.first(p.d)
      this.scanDoc(match, this.cursorsOf(st), a, a + p.segment.docs.count(p.d), n, false)
    }
    let src = -1
    let size = -1
    let published = 0
    for (const p of pieces) {
      src = Math.max(src, p.segment.docs.sourceMtimeMs(p.d))
      size = Math.max(size, p.segment.docs.sourceSize(p.d))
      published = Math.max(published, p.segment.docs.mtimeMs(p.d))
    }
    let pathMask = 0
    this.query.terms.forEach((t, i) => {
      if (normalizeForSearch(view.path).includes(t)) pathMask |= 1 << i
    })
    return {
      index: view.index,
      path: view.path,
      match,
      names,
      pathTerms: pathMask,
      modifiedMs: src >= 0 ? src : undefined,
      size: size >= 0 ? size : undefined,
      sortMs: src >= 0 ? src : published,
      show: (k) => this.showSegment(view.index, view.path, names, match, k, pieces.map((p) => ({ seg: p.segment, d: p.d }))),
      redo: () => this.decidePieces(key),
      pieceKey: key
    }
  }

  // The located hits to show of a segment file: its names, then its picks read from the body index.
  private showSegment(
    index: string,
    path: string,
    names: NamesMatch,
    match: FileMatch<number>,
    k: number,
    pieces: ReadonlyArray<{ readonly seg: SegmentReader; readonly d: number }>
  ): ReadonlyArray<SearchHit> {
    const out: Array<SearchHit> = namesShown(this.query, index, path, names)
    for (const ref of match.picks(Math.max(0, k - out.length))) {
      const piece = pieces[Math.floor(ref / HIGH)]
      if (piece === undefined) continue
      const line = ref % HIGH
      const l = piece.seg.line(line)
      if (l === undefined) continue
      const part = piece.seg.partsOf(piece.d).find((p) => line >= p.first && line < p.first + p.count)
      if (part === undefined) continue
      out.push(hitOf(index, path, part.file, part.locator, l.loc, l.text, spansOfTerms(l.text, this.query, l.forms)))
    }
    return out
  }
}

// The order of a big file's pieces: by the TSV their first part is in, then by its line base.
function pieceOrder(sa: SegmentReader, da: number, sb: SegmentReader, db: number): number {
  const pa = sa.partsOf(da)[0]
  const pb = sb.partsOf(db)[0]
  if (pa === undefined || pb === undefined) return 0
  const na = Number(/^\d+/.exec(pa.file)?.[0] ?? 0)
  const nb = Number(/^\d+/.exec(pb.file)?.[0] ?? 0)
  return na - nb || pa.lineBase - pb.lineBase
}

/** The name hits of a file as located hits (its path, then its sheet names), terms marked. */
export function namesShown(query: SearchQuery, index: string, path: string, names: NamesMatch): Array<SearchHit> {
  return names.hits.map((n: FileName) => nameHitOf(index, path, n, spansOfTerms(n.text, query)))
}

/**
 * Decides a file read whole (the fresh tail, the scan): every location
 * through the domain's {@link FileMatch} in document order. `tick` is
 * called per line (a budget check that may throw to stop).
 */
export function decideParts(
  query: SearchQuery,
  index: string,
  path: string,
  parts: ReadonlyArray<FreshPart>,
  stamp: { readonly size: number; readonly mtimeMs: number } | undefined,
  sortMs: number,
  tick: () => void = () => {}
): Decided {
  const sheets: Array<string> = []
  for (const p of parts) {
    if (p.locator !== "cell") continue
    const name = partNameOfTsvFileName(p.file)
    if (!sheets.includes(name)) sheets.push(name)
  }
  const names = matchNames(query, fileNamesOf(path, sheets))
  const match = new FileMatch<number>(query, names)
  const self: { decided?: Decided } = {}
  if (!match.excluded) {
    outer: for (const [pi, part] of parts.entries()) {
      for (const [li, line] of part.lines.entries()) {
        tick()
        const text = part.norms?.[li] ?? normalizeForSearch(line.text)
        const forms = part.formNorms?.[li] ?? (line.forms === undefined || line.forms === "" ? "" : normalizeForSearch(line.forms))
        if (holdsExcluded(query, text, forms)) {
          match.exclude()
          break outer
        }
        match.add(termMaskOf(query, text, forms), pi * HIGH + li)
      }
    }
  }
  let pathMask = 0
  const normPath = normalizeForSearch(path)
  query.terms.forEach((t, i) => {
    if (normPath.includes(t)) pathMask |= 1 << i
  })
  const decided: Decided = {
    index,
    path,
    match,
    names,
    pathTerms: pathMask,
    modifiedMs: stamp?.mtimeMs,
    size: stamp?.size,
    sortMs,
    show: (k) => {
      const out: Array<SearchHit> = namesShown(query, index, path, names)
      for (const ref of match.picks(Math.max(0, k - out.length))) {
        const part = parts[Math.floor(ref / HIGH)]
        const line = part?.lines[ref % HIGH]
        if (part === undefined || line === undefined) continue
        out.push(hitOf(index, path, part.file, part.locator, line.loc, line.text, spansOfTerms(line.text, query, line.forms ?? "")))
      }
      return out
    },
    redo: () => self.decided
  }
  self.decided = decided
  return decided
}

export type { Decided as DecidedFile }
