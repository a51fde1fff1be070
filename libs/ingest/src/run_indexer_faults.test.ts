/**
 * Regression tests for the violations the chaos campaign found (issue 8,
 * tools/src/chaos/, docs/reliability.md), each through the channel with
 * scripted workers, as run_indexer.test.ts does:
 *
 * - a killed run's LibreOffice captured the next run's and failed its Office files for good (C1, W3);
 * - a file replaced by a FIFO after the crawl hung the run at its end (R13, §5);
 * - files under a folder the crawl could not read were removed as vanished (R8);
 * - a full work folder failed the file being staged for good instead of ending the run (R18);
 * - a body-index path over PATH_MAX failed every run from then on, after a done row (C2, R7);
 * - with the work folder's disk full, LibreOffice's failures were recorded as the files' for good (R18, issue 15);
 * - a file that failed for the environment (unreadable) stayed failed once it was readable (issue 15).
 */
import { describe, expect, it } from "@effect/vitest"
import { type IngestResult, type IngestRow, type Settings, defaultSettings, formatBodyTsv, formatFailureText } from "@sagasu/domain"
import { type WorkPaths, bodyFolderOf, formatSettings, stagingWriteFailure } from "@sagasu/store"
import { appendJournal, initWorkFolder, readIngestList, writeSettings, NodeWithWorkStore } from "@sagasu/store/testing"
import { Chunk, Deferred, Effect, Fiber, Layer, Option, Ref, Stream } from "effect"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { makeChannel } from "./channel.ts"
import { flatText, haveSoffice } from "./office/_test_support.ts"
import { standardWorkersLayer } from "./run_workers.ts"
import { stagingCompleteMark } from "./ingest_one.ts"
import type { IngestFile } from "./ingest_request.ts"
import { runIndexer } from "./run_indexer.ts"
import { IngestWorkers } from "./workers.ts"

interface Fixture {
  readonly base: string
  readonly paths: WorkPaths
  readonly source: string
}

const makeFixture = (files: Record<string, string>, settings: Partial<Settings> = {}) =>
  Effect.gen(function* () {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-faults-"))
    const paths = yield* initWorkFolder(path.join(base, "work"), formatSettings(defaultSettings))
    const source = path.join(base, "src")
    for (const [rel, content] of Object.entries(files)) write(source, rel, content)
    yield* writeSettings(paths, { ...defaultSettings, targetFolders: [{ name: "A", path: source, enabled: true }], ...settings })
    yield* Effect.addFinalizer(() => Effect.sync(() => fs.rmSync(base, { recursive: true, force: true })))
    return { base, paths, source } satisfies Fixture
  })

const write = (root: string, rel: string, content: string) => {
  const file = path.join(root, ...rel.split("/"))
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, content)
}

// One plain slot: files go one at a time, in target order. A file's content is its text; `before`
// runs when a file is handed over (to change the world mid-run); `result` overrides the outcome.
const workers = (dispatched: Array<string>, hooks: { before?: (r: IngestFile) => void; result?: (r: IngestFile) => IngestResult | undefined } = {}) =>
  Layer.succeed(IngestWorkers, {
    slots: { plain: 1, spreadsheet: 1, document: 1, presentation: 1 },
    ingest: (_kind, request) =>
      Effect.sync((): IngestResult => {
        dispatched.push(request.path)
        hooks.before?.(request)
        const scripted = hooks.result?.(request)
        if (scripted !== undefined) return scripted
        // Never open a FIFO here: the test must fail, not hang, when the commander hands one over.
        if (!fs.statSync(request.source).isFile()) return { status: "failed", failure: { reason: "unreadable", detail: "not a regular file" }, log: [] }
        const text = fs.readFileSync(request.source, "utf8")
        fs.mkdirSync(request.staging, { recursive: true })
        fs.writeFileSync(path.join(request.staging, "1_Sheet1.tsv"), formatBodyTsv({ name: "Sheet1", locator: "cell", state: "visible", lines: [{ loc: "A1", text }] }))
        fs.writeFileSync(path.join(request.staging, stagingCompleteMark), "")
        return { status: "done", tsvCount: 1, log: [] }
      })
  })

const run = (
  f: Fixture,
  dispatched: Array<string> = [],
  hooks: Parameters<typeof workers>[1] = {},
  real?: "real workers"
) =>
  Effect.gen(function* () {
    const echoed: Array<string> = []
    // Each line also with its level and kind (what a terminal shows without --verbose).
    const shown: Array<string> = []
    const channel = yield* makeChannel({
      echo: (line, level, kind) => {
        echoed.push(line)
        shown.push(`${level}:${kind}:${line}`)
      }
    })
    const fiber = yield* Effect.fork(runIndexer(channel, {
      work: f.paths.root,
      version: "test",
      workers: (settings, paths) =>
        real === undefined ? workers(dispatched, hooks) : standardWorkersLayer(paths, settings).pipe(Layer.provide(NodeWithWorkStore))
    }))
    const code = yield* Fiber.join(fiber)
    return { code, echoed, shown, error: yield* Ref.get(channel.error), rows: yield* readIngestList(f.paths), dispatched }
  })

