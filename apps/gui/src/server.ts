/**
 * The GUI server (SPEC §6, issue 7): serves the page and its API on
 * 127.0.0.1 only, in the same process as the indexing runs it starts.
 * Every request passes {@link checkRequest} first (one Host, Origin, token);
 * bodies and query strings are decoded with the Schemas of api.ts. A
 * connection's cost is bounded ({@link GuiServerLimits}, issue 15): a body
 * past 64 KiB is answered 413 (a declared length before a byte is read, a
 * chunked one as soon as it passes), headers must arrive within 10 s and the
 * whole request within 30 s (408 and the connection closed).
 *
 * @module
 */
import { type FileSystem, HttpIncomingMessage, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import { type TeamServerSettings, defaultSettings, fileTypeGroups, inBothLanguages, resolveFileType, searchesTeamServer } from "@sagasu/domain"
import { type FileSearchOptions, formatSettings, WorkStore } from "@sagasu/store"
import { describeTeamError, searchTeamFiles } from "@sagasu/team"
import { Cause, Data, type Duration, Effect, Option, ParseResult, Schema, type Scope } from "effect"
import * as http from "node:http"
import { IndexEdit, LanguageBody, OpenBody, PlanAnswerBody, RunBody, SearchParams } from "./api.ts"
import { checkRequest, makeToken } from "./guard.ts"
import { EditRefused, editIndexes, readIndexesView, setLanguage } from "./index_edit.ts"
import { readLogTail } from "./log_tail.ts"
import { resolveOpenTarget } from "./open_target.ts"
import { type Opener, desktopOpener, openPathCommand } from "./opener.ts"
import { type PageAssets, buildPageAssets } from "./page_assets.ts"
import { uiText } from "./page/ui_text.ts"
import { makeRunSession } from "./run_session.ts"
import { SearchThreadError, makeSearchThread } from "./search_thread.ts"
import { searchForPage } from "./search_view.ts"

/** A page's query answers with what it found after this long (S2). */
export const searchBudgetMs = 3000

/** A running GUI server. */
export interface GuiServer {
  /** The page's address with its token: what `sagasu gui` prints and opens. */
  readonly url: string
  /** `http://127.0.0.1:<port>` */
  readonly origin: string
  readonly port: number
  /** The per-start token every `/api/` request must carry in `X-Sagasu-Token`. */
  readonly token: string
}

/**
 * What one connection may cost the server (issue 15): a request's body, and
 * how long its headers and the whole request may take. The page's own
 * requests are a few kilobytes, sent at once over the loopback.
 */
export interface GuiServerLimits {
  /** Largest request body in bytes; a larger declared `Content-Length` is answered 413 without reading it. */
  readonly maxBodyBytes: number
  /** Time for a request's headers to arrive (Node's `headersTimeout`), ms; then 408 and the connection closed. */
  readonly headersTimeoutMs: number
  /** Time for a whole request, body included (Node's `requestTimeout`), ms; at least `headersTimeoutMs`. */
  readonly requestTimeoutMs: number
  /** How often Node checks the two time limits (`connectionsCheckingInterval`), ms; its default is 30 s. */
  readonly checkIntervalMs: number
}

/** The limits {@link startGuiServer} uses unless told otherwise. */
export const defaultGuiServerLimits: GuiServerLimits = {
  maxBodyBytes: 64 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  checkIntervalMs: 1_000
}

/** Options of {@link startGuiServer}. */
export interface StartGuiServerOptions {
  /** The port on 127.0.0.1 (default 0: one the system picks). */
  readonly port?: number
  /** The product version for the run log's header (R4). */
  readonly version: string
  /** Body size and time limits (default {@link defaultGuiServerLimits}; tests make them small). */
  readonly limits?: Partial<GuiServerLimits>
  /** Starts the desktop's opener for `POST /api/open` (default {@link desktopOpener}; tests record the commands). */
  readonly opener?: Opener
  /** How long a run's plan waits for the page's answer (R10; default 60 minutes, tests make it short). */
  readonly answerTimeout?: Duration.DurationInput
}

/** The server could not start: the work folder is unusable, the port is taken, or the page failed to build. */
export class GuiStartError extends Data.TaggedError("GuiStartError")<{ readonly message: string }> {}

/**
 * Starts the GUI server for the work folder `work` (created when absent,
 * like `sagasu init`) and serves until the scope closes; closing it also
 * stops a run in progress (run_session.ts).
 */
export const startGuiServer = (
  work: string,
  options: StartGuiServerOptions
): Effect.Effect<GuiServer, GuiStartError, Scope.Scope | FileSystem.FileSystem | WorkStore> =>
  Effect.gen(function* () {
    const paths = yield* WorkStore.initWorkFolder(work, formatSettings(defaultSettings)).pipe(
      Effect.mapError((e) => new GuiStartError({ message: e.message }))
    )
    const assets = yield* buildPageAssets.pipe(Effect.mapError((e) => new GuiStartError({ message: e.message })))
    const runs = yield* makeRunSession(paths.root, {
      version: options.version,
      ...(options.answerTimeout === undefined ? {} : { answerTimeout: options.answerTimeout })
    })
    // S2: queries run on a thread of their own, so the server answers everything else meanwhile.
    const searches = yield* makeSearchThread
    const limits: GuiServerLimits = { ...defaultGuiServerLimits, ...options.limits }
    const opener = options.opener ?? desktopOpener
    const server = yield* NodeHttpServer.make(
      () =>
        http.createServer({
          headersTimeout: limits.headersTimeoutMs,
          requestTimeout: Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs),
          connectionsCheckingInterval: limits.checkIntervalMs
        }),
      { host: "127.0.0.1", port: options.port ?? 0 }
    ).pipe(
      // Said before the settings are read: Japanese first, then English (issue 16).
      Effect.mapError((e) => new GuiStartError({ message: inBothLanguages((t) => t.guiCannotListen(options.port ?? 0, String(e.cause ?? e))) }))
    )
    const address = server.address
    const port = address._tag === "TcpAddress" ? address.port : 0
    const token = makeToken()
    const context = yield* Effect.context<FileSystem.FileSystem | WorkStore>()

    const language = WorkStore.readSettings(paths).pipe(
      Effect.map((s) => s.language),
      Effect.orElseSucceed(() => "ja" as const)
    )

    const api = (method: string, route: string, url: URL): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, HttpServerRequest.HttpServerRequest | FileSystem.FileSystem | WorkStore> =>
      Effect.gen(function* () {
        switch (`${method} ${route}`) {
          case "GET /api/indexes":
            return json(yield* readIndexesView(paths))
          case "POST /api/indexes": {
            const edit = yield* body(limits, IndexEdit)
            if (yield* runs.active) return json({ error: uiText(yield* language).errBusy }, 409)
            return yield* editIndexes(paths, edit).pipe(
              Effect.map((view) => json(view)),
              Effect.catchTag("EditRefused", (e) => Effect.succeed(json({ error: e.message }, 400)))
            )
          }
          case "POST /api/language": {
            const { language: next } = yield* body(limits, LanguageBody)
            return yield* setLanguage(paths, next).pipe(
              Effect.map(() => json({ ok: true })),
              Effect.catchTag("EditRefused", (e) => Effect.succeed(json({ error: e.message }, 400)))
            )
          }
          case "POST /api/run": {
            const { onlyNames } = yield* body(limits, RunBody)
            const started = yield* runs.start(onlyNames)
            return started === undefined ? json({ error: uiText(yield* language).runningHere }, 409) : json(started)
          }
          case "GET /api/progress":
            return json(yield* runs.view)
          case "GET /api/run-result": {
            const result = yield* runs.result
            return result === undefined ? json({ error: uiText(yield* language).errNoResult }, 404) : json(result)
          }
          case "POST /api/plan-answer": {
            const { answer } = yield* body(limits, PlanAnswerBody)
            return json({ ok: yield* runs.answer(answer) })
          }
          case "POST /api/stop":
            yield* runs.stop
            return json({ ok: true })
          case "GET /api/search": {
            const params = yield* Schema.decodeUnknown(SearchParams)(Object.fromEntries(url.searchParams)).pipe(Effect.mapError(badRequest))
            const settings = yield* WorkStore.readSettings(paths).pipe(Effect.orElseSucceed(() => defaultSettings))
            // An unknown type is a mistake told apart from "nothing found" (issue 14).
            const type = params.type === undefined || params.type === "" ? undefined : resolveFileType(params.type)
            if (params.type !== undefined && params.type !== "" && type === undefined) {
              return json({ error: uiText(settings.language).errType(params.type, Object.keys(fileTypeGroups)) }, 400)
            }
            const inThread = (query: string, o: FileSearchOptions) => searches.search(paths.root, query, o, searchBudgetMs)
            // Issue 18: the team server when the settings say so (teamServer.search), with the same query language and hits.
            const team = searchesTeamServer(false, settings) ? settings.teamServer : undefined
            const onTeam = (server: TeamServerSettings) => (query: string, o: FileSearchOptions) =>
              searchTeamFiles(server, query, o).pipe(
                Effect.map((result) => ({ result, superseded: false })),
                Effect.mapError((e) => new SearchThreadError({ message: describeTeamError(e, settings.language) }))
              )
            return yield* searchForPage(team === undefined ? inThread : onTeam(team), settings.targetFolders, params.q, { ...params, type }).pipe(
              Effect.map((view) => json(view)),
              Effect.catchAll((e) => Effect.succeed(json({ error: `${uiText(settings.language).errSearch} ${errorText(e)}` }, 500)))
            )
          }
          case "GET /api/log":
            return json(yield* readLogTail(paths))
          case "POST /api/open": {
            const open = yield* body(limits, OpenBody)
            const settings = yield* WorkStore.readSettings(paths).pipe(Effect.orElseSucceed(() => defaultSettings))
            const t = uiText(settings.language)
            return yield* resolveOpenTarget(settings.targetFolders, open.index, open.path, settings.language).pipe(
              Effect.flatMap((target) => Effect.promise(() => opener(openPathCommand(target.file, open.folder)))),
              Effect.map((outcome) =>
                outcome.ok
                  ? json({ ok: true })
                  : outcome.problem === "no-desktop"
                  ? json({ error: t.errOpenNoDesktop }, 503)
                  : outcome.problem === "no-opener"
                  ? json({ error: t.errOpenNoOpener(outcome.command) }, 503)
                  : json({ error: t.errOpenFailed(outcome.message) }, 500)
              ),
              Effect.catchTag("OpenRefused", (e) => Effect.succeed(json({ error: e.message }, e.status)))
            )
          }
          default:
            return json({ error: "not found" }, 404)
        }
      })

    const app = Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const url = new URL(request.url, "http://127.0.0.1")
      const route = url.pathname
      // A body is read only when it declared a length within the limit: one past it is answered
      // before a byte of it is read (reading and then cutting it off reset the connection).
      const length = request.headers["content-length"]
      // The connection stays open: Node reads the rest of the body and discards it (closing now, with
      // the body unread, would reset the connection and the client could lose the answer); the
      // request time limit bounds how long that may take.
      if (length !== undefined && !(Number(length) <= limits.maxBodyBytes)) return tooLarge(limits)
      const raw = NodeHttpServerRequest.toIncomingMessage(request).rawHeaders
      const refusal = checkRequest(
        {
          host: request.headers["host"],
          hostLines: raw.filter((_, i) => i % 2 === 0 && raw[i]?.toLowerCase() === "host").length,
          origin: request.headers["origin"],
          token: request.headers["x-sagasu-token"],
          api: route.startsWith("/api/")
        },
        port,
        token
      )
      if (refusal !== undefined) return json({ error: `refused: ${refusal}` }, refusal === "duplicate-host" ? 400 : 403)
      if (route.startsWith("/api/")) return yield* api(request.method, route, url)
      if (request.method !== "GET" && request.method !== "HEAD") return json({ error: "method not allowed" }, 405)
      return page(assets, route)
    }).pipe(
      HttpIncomingMessage.withMaxBodySize(Option.some(limits.maxBodyBytes)),
      Effect.catchAll((e) =>
        Effect.succeed(e instanceof BodyTooLarge ? tooLarge(limits) : e instanceof BadRequest ? json({ error: e.message }, 400) : json({ error: errorText(e) }, 500))
      ),
      Effect.catchAllCause((cause) => Effect.succeed(json({ error: Cause.pretty(cause) }, 500))),
      Effect.map(secure),
      Effect.provide(context)
    )

    yield* HttpServer.serveEffect(app).pipe(Effect.provideService(HttpServer.HttpServer, server))
    const origin = `http://127.0.0.1:${port}`
    return { url: `${origin}/?token=${token}`, origin, port, token }
  })

