/**
 * The `sagasu` command line (SPEC §6): `init`, `add`, `list`, `enable`,
 * `disable`, `rename`, `remove`, `move` (index management, issue 16),
 * `index`, `search`, `status`, `gui`, and the team server's `publish` and
 * `team grant|revoke` (issue 18).
 * Every command takes `--work DIR` (default: {@link defaultWorkDir}).
 * Exit codes: 0 success, 1 error, 2 stopped or cancelled (R1).
 *
 * @module
 */
import { Args, CliConfig, Command, HelpDoc, Options, ValidationError } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Cause, Console, Effect, Layer, Logger, LogLevel, Option } from "effect"
import { addCommand, enableCommand, initCommand, listCommand, moveCommand, removeCommand, renameCommand } from "./commands.ts"
import { exampleRows, fitHelp, helpWidth } from "./help_layout.ts"
import { searchCommand } from "./search_command.ts"
import { defaultSearchLimit, unknownSearchOption } from "./search_options.ts"
import { searchUsageErrors, searchUsageExitCode } from "./search_output.ts"
import { WorkStore } from "@sagasu/store"
import { guiCommand } from "@sagasu/gui"
import { indexCommand } from "./index_command.ts"
import { statusCommand } from "./status_command.ts"
import { connectCommand, grantCommand, publishCommand } from "./team_command.ts"
import { version } from "./version.ts"
import { defaultWorkDir } from "./work_dir.ts"

// Help with examples: a description made of blocks (@effect/cli prints it under DESCRIPTION).
const described = (summary: string, sections: ReadonlyArray<readonly [string, ReadonlyArray<string>]>) =>
  HelpDoc.blocks([HelpDoc.p(summary), ...sections.flatMap(([title, lines]) => [HelpDoc.h2(title), ...lines.map((l) => HelpDoc.p(l))])])
// The help fits the terminal, at most 80 columns (issue 16).
const width = helpWidth(process.stdout.isTTY === true ? process.stdout.columns : undefined)
// Examples as `command  what it does`, the second column aligned in display columns (Japanese takes two).
const examples = (rows: ReadonlyArray<readonly [string, string]>): ReadonlyArray<string> => [exampleRows(rows, width).join("\n")]

// What each command does: its help's first line, and its row in `sagasu --help`.
const summary = {
  init: "create a work folder (idempotent)",
  add: "register a folder as an index (refused when it is, lies inside or contains another index's folder)",
  list: "list the indexes: name, folder, enabled, files done / failed / pending",
  enable: "let sagasu index update the index again",
  disable: "leave the index out of sagasu index (its files are still found)",
  rename: "rename an index; its ingested files keep their text (refused while an indexing run is going on)",
  remove: "remove an index and its ingested text (the files themselves are untouched)",
  move: "change the folder of an index (the next sagasu index ingests only what differs)",
  index: "run an indexing run over the enabled indexes: crawl, show the plan, ask, ingest",
  search: "find files holding every word (space = AND, anywhere in the file, names and properties too)",
  status: "show how the last indexing run ended and the counts per index",
  gui: "serve the screen on a local web page (127.0.0.1 only)"
} as const

const work = Options.text("work").pipe(
  Options.withDescription("the work folder (default: $SAGASU_WORK or the per-user data folder)"),
  Options.withDefault(defaultWorkDir())
)

const init = Command.make("init", { work }, ({ work }) => initCommand(work)).pipe(
  Command.withDescription(summary.init)
)

/** A text argument shown as `name` in the help, with its description. */
const textArg = (name: string, description: string) => Args.text({ name }).pipe(Args.withDescription(description))
const indexName = (description: string) => textArg("NAME", description)

const add = Command.make("add", { work, name: indexName("the index name, e.g. 共有"), folder: textArg("PATH", "the folder to index") }, ({ work, name, folder }) =>
  addCommand(work, name, folder)
).pipe(Command.withDescription(summary.add))

const list = Command.make(
  "list",
  { work, json: Options.boolean("json").pipe(Options.withDescription("print a JSON array of {name, path, enabled, done, failed, pending}")) },
  ({ work, json }) => listCommand(work, json)
).pipe(Command.withDescription(summary.list))

const enable = Command.make("enable", { work, name: indexName("the index to enable") }, ({ work, name }) =>
  enableCommand(work, name, true)
).pipe(Command.withDescription(summary.enable))

