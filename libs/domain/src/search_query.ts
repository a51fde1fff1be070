/**
 * The query language of `sagasu search` and the GUI's search box (SPEC S3;
 * issues 6 and 14). This module is the one parser: the CLI, the GUI, the
 * searches and the tests all read a query through {@link parseSearchQuery}.
 *
 * | typed | meaning |
 * |---|---|
 * | `山田 決定事項` | both words somewhere in the same file, in any cells / paragraphs / slides (space — ASCII or 　 — is AND) |
 * | `"next meeting"` | a phrase: kept together, within one cell, paragraph or slide line |
 * | `-下書き`, `-"old price"` | files holding the word (or phrase) anywhere are left out |
 * | `「承認」ボタン`, `『報告書』` | ordinary text: Japanese brackets are never quotes |
 * | `1.25"`, `"abc`, `script="x"` | ordinary text: a `"` inside a word, or one that is not closed, is a character |
 * | `--verbose`, `-` | ordinary text: a `-` before another `-`, or alone, excludes nothing |
 * | `-4.18-9.1j` (alone) | ordinary text: in a query made only of excluded words, `-` is a minus sign (such a query would find nothing) |
 * | `index:共有` | only that index (`index:a,b`: either) |
 * | `type:xlsx`, `type:excel` | only files of that type (an extension or a group, {@link fileTypeGroups}) |
 * | `path:見積/2024` | only files whose path (relative to the index folder) holds the fragment |
 * | `-type:pptx`, `-path:old` | a filter turned round |
 *
 * A phrase opens with `"` (or `＂`, `“`, `”`) at the start of a word and
 * closes at the next quote of its kind that ends a word (a space or the end
 * of the query follows it; `“` and `”` are one kind), else at the next quote
 * of any kind that does; without one, the quote is text. A filter's value may be
 * a phrase (`index:"共有 フォルダ"`). Terms, index names and path fragments
 * are normalised (normalize.ts), so `ＩＮＤＥＸ：共有` and `index:共有` mean
 * the same; a word with a colon that is not one of the three keys (`12:30`,
 * `URL:`) is an ordinary term. A query keeps at most {@link maxQueryTerms}
 * terms (the rest are dropped).
 *
 * Terms match the searchable text of a location: its displayed text and its
 * search-only forms (a number's plain value, a date's typed forms: S4), and
 * the file's names (its path inside the index, its sheet names).
 *
 * @module
 */
import { normalizeForSearch } from "./normalize.ts"

/** The keys of the filters a query can carry. */
export type FilterKey = "index" | "type" | "path"

/** One filter: the file must match one of `values` (or none of them when `negate`). */
export interface QueryFilter {
  readonly key: FilterKey
  /** Normalised; for `type`, lower-case extensions with groups expanded. */
  readonly values: ReadonlyArray<string>
  readonly negate: boolean
}

/** A parsed query; every string already normalised with {@link normalizeForSearch}. */
export interface SearchQuery {
  /** Terms (words and phrases) that must all occur in the file (S3); duplicates removed. */
  readonly terms: ReadonlyArray<string>
  /** Terms none of which may occur anywhere in the file. */
  readonly exclude: ReadonlyArray<string>
  /** Filters on the file (all must hold). */
  readonly filters: ReadonlyArray<QueryFilter>
}

/** The most terms (and as many excluded terms) a query keeps: a term is a bit of a 32-bit mask. */
export const maxQueryTerms = 30

/**
 * Every extension Sagasu indexes, by group (app_kind.ts's table): what
 * `--type` and `type:` accept besides the groups' names.
 */
export const fileTypeGroups: Readonly<Record<string, ReadonlyArray<string>>> = {
  excel: ["xlsx", "xlsm", "xltx", "xltm", "xls", "xlt", "xlsb", "ods", "ots", "fods"],
  word: ["docx", "docm", "dotx", "dotm", "doc", "dot", "odt", "ott", "fodt", "rtf"],
  powerpoint: ["pptx", "pptm", "ppsx", "ppsm", "potx", "potm", "ppt", "pps", "pot", "odp", "otp", "fodp"],
  /** The binary formats of Office 97–2003 (and xlsb, Excel's binary workbook). */
  legacy: ["xls", "xlt", "xlsb", "doc", "dot", "ppt", "pps", "pot"]
}

/** File types by the names people use for them (`type:excel`); the same table as {@link fileTypeGroups}. */
export const fileTypeAliases: Readonly<Record<string, ReadonlyArray<string>>> = fileTypeGroups

