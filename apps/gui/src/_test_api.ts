/**
 * Test helpers of the GUI's API (private): calls with the session's token,
 * and an indexing run started and answered as the page does it.
 *
 * @module
 */
import { type Settings, defaultSettings } from "@sagasu/domain"
import { formatSettings } from "@sagasu/store"
import { NodeWithWorkStore, initWorkFolder, writeSettings } from "@sagasu/store/testing"
import { Effect, Scope } from "effect"
import type { RunView } from "./api.ts"
import { type GuiServer, startGuiServer } from "./server.ts"

/** A call of the server's API as the page makes it (token header, JSON body); the status and the parsed body. */
export const apiCall = async <A>(server: GuiServer, target: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: A }> => {
  const response = await fetch(`${server.origin}${target}`, {
    method: init.method ?? "GET",
    headers: { "X-Sagasu-Token": server.token, ...(init.body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
  })
  return { status: response.status, body: (await response.json()) as A }
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 200))

/**
 * Starts an indexing run of every index (`POST /api/run`), answers its plan
 * ［開始］ (R10) and waits for its end; the HTTP status of the start and the exit code.
 */
export const runThroughPage = async (server: GuiServer): Promise<{ started: number; exitCode: number | null | undefined }> => {
  const started = (await apiCall(server, "/api/run", { method: "POST", body: { onlyNames: [] } })).status
  while ((await apiCall<RunView>(server, "/api/progress")).body.run?.plan == null) await pause()
  await apiCall(server, "/api/plan-answer", { method: "POST", body: { answer: { retryFailed: false, includeCloud: false } } })
  let view = (await apiCall<RunView>(server, "/api/progress")).body
  while (view.run?.exitCode === null) {
    await pause()
    view = (await apiCall<RunView>(server, "/api/progress")).body
  }
  return { started, exitCode: view.run?.exitCode }
}

/**
 * A GUI server (closed with `scope`) over a new work folder `work` whose one
 * index 共有 is `samples`, its settings the defaults with `settings` over
 * them, after a run started and answered through the page
 * ({@link runThroughPage}): the server and how the run went.
 */
export const indexedGuiServer = async (
  work: string,
  samples: string,
  scope: Scope.Scope,
  settings: Partial<Settings> = {}
): Promise<{ server: GuiServer; run: { started: number; exitCode: number | null | undefined } }> => {
  await Effect.runPromise(
    Effect.gen(function* () {
      const paths = yield* initWorkFolder(work, formatSettings(defaultSettings))
      yield* writeSettings(paths, { ...defaultSettings, targetFolders: [{ name: "共有", path: samples, enabled: true }], ...settings })
    }).pipe(Effect.provide(NodeWithWorkStore))
  )
  const server = await Effect.runPromise(startGuiServer(work, { version: "test" }).pipe(Scope.extend(scope), Effect.provide(NodeWithWorkStore)))
  return { server, run: await runThroughPage(server) }
}
