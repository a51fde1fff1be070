/**
 * Search normalisation (SPEC §5 "Search": NFKC, case fold, full-width /
 * half-width). The same function is applied to indexed text and to queries,
 * and it keeps a map back to the original text so a hit can be marked in it.
 *
 * @module
 */

/** Normalised text and, for each UTF-16 unit of it, the original range it came from. */
export interface NormalizedText {
  readonly text: string
  /** `from[i]` = index in the original of the segment that produced `text[i]`. */
  readonly from: ReadonlyArray<number>
  /** `to[i]` = end index (exclusive) in the original of that segment. */
  readonly to: ReadonlyArray<number>
}

// A segment is a base character and the marks that compose with it, so that
// NFKC can compose カ+U+3099 → ガ and ｶ+ﾞ → ガ within one segment. The
// half-width voiced marks (U+FF9E, U+FF9F) and the spacing kana marks
// (U+309B, U+309C) are not \p{M}, yet they compose with the kana before them.
const segmentPattern = /[\s\S][\p{M}\u309B\u309C\uFF9E\uFF9F]*/gu

// NFKC maps the spacing marks U+309B/U+309C to a space + combining mark; fold
// them to the combining marks first so that か゛ composes to が (cases BUG-28).
function foldSpacingMarks(segment: string): string {
  return segment.replace(/\u309B/g, "\u3099").replace(/\u309C/g, "\u309A")
}

/**
 * Normalises `text` for matching: NFKC (full-width ASCII → ASCII, half-width
 * katakana → katakana, composed dakuten), then lower case. Returns the
 * normalised string with a map back to the original.
 */
export function normalizeWithMap(text: string): NormalizedText {
  let out = ""
  const from: Array<number> = []
  const to: Array<number> = []
  for (const match of text.matchAll(segmentPattern)) {
    const start = match.index
    const end = start + match[0].length
    const normalized = foldSpacingMarks(match[0]).normalize("NFKC").toLowerCase()
    for (let i = 0; i < normalized.length; i++) {
      from.push(start)
      to.push(end)
    }
    out += normalized
  }
  return { text: out, from, to }
}

/** {@link normalizeWithMap} without the map: the search key of a text or a query. */
export function normalizeForSearch(text: string): string {
  return normalizeWithMap(text).text
}
