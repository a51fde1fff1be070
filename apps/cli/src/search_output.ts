/**
 * What `sagasu search` prints, as a pure function of the result (SPEC §6;
 * the `--json` contract in the README): shared by the full command
 * (search_command.ts) and the cold-start path (search_fast.ts), which must
 * print byte for byte the same. Effect-free: it is on the path of every
 * cold search.
 *
 * @module
 */
import { exclusionsReadAsText, type HitContext, type Language, inBothLanguages, messages, truncateToWidth } from "@sagasu/domain"
import type { FileHit, SearchHit, SearchTotals } from "@sagasu/store"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { jsonForTerminal } from "./json_output.ts"

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
  /**
   * The options that narrowed the search as given (`--type xlsx --folder
   * 見積`), `""` or absent for none: "nothing found" then names them, so that
   * a filter that matched nothing is told apart from a word that is nowhere.
   */
  readonly narrowedBy?: string
  /** The ` --work DIR` a command the output suggests repeats (`workHint`), "" or absent for none. */
  readonly nextStepWork?: string
}

/**
 * The messages of a wrong `sagasu search` option (issue 14: a mistake is
 * told apart from "nothing found"): the catalogue's, Japanese first and
 * English second (they are said before the settings are read), each naming
 * the valid choices. The command exits {@link searchUsageExitCode} after
 * printing one.
 */
export const searchUsageErrors = {
  badLimit: (value: string) => inBothLanguages((t) => t.searchBadLimit(value)),
  badOffset: (value: string) => inBothLanguages((t) => t.searchBadOffset(value)),
  badType: (value: string, groups: ReadonlyArray<string>, types: ReadonlyArray<string>) => inBothLanguages((t) => t.searchBadType(value, groups, types)),
  unknownOption: (arg: string) => inBothLanguages((t) => t.searchUnknownOption(arg)),
  missingValue: (option: string) => inBothLanguages((t) => t.searchMissingValue(option)),
  badSort: (value: string) => inBothLanguages((t) => t.searchBadSort(value)),
  badDate: (option: string, value: string) => inBothLanguages((t) => t.searchBadDate(option, value)),
  badIndex: (value: string, names: ReadonlyArray<string>) => inBothLanguages((t) => t.searchBadIndex(value, names))
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
  const label = messages(language).contextLabel
  const none = { after: "", before: undefined, below: undefined }
  if (context === undefined) return none
  switch (context.kind) {
    case "cell": {
      const parts = [
        ...(context.column !== undefined ? [`${label("column")}: ${contextText(context.column.text)}`] : []),
        ...(context.row !== undefined ? [`${label("row")}: ${contextText(context.row.text)}`] : [])
      ]
      return { ...none, after: parts.join(" / ") }
    }
    case "slide":
      return { ...none, after: context.title === undefined ? "" : `${label("title")}: ${contextText(context.title.text)}` }
    case "paragraph":
      return {
        after: "",
        before: context.previous === undefined ? undefined : `${label("previous")}: ${contextText(context.previous.text)}`,
        below: context.next === undefined ? undefined : `${label("next")}: ${contextText(context.next.text)}`
      }
  }
}

/**
 * `text` without the control characters a terminal acts on (ESC, BEL, BS,
 * C1 controls, …; tab and line feed kept): what a document holds is shown,
 * never obeyed — an escape sequence in a cell must not set the terminal's
 * title or colours (found by the hostile-file trial). `--json` escapes them
 * as JSON does.
 */
export function terminalSafe(text: string): string {
  return /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text) ? text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "") : text
}

/**
 * A file-name hit's snippet as a terminal shows it, under its block's header
 * that already shows the whole path: from the folder or name where the
 * snippet first differs from the unmarked `path` (its first mark) on, after
 * `…/` — `見積/2024/【見積書】.xlsx` → `…/【見積書】.xlsx`; the whole snippet
 * when that is in the first name.
 */
export function pathHitTail(snippet: string, path: string): string {
  let i = 0
  while (i < snippet.length && i < path.length && snippet.charCodeAt(i) === path.charCodeAt(i)) i++
  const cut = i === 0 ? -1 : snippet.lastIndexOf("/", i - 1)
  return cut <= 0 ? snippet : `…/${snippet.slice(cut + 1)}`
}

// A location's snippet in a block: a file-name hit's from its mark's folder or name on.
const shownSnippet = (h: { readonly locator: string; readonly loc: string; readonly text: string; readonly snippet: string }) =>
  h.locator === "name" && h.loc === "path" ? pathHitTail(h.snippet, h.text) : h.snippet

