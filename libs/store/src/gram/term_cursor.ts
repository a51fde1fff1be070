/**
 * Cursors over the lines of one segment that hold a query's terms (issue 6,
 * issue 14): {@link candidatesOf} for the lines holding every term (the
 * line-level walk), {@link TermLines} for the lines holding one term, each
 * verified against its row in the body index when the postings cannot tell
 * (a gram seen twice in a line, past position 254). Effect-free.
 *
 * @module
 */
import { type SearchQuery, gramRangeOf, locationHolds, lookupOfTerm, normalizeForSearch, positionsVerdict } from "@sagasu/domain"
import { AndCursor, type Cursor, END, ListCursor, type SegmentReader, UnionCursor } from "./segment_reader.ts"

/**
 * The candidate lines of a segment: a cursor over the lines holding every
 * gram (or character) of every term, and, per term of 2+ characters, the
 * position check of its grams.
 */
export interface Candidates {
  readonly cursor: Cursor
  /**
   * Whether the grams' positions in the cursor's current line allow every
   * term: `no`, `maybe` (verify the text) or `yes` (every term is there).
   */
  readonly positionsAllow: () => "no" | "maybe" | "yes"
}

/**
 * The {@link Candidates} of the lines of `segment` that may hold every term
 * of `query`; `undefined` when a gram is absent. `postings` (made anew when
 * not given) holds the lists read.
 */