class BadRequest extends Data.TaggedError("BadRequest")<{ readonly message: string }> {}

const badRequest = (e: ParseResult.ParseError) => new BadRequest({ message: ParseResult.TreeFormatter.formatErrorSync(e) })

class BodyTooLarge extends Data.TaggedError("BodyTooLarge")<{ readonly max: number }> {}

const tooLarge = (limits: GuiServerLimits) =>
  json({ error: `request body too large (more than ${limits.maxBodyBytes} bytes)` }, 413)

/**
 * The request's body as text, at most `max` bytes. Past the limit (a body
 * without a declared length: chunked) it fails with {@link BodyTooLarge} at
 * once and reads on, discarding, so the connection is not reset under the
 * client before it has the 413 (the request time limit bounds the rest).
 */
const bodyText = (message: http.IncomingMessage, max: number) =>
  Effect.async<string, BodyTooLarge | BadRequest>((resume) => {
    const chunks: Array<Buffer> = []
    let size = 0
    let settled = false
    const settle = (effect: Effect.Effect<string, BodyTooLarge | BadRequest>) => {
      if (settled) return
      settled = true
      chunks.length = 0
      resume(effect)
    }
    message.on("data", (chunk: Buffer) => {
      size += chunk.length
      if (size > max) settle(Effect.fail(new BodyTooLarge({ max })))
      else if (!settled) chunks.push(chunk)
    })
    message.on("end", () => {
      if (!settled) settle(Effect.succeed(Buffer.concat(chunks).toString("utf8")))
    })
    message.on("error", (e) => settle(Effect.fail(new BadRequest({ message: `unreadable body: ${e.message}` }))))
  })

