/**
 * Search for the page (SPEC §5 "Search", issue 7): the store's
 * `searchIndex` with the index and type filters, each hit with the full path
 * of its source file (for the copy button) and its snippet split into plain
 * and hit pieces. The pieces are rebuilt from the hit's line rather than
 * parsed from the 【 】 marks, because Japanese documents use 【 】
 * themselves (【重要】) and the page must not highlight those.
 *
 * @module
 */
import { type TargetFolder, buildSnippet, matchLine } from "@sagasu/domain"
import { type SearchHit, type SearchOptions, type SearchResult, queryWithOptions } from "@sagasu/store"
import { Effect } from "effect"
import * as path from "node:path"
import type { HitView, SearchView, SnippetPart } from "./api.ts"

/** Options of {@link searchForPage}. */
export interface PageSearchOptions {
  readonly index?: string | undefined
  readonly type?: "excel" | "word" | "powerpoint" | undefined
  readonly limit?: number | undefined
}

/**
 * Searches for the page with `search` (the server's search thread, S2):
 * an empty query finds nothing; the hits get their full paths and snippet
 * pieces. `superseded` says a newer query cut this one short (the page
 * shows only its latest query's answer anyway).
 */
export const searchForPage = <E>(
  search: (query: string, options: SearchOptions) => Effect.Effect<{ readonly result: SearchResult; readonly superseded: boolean }, E>,
  folders: ReadonlyArray<TargetFolder>,
  query: string,
  options: PageSearchOptions
) =>
  Effect.gen(function* () {
    if (query.trim() === "") return { hits: [], engine: "gram", limited: false, problem: "", partial: false, superseded: false } satisfies SearchView
    const filters = {
      ...(options.index !== undefined && options.index !== "" ? { index: options.index } : {}),
      ...(options.type !== undefined ? { type: options.type } : {})
    }
    const { result, superseded } = yield* search(query, { ...filters, limit: options.limit ?? 100 })
    const parsed = queryWithOptions(query, filters)
    const folderOf = new Map(folders.map((f) => [f.name, f.path]))
    return {
      hits: result.hits.map((hit) => toView(hit, folderOf.get(hit.index), parsed)),
      engine: result.engine,
      limited: result.limited,
      problem: result.problem,
      partial: result.partial,
      superseded
    } satisfies SearchView
  })

const OPEN = "\u0001"
const CLOSE = "\u0002"

function toView(hit: SearchHit, folder: string | undefined, query: ReturnType<typeof queryWithOptions>): HitView {
  return {
    index: hit.index,
    path: hit.path,
    fullPath: folder === undefined ? hit.path : path.join(folder, ...hit.path.split("/")),
    part: hit.part,
    locator: hit.locator,
    loc: hit.loc,
    location: hit.location,
    snippet: snippetParts(hit, query)
  }
}

/** The hit's snippet as plain and hit pieces (the marks never come from the document's own text). */
export function snippetParts(hit: Pick<SearchHit, "text" | "snippet">, query: ReturnType<typeof queryWithOptions>): ReadonlyArray<SnippetPart> {
  // Same length, so the spans still fit: the marker characters cannot come from the text.
  const line = hit.text.replace(/[\u0001\u0002]/g, "\ufffd")
  const spans = matchLine(line, query)
  const marked = spans === undefined ? hit.snippet.replace(/【/g, OPEN).replace(/】/g, CLOSE) : buildSnippet(line, spans, { open: OPEN, close: CLOSE })
  const parts: Array<SnippetPart> = []
  for (const piece of marked.split(OPEN)) {
    const close = piece.indexOf(CLOSE)
    if (close < 0) {
      if (piece !== "") parts.push({ text: piece, hit: false })
      continue
    }
    parts.push({ text: piece.slice(0, close), hit: true })
    if (close + 1 < piece.length) parts.push({ text: piece.slice(close + 1), hit: false })
  }
  return parts
}