export function candidatesOf(segment: SegmentReader, query: SearchQuery, postings: PostingCache = new PostingCache(segment)): Candidates | undefined {
  const cursors: Array<Cursor> = []
  // Per term of 2+ characters: its gram sequence and, at each index of it, the cursor of that gram.
  const checks: Array<{ sequence: ReadonlyArray<number>; cursors: ReadonlyArray<ListCursor> }> = []
  for (const term of query.terms) {
    const lookup = lookupOfTerm(term)
    if (lookup._tag === "grams") {
      const byKey = new Map<number, ListCursor>()
      for (const key of lookup.keys) {
        const list = postings.list(key)
        if (list === undefined) return undefined
        const c = new ListCursor(list.bytes, 0, list.df)
        byKey.set(key, c)
        cursors.push(c)
      }
      if (lookup.sequence.length > 1) {
        checks.push({ sequence: lookup.sequence, cursors: lookup.sequence.map((k) => byKey.get(k)!) })
      }
    } else if (lookup._tag === "first") {
      // The range's lists lie back to back in .post: one read.
      const lists = postings.range(lookup.codePoint).map((l) => new ListCursor(l.bytes, l.at, l.df))
      if (lists.length === 0) return undefined
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


/**
 * The normalised text and forms of a segment's lines, read from the body
 * index and kept for the last few lines asked (a line is verified for
 * several terms in a row).
 */
export class LineTexts {
  private readonly segment: SegmentReader
  private readonly cache = new Map<number, { text: string; forms: string } | null>()
  constructor(segment: SegmentReader) {
    this.segment = segment
  }

  /** Line `line` normalised (text and forms), `undefined` when its folder changed since it was indexed. */
  normalized(line: number): { readonly text: string; readonly forms: string } | undefined {
    const known = this.cache.get(line)
    if (known !== undefined) return known ?? undefined
    const l = this.segment.line(line)
    const v = l === undefined ? null : { text: normalizeForSearch(l.text), forms: l.forms === "" ? "" : normalizeForSearch(l.forms) }
    if (this.cache.size >= 64) this.cache.clear()
    this.cache.set(line, v)
    return v ?? undefined
  }
}

/** Posting bytes read once per search and segment, so that cursors over them can be made again cheaply. */
export class PostingCache {
  private readonly lists = new Map<number, { bytes: Uint8Array; df: number } | null>()
  private readonly ranges = new Map<number, Array<{ bytes: Uint8Array; at: number; df: number }>>()
  private readonly segment: SegmentReader
  constructor(segment: SegmentReader) {
    this.segment = segment
  }

  /** The posting list of gram `key` (`undefined`: no line holds it). */
  list(key: number): { readonly bytes: Uint8Array; readonly df: number } | undefined {
    let v = this.lists.get(key)
    if (v === undefined) {
      const ref = this.segment.lookup(key)
      v = ref === undefined ? null : { bytes: this.segment.readPostings(ref.offset, ref.length), df: ref.df }
      this.lists.set(key, v)
    }
    return v ?? undefined
  }

  /** The posting lists of every gram starting with `codePoint` (one read). */
  range(codePoint: number): ReadonlyArray<{ readonly bytes: Uint8Array; readonly at: number; readonly df: number }> {
    let v = this.ranges.get(codePoint)
    if (v === undefined) {
      const [from, to] = gramRangeOf(codePoint)
      const refs = this.segment.lookupRange(from, to)
      const first = refs[0]
      const last = refs[refs.length - 1]
      if (first === undefined || last === undefined) v = []
      else {
        const bytes = this.segment.readPostings(first.offset, last.offset + last.length - first.offset)
        v = refs.map((r) => ({ bytes, at: r.offset - first.offset, df: r.df }))
      }
      this.ranges.set(codePoint, v)
    }
    return v
  }
}

/**
 * The lines of a segment holding one normalised term, in ascending order,
 * each verified when its postings cannot tell. Forward only: {@link next}
 * must be asked with non-decreasing `from`.
 */
export class TermLines {
  /** An upper bound of the lines it yields (the rarest gram's count). */
  readonly df: number
  private readonly term: string
  private readonly cursor: Cursor | undefined
  private readonly sequence: ReadonlyArray<number>
  private readonly seqCursors: ReadonlyArray<ListCursor>
  private readonly texts: LineTexts
  private from = -1
  private cur = -1

  constructor(term: string, postings: PostingCache, texts: LineTexts) {
    this.term = term
    this.texts = texts
    const lookup = lookupOfTerm(term)
    let cursor: Cursor | undefined
    let sequence: ReadonlyArray<number> = []
    let seqCursors: Array<ListCursor> = []
    if (lookup._tag === "grams") {
      const byKey = new Map<number, ListCursor>()
      const cursors: Array<ListCursor> = []
      let missing = false
      for (const key of lookup.keys) {
        const list = postings.list(key)
        if (list === undefined) {
          missing = true
          break
        }
        const c = new ListCursor(list.bytes, 0, list.df)
        byKey.set(key, c)
        cursors.push(c)
      }
      if (!missing) {
        cursor = cursors.length === 1 ? cursors[0] : new AndCursor(cursors)
        if (lookup.sequence.length > 1) {
          sequence = lookup.sequence
          seqCursors = lookup.sequence.map((k) => byKey.get(k)!)
        }
      }
    } else if (lookup._tag === "first") {
      const lists = postings.range(lookup.codePoint).map((l) => new ListCursor(l.bytes, l.at, l.df))
      if (lists.length > 0) cursor = lists.length === 1 ? lists[0] : new UnionCursor(lists)
    }
    this.cursor = cursor
    this.sequence = sequence
    this.seqCursors = seqCursors
    this.df = cursor?.df ?? 0
  }

  /** The first line ≥ `from` holding the term, or {@link END}. */
  next(from: number): number {
    if (from <= this.cur && from >= this.from) return this.cur
    if (from < this.from) throw new Error("TermLines.next: asked backwards")
    this.from = from
    const cursor = this.cursor
    if (cursor === undefined) return (this.cur = END)
    let line = cursor.advance(from)
    while (line !== END) {
      const verdict = this.sequence.length === 0 ? "yes" : positionsVerdict(this.sequence, (_, i) => this.seqCursors[i]!.tag)
      if (verdict === "yes") break
      if (verdict === "maybe") {
        const l = this.texts.normalized(line)
        if (l !== undefined && locationHolds(l.text, l.forms, this.term)) break
      }
      line = cursor.advance(line + 1)
    }
    return (this.cur = line)
  }
}