/** Every extension of {@link fileTypeGroups}, sorted. */
export const knownFileTypes: ReadonlyArray<string> = [...new Set(Object.values(fileTypeGroups).flat())].sort()

/**
 * The extensions a `--type` value (or a `type:` value) stands for: a group
 * name or a known extension, case and a leading dot ignored; `undefined`
 * when it is neither (the CLI then names the valid choices, issue 14).
 */
export function resolveFileType(value: string): ReadonlyArray<string> | undefined {
  const v = normalizeForSearch(value.trim()).replace(/^\./, "")
  const group = fileTypeGroups[v]
  if (group !== undefined) return group
  return knownFileTypes.includes(v) ? [v] : undefined
}

const openers = new Set(["\"", "＂", "“", "”"])
const isSpaceCode = (c: number) =>
  c === 0x20 || c === 0x3000 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0xfeff
const isSpaceAt = (s: string, i: number) => i < s.length && isSpaceCode(s.charCodeAt(i))

/** A quote's kind: `"`, `＂`, or the curly pair `“ ”` (either closes the other: IMEs give both ways round). */
const quoteKind = (quote: string) => (quote === "“" || quote === "”" ? "“”" : quote)

/**
 * Where the phrase opened at `at` closes: the index of a quote that ends a word — the first of the
 * opening quote's kind, else the first of any kind (`"…”` closes) — or -1. So a pasted `"2” and 4”"`
 * (inches) is one phrase (S3: an inner quote is text).
 */
function phraseEnd(input: string, at: number): number {
  const kind = quoteKind(input.charAt(at))
  let other = -1
  for (let j = at + 1; j < input.length; j++) {
    const c = input.charAt(j)
    if (!openers.has(c) || (j + 1 < input.length && !isSpaceAt(input, j + 1))) continue
    if (quoteKind(c) === kind) return j
    if (other < 0) other = j
  }
  return other
}

interface RawToken {
  readonly negate: boolean
  /** The token's text with a phrase's quotes taken off. */
  readonly text: string
  /** For a word: the text before its first colon, where a filter key may stand (`undefined` for a phrase). */
  readonly head: string | undefined
}

function tokenize(input: string): Array<RawToken> {
  const tokens: Array<RawToken> = []
  let i = 0
  while (i < input.length) {
    while (isSpaceAt(input, i)) i++
    if (i >= input.length) break
    let negate = false
    // `-` excludes before text that is not another `-` (`--verbose`) and not nothing.
    if (input.charAt(i) === "-" && i + 1 < input.length && !isSpaceAt(input, i + 1) && input.charAt(i + 1) !== "-") {
      negate = true
      i++
    }
    if (openers.has(input.charAt(i))) {
      const end = phraseEnd(input, i)
      if (end > i) {
        tokens.push({ negate, text: input.slice(i + 1, end), head: undefined })
        i = end + 1
        continue
      }
    }
    let j = i
    while (j < input.length && !isSpaceAt(input, j)) j++
    const word = input.slice(i, j)
    // A filter's value may be a phrase: index:"共有 フォルダ".
    const colon = word.search(/[:：]/)
    if (colon > 0 && openers.has(word.charAt(colon + 1)) && filterKeyOf(word.slice(0, colon)) !== undefined) {
      const end = phraseEnd(input, i + colon + 1)
      if (end > i + colon + 1) {
        tokens.push({ negate, text: `${word.slice(0, colon)}:${input.slice(i + colon + 2, end)}`, head: word.slice(0, colon) })
        i = end + 1
        continue
      }
    }
    tokens.push({ negate, text: word, head: colon > 0 ? word.slice(0, colon) : undefined })
    i = j
  }
  return tokens
}

function filterKeyOf(head: string): FilterKey | undefined {
  const key = normalizeForSearch(head)
  return key === "index" || key === "type" || key === "path" ? key : undefined
}

// Control characters never stand in indexed text as typed: a pasted one is a space.
const controls = /[\u0000-\u0008\u000e-\u001f\u007f]/g

/**
 * Parses a query typed by a person (module doc). Empty terms are dropped;
 * a query with no terms finds nothing (filters and exclusions alone select
 * no file).
 */
