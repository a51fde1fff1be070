/**
 * `sagasu search` from a cold start (S2: a cold CLI search costs little more
 * than the start of Node; issue 13): bin/sagasu.js loads this module alone —
 * a small bundle without Effect, @effect/cli, the GUI, the workers or Office
 * — for the common case: a work folder with a gram index, well-formed
 * options, not the team server (issue 18: `--server`, and `teamServer.search`
 * set, go to the full command). Anything else (help, an option it does not know, a work folder
 * or settings that need a message, no gram index yet, a damaged one) is
 * handed to the full command, which prints what a person needs. Both print
 * through search_output.ts, so the output is the same byte for byte.
 *
 * @module
 */
import type { Language } from "@sagasu/domain"
import { GramSearcher, currentLayoutVersion, hitContexts, workPaths } from "@sagasu/store"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import { parseArgs } from "node:util"
import { checkSearchArgs, defaultSearchLimit, globalOptionsAfterCommand, narrowingOptionsText, searchArgsInOrder } from "./search_options.ts"
import { formatSearchOutput, showsTotals } from "./search_output.ts"
import { defaultWorkDir } from "./work_dir.ts"

/** A search's time budget from the command line: answer with what was found after 30 s (S2). */
export const cliSearchBudgetMs = 30_000

/**
 * How long a CLI search may take, from its start, before it stops counting
 * the totals past its page, ms (S2, issue 13): past it the totals are
 * printed as a lower bound (以上). Counting every hit of a common word over
 * a 1 GiB index took seconds (cold p50 3.1 s on the search benchmark's
 * folder) where the page took tens of ms; a cold search's whole budget is
 * 100 ms, Node's start included, so the count gets 25 (the GUI, warm,
 * counts for 50). `--json` and `--files` print no totals and count none.
 */
export const cliCountBudgetMs = 25

/**
 * Runs the command line `args` (after `sagasu`) if it is a search this path
 * can answer, `--work DIR` before the command included (`sagasu --work W
 * search 見積` is `sagasu search 見積 --work W`, as the full command reads
 * it): {@link fastSearch}'s answer; `false` for any other command.
 */
export async function fastCommand(args: ReadonlyArray<string>): Promise<boolean> {
  const given = globalOptionsAfterCommand(args)
  return given[0] === "search" ? fastSearch(given.slice(1)) : false
}

/**
 * Runs `sagasu search …` (`args` without the command) if this path can
 * answer it: resolves to `true` once the output is written, `false` when the
 * full command must run instead (nothing was printed then).
 */