const body = <A, I>(limits: GuiServerLimits, schema: Schema.Schema<A, I>) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const text = yield* bodyText(NodeHttpServerRequest.toIncomingMessage(request), limits.maxBodyBytes)
    const value = yield* Effect.try({ try: () => JSON.parse(text) as unknown, catch: (e) => new BadRequest({ message: `unreadable body: ${String(e)}` }) })
    return yield* Schema.decodeUnknown(schema)(value).pipe(Effect.mapError(badRequest))
  })

const errorText = (e: unknown) =>
  e instanceof EditRefused ? e.message : typeof e === "object" && e !== null && "message" in e ? String(e.message) : String(e)

const json = (value: unknown, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.unsafeJson(value, { status, headers: { "cache-control": "no-store", ...headers } })

const page = (assets: PageAssets, route: string) => {
  switch (route) {
    case "/":
    case "/index.html":
      return HttpServerResponse.text(assets.html, { contentType: "text/html; charset=utf-8" })
    case "/app.js":
      return HttpServerResponse.text(assets.js, { contentType: "text/javascript; charset=utf-8" })
    case "/app.css":
      return HttpServerResponse.text(assets.css, { contentType: "text/css; charset=utf-8" })
    default:
      return HttpServerResponse.text("Not found", { status: 404 })
  }
}

// The page loads nothing from elsewhere and may not be framed; the token in its URL is never sent as a Referer.
const secure = (response: HttpServerResponse.HttpServerResponse) =>
  HttpServerResponse.setHeaders(response, {
    "content-security-policy":
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "cross-origin-resource-policy": "same-origin"
  })
