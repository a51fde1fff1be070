/**
 * `sagasu search` from a cold start (S2: a cold CLI search costs little more
 * than the start of Node; issue 13): bin/sagasu.js loads this module alone —
 * a small bundle without Effect, @effect/cli, the GUI, the workers or Office
 * — for the common case: a work folder with a gram index, well-formed
 * options. Anything else (help, an option it does not know, a work folder
 * or settings that need a message, no gram index yet, a damaged one) is
 * handed to the full command, which prints what a person needs. Both print
 * through search_output.ts, so the output is the same byte for byte.
 *
 * @module
 */
import { type Language, fileTypeAliases } from "@sagasu/domain"
import { GramSearcher, currentLayoutVersion, workPaths } from "@sagasu/store"
import * as fs from "node:fs"
import { parseArgs } from "node:util"
import { formatSearchOutput } from "./search_output.ts"
import { defaultWorkDir } from "./work_dir.ts"

/** A search's time budget from the command line: answer with what was found after 30 s (S2). */
export const cliSearchBudgetMs = 30_000

/**
 * Runs `sagasu search …` (`args` without the command) if this path can
 * answer it: resolves to `true` once the output is written, `false` when the
 * full command must run instead (nothing was printed then).
 */
export async function fastSearch(args: ReadonlyArray<string>): Promise<boolean> {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(args)
  } catch {
    return false
  }
  const { values, positionals } = parsed
  const [query] = positionals
  if (positionals.length !== 1 || query === undefined || values.help === true || values.version === true) return false
  const limit = values.limit === undefined ? 50 : Number(values.limit)
  if (!Number.isInteger(limit) || limit < 1 || !/^\d+$/.test(values.limit ?? "50")) return false
  const type = values.type?.trim().toLowerCase().replace(/^\./, "")
  if (type !== undefined && fileTypeAliases[type] === undefined && !/^[a-z0-9]{1,8}$/.test(type)) return false

  const paths = workPaths(values.work ?? defaultWorkDir())
  let language: Language
  try {
    if (fs.readFileSync(paths.layoutVersion, "utf8").trim() !== currentLayoutVersion) return false
    const settings: unknown = JSON.parse(fs.readFileSync(paths.settings, "utf8"))
    const lang = typeof settings === "object" && settings !== null ? (settings as { language?: unknown }).language : undefined
    if (lang !== undefined && lang !== "ja" && lang !== "en") return false
    language = lang ?? "ja"
  } catch {
    return false
  }
  let searcher: GramSearcher | undefined
  try {
    searcher = GramSearcher.open(paths)
  } catch {
    return false
  }
  if (searcher === undefined) return false
  let outcome: ReturnType<GramSearcher["searchWithin"]>
  try {
    outcome = searcher.searchWithin(
      query,
      { limit, ...(values.index !== undefined ? { index: values.index } : {}), ...(type !== undefined ? { type } : {}) },
      { deadline: performance.now() + cliSearchBudgetMs }
    )
  } catch {
    return false
  } finally {
    searcher.close()
  }
  const out = formatSearchOutput(
    { hits: outcome.hits, engine: "gram", limited: outcome.hits.length >= limit, problem: "", partial: outcome.partial },
    { query, json: values.json === true, color: process.stdout.isTTY === true && process.env.NO_COLOR === undefined, language }
  )
  if (out.stderr !== "") process.stderr.write(out.stderr)
  await new Promise<void>((resolve) => {
    process.stdout.on("error", (e: NodeJS.ErrnoException) => {
      // `sagasu search 山 | head -1`: the reader went away; not an error of ours.
      if (e.code === "EPIPE") resolve()
    })
    process.stdout.write(out.stdout, () => resolve())
  })
  return true
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
      limit: { type: "string" },
      index: { type: "string" },
      type: { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean" }
    }
  })
