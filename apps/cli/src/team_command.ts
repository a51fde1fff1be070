/**
 * The team server's commands (issue 18): `sagasu publish [--only NAME]…`
 * (the body index brought to the server: the team library's
 * `publishWorkFolder`), `sagasu team connect URL` (the `teamServer`
 * setting: `connectWorkFolder`) and `sagasu team grant|revoke INDEX ROLE`
 * (who may search which index: `grantTeamIndex`). Each prints in the settings'
 * language and sets the exit code: 0 done, 1 refused or failed.
 *
 * @module
 */
import { type Language, messages } from "@sagasu/domain"
import { WorkStore } from "@sagasu/store"
import { connectWorkFolder, describeTeamError, grantTeamIndex, publishWorkFolder } from "@sagasu/team"
import { Console, Effect } from "effect"
import { errorMessage } from "./work_dir.ts"
import { forTerminal } from "./terminal_text.ts"

const failWith = (message: string) =>
  Effect.gen(function* () {
    yield* Console.error(forTerminal(message, process.stderr))
    process.exitCode = 1
  })

// The settings' language, Japanese when they cannot be read (the command's own error says why).
const languageOf = (work: string) =>
  WorkStore.checkWorkFolder(work).pipe(
    Effect.flatMap(WorkStore.readSettings),
    Effect.map((s): Language => s.language),
    Effect.orElseSucceed((): Language => "ja")
  )

/** `sagasu publish`: prints one line per index published, or the reason it could not. */
export const publishCommand = (work: string, only: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const language = yield* languageOf(work)
    const text = messages(language)
    const { summaries } = yield* publishWorkFolder(work, only, { onIndex: (index) => Console.log(text.teamPublishing(index)) })
    for (const s of summaries) yield* Console.log(text.teamPublished(s.index, s))
  }).pipe(
    Effect.catchAll((e) =>
      e._tag === "TeamError" ? Effect.flatMap(languageOf(work), (l) => failWith(describeTeamError(e, l))) : failWith(errorMessage(e, work))
    )
  )

/** `sagasu team grant INDEX ROLE` (`granted`) / `sagasu team revoke INDEX ROLE`. */
export const grantCommand = (work: string, index: string, role: string, granted: boolean) =>
  Effect.gen(function* () {
    const paths = yield* WorkStore.checkWorkFolder(work)
    const settings = yield* WorkStore.readSettings(paths)
    const text = messages(settings.language)
    if (settings.teamServer === undefined) return yield* failWith(text.teamNotConfigured)
    const done = yield* grantTeamIndex(settings.teamServer, index, role, granted).pipe(
      Effect.as(true),
      Effect.catchAll((e) => failWith(describeTeamError(e, settings.language)).pipe(Effect.as(false)))
    )
    if (done) yield* Console.log(text.teamGranted(index, role, granted))
  }).pipe(Effect.catchAll((e) => failWith(errorMessage(e, work))))

/** `sagasu team connect URL [--search] [--password-env NAME] [--password-file PATH]`: writes the `teamServer` setting. */
export const connectCommand = (
  work: string,
  url: string,
  options: { readonly search: boolean; readonly passwordEnv?: string | undefined; readonly passwordFile?: string | undefined }
) => connectWorkFolder(work, url, options).pipe(Effect.flatMap((sentence) => Console.log(sentence)), Effect.catchAll((e) => failWith(errorMessage(e, work))))
