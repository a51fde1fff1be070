/**
 * Test helpers of the team lib (private): a work folder with a body index
 * written as an indexing run writes it, a private PostgreSQL cluster with
 * one fresh database per test, and the settings that reach it.
 *
 * @module
 */
import type { NodeContext } from "@effect/platform-node"
import { type BodyPart, type Locator, type TeamServerSettings, defaultSettings, formatSourceStamp } from "@sagasu/domain"
import { type WorkPaths, type WorkStore, formatSettings } from "@sagasu/store"
import { NodeWithWorkStore, initWorkFolder, publishSourceFolder, removeBodyFolders, stageExtraction } from "@sagasu/store/testing"
import { Effect } from "effect"
import { afterAll } from "vitest"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type { PrivateCluster } from "./testing.ts"

export const run = <A, E>(effect: Effect.Effect<A, E, NodeContext.NodeContext | WorkStore>) => Effect.runPromise(Effect.provide(effect, NodeWithWorkStore))

/** Work folders made by {@link makeWork}, removed after the test file's tests. */
const made: Array<string> = []
afterAll(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

/** A new work folder under the system's temp folder, removed once the test file's tests have run. */
export const makeWork = (): Promise<WorkPaths> => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-team-"))
  made.push(dir)
  return run(initWorkFolder(dir, formatSettings(defaultSettings)))
}

let staging = 0
/** Publishes `parts` as the body-index folder of `index`/`relPath` with a `.complete` stamp, as a run does. */
export const publishBody = (paths: WorkPaths, index: string, relPath: string, parts: ReadonlyArray<BodyPart>, mtimeMs = 1_700_000_000_000) =>
  run(Effect.gen(function* () {
    const dir = path.join(paths.publish, "t", `w${staging++}`)
    yield* stageExtraction(dir, { parts })
    fs.writeFileSync(path.join(dir, ".complete"), formatSourceStamp({ size: 1234, mtimeMs }))
    yield* publishSourceFolder(paths, index, relPath, dir)
  }))

export const removeBody = (paths: WorkPaths, index: string, relPath: string) => run(removeBodyFolders(paths, [{ index, path: relPath }]))

/** A part of `locator` kind with lines `texts` at locations 1, 2, … (A1, A2, … for cells); `forms` per line when given. */
export const part = (name: string, locator: Locator, texts: ReadonlyArray<string>, forms: ReadonlyArray<string> = []): BodyPart => ({
  name,
  locator,
  state: "visible",
  lines: texts.map((text, i) => {
    const f = forms[i] ?? ""
    const loc = locator === "cell" ? `A${i + 1}` : String(i + 1)
    return f === "" ? { loc, text } : { loc, text, forms: f }
  })
})

let databases = 0
/** The name of the environment variable the test settings take the password from. */
export const passwordEnv = "SAGASU_TEST_TEAM_PASSWORD"

/** A fresh database on `cluster` and the settings of its superuser there (the password from {@link passwordEnv}). */
export const freshDatabase = (cluster: PrivateCluster): TeamServerSettings => {
  const database = `t${process.pid}_${databases++}`
  cluster.psql(`CREATE DATABASE ${database}`)
  process.env[passwordEnv] = cluster.adminPassword
  return { url: cluster.url({ database }), passwordEnv, search: false }
}