const disable = Command.make("disable", { work, name: indexName("the index to disable") }, ({ work, name }) =>
  enableCommand(work, name, false)
).pipe(Command.withDescription(summary.disable))

const rename = Command.make("rename", { work, from: textArg("OLD", "the index's name"), to: textArg("NEW", "its new name") }, ({ work, from, to }) =>
  renameCommand(work, from, to)
).pipe(Command.withDescription(summary.rename))

const remove = Command.make("remove", { work, name: indexName("the index to remove") }, ({ work, name }) =>
  removeCommand(work, name)
).pipe(Command.withDescription(summary.remove))

const move = Command.make(
  "move",
  { work, name: indexName("the index"), folder: textArg("PATH", "its new folder") },
  ({ work, name, folder }) => moveCommand(work, name, folder)
).pipe(Command.withDescription(summary.move))

const index = Command.make(
  "index",
  {
    work,
    yes: Options.boolean("yes").pipe(Options.withAlias("y"), Options.withDescription("do not ask before ingesting")),
    retryFailed: Options.boolean("retry-failed").pipe(Options.withDescription("also ingest files that failed last time")),
    includeCloud: Options.boolean("include-cloud").pipe(
      Options.withDescription("also ingest cloud-only files (downloads them)")
    ),
    only: Options.text("only").pipe(
      Options.repeated,
      // Shown as optional in the usage line (issue 16: it read as required).
      Options.withDefault([]),
      Options.withDescription("update only this index (repeatable)")
    ),
    verbose: Options.boolean("verbose").pipe(Options.withAlias("v"), Options.withDescription("print one line per file (as the log has them)")),
    quiet: Options.boolean("quiet").pipe(
      Options.withAlias("q"),
      Options.withDescription("print no progress: only the plan (when asking), warnings, errors and how the run ended")
    )
  },
  (o) => indexCommand(o.work, { yes: o.yes, retryFailed: o.retryFailed, includeCloud: o.includeCloud, only: o.only, verbose: o.verbose, quiet: o.quiet })
).pipe(Command.withDescription(described(summary.index, [
  ["OUTPUT", [
    "On a terminal one progress line redrawn in place (phase, bar, files, elapsed time, files/s, time left, the file); piped or redirected a plain progress line at each tenth of the files and once a minute; errors on stderr.",
    "--verbose adds one line per file (as indexing_log.txt has them), --quiet prints no progress."
  ]],
  ["EXAMPLES", examples([
    ["sagasu index", "ask, then ingest new and changed files"],
    ["sagasu index --yes --only 共有", "update one index without asking"],
    ["sagasu index --yes --quiet", "for cron: the closing message, warnings and errors only"],
    ["sagasu index --retry-failed", "also retry files that failed for a reason of their own"]
  ])]
])))

const status = Command.make(
  "status",
  {
    work,
    json: Options.boolean("json").pipe(Options.withDescription("print JSON")),
    failed: Options.boolean("failed").pipe(Options.withDescription("list the failed files with their reasons, per index (from the ingest list)"))
  },
  ({ work, json, failed }) => statusCommand(work, { json, failed })
).pipe(Command.withDescription(described(summary.status, [
  ["EXAMPLES", examples([
    ["sagasu status", "the last run and the counts per index"],
    ["sagasu status --failed", "every failed file and why, per index"],
    ["sagasu status --failed --json", "the same for scripts"]
  ])]
])))

