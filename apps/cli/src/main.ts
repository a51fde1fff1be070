/**
 * The `sagasu` command line (SPEC §6): `init`, `add`, `list`, `enable`,
 * `disable`, `rename`, `remove`, `move` (index management, issue 16),
 * `index`, `search`, `status`, `gui`, and the team server's `publish` and
 * `team grant|revoke` (issue 18).
 * Every command takes `--work DIR` (default: {@link defaultWorkDir}).
 * The help is in the language of that work folder's settings (issue 16).
 * Exit codes: 0 success, 1 error, 2 stopped or cancelled (R1).
 *
 * @module
 */
import { Args, CliConfig, Command, HelpDoc, Options, ValidationError } from "@effect/cli"
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { defaultSettings, helpText, inBothLanguages, type Language } from "@sagasu/domain"
import { Cause, Console, Effect, Layer, Logger, LogLevel, Option } from "effect"
import { addCommand, enableCommand, initCommand, listCommand, moveCommand, removeCommand, renameCommand } from "./commands.ts"
import { exampleRows, fitHelp, helpWidth } from "./help_layout.ts"
import { helpRequest } from "./help_request.ts"
import { searchCommand } from "./search_command.ts"
import {
  defaultSearchLimit,
  globalOptionsAfterCommand,
  indexOptionMissingValue,
  searchArgsInOrder,
  nonDigitSearchInteger,
  searchOptionMissingValue,
  unknownSearchOption
} from "./search_options.ts"
import { localUsageError } from "./usage_errors.ts"
import { searchUsageErrors, searchUsageExitCode } from "./search_output.ts"
import { WorkStore, workPaths } from "@sagasu/store"
import { indexCommand } from "./index_command.ts"
import { statusCommand } from "./status_command.ts"
import { connectCommand, grantCommand, publishCommand } from "./team_command.ts"
import { version } from "./version.ts"
import { defaultWorkDir } from "./work_dir.ts"

// The help in the settings' language (issue 16), read only when a help is printed (helpRequest): any other
// start reads nothing more — a cold search has ≈100 ms in all — and declares its commands with the default
// language's words, which it never shows. A settings file that is missing or broken: the default language.
// `sagasu --work DIR add …` read as `sagasu add --work DIR …` (search_options.ts).
// `sagasu search -hello world --json`: options first, then `--` and the words (search_options.ts).
const given = globalOptionsAfterCommand(process.argv.slice(2))
const commandLine = given[0] === "search" ? ["search", ...searchArgsInOrder(given.slice(1))] : given
const argv = [...process.argv.slice(0, 2), ...commandLine]
const helpAsked = helpRequest(commandLine)
const helpLanguage = helpAsked.asked
  ? await Effect.runPromise(
      WorkStore.readSettings(workPaths(helpAsked.work ?? defaultWorkDir())).pipe(
        Effect.map((settings): Language => settings.language),
        Effect.orElseSucceed(() => defaultSettings.language),
        Effect.provide(WorkStore.Default)
      )
    )
  : defaultSettings.language
const help = helpText(helpLanguage)

// Help with examples: a description made of blocks (@effect/cli prints it under DESCRIPTION).
const described = (summary: string, sections: ReadonlyArray<readonly [string, ReadonlyArray<string>]>) =>
  HelpDoc.blocks([HelpDoc.p(summary), ...sections.flatMap(([title, lines]) => [HelpDoc.h2(title), ...lines.map((l) => HelpDoc.p(l))])])
// The help fits the terminal, at most 80 columns (issue 16).
const width = helpWidth(process.stdout.isTTY === true ? process.stdout.columns : undefined)
// Examples as `command  what it does`, the second column aligned in display columns (Japanese takes two).
const examples = (rows: ReadonlyArray<readonly [string, string]>): ReadonlyArray<string> => [exampleRows(rows, width).join("\n")]

// What each command does: its help's first line, and its row in `sagasu --help` (`sagasu team --help`).
const summary = help.summary
const commandRows = (["init", "add", "list", "enable", "disable", "rename", "remove", "move", "index", "search", "status", "gui", "publish", "team"] as const)
  .map((c) => [c, summary[c]] as const)
