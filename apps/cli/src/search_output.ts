/**
 * What `sagasu search` prints, as a pure function of the result (SPEC §6;
 * the `--json` contract in the README): shared by the full command
 * (search_command.ts) and the cold-start path (search_fast.ts), which must
 * print byte for byte the same. Effect-free: it is on the path of every
 * cold search.
 *
 * @module
 */
import type { Language } from "@sagasu/domain"
import type { SearchHit } from "@sagasu/store"

/** What a search found, as both paths have it. */
export interface SearchOutputInput {
  readonly hits: ReadonlyArray<SearchHit>
  /** `scan`: no usable gram index; the body index was scanned. */
  readonly engine: "gram" | "scan"
  /** `hits` reached `--limit`. */
  readonly limited: boolean
  /** Why the gram index could not be used (`""` otherwise). */
  readonly problem: string
  /** The search stopped at its time budget (S2). */
  readonly partial: boolean
}

/** How to print. */
export interface SearchOutputOptions {
  readonly query: string
  readonly json: boolean
  /** ANSI colours (a TTY without NO_COLOR). */
  readonly color: boolean
  readonly language: Language
}

/** The texts of `sagasu search` for a person, by language. */
export const searchTexts = (language: Language) =>
  language === "en"
    ? {
      none: (q: string) => `No hits for "${q}".`,
      count: (n: number, more: boolean) => `${n}${more ? "+" : ""} hits${more ? " (raise --limit for more)" : ""}`,
      scanned: "The search index is not built yet; the body index was scanned (run `sagasu index`).",
      partial: "The search took too long and stopped: these are the hits found so far.",
      badLimit: "--limit must be 1 or more.",
      badType: (t: string) => `Unknown --type "${t}": use an extension such as xlsx, docx, pptx, or excel, word, powerpoint.`
    }
    : {
      none: (q: string) => `「${q}」は見つかりませんでした。`,
      count: (n: number, more: boolean) => `${n}${more ? " 件以上" : " 件"}${more ? "（--limit で増やせます）" : ""}`,
      scanned: "検索用の索引がまだ無いため、本文インデックスを順に調べました（sagasu index で作られます）。",
      partial: "検索に時間がかかったため途中で打ち切りました。ここまでに見つかった結果です。",
      badLimit: "--limit には 1 以上を指定してください。",
      badType: (t: string) => `--type "${t}" は使えません。xlsx、docx、pptx などの拡張子か、excel、word、powerpoint を指定してください。`
    }

/** Hits grouped by file, keeping the order of the first hit of each file (best first). */
export function groupByFile(hits: ReadonlyArray<SearchHit>): Array<{ index: string; path: string; hits: Array<SearchHit> }> {
  const groups = new Map<string, { index: string; path: string; hits: Array<SearchHit> }>()
  for (const h of hits) {
    const key = `${h.index}\u0000${h.path}`
    const g = groups.get(key) ?? { index: h.index, path: h.path, hits: [] }
    g.hits.push(h)
    groups.set(key, g)
  }
  return [...groups.values()]
}

/**
 * The text for standard output and for standard error: with `--json` the
 * hits as a JSON array (fields of SearchHit); else one block per file —
 * `index  path  location`, its snippet, then the file's other locations —
 * and the count.
 */
export function formatSearchOutput(result: SearchOutputInput, options: SearchOutputOptions): { readonly stdout: string; readonly stderr: string } {
  const t = searchTexts(options.language)
  const c = options.color
  const hl = (s: string) => (c ? s.replace(/【([^】]*)】/g, "\x1b[1;33m$1\x1b[0m") : s)
  const dim = (s: string) => (c ? `\x1b[2m${s}\x1b[0m` : s)
  const bold = (s: string) => (c ? `\x1b[1m${s}\x1b[0m` : s)
  const notes: Array<string> = []
  if (result.engine === "scan" && !options.json) notes.push(dim(t.scanned + (result.problem === "" ? "" : `\n${result.problem}`)))
  if (result.partial && !options.json) notes.push(dim(t.partial))
  const stderr = notes.map((n) => n + "\n").join("")
  if (options.json) return { stdout: JSON.stringify(result.hits, null, 2) + "\n", stderr }
  if (result.hits.length === 0) return { stdout: t.none(options.query) + "\n", stderr }
  const out: Array<string> = []
  for (const group of groupByFile(result.hits)) {
    for (const [i, h] of group.hits.entries()) {
      const head = i === 0 ? `${h.index}  ${bold(h.path)}  ${h.location}` : `  ${h.location}`
      out.push(`${head}\n    ${hl(h.snippet)}`)
    }
  }
  out.push(dim(t.count(result.hits.length, result.limited)))
  return { stdout: out.map((l) => l + "\n").join(""), stderr }
}
