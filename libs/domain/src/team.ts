/**
 * The team server's decisions (issue 18), pure: what a line's grams are on
 * the server, which grams a query term needs, what a publish must change so
 * the server converges to the body index, when a run publishes, and how a
 * connection string is shown.
 *
 * The server keeps, per located line, the distinct 1- and 2-grams of its
 * normalised text and of its normalised search-only forms (S4) as `int8`
 * keys in one array column with a GIN index. A 2-gram is {@link gramKey}
 * of two code points, as in the local 2-gram index; the 1-gram of a
 * character `c` is `gramKey(c, GRAM_END)` — the key the local tokenizer
 * gives a line's last character, "c followed by anything", so a
 * 1-character query narrows as exactly as a longer one. A term of two or
 * more characters needs its 2-grams, one of one character its 1-gram; a
 * line holding them is a candidate, and the domain's matching decides
 * (search_query.ts, file_match.ts), as it does for the local index.
 *
 * @module
 */
import { GRAM_END, gramKey, lookupOfTerm } from "./gram.ts"
import type { Settings, TeamServerSettings } from "./settings.ts"
import type { RunOutcome } from "./settle_run.ts"

/** The version of the server schema this build creates and reads (the server's `sagasu.meta` records it). */
export const teamSchemaVersion = 1

// Adds the 1- and 2-gram keys of one normalised text to `out` (no pair across texts).
function addGrams(text: string, out: Set<number>): void {
  let prev = -1
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) ?? 0
    out.add(gramKey(cp, GRAM_END))
    if (prev >= 0) out.add(gramKey(prev, cp))
    prev = cp
    i += cp > 0xffff ? 2 : 1
  }
}

/**
 * The server's grams of a line (module doc): the distinct 1- and 2-gram
 * keys of its normalised text `norm` and of its normalised forms
 * `formsNorm` (`""`: none), ascending. Empty for an empty line.
 */
export function teamGramsOfLine(norm: string, formsNorm: string): Array<number> {
  const out = new Set<number>()
  addGrams(norm, out)
  if (formsNorm !== "") addGrams(formsNorm, out)
  return [...out].sort((a, b) => a - b)
}

/**
 * The keys a line must hold to be a candidate for the normalised `term`:
 * its distinct 2-grams (two or more characters), its 1-gram (one
 * character), none for an empty term.
 */
export function teamKeysOfTerm(term: string): Array<number> {
  const lookup = lookupOfTerm(term)
  switch (lookup._tag) {
    case "empty":
      return []
    case "first":
      return [gramKey(lookup.codePoint, GRAM_END)]
    case "grams":
      return [...lookup.keys]
  }
}

/**
 * What one index's publish changes (issue 18): the source files to publish
 * (new on the server, or another version of their body-index folder) and
 * the ones to remove (on the server, gone from the body index), each sorted;
 * `unchanged` counts the rest.
 */
export interface TeamSyncPlan {
  readonly publish: ReadonlyArray<string>
  readonly remove: ReadonlyArray<string>
  readonly unchanged: number
}

/**
 * The plan that makes the server hold what the body index holds (issue
 * 18): `local` and `server` map each source file's path to the fingerprint
 * of its body-index folder (as the server has it at its pending
 * generation). Running it again after it was cut short plans only what is
 * still left, so a publish converges however often it is interrupted.
 */
export function planTeamSync(local: ReadonlyMap<string, string>, server: ReadonlyMap<string, string>): TeamSyncPlan {
  const publish: Array<string> = []
  const remove: Array<string> = []
  let unchanged = 0
  for (const [path, fingerprint] of local) {
    if (server.get(path) === fingerprint) unchanged++
    else publish.push(path)
  }
  for (const path of server.keys()) if (!local.has(path)) remove.push(path)
  const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  return { publish: publish.sort(byCode), remove: remove.sort(byCode), unchanged }
}

/** Whether a run publishes to the team server at its end, and which indexes. */
export type TeamPublishStep =
  | { readonly _tag: "Skip" }
  | { readonly _tag: "Publish"; readonly server: TeamServerSettings; readonly indexes: ReadonlyArray<string> }

/**
 * After a run (issue 18): with a `teamServer` set, every registered index
 * is published once the run has ended with its body index in order — after
 * a run with nothing to ingest and after one that ingested (stopped, or
 * ended by a lost folder, too: every published folder is complete, and the
 * rest follows with the next run). A cancelled run changed nothing, and a
 * run that failed before it started (work folder, settings) is not
 * trusted: neither publishes.
 */
