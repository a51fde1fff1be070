/**
 * A first search that scans the body index (correct, not yet fast: the 2-gram
 * index replaces it). SPEC §5 "Search".
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { type Locator, buildSnippet, matchLine, parseBodyTsv, parseQuery, partNameOfTsvFileName } from "@sagasu/domain"
import { Effect } from "effect"
import * as path from "node:path"
import type { WorkPaths } from "./work_folder.ts"

/**
 * One hit: the `index`, the source file's `path` relative to the index's
 * folder (`/`-separated), the `part` (sheet name, `document` or `slides`), its
 * `locator` kind and `loc` (`B3`, `12`, `3 notes`), a human `location`
 * (`見積書!B3`, `¶12`, `slide 3 notes`), the whole line `text` and a
 * `snippet` with the hits marked 【like this】.
 */
export interface SearchHit {
  readonly index: string
  readonly path: string
  readonly part: string
  readonly locator: Locator
  readonly loc: string
  readonly location: string
  readonly text: string
  readonly snippet: string
}

/** Options of {@link scanBodyIndex}. */
export interface ScanOptions {
  /** Only this index. */
  readonly index?: string
  /** Only the source file at this path (relative, `/`-separated); needs `index`. */
  readonly path?: string
  /** At most this many hits (default 100). */
  readonly limit?: number
}

// `2_b.tsv` before `10_a.tsv`: parts in workbook order.
const byNumber = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true })

// The TSVs of one source file, as paths relative to the index folder.
const filesOfSource = Effect.fn(function* (root: string, source: string) {
  const fs = yield* FileSystem.FileSystem
  const folder = path.join(root, ...source.split("/"))
  if (!(yield* fs.exists(folder))) return []
  return (yield* fs.readDirectory(folder))
    .filter((e) => e.endsWith(".tsv"))
    .sort(byNumber)
    .map((e) => path.join(...source.split("/"), e))
})

/** The human form of a location: `Sheet!A1`, `¶12`, `slide 3`. */
export function formatLocation(locator: Locator, part: string, loc: string): string {
  switch (locator) {
    case "cell":
      return `${part}!${loc}`
    case "paragraph":
      return /^\d+$/.test(loc) ? `¶${loc}` : loc
    case "slide":
      return `slide ${loc}`
  }
}

/**
 * Finds lines of the body index that contain every term of `query`, in
 * index, path and TSV order, up to `limit` hits.
 */
export const scanBodyIndex = Effect.fn("Store.scanBodyIndex")(function* (
  paths: WorkPaths,
  query: string,
  options: ScanOptions = {}
) {
  const fs = yield* FileSystem.FileSystem
  const parsed = parseQuery(query)
  const limit = options.limit ?? 100
  const hits: Array<SearchHit> = []
  if (parsed.terms.length === 0 || !(yield* fs.exists(paths.index))) return hits
  const indexes = options.index !== undefined ? [options.index] : (yield* fs.readDirectory(paths.index)).sort()
  for (const index of indexes) {
    const root = path.join(paths.index, index)
    if (!(yield* fs.exists(root))) continue
    const entries = options.path !== undefined
      ? yield* filesOfSource(root, options.path)
      : (yield* fs.readDirectory(root, { recursive: true })).filter((e) => e.endsWith(".tsv")).sort(byNumber)
    for (const entry of entries) {
      const text = yield* fs.readFileString(path.join(root, entry))
      const tsv = parseBodyTsv(text)
      const part = partNameOfTsvFileName(path.basename(entry))
      const source = path.dirname(entry).split(path.sep).join("/")
      for (const line of tsv.lines) {
        const spans = matchLine(line.text, parsed)
        if (spans === undefined) continue
        hits.push({
          index,
          path: source,
          part,
          locator: tsv.locator,
          loc: line.loc,
          location: formatLocation(tsv.locator, part, line.loc),
          text: line.text,
          snippet: buildSnippet(line.text, spans)
        })
        if (hits.length >= limit) return hits
      }
    }
  }
  return hits
})
