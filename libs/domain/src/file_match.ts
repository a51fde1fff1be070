/**
 * A query matched against a whole file (SPEC S3, S4, S5; issue 14): every
 * term somewhere in the file — in its names or in any of its locations —
 * and no excluded term anywhere. The same rules serve every way a search
 * reads a file (the gram index's postings, the fresh tail read from the body
 * index, the scan), so they give the same answers: each hands the
 * locations holding some term to a {@link FileMatch}, in document order.
 *
 * - A file's *names* are its path inside the index (folders and file name)
 *   and its sheet names (S4). A name holding a term is a location of the
 *   file (`name`), counts as one of its hits and ranks the file first.
 * - A *hit* is a location (a name, a cell, a paragraph, a slide line, a
 *   property) holding at least one term; a file's hit count counts them.
 * - A file is *near* when one location holds every term its names do not:
 *   such files rank before the files whose words are spread out.
 * - The locations shown are picked among the first {@link pickWindow} hits
 *   in document order: lines holding more terms first, so that each term
 *   is shown where it stands, then document order.
 *
 * @module
 */
import { normalizeForSearch } from "./normalize.ts"
import type { SearchQuery } from "./search_query.ts"

/** One name of a file: its path inside the index, or a sheet's name. */
export interface FileName {
  readonly kind: "path" | "sheet"
  /** As on disk / in the workbook (not normalised). */
  readonly text: string
}

/** A name of a file and the terms it holds. */
export interface NameHit extends FileName {
  /** Bit `i` for `query.terms[i]`. */
  readonly mask: number
}

/** The names of a file: its path, then its sheet names (as given: the parts of locator `cell`). */
export function fileNamesOf(path: string, sheetNames: ReadonlyArray<string>): Array<FileName> {
  return [{ kind: "path", text: path }, ...sheetNames.map((text) => ({ kind: "sheet" as const, text }))]
}

/** What a file's names hold of `query`: the names holding terms, their terms, and whether one holds an excluded term. */
export interface NamesMatch {
  readonly hits: ReadonlyArray<NameHit>
  /** The terms some name holds. */
  readonly mask: number
  readonly excluded: boolean
}

/** Matches `query` against a file's names (normalised here). */
export function matchNames(query: SearchQuery, names: ReadonlyArray<FileName>): NamesMatch {
  const hits: Array<NameHit> = []
  let mask = 0
  let excluded = false
  for (const name of names) {
    const norm = normalizeForSearch(name.text)
    let m = 0
    for (let i = 0; i < query.terms.length; i++) if (norm.includes(query.terms[i]!)) m |= 1 << i
    if (m !== 0) {
      hits.push({ ...name, mask: m })
      mask |= m
    }
    if (!excluded) for (const e of query.exclude) if (norm.includes(e)) excluded = true
  }
  return { hits, mask, excluded }
}

/** The mask of every term of `query`. */
export function allTermsMask(query: SearchQuery): number {
  return query.terms.length >= 31 ? -1 >>> 0 : (1 << query.terms.length) - 1
}

/** The number of bits set in `mask`. */
export function termCount(mask: number): number {
  let m = mask >>> 0
  let n = 0
  while (m !== 0) {
    m &= m - 1
    n++
  }
  return n
}

/** Locations of a file considered when picking the ones to show (the first ones in document order). */
export const pickWindow = 1000

/**
 * The hits of one file, gathered in document order (module doc); `R` is
 * whatever the caller needs to show a location again (a line number, a
 * line).
 */
export class FileMatch<R> {
  /** The terms of the query together. */
  readonly all: number
  /** The terms the file's names hold. */
  readonly nameMask: number
  private readonly nameHits: number
  private covered: number
  private lines = 0
  private nearSeen: boolean
  private excludedSeen: boolean
  // The first locations, in document order (their position here is their order): masks and refs side by side.
  private readonly masks: Array<number> = []
  private readonly refs: Array<R> = []
  // Whether every location kept holds the same terms (one word: always), so that document order is the picks' order.
  private oneMask = true
  private readonly keep: number

  /** `keep`: how many of the first locations to keep for {@link picks} (default {@link pickWindow}; 0 when only counting). */
  constructor(query: SearchQuery, names: NamesMatch, keep: number = pickWindow) {
    this.keep = keep
    this.all = allTermsMask(query)
    this.nameMask = names.mask
    this.nameHits = names.hits.length
    this.covered = names.mask
    this.excludedSeen = names.excluded
    this.nearSeen = query.terms.length > 0 && (names.mask & this.all) === this.all
  }

  /** A location holding the terms `mask` (≥ 1 of them), the next one in document order. */
  add(mask: number, ref: R): void {
    if (mask === 0) return
    this.covered |= mask
    if (((mask | this.nameMask) & this.all) === this.all) this.nearSeen = true
    if (this.masks.length < this.keep) {
      if (this.masks.length > 0 && this.masks[0] !== mask) this.oneMask = false
      this.masks.push(mask)
      this.refs.push(ref)
    }
    this.lines++
  }

  /** A location of the file holds an excluded term: the file does not match. */
  exclude(): void {
    this.excludedSeen = true
  }

  /** Whether an excluded term was seen. */
  get excluded(): boolean {
    return this.excludedSeen
  }

  /** Whether the file holds every term (names and locations together) and no excluded term. */
  get matches(): boolean {
    return !this.excludedSeen && this.all !== 0 && (this.covered & this.all) === this.all
  }

  /** Whether one location (with the names) holds every term. */
  get near(): boolean {
    return this.nearSeen
  }

  /** The file's hits: its locations holding a term, and its names holding one. */
  get hits(): number {
    return this.lines + this.nameHits
  }

  /** The terms seen so far in the names and locations. */
  get coveredMask(): number {
    return this.covered
  }

  /**
   * The (at most `k`) locations to show, best first: greedily the location
   * holding most terms not shown yet (ties: more terms, then document
   * order), until every term is shown; then the rest by the number of terms
   * they hold and document order.
   */
  picks(k: number): Array<R> {
    const n = this.masks.length
    if (k <= 0 || n === 0) return []
    // Every location holds the same terms: document order (a cold search's page, S2: no sort of 1,000 locations per file).
    if (this.oneMask) return this.refs.slice(0, k)
    // By the number of terms held, most first, document order within: a stable bucket sort.
    const buckets: Array<Array<number>> = []
    for (let i = 0; i < n; i++) {
      const c = termCount(this.masks[i]!)
      ;(buckets[c] ??= []).push(i)
    }
    const sorted: Array<number> = []
    for (let c = buckets.length - 1; c >= 0; c--) for (const i of buckets[c] ?? []) sorted.push(i)
    const chosen = new Set<number>()
    const order: Array<number> = []
    let shown = 0
    for (;;) {
      if (chosen.size >= k || (shown & this.all) === this.all) break
      let best = -1
      let gain = 0
      for (let i = 0; i < sorted.length; i++) {
        if (chosen.has(i)) continue
        const g = termCount(this.masks[sorted[i]!]! & ~shown)
        if (g > gain) {
          gain = g
          best = i
        }
      }
      if (best < 0) break
      chosen.add(best)
      order.push(best)
      shown |= this.masks[sorted[best]!]!
    }
    for (let i = 0; i < sorted.length && chosen.size < k; i++) {
      if (chosen.has(i)) continue
      chosen.add(i)
      order.push(i)
    }
    return order.map((i) => this.refs[sorted[i]!]!)
  }
}
