/**
 * Leftover processes of a killed run (C1, W3; found by the chaos campaign,
 * issue 8): a LibreOffice started with a profile in this work folder's work
 * area is ended; one of another work folder is not.
 */
import { NodeContext } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { endLeftoverProcesses, findLeftoverProcesses, leftoverMarker } from "./leftover_processes.ts"
import { workPaths } from "./work_paths.ts"

// A stand-in for an orphaned soffice: a process carrying the profile option on its command line.
const fakeOffice = (profile: string): ChildProcess =>
  spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "--", `-env:UserInstallation=${pathToFileURL(profile).href}`, "--headless"], {
    stdio: "ignore"
  })

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null

// Waits until each child's command line is visible in /proc (its exec finished): a condition, not a time.
const execed = (children: ReadonlyArray<ChildProcess>) =>
  Effect.gen(function* () {
    const shows = (c: ChildProcess) => {
      try {
        return fs.readFileSync(`/proc/${c.pid}/cmdline`, "utf8").includes("-env:UserInstallation=")
      } catch {
        return false
      }
    }
    while (!children.every(shows)) yield* Effect.sleep("10 millis")
  })

// Waits until the child has exited (its exit event seen).
const exited = (child: ChildProcess) =>
  Effect.async<void>((resume) => {
    if (!alive(child)) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
  })

describe("endLeftoverProcesses() (C1, W3)", () => {
  // Linux only: elsewhere findLeftoverProcesses finds nothing by design.
  it.live("ends a killed run's LibreOffice of this work folder, by pid, and no other", () =>
    Effect.gen(function* () {
      if (process.platform !== "linux") return
      const base = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-leftover-"))
      const mine = workPaths(path.join(base, "作業"))
      const other = workPaths(path.join(base, "other"))
      const orphan = fakeOffice(path.join(mine.tmp, "office", "document", "profile-1"))
      const stranger = fakeOffice(path.join(other.tmp, "office", "document", "profile-1"))
      const users = fakeOffice(path.join(base, "home", ".config", "libreoffice"))
      try {
        yield* execed([orphan, stranger, users])
        expect(leftoverMarker(mine)).toContain("%E4%BD%9C%E6%A5%AD") // the URL form LibreOffice is given
        expect(findLeftoverProcesses(mine).map((p) => p.pid)).toEqual([orphan.pid])
        const ended = yield* endLeftoverProcesses(mine)
        expect(ended.map((p) => p.pid)).toEqual([orphan.pid])
        yield* exited(orphan)
        expect(alive(orphan)).toBe(false)
        expect(alive(stranger)).toBe(true)
        expect(alive(users)).toBe(true)
        expect(yield* endLeftoverProcesses(mine)).toEqual([])
      } finally {
        for (const c of [orphan, stranger, users]) if (alive(c)) c.kill("SIGKILL")
        fs.rmSync(base, { recursive: true, force: true })
      }
    }).pipe(Effect.provide(NodeContext.layer)))

  it.live("ends a LibreOffice started through a symbolic link to the work folder, named by its identity (issue 15)", () =>
    Effect.gen(function* () {
      if (process.platform !== "linux") return
      const base = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-leftover-"))
      fs.mkdirSync(path.join(base, "W", "tmp"), { recursive: true })
      fs.mkdirSync(path.join(base, "X", "tmp"), { recursive: true })
      fs.symlinkSync(path.join(base, "W"), path.join(base, "L"))
      const viaLink = workPaths(path.join(base, "L"))
      const real = workPaths(path.join(base, "W"))
      const orphan = fakeOffice(path.join(viaLink.tmp, "office", "spreadsheet", "profile-3"))
      // The owners of a run share one process with its profile beside their folders (issue 20).
      const shared = fakeOffice(path.join(viaLink.tmp, "office", "profile-2"))
      const stranger = fakeOffice(path.join(base, "X", "tmp", "office", "spreadsheet", "profile-3"))
      const strangerShared = fakeOffice(path.join(base, "X", "tmp", "office", "profile-2"))
      const byPid = (a: number, b: number) => a - b
      try {
        yield* execed([orphan, shared, stranger, strangerShared])
        const both = [orphan.pid!, shared.pid!].sort(byPid)
        expect(findLeftoverProcesses(real).map((p) => p.pid).sort(byPid)).toEqual(both)
        expect((yield* endLeftoverProcesses(real)).map((p) => p.pid).sort(byPid)).toEqual(both)
        yield* exited(orphan)
        yield* exited(shared)
        expect(alive(stranger)).toBe(true)
        expect(alive(strangerShared)).toBe(true)
      } finally {
        for (const c of [orphan, shared, stranger, strangerShared]) if (alive(c)) c.kill("SIGKILL")
        fs.rmSync(base, { recursive: true, force: true })
      }
    }).pipe(Effect.provide(NodeContext.layer)))
})
