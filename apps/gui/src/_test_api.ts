/**
 * Test helpers of the GUI's API (private): calls with the session's token,
 * and an indexing run started and answered as the page does it.
 *
 * @module
 */
import type { RunView } from "./api.ts"
import type { GuiServer } from "./server.ts"

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
