/**
 * S2 through the real server: a query runs on the search thread, so the
 * server answers `/api/progress` while the query cannot go on — here it is
 * frozen on a body-index TSV that is a FIFO nobody has opened for writing
 * yet; the test, not a clock, decides when it goes on.
 */
import { workPaths } from "@sagasu/store"
import { noteFresh, NodeWithWorkStore } from "@sagasu/store/testing"
import { Effect, Exit, Scope } from "effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { SearchView } from "./api.ts"
import { type GuiServer, startGuiServer } from "./server.ts"

const get = (server: GuiServer, target: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: server.port, path: target, headers: { "X-Sagasu-Token": server.token } }, (res) => {
      let body = ""
      res.setEncoding("utf8")
      res.on("data", (c) => (body += c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on("error", reject)
    req.end()
  })

describe("S2: the GUI server answers while a search runs", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-gui-s2-"))
  const work = path.join(root, "work")
  const scope = Effect.runSync(Scope.make())
  let server: GuiServer

  beforeAll(async () => {
    server = await Effect.runPromise(startGuiServer(work, { version: "test" }).pipe(Scope.extend(scope), Effect.provide(NodeWithWorkStore)))
  }, 60_000)

  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    fs.rmSync(root, { recursive: true, force: true })
  })

  it("/api/progress answers while the query is frozen; the query then answers from the fresh tail", async () => {
    const paths = workPaths(work)
    // A published folder whose only TSV is a FIFO: reading it blocks until a writer comes.
    const folder = path.join(paths.index, "共有", "遅い.xlsx")
    fs.mkdirSync(folder, { recursive: true })
    const fifo = path.join(folder, "1_s.tsv")
    execFileSync("mkfifo", [fifo])
    await Effect.runPromise(noteFresh(paths, [{ op: "+", index: "共有", path: "遅い.xlsx" }]))

    let answered = false
    const search = get(server, `/api/search?q=${encodeURIComponent("見積")}`).then((r) => {
      answered = true
      return r
    })
    // The search thread is now blocked on the FIFO; the server is not.
    for (let i = 0; i < 5; i++) {
      const progress = await get(server, "/api/progress")
      expect(progress.status).toBe(200)
      expect(answered).toBe(false)
    }
    // Let the search go on: the writer gives the TSV its rows (opened off this thread: a FIFO's open
    // waits for its reader, the search thread).
    const writer = await fs.promises.open(fifo, "w")
    await writer.write("cell\ttext\nA1\t見積 A-1234\n")
    await writer.close()
    const reply = await search
    expect(reply.status).toBe(200)
    const view = JSON.parse(reply.body) as SearchView
    expect(view.files.map((f) => [f.path, f.hits, f.locations.map((h) => h.location)])).toEqual([["遅い.xlsx", 1, ["s!A1"]]])
    expect(view.totals).toEqual({ hits: 1, files: 1, exact: true })
    expect(view.partial).toBe(false)
  }, 60_000)
})
