import { spawnSync } from "node:child_process"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { repoRoot } from "../corpus.ts"
import { parseLaunchLine, sagasuCommand, sagasuLaunch } from "./_launch.ts"

const bin = path.join(repoRoot, "apps", "cli", "bin", "sagasu.js")

describe("the sagasu command's first line", () => {
  it.each([
    ["#!/usr/bin/env node", {}, []],
    ["#!/usr/bin/env -S node --max-semi-space-size=4", {}, ["--max-semi-space-size=4"]],
    ["#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=4", { MALLOC_ARENA_MAX: "2" }, ["--max-semi-space-size=4"]],
    ["#! /usr/local/bin/node --a --b", {}, ["--a", "--b"]]
  ])("%s", (line, env, nodeArgs) => {
    expect(parseLaunchLine(line)).toEqual({ env, nodeArgs })
  })

  it("refuses a line that does not start Node", () => {
    expect(() => parseLaunchLine("#!/bin/sh")).toThrow(/not a line that starts Node/)
  })

  // ARCHITECTURE.md "Memory of a run": at most two glibc malloc arenas for all threads, and no V8 option
  // (any V8 option makes Node's built-in code cache unusable: ≈ 10 ms more on every start).
  it("sets the memory of a run, and benchmarks run the command with it", () => {
    expect(sagasuLaunch(bin)).toEqual({ env: { MALLOC_ARENA_MAX: "2" }, nodeArgs: [] })
    const c = sagasuCommand(bin, ["index", "--yes"], { extraNodeArgs: ["--cpu-prof"], env: { A: "1" } })
    expect(c).toEqual({
      command: process.execPath,
      args: ["--cpu-prof", bin, "index", "--yes"],
      env: { A: "1", MALLOC_ARENA_MAX: "2" }
    })
  })

  it("starts the command when the system runs the script itself (env -S)", () => {
    const r = spawnSync(bin, ["--version"], { encoding: "utf8" })
    expect(r.stdout.trim()).toBe("0.1.0")
    expect(r.status).toBe(0)
  })
})
