/**
 * Reading and writing `setting.config` (SPEC §5) with errors a person can act on.
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { type Settings, decodeSettings, encodeSettings, messages, settingsProblemLines, settingsSyntaxLine } from "@sagasu/domain"
import { Effect, Either, ParseResult, Schema } from "effect"
import { writeFileAtomic } from "./_atomic.ts"
import type { WorkPaths } from "./work_paths.ts"

/**
 * The settings file cannot be used: `missing`, `unreadable`, `invalid-json`
 * (the line and column, and a hint for a Windows path's `\` or a trailing
 * comma: settings_problems.ts), `invalid` (one line per wrong field with its
 * JSON path).
 */
export class SettingsError extends Schema.TaggedError<SettingsError>()("SettingsError", {
  reason: Schema.Literal("missing", "unreadable", "invalid-json", "invalid"),
  path: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    // Japanese, then English: the language setting itself cannot be read from a broken file.
    const [ja, en] = [messages("ja"), messages("en")].map((text) => text.settingsUnusable(this.reason, this.path))
    return `${ja} / ${en}${this.detail === "" ? "" : `:\n${this.detail}`}`
  }
}

/** Reads and decodes the settings of a work folder; fails with {@link SettingsError}. */
export const readSettings = Effect.fn("Store.readSettings")(function* (paths: WorkPaths) {
  const fs = yield* FileSystem.FileSystem
  const fail = (reason: SettingsError["reason"], detail = "") =>
    new SettingsError({ reason, path: paths.settings, detail })
  const text = yield* fs.readFileString(paths.settings).pipe(
    Effect.mapError((e) => (e._tag === "SystemError" && e.reason === "NotFound" ? fail("missing") : fail("unreadable", e.message)))
  )
  const json = yield* Effect.try({
    try: () => JSON.parse(text.replace(/^\uFEFF/, "")) as unknown,
    catch: (e) => fail("invalid-json", settingsSyntaxLine(e instanceof Error ? e.message : String(e), text.replace(/^\uFEFF/, "")))
  })
  const decoded = decodeSettings(json)
  // One line per wrong field with its JSON path (issue 16), never the Schema's tree.
  if (Either.isLeft(decoded)) {
    return yield* fail("invalid", settingsProblemLines(ParseResult.ArrayFormatter.formatErrorSync(decoded.left)).map((l) => `  ${l}`).join("\n"))
  }
  return decoded.right
})

/** Formats settings as the JSON text of `setting.config` (2-space indent, trailing newline). */
export function formatSettings(settings: Settings): string {
  return JSON.stringify(encodeSettings(settings), null, 2) + "\n"
}

/** Writes the settings atomically (temp + rename). */
export const writeSettings = Effect.fn("Store.writeSettings")(function* (paths: WorkPaths, settings: Settings) {
  yield* writeFileAtomic(paths.settings, formatSettings(settings))
})
