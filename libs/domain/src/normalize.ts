/**
 * Search normalisation (SPEC §5 "Search": NFKC, case fold, full-width /
 * half-width; cases BUG-28, BUG-30). The same function is applied to indexed
 * text, to queries and to paths, so that every spelling of a word a Japanese
 * office user meets finds the others:
 *
 * 1. the spacing voiced marks ゛ ゜ (U+309B, U+309C) become the combining
 *    marks (U+3099, U+309A) so they compose with the kana before them — NFKC
 *    alone turns them into a space plus a mark (BUG-28);
 * 2. NFKC: full-width ASCII → ASCII, half-width katakana → katakana,
 *    decomposed (NFD, as macOS writes names) → composed (BUG-30), ㈱ → (株);
 * 3. lower case (final sigma folded onto σ so that the result does not depend
 *    on where a line was cut);
 * 4. kana folding (default on): katakana → hiragana, so `ぱそこん` finds
 *    `パソコン` and `ｲｳﾞｧﾝｶ` finds `いゔぁんか`. Japanese users type a reading
 *    in hiragana before converting it and often leave it unconverted; the cost,
 *    that a hiragana query also finds the katakana spelling, is what they
 *    expect from Groonga's `unify_kana` and from Windows search;
 * 5. dash folding (default on): hyphens, dashes, the minus sign and the long
 *    vowel mark ー become `-`, wave dashes become `~` — `A－001`, `A−001` and
 *    `Aー001` are the same product code in real workbooks.
 *
 * Everything works per *segment* — a base character with the marks (and
 * Hangul vowel/final jamo) that compose with it — so {@link normalizeWithMap}
 * can map every unit of the result back to the original, and
 * {@link normalizeForSearch}, which works on the whole text at once for speed,
 * returns exactly the same string.
 *
 * @module
 */

/** Options of {@link normalizeWithMap} and {@link normalizeForSearch}; both default to `true`. */
export interface NormalizeOptions {
  /** Fold katakana onto hiragana (step 4). */
  readonly kana?: boolean
  /** Fold dashes, the minus sign and ー onto `-`, wave dashes onto `~` (step 5). */
  readonly dashes?: boolean
}

/**
 * Names the normalisation of this version with its default options. An index
 * built under another id must be rebuilt (the gram index records it).
 */
export const searchNormalizerId = "nfkc+marks+lower+kana+dashes/1"

/** Normalised text and, for each UTF-16 unit of it, the original range it came from. */
export interface NormalizedText {
  readonly text: string
  /** `from[i]` = index in the original of the segment that produced `text[i]`. */
  readonly from: ReadonlyArray<number>
  /** `to[i]` = end index (exclusive) in the original of that segment. */
  readonly to: ReadonlyArray<number>
}

// A segment is a base character and what composes with it under NFKC: marks,
// the half-width voiced marks (U+FF9E, U+FF9F) and the spacing kana marks
// (U+309B, U+309C), which are not \p{M}, and Hangul vowel/final jamo (an NFD
// Korean syllable is three \p{L} jamo).
const segmentPattern = /[\s\S][\p{M}\u309B\u309C\uFF9E\uFF9F\u1160-\u11FF\uD7B0-\uD7FF]*/gu

// What makes a segment longer than one UTF-16 unit (the segment pattern's tail, and surrogate pairs).
// (Surrogates apart: in a /u pattern a class sees a pair as one code point, not as its two units.)
const composing = /[\p{M}\u309B\u309C\uFF9E\uFF9F\u1160-\u11FF\uD7B0-\uD7FF]/u
const surrogate = /[\uD800-\uDFFF]/

const spacingMarks = /[\u309B\u309C]/g
const foldSpacingMark = (c: string) => (c === "\u309B" ? "\u3099" : "\u309A")

// Characters steps 3–5 change after NFKC + toLowerCase.
const kanaFoldable = /[\u30A1-\u30FA\u30FD\u30FE]/
const dashFoldable = /[\u2010-\u2015\u2043\u2212\uFE58\uFE63\u30FC\u301C\u2053\u223C]/
const sigma = "\u03C2"
const allFoldable = /[\u30A1-\u30FA\u30FD\u30FE\u2010-\u2015\u2043\u2212\uFE58\uFE63\u30FC\u301C\u2053\u223C\u03C2]/
// ヷヸヹヺ have no hiragana letter: fold them onto わゐゑを + combining dakuten.
const vuRow: Readonly<Record<number, string>> = { 0x30F7: "わ\u3099", 0x30F8: "ゐ\u3099", 0x30F9: "ゑ\u3099", 0x30FA: "を\u3099" }

