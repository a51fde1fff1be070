/**
 * Matching a query against one body-index line and building the snippet
 * (SPEC §5 "Search"): normalise both sides, find every term, mark the hit.
 *
 * @module
 */
import { normalizeForSearch, normalizeWithMap } from "./normalize.ts"

/** A parsed query: terms that must all occur (space = AND), already normalised. */
export interface Query {
  readonly terms: ReadonlyArray<string>
}

/**
 * Parses a query typed by a person: whitespace (ASCII or ideographic)
 * separates terms, all of which must occur; `"…"` keeps spaces inside a term.
 * Empty terms are dropped.
 */
export function parseQuery(input: string): Query {
  const terms: Array<string> = []
  for (const match of input.matchAll(/"([^"]*)"|[^\s\u3000"]+/g)) {
    const term = normalizeForSearch(match[1] ?? match[0])
    if (term.trim() !== "") terms.push(term)
  }
  return { terms }
}

/** A range `[start, end)` of UTF-16 units in the original line. */
export type Span = readonly [start: number, end: number]

/**
 * The ranges of the original `line` where each term of `query` occurs
 * (first occurrence of each term), or `undefined` when a term is missing.
 */
export function matchLine(line: string, query: Query): ReadonlyArray<Span> | undefined {
  if (query.terms.length === 0) return undefined
  const normalized = normalizeWithMap(line)
  const spans: Array<Span> = []
  for (const term of query.terms) {
    const at = normalized.text.indexOf(term)
    if (at < 0) return undefined
    spans.push([normalized.from[at] ?? 0, normalized.to[at + term.length - 1] ?? line.length])
  }
  return spans.sort((a, b) => a[0] - b[0])
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
 * The line cut to the hits with `context` characters around them, `…` where
 * text was cut, each hit wrapped in `open`/`close`. Overlapping spans merge.
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
  const lastSpan = merged[merged.length - 1]
  if (first === undefined || lastSpan === undefined) return line
  let from = Math.max(0, first[0] - context)
  let to = Math.min(line.length, lastSpan[1] + context)
  // Never cut a surrogate pair (emoji, rare kanji) in half.
  if (from > 0 && isLowSurrogate(line.charCodeAt(from))) from--
  if (to < line.length && isLowSurrogate(line.charCodeAt(to))) to++
  let out = from > 0 ? "…" : ""
  let at = from
  for (const [s, e] of merged) {
    out += line.slice(at, s) + open + line.slice(s, e) + close
    at = e
  }
  out += line.slice(at, to) + (to < line.length ? "…" : "")
  return out
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}
