/**
 * A search hit as every search returns it and `sagasu search --json` prints
 * it (SPEC §5 "Search": index, path, sheet/slide, cell, snippet).
 *
 * @module
 */
import { type Locator, type Span, buildSnippet, partNameOfTsvFileName } from "@sagasu/domain"

/**
 * One hit: the `index`, the source file's `path` relative to the index's
 * folder (`/`-separated, as on disk), the `part` (sheet name, `document` or
 * `slides`), its `locator` kind and `loc` (`B3`, `12`, `3 notes`), a human
 * `location` (`見積書!B3`, `¶12`, `slide 3 notes`), the whole line `text` and
 * a `snippet` with the hits marked 【like this】.
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

/** The human form of a location: `Sheet!A1`, `¶12`, `slide 3`, `property:title`. */
export function formatLocation(locator: Locator, part: string, loc: string): string {
  switch (locator) {
    case "cell":
      return `${part}!${loc}`
    case "paragraph":
      return /^\d+$/.test(loc) ? `¶${loc}` : loc
    case "slide":
      return `slide ${loc}`
    case "property":
      return `property:${loc}`
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
