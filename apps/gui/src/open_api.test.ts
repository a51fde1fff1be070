/**
 * `POST /api/open` over real HTTP (issue 16, SPEC S5 "A hit can be
 * opened"): the server resolves the file inside its index's folder and hands
 * the platform's command to the opener — here a stub that records it — and
 * refuses, with a message and without starting anything, a path that leaves
 * the folder (`..`, absolute, a symlink out), an unknown index, a missing
 * file, and a request without the token or from a foreign Origin.
 */
import { defaultSettings } from "@sagasu/domain"
import { formatSettings } from "@sagasu/store"
import { initWorkFolder, writeSettings, NodeWithWorkStore } from "@sagasu/store/testing"
import { Effect, Exit, Scope } from "effect"
import * as fs from "node:fs"
import * as http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { type OpenCommand, type OpenOutcome, openPathCommand } from "./opener.ts"
import { type GuiServer, startGuiServer } from "./server.ts"

interface Reply {
  readonly status: number
  readonly body: { ok?: boolean; error?: string }
}

const post = (server: GuiServer, body: unknown, headers: Record<string, string>) =>
  new Promise<Reply>((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: server.port, path: "/api/open", method: "POST", headers: { "Content-Type": "application/json", ...headers } },
      (res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (c) => (text += c))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Reply["body"] }))
      }
    )
    req.on("error", reject)
    req.end(typeof body === "string" ? body : JSON.stringify(body))
  })

