/**
 * Processes a killed run left behind (C1, W3): the Office owners start each
 * LibreOffice detached, with its profile in the work folder's work area
 * (`tmp/office/profile-<n>`; `tmp/office/<kind>/profile-<n>` before the
 * owners shared one process), so a `kill -9` of the run leaves it
 * running. Left alone it keeps the profile's IPC pipe, the next run's
 * LibreOffice with the same profile forwards to it and exits at once, and
 * every file that needs Office fails with `office-start-failed` — for good,
 * since failed files are not retried (found by the chaos campaign, issue 8).
 *
 * Only processes whose command line names this work folder's work area are
 * ended, by pid, and only by a run holding the lock (R3), so no live run's
 * process and no LibreOffice the user has open is ever touched. The work area
 * is recognised by the work folder's identity (device and inode), not by the
 * spelling of its path: a run started through a symbolic link (or, before
 * issue 15, any other spelling) left processes naming that spelling.
 *
 * @module
 */
import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import type { WorkPaths } from "./work_paths.ts"

/** A process found by {@link findLeftoverProcesses}. */
export interface LeftoverProcess {
  readonly pid: number
  readonly command: string
}

/** The marker a leftover's command line carries: the LibreOffice profile option pointing into the work area. */
export function leftoverMarker(paths: WorkPaths): string {
  return `-env:UserInstallation=${pathToFileURL(paths.tmp).href}/`
}

// The profile option the Office owners give LibreOffice: `<work>/tmp/office/profile-<n>` (shared by
// the owners of a run, issue 20), `<work>/tmp/office/<kind>/profile-<n>` (an owner alone, and earlier versions).
const profileOption = /^-env:UserInstallation=(file:\/\/.*)\/tmp\/office\/(?:(?:spreadsheet|document|presentation)\/)?profile-\d+\/?$/

const identityOf = (p: string): string | undefined => {
  try {
    const st = fs.statSync(p, { bigint: true })
    return st.ino === 0n ? undefined : `${st.dev}:${st.ino}`
  } catch {
    return undefined
  }
}

/** Whether `arg` is an Office owner's profile option inside the work folder whose identity is `root`. */
const namesWorkFolder = (arg: string, root: string | undefined): boolean => {
  if (root === undefined) return false
  const m = profileOption.exec(arg)
  if (m?.[1] === undefined) return false
  try {
    return identityOf(path.resolve(fileURLToPath(m[1]))) === root
  } catch {
    return false
  }
}

/**
 * Live processes (not zombies, not this one) whose command line holds
 * {@link leftoverMarker}, or an Office owner's profile option under another
 * path to the same work folder (same device and inode). Linux reads `/proc`;
 * elsewhere none are found (a documented limit: there the next run's
 * LibreOffice may fail once).
 */
export function findLeftoverProcesses(paths: WorkPaths): ReadonlyArray<LeftoverProcess> {
  // Sync `node:fs` (STYLE 14): `/proc` is the kernel's process table, not the work folder; it is
  // read whole every 20 ms for up to 2 s while the leftovers die (a few hundred small reads each
  // time), and identities need the bigint inode the platform's FileSystem does not give (lock.ts).
  if (process.platform !== "linux") return []
  const marker = leftoverMarker(paths)
  const root = identityOf(paths.root)
  const found: Array<LeftoverProcess> = []
  let names: Array<string>
  try {
    names = fs.readdirSync("/proc")
  } catch {
    return []
  }
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "latin1")
      const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0]
      if (state === "Z" || state === "X") continue
      const args = fs.readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0")
      if (args.some((a) => a.startsWith(marker) || namesWorkFolder(a, root))) found.push({ pid: Number(name), command: args.join(" ").trim() })
    } catch {
      // the process ended while we looked, or is not ours to read
    }
  }
  return found
}

/**
 * Ends (SIGKILL, by pid) the processes a killed run of this work folder left
 * behind and returns them. Call only while holding the lock. Never fails.
 */
export const endLeftoverProcesses = (paths: WorkPaths): Effect.Effect<ReadonlyArray<LeftoverProcess>> =>
  Effect.gen(function* () {
    const kill = (list: ReadonlyArray<LeftoverProcess>) => {
      for (const p of list) {
        try {
          process.kill(p.pid, "SIGKILL")
        } catch {
          // gone already
        }
      }
    }
    const found = [...findLeftoverProcesses(paths)]
    kill(found)
    // soffice.bin is reaped by init: wait (briefly, at most 2 s by the clock however slow a
    // look at /proc is) until none is alive, so its pipe is closed. One that shows up only
    // now (started just before, its exec finished after the first look) is ended too.
    const until = Date.now() + 2_000
    const seen = new Set(found.map((p) => p.pid))
    for (;;) {
      const alive = findLeftoverProcesses(paths)
      if (alive.length === 0 || Date.now() > until) break
      kill(alive)
      for (const p of alive) {
        if (!seen.has(p.pid)) {
          seen.add(p.pid)
          found.push(p)
        }
      }
      yield* Effect.sleep("20 millis")
    }
    return found
  }).pipe(Effect.withSpan("Store.endLeftoverProcesses"))
