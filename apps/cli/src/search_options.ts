/**
 * The options of `sagasu search` checked once for both paths (the full
 * command and the cold start, which must agree byte for byte): a wrong
 * `--type`, `--index`, `--limit` or `--offset` is a mistake told apart from
 * "nothing found" (issue 14), with a message naming the valid choices and
 * exit code {@link searchUsageExitCode}. Effect-free: on the cold path.
 *
 * Also {@link globalOptionsAfterCommand}: `--work DIR` written before the
 * command, as people write git's `-C`, is moved to where both paths read it.
 *
 * @module
 */
import { fileTypeGroups, knownFileTypes, normalizeForSearch, resolveFileType } from "@sagasu/domain"
import { searchUsageErrors } from "./search_output.ts"

/** Files on a page when `--limit` is not given. */
export const defaultSearchLimit = 20

/** The options as given on the command line. */
export interface SearchArgs {
  readonly limit: number
  readonly offset: number
  /** Types given with `--type`, each an extension or a group; a file of any of them passes (none given: every type). */
  readonly type: ReadonlyArray<string>
  readonly index: ReadonlyArray<string>
  /** `relevance` (default) or `modified` (newest first). */
  readonly sort?: string | undefined
  /** Only files inside this folder of their index (`見積/2024`, either separator). */
  readonly folder?: string | undefined
  /** Only files modified on or after this day (`2024-04-01` or `2024/4/1`, local time). */
  readonly since?: string | undefined
  /** Only files modified on or before this day (inclusive). */
  readonly until?: string | undefined
}

/**
 * The local midnight of a day written `2024-04-01`, `2024/4/1` or
 * `2024年4月1日`, ms since the epoch; `undefined` when it is not a real day.
 */
export function dayStartMs(text: string): number | undefined {
  const m = /^(\d{4})[-/年](\d{1,2})[-/月](\d{1,2})日?$/.exec(text.trim())
  if (m === null) return undefined
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(y, mo - 1, d)
  return date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d ? date.getTime() : undefined
}

/** The options as the store takes them (FileSearchOptions), or the message of a mistake. */
export type CheckedSearchArgs =
  | {
    readonly _tag: "Ok"
    readonly options: {
      readonly limit: number
      readonly offset: number
      readonly type?: ReadonlyArray<string>
      readonly index?: ReadonlyArray<string>
      readonly sort?: "relevance" | "modified"
      readonly folder?: string
      readonly modifiedFrom?: number
      readonly modifiedTo?: number
    }
  }
  | { readonly _tag: "Usage"; readonly message: string }

/** Checks `args` against the registered index names `indexNames` (setting.config `targetFolders`). */
export function checkSearchArgs(args: SearchArgs, indexNames: ReadonlyArray<string>): CheckedSearchArgs {
  const usage = (message: string): CheckedSearchArgs => ({ _tag: "Usage", message })
  if (!Number.isInteger(args.limit) || args.limit < 1) return usage(searchUsageErrors.badLimit(String(args.limit)))
  if (!Number.isInteger(args.offset) || args.offset < 0) return usage(searchUsageErrors.badOffset(String(args.offset)))
  let type: ReadonlyArray<string> | undefined
  for (const given of args.type) {
    const resolved = resolveFileType(given)
    if (resolved === undefined) return usage(searchUsageErrors.badType(given, Object.keys(fileTypeGroups), knownFileTypes))
    type = [...new Set([...(type ?? []), ...resolved])]
  }
  // Compared as the search compares them (normalised: full-width and half-width, case).
  const known = new Set(indexNames.map((n) => normalizeForSearch(n)))
  for (const name of args.index) {
    if (!known.has(normalizeForSearch(name))) return usage(searchUsageErrors.badIndex(name, indexNames))
  }
  if (args.sort !== undefined && args.sort !== "relevance" && args.sort !== "modified") return usage(searchUsageErrors.badSort(args.sort))
  const from = args.since === undefined ? undefined : dayStartMs(args.since)
  if (args.since !== undefined && from === undefined) return usage(searchUsageErrors.badDate("--since", args.since))
  const untilStart = args.until === undefined ? undefined : dayStartMs(args.until)
  if (args.until !== undefined && untilStart === undefined) return usage(searchUsageErrors.badDate("--until", args.until))
  // --until is inclusive: up to the start of the next day.
  const to = untilStart === undefined ? undefined : new Date(new Date(untilStart).setDate(new Date(untilStart).getDate() + 1)).getTime()
  const folder = args.folder === undefined ? "" : args.folder.replace(/\\/g, "/").replace(/^\/+|\/+$/g, "")
  return {
    _tag: "Ok",
    options: {
      limit: args.limit,
      offset: args.offset,
      ...(type !== undefined ? { type } : {}),
      ...(args.index.length > 0 ? { index: [...new Set(args.index)] } : {}),
      ...(args.sort === "modified" ? { sort: "modified" as const } : {}),
      ...(folder !== "" ? { folder } : {}),
      ...(from !== undefined ? { modifiedFrom: from } : {}),
      ...(to !== undefined ? { modifiedTo: to } : {})
    }
  }
}

