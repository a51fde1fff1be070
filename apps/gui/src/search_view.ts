/**
 * Search for the page (SPEC §5 "Search"; S3–S5, issue 14): the store's
 * file-level search with the page's filters, each file once with its full
 * path (for the copy button), its hit count, date and size, and its best
 * locations with their snippets split into plain and hit pieces. The pieces
 * are rebuilt from the hit's line rather than parsed from the 【 】 marks,
 * because Japanese documents use 【 】 themselves (【重要】) and the page
 * must not highlight those.
 *
 * @module
 */
import { type HitContext, type SearchQuery, type TargetFolder, buildSnippet, exclusionsReadAsText, parseSearchQuery, spansOfTerms } from "@sagasu/domain"
import type { FileHit, FileSearchOptions, FileSearchResult, SearchHit } from "@sagasu/store"
import { Effect } from "effect"
import * as path from "node:path"
import { type FileView, type HitView, type SearchView, type SnippetPart, defaultPageFiles } from "./api.ts"

/** The page's filters and page, as `GET /api/search` takes them (type already checked). */
export interface PageSearchOptions {
  readonly index?: string | undefined
  readonly type?: ReadonlyArray<string> | undefined
  readonly limit?: number | undefined
  readonly offset?: number | undefined
  readonly sort?: "relevance" | "modified" | undefined
}

/** What one file-level search of the thread gives (search_thread.ts). */
export interface PageSearch {
  /** The local index's result, or the team server's (`engine: "team"`, issue 18). */
  readonly result: Omit<FileSearchResult, "engine"> & { readonly engine: FileSearchResult["engine"] | "team" }
  /** `contexts[i][j]`: the context of `result.files[i].locations[j]`, when it was read. */
  readonly contexts?: ReadonlyArray<ReadonlyArray<HitContext | undefined>> | undefined
  readonly superseded: boolean
}

/** Located hits shown per file on the page. */
export const pageLocations = 3

/**
 * Searches for the page with `search` (the server's search thread, S2):
 * an empty query finds nothing; the files get their full paths and their
 * locations' snippet pieces. `superseded` says a newer query cut this one
 * short (the page shows only its latest query's answer anyway).
 */
export const searchForPage = <E>(
  search: (query: string, options: FileSearchOptions) => Effect.Effect<PageSearch, E>,
  folders: ReadonlyArray<TargetFolder>,
  query: string,
  options: PageSearchOptions
) =>
  Effect.gen(function* () {
    const offset = options.offset ?? 0
    if (query.trim() === "") {
      return { files: [], offset, totals: { hits: 0, files: 0, exact: true }, more: false, engine: "gram", problem: "", partial: false, superseded: false, exclusionsAsText: false } satisfies SearchView
    }
    const filters = {
      ...(options.index !== undefined && options.index !== "" ? { index: options.index } : {}),
      ...(options.type !== undefined ? { type: options.type } : {})
    }
    const { result, contexts, superseded } = yield* search(query, {
      ...filters,
      limit: options.limit ?? defaultPageFiles,
      offset,
      locations: pageLocations,
      ...(options.sort !== undefined ? { sort: options.sort } : {})
    })
    const parsed = parseSearchQuery(query)
    const folderOf = new Map(folders.map((f) => [f.name, f.path]))
    return {
      files: result.files.map((file, i) => fileView(file, folderOf.get(file.index), parsed, contexts?.[i])),
      offset: result.offset,
      totals: result.totals,
      more: result.more,
      engine: result.engine,
      problem: result.problem,
      partial: result.partial,
      superseded,
      exclusionsAsText: exclusionsReadAsText(query)
    } satisfies SearchView
  })

function fileView(file: FileHit, folder: string | undefined, query: SearchQuery, contexts: ReadonlyArray<HitContext | undefined> | undefined): FileView {
  return {
    index: file.index,
    path: file.path,
    fullPath: folder === undefined ? file.path : path.join(folder, ...file.path.split("/")),
    hits: file.hits,
    modifiedMs: file.modifiedMs ?? null,
    size: file.size ?? null,
    locations: file.locations.map((hit, j) => hitView(hit, query, contexts?.[j]))
  }
}

function hitView(hit: SearchHit, query: SearchQuery, context: HitContext | undefined): HitView {
  return {
    index: hit.index, path: hit.path, part: hit.part, locator: hit.locator, loc: hit.loc, location: hit.location,
    snippet: snippetParts(hit, query), context: context ?? null
  }
}

const OPEN = "\u0001"
const CLOSE = "\u0002"

/**
 * The hit's snippet as plain and hit pieces: the words of `query` the line
 * holds are marked (the marks never come from the document's own text);
 * a line found only by a typed form of its value (`123350` for `¥123,350`,
 * S4) falls back to the store's snippet.
 */
export function snippetParts(hit: Pick<SearchHit, "text" | "snippet" | "locator">, query: SearchQuery): ReadonlyArray<SnippetPart> {
  // Same length, so the spans still fit: the marker characters cannot come from the text.
  const line = hit.text.replace(/[\u0001\u0002]/g, "\ufffd")
  const spans = spansOfTerms(line, query)
  const marked = spans.length === 0
    ? hit.snippet.replace(/【/g, OPEN).replace(/】/g, CLOSE)
    : buildSnippet(line, spans, { open: OPEN, close: CLOSE, ...(hit.locator === "name" ? { context: 200 } : {}) })
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