export async function fastSearch(args: ReadonlyArray<string>): Promise<boolean> {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(searchArgsInOrder(args))
  } catch {
    return false
  }
  const { values, positionals } = parsed
  // The words, one or several arguments (S3): joined as the full command joins them.
  if (positionals.length === 0 || values.help === true || values.version === true) return false
  const query = positionals.join(" ")
  // Only spaces, or `--work=` without its folder: the full command says what is missing.
  if (query.trim() === "" || values.work === "") return false
  const limit = values.limit === undefined ? defaultSearchLimit : Number(values.limit)
  const offset = values.offset === undefined ? 0 : Number(values.offset)
  // A value @effect/cli would not take as an integer gets its message from the full command.
  if (!/^\d+$/.test(values.limit ?? "0") || !/^\d+$/.test(values.offset ?? "0")) return false

  const paths = workPaths(values.work ?? defaultWorkDir())
  let language: Language
  let indexNames: Array<string>
  let folders: Array<{ name: string; path: string }>
  try {
    if (fs.readFileSync(paths.layoutVersion, "utf8").trim() !== currentLayoutVersion) return false
    const settings: unknown = JSON.parse(fs.readFileSync(paths.settings, "utf8"))
    if (typeof settings !== "object" || settings === null) return false
    const { language: lang, targetFolders, teamServer } = settings as { language?: unknown; targetFolders?: unknown; teamServer?: unknown }
    // A search the settings send to the team server is the full command's (issue 18).
    if (typeof teamServer === "object" && teamServer !== null && (teamServer as { search?: unknown }).search === true) return false
    if (lang !== undefined && lang !== "ja" && lang !== "en") return false
    language = lang ?? "ja"
    if (targetFolders !== undefined && !Array.isArray(targetFolders)) return false
    indexNames = []
    folders = []
    for (const t of (targetFolders ?? []) as Array<unknown>) {
      const { name, path } = typeof t === "object" && t !== null ? (t as { name?: unknown; path?: unknown }) : {}
      if (typeof name !== "string" || typeof path !== "string") return false
      indexNames.push(name)
      folders.push({ name, path })
    }
  } catch {
    return false
  }
  // A wrong option is the full command's to tell (its message, exit 1): nothing printed here.
  const searchArgs = { limit, offset, type: values.type ?? [], index: values.index ?? [], sort: values.sort, folder: values.folder, since: values.since, until: values.until }
  const checked = checkSearchArgs(
    searchArgs,
    indexNames
  )
  if (checked._tag === "Usage") return false
  let searcher: GramSearcher | undefined
  try {
    searcher = GramSearcher.open(paths)
  } catch {
    return false
  }
  if (searcher === undefined) return false
  let outcome: ReturnType<GramSearcher["searchFiles"]>
  try {
    const now = performance.now()
    const totals = showsTotals({ json: values.json === true, files: values.files === true })
    outcome = searcher.searchFiles(query, { ...checked.options, totals, countDeadline: now + cliCountBudgetMs }, { deadline: now + cliSearchBudgetMs })
  } catch {
    return false
  } finally {
    searcher.close()
  }
  // --context: read from the body index for the page's hits, as the full command does (both Effect-free).
  const contexts = values.context === true && values.files !== true ? hitContexts(paths, outcome.files) : undefined
  const terminal = isTerminal(1)
  const out = formatSearchOutput(
    { ...outcome, engine: "gram", problem: "", ...(contexts !== undefined ? { contexts } : {}) },
    { query, json: values.json === true, files: values.files === true, color: terminal && process.env.NO_COLOR === undefined, language, folders, narrowedBy: narrowingOptionsText(searchArgs) }
  )
  if (out.stderr !== "") process.stderr.write(out.stderr)
  // A Windows console takes text through process.stdout (the bytes of fd 1 would be read in its code page).
  if (process.platform === "win32" && terminal) {
    await new Promise<void>((resolve) => {
      process.stdout.on("error", (e: NodeJS.ErrnoException) => {
        // `sagasu search 山 | head -1`: the reader went away; not an error of ours.
        if (e.code === "EPIPE") resolve()
      })
      process.stdout.write(out.stdout, () => resolve())
    })
  } else writeAllSync(1, out.stdout)
  return true
}

/**
 * Whether `fd` is a terminal, without making `process.stdout` (its stream
 * loads node:net and the stream modules: 2–3 ms of a cold search, issue 13):
 * only a character device can be one, and only then is node:tty loaded to ask.
 */
function isTerminal(fd: number): boolean {
  try {
    if (!fs.fstatSync(fd).isCharacterDevice()) return false
  } catch {
    return false
  }
  // Through require(): the bundle runs as a script (bin/bundle.js's loadScript), which has no import().
  return (createRequire(process.execPath)("node:tty") as typeof import("node:tty")).isatty(fd)
}

/**
 * Writes `text` to `fd` whole, synchronously: the page a cold search prints,
 * without the cost of `process.stdout` (issue 13). A descriptor left
 * non-blocking by whoever opened it answers EAGAIN when its pipe is full: it
 * is waited for 1 ms and written again. EPIPE (`sagasu search 山 | head -1`:
 * the reader went away) ends the writing; it is not an error of ours.
 */
function writeAllSync(fd: number, text: string): void {
  const bytes = Buffer.from(text, "utf8")
  let at = 0
  let wait: Int32Array | undefined
  while (at < bytes.length) {
    try {
      at += fs.writeSync(fd, bytes, at)
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code === "EPIPE") return
      if (code !== "EAGAIN") throw e
      wait ??= new Int32Array(new SharedArrayBuffer(4))
      Atomics.wait(wait, 0, 0, 1)
    }
  }
}

// The options the full command declares for `search` (main.ts); anything else falls back to it.
const parse = (args: ReadonlyArray<string>) =>
  parseArgs({
    args: [...args],
    strict: true,
    allowPositionals: true,
    options: {
      work: { type: "string" },
      json: { type: "boolean" },
      files: { type: "boolean" },
      context: { type: "boolean" },
      limit: { type: "string" },
      offset: { type: "string" },
      index: { type: "string", multiple: true },
      type: { type: "string", multiple: true },
      sort: { type: "string" },
      folder: { type: "string" },
      since: { type: "string" },
      until: { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean" }
    }
  })
