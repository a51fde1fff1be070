/**
 * The plain worker queues (W1, W2, W4, W5, issue 20): files handed to a
 * worker thread ahead of the one it reads. A scripted worker
 * (testdata/scripted_plain_worker.mjs: the same protocol, behaviour by file
 * name) makes a thread hang, crash or run out of its heap on cue; the stop
 * test runs the real plain worker.
 */
import { NodeContext } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { type IngestResult, formatFailureText } from "@sagasu/domain"

// A result's failure as the ingest list's text (what a row would hold).
const failureText = (r: IngestResult): string => (r.status === "failed" || r.status === "reroute" ? formatFailureText(r.failure) : "")
import { Context, Effect, Fiber, Layer, TestClock } from "effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { documentFiles, zipOf } from "./extract/_test_packages.ts"
import { IngestFile } from "./ingest_request.ts"
import { gramWorkerUrl, plainWorkerUrl } from "./worker/worker_bundle.ts"
import { type IngestWorkersShape, IngestWorkers, type ThreadWorkersOptions, heapLimitFailure, threadWorkersLayer } from "./workers.ts"

const scripted = () => Promise.resolve(new URL("./testdata/scripted_plain_worker.mjs", import.meta.url))

const tempDir = () =>
  Effect.acquireRelease(
    Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-workers-"))),
    (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
  )

const request = (dir: string, name: string) =>
  new IngestFile({ index: "A", path: name, source: path.join(dir, name), staging: path.join(dir, "staging", name) })

// The workers of a layer, in the test's scope.
const workersOf = (options: ThreadWorkersOptions) =>
  Effect.map(Layer.build(threadWorkersLayer(options)), (context): IngestWorkersShape => Context.get(context, IngestWorkers))

// A real pause: the threads are real, only the time limit reads the TestClock.
const pause = (ms: number) => Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)))

