/**
 * Opening the page in the desktop's browser: `xdg-open` (Linux, when a
 * desktop session is there), `open` (macOS), the URL handler (Windows).
 * Best effort: when there is no opener, the printed address is enough.
 *
 * @module
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"

/** The command that opens `url` on `platform`, or `undefined` when this machine has no desktop opener. */
export function openerCommand(
  url: string,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env
): { readonly command: string; readonly args: ReadonlyArray<string> } | undefined {
  if (platform === "win32") return { command: "rundll32", args: ["url.dll,FileProtocolHandler", url] }
  if (platform === "darwin") return { command: "open", args: [url] }
  if (env.DISPLAY === undefined && env.WAYLAND_DISPLAY === undefined) return undefined
  const found = (env.PATH ?? "").split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, "xdg-open"), fs.constants.X_OK)
      return true
    } catch {
      return false
    }
  })
  return found ? { command: "xdg-open", args: [url] } : undefined
}

/** Opens `url` in the desktop's browser; `false` when there is no opener. Never throws. */
export function openInBrowser(url: string): boolean {
  const opener = openerCommand(url)
  if (opener === undefined) return false
  try {
    const child = spawn(opener.command, [...opener.args], { detached: true, stdio: "ignore" })
    child.on("error", () => {})
    child.unref()
    return true
  } catch {
    return false
  }
}
