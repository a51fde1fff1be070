/**
 * Matching a query against one body-index line and building the snippet
 * (SPEC §5 "Search"): normalise both sides, find every term, mark the hit.
 *
 * @module
 */
import { normalizeForSearch, normalizeWithMap } from "./normalize.ts"
import { type SearchQuery, parseSearchQuery } from "./search_query.ts"

/** A parsed query (search_query.ts): terms (AND), excluded terms, filters. */
export type Query = SearchQuery

/**
 * Parses a query typed by a person; the same as {@link parseSearchQuery}
 * (space = AND, `"…"` phrase, `-` to exclude, `index:`, `type:`, `path:`).
 */
export function parseQuery(input: string): Query {
  return parseSearchQuery(input)
}

/** A range `[start, end)` of UTF-16 units in the original line. */
export type Span = readonly [start: number, end: number]

/**
 * The ranges of the original `line` where the terms of `query` occur (every
 * occurrence, sorted), or `undefined` when a term is missing, an excluded
 * term occurs or the query has no terms. Matching is on the normalised line
 * (normalize.ts); a span covers whole original characters, so a hit inside
 * `㈱` or `ｶﾞ` marks that character. A term found only in the line's
 * search-only `forms` (S4: `123350` for `¥123,350`) marks the whole line:
 * the value it names is what the cell shows.
 */
export function matchLine(line: string, query: Query, forms = ""): ReadonlyArray<Span> | undefined {
  if (query.terms.length === 0) return undefined
  const normalized = normalizeWithMap(line)
  const text = normalized.text
  const normForms = forms === "" ? "" : normalizeForSearch(forms)
  for (const term of query.exclude) if (text.includes(term) || (normForms !== "" && normForms.includes(term))) return undefined
  const spans: Array<Span> = []
  for (const term of query.terms) {
    const at = text.indexOf(term)
    if (at < 0) {
      if (normForms === "" || !normForms.includes(term)) return undefined
      spans.push([0, line.length])
      continue
    }
    pushSpans(spans, normalized, term, at, line.length)
  }
  return spans.sort((a, b) => a[0] - b[0] || a[1] - b[1])
}

/**
 * The spans of the terms of `query` that the original `line` (or its forms)
 * holds, whichever they are — the marks of one location of a file-level hit
 * (S3: a location holds some of the words, the file all of them). Empty when
 * it holds none.
 */
export function spansOfTerms(line: string, query: Query, forms = ""): ReadonlyArray<Span> {
  const normalized = normalizeWithMap(line)
  const normForms = forms === "" ? "" : normalizeForSearch(forms)
  const spans: Array<Span> = []
  for (const term of query.terms) {
    const at = normalized.text.indexOf(term)
    if (at >= 0) pushSpans(spans, normalized, term, at, line.length)
    else if (normForms !== "" && normForms.includes(term)) spans.push([0, line.length])
  }
  return spans.sort((a, b) => a[0] - b[0] || a[1] - b[1])
}

function pushSpans(spans: Array<Span>, normalized: ReturnType<typeof normalizeWithMap>, term: string, first: number, length: number): void {
  let at = first
  while (at >= 0) {
    spans.push([normalized.from[at] ?? 0, normalized.to[at + term.length - 1] ?? length])
    at = normalized.text.indexOf(term, at + term.length)
  }
}

/** Options of {@link buildSnippet}. */
export interface BuildSnippetOptions {
  /** Characters kept on each side of the hits (default 30). */
  readonly context?: number
  /** Marks put around each hit (default `【` and `】`). */
  readonly open?: string
  readonly close?: string
}

/**
 * The line cut to the hits with `context` UTF-16 units around them, `…` where
 * text was cut, each hit wrapped in `open`/`close` (default 【 】). Overlapping
 * spans merge; hits more than `4 × context` after the first are not shown.
 */
export function buildSnippet(line: string, spans: ReadonlyArray<Span>, options: BuildSnippetOptions = {}): string {
  const context = options.context ?? 30
  const open = options.open ?? "【"
  const close = options.close ?? "】"
  const merged: Array<[number, number]> = []
  for (const [s, e] of [...spans].sort((a, b) => a[0] - b[0])) {
    const prev = merged[merged.length - 1]
    if (prev !== undefined && s <= prev[1]) prev[1] = Math.max(prev[1], e)
    else merged.push([s, e])
  }
  const first = merged[0]
  if (first === undefined) return line
  // Hits far after the first one are left out, so a snippet stays short.
  const shown = merged.filter((s) => s[0] === first[0] || s[1] <= first[0] + 4 * context)
  const lastSpan = shown[shown.length - 1] ?? first
  let from = Math.max(0, first[0] - context)
  let to = Math.min(line.length, lastSpan[1] + context)
  // Never cut a surrogate pair (emoji, rare kanji) in half.
  if (from > 0 && isLowSurrogate(line.charCodeAt(from))) from--
  if (to < line.length && isLowSurrogate(line.charCodeAt(to))) to++
  let out = from > 0 ? "…" : ""
  let at = from
  for (const [s, e] of shown) {
    out += line.slice(at, s) + open + line.slice(s, e) + close
    at = e
  }
  out += line.slice(at, to) + (to < line.length ? "…" : "")
  return out
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}
