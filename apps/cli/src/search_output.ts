/**
 * What `sagasu search` prints, as a pure function of the result (SPEC §6;
 * the `--json` contract in the README): shared by the full command
 * (search_command.ts) and the cold-start path (search_fast.ts), which must
 * print byte for byte the same. Effect-free: it is on the path of every
 * cold search.
 *
 * @module
 */
import { type HitContext, type Language, truncateToWidth } from "@sagasu/domain"
import type { FileHit, SearchHit, SearchTotals } from "@sagasu/store"
import * as path from "node:path"
import { pathToFileURL } from "node:url"

/** What a file-level search found (S5), as both paths have it. */
export interface SearchOutputInput {
  /** The page: each file once, best first (or newest first). */
  readonly files: ReadonlyArray<FileHit>
  /** Files skipped before the page (`--offset`). */
  readonly offset: number
  readonly totals: SearchTotals
  /** There are files after this page. */
  readonly more: boolean
  /** `scan`: no usable gram index; the body index was scanned. `team`: the team server answered (issue 18). */
  readonly engine: "gram" | "scan" | "team"
  /** Why the gram index could not be used (`""` otherwise). */
  readonly problem: string
  /** The search stopped at its time budget (S2). */
  readonly partial: boolean
  /**
   * With `--context` only: `contexts[i][j]` is the context of
   * `files[i].locations[j]` (store `hitContexts`); absent, the output is
   * what it was without the option, byte for byte.
   */
  readonly contexts?: ReadonlyArray<ReadonlyArray<HitContext | undefined>>
}

/** How to print. */
export interface SearchOutputOptions {
  readonly query: string
  readonly json: boolean
  /** One line per file (`index  path`), like `rg -l`. */
  readonly files: boolean
  /** ANSI colours (a TTY without NO_COLOR). */
  readonly color: boolean
  readonly language: Language
  /** The registered indexes' folders (settings `targetFolders`): `--json` joins a file's path to its index's folder. */
  readonly folders: ReadonlyArray<{ readonly name: string; readonly path: string }>
}

/** The texts of `sagasu search` for a person, by language. */
export const searchTexts = (language: Language) =>
  language === "en"
    ? {
      none: (q: string) => `No hits for "${q}".`,
      fileHits: (n: number) => `${n} ${n === 1 ? "hit" : "hits"}`,
      totals: (hits: number, files: number, exact: boolean) => `${hits}${exact ? "" : "+"} hits (${files}${exact ? "" : "+"} files)`,
      page: (from: number, to: number) => `: files ${from}–${to}`,
      more: (next: number) => ` (more: --offset ${next})`,
      scanned: "The search index is not built yet; the body index was scanned (run `sagasu index`).",
      partial: "The search took too long and stopped: these are the hits found so far.",
      column: "column",
      row: "row",
      title: "title",
      previous: "before",
      next: "after"
    }
    : {
      none: (q: string) => `「${q}」は見つかりませんでした。`,
      fileHits: (n: number) => `${n} 件`,
      totals: (hits: number, files: number, exact: boolean) => `${hits} 件${exact ? "" : "以上"}（${files} ファイル${exact ? "" : "以上"}）`,
      page: (from: number, to: number) => `: ${from}〜${to} ファイル目`,
      more: (next: number) => `（続きは --offset ${next}）`,
      scanned: "検索用の索引がまだ無いため、本文インデックスを順に調べました（sagasu index で作られます）。",
      partial: "検索に時間がかかったため途中で打ち切りました。ここまでに見つかった結果です。",
      column: "列",
      row: "行",
      title: "タイトル",
      previous: "前",
      next: "次"
    }

/**
 * The messages of a wrong `sagasu search` option (issue 14: a mistake is
 * told apart from "nothing found"): Japanese first, English second, each
 * naming the valid choices. The command exits 2 after printing one.
 */