const teamRows = (["connect", "grant", "revoke"] as const).map((c) => [c, summary[c]] as const)

const work = Options.text("work").pipe(
  Options.withDescription(help.work),
  Options.withDefault(defaultWorkDir())
)

const init = Command.make("init", { work }, ({ work }) => initCommand(work)).pipe(
  Command.withDescription(summary.init)
)

/** A text argument shown as `name` in the help, with its description. */
const textArg = (name: string, description: string) => Args.text({ name }).pipe(Args.withDescription(description))
const indexName = (description: string) => textArg("NAME", description)

const add = Command.make("add", { work, name: indexName(help.add.name), folder: textArg("PATH", help.add.folder) }, ({ work, name, folder }) =>
  addCommand(work, name, folder)
).pipe(Command.withDescription(summary.add))

const list = Command.make(
  "list",
  { work, json: Options.boolean("json").pipe(Options.withDescription(help.list.json)) },
  ({ work, json }) => listCommand(work, json)
).pipe(Command.withDescription(summary.list))

const enable = Command.make("enable", { work, name: indexName(help.enable.name) }, ({ work, name }) =>
  enableCommand(work, name, true)
).pipe(Command.withDescription(summary.enable))

const disable = Command.make("disable", { work, name: indexName(help.disable.name) }, ({ work, name }) =>
  enableCommand(work, name, false)
).pipe(Command.withDescription(summary.disable))

const rename = Command.make("rename", { work, from: textArg("OLD", help.rename.from), to: textArg("NEW", help.rename.to) }, ({ work, from, to }) =>
  renameCommand(work, from, to)
).pipe(Command.withDescription(summary.rename))

const remove = Command.make("remove", { work, name: indexName(help.remove.name) }, ({ work, name }) =>
  removeCommand(work, name)
).pipe(Command.withDescription(summary.remove))

const move = Command.make(
  "move",
  { work, name: indexName(help.move.name), folder: textArg("PATH", help.move.folder) },
  ({ work, name, folder }) => moveCommand(work, name, folder)
).pipe(Command.withDescription(summary.move))

const index = Command.make(
  "index",
  {
    work,
    yes: Options.boolean("yes").pipe(Options.withAlias("y"), Options.withDescription(help.index.yes)),
    retryFailed: Options.boolean("retry-failed").pipe(Options.withDescription(help.index.retryFailed)),
    includeCloud: Options.boolean("include-cloud").pipe(Options.withDescription(help.index.includeCloud)),
    only: Options.text("only").pipe(
      Options.repeated,
      // Shown as optional in the usage line (issue 16: it read as required).
      Options.withDefault([]),
      Options.withDescription(help.index.only)
    ),
    verbose: Options.boolean("verbose").pipe(Options.withAlias("v"), Options.withDescription(help.index.verbose)),
    quiet: Options.boolean("quiet").pipe(Options.withAlias("q"), Options.withDescription(help.index.quiet))
  },
  (o) => indexCommand(o.work, { yes: o.yes, retryFailed: o.retryFailed, includeCloud: o.includeCloud, only: o.only, verbose: o.verbose, quiet: o.quiet })
).pipe(Command.withDescription(described(summary.index, [
  [help.sections.output, help.index.output],
  [help.sections.examples, examples([
    ["sagasu index", help.index.examples.ask],
    ["sagasu index --yes --only 共有", help.index.examples.one],
    ["sagasu index --yes --quiet", help.index.examples.cron],
    ["sagasu index --retry-failed", help.index.examples.retry]
  ])]
])))

const status = Command.make(
  "status",
  {
    work,
    json: Options.boolean("json").pipe(Options.withDescription(help.status.json)),
    failed: Options.boolean("failed").pipe(Options.withDescription(help.status.failed))
  },
  ({ work, json, failed }) => statusCommand(work, { json, failed })
).pipe(Command.withDescription(described(summary.status, [
  [help.sections.examples, examples([
    ["sagasu status", help.status.examples.last],
    ["sagasu status --failed", help.status.examples.failed],
    ["sagasu status --failed --json", help.status.examples.json]
  ])]
])))

