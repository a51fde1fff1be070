/**
 * The GUI server's guard over real HTTP (SPEC §6, ARCHITECTURE.md "GUI
 * server"): wrong Host (DNS rebinding), foreign Origin (CSRF), missing or
 * wrong token are refused before anything runs; bodies are decoded with
 * Schema; no request path reaches the file system.
 */
import { NodeContext } from "@effect/platform-node"
import { Effect, Exit, Scope } from "effect"
import * as fs from "node:fs"
import * as http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type GuiServer, startGuiServer } from "./server.ts"

interface Reply {
  readonly status: number
  readonly body: string
}

const request = (
  server: GuiServer,
  target: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {}
) =>
  new Promise<Reply>((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port: server.port, path: target, method: options.method ?? "GET", headers: options.headers ?? {} },
      (res) => {
        let body = ""
        res.setEncoding("utf8")
        res.on("data", (c) => (body += c))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }))
      }
    )
    req.on("error", reject)
    if (options.body !== undefined) req.write(options.body)
    req.end()
  })

describe("GUI server guard", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-gui-guard-"))
  const scope = Effect.runSync(Scope.make())
  let server: GuiServer
  let ok: Record<string, string>

  beforeAll(async () => {
    server = await Effect.runPromise(
      startGuiServer(path.join(root, "work"), { version: "test" }).pipe(Scope.extend(scope), Effect.provide(NodeContext.layer))
    )
    ok = { "X-Sagasu-Token": server.token }
  }, 30_000)

  afterAll(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    fs.rmSync(root, { recursive: true, force: true })
  })

  it("listens on 127.0.0.1 only and prints a URL with its token", () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`)
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{22}$/)
  })

  it("answers the page's own requests", async () => {
    expect((await request(server, "/api/indexes", { headers: ok })).status).toBe(200)
    expect((await request(server, "/api/indexes", { headers: { ...ok, Host: `localhost:${server.port}` } })).status).toBe(200)
    expect((await request(server, "/api/indexes", { headers: { ...ok, Origin: server.origin } })).status).toBe(200)
    const page = await request(server, "/")
    expect(page.status).toBe(200)
    expect(page.body).toContain('<script src="/app.js">')
  })

  it("refuses a request without the token, or with a wrong one", async () => {
    // The wrong token differs in its first character (a random token starts with "x" one time in 64).
    expect((await request(server, "/api/indexes")).status).toBe(403)
    expect((await request(server, "/api/indexes", { headers: { "X-Sagasu-Token": (server.token.startsWith("x") ? "y" : "x") + server.token.slice(1) } })).status).toBe(403)
    // A token in the query string is the page's, not the API's.
    expect((await request(server, `/api/indexes?token=${server.token}`)).status).toBe(403)
  })

  it("refuses a foreign Host (DNS rebinding), even with the token", async () => {
    for (const host of [`evil.example:${server.port}`, "127.0.0.1:1", `127.0.0.1.evil.example:${server.port}`, "127.0.0.1"]) {
      expect((await request(server, "/api/indexes", { headers: { ...ok, Host: host } })).status).toBe(403)
      expect((await request(server, "/", { headers: { Host: host } })).status).toBe(403)
    }
  })

  it("refuses a foreign Origin (CSRF): nothing runs", async () => {
    for (const origin of ["http://evil.example", `http://127.0.0.1:${server.port + 1}`, `https://127.0.0.1:${server.port}`, "null"]) {
      const reply = await request(server, "/api/run", {
        method: "POST",
        headers: { ...ok, Origin: origin, "Content-Type": "application/json" },
        body: JSON.stringify({ onlyNames: [] })
      })
      expect(reply.status).toBe(403)
    }
    const progress = JSON.parse((await request(server, "/api/progress", { headers: ok })).body) as { run: unknown }
    expect(progress.run).toBeNull()
  })

  it("decodes bodies with Schema and refuses what does not fit", async () => {
    const post = (target: string, body: string) =>
      request(server, target, { method: "POST", headers: { ...ok, "Content-Type": "application/json" }, body })
    expect((await post("/api/indexes", JSON.stringify({ _tag: "drop-table" }))).status).toBe(400)
    expect((await post("/api/indexes", "{not json")).status).toBe(400)
    expect((await post("/api/plan-answer", JSON.stringify({ answer: { retryFailed: "yes" } }))).status).toBe(400)
    expect((await post("/api/language", JSON.stringify({ language: "fr" }))).status).toBe(400)
    expect((await request(server, "/api/search?q=a&type=exe", { headers: ok })).status).toBe(400)
    const bad = await post("/api/indexes", JSON.stringify({ _tag: "add", name: "..", path: root }))
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body).error).toContain("名前")
  })

  it("never maps a request path to a file", async () => {
    for (const target of ["/../setting.config", "/%2e%2e/setting.config", "/setting.config", "/app.ts", "/page/app.ts", "/..%2f..%2fetc%2fpasswd"]) {
      const reply = await request(server, target)
      expect(reply.status).toBe(404)
      expect(reply.body).not.toContain("targetFolders")
    }
  })

  it("sends a strict Content-Security-Policy and no Referer", async () => {
    const headers = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
      http.get({ host: "127.0.0.1", port: server.port, path: "/" }, (res) => {
        res.resume()
        resolve(res.headers)
      }).on("error", reject)
    })
    expect(headers["content-security-policy"]).toContain("default-src 'none'")
    expect(headers["referrer-policy"]).toBe("no-referrer")
  })
})
