/**
 * The end of a run as the page reads it, over real HTTP (issue 16): the
 * once-a-second poll carries counts and a version only, the closing message
 * and the failure list come from `GET /api/run-result`, and a run that
 * ingested nothing says why — cancelled at the plan, or the plan left
 * unanswered — instead of 「中止しました（0 / 0）」 for both.
 */
import { defaultSettings } from "@sagasu/domain"
import { formatSettings } from "@sagasu/store"
import { initWorkFolder, writeSettings, NodeWithWorkStore } from "@sagasu/store/testing"
import { type Duration, Effect, Exit, Scope } from "effect"
import * as fs from "node:fs"
import * as http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { writeSamples } from "./_test_samples.ts"
import type { RunResult, RunView } from "./api.ts"
import { type GuiServer, startGuiServer } from "./server.ts"

interface Reply {
  readonly status: number
  readonly body: string
}

const request = (server: GuiServer, target: string, body?: unknown) =>
  new Promise<Reply>((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: server.port,
        path: target,
        method: body === undefined ? "GET" : "POST",
        headers: { "X-Sagasu-Token": server.token, "Content-Type": "application/json" }
      },
      (res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (c) => (text += c))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }))
      }
    )
    req.on("error", reject)
    req.end(body === undefined ? undefined : JSON.stringify(body))
  })

const progress = async (server: GuiServer) => JSON.parse((await request(server, "/api/progress")).body) as RunView

// No clock of the test's own: it waits as long as the run takes, within the test's timeout (STYLE 16).
const until = async (server: GuiServer, done: (v: RunView) => boolean) => {
  for (;;) {
    const view = await progress(server)
    if (done(view)) return view
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe("GET /api/progress and /api/run-result (issue 16)", () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-gui-result-")))
  const samples = path.join(root, "共有")
  const scope = Effect.runSync(Scope.make())
  // Answered within the product's 60 minutes (a busy machine cannot make it late) …
  let server: GuiServer
  // … and one whose plan waits a second only, on a work folder of its own, left unanswered.
  let impatient: GuiServer

  const serve = async (work: string, answerTimeout?: Duration.DurationInput) => {
    await Effect.runPromise(
      Effect.gen(function* () {
        const paths = yield* initWorkFolder(work, formatSettings(defaultSettings))
        yield* writeSettings(paths, { ...defaultSettings, targetFolders: [{ name: "共有", path: samples, enabled: true }] })
      }).pipe(Effect.provide(NodeWithWorkStore))
    )
    return Effect.runPromise(
      startGuiServer(work, { version: "test", ...(answerTimeout === undefined ? {} : { answerTimeout }) }).pipe(
        Scope.extend(scope),
        Effect.provide(NodeWithWorkStore)
      )
    )
  }

  beforeAll(async () => {
    await writeSamples(samples)
    server = await serve(path.join(root, "work"))
    impatient = await serve(path.join(root, "work-impatient"), "1 second")
  }, 60_000)

  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    fs.rmSync(root, { recursive: true, force: true })
  })

  it("has no result before a run has ended (404, in Japanese)", async () => {
    const reply = await request(server, "/api/run-result")
    expect(reply.status).toBe(404)
    expect(JSON.parse(reply.body)).toEqual({ error: "まだ終わったインデックス作成はありません。" })
  })

  it("says a cancel at the plan as a cancel (R10)", async () => {
    expect((await request(server, "/api/run", { onlyNames: [] })).status).toBe(200)
    await until(server, (v) => v.run?.plan !== null && v.run?.plan !== undefined)
    expect(JSON.parse((await request(server, "/api/plan-answer", { answer: null })).body)).toEqual({ ok: true })
    const view = await until(server, (v) => v.run?.exitCode !== null)
    expect(view.run?.exitCode).toBe(2)
    expect(view.run?.resultVersion).toBe(view.run?.id)
    const result = JSON.parse((await request(server, "/api/run-result")).body) as RunResult
    expect(result.version).toBe(view.run?.resultVersion)
    expect(result.message).toBe("取り込みの確認で取り消したため、インデックス作成をやめました。ファイルは 1 件も取り込んでいません。")
    expect(result.failed).toEqual([])
  }, 120_000)

  it("says a plan left unanswered as such, not as a stop (R10: 60 minutes in the product)", async () => {
    expect((await request(impatient, "/api/run", { onlyNames: [] })).status).toBe(200)
    const view = await until(impatient, (v) => v.run?.exitCode !== null)
    expect(view.run?.exitCode).toBe(2)
    expect(view.run?.stopRequested).toBe(false)
    const result = JSON.parse((await request(impatient, "/api/run-result")).body) as RunResult
    expect(result.version).toBe(1)
    // A second rounds up to the minute the message counts in.
    expect(result.message).toBe("取り込みの確認に 1 分返事が無かったため、インデックス作成をやめました。ファイルは 1 件も取り込んでいません。")
  }, 120_000)

  it("polls carry counts and a version only; the failure list comes once from /api/run-result", async () => {
    expect((await request(server, "/api/run", { onlyNames: [] })).status).toBe(200)
    await until(server, (v) => v.run?.plan !== null && v.run?.plan !== undefined)
    await request(server, "/api/plan-answer", { answer: { retryFailed: false, includeCloud: false } })
    const view = await until(server, (v) => v.run?.exitCode !== null)
    expect(view.run?.exitCode).toBe(0)
    expect(view.run?.progress.failed).toBe(1)
    expect(Object.keys(view.run ?? {}).sort()).toEqual(["exitCode", "id", "onlyNames", "plan", "progress", "resultVersion", "stopRequested"])
    expect(view.run?.resultVersion).toBe(2)
    const result = JSON.parse((await request(server, "/api/run-result")).body) as RunResult
    expect(result).toMatchObject({ version: 2, id: 2, exitCode: 0, message: "インデックス作成が完了しました。（成功: 2 件 / 失敗: 1 件）", error: null })
    expect(result.failed.map((f) => `${f.index}/${f.path}`)).toEqual(["共有/壊れたファイル.xlsx"])
    expect(result.cloudSkipped).toEqual([{ index: "共有", path: "クラウド/予算_2024.xlsx" }])
  }, 120_000)
})
