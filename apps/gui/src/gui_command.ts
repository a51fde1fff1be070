/**
 * `sagasu gui [--port N] [--no-open]` (SPEC §6): starts the GUI server,
 * prints the page's address with its token, opens it in the desktop's
 * browser, and serves until interrupted (Ctrl+C), stopping a run in progress
 * on the way out.
 *
 * @module
 */
import type { FileSystem } from "@effect/platform"
import { type Language, messages } from "@sagasu/domain"
import { workPaths, WorkStore } from "@sagasu/store"
import { Console, Effect, Option } from "effect"
import { openInBrowser } from "./opener.ts"
import { startGuiServer } from "./server.ts"

/** Options of {@link guiCommand}. */
export interface GuiCommandOptions {
  /** The port on 127.0.0.1; `None` = one the system picks. */
  readonly port: Option.Option<number>
  /** Open the page in the desktop's browser when there is an opener. */
  readonly open: boolean
  /** The product version for the run log's header (default: this package's). */
  readonly version?: string
}

/** Runs the GUI on the work folder `work` until interrupted; a start failure sets exit code 1. */
export const guiCommand = (work: string, options: GuiCommandOptions): Effect.Effect<void, never, FileSystem.FileSystem | WorkStore> =>
  Effect.scoped(
    Effect.gen(function* () {
      const server = yield* startGuiServer(work, {
        ...(Option.isSome(options.port) ? { port: options.port.value } : {}),
        version: options.version ?? "0.1.0"
      })
      const language = yield* WorkStore.readSettings(workPaths(work)).pipe(Effect.map((s) => s.language), Effect.orElseSucceed((): Language => "ja"))
      const text = messages(language)
      yield* Console.log(text.guiAddress(server.url))
      const opened = options.open && openInBrowser(server.url)
      yield* Console.log(text.guiOpened(opened))
      // Ctrl+C: a closing line, on a line of its own after the terminal's ^C.
      return yield* Effect.never.pipe(
        Effect.onInterrupt(() => Console.log(`${process.stdout.isTTY === true ? "\n" : ""}${text.guiStopped}`))
      )
    })
  ).pipe(
    Effect.catchAll((e) => Console.error(e.message).pipe(Effect.zipRight(Effect.sync(() => { process.exitCode = 1 }))))
  )