export const searchUsageErrors = {
  badLimit: (value: string) => `--limit には 1 以上の整数を指定してください（指定: ${value}）。\n--limit must be a whole number of 1 or more (got ${value}).`,
  badOffset: (value: string) => `--offset には 0 以上の整数を指定してください（指定: ${value}）。\n--offset must be a whole number of 0 or more (got ${value}).`,
  badType: (value: string, groups: ReadonlyArray<string>, types: ReadonlyArray<string>) =>
    `--type "${value}" という種類はありません。使えるのは ${groups.join("、")} か、拡張子 ${types.join("、")} です。\n` +
    `Unknown --type "${value}": use one of ${groups.join(", ")} or an extension: ${types.join(", ")}.`,
  unknownOption: (arg: string) =>
    `${arg} という search のオプションはありません（sagasu search --help）。- で始まる言葉を探すときは、-- の後に書きます（sagasu search -- ${arg} …）。\n` +
    `Unknown option ${arg} for search (see sagasu search --help); a word starting with - goes after -- (sagasu search -- ${arg} …).`,
  badSort: (value: string) => `--sort には relevance（関連度順）か modified（新しい順）を指定してください（指定: ${value}）。\n--sort must be relevance or modified (got ${value}).`,
  badDate: (option: string, value: string) =>
    `${option} には 2024-04-01 や 2024/4/1 のような日付を指定してください（指定: ${value}）。\n${option} must be a date such as 2024-04-01 or 2024/4/1 (got ${value}).`,
  badIndex: (value: string, names: ReadonlyArray<string>) =>
    names.length === 0
      ? `インデックス「${value}」はありません。まだインデックスが登録されていません（sagasu add NAME PATH）。\nNo index "${value}": no index is registered yet (sagasu add NAME PATH).`
      : `インデックス「${value}」はありません。登録されているのは${names.map((n) => `「${n}」`).join("")}です。\nNo index "${value}": the registered indexes are ${names.map((n) => `"${n}"`).join(", ")}.`
}

/** The exit code of a wrong option of `sagasu search` (issue 14). */
export const searchUsageExitCode = 1