export function decideTeamPublish(settings: Settings, outcome: RunOutcome): TeamPublishStep {
  if (settings.teamServer === undefined) return { _tag: "Skip" }
  if (outcome._tag === "Error" || outcome._tag === "Cancelled") return { _tag: "Skip" }
  return { _tag: "Publish", server: settings.teamServer, indexes: settings.targetFolders.map((t) => t.name) }
}

/**
 * Whether a run sends the files it publishes to the team server while it
 * ingests (issue 18: a `TeamRound`): with a `teamServer` set, for every
 * registered index; what the round sent becomes visible only when
 * {@link decideTeamPublish} says to publish at the end.
 */
export function decideTeamRound(settings: Settings): TeamPublishStep {
  if (settings.teamServer === undefined) return { _tag: "Skip" }
  return { _tag: "Publish", server: settings.teamServer, indexes: settings.targetFolders.map((t) => t.name) }
}

/**
 * What `sagasu publish` does (issue 18): `NotConfigured` without a
 * `teamServer`; `UnknownIndex` when `only` names an index that is not
 * registered; else publish the `only` indexes (none given: every registered
 * one, disabled ones too — their files are still found).
 */
export type PublishCommandStep =
  | { readonly _tag: "NotConfigured" }
  | { readonly _tag: "UnknownIndex"; readonly name: string; readonly known: ReadonlyArray<string> }
  | { readonly _tag: "Publish"; readonly server: TeamServerSettings; readonly indexes: ReadonlyArray<string> }

/** Decides `sagasu publish [--only NAME]…` ({@link PublishCommandStep}). */
export function decidePublishCommand(settings: Settings, only: ReadonlyArray<string>): PublishCommandStep {
  if (settings.teamServer === undefined) return { _tag: "NotConfigured" }
  const known = settings.targetFolders.map((t) => t.name)
  for (const name of only) if (!known.includes(name)) return { _tag: "UnknownIndex", name, known }
  return { _tag: "Publish", server: settings.teamServer, indexes: only.length > 0 ? [...new Set(only)] : known }
}

/** Why `sagasu team connect` refuses a connection string: not a `postgres://` URL, or a password written in it (it would be kept in setting.config). */
export type TeamUrlRefusal = "not-postgres-url" | "password-in-url"

/**
 * What `sagasu team connect URL` writes into the settings (issue 18): the
 * `teamServer` made from `url` and the options, or why it is refused.
 */
export function decideTeamConnect(
  url: string,
  options: { readonly search: boolean; readonly passwordEnv?: string | undefined; readonly passwordFile?: string | undefined }
): { readonly _tag: "Set"; readonly server: TeamServerSettings } | { readonly _tag: "Refused"; readonly reason: TeamUrlRefusal } {
  const m = /^postgres(?:ql)?:\/\/([^@/?#]*@)?[^/?#]*(?:\/[^?#]*)?(\?[^#]*)?$/i.exec(url.trim())
  if (m === null) return { _tag: "Refused", reason: "not-postgres-url" }
  if ((m[1] ?? "").includes(":") || /[?&]password=/i.test(m[2] ?? "")) return { _tag: "Refused", reason: "password-in-url" }
  return {
    _tag: "Set",
    server: {
      url: url.trim(),
      passwordEnv: options.passwordEnv ?? "SAGASU_TEAM_PASSWORD",
      ...(options.passwordFile !== undefined ? { passwordFile: options.passwordFile } : {}),
      search: options.search
    }
  }
}

/**
 * Whether a search goes to the team server: asked for (`--server`), or the
 * setting `teamServer.search`; `false` without a team server.
 */
export function searchesTeamServer(asked: boolean, settings: Settings): boolean {
  if (settings.teamServer === undefined) return false
  return asked || settings.teamServer.search
}

/**
 * A connection string as it may be shown (log, messages): any password in
 * it replaced by `***` (`postgres://u:***@host/db`); text that is not a URL
 * is shown as `***` whole, since it may be a key-value string with a
 * password in it.
 */
export function redactConnection(url: string): string {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([^@/?#]*@)?(.*)$/i.exec(url)
  if (m === null) return "***"
  const [, scheme = "", auth, rest = ""] = m
  const safeRest = rest.replace(/([?&]password=)[^&#]*/gi, "$1***")
  if (auth === undefined) return `${scheme}${safeRest}`
  const colon = auth.indexOf(":")
  return `${scheme}${colon < 0 ? auth : `${auth.slice(0, colon)}:***@`}${safeRest}`
}