function foldChars(text: string, kana: boolean, dashes: boolean): string {
  if (!allFoldable.test(text)) return text
  if (!text.includes(sigma) && !(kana && kanaFoldable.test(text)) && !(dashes && dashFoldable.test(text))) return text
  let out = ""
  let runStart = 0
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    let replacement: string | undefined
    if (c === 0x03C2) replacement = "\u03C3"
    else if (kana && c >= 0x30A1 && c <= 0x30F6) replacement = String.fromCharCode(c - 0x60)
    else if (kana && c >= 0x30F7 && c <= 0x30FA) replacement = vuRow[c]
    else if (kana && (c === 0x30FD || c === 0x30FE)) replacement = String.fromCharCode(c - 0x60)
    else if (dashes && ((c >= 0x2010 && c <= 0x2015) || c === 0x2043 || c === 0x2212 || c === 0xFE58 || c === 0xFE63 || c === 0x30FC)) replacement = "-"
    else if (dashes && (c === 0x301C || c === 0x2053 || c === 0x223C)) replacement = "~"
    if (replacement === undefined) continue
    out += text.slice(runStart, i) + replacement
    runStart = i + 1
  }
  return runStart === 0 ? text : out + text.slice(runStart)
}

function normalizeSegment(segment: string, kana: boolean, dashes: boolean): string {
  return foldChars(segment.replace(spacingMarks, foldSpacingMark).normalize("NFKC").toLowerCase(), kana, dashes)
}

/**
 * Normalises `text` for matching (steps 1–5 of the module doc) and returns the
 * result with a map back to the original: for each UTF-16 unit of the result,
 * the `[from, to)` range of the original segment it came from.
 */
export function normalizeWithMap(text: string, options: NormalizeOptions = {}): NormalizedText {
  const kana = options.kana ?? true
  const dashes = options.dashes ?? true
  // Most lines have no mark, jamo or surrogate: each character is a segment of its own, and when
  // the whole normalises to as many units as it has, each unit maps to itself (a snippet of a cold
  // search, S2: a regular expression and an NFKC call per character cost a page tens of ms).
  if (!composing.test(text) && !surrogate.test(text)) {
    const whole = normalizeForSearch(text, options)
    if (whole.length === text.length) {
      const from = new Array<number>(text.length)
      const to = new Array<number>(text.length)
      for (let i = 0; i < text.length; i++) {
        from[i] = i
        to[i] = i + 1
      }
      return { text: whole, from, to }
    }
  }
  let out = ""
  const from: Array<number> = []
  const to: Array<number> = []
  for (const match of text.matchAll(segmentPattern)) {
    const start = match.index
    const end = start + match[0].length
    const normalized = normalizeSegment(match[0], kana, dashes)
    for (let i = 0; i < normalized.length; i++) {
      from.push(start)
      to.push(end)
    }
    out += normalized
  }
  return { text: out, from, to }
}

/**
 * The search key of a text, a query term or a path: {@link normalizeWithMap}
 * without the map, computed on the whole text at once (several times faster;
 * the result is the same string, which a property test checks).
 */
export function normalizeForSearch(text: string, options: NormalizeOptions = {}): string {
  const kana = options.kana ?? true
  const dashes = options.dashes ?? true
  let s = text
  if (s.includes("\u309B") || s.includes("\u309C")) s = s.replace(spacingMarks, foldSpacingMark)
  const nfkc = s.normalize("NFKC")
  if (kana && dashes && nfkc.length >= unitTableMinLength && wideUnit.test(nfkc)) {
    longUnits += nfkc.length
    if (unitTable !== undefined || longUnits >= unitTableAfterUnits) {
      const folded = foldUnits(nfkc)
      if (folded !== undefined) return folded
    }
  }
  return foldChars(nfkc.toLowerCase(), kana, dashes)
}

/**
 * Texts at least this long (UTF-16 units) take the per-unit table of steps
 * 3–5 ({@link foldUnits}): a block of the body index, a fresh file's rows.
 * A query or a line does not, so no cold search builds the table.
 */
export const unitTableMinLength = 4096

/**
 * The table is built once a process has normalised this many units of long
 * wide text (what it saves, ≈ 2.7 ns a unit, then pays its 3–7 ms): the
 * 2-gram thread and a worker build it within their first files; a cold
 * search that reads a few small fresh folders never does (S2).
 */