/** A file's modified date as a person reads it (`2024-03-01`, local time), or `undefined`. */
function dateOf(ms: number | undefined): string | undefined {
  if (ms === undefined || !Number.isFinite(ms)) return undefined
  const d = new Date(ms)
  const two = (n: number) => String(n).padStart(2, "0")
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`
}

/** A size as a person reads it: `812 B`, `12 KB`, `3.4 MB`. */
function sizeOf(bytes: number | undefined): string | undefined {
  if (bytes === undefined || !Number.isFinite(bytes)) return undefined
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/**
 * Whether the output shows the totals past the page (S2, issue 13): the
 * text does (`12 件（5 ファイル）…`); `--json` and `--files` do not, so
 * their search stops counting at the page — counting a common word's every
 * file cost a cold search up to its whole count budget.
 */
export function showsTotals(options: { readonly json: boolean; readonly files: boolean }): boolean {
  return !options.json && !options.files
}

/**
 * One file of `--json` (README "search --json"): the fields of its best
 * location's SearchHit (index, path, part, locator, loc, location, text,
 * snippet: today's contract), then the file's `hits`, `modified` (ISO 8601
 * or null), `size` (bytes or null) and its `locations` (SearchHit each);
 * `absolutePath` (the index's `folder` joined with `path`, this platform's
 * separators) and `url` (its `file://` URL), both null when the index is
 * not registered (issue 16: a script opens the file without reading the
 * settings). With `contexts` (`--context`), each location also has
 * `context`: the domain's HitContext (`{"kind": "cell", "column": {"loc",
 * "text"}, "row", "left", "right", "above", "below"}`, `{"kind":
 * "paragraph", "previous", "next"}`, `{"kind": "slide", "title"}`, absent
 * members when there is none) or `null` (a name or property hit, or
 * nothing to read).
 */
export function jsonOfFile(file: FileHit, folder: string | undefined, contexts?: ReadonlyArray<HitContext | undefined>): Record<string, unknown> {
  const best: SearchHit | undefined = file.locations[0]
  const absolutePath = folder === undefined ? null : path.join(folder, ...file.path.split("/"))
  return {
    ...(best ?? { index: file.index, path: file.path }),
    index: file.index,
    path: file.path,
    absolutePath,
    url: absolutePath === null ? null : pathToFileURL(absolutePath).href,
    hits: file.hits,
    modified: file.modifiedMs === undefined ? null : new Date(file.modifiedMs).toISOString(),
    size: file.size ?? null,
    locations: contexts === undefined ? file.locations : file.locations.map((h, j) => ({ ...h, context: contexts[j] ?? null }))
  }
}

// A context line's text on the terminal: one line, at most this many columns.
const contextColumns = 40

/** A context's text for a person: on one line, cut to {@link contextColumns} columns with `…`. */
const contextText = (text: string) => truncateToWidth(text.replace(/\s+/g, " ").trim(), contextColumns, { ellipsis: "…" })

/**
 * What `--context` prints of a location (S5, issue 16): `after` goes on the
 * location's line (`列: 見積番号 / 行: A-1234`, `タイトル: 事業計画`),
 * `before` and `below` on lines of their own above and below the snippet
 * (a paragraph's `前: …` and `次: …`).
 */
export function contextLines(context: HitContext | undefined, language: Language): { readonly after: string; readonly before: string | undefined; readonly below: string | undefined } {
  const t = searchTexts(language)
  const none = { after: "", before: undefined, below: undefined }
  if (context === undefined) return none
  switch (context.kind) {
    case "cell": {
      const parts = [
        ...(context.column !== undefined ? [`${t.column}: ${contextText(context.column.text)}`] : []),
        ...(context.row !== undefined ? [`${t.row}: ${contextText(context.row.text)}`] : [])
      ]
      return { ...none, after: parts.join(" / ") }
    }
    case "slide":
      return { ...none, after: context.title === undefined ? "" : `${t.title}: ${contextText(context.title.text)}` }
    case "paragraph":
      return {
        after: "",
        before: context.previous === undefined ? undefined : `${t.previous}: ${contextText(context.previous.text)}`,
        below: context.next === undefined ? undefined : `${t.next}: ${contextText(context.next.text)}`
      }
  }
}

/**
 * The text for standard output and for standard error: with `--json` an
 * array of files ({@link jsonOfFile}); with `--files` one line per file
 * (`index  path`); else one block per file — `index  path  (N 件 · date ·
 * size)`, then each of its best locations with its snippet — and the totals
 * with the page (S5).
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
  const contexts = result.contexts
  if (options.json) {
    const folderOf = new Map(options.folders.map((f) => [f.name, f.path]))
    const files = result.files.map((f, i) => jsonOfFile(f, folderOf.get(f.index), contexts === undefined ? undefined : (contexts[i] ?? [])))
    return { stdout: JSON.stringify(files, null, 2) + "\n", stderr }
  }
  // --files with nothing found says so like the other modes (issue 16), on stderr: its stdout is file lines only, for a pipe.
  if (options.files && result.files.length === 0 && result.totals.files === 0) return { stdout: "", stderr: stderr + t.none(options.query) + "\n" }
  if (options.files) return { stdout: result.files.map((f) => `${f.index}  ${f.path}\n`).join(""), stderr }
  if (result.files.length === 0) {
    // Past the last page of a query that finds something: say how many there are.
    const none = result.totals.files === 0 ? t.none(options.query) : t.totals(result.totals.hits, result.totals.files, result.totals.exact)
    return { stdout: none + "\n", stderr }
  }
  const out: Array<string> = []
  result.files.forEach((f, i) => {
    const meta = [t.fileHits(f.hits), dateOf(f.modifiedMs), sizeOf(f.size)].filter((x) => x !== undefined).join(" · ")
    out.push(`${f.index}  ${bold(f.path)}  ${dim(`(${meta})`)}`)
    f.locations.forEach((h, j) => {
      if (contexts === undefined) {
        out.push(`  ${h.location}\n    ${hl(h.snippet)}`)
        return
      }
      const ctx = contextLines(contexts[i]?.[j], options.language)
      out.push(`  ${h.location}${ctx.after === "" ? "" : `  ${dim(ctx.after)}`}`)
      if (ctx.before !== undefined) out.push(`    ${dim(ctx.before)}`)
      out.push(`    ${hl(h.snippet)}`)
      if (ctx.below !== undefined) out.push(`    ${dim(ctx.below)}`)
    })
  })
  const from = result.offset + 1
  const to = result.offset + result.files.length
  out.push(dim(t.totals(result.totals.hits, result.totals.files, result.totals.exact) + t.page(from, to) + (result.more ? t.more(to) : "")))
  return { stdout: out.map((l) => l + "\n").join(""), stderr }
}