export function parseSearchQuery(input: string): SearchQuery {
  const terms: Array<string> = []
  const exclude: Array<string> = []
  const filters: Array<QueryFilter> = []
  let tokens = tokenize(input.replace(controls, " "))
  // Only excluded words (`-4.18-9.1j` pasted from a cell): they would find nothing, so they are text.
  if (onlyExclusions(tokens)) {
    tokens = tokenize(input.replace(controls, " ").replace(/(^|[\s\u3000])-/g, "$1\u0000")).map((t) => ({ ...t, text: t.text.replace(/^\u0000/, "-") }))
  }
  for (const token of tokens) {
    const key = token.head === undefined ? undefined : filterKeyOf(token.head)
    if (key !== undefined) {
      const raw = normalizeForSearch(token.text.slice(token.head!.length + 1))
      const values = raw.split(",").map((v) => v.trim()).filter((v) => v !== "")
      if (values.length === 0) continue
      filters.push({
        key,
        negate: token.negate,
        values: key === "type"
          ? values.flatMap((v) => resolveFileType(v) ?? [v.replace(/^\./, "")])
          : key === "path"
          ? values.map((v) => v.replace(/\\/g, "/"))
          : values
      })
      continue
    }
    const term = normalizeForSearch(token.text)
    if (term.trim() === "") continue
    const list = token.negate ? exclude : terms
    if (!list.includes(term) && list.length < maxQueryTerms) list.push(term)
  }
  return { terms, exclude, filters }
}

const onlyExclusions = (tokens: ReadonlyArray<RawToken>): boolean =>
  tokens.length > 0 && tokens.every((t) => t.negate && (t.head === undefined || filterKeyOf(t.head) === undefined))

/**
 * Whether {@link parseSearchQuery} reads the `-` of `input` as text, not as
 * an exclusion: every word of it starts with `-` (S3: such a query would
 * find nothing). A search that finds nothing says so (`search -山田` looks
 * for 「-山田」; to exclude, a word to find goes first).
 */
export const exclusionsReadAsText = (input: string): boolean => onlyExclusions(tokenize(input.replace(controls, " ")))

/** The lower-case extension of a source path (`見積/A.XLSX` → `xlsx`; `""` when none). */
export function fileTypeOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1)
  const dot = name.lastIndexOf(".")
  return dot <= 0 ? "" : name.slice(dot + 1).toLowerCase()
}

/** A source file as the filters see it. */
export interface FilterSubject {
  /** The index name, normalised. */
  readonly index: string
  /** The path relative to the index folder, `/`-separated, normalised. */
  readonly path: string
  /** {@link fileTypeOf} the path. */
  readonly type: string
}

/** Whether a source file passes every filter of `query`. */
export function passesFilters(query: SearchQuery, subject: FilterSubject): boolean {
  for (const f of query.filters) {
    const hit = f.values.some((v) =>
      f.key === "index" ? subject.index === v : f.key === "type" ? subject.type === v : subject.path.includes(v)
    )
    if (hit === f.negate) return false
  }
  return true
}

/**
 * How many terms of `query` the normalised path holds: files whose name
 * also names what was asked rank first ("more terms matched", issue 6).
 */
export function termsInPath(query: SearchQuery, normalizedPath: string): number {
  let n = 0
  for (const t of query.terms) if (normalizedPath.includes(t)) n++
  return n
}

/**
 * Whether the searchable text of one location — its normalised displayed
 * text and, when it has them, its normalised search-only forms (S4) — holds
 * `term`. A term matches within the text or within the forms, never across
 * the two.
 */
export function locationHolds(normalizedText: string, normalizedForms: string, term: string): boolean {
  return normalizedText.includes(term) || (normalizedForms !== "" && normalizedForms.includes(term))
}

/**
 * Whether a normalised line (with its normalised forms, S4) holds every
 * term and no excluded term of `query`: the line-level match of the gram
 * index's posting walk (a file-level search asks it of the lines that hold
 * all the words in one place).
 */
export function lineMatchesQuery(normalizedLine: string, query: SearchQuery, normalizedForms = ""): boolean {
  if (query.terms.length === 0) return false
  for (const t of query.terms) if (!locationHolds(normalizedLine, normalizedForms, t)) return false
  for (const t of query.exclude) if (locationHolds(normalizedLine, normalizedForms, t)) return false
  return true
}

/** Bit `i` set for each term `query.terms[i]` the location holds (text or forms, {@link locationHolds}). */
export function termMaskOf(query: SearchQuery, normalizedText: string, normalizedForms = ""): number {
  let mask = 0
  for (let i = 0; i < query.terms.length; i++) if (locationHolds(normalizedText, normalizedForms, query.terms[i]!)) mask |= 1 << i
  return mask
}

/** Whether the location holds some excluded term of `query`. */
export function holdsExcluded(query: SearchQuery, normalizedText: string, normalizedForms = ""): boolean {
  for (const t of query.exclude) if (locationHolds(normalizedText, normalizedForms, t)) return true
  return false
}
