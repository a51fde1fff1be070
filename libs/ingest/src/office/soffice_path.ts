/**
 * Where LibreOffice's `soffice` is (issue 19): on `PATH` as on Linux, else in
 * the folders its installers use — `%ProgramFiles%\LibreOffice\program\`
 * (and the 32-bit one) on Windows, `/Applications/LibreOffice.app` on macOS,
 * where neither installer puts it on `PATH`. A pure choice over the
 * environment and an `exists` check, so every platform's answer is a test.
 *
 * @module
 */
import * as fs from "node:fs"
import * as path from "node:path"

/** The install folders' `soffice` of `platform`, in the order they are tried after `PATH`. */
export function sofficeInstallPaths(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): ReadonlyArray<string> {
  if (platform === "win32") {
    const roots = [env.ProgramFiles, env.ProgramW6432, env["ProgramFiles(x86)"], "C:\\Program Files", "C:\\Program Files (x86)"]
    const seen = new Set<string>()
    const out: Array<string> = []
    for (const root of roots) {
      if (root === undefined || root === "" || seen.has(root.toLowerCase())) continue
      seen.add(root.toLowerCase())
      out.push(path.win32.join(root, "LibreOffice", "program", "soffice.exe"))
    }
    return out
  }
  if (platform === "darwin") return ["/Applications/LibreOffice.app/Contents/MacOS/soffice"]
  return []
}

/**
 * The command that starts LibreOffice: `soffice` when it is on `PATH` (or
 * nowhere: the start then fails as "LibreOffice missing"), else the first
 * install folder's that exists.
 */
export function findSoffice(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  exists: (file: string) => boolean = fs.existsSync
): string {
  const p = platform === "win32" ? path.win32 : path.posix
  // Windows keeps it as `Path`; Node's process.env ignores the case there, a plain object does not.
  const dirs = (env.PATH ?? env.Path ?? "").split(platform === "win32" ? ";" : ":").filter((d) => d !== "")
  const names = platform === "win32" ? ["soffice.exe", "soffice.com"] : ["soffice"]
  if (dirs.some((dir) => names.some((name) => exists(p.join(dir, name))))) return "soffice"
  return sofficeInstallPaths(platform, env).find((file) => exists(file)) ?? "soffice"
}