const search = Command.make(
  "search",
  {
    work,
    query: Args.text({ name: "WORD" }).pipe(Args.atLeast(1), Args.withDescription(help.search.words)),
    json: Options.boolean("json").pipe(Options.withDescription(help.search.json)),
    files: Options.boolean("files").pipe(Options.withDescription(help.search.files)),
    context: Options.boolean("context").pipe(Options.withDescription(help.search.context)),
    limit: Options.integer("limit").pipe(Options.withDefault(defaultSearchLimit), Options.withDescription(help.search.limit)),
    offset: Options.integer("offset").pipe(Options.withDefault(0), Options.withDescription(help.search.offset)),
    index: Options.text("index").pipe(Options.repeated, Options.withDefault([]), Options.withDescription(help.search.index)),
    type: Options.text("type").pipe(Options.repeated, Options.withDefault([]), Options.withDescription(help.search.type)),
    sort: Options.text("sort").pipe(Options.optional, Options.withDescription(help.search.sort)),
    folder: Options.text("folder").pipe(Options.optional, Options.withDescription(help.search.folder)),
    since: Options.text("since").pipe(Options.optional, Options.withDescription(help.search.since)),
    until: Options.text("until").pipe(Options.optional, Options.withDescription(help.search.until)),
    server: Options.boolean("server").pipe(Options.withDescription(help.search.server))
  },
  (o) =>
    searchCommand(o.work, o.query.join(" "), {
      json: o.json, files: o.files, context: o.context, limit: o.limit, offset: o.offset, index: o.index, type: o.type,
      sort: o.sort, folder: o.folder, since: o.since, until: o.until, server: o.server
    })
).pipe(Command.withDescription(described(summary.search, [
  [help.sections.querySyntax, help.search.syntax],
  [help.sections.examples, examples([
    ["sagasu search 見積番号", help.search.examples.word],
    ["sagasu search 要件 合意", help.search.examples.both],
    ["sagasu search 見積 -テンプレート", help.search.examples.exclude],
    ["sagasu search -対象外 見積 --files", help.search.examples.dash],
    ["sagasu search '\"株式会社 サガス\"'", help.search.examples.phrase],
    ["sagasu search 見積 --files --limit 50 --offset 50", help.search.examples.page],
    ["sagasu search 見積 --folder 営業/2024 --since 2024-04-01 --sort modified", help.search.examples.folder],
    ["sagasu search A-1234 --context", help.search.examples.context],
    ["sagasu search 見積 --server", help.search.examples.server],
    ["sagasu search A-1234 --type excel --index 共有 --json", ""]
  ])]
])))

const gui = Command.make(
  "gui",
  {
    work,
    port: Options.integer("port").pipe(
      Options.filterMap(
        (n) => (n >= 1 && n <= 65535 ? Option.some(n) : Option.none()),
        // Told while the command line is read, before the settings: in both languages.
        inBothLanguages((t) => t.guiBadPort)
      ),
      Options.optional,
      Options.withDescription(help.gui.port)
    ),
    noOpen: Options.boolean("no-open").pipe(Options.withDescription(help.gui.noOpen))
  },
  // The GUI's server (HTTP, WebSocket, its pages) is loaded only by this command: every other
  // command, `index` above all, ran with it in memory (issue 20: the process's peak).
  (o) => Effect.promise(() => import("@sagasu/gui/gui-command")).pipe(Effect.flatMap((gui) => gui.guiCommand(o.work, { port: o.port, open: !o.noOpen, version })))
).pipe(Command.withDescription(summary.gui))

const publish = Command.make(
  "publish",
  {
    work,
    only: Options.text("only").pipe(Options.repeated, Options.withDefault([]), Options.withDescription(help.publish.only))
  },
  ({ work, only }) => publishCommand(work, only)
).pipe(Command.withDescription(described(summary.publish, [
  [help.sections.whatItDoes, help.publish.steps],
  [help.sections.examples, examples([
    ["sagasu publish", help.publish.examples.all],
    ["sagasu publish --only 共有", help.publish.examples.one]
  ])]
])))

