/**
 * The settings file `setting.config` (JSON) in the work folder (SPEC §5).
 *
 * @module
 */
import { Schema } from "effect"

/**
 * An index name: also a folder name under `index/`, so it must be a single
 * path segment that every OS accepts.
 */
export const IndexName = Schema.String.pipe(
  Schema.trimmed({ message: () => "an index name must not start or end with spaces" }),
  Schema.minLength(1, { message: () => "an index name must not be empty" }),
  Schema.maxLength(100, { message: () => "an index name must be at most 100 characters" }),
  Schema.filter((s) => !/[\\/:*?"<>|\u0000-\u001f]/.test(s) && s !== "." && s !== "..", {
    message: () => 'an index name must not contain \\ / : * ? " < > | or control characters, nor be "." or ".."'
  })
)

/** One index: a name, its target folder (absolute path) and whether it is enabled (R5). */
export const TargetFolder = Schema.Struct({
  name: IndexName,
  path: Schema.String.pipe(Schema.minLength(1, { message: () => "a target folder path must not be empty" })),
  enabled: Schema.optionalWith(Schema.Boolean, { default: () => true })
})
export type TargetFolder = typeof TargetFolder.Type

/** What to do with cloud-only files when running headless (R9). */
export const CloudFiles = Schema.Literal("skip", "download")
export type CloudFiles = typeof CloudFiles.Type

/** UI language; Japanese is the default (SPEC preamble). */
export const Language = Schema.Literal("ja", "en")
export type Language = typeof Language.Type

const PositiveInt = Schema.Int.pipe(Schema.positive())

/**
 * The team server (issue 18): a PostgreSQL database the indexing machine
 * publishes its body index to and team members search. `url` is a
 * connection string without the password (`postgres://user@host:5432/db`);
 * the password comes from the environment variable `passwordEnv` (default
 * `SAGASU_TEAM_PASSWORD`) or the file `passwordFile` (its first line), else
 * from PostgreSQL's own `PGPASSWORD` / `~/.pgpass`; it is never written to
 * the log. `search`: `sagasu search` and the GUI search the server by default.
 */
export const TeamServerSettings = Schema.Struct({
  url: Schema.String.pipe(Schema.minLength(1, { message: () => "the team server's url must not be empty" })),
  passwordEnv: Schema.optionalWith(Schema.String, { default: () => "SAGASU_TEAM_PASSWORD" }),
  passwordFile: Schema.optional(Schema.String),
  search: Schema.optionalWith(Schema.Boolean, { default: () => false })
})
export type TeamServerSettings = typeof TeamServerSettings.Type

/**
 * The whole settings file. Missing fields take their defaults:
 * `ingestThreads` absent = CPU count (decided by the shell), `cloudFiles`
 * `skip`, `fileTimeoutMinutes` 10, `officeRecycleAfter` 100, `language` `ja`,
 * no `teamServer` (issue 18).
 * Index names must be unique.
 */
export const Settings = Schema.Struct({
  targetFolders: Schema.optionalWith(Schema.Array(TargetFolder), { default: () => [] }),
  ingestThreads: Schema.optional(PositiveInt),
  cloudFiles: Schema.optionalWith(CloudFiles, { default: () => "skip" as const }),
  fileTimeoutMinutes: Schema.optionalWith(Schema.Number.pipe(Schema.positive()), { default: () => 10 }),
  officeRecycleAfter: Schema.optionalWith(PositiveInt, { default: () => 100 }),
  language: Schema.optionalWith(Language, { default: () => "ja" as const }),
  teamServer: Schema.optional(TeamServerSettings)
}).pipe(
  Schema.filter((s) => {
    const seen = new Set<string>()
    for (const t of s.targetFolders) {
      if (seen.has(t.name)) return `the index name "${t.name}" is used twice in targetFolders`
      seen.add(t.name)
    }
    return true
  })
)
export type Settings = typeof Settings.Type

/** Settings of a freshly initialised work folder. */
export const defaultSettings: Settings = Schema.decodeUnknownSync(Settings)({})

/** Decodes settings from parsed JSON; the error's message names the field and the problem. */
export const decodeSettings = Schema.decodeUnknownEither(Settings, { errors: "all", onExcessProperty: "ignore" })

/** Encodes settings to plain JSON (defaults written out, so the file documents them). */
export const encodeSettings = Schema.encodeSync(Settings)
