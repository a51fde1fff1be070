/**
 * The `sagasu` command line (SPEC §6): `init`, `add`, `list`, `enable`,
 * `disable`, `rename`, `remove`, `move` (index management, issue 16),
 * `index`, `search`, `status`, `gui`.
 * Every command takes `--work DIR` (default: {@link defaultWorkDir}).
 * Exit codes: 0 success, 1 error, 2 stopped or cancelled (R1).
 *
 * @module
 */
import { Args, Command, Options, ValidationError } from "@effect/cli"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Logger, LogLevel, Option } from "effect"
import { addCommand, enableCommand, initCommand, listCommand, moveCommand, removeCommand, renameCommand } from "./commands.ts"
import { searchCommand } from "./search_command.ts"
import { defaultSearchLimit } from "./search_options.ts"
import { guiCommand } from "@sagasu/gui"
import { indexCommand } from "./index_command.ts"
import { statusCommand } from "./status_command.ts"
import { version } from "./version.ts"
import { defaultWorkDir } from "./work_dir.ts"

const work = Options.text("work").pipe(
  Options.withDescription("the work folder (default: $SAGASU_WORK or the per-user data folder)"),
  Options.withDefault(defaultWorkDir())
)

const init = Command.make("init", { work }, ({ work }) => initCommand(work)).pipe(
  Command.withDescription("create a work folder (idempotent)")
)

const add = Command.make(
  "add",
  {
    work,
    name: Args.text({ name: "NAME" }).pipe(Args.withDescription("the index name, e.g. 共有")),
    folder: Args.text({ name: "PATH" }).pipe(Args.withDescription("the folder to index"))
  },
  ({ work, name, folder }) => addCommand(work, name, folder)
).pipe(Command.withDescription("register a folder as an index (refused when it is, lies inside or contains another index's folder)"))

const indexName = (description: string) => Args.text({ name: "NAME" }).pipe(Args.withDescription(description))

const list = Command.make(
  "list",
  { work, json: Options.boolean("json").pipe(Options.withDescription("print a JSON array of {name, path, enabled, done, failed, pending}")) },
  ({ work, json }) => listCommand(work, json)
).pipe(Command.withDescription("list the indexes: name, folder, enabled, files done / failed / pending"))

const enable = Command.make("enable", { work, name: indexName("the index to enable") }, ({ work, name }) =>
  enableCommand(work, name, true)
).pipe(Command.withDescription("let sagasu index update the index again"))

const disable = Command.make("disable", { work, name: indexName("the index to disable") }, ({ work, name }) =>
  enableCommand(work, name, false)
).pipe(Command.withDescription("leave the index out of sagasu index (its files are still found)"))

const rename = Command.make(
  "rename",
  {
    work,
    from: Args.text({ name: "OLD" }).pipe(Args.withDescription("the index's name")),
    to: Args.text({ name: "NEW" }).pipe(Args.withDescription("its new name"))
  },
  ({ work, from, to }) => renameCommand(work, from, to)
).pipe(Command.withDescription("rename an index; its ingested files keep their text (refused while an indexing run is going on)"))

const remove = Command.make("remove", { work, name: indexName("the index to remove") }, ({ work, name }) =>
  removeCommand(work, name)
).pipe(Command.withDescription("remove an index and its ingested text (the files themselves are untouched)"))

const move = Command.make(
  "move",
  {
    work,
    name: indexName("the index"),
    folder: Args.text({ name: "PATH" }).pipe(Args.withDescription("its new folder"))
  },
  ({ work, name, folder }) => moveCommand(work, name, folder)
).pipe(Command.withDescription("change the folder of an index (the next sagasu index ingests only what differs)"))

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
      Options.withDescription("update only this index (repeatable)")
    )
  },
  (o) => indexCommand(o.work, { yes: o.yes, retryFailed: o.retryFailed, includeCloud: o.includeCloud, only: o.only })
).pipe(Command.withDescription("run an indexing run over the enabled indexes"))

const status = Command.make(
  "status",
  { work, json: Options.boolean("json").pipe(Options.withDescription("print JSON")) },
  ({ work, json }) => statusCommand(work, json)
).pipe(Command.withDescription("show how the last indexing run ended and the counts per index"))

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
    limit: Options.integer("limit").pipe(Options.withDefault(defaultSearchLimit), Options.withDescription("files on a page")),
    offset: Options.integer("offset").pipe(Options.withDefault(0), Options.withDescription("files to skip (the next page)")),
    index: Options.text("index").pipe(Options.repeated, Options.withDescription("only this index (repeatable)")),
    type: Options.text("type").pipe(
      Options.optional,
      Options.withDescription("only this file type: excel, word, powerpoint, legacy, or an extension (xlsx, xls, docx, doc, pptx, ppt, …)")
    )
  },
  (o) => searchCommand(o.work, o.query.join(" "), { json: o.json, files: o.files, limit: o.limit, offset: o.offset, index: o.index, type: o.type })
).pipe(Command.withDescription("find files holding every word (space = AND, anywhere in the file, names and properties too)"))

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
).pipe(Command.withDescription("serve the screen on a local web page (127.0.0.1 only)"))

const sagasu = Command.make("sagasu").pipe(
  Command.withDescription("Full-text search for Excel, Word and PowerPoint files"),
  Command.withSubcommands([init, add, list, enable, disable, rename, remove, move, index, search, status, gui])
)

const cli = Command.run(sagasu, { name: "sagasu", version })

// `sagasu search 山 | head -1`: the reader went away; that is not an error of ours.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0)
  throw e
})

cli(process.argv).pipe(
  // @effect/cli has already printed a usage error for a person; exit 1 without a dump.
  Effect.catchIf(ValidationError.isValidationError, () => Effect.sync(() => { process.exitCode = 1 })),
  Effect.provide(Layer.mergeAll(NodeContext.layer, Logger.minimumLogLevel(LogLevel.Warning))),
  NodeRuntime.runMain({ disableErrorReporting: false })
)