const statuses = (rows: ReadonlyArray<IngestRow>) => Object.fromEntries(rows.map((r) => [r.path, r.status]))
const provide = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, NodeWithWorkStore)

// Real runs, processes and files: seconds on a loaded 2-core CI machine (5 s, the default, was once too little).
describe("runIndexer(): faults found by the chaos campaign", { timeout: 600_000 }, () => {
  it.scopedLive("C1, W3: a LibreOffice left by a killed run of this work folder is ended before anything starts", () =>
    provide(Effect.gen(function* () {
      if (process.platform !== "linux") return
      const f = yield* makeFixture({ "a.xlsx": "x" })
      const profile = pathToFileURL(path.join(f.paths.tmp, "office", "document", "profile-1")).href
      const orphan: ChildProcess = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "--", `-env:UserInstallation=${profile}`], { stdio: "ignore" })
      yield* Effect.addFinalizer(() => Effect.sync(() => orphan.exitCode === null && orphan.kill("SIGKILL")))
      // Until its exec is done (a fixed wait was too short on a loaded machine: the run looked
      // before the process had its command line, then waited for it). No bound of its own: the
      // test's timeout ends a hang.
      const execDone = () => {
        try {
          return fs.readFileSync(`/proc/${orphan.pid}/cmdline`, "utf8").includes("-env:UserInstallation=")
        } catch {
          return false
        }
      }
      while (!execDone()) yield* Effect.sleep("20 millis")
      const r = yield* run(f)
      expect(r.code).toBe(0)
      // Its exit as Node sees it (a 100 ms wait was a guess of how soon that is).
      const signal = yield* Effect.async<NodeJS.Signals | null>((resume) => {
        if (orphan.exitCode !== null || orphan.signalCode !== null) return resume(Effect.succeed(orphan.signalCode))
        orphan.once("exit", (_code, s) => resume(Effect.succeed(s)))
      })
      expect(signal).toBe("SIGKILL")
      expect(r.echoed.some((l) => l.startsWith(`中断した実行が残したプロセスを終了しました: ${orphan.pid}`))).toBe(true)
    })))

  it.scoped("R13, §5: a file that became a FIFO after the crawl is not handed over; it is gone like a vanished file", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ "a.xlsx": "a", "b.xlsx": "b", "c.xlsx": "c" })
      const dispatched: Array<string> = []
      const r = yield* run(f, dispatched, {
        before: (req) => {
          if (req.path !== "a.xlsx") return
          fs.rmSync(path.join(f.source, "b.xlsx"))
          execFileSync("mkfifo", [path.join(f.source, "b.xlsx")])
        }
      })
      expect(r.code).toBe(0)
      expect(dispatched).toEqual(["a.xlsx", "c.xlsx"])
      expect(statuses(r.rows)).toEqual({ "a.xlsx": "done", "c.xlsx": "done" })
      expect(r.echoed).toContain("[2/3] A/b.xlsx: 元のファイルが無くなったため、取り込まずに一覧から除きます。")
    })))

  it.scoped("R8: files under a folder the crawl cannot read keep their rows and body index", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ "sub/a.xlsx": "見積", "b.xlsx": "請求" })
      expect((yield* run(f)).code).toBe(0)
      const body = fs.readFileSync(path.join(bodyFolderOf(f.paths, "A", "sub/a.xlsx"), "1_Sheet1.tsv"), "utf8")
      // The folder can no longer be read: a dangling link in its place (root reads a mode-000 folder).
      fs.renameSync(path.join(f.source, "sub"), path.join(f.base, "sub-away"))
      fs.symlinkSync(path.join(f.base, "sub-away-missing"), path.join(f.source, "sub"))
      fs.utimesSync(path.join(f.source, "b.xlsx"), new Date(), new Date(2000))
      const r = yield* run(f)
      expect(r.code).toBe(0)
      // A warning a terminal shows without --verbose (a new user's unreadable folder went by as an info line of the log).
      expect(r.shown.some((l) => l.startsWith("warn:fileAlert:飛ばしました: A/sub — 読み取れません（unreadable: "))).toBe(true)
      expect(statuses(r.rows)).toEqual({ "sub/a.xlsx": "done", "b.xlsx": "done" })
      expect(fs.readFileSync(path.join(bodyFolderOf(f.paths, "A", "sub/a.xlsx"), "1_Sheet1.tsv"), "utf8")).toBe(body)
      // Readable again: nothing to redo for it.
      fs.rmSync(path.join(f.source, "sub"))
      fs.renameSync(path.join(f.base, "sub-away"), path.join(f.source, "sub"))
      const again = yield* run(f)
      expect(again.dispatched).toEqual([])
      expect(statuses(again.rows)).toEqual({ "sub/a.xlsx": "done", "b.xlsx": "done" })
    })))

  it.scoped("R18: TSVs the work folder cannot take (disk full) end the run with exit 1; the file stays pending", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ "a.xlsx": "a", "b.xlsx": "b", "c.xlsx": "c" })
      const failure = stagingWriteFailure("Unknown: FileSystem.writeFile (…/1_Sheet1.tsv): ENOSPC: no space left on device, write")
      const dispatched: Array<string> = []
      const r = yield* run(f, dispatched, { result: (req) => (req.path === "b.xlsx" ? { status: "failed", failure, log: [] } : undefined) })
      expect(r.code).toBe(1)
      expect(Option.getOrThrow(r.error)).toMatch(/^作業フォルダのディスクがいっぱいです。空きを作ってから、もう一度インデックス作成を始めると続きから取り込みます。/)
      expect(dispatched).toEqual(["a.xlsx", "b.xlsx"])
      expect(statuses(r.rows)).toEqual({ "a.xlsx": "done", "b.xlsx": "pending", "c.xlsx": "pending" })
      const again = yield* run(f)
      expect(again.code).toBe(0)
      expect(statuses(again.rows)).toEqual({ "a.xlsx": "done", "b.xlsx": "done", "c.xlsx": "done" })
    })))

  // A relative path that makes the body-index path pass PATH_MAX while the source path stays under it.
  const longPath = (f: Fixture) => {
    const room = 4090 - Buffer.byteLength(f.source) - 1
    const segments: Array<string> = []
    while ((segments.length + 1) * 251 + 20 < room) segments.push(`${String(segments.length).padStart(2, "0")}${"d".repeat(248)}`)
    return `${segments.join("/")}/${"p".repeat(room - segments.length * 251 - 5)}.xlsx`
  }

  // A source of a.xlsx and a file whose body-index path passes PATH_MAX (the limit is Linux's: the tests run there only).
  const withLongPath = Effect.gen(function* () {
    const f = yield* makeFixture({ "a.xlsx": "a" })
    const long = longPath(f)
    write(f.source, long, "長い")
    return { f, long }
  })

  it.scoped("C2: a file whose body-index path passes PATH_MAX fails with a reason; the run and the next complete", () =>
    provide(Effect.gen(function* () {
      if (process.platform !== "linux") return
      const { f, long } = yield* withLongPath
      const r = yield* run(f)
      expect(r.code).toBe(0)
      const row = r.rows.find((x) => x.path === long)
      expect(row?.status).toBe("failed")
      expect(row?.failure && formatFailureText(row.failure)).toMatch(/^path-too-long: its body-index path would be \d+ bytes, more than this system allows \(4095\)/)
      expect(statuses(r.rows)["a.xlsx"]).toBe("done")
      const again = yield* run(f)
      expect(again.code).toBe(0)
      expect(again.dispatched).toEqual([])
    })))

  it.scoped("R7: a staged folder that cannot be published is carried over (ingested again), not a failed run", () =>
    provide(Effect.gen(function* () {
      if (process.platform !== "linux") return
      const { f, long } = yield* withLongPath
      // What a run killed between staging and publish leaves: `start`, complete staging, no `published`.
      const staging = path.join("publish", "99999", "w1", "1")
      fs.mkdirSync(path.join(f.paths.root, staging), { recursive: true })
      fs.writeFileSync(path.join(f.paths.root, staging, "1_Sheet1.tsv"), "cell\ttext\nA1\t長い\n")
      fs.writeFileSync(path.join(f.paths.root, staging, stagingCompleteMark), "")
      yield* appendJournal(f.paths, [{ _tag: "start", index: "A", path: long, staging }])
      const dispatched: Array<string> = []
      const r = yield* run(f, dispatched)
      expect(r.code).toBe(0)
      expect(r.echoed.some((l) => l.startsWith(`復旧できませんでした: A/${long} はもう一度取り込みます`))).toBe(true)
      expect(dispatched).toEqual(["a.xlsx", long])
      expect(statuses(r.rows)[long]).toBe("failed")
    })))

  // The disk of the work folder: a small tmpfs (root only), filled by "another program".
  const mountTmpfs = (dir: string, size: string) => {
    fs.mkdirSync(dir, { recursive: true })
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "ignore" })
      return true
    } catch {
      return false
    }
  }
  const fill = (dir: string, leave: number) => {
    const s = fs.statfsSync(dir)
    const filler = path.join(dir, "filler")
    fs.writeFileSync(filler, Buffer.alloc(Math.max(0, s.bavail * s.bsize - leave)))
    return filler
  }

  // Live clock: the real LibreOffice owner polls and times out by the clock.
  it.scopedLive("R18: with the work folder's disk full, files read through LibreOffice stay pending and the run ends with the disk-full error (issue 15)", () =>
    provide(Effect.gen(function* () {
      if (process.platform !== "linux" || !haveSoffice) return
      const base = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-office-full-"))
      const mnt = path.join(base, "mnt")
      if (!mountTmpfs(mnt, "48m")) return // not root: the injected cases of work_area_space.test.ts cover it
      yield* Effect.addFinalizer(() => Effect.sync(() => {
        execFileSync("umount", ["-l", mnt])
        fs.rmSync(base, { recursive: true, force: true })
      }))
      const source = path.join(base, "src")
      // Flat OpenDocument text: only LibreOffice reads it (RTF is read without it since issue 20).
      write(source, "メモ1.fodt", flatText("Sagasu disk memo one 見積"))
      write(source, "メモ2.fodt", flatText("Sagasu disk memo two"))
      write(source, "表.xlsx", "not really a workbook")
      const paths = yield* initWorkFolder(path.join(mnt, "work"), formatSettings(defaultSettings))
      yield* writeSettings(paths, { ...defaultSettings, ingestThreads: 1, targetFolders: [{ name: "A", path: source, enabled: true }] })
      const f: Fixture = { base, paths, source }
      const filler = fill(mnt, 200_000) // about 200 kB left: too little for LibreOffice
      const full = yield* run(f, [], {}, "real workers")
      expect(full.code, full.echoed.slice(-5).join("\n")).toBe(1)
      expect(Option.getOrThrow(full.error)).toMatch(/^作業フォルダのディスクがいっぱいです。空きを作ってから、もう一度インデックス作成を始めると続きから取り込みます。/)
      const rows = Object.fromEntries(full.rows.map((r) => [r.path, `${r.status} ${r.failure === undefined ? "" : formatFailureText(r.failure)}`.trim()]))
      expect(rows["メモ1.fodt"]).toBe("pending")
      expect(rows["メモ2.fodt"]).toBe("pending")
      // Space again: the next run ingests them, without --retry-failed.
      fs.rmSync(filler)
      const again = yield* run(f, [], {}, "real workers")
      expect(again.code, again.echoed.slice(-5).join("\n")).toBe(0)
      expect(statuses(again.rows)).toMatchObject({ "メモ1.fodt": "done", "メモ2.fodt": "done" })
    })), 120_000)

  it.scoped("a file that failed for the environment (unreadable) is retried by the next run without retryFailed; the file's failure is not (issue 15)", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ "a.xlsx": "a", "locked.xlsx": "見積", "bad.xlsx": "b" })
      const denied = (req: IngestFile): IngestResult | undefined =>
        req.path === "locked.xlsx"
          ? { status: "failed", failure: { reason: "unreadable", detail: `EACCES: permission denied, open '${req.source}'` }, log: [] }
          : req.path === "bad.xlsx" ? { status: "failed", failure: { reason: "corrupt", detail: "the zip is damaged" }, log: [] } : undefined
      const first = yield* run(f, [], { result: denied })
      expect(statuses(first.rows)).toEqual({ "a.xlsx": "done", "locked.xlsx": "failed", "bad.xlsx": "failed" })
      // The permission is back (the file itself unchanged): the next run retries it, and only it.
      const dispatched: Array<string> = []
      const channel = yield* makeChannel({ confirmTargets: true })
      const fiber = yield* Effect.fork(runIndexer(channel, { work: f.paths.root, version: "test", workers: () => workers(dispatched) }))
      const plan = yield* channel.plan.changes.pipe(Stream.filter(Option.isSome), Stream.take(1), Stream.runCollect)
      expect(Chunk.unsafeHead(plan).pipe(Option.getOrThrow).entries).toEqual([
        { index: "A", new: 0, changed: 0, pending: 0, failedLastTime: 1, failedByEnvironment: 1, cloudOnly: 0, unchanged: 1, vanished: 0 }
      ])
      yield* Deferred.succeed(channel.answer, { retryFailed: false, includeCloud: false })
      expect(yield* Fiber.join(fiber)).toBe(0)
      expect(dispatched).toEqual(["locked.xlsx"])
      expect(statuses(yield* readIngestList(f.paths))).toEqual({ "a.xlsx": "done", "locked.xlsx": "done", "bad.xlsx": "failed" })
    })))
})

