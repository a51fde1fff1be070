/**
 * `sagasu search WORD… [--index NAME]… [--type TYPE]… [--limit N] [--offset N] [--files] [--json] [--context]`
 * (SPEC §6, S3, S5; issue 14): the words (one or several arguments, joined
 * by a space: search_query.ts syntax) must all occur in the same file; each
 * file once — `index  path  (hits · date · size)`, then its best locations
 * with their snippets — best first, a page of `--limit` files from
 * `--offset`, and the totals. `--files` prints one line per file; `--json`
 * an array of files (README "search --json"); `--context` adds each
 * location's context (headings, neighbours, title: store `hitContexts`).
 *
 * @module
 */
import { defaultSettings, inBothLanguages, messages, searchesTeamServer } from "@sagasu/domain"
import { hitContexts, WorkStore } from "@sagasu/store"
import { describeTeamError, searchTeamFiles } from "@sagasu/team"
import { Console, Effect, Option } from "effect"
import { cliCountBudgetMs, cliSearchBudgetMs } from "./search_fast.ts"
import { checkSearchArgs, narrowingOptionsText } from "./search_options.ts"
import { formatSearchOutput, searchUsageExitCode, showsTotals } from "./search_output.ts"
import { errorMessage, workHint } from "./work_dir.ts"
import { forTerminal } from "./terminal_text.ts"

/** Options of {@link searchCommand}, as main.ts parses them. */
export interface SearchCommandOptions {
  /** Print a JSON array of files instead of text. */
  readonly json: boolean
  /** One line per file. */
  readonly files: boolean
  /** Each location in its context (S5, issue 16): read from the body index for the page's hits. */
  readonly context: boolean
  /** Files on the page. */
  readonly limit: number
  /** Files skipped before the page. */
  readonly offset: number
  /** Only these indexes (none: all). */
  readonly index: ReadonlyArray<string>
  /** Only these file types (none: all), each an extension or a group (`excel`, `word`, `powerpoint`, `legacy`); `--type` repeated. */
  readonly type: ReadonlyArray<string>
  /** `relevance` or `modified`. */
  readonly sort?: Option.Option<string>
  /** Only files inside this folder of their index. */
  readonly folder?: Option.Option<string>
  /** Only files modified on or after / on or before these days. */
  readonly since?: Option.Option<string>
  readonly until?: Option.Option<string>
  /** Search the team server (issue 18), also when the setting `teamServer.search` says so. */
  readonly server?: boolean
}

const color = process.stdout.isTTY === true && process.env.NO_COLOR === undefined

/**
 * `sagasu search`: searches the work folder `work` for `query` and prints
 * the files found. A wrong option exits {@link searchUsageExitCode} with a
 * message naming the valid choices; a work folder that cannot be used or an
 * index that cannot be read exits 1 (no stack trace); no hits is not an error.
 */
export const searchCommand = (work: string, query: string, options: SearchCommandOptions) =>
  Effect.gen(function* () {
    // Words that are only spaces (`search ""`, `search "　"`) are no words: the same mistake as none at all.
    if (query.trim() === "") return yield* fail(inBothLanguages((t) => t.cliMissingArgument("<WORD>", "sagasu search")), 1)
    // `--work=` names no folder (not the current one), as the other commands say.
    if (work === "") return yield* fail(inBothLanguages((t) => t.cliWorkValue), 1)
    const paths = yield* WorkStore.checkWorkFolder(work)
    // A broken settings file does not stop a search (the index answers as it is), but is said on stderr.
    const settings = yield* WorkStore.readSettings(paths).pipe(
      Effect.catchAll((e) =>
        Effect.as(
          Effect.sync(() => process.stderr.write(`${e.message}\n${inBothLanguages((t) => t.searchWithDefaultSettings)}\n`)),
          defaultSettings
        )
      )
    )
    const onServer = searchesTeamServer(options.server === true, settings)
    if (options.server === true && !onServer) return yield* fail(messages(settings.language).teamNotConfigured, 1)
    const args = {
      limit: options.limit,
      offset: options.offset,
      type: options.type,
      index: options.index,
      sort: options.sort === undefined ? undefined : Option.getOrUndefined(options.sort),
      folder: options.folder === undefined ? undefined : Option.getOrUndefined(options.folder),
      since: options.since === undefined ? undefined : Option.getOrUndefined(options.since),
      until: options.until === undefined ? undefined : Option.getOrUndefined(options.until)
    }
    const checked = checkSearchArgs(
      args,
      // The server's indexes are its own (a member registers none): any name is asked for.
      onServer ? options.index : settings.targetFolders.map((t) => t.name)
    )
    if (checked._tag === "Usage") return yield* fail(checked.message, searchUsageExitCode)
    // The server's totals are always exact (its search counts them anyway); locally --json and --files count none.
    const result = onServer && settings.teamServer !== undefined
      ? yield* searchTeamFiles(settings.teamServer, query, checked.options).pipe(Effect.mapError((e) => ({ message: describeTeamError(e, settings.language) })))
      : yield* WorkStore.searchIndexFiles(paths, query, {
        ...checked.options,
        totals: showsTotals(options),
        budgetMs: cliSearchBudgetMs,
        countBudgetMs: cliCountBudgetMs
      })
    // --context reads the local body index; the server's hits have none here.
    const contexts = options.context && !options.files && !onServer ? yield* Effect.sync(() => hitContexts(paths, result.files)) : undefined
    const out = formatSearchOutput(
      { ...result, ...(contexts !== undefined ? { contexts } : {}) },
      { query, json: options.json, files: options.files, color, language: settings.language, folders: settings.targetFolders, narrowedBy: narrowingOptionsText(args), nextStepWork: workHint(work) }
    )
    if (out.stderr !== "") yield* Effect.sync(() => process.stderr.write(out.stderr))
    yield* Effect.sync(() => process.stdout.write(out.stdout))
  }).pipe(Effect.catchAll((e) => fail(errorMessage(e, work), 1)))

/** Prints an error for a person and sets the exit code (no stack trace). */
const fail = (message: string, code: number) =>
  Effect.gen(function* () {
    yield* Console.error(forTerminal(message, process.stderr))
    process.exitCode = code
  })