export const unitTableAfterUnits = 2_000_000
let longUnits = 0

// A unit past Latin-1: the engine lowers a Latin-1-only string faster than a loop of ours, and steps 4–5 change none of it.
const wideUnit = /[^\x00-\xff]/

// The blocks where a character's lower case can differ from it (Unicode 15: Latin to Greek Extended,
// the letterlike symbols, Roman numerals and circled letters, Glagolitic to Cyrillic Extended-A, Cyrillic
// Extended-B to Latin Extended-D, Cherokee Supplement, full-width Latin). normalize.test.ts checks the
// table against toLowerCase for every unit, so a Node whose Unicode moves a letter outside them fails it.
const casedBlocks: ReadonlyArray<readonly [number, number]> = [
  [0x0041, 0x1fff],
  [0x2100, 0x24ff],
  [0x2c00, 0x2dff],
  [0xa640, 0xa7ff],
  [0xab70, 0xabbf],
  [0xff21, 0xff3a]
]

// The supplementary scripts with case (Deseret, Osage, Vithkuqi; Old Hungarian; Warang Citi; Medefaidrin; Adlam) by their high surrogate.
const casedHighSurrogates = [0xd801, 0xd803, 0xd806, 0xd81b, 0xd83a]

let unitTable: Uint16Array | undefined

/** Whether this process has built the table of {@link normalizeUnitTable} (a cold search should not have). */
export const unitTableBuilt = (): boolean => unitTable !== undefined

/**
 * Steps 3–5 (lower case, kana and dash folding) of each UTF-16 unit after
 * NFKC where they give one unit for one, as `foldChars(c.toLowerCase())`
 * does; 0 where they do not (İ, ヷ–ヺ, and a high surrogate of a
 * supplementary script with case). The final sigma needs no context here:
 * step 3 folds ς onto σ. Built on first use (3–7 ms here).
 */
export function normalizeUnitTable(): Uint16Array {
  if (unitTable !== undefined) return unitTable
  const table = new Uint16Array(65536)
  for (let c = 0; c < 65536; c++) table[c] = c
  for (const [first, last] of casedBlocks) {
    for (let c = first; c <= last; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue
      const lower = String.fromCharCode(c).toLowerCase()
      table[c] = lower.length === 1 ? lower.charCodeAt(0) : 0
    }
  }
  table[0x03c2] = 0x03c3
  for (let c = 0x30a1; c <= 0x30f6; c++) table[c] = c - 0x60
  for (let c = 0x30f7; c <= 0x30fa; c++) table[c] = 0
  table[0x30fd] = 0x309d
  table[0x30fe] = 0x309e
  for (const c of [0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2043, 0x2212, 0xfe58, 0xfe63, 0x30fc]) table[c] = 0x2d
  for (const c of [0x301c, 0x2053, 0x223c]) table[c] = 0x7e
  for (const c of casedHighSurrogates) table[c] = 0
  unitTable = table
  return table
}

/**
 * Steps 3–5 of an NFKC text by {@link normalizeUnitTable}: the text itself
 * when no unit changes, `undefined` when a unit has no one-unit result (the
 * caller then takes the string path). On kana-rich Japanese text twice as
 * fast as lowering the whole string and folding it (docs/benchmarks.md).
 */
function foldUnits(text: string): string | undefined {
  const table = normalizeUnitTable()
  const n = text.length
  let i = 0
  while (i < n) {
    const c = text.charCodeAt(i)
    if (table[c] !== c) break
    i++
  }
  if (i === n) return text
  const out = new Uint16Array(n)
  for (let k = 0; k < n; k++) {
    const c = text.charCodeAt(k)
    if ((c & 0xf800) === 0xd800) {
      // A pair is copied whole; a lone surrogate (the decoder would make it U+FFFD) or a pair of a script
      // with case takes the string path.
      const low = text.charCodeAt(k + 1)
      if (c >= 0xdc00 || !(low >= 0xdc00 && low <= 0xdfff) || table[c] === 0) return undefined
      out[k] = c
      out[++k] = low
      continue
    }
    const m = table[c] ?? 0
    if (m === 0 && c !== 0) return undefined
    out[k] = m
  }
  return utf16Decoder.decode(out)
}

// A leading U+FEFF is text here, kept (ignoreBOM).
const utf16Decoder = new TextDecoder("utf-16le", { ignoreBOM: true })
