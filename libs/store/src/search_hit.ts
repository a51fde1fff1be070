/**
 * A search hit as every search returns it and `sagasu search --json` prints
 * it (SPEC §5 "Search": index, path, sheet/slide, cell, snippet), and the
 * file-level result (S5, issue 14): each file once, with its best located
 * hits, its number of hits, its modified date and size.
 *
 * @module
 */
import { type FileName, type Locator, type Span, buildSnippet, partNameOfTsvFileName } from "@sagasu/domain"

/** Where a hit stands: a located line's kind, or `name` for a file's path or one of its sheet names (S4). */
export type HitLocator = Locator | "name"

/**
 * One hit: the `index`, the source file's `path` relative to the index's
 * folder (`/`-separated, as on disk), the `part` (sheet name, `document`,
 * `slides` or `properties`; for a name hit the sheet's name, or `""` for the
 * path), its `locator` kind and `loc` (`B3`, `12`, `3 notes`, `title`;
 * `path` or `sheet` for a name), a human `location` (`見積書!B3`, `¶12`,
 * `slide 3 notes`, `property:title`, `name`, `sheet:見積書`), the whole
 * line `text` (what Excel shows; for a name, the path or the sheet name)
 * and a `snippet` with the hits marked 【like this】.
 */
export interface SearchHit {
  readonly index: string
  readonly path: string
  readonly part: string
  readonly locator: HitLocator
  readonly loc: string
  readonly location: string
  readonly text: string
  readonly snippet: string
}

/** The human form of a location: `Sheet!A1`, `¶12`, `slide 3`, `property:title`, `name`, `sheet:Sheet`. */
export function formatLocation(locator: HitLocator, part: string, loc: string): string {
  switch (locator) {
    case "cell":
      return `${part}!${loc}`
    case "paragraph":
      return /^\d+$/.test(loc) ? `¶${loc}` : loc
    case "slide":
      return `slide ${loc}`
    case "property":
      return `property:${loc}`
    case "name":
      return loc === "sheet" ? `sheet:${part}` : "name"
  }
}

/** Builds a {@link SearchHit} from a matched line of the TSV `tsvFile`, marking `spans`. */
export function hitOf(
  index: string,
  path: string,
  tsvFile: string,
  locator: Locator,
  loc: string,
  text: string,
  spans: ReadonlyArray<Span>
): SearchHit {
  const part = partNameOfTsvFileName(tsvFile)
  return { index, path, part, locator, loc, location: formatLocation(locator, part, loc), text, snippet: buildSnippet(text, spans) }
}

/** The {@link SearchHit} of a file's name (its path, or a sheet's name) holding some terms, the terms marked. */
export function nameHitOf(index: string, path: string, name: FileName, spans: ReadonlyArray<Span>): SearchHit {
  const part = name.kind === "sheet" ? name.text : ""
  const loc = name.kind
  return { index, path, part, locator: "name", loc, location: formatLocation("name", part, loc), text: name.text, snippet: buildSnippet(name.text, spans, { context: 200 }) }
}

/** One file of a file-level search (S5): where it is, how it matched, and its best located hits. */
export interface FileHit {
  readonly index: string
  readonly path: string
  /** Its hits: locations (names, cells, paragraphs, slide lines, properties) holding at least one of the words. */
  readonly hits: number
  /** The source file's modified time (ms since the epoch) when it was read; `undefined` when not known (published by an older version). */
  readonly modifiedMs: number | undefined
  /** The source file's size in bytes when it was read; `undefined` when not known. */
  readonly size: number | undefined
  /** How many of the words its path holds (it ranks first for them). */
  readonly nameTerms: number
  /** One location holds every word its names do not. */
  readonly near: boolean
  /** Its best hits (names first), each word shown where it stands (file_match.ts), at most the search's `locations`. */
  readonly locations: ReadonlyArray<SearchHit>
}

/** The totals of a file-level search: hits and files over the whole result (S5). */
export interface SearchTotals {
  readonly hits: number
  readonly files: number
  /** Every file was counted; `false` when counting stopped at its budget (the numbers are then lower bounds). */
  readonly exact: boolean
}
