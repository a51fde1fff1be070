/**
 * The options of `sagasu search` checked once for both paths (the full
 * command and the cold start, which must agree byte for byte): a wrong
 * `--type`, `--index`, `--limit` or `--offset` is a mistake told apart from
 * "nothing found" (issue 14), with a message naming the valid choices and
 * exit code {@link searchUsageExitCode}. Effect-free: on the cold path.
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
  readonly type: string | undefined
  readonly index: ReadonlyArray<string>
}

/** The options as the store takes them (FileSearchOptions), or the message of a mistake. */
export type CheckedSearchArgs =
  | {
    readonly _tag: "Ok"
    readonly options: { readonly limit: number; readonly offset: number; readonly type?: ReadonlyArray<string>; readonly index?: ReadonlyArray<string> }
  }
  | { readonly _tag: "Usage"; readonly message: string }

/** Checks `args` against the registered index names `indexNames` (setting.config `targetFolders`). */
export function checkSearchArgs(args: SearchArgs, indexNames: ReadonlyArray<string>): CheckedSearchArgs {
  const usage = (message: string): CheckedSearchArgs => ({ _tag: "Usage", message })
  if (!Number.isInteger(args.limit) || args.limit < 1) return usage(searchUsageErrors.badLimit(String(args.limit)))
  if (!Number.isInteger(args.offset) || args.offset < 0) return usage(searchUsageErrors.badOffset(String(args.offset)))
  let type: ReadonlyArray<string> | undefined
  if (args.type !== undefined) {
    type = resolveFileType(args.type)
    if (type === undefined) return usage(searchUsageErrors.badType(args.type, Object.keys(fileTypeGroups), knownFileTypes))
  }
  // Compared as the search compares them (normalised: full-width and half-width, case).
  const known = new Set(indexNames.map((n) => normalizeForSearch(n)))
  for (const name of args.index) {
    if (!known.has(normalizeForSearch(name))) return usage(searchUsageErrors.badIndex(name, indexNames))
  }
  return {
    _tag: "Ok",
    options: {
      limit: args.limit,
      offset: args.offset,
      ...(type !== undefined ? { type } : {}),
      ...(args.index.length > 0 ? { index: [...new Set(args.index)] } : {})
    }
  }
}