const search = Command.make(
  "search",
  {
    work,
    query: Args.text({ name: "WORD" }).pipe(
      Args.atLeast(1),
      Args.withDescription("words that must all be in the file (one or several arguments); -word excludes, \"…\" keeps a phrase, 「」 and an unclosed \" are text; a first word starting with - goes after --")
    ),
    json: Options.boolean("json").pipe(Options.withDescription("print a JSON array of files, each with its locations")),
    files: Options.boolean("files").pipe(Options.withDescription("print one line per file: index and path")),
    context: Options.boolean("context").pipe(
      Options.withDescription("show each location in its context: a cell's column and row headings, a paragraph's neighbours, a slide's title (--json: a context object per location)")
    ),
    limit: Options.integer("limit").pipe(Options.withDefault(defaultSearchLimit), Options.withDescription("files on a page")),
    offset: Options.integer("offset").pipe(Options.withDefault(0), Options.withDescription("files to skip (the next page)")),
    index: Options.text("index").pipe(Options.repeated, Options.withDefault([]), Options.withDescription("only this index (repeatable)")),
    type: Options.text("type").pipe(
      Options.optional,
      Options.withDescription("only this file type: excel, word, powerpoint, legacy, or an extension (xlsx, xls, docx, doc, pptx, ppt, …)")
    ),
    sort: Options.text("sort").pipe(Options.optional, Options.withDescription("relevance (default) or modified (newest first)")),
    folder: Options.text("folder").pipe(Options.optional, Options.withDescription("only files inside this folder of their index (見積/2024)")),
    since: Options.text("since").pipe(Options.optional, Options.withDescription("only files modified on or after this day (2024-04-01)")),
    until: Options.text("until").pipe(Options.optional, Options.withDescription("only files modified on or before this day (2024-06-30)")),
    server: Options.boolean("server").pipe(
      Options.withDescription("search the team server of setting.config (teamServer) instead of this computer's index (the default when teamServer.search is true)")
    )
  },
  (o) =>
    searchCommand(o.work, o.query.join(" "), {
      json: o.json, files: o.files, context: o.context, limit: o.limit, offset: o.offset, index: o.index, type: o.type,
      sort: o.sort, folder: o.folder, since: o.since, until: o.until, server: o.server
    })
).pipe(Command.withDescription(described(summary.search, [
  ["QUERY SYNTAX", [
    "words separated by spaces (ASCII or full-width) must all occur in the same file, anywhere in it",
    "-word excludes the files that contain it; a query whose first word starts with - goes after --",
    "\"…\" keeps a phrase together within one cell, paragraph or slide line",
    "「」『』 are ordinary text, never quotes; an unbalanced or inner \" is text too",
    "hiragana and katakana, full-width and half-width, upper and lower case are the same (がいど finds ｶﾞｲﾄﾞ)",
    "numbers and dates are found as shown and as typed (¥123,350 by 123350, 2009年9月4日 by 2009/9/4 or 2009-09-04)",
    "file names, folder paths, sheet names, slide titles and document properties are searched like the text"
  ]],
  ["EXAMPLES", examples([
    ["sagasu search 見積番号", "files holding 見積番号"],
    ["sagasu search 要件 合意", "both words in the same file"],
    ["sagasu search 見積 -テンプレート", "見積 but not テンプレート"],
    ["sagasu search -- -対象外 見積", "a first word starting with -"],
    ["sagasu search '\"株式会社 サガス\"'", "the phrase as it stands in one cell"],
    ["sagasu search 見積 --files --limit 50 --offset 50", "the second page, one line per file"],
    ["sagasu search 見積 --folder 営業/2024 --since 2024-04-01 --sort modified", "newest first, one folder, since April"],
    ["sagasu search A-1234 --context", "each cell with its column and row headings"],
    ["sagasu search 見積 --server", "search the team's index on the team server"],
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
        "--port must be a number from 1 to 65535"
      ),
      Options.optional,
      Options.withDescription("the port (default: any free one)")
    ),
    noOpen: Options.boolean("no-open").pipe(Options.withDescription("do not open the browser"))
  },
  (o) => guiCommand(o.work, { port: o.port, open: !o.noOpen, version })
).pipe(Command.withDescription(summary.gui))

const publish = Command.make(
  "publish",
  {
    work,
    only: Options.text("only").pipe(Options.repeated, Options.withDefault([]), Options.withDescription("publish only this index (repeatable)"))
  },
  ({ work, only }) => publishCommand(work, only)
).pipe(Command.withDescription(described("publish the body index to the team server (teamServer in setting.config); sagasu index does it at the end of each run", [
  ["WHAT IT DOES", [
    "creates or updates the server's tables, then per index: sends the files that are new or changed since the server last got them (each in one transaction), removes the files that are gone, and switches readers to the new state at once",
    "one publisher per index: while another machine publishes an index, it is refused with the message of the indexing lock; a publish cut short is finished by the next one",
    "the password comes from $SAGASU_TEAM_PASSWORD (teamServer.passwordEnv), teamServer.passwordFile, $PGPASSWORD or ~/.pgpass, never from the log"
  ]],
  ["EXAMPLES", examples([
    ["sagasu publish", "publish every registered index"],
    ["sagasu publish --only 共有", "publish one index"]
  ])]
])))

const roleArgs = {
  index: Args.text({ name: "INDEX" }).pipe(Args.withDescription("the index name on the team server")),
  role: Args.text({ name: "ROLE" }).pipe(Args.withDescription("a database role (a person's login or a group role)"))
}
const grant = Command.make("grant", { work, ...roleArgs }, ({ work, index, role }) => grantCommand(work, index, role, true)).pipe(
  Command.withDescription("let a database role (and its members) search an index on the team server")
)
const revoke = Command.make("revoke", { work, ...roleArgs }, ({ work, index, role }) => grantCommand(work, index, role, false)).pipe(
  Command.withDescription("no longer let a database role search an index on the team server")
)
const connect = Command.make(
  "connect",
  {
    work,
    url: Args.text({ name: "URL" }).pipe(Args.withDescription("postgres://user@host[:port]/database, without the password")),
    search: Options.boolean("search").pipe(Options.withDescription("sagasu search and the GUI search the team server (a team member's machine)")),
    passwordEnv: Options.text("password-env").pipe(Options.optional, Options.withDescription("the environment variable holding the password (default SAGASU_TEAM_PASSWORD)")),
    passwordFile: Options.text("password-file").pipe(Options.optional, Options.withDescription("a file whose first line is the password"))
  },
  (o) =>
    connectCommand(o.work, o.url, {
      search: o.search, passwordEnv: Option.getOrUndefined(o.passwordEnv), passwordFile: Option.getOrUndefined(o.passwordFile)
    })
).pipe(Command.withDescription("set the team server in setting.config (teamServer): where sagasu index and sagasu publish publish, or with --search where searches go"))
const team = Command.make("team").pipe(
  Command.withDescription("the team server: connect a work folder to it; grant or revoke who may search which index (row-level security; run as the publishing role)"),
  Command.withSubcommands([connect, grant, revoke])
)

const sagasu = Command.make("sagasu").pipe(
  Command.withDescription("Full-text search for Excel, Word and PowerPoint files"),
  Command.withSubcommands([init, add, list, enable, disable, rename, remove, move, index, search, status, gui, publish, team])
)

// @effect/cli lists its built-in options in every help, --wizard and --completions among them (issue 16:
// neither is a thing a person here needs): the list is off (CliConfig showBuiltIns), they still work,
// and the two that matter are said in a footer of our own.
const cli = Command.run(sagasu, {
  name: "sagasu",
  version,
  footer: HelpDoc.blocks([
    HelpDoc.h1("EVERY COMMAND"),
    HelpDoc.p(examples([["-h, --help", "show the help of the command"], ["--version", "show the version of sagasu"]]).join("\n")),
    HelpDoc.p("sagasu COMMAND --help shows the command's options and examples.")
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
// usage line without the command's name): left out, so the help says only what Sagasu says.
const boilerplate = /^(?:\x1b\[[0-9;]*m)*\s*(?:A user-defined piece of text\.|A true or false value\.|An integer\.|This setting is optional\.)(?:\x1b\[[0-9;]*m)*\s*$/
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
      .replace(/^((?:\x1b\[[0-9;]*m)*\$ )(?!sagasu)/m, "$1sagasu ")
    return fitHelp(tidy, width, { commands: Object.entries(summary) })
  })
const withoutColour = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Console.consoleWith((base) => {
    const out = plain(process.stdout)
    const err = plain(process.stderr)
    const console: Console.Console = Object.assign(Object.create(base) as Console.Console, {
      log: (...args: ReadonlyArray<unknown>) => base.log(...tidyHelp(out ? stripAnsi(args) : args)),
      info: (...args: ReadonlyArray<unknown>) => base.info(...(out ? stripAnsi(args) : args)),
      error: (...args: ReadonlyArray<unknown>) => base.error(...(err ? stripAnsi(args) : args)),
      warn: (...args: ReadonlyArray<unknown>) => base.warn(...(err ? stripAnsi(args) : args))
    })
    return Effect.withConsole(effect, console)
  })

// A mistyped option of `search` (`--limt 5`) would become words of the query: a mistake, exit 1 (issue 14).
const unknown = process.argv[2] === "search" ? unknownSearchOption(process.argv.slice(3)) : undefined
if (unknown !== undefined) {
  process.stderr.write(searchUsageErrors.unknownOption(unknown) + "\n")
  process.exit(searchUsageExitCode)
}

cli(process.argv).pipe(
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