describe("POST /api/open (issue 16)", () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-gui-open-")))
  const share = path.join(root, "共有 フォルダ")
  const book = path.join(share, "見積", "見積書 A-1234.xlsx")
  const outside = path.join(root, "secret.xlsx")
  const scope = Effect.runSync(Scope.make())
  const recorded: Array<OpenCommand> = []
  let answer: OpenOutcome = { ok: true }
  let server: GuiServer
  let ok: Record<string, string>

  beforeAll(async () => {
    fs.mkdirSync(path.dirname(book), { recursive: true })
    fs.writeFileSync(book, "xlsx")
    fs.writeFileSync(outside, "secret")
    fs.symlinkSync(outside, path.join(share, "link-out.xlsx"))
    fs.symlinkSync(root, path.join(share, "dir-out"))
    fs.symlinkSync(book, path.join(share, "link-in.xlsx"))
    const work = path.join(root, "work")
    await Effect.runPromise(
      Effect.gen(function* () {
        const paths = yield* initWorkFolder(work, formatSettings(defaultSettings))
        yield* writeSettings(paths, { ...defaultSettings, targetFolders: [{ name: "共有", path: share, enabled: true }, { name: "消えた", path: path.join(root, "gone"), enabled: true }] })
      }).pipe(Effect.provide(NodeWithWorkStore))
    )
    const opener = (command: OpenCommand) => {
      recorded.push(command)
      return Promise.resolve(answer)
    }
    server = await Effect.runPromise(
      startGuiServer(work, { version: "test", opener }).pipe(Scope.extend(scope), Effect.provide(NodeWithWorkStore))
    )
    ok = { "X-Sagasu-Token": server.token, Origin: server.origin }
  }, 30_000)

  beforeEach(() => {
    recorded.length = 0
    answer = { ok: true }
  })

  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    fs.rmSync(root, { recursive: true, force: true })
  })

  it("opens the file with the platform's opener", async () => {
    const reply = await post(server, { index: "共有", path: "見積/見積書 A-1234.xlsx", folder: false }, ok)
    expect(reply).toEqual({ status: 200, body: { ok: true } })
    expect(recorded).toEqual([openPathCommand(book, false)])
    if (process.platform === "linux") expect(recorded).toEqual([{ command: "xdg-open", args: [book] }])
  })

  it("opens the file's folder", async () => {
    const reply = await post(server, { index: "共有", path: "見積/見積書 A-1234.xlsx", folder: true }, ok)
    expect(reply).toEqual({ status: 200, body: { ok: true } })
    expect(recorded).toEqual([openPathCommand(book, true)])
    if (process.platform === "linux") expect(recorded).toEqual([{ command: "xdg-open", args: [path.join(share, "見積")] }])
  })

  it("follows a symlink that stays inside the folder to its real file", async () => {
    expect((await post(server, { index: "共有", path: "link-in.xlsx", folder: false }, ok)).status).toBe(200)
    expect(recorded).toEqual([openPathCommand(book, false)])
  })

  it.each([
    ["../secret.xlsx"],
    ["見積/../../secret.xlsx"],
    [outside],
    ["link-out.xlsx"],
    ["dir-out/secret.xlsx"],
    [""],
    ["."]
  ])("refuses %j: outside the index's folder (400)", async (relative) => {
    const reply = await post(server, { index: "共有", path: relative, folder: false }, ok)
    expect(reply.status).toBe(400)
    expect(reply.body.error).toBe(`「${relative}」はインデックスのフォルダの外を指しているため開けません。`)
    expect(recorded).toEqual([])
  })

  it("refuses an unknown index (404)", async () => {
    const reply = await post(server, { index: "営業", path: "見積/見積書 A-1234.xlsx", folder: false }, ok)
    expect(reply).toEqual({ status: 404, body: { error: "インデックス「営業」はありません（名前が変わったか、削除されました）。もう一度検索してください。" } })
    expect(recorded).toEqual([])
  })

  it("refuses a file that no longer exists, and a folder where a file was (404)", async () => {
    const missing = await post(server, { index: "共有", path: "見積/消した.xlsx", folder: true }, ok)
    expect(missing).toEqual({ status: 404, body: { error: `${path.join(share, "見積", "消した.xlsx")} が見つかりません。移動したか削除されたようです。` } })
    expect((await post(server, { index: "共有", path: "見積", folder: false }, ok)).status).toBe(404)
    const gone = await post(server, { index: "消えた", path: "a.xlsx", folder: false }, ok)
    expect(gone.status).toBe(404)
    expect(gone.body.error).toContain(path.join(root, "gone"))
    expect(recorded).toEqual([])
  })

  it("refuses a request without the token or from a foreign Origin (403), and a body that does not fit (400)", async () => {
    const body = { index: "共有", path: "見積/見積書 A-1234.xlsx", folder: false }
    expect((await post(server, body, {})).status).toBe(403)
    expect((await post(server, body, { Origin: server.origin })).status).toBe(403)
    expect((await post(server, body, { ...ok, Origin: "http://evil.example" })).status).toBe(403)
    expect((await post(server, { index: "共有", path: "見積/見積書 A-1234.xlsx" }, ok)).status).toBe(400)
    expect((await post(server, { ...body, folder: "yes" }, ok)).status).toBe(400)
    expect(recorded).toEqual([])
  })

  it("says when the opener did not start (500), or there is no desktop or no opener to start (503), in Japanese", async () => {
    const body = { index: "共有", path: "見積/見積書 A-1234.xlsx", folder: false }
    answer = { ok: false, problem: "failed", message: "xdg-open: spawn xdg-open ENOENT" }
    expect(await post(server, body, ok)).toEqual({ status: 500, body: { error: "開けませんでした: xdg-open: spawn xdg-open ENOENT" } })
    answer = { ok: false, problem: "no-desktop" }
    expect(await post(server, body, ok)).toEqual({ status: 503, body: { error: "このPCにはファイルを開くデスクトップがありません（画面の無い環境で動いています）。" } })
    answer = { ok: false, problem: "no-opener", command: "xdg-open" }
    expect(await post(server, body, ok)).toEqual({
      status: 503,
      body: { error: "ファイルを開くコマンド xdg-open がこのPCにありません（Linux では xdg-utils を入れると開けます）。［パスをコピー］で場所を写してください。" }
    })
  })
})