const roleArgs = {
  index: Args.text({ name: "INDEX" }).pipe(Args.withDescription(help.team.index)),
  role: Args.text({ name: "ROLE" }).pipe(Args.withDescription(help.team.role))
}
const grant = Command.make("grant", { work, ...roleArgs }, ({ work, index, role }) => grantCommand(work, index, role, true)).pipe(
  Command.withDescription(summary.grant)
)
const revoke = Command.make("revoke", { work, ...roleArgs }, ({ work, index, role }) => grantCommand(work, index, role, false)).pipe(
  Command.withDescription(summary.revoke)
)
const connect = Command.make(
  "connect",
  {
    work,
    url: Args.text({ name: "URL" }).pipe(Args.withDescription(help.team.url)),
    search: Options.boolean("search").pipe(Options.withDescription(help.team.search)),
    passwordEnv: Options.text("password-env").pipe(Options.optional, Options.withDescription(help.team.passwordEnv)),
    passwordFile: Options.text("password-file").pipe(Options.optional, Options.withDescription(help.team.passwordFile))
  },
  (o) =>
    connectCommand(o.work, o.url, {
      search: o.search, passwordEnv: Option.getOrUndefined(o.passwordEnv), passwordFile: Option.getOrUndefined(o.passwordFile)
    })
).pipe(Command.withDescription(summary.connect))
const team = Command.make("team").pipe(
  Command.withDescription(summary.team),
  Command.withSubcommands([connect, grant, revoke])
)

const sagasu = Command.make("sagasu").pipe(
  Command.withDescription(help.sagasu),
  Command.withSubcommands([init, add, list, enable, disable, rename, remove, move, index, search, status, gui, publish, team])
)

// @effect/cli lists its built-in options in every help, --wizard and --completions among them (issue 16:
// neither is a thing a person here needs): the list is off (CliConfig showBuiltIns), they still work,
// and the two that matter are said in a footer of our own.
const cli = Command.run(sagasu, {
  name: "sagasu",
  version,
  footer: HelpDoc.blocks([
    HelpDoc.h1(help.sections.everyCommand),
    HelpDoc.p(examples([["-h, --help", help.helpOption], ["--version", help.versionOption]]).join("\n")),
    HelpDoc.p(help.commandHelp)
  ])
})

// `sagasu search 山 | head -1`: the reader went away; that is not an error of ours.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0)
  throw e
})

