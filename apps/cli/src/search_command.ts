/**
 * `sagasu search QUERY [--index NAME] [--type xlsx|docx|pptx|excel|word|powerpoint] [--limit N] [--json]`
 * (SPEC §6; issue 6): hits grouped by file — `index  path  location` and
 * its snippet, then the file's other locations with theirs — files best
 * first; `--json` prints the hits as a JSON array for scripts (fields of
 * SearchHit: index, path, part, locator, loc, location, text, snippet).
 *
 * @module
 */
import { defaultSettings, fileTypeAliases } from "@sagasu/domain"
import { checkWorkFolder, readSettings, searchIndex } from "@sagasu/store"
import { Console, Effect, Option } from "effect"
import { formatSearchOutput, searchTexts } from "./search_output.ts"

/** Options of {@link searchCommand}, as main.ts parses them. */
export interface SearchCommandOptions {
  /** Print a JSON array of hits (fields of SearchHit) instead of text. */
  readonly json: boolean
  /** At most this many hits (lines). */
  readonly limit: number
  /** Only this index. */
  readonly index: Option.Option<string>
  /** Only this file type: an extension or `excel`, `word`, `powerpoint`. */
  readonly type: Option.Option<string>
}

const color = process.stdout.isTTY === true && process.env.NO_COLOR === undefined

export { groupByFile } from "./search_output.ts"

/**
 * `sagasu search`: searches the work folder `work` for `query` and prints
 * the hits. A person gets an error message and exit code 1 (no stack trace)
 * when the work folder cannot be used, an option is wrong or the index cannot
 * be read; no hits is not an error.
 */
export const searchCommand = (work: string, query: string, options: SearchCommandOptions) =>
  Effect.gen(function* () {
    const paths = yield* checkWorkFolder(work)
    const settings = yield* readSettings(paths).pipe(Effect.orElseSucceed(() => defaultSettings))
    const t = searchTexts(settings.language)
    if (options.limit < 1) return yield* fail(t.badLimit)
    const type = Option.getOrUndefined(options.type)?.trim().toLowerCase().replace(/^\./, "")
    if (type !== undefined && fileTypeAliases[type] === undefined && !/^[a-z0-9]{1,8}$/.test(type)) {
      return yield* fail(t.badType(type))
    }
    const result = yield* searchIndex(paths, query, {
      limit: options.limit,
      ...(Option.isSome(options.index) ? { index: options.index.value } : {}),
      ...(type !== undefined ? { type } : {})
    })
    const out = formatSearchOutput(result, { query, json: options.json, color, language: settings.language })
    if (out.stderr !== "") yield* Effect.sync(() => process.stderr.write(out.stderr))
    yield* Effect.sync(() => process.stdout.write(out.stdout))
  }).pipe(Effect.catchAll((e) => fail(e.message)))

/** Prints an error for a person and sets exit code 1 (no stack trace). */
const fail = (message: string) =>
  Effect.gen(function* () {
    yield* Console.error(message)
    process.exitCode = 1
  })