/**
 * The text for standard output and for standard error: with `--json` an
 * array of files ({@link jsonOfFile}); with `--files` one line per file
 * (`index  path`); else one block per file — `index  path  (N 件 · date ·
 * size)`, then each of its best locations with its snippet — and the totals
 * with the page (S5).
 */
export function formatSearchOutput(result: SearchOutputInput, options: SearchOutputOptions): { readonly stdout: string; readonly stderr: string } {
  const t = messages(options.language)
  const c = options.color
  // A snippet is one line under its place: a cell's line breaks (Alt+Enter) are spaces there, as the GUI shows them.
  const oneLine = (s: string) => (/[\r\n]/.test(s) ? s.replace(/\r\n|[\r\n]/g, " ") : s)
  const hl = (s: string) => (c ? terminalSafe(oneLine(s)).replace(/【([^】]*)】/g, "\x1b[1;33m$1\x1b[0m") : terminalSafe(oneLine(s)))
  const dim = (s: string) => (c ? `\x1b[2m${s}\x1b[0m` : s)
  const bold = (s: string) => (c ? `\x1b[1m${s}\x1b[0m` : s)
  const notes: Array<string> = []
  if (result.engine === "scan" && !options.json) notes.push(dim(t.searchScanned(options.nextStepWork) + (result.problem === "" ? "" : `\n${result.problem}`)))
  if (result.partial && !options.json) notes.push(dim(t.searchPartial))
  const stderr = notes.map((n) => n + "\n").join("")
  const contexts = result.contexts
  if (options.json) {
    const folderOf = new Map(options.folders.map((f) => [f.name, f.path]))
    const files = result.files.map((f, i) => jsonOfFile(f, folderOf.get(f.index), contexts === undefined ? undefined : (contexts[i] ?? [])))
    return { stdout: jsonForTerminal(files) + "\n", stderr }
  }
  const none =
    t.searchNone(options.query) +
    (exclusionsReadAsText(options.query) ? `\n${t.searchNoneExclusionsAsText}` : "") +
    (options.narrowedBy === undefined || options.narrowedBy === "" ? "" : `\n${t.searchNoneFiltered(options.narrowedBy)}`)
  // --files with nothing found says so like the other modes (issue 16), on stderr: its stdout is file lines only, for a pipe.
  if (options.files && result.files.length === 0 && result.totals.files === 0) return { stdout: "", stderr: stderr + none + "\n" }
  if (options.files) return { stdout: result.files.map((f) => terminalSafe(`${f.index}  ${f.path}`) + "\n").join(""), stderr }
  if (result.files.length === 0) {
    // Past the last page of a query that finds something: say how many there are.
    const said = result.totals.files === 0 ? none : t.searchTotals(result.totals.hits, result.totals.files, result.totals.exact)
    return { stdout: said + "\n", stderr }
  }
  const out: Array<string> = []
  result.files.forEach((f, i) => {
    const meta = [t.searchFileHits(f.hits), dateOf(f.modifiedMs), sizeOf(f.size)].filter((x) => x !== undefined).join(" · ")
    out.push(`${terminalSafe(f.index)}  ${bold(terminalSafe(f.path))}  ${dim(`(${meta})`)}`)
    f.locations.forEach((h, j) => {
      // Where it stands in the settings' language (issue 16); --json keeps `location` as it is.
      const where = terminalSafe(t.searchLocation(h.locator, h.part, h.loc))
      if (contexts === undefined) {
        out.push(`  ${where}\n    ${hl(shownSnippet(h))}`)
        return
      }
      const ctx = contextLines(contexts[i]?.[j], options.language)
      out.push(`  ${where}${ctx.after === "" ? "" : `  ${dim(terminalSafe(ctx.after))}`}`)
      if (ctx.before !== undefined) out.push(`    ${dim(terminalSafe(oneLine(ctx.before)))}`)
      out.push(`    ${hl(shownSnippet(h))}`)
      if (ctx.below !== undefined) out.push(`    ${dim(terminalSafe(oneLine(ctx.below)))}`)
    })
  })
  const from = result.offset + 1
  const to = result.offset + result.files.length
  out.push(dim(t.searchTotals(result.totals.hits, result.totals.files, result.totals.exact) + t.searchPage(from, to) + (result.more ? t.searchMore(to) : "")))
  return { stdout: out.map((l) => l + "\n").join(""), stderr }
}