/**
 * The options that narrowed a search, as given (`--type xlsx --folder 見積
 * --since 2024-04-01`), for the "nothing found" message to name them; `""`
 * when none did.
 */
export function narrowingOptionsText(args: SearchArgs): string {
  const given: Array<string> = []
  for (const t of args.type) given.push(`--type ${t}`)
  for (const i of args.index) given.push(`--index ${i}`)
  for (const [name, value] of [["--folder", args.folder], ["--since", args.since], ["--until", args.until]] as const) {
    if (value !== undefined) given.push(`${name} ${value}`)
  }
  return given.join(" ")
}

/**
 * The first `--limit` or `--offset` of `args` (the arguments after
 * `search`) whose value is not written as plain digits (`0x10`, `1e2`,
 * `" 3"`, which @effect/cli would read as numbers): `[option, value]`, or
 * `undefined`. Words after a bare `--` are the query's.
 */
export function nonDigitSearchInteger(args: ReadonlyArray<string>): readonly ["--limit" | "--offset", string] | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ""
    if (arg === "--") return undefined
    for (const option of ["--limit", "--offset"] as const) {
      const value = arg === option ? args[i + 1] : arg.startsWith(`${option}=`) ? arg.slice(option.length + 1) : undefined
      if (value !== undefined && !/^\d+$/.test(value)) return [option, value]
    }
  }
  return undefined
}

/** The options of `sagasu search` (main.ts declares them; @effect/cli adds help, version, wizard, completions and log-level). */
export const searchOptionNames: ReadonlyArray<string> = [
  "work", "json", "files", "context", "limit", "offset", "index", "type", "sort", "folder", "since", "until", "server",
  "help", "version", "wizard", "completions", "log-level"
]

/**
 * The first word of `args` (the arguments after `search`) that looks like an
 * option Sagasu does not have (`--limt`): @effect/cli would take it as a
 * word of the query and answer "nothing found" (issue 14: a mistake is told
 * apart). Words after a bare `--` are the query's; `-word` (one dash) is an
 * exclusion, never an option. `undefined` when there is none.
 */
export function unknownSearchOption(args: ReadonlyArray<string>): string | undefined {
  for (const arg of args) {
    if (arg === "--") return undefined
    if (!arg.startsWith("--") || arg === "--") continue
    const name = arg.slice(2).split("=")[0] ?? ""
    if (!searchOptionNames.includes(name)) return arg
  }
  return undefined
}

/** The options of `sagasu search` that take a value (the rest are flags). */
const valueOptionNames: ReadonlyArray<string> = ["work", "limit", "offset", "index", "type", "sort", "folder", "since", "until", "log-level"]

/**
 * The first option of `args` (the arguments after `search`) that takes a
 * value and is written without one — last, or followed by another option
 * (`見積 --limit --json`): @effect/cli would take it as a word of the query
 * and answer "nothing found" with exit 0. `--opt=value` and words after a
 * bare `--` are left alone; `undefined` when there is none.
 */
export function searchOptionMissingValue(args: ReadonlyArray<string>): string | undefined {
  return optionMissingValue(args, valueOptionNames)
}

/** The options of `sagasu index` that take a value. */
const indexValueOptionNames: ReadonlyArray<string> = ["work", "only"]

/**
 * {@link searchOptionMissingValue} for `sagasu index` (`--only` last, or
 * `--only --yes`, which @effect/cli reads as an index named `--yes`).
 */
export function indexOptionMissingValue(args: ReadonlyArray<string>): string | undefined {
  return optionMissingValue(args, indexValueOptionNames)
}

