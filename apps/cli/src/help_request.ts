/**
 * Whether a command line asks for a help (issue 16). The help speaks the
 * settings' language, but the commands are declared before any settings are
 * read, and reading them on every start would cost the cold paths (a whole
 * `sagasu search` has ≈100 ms): main.ts reads the language only when this
 * says @effect/cli will print a help, and declares the other starts' help
 * (which nobody sees) in the default language's words.
 *
 * @module
 */

/** What a command line says of its help: whether one is printed, and the work folder whose settings say its language. */
export interface HelpRequest {
  /** @effect/cli prints a help for it. */
  readonly asked: boolean
  /** `--work DIR` or `--work=DIR`; undefined: the default work folder. */
  readonly work: string | undefined
}

/**
 * What `args` (the command line after the script) ask of the help, as
 * @effect/cli reads them: a help is printed for `-h` or `--help` anywhere
 * before a `--` (not as the value of `--work`), and for no arguments at all
 * or `team` alone (a command without its subcommand).
 */
export function helpRequest(args: ReadonlyArray<string>): HelpRequest {
  let asked = args.length === 0 || (args.length === 1 && args[0] === "team")
  let work: string | undefined
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? ""
    if (arg === "--") break
    if (arg === "--work") {
      work ??= args[i + 1]
      i++
    } else if (arg.startsWith("--work=")) {
      work ??= arg.slice("--work=".length)
    } else if (arg === "-h" || arg === "--help" || arg.startsWith("--help=")) {
      asked = true
    }
  }
  return { asked, work }
}