describe("threadWorkersLayer(): plain worker queues (W1, W4, W5, issue 20)", () => {
  it.scoped("W4: a file's limit runs from when its thread starts it; the files queued behind a stuck file go to a new thread and are read", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir()
      const workers = yield* workersOf({ threads: 1, fileTimeout: "10 minutes", workerUrl: scripted })
      const stuck = yield* Effect.fork(workers.ingest("plain", request(dir, "hang.xlsx"), 1))
      const queued = yield* Effect.fork(Effect.all([workers.ingest("plain", request(dir, "a.xlsx"), 1), workers.ingest("plain", request(dir, "b.xlsx"), 1)]))
      // A minute at a time until the stuck file's 10 minutes are up (its limit starts once its thread is ready).
      let minutes = 0
      while (stuck.unsafePoll() === null) {
        yield* TestClock.adjust("1 minute")
        minutes++
        yield* pause(20)
      }
      const timedOut: IngestResult = yield* Fiber.join(stuck)
      expect(timedOut.status).toBe("failed")
      expect(failureText(timedOut)).toMatch(/^timeout: reading the file took longer than 10m/)
      expect(minutes).toBeGreaterThanOrEqual(10)
      // They waited those minutes in the queue, and were not charged for them: read by a new thread, in order.
      const [a, b] = yield* Fiber.join(queued)
      expect([a.status, b.status]).toEqual(["done", "done"])
      // The scripted worker answers with its thread as tsvCount and the reading order as lines.
      expect(a.status === "done" && b.status === "done" && a.tsvCount === b.tsvCount).toBe(true)
      expect([a, b].map((r) => (r.status === "done" ? r.lines : undefined))).toEqual([1, 2])
    }))

  it.live("a thread past its heap limit fails its file too-large with a clear detail; the file queued behind it is read by a new thread", () =>
    Effect.scoped(Effect.gen(function* () {
      const dir = yield* tempDir()
      const heap = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 }
      const workers = yield* workersOf({ threads: 1, fileTimeout: "10 minutes", workerUrl: scripted, heap })
      const [oom, next] = yield* Effect.all([workers.ingest("plain", request(dir, "oom.xlsx"), 1), workers.ingest("plain", request(dir, "next.xlsx"), 1)], { concurrency: "unbounded" })
      expect(oom).toMatchObject({ status: "failed", failure: heapLimitFailure(heap) })
      expect(failureText(oom)).toMatch(/^too-large: reading it needed more memory than a worker may use \(a 32 MB heap\)/)
      expect(next.status).toBe("done")
    })), 60_000)

  it.live("a thread that crashes fails its file corrupt, naming the error; the file queued behind it is read by a new thread", () =>
    Effect.scoped(Effect.gen(function* () {
      const dir = yield* tempDir()
      const workers = yield* workersOf({ threads: 1, fileTimeout: "10 minutes", workerUrl: scripted })
      const [crash, next] = yield* Effect.all([workers.ingest("plain", request(dir, "crash.xlsx"), 1), workers.ingest("plain", request(dir, "next.xlsx"), 1)], { concurrency: "unbounded" })
      expect(crash.status).toBe("failed")
      expect(failureText(crash)).toMatch(/^corrupt: the worker failed on this file \(Error: scripted crash\)/)
      expect(next).toMatchObject({ status: "done", lines: 1 })
    })), 60_000)

  it.live("W5: after stop, the files still in a real plain worker's queue come back stopped, unread, nothing staged", () =>
    Effect.scoped(Effect.gen(function* () {
      const dir = yield* tempDir()
      // The first file holds the thread until the test lets it go: opening a FIFO waits for its writer.
      execFileSync("mkfifo", [path.join(dir, "held.docx")])
      const docx = yield* Effect.promise(() => zipOf(documentFiles("<w:p><w:r><w:t>本文</w:t></w:r></w:p>")))
      for (const name of ["b.docx", "c.docx"]) fs.writeFileSync(path.join(dir, name), docx)
      const workers = yield* workersOf({ threads: 1, fileTimeout: "10 minutes" })
      const all = yield* Effect.fork(
        Effect.all(["held.docx", "b.docx", "c.docx"].map((name) => workers.ingest("plain", request(dir, name), 1)), { concurrency: "unbounded" })
      )
      // Until the worker thread reads the first file: blocked opening the FIFO (Linux: its wchan).
      const opening = () =>
        fs.readdirSync("/proc/self/task").some((t) => {
          try {
            return fs.readFileSync(`/proc/self/task/${t}/wchan`, "utf8") === "wait_for_partner"
          } catch {
            return false
          }
        })
      while (!opening()) yield* pause(10)
      yield* workers.stop ?? Effect.void
      // Let it go: a writer opens and closes the FIFO; the reader finds it is not a regular file.
      fs.closeSync(fs.openSync(path.join(dir, "held.docx"), fs.constants.O_WRONLY | fs.constants.O_NONBLOCK))
      const [held, b, c] = yield* Fiber.join(all)
      // Taken before the stop: read to its end (W5: a file read without Office may finish).
      expect(held).toMatchObject({ status: "failed", failure: { reason: "unreadable", detail: expect.stringMatching(/not a regular file/) } })
      expect([b?.status, c?.status]).toEqual(["stopped", "stopped"])
      expect(fs.existsSync(path.join(dir, "staging", "b.docx"))).toBe(false)
      expect(fs.existsSync(path.join(dir, "staging", "c.docx"))).toBe(false)
      // Nothing more is read after the stop, not even by a file handed over now.
      expect((yield* workers.ingest("plain", request(dir, "b.docx"), 1)).status).toBe("stopped")
    }).pipe(Effect.provide(NodeContext.layer))), 60_000)

  it.live("a real plain worker reads files queued ahead of it, each with its own result", () =>
    Effect.scoped(Effect.gen(function* () {
      const dir = yield* tempDir()
      const names = ["一.docx", "二.docx", "三.docx", "四.docx"]
      for (const [i, name] of names.entries()) {
        fs.writeFileSync(path.join(dir, name), yield* Effect.promise(() => zipOf(documentFiles(`<w:p><w:r><w:t>本文${i}</w:t></w:r></w:p>`))))
      }
      const workers = yield* workersOf({ threads: 2, fileTimeout: "10 minutes" })
      const results = yield* Effect.all(names.map((name, i) => workers.ingest("plain", request(dir, name), 1 + (i % 2))), { concurrency: "unbounded" })
      expect(results.map((r) => r.status)).toEqual(["done", "done", "done", "done"])
      for (const [i, name] of names.entries()) {
        const tsv = fs.readdirSync(path.join(dir, "staging", name)).find((n) => n.endsWith(".tsv")) ?? ""
        expect(fs.readFileSync(path.join(dir, "staging", name, tsv), "utf8")).toContain(`本文${i}`)
      }
    }).pipe(Effect.provide(NodeContext.layer))), 60_000)
})

// Issue 20: what a worker's bundle holds, each isolate evaluates at start; @effect/platform-node's index
// loads undici (≈ 19 MB resident a thread), which no worker uses.
describe("the worker threads' bundles", () => {
  it.each([["plain", plainWorkerUrl], ["2-gram", gramWorkerUrl]] as const)("the %s worker's bundle holds no undici", async (_name, bundleUrl) => {
    const text = fs.readFileSync(fileURLToPath(await bundleUrl()), "utf8")
    // esbuild marks each input's code with its path; the worker's own sources are there.
    expect(text).toMatch(/^\/\/ \S*worker\/(plain|gram)_worker\.ts$/m)
    expect(text).not.toMatch(/^\/\/ \S*node_modules\/undici\//m)
  }, 120_000)

  // Each isolate keeps its bundle's source: a character past U+00FF (a regular expression's ：, a comment's 午)
  // made all of it two bytes a character (≈ 4 MB more a plain worker).
  it.each([["plain", plainWorkerUrl], ["2-gram", gramWorkerUrl]] as const)("the %s worker's bundle is one byte a character", async (_name, bundleUrl) => {
    const text = fs.readFileSync(fileURLToPath(await bundleUrl()), "utf8")
    expect(text.match(/[^\u0000-\u00ff]/g) ?? []).toEqual([])
  }, 120_000)
})
