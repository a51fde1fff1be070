/**
 * Where the work folder is when `--work` is not given: `SAGASU_WORK`, else
 * the per-user data folder of the platform.
 *
 * @module
 */
import { workOptionHint } from "@sagasu/domain"
import { WorkFolderError } from "@sagasu/store"
import * as os from "node:os"
import * as path from "node:path"

/**
 * The default work folder: `$SAGASU_WORK`; else `%LOCALAPPDATA%\Sagasu` on
 * Windows, `~/Library/Application Support/Sagasu` on macOS,
 * `$XDG_DATA_HOME/sagasu` or `~/.local/share/sagasu` elsewhere.
 */
export function defaultWorkDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.SAGASU_WORK !== undefined && env.SAGASU_WORK !== "") return path.resolve(env.SAGASU_WORK)
  const home = os.homedir()
  if (platform === "win32") return path.join(env.LOCALAPPDATA ?? path.join(home, "AppData", "Local"), "Sagasu")
  if (platform === "darwin") return path.join(home, "Library", "Application Support", "Sagasu")
  return path.join(env.XDG_DATA_HOME ?? path.join(home, ".local", "share"), "sagasu")
}

/**
 * The ` --work DIR` a next-step hint repeats for the work folder `work` the
 * command ran on: "" when it is the default one (domain `workOptionHint`).
 */
export const workHint = (work: string): string => workOptionHint(path.resolve(work), path.resolve(defaultWorkDir()), process.platform)

/**
 * The message of a command's error `e` for a person: its own, except that a
 * work folder that is missing or not made yet suggests the `sagasu init`
 * with the `--work` the command was given (new-user trial: it said
 * `sagasu init`, which makes the default folder instead).
 */
export const errorMessage = (e: { readonly message: string }, work: string): string =>
  e instanceof WorkFolderError ? e.messageFor(workHint(work)) : e.message
