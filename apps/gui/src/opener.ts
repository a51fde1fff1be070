/**
 * The desktop's opener: the page in the browser (`sagasu gui`), and a hit's
 * file or its folder (issue 16, SPEC S5 "A hit can be opened"). Choosing the
 * command is pure ({@link openerCommand}, {@link openPathCommand}); starting
 * it is {@link spawnOpener}, detached with its output ignored, a failure
 * reported as a message and never thrown. The GUI server takes an
 * {@link Opener} as an option, so its tests record the commands instead.
 *
 * | platform | file | folder |
 * |---|---|---|
 * | Linux (and other Unixes) | `xdg-open FILE` | `xdg-open DIR` (the file's folder) |
 * | macOS | `open FILE` | `open -R FILE` (Finder, the file selected) |
 * | Windows | `explorer.exe "FILE"` | `explorer.exe /select,"FILE"` (the file selected) |
 *
 * @module
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"

/** A command to start: `verbatim` passes the arguments to Windows as written (they carry their own quotes). */
export interface OpenCommand {
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly verbatim?: boolean
}

/**
 * How an opener's start went: it did not start (`message` why), there is no
 * desktop session to start it in, or the desktop's opener command is not
 * installed (`command`, e.g. `xdg-open` without xdg-utils).
 */
export type OpenOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly problem: "failed"; readonly message: string }
  | { readonly ok: false; readonly problem: "no-desktop" }
  | { readonly ok: false; readonly problem: "no-opener"; readonly command: string }

/** Starts a command of the desktop; the GUI server's is {@link desktopOpener}, its tests' a recording stub. */
export type Opener = (command: OpenCommand) => Promise<OpenOutcome>

/** The command that opens `url` on `platform`, or `undefined` when this machine has no desktop opener. */
export function openerCommand(
  url: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env
): OpenCommand | undefined {
  if (platform === "win32") return { command: "rundll32", args: ["url.dll,FileProtocolHandler", url] }
  if (platform === "darwin") return { command: "open", args: [url] }
  if (!hasDesktop(platform, env) || !onPath("xdg-open", env)) return undefined
  return { command: "xdg-open", args: [url] }
}

/**
 * The command that opens the file `file` (an absolute path of `platform`),
 * or with `folder` its folder — on macOS and Windows the file shown
 * selected there. Windows' `explorer.exe` reads its own command line (a
 * path with spaces must be quoted after `/select,`, not the whole
 * argument), hence `verbatim` and the quotes; a Windows path holds no `"`.
 */
export function openPathCommand(file: string, folder: boolean, platform: NodeJS.Platform = process.platform): OpenCommand {
  if (platform === "win32") return { command: "explorer.exe", args: [folder ? `/select,"${file}"` : `"${file}"`], verbatim: true }
  if (platform === "darwin") return { command: "open", args: folder ? ["-R", file] : [file] }
  return { command: "xdg-open", args: [folder ? path.posix.dirname(file) : file] }
}

/** Linux and the other Unixes open files only in a desktop session (X11 or Wayland). */
export function hasDesktop(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): boolean {
  return platform === "win32" || platform === "darwin" || env.DISPLAY !== undefined || env.WAYLAND_DISPLAY !== undefined
}

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? "").split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, command), fs.constants.X_OK)
      return true
    } catch {
      return false
    }
  })
}

/**
 * Starts `command` detached, its output ignored, and resolves once it has
 * started (`ok`) or could not start (the error's message: a missing
 * command, a refused permission). Never rejects, never throws. What the
 * opener does afterwards (an application that refuses the file) is the
 * desktop's to show.
 */
export const spawnOpener: Opener = (command) =>
  new Promise<OpenOutcome>((resolve) => {
    try {
      const child = spawn(command.command, [...command.args], {
        detached: true,
        stdio: "ignore",
        ...(command.verbatim === true ? { windowsVerbatimArguments: true } : {})
      })
      child.once("error", (e) => resolve({ ok: false, problem: "failed", message: `${command.command}: ${e.message}` }))
      child.once("spawn", () => resolve({ ok: true }))
      child.unref()
    } catch (e) {
      resolve({ ok: false, problem: "failed", message: `${command.command}: ${e instanceof Error ? e.message : String(e)}` })
    }
  })

/**
 * Why `command` cannot start on this machine, or `undefined` when it can:
 * no desktop session ({@link hasDesktop}), or on Linux and the other Unixes
 * the command not on the `PATH` (a Windows or macOS opener always is there).
 */
export function openerProblem(
  command: OpenCommand,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env
): OpenOutcome | undefined {
  if (!hasDesktop(platform, env)) return { ok: false, problem: "no-desktop" }
  if (platform !== "win32" && platform !== "darwin" && !onPath(command.command, env)) return { ok: false, problem: "no-opener", command: command.command }
  return undefined
}

/** The product's opener: {@link spawnOpener}, unless the machine cannot start it ({@link openerProblem}). */
export const desktopOpener: Opener = (command) => {
  const problem = openerProblem(command)
  return problem === undefined ? spawnOpener(command) : Promise.resolve(problem)
}

/** Opens `url` in the desktop's browser; `false` when there is no opener. Never throws. */
export function openInBrowser(url: string): boolean {
  const opener = openerCommand(url)
  if (opener === undefined) return false
  void spawnOpener(opener)
  return true
}
