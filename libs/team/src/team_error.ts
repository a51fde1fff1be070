/**
 * The team server's failures (issue 18): a closed reason and what was seen;
 * the sentence comes from the domain's catalogue (STYLE rule 13).
 *
 * @module
 */
import { type Language, inBothLanguages, messages, teamSchemaVersion } from "@sagasu/domain"
import { Schema } from "effect"

/**
 * Why the team server could not be used: `not-configured` (no `teamServer`
 * setting), `password-file` (its password file cannot be read), `unreachable`
 * (connecting or a statement failed: `detail` says what the server said),
 * `schema-newer` (a newer Sagasu made its tables; `found` their version),
 * `held` (another publisher holds the index's writer lock), `no-index` (no
 * such index on the server, or not granted to this role), `empty` (nothing
 * published to the server yet: no tables), `body-index` (the local body
 * index could not be read: `server` is its folder), `no-password` (the
 * server asks for a password and none was given: `detail` is the
 * environment variable the setting names).
 */
export class TeamError extends Schema.TaggedError<TeamError>()("TeamError", {
  reason: Schema.Literal("not-configured", "password-file", "unreachable", "schema-newer", "held", "no-index", "empty", "body-index", "no-password"),
  /** The server as it may be shown (no password). */
  server: Schema.String,
  detail: Schema.String,
  /** `schema-newer`: the version found; the password file's path for `password-file`, the index for `held` and `no-index` go in `detail`. */
  found: Schema.optional(Schema.Number)
}) {
  override get message(): string {
    return inBothLanguages((text) => describeTeamErrorWith(text, this))
  }
}

const describeTeamErrorWith = (text: ReturnType<typeof messages>, e: TeamError): string => {
  switch (e.reason) {
    case "not-configured":
      return text.teamNotConfigured
    case "password-file":
      return text.teamPasswordFileUnreadable(e.server, e.detail)
    case "unreachable":
      return text.teamUnreachable(e.server, e.detail)
    case "schema-newer":
      return text.teamSchemaNewer(e.found ?? 0, teamSchemaVersion)
    case "held":
      return text.lockHeld
    case "no-index":
      return text.teamNoSuchIndex(e.detail)
    case "empty":
      return text.teamNothingPublished
    case "no-password":
      return text.teamNoPassword(e.server, e.detail)
    case "body-index":
      return text.storeFileUnreadable("index", e.detail, e.server)
  }
}

/** The error's sentence in `language` (the CLI and the log speak the setting's language). */
export function describeTeamError(e: TeamError, language: Language): string {
  return describeTeamErrorWith(messages(language), e)
}
