/**
 * The query language of `sagasu search` (issue 6; SPEC §5 "Search": filter by
 * index and file type):
 *
 * | typed | meaning |
 * |---|---|
 * | `見積 A-1234` | both terms in the same line (space — ASCII or 　 — is AND) |
 * | `"next meeting"` | a phrase: the spaces are part of the term |
 * | `-下書き`, `-"old price"` | lines holding the term are left out |
 * | `index:共有` | only that index (`index:a,b`: either) |
 * | `type:xlsx`, `type:excel` | only files of that type (extension or `excel`, `word`, `powerpoint`) |
 * | `path:見積/2024` | only files whose path (relative to the index folder) holds the fragment |
 * | `-type:pptx`, `-path:old` | a filter turned round |
 *
 * Terms, index names and path fragments are normalised (normalize.ts), so
 * `ＩＮＤＥＸ：共有` and `index:共有` mean the same. A word with a colon that
 * is not one of the three keys (`12:30`, `URL:`) is an ordinary term. A lone
 * `-` is a term.
 *
 * @module
 */
import { normalizeForSearch } from "./normalize.ts"

/** The keys of the filters a query can carry. */
export type FilterKey = "index" | "type" | "path"

/** One filter: the file must match one of `values` (or none of them when `negate`). */
export interface QueryFilter {
  readonly key: FilterKey
  /** Normalised; for `type`, lower-case extensions with aliases expanded. */
  readonly values: ReadonlyArray<string>
  readonly negate: boolean
}

/** A parsed query; every string already normalised with {@link normalizeForSearch}. */
export interface SearchQuery {
  /** Terms that must all occur in a line (AND); duplicates removed. */
  readonly terms: ReadonlyArray<string>
  /** Terms none of which may occur in the line. */
  readonly exclude: ReadonlyArray<string>
  /** Filters on the file (all must hold). */
  readonly filters: ReadonlyArray<QueryFilter>
}

/** File types by the names people use for them (`type:excel`). */
export const fileTypeAliases: Readonly<Record<string, ReadonlyArray<string>>> = {
  excel: ["xlsx", "xlsm", "xltx", "xltm", "xls", "xlsb", "ods"],
  word: ["docx", "docm", "dotx", "dotm", "doc", "odt", "rtf"],
  powerpoint: ["pptx", "pptm", "potx", "potm", "ppt", "odp"]
}

const quotes: Readonly<Record<string, string>> = { "\"": "\"", "“": "”", "＂": "＂", "「": "」" }
const isSpace = (c: string) => /[\s\u3000]/.test(c)

interface RawToken {
  readonly negate: boolean
  readonly text: string
  /** The part before the first quote, where a filter key may stand. */
  readonly head: string
}

function tokenize(input: string): Array<RawToken> {
  const tokens: Array<RawToken> = []
  let i = 0
  while (i < input.length) {
    while (i < input.length && isSpace(input.charAt(i))) i++
    if (i >= input.length) break
    let negate = false
    if (input.charAt(i) === "-" && i + 1 < input.length && !isSpace(input.charAt(i + 1))) {
      negate = true
      i++
    }
    let text = ""
    let head = ""
    let quoted = false
    while (i < input.length && !isSpace(input.charAt(i))) {
      const c = input.charAt(i)
      const close = quotes[c]
      // 「」 quote only at the start of a token: inside a word they are text (…「案」…).
      if (close !== undefined && (c !== "「" || text === "")) {
        const end = input.indexOf(close, i + 1)
        const stop = end < 0 ? input.length : end
        text += input.slice(i + 1, stop)
        quoted = true
        i = stop + 1
        continue
      }
      text += c
      if (!quoted) head += c
      i++
    }
    tokens.push({ negate, text, head })
  }
  return tokens
}

const filterPattern = /^(index|type|path):/

/**
 * Parses a query typed by a person (module doc). Empty terms are dropped;
 * a query with no terms finds nothing (filters alone select no lines).
 */
export function parseSearchQuery(input: string): SearchQuery {
  const terms: Array<string> = []
  const exclude: Array<string> = []
  const filters: Array<QueryFilter> = []
  for (const token of tokenize(input)) {
    const key = filterPattern.exec(normalizeForSearch(token.head))?.[1] as FilterKey | undefined
    if (key !== undefined) {
      const raw = normalizeForSearch(token.text).slice(key.length + 1)
      const values = raw.split(",").map((v) => v.trim()).filter((v) => v !== "")
      if (values.length === 0) continue
      filters.push({
        key,
        negate: token.negate,
        values: key === "type"
          ? values.flatMap((v) => fileTypeAliases[v.replace(/^\./, "")] ?? [v.replace(/^\./, "")])
          : key === "path"
          ? values.map((v) => v.replace(/\\/g, "/"))
          : values
      })
      continue
    }
    const term = normalizeForSearch(token.text)
    if (term.trim() === "") continue
    const list = token.negate ? exclude : terms
    if (!list.includes(term)) list.push(term)
  }
  return { terms, exclude, filters }
}

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

/** Whether a normalised line holds every term and no excluded term of `query`. */
export function lineMatchesQuery(normalizedLine: string, query: SearchQuery): boolean {
  if (query.terms.length === 0) return false
  for (const t of query.terms) if (!normalizedLine.includes(t)) return false
  for (const t of query.exclude) if (normalizedLine.includes(t)) return false
  return true
}