/** The first of `names` (options without their `--`) written in `args` without its value. */
function optionMissingValue(args: ReadonlyArray<string>, names: ReadonlyArray<string>): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === "--") return undefined
    if (!arg.startsWith("--") || arg.includes("=")) continue
    if (!names.includes(arg.slice(2))) continue
    const next = args[i + 1]
    if (next === undefined || next.startsWith("--")) return arg
    i++
  }
  return undefined
}

/**
 * `args` (the arguments after `search`) with every option first, then a
 * bare `--`, then the query's words in their order (S3): `-hello world
 * --json` is read as `--json -- -hello world`, so a query whose first word
 * is an exclusion needs no `--` and options may stand anywhere among the
 * words. What counts as an option: a `--name` (known or not, so a mistyped
 * one still gets its message from {@link unknownSearchOption}) with its value
 * when the option takes one (`--limit 5`, `--limit=5`; a value that starts
 * with `--` is left for {@link searchOptionMissingValue}), and `-h`. Any
 * other `-word` is an exclusion. After a bare `--` everything is a word, as
 * before (the README's `sagasu search --json -- -対象外 見積`).
 *
 * Both paths then read the options alike: `--name=value` of a known option
 * is split into two arguments, an option given twice counts once with its
 * last value (`--index` keeps every value), and `-h`, `--help`,
 * `--version` come first. @effect/cli took everything after a repeated
 * option, or after `--index=NAME`, for words (the cold path took the last
 * value): a `--work` there was searched for instead of used.
 */
export function searchArgsInOrder(args: ReadonlyArray<string>): ReadonlyArray<string> {
  const options: Array<Array<string>> = []
  const cut = args.indexOf("--")
  const words = cut < 0 ? [] : args.slice(cut + 1)
  const given = cut < 0 ? args : args.slice(0, cut)
  const before: Array<string> = []
  for (let i = 0; i < given.length; i++) {
    const arg = given[i]!
    if (arg !== "-h" && !(arg.startsWith("--") && arg.length > 2)) {
      before.push(arg)
      continue
    }
    const [name = "", value] = arg.slice(2).split(/=(.*)/s)
    const takes = valueOptionNames.includes(name)
    const next = given[i + 1]
    const option = takes && value !== undefined ? [`--${name}`, value] : takes && next !== undefined && !next.startsWith("--") ? [arg, given[++i]!] : [arg]
    // Given again: the last one counts (the cold path's parser does so); --index and --type keep each.
    const at = options.findIndex((o) => o[0] === option[0])
    if (at >= 0 && name !== "index" && name !== "type") options.splice(at, 1)
    // Answered instead of a search: first, where @effect/cli looks for them.
    if (arg === "-h" || name === "help" || name === "version") options.unshift(option)
    else options.push(option)
  }
  const all = [...before, ...words]
  return all.length === 0 ? options.flat() : [...options.flat(), "--", ...all]
}

/**
 * `args` (the command line after `sagasu`) with leading `--work DIR` /
 * `--work=DIR` moved to the end, where @effect/cli reads it (before a `--`,
 * after which everything is a search word): `sagasu --work W add 共有 P` is
 * read as `sagasu add 共有 P --work W`, `sagasu --work W list --help` as
 * `sagasu list --help --work W` (a `--help` after another option is not
 * taken for help); for `search`, whose options are put in order afterwards
 * ({@link searchArgsInOrder}), first after the command, so that a `--work`
 * written after it wins. Nothing after them: returned as it is.
 */
export function globalOptionsAfterCommand(args: ReadonlyArray<string>): ReadonlyArray<string> {
  const leading: Array<string> = []
  let at = 0
  for (;;) {
    const arg = args[at]
    if (arg === "--work" && args[at + 1] !== undefined) {
      leading.push(arg, args[at + 1]!)
      at += 2
    } else if (arg?.startsWith("--work=") === true) {
      leading.push(arg)
      at += 1
    } else break
  }
  const rest = args.slice(at)
  if (leading.length === 0 || rest.length === 0) return args
  // A search puts its options in order itself (searchArgsInOrder), the last of a repeated one winning:
  // the leading --work goes first, so that one written after the command wins, as the README says.
  if (rest[0] === "search") return ["search", ...leading, ...rest.slice(1)]
  const words = rest.indexOf("--")
  return words < 0 ? [...rest, ...leading] : [...rest.slice(0, words), ...leading, ...rest.slice(words)]
}
