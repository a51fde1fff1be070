/**
 * The command line's own mistakes, said as Sagasu says everything: in
 * Japanese, then English (the settings are not read yet, so both), naming
 * the help to read. @effect/cli finds these while it reads the command line
 * and prints its English sentence (`Invalid subcommand for sagasu - use one
 * of …`, `Missing argument <WORD>`, `Received unknown argument: '--onlyy'`);
 * {@link localUsageError} turns each of those into the catalogue's, at the
 * console's edge. A sentence it does not know stays as @effect/cli wrote it.
 *
 * @module
 */
import { inBothLanguages } from "@sagasu/domain"

/**
 * The words of the command in `args` (`["index"]`, `["team", "connect"]`): leading words that are
 * not options, two for a command of `subcommands` (the commands that have some).
 */
function commandWords(args: ReadonlyArray<string>, subcommands: Readonly<Record<string, unknown>>): ReadonlyArray<string> {
  const first = args[0]
  if (first === undefined || first.startsWith("-")) return []
  const second = args[1]
  return first in subcommands && second !== undefined && !second.startsWith("-") ? [first, second] : [first]
}

/** The options @effect/cli reads as integers (search's paging, the GUI's port). */
const integerOptions = ["--limit", "--offset", "--port"] as const

/** `--work` or `--work=…`. */
const isWork = (arg: string) => arg === "--work" || arg.startsWith("--work=")

/**
 * The message to print for @effect/cli's usage error `text` (its words,
 * colours already taken out) about the command line `args` (after
 * `sagasu`, as given to @effect/cli); undefined when `text` is not one it
 * knows. Two lines, Japanese then English.
 */
export function localUsageError(
  text: string,
  args: ReadonlyArray<string>,
  subcommands: Readonly<Record<string, ReadonlyArray<string>>> = {}
): string | undefined {
  const said = text.trim()
  const unknownCommand = /^Invalid subcommand for (\S+) - use one of (.+)$/.exec(said)
  const workMistake = () => inBothLanguages((t) => (args.filter(isWork).length > 1 ? t.cliWorkTwice : t.cliWorkValue))
  if (unknownCommand !== null) {
    const first = args[0] ?? ""
    // `sagasu --work` alone, or `--work DIR` with no command after it.
    if (isWork(first)) return workMistake()
    // An option where a command should be (`sagasu --bogus`): said as an option.
    if (first.startsWith("-")) return inBothLanguages((t) => t.cliUnknownArgument(first, "sagasu"))
    // A known command with a wrong subcommand (`team conect`) is reported by @effect/cli against the top.
    const under = subcommands[first]
    if (under !== undefined) return inBothLanguages((t) => t.cliUnknownCommand(args[1] ?? "", under, `sagasu ${first}`))
    const commands = [...unknownCommand[2]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!)
    return inBothLanguages((t) => t.cliUnknownCommand(first, commands, "sagasu"))
  }
  const command = ["sagasu", ...commandWords(args, subcommands)].join(" ")
  const missing = /^Missing argument (<[^>]+>)/.exec(said)
  if (missing !== null) return inBothLanguages((t) => t.cliMissingArgument(missing[1]!, command))
  // `--limit abc`: @effect/cli names the value, not the option; the option is the one given that value.
  const notInteger = /^'(.*)' is not a integer$/.exec(said)
  if (notInteger !== null) {
    const value = notInteger[1]!
    const option = integerOptions.find((name) => args.some((arg, i) => arg === `${name}=${value}` || (arg === name && args[i + 1] === value)))
    if (option === "--limit") return inBothLanguages((t) => t.searchBadLimit(value))
    if (option === "--offset") return inBothLanguages((t) => t.searchBadOffset(value))
    if (option === "--port") return inBothLanguages((t) => t.guiBadPort)
    return undefined
  }
  const unknownArgument = /^Received unknown argument: '(.*)'$/.exec(said)
  if (unknownArgument !== null) {
    const arg = unknownArgument[1]!
    // A second `--work`, or one without its folder, is what @effect/cli cannot place.
    if (isWork(arg)) return workMistake()
    return inBothLanguages((t) => t.cliUnknownArgument(arg, command))
  }
  return undefined
}
