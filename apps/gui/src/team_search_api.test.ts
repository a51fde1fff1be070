
import { workPaths } from "@sagasu/store"
import { NodeWithWorkStore, searchIndexFiles } from "@sagasu/store/testing"
import { type PrivateCluster, postgresMissing, startPrivateCluster } from "@sagasu/team/testing"
import { Effect, Exit, Scope } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { SearchView } from "./api.ts"
import { apiCall, indexedGuiServer } from "./_test_api.ts"
import { writeSearchSamples } from "./_test_samples.ts"
import type { GuiServer } from "./server.ts"

const missing = postgresMissing()
if (missing !== undefined) console.warn(`team server tests skipped: ${missing}`)

describe.skipIf(missing !== undefined)("GET /api/search on the team server (issue 18)", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-gui-team-"))
  const work = path.join(root, "work")
  const scope = Effect.runSync(Scope.make())
  let server: GuiServer
  let cluster: PrivateCluster

  const call = <A>(target: string, init: { method?: string; body?: unknown } = {}) => apiCall<A>(server, target, init)

  beforeAll(async () => {
    cluster = await startPrivateCluster()
    cluster.psql("CREATE DATABASE gui")
    process.env.SAGASU_TEST_GUI_TEAM = cluster.adminPassword
    const samples = path.join(root, "samples")
    await writeSearchSamples(samples, 3)
    const indexed = await indexedGuiServer(work, samples, scope, {
      teamServer: { url: cluster.url({ database: "gui" }), passwordEnv: "SAGASU_TEST_GUI_TEAM", search: true }
    })
    server = indexed.server
    expect(indexed.run).toEqual({ started: 200, exitCode: 0 })
  }, 300_000)

  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    cluster?.stop()
    fs.rmSync(root, { recursive: true, force: true })
  })

  it("answers from the server with the local index's files, hits and snippets", async () => {
    for (const q of ["山田 前倒し", "123350", "定例会_04", "「承認」ボタンを押す", "山"]) {
      const reply = await call<SearchView>(`/api/search?${new URLSearchParams({ q })}`)
      expect(reply.status).toBe(200)
      expect(reply.body.engine).toBe("team")
      const local = await Effect.runPromise(searchIndexFiles(workPaths(work), q, { limit: 20, locations: 3 }).pipe(Effect.provide(NodeWithWorkStore)))
      const shape = (files: ReadonlyArray<{ path: string; hits: number }>) => files.map((f) => `${f.path}:${f.hits}`).sort()
      expect(shape(reply.body.files), q).toEqual(shape(local.files))
    }
    const both = await call<SearchView>(`/api/search?${new URLSearchParams({ q: "山田 前倒し" })}`)
    expect(both.body.files.map((f) => f.path)).toEqual(["議事録/定例会_0329.docx"])
    expect(both.body.files[0]?.locations.map((l) => [l.location, l.snippet.filter((p) => p.hit).map((p) => p.text)])).toEqual([["¶1", ["山田"]], ["¶3", ["前倒し"]]])
  })
})
