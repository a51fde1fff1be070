/**
 * The 2-gram tokenizer of the gram index (SPEC: "2-gram index", issue 6) and
 * the position tags that say where a gram stands in a line. How postings are
 * laid out in bytes on disk is the store's (`libs/store/src/gram/format.ts`).
 *
 * A gram is two consecutive *code points* of normalised text (never UTF-16
 * units: an emoji or a rare kanji outside the BMP is one character). Every
 * line also yields the gram `(last character, END)`, so every character of a
 * line is the first half of some gram: a 1-character query `c` is the union
 * of the grams whose first half is `c` — one contiguous range of keys —
 * answered from the index like any other query.
 *
 * Keys are `first * GRAM_RADIX + second`, at most ≈1.24e12, exact in a
 * double, ordered first by the first character.
 *
 * @module
 */

/** The pseudo character after the last character of a line (one past the last code point). */
export const GRAM_END = 0x110000

/** The base of gram keys: one more than {@link GRAM_END}. */
export const GRAM_RADIX = 0x110001

/** The key of the gram `(first, second)`; `second` may be {@link GRAM_END}. */
export function gramKey(first: number, second: number): number {
  return first * GRAM_RADIX + second
}

/** The two code points of a gram key (`second` is {@link GRAM_END} for a line's last gram). */
export function gramOfKey(key: number): readonly [first: number, second: number] {
  const first = Math.floor(key / GRAM_RADIX)
  return [first, key - first * GRAM_RADIX]
}

/**
 * The keys `[from, to)` of all grams starting with the code point `first`:
 * the lines containing the character `first` anywhere are exactly the union
 * of their posting lists.
 */
export function gramRangeOf(first: number): readonly [from: number, to: number] {
  return [first * GRAM_RADIX, (first + 1) * GRAM_RADIX]
}

/**
 * Calls `f` with the key of every gram of the normalised `line` and its
 * position (index of its first code point), in order, repeats included,
 * ending with `(last, END)`; nothing for an empty line. The indexing hot
 * path: no allocation per gram.
 */
export function forEachGramOfLine(line: string, f: (key: number, position: number) => void): void {
  forEachGramInRange(line, 0, line.length, f)
}

/**
 * {@link forEachGramOfLine} of `text.slice(start, end)` without making the
 * slice: the grams of one line of a block of lines. `end` must not fall
 * inside a surrogate pair (a line ends at a `\n` or at the end of `text`).
 */
export function forEachGramInRange(text: string, start: number, end: number, f: (key: number, position: number) => void): void {
  if (start >= end) return
  let prev = text.codePointAt(start) ?? 0
  let i = start + (prev > 0xffff ? 2 : 1)
  let position = 0
  while (i < end) {
    const cp = text.codePointAt(i) ?? 0
    f(prev * GRAM_RADIX + cp, position++)
    prev = cp
    i += cp > 0xffff ? 2 : 1
  }
  f(prev * GRAM_RADIX + GRAM_END, position)
}

/**
 * What the index must be asked for one normalised query term:
 * - `grams`: the keys of its inner grams (2 or more characters; no END
 *   gram, since a term may stand anywhere in a line) — candidate lines hold all;
 * - `first`: for a 1-character term, its code point — candidates are the lines
 *   in {@link gramRangeOf}(first);
 * - `empty` for an empty term.
 */
export type TermLookup =
  | {
    readonly _tag: "grams"
    /** Distinct keys. */
    readonly keys: ReadonlyArray<number>
    /** The key of the gram at each position of the term, repeats included. */
    readonly sequence: ReadonlyArray<number>
  }
  | { readonly _tag: "first"; readonly codePoint: number }
  | { readonly _tag: "empty" }

/** The {@link TermLookup} of a normalised term. */
export function lookupOfTerm(term: string): TermLookup {
  const cps = Array.from(term, (c) => c.codePointAt(0) ?? 0)
  const [first] = cps
  if (first === undefined) return { _tag: "empty" }
  if (cps.length === 1) return { _tag: "first", codePoint: first }
  const sequence: Array<number> = []
  for (let i = 1; i < cps.length; i++) sequence.push(gramKey(cps[i - 1] ?? 0, cps[i] ?? 0))
  return { _tag: "grams", keys: [...new Set(sequence)], sequence }
}

/**
 * The position tag of a posting meaning "the gram occurs more than once in
 * the line, or at position 255 or later": the line must be verified.
 */
export const POSITION_UNKNOWN = 255

/** The position tag of a gram seen at `position` for the first time in a line. */
export function positionTag(position: number): number {
  return position < POSITION_UNKNOWN ? position : POSITION_UNKNOWN
}

/**
 * Whether a line can hold a term, judged by the position tags of the term's
 * grams in that line (`tagOf(key, index)`, for each key of `sequence`, the
 * term's grams in order): every gram seen once must stand at `p + i` for one
 * `p`, and a gram the term needs twice must not be seen only once.
 * `"no"`: certainly not; `"yes"`: certainly (every tag known and in line — the
 * grams spell the term at `p`); `"maybe"`: verify the text.
 */
export function positionsVerdict(
  sequence: ReadonlyArray<number>,
  tagOf: (key: number, index: number) => number
): "no" | "maybe" | "yes" {
  let p = -1
  let unknown = false
  for (let i = 0; i < sequence.length; i++) {
    const key = sequence[i] ?? 0
    const tag = tagOf(key, i)
    if (tag === POSITION_UNKNOWN) {
      unknown = true
      continue
    }
    for (let j = 0; j < i; j++) if (sequence[j] === key) return "no" // needed twice, seen once
    const start = tag - i
    if (start < 0) return "no"
    if (p < 0) p = start
    else if (p !== start) return "no"
  }
  return unknown ? "maybe" : "yes"
}

/** {@link positionsVerdict} is not `"no"`. */
export function positionsAgree(sequence: ReadonlyArray<number>, tagOf: (key: number, index: number) => number): boolean {
  return positionsVerdict(sequence, tagOf) !== "no"
}