// No colour in the help and the usage errors when the stream is not a terminal or NO_COLOR is set
// (issue 16; https://no-color.org): @effect/cli renders its help with ANSI styles whatever the output.
const plain = (stream: NodeJS.WriteStream) => stream.isTTY !== true || process.env.NO_COLOR !== undefined
const stripAnsi = (args: ReadonlyArray<unknown>) => args.map((a) => (typeof a === "string" ? a.replace(/\x1b\[[0-9;]*m/g, "") : a))

// @effect/cli's own words in every help (issue 16: "A user-defined piece of text." on each option, a
// usage line without the command's name, English in a Japanese help): left out, so the help says only what
// Sagasu says — a repeatable option's or argument's description says so itself.
const boilerplate =
  /^(?:\x1b\[[0-9;]*m)*\s*(?:A user-defined piece of text\.|A true or false value\.|An integer\.|This setting is optional\.|This (?:argument|option) (?:may be repeated zero or more times|must be repeated at least \d+ times)\.)(?:\x1b\[[0-9;]*m)*\s*$/
// Its section headings, said in the help's language.
const helpHeadings = {
  USAGE: help.headings.usage, DESCRIPTION: help.headings.description, ARGUMENTS: help.headings.arguments,
  OPTIONS: help.headings.options, COMMANDS: help.headings.commands
}
// The top-level help lists each command with what it does, fitted to the terminal (issue 16: @effect/cli
// aligned the descriptions after the longest usage line, ≈200 columns); every help is cut to the width.
const tidyHelp = (args: ReadonlyArray<unknown>) =>
  args.map((a) => {
    if (typeof a !== "string" || !a.includes("USAGE")) return a
    const tidy = a
      .split("\n")
      .filter((line) => !boilerplate.test(line))
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      // A subcommand of team is `sagasu team connect` (@effect/cli says `$ connect`).
      .replace(/^((?:\x1b\[[0-9;]*m)*\$ )(?!sagasu)((?:connect|grant|revoke)\b)?/m, (_, usage: string, sub: string | undefined) =>
        sub === undefined ? `${usage}sagasu ` : `${usage}sagasu team ${sub}`)
    // `sagasu team --help` lists its own subcommands; the top-level help every command.
    const team = /^\$ sagasu team\s*$/m.test(tidy.replace(/\x1b\[[0-9;]*m/g, ""))
    // Its footer points at its subcommands' help (`sagasu team COMMAND --help`).
    const footed = team ? tidy.replace(help.commandHelp, help.commandHelp.replace("sagasu COMMAND", "sagasu team COMMAND")) : tidy
    return fitHelp(footed, width, { commands: team ? teamRows : commandRows, headings: helpHeadings })
  })
const withoutColour = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Console.consoleWith((base) => {
    const out = plain(process.stdout)
    const err = plain(process.stderr)
    const console: Console.Console = Object.assign(Object.create(base) as Console.Console, {
      log: (...args: ReadonlyArray<unknown>) => base.log(...tidyHelp(out ? stripAnsi(args) : args)),
      info: (...args: ReadonlyArray<unknown>) => base.info(...(out ? stripAnsi(args) : args)),
      // @effect/cli's usage errors in the catalogue's words (usage_errors.ts), others as they are.
      error: (...said: ReadonlyArray<unknown>) => {
        const local = typeof said[0] === "string" ? localUsageError(stripAnsi([said[0]])[0] as string, commandLine, { team: teamRows.map(([name]) => name) }) : undefined
        return base.error(...(local !== undefined ? [local] : err ? stripAnsi(said) : said))
      },
      warn: (...args: ReadonlyArray<unknown>) => base.warn(...(err ? stripAnsi(args) : args))
    })
    return Effect.withConsole(effect, console)
  })

// A mistyped option of `search` (`--limt 5`) would become words of the query: a mistake, exit 1 (issue 14).
// So would an option left without its value (`見積 --limit`).
const unknown = commandLine[0] === "search" ? unknownSearchOption(commandLine.slice(1)) : undefined
const valueless =
  commandLine[0] === "search" ? searchOptionMissingValue(commandLine.slice(1))
  : commandLine[0] === "index" ? indexOptionMissingValue(commandLine.slice(1))
  : undefined
// `--limit 0x10`, `1e2`, `" 3"`: @effect/cli reads them as numbers; a page size is written in digits.
const nonDigit = commandLine[0] === "search" && unknown === undefined && valueless === undefined ? nonDigitSearchInteger(commandLine.slice(1)) : undefined
if (unknown !== undefined || valueless !== undefined || nonDigit !== undefined) {
  const message = unknown !== undefined ? searchUsageErrors.unknownOption(unknown)
    : valueless !== undefined ? searchUsageErrors.missingValue(valueless)
    : nonDigit?.[0] === "--limit" ? searchUsageErrors.badLimit(nonDigit[1])
    : searchUsageErrors.badOffset(nonDigit?.[1] ?? "")
  process.stderr.write(message + "\n")
  process.exit(searchUsageExitCode)
}

cli(argv).pipe(
  withoutColour,
  // @effect/cli has already printed a usage error for a person; exit 1 without a dump.
  Effect.catchIf(ValidationError.isValidationError, () => Effect.sync(() => { process.exitCode = 1 })),
  // Anything unexpected is reported on stderr, exit 1 (issue 16: runMain's own report goes through
  // console.log, to stdout); an interruption (Ctrl+C outside a run) is left to runMain.
  Effect.catchAllCause((cause) =>
    Cause.isInterruptedOnly(cause)
      ? Effect.failCause(cause)
      : Effect.sync(() => {
          process.stderr.write(Cause.pretty(cause) + "\n")
          process.exitCode = 1
        })
  ),
  Effect.provide(Layer.mergeAll(
    NodeContext.layer,
    WorkStore.Default,
    CliConfig.layer({ showBuiltIns: false }),
    Logger.minimumLogLevel(LogLevel.Warning),
    // Warnings and errors logged on the way: stderr too (the default logger writes to stdout).
    Logger.replace(Logger.defaultLogger, Logger.withLeveledConsole(Logger.stringLogger))
  )),
  NodeRuntime.runMain({ disableErrorReporting: false })
)
