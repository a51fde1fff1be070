import { NodeContext } from "@effect/platform-node"
/**
 * The seed's flowcharts, branch by branch, through the channel (SPEC §1–§4).
 * Workers are fakes with scripted behaviour per file name, so each test
 * controls what is in flight when; the real workers have their own tests.
 */
import { FileSystem } from "@effect/platform"
import { SystemError } from "@effect/platform/Error"
import { describe, expect, it, onTestFinished } from "@effect/vitest"
import {
  type IngestResult,
  type IngestRow,
  type Progress,
  type Settings,
  type WorkerKind,
  defaultSettings,
  formatBodyTsv
} from "@sagasu/domain"
import { type RoundChanges, type WorkPaths, bodyFolderOf, formatSettings, WorkStore } from "@sagasu/store"
import { acquireLock, initWorkFolder, openGramRound, readIngestList, readJournal, searchIndex, updateGramIndexesOfRound, writeSettings, NodeWithWorkStore } from "@sagasu/store/testing"
import { type MemoryIndex, memorySinkLayer } from "@sagasu/team/testing"
import { Deferred, Effect, Fiber, Layer, Option, Ref, Stream, SubscriptionRef, TestClock } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { type IndexerChannel, type MakeChannelOptions, makeChannel, requestStop } from "./channel.ts"
import { gramRoundThread } from "./gram_thread.ts"
import { stagingCompleteMark } from "./ingest_one.ts"
import type { IngestFile } from "./ingest_request.ts"
import { type RunIndexerOptions, runIndexer } from "./run_indexer.ts"
import { IngestWorkers } from "./workers.ts"

// ---------------------------------------------------------------------------
// Fixture: a work folder and target folders with small source files.

interface Fixture {
  readonly paths: WorkPaths
  readonly folder: (name: string) => string
}

const makeFixture = (trees: Record<string, Record<string, string>>, settings: Partial<Settings> = {}) =>
  Effect.gen(function* () {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-run-"))
    onTestFinished(() => fs.rmSync(base, { recursive: true, force: true }))
    const paths = yield* initWorkFolder(path.join(base, "work"), formatSettings(defaultSettings))
    const folder = (name: string) => path.join(base, "src", name)
    for (const [index, files] of Object.entries(trees)) {
      fs.mkdirSync(folder(index), { recursive: true })
      for (const [rel, content] of Object.entries(files)) writeSource(folder(index), rel, content)
    }
    yield* writeSettings(paths, {
      ...defaultSettings,
      targetFolders: Object.keys(trees).map((name) => ({ name, path: folder(name), enabled: true })),
      ...settings
    })
    return { paths, folder } satisfies Fixture
  })

const writeSource = (root: string, rel: string, content: string) => {
  const file = path.join(root, ...rel.split("/"))
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, content)
}

// ---------------------------------------------------------------------------
// Fake workers: the file's content decides the result ("fail", "reroute",
// "slow", …); "done" files stage one TSV holding the content.

type Script = (kind: WorkerKind, request: IngestFile) => Effect.Effect<IngestResult | undefined>

const stage = (request: IngestFile, text: string) =>
  Effect.sync(() => {
    fs.mkdirSync(request.staging, { recursive: true })
    fs.writeFileSync(path.join(request.staging, "1_Sheet1.tsv"), formatBodyTsv({
      name: "Sheet1", locator: "cell", state: "visible", lines: [{ loc: "A1", text }]
    }))
    fs.writeFileSync(path.join(request.staging, stagingCompleteMark), "")
  })

const fakeWorkers = (log: Array<string>, script: Script = () => Effect.succeed(undefined), plain = 1) =>
  Layer.succeed(IngestWorkers, {
    slots: { plain, spreadsheet: 1, document: 1, presentation: 1 },
    ingest: (kind, request) =>
      Effect.gen(function* () {
        log.push(`${kind}:${request.path}`)
        const scripted = yield* script(kind, request)
        if (scripted !== undefined) return scripted
        const content = fs.readFileSync(request.source, "utf8")
        if (content.startsWith("fail")) return { status: "failed", failure: { reason: "corrupt", detail: "scripted failure" }, log: [] }
        if (content.startsWith("reroute") && kind === "plain") {
          return { status: "reroute", failure: { reason: "needs-office", detail: "legacy" }, app: "spreadsheet", log: [] }
        }
        yield* stage(request, content)
        return { status: "done", tsvCount: 1, log: [{ _tag: "Read", parts: 1, lines: kind === "plain" ? 1 : 2, ms: 7 }] }
      }) as Effect.Effect<IngestResult>
  })

interface RunResult {
  readonly code: number
  readonly channel: IndexerChannel
  readonly echoed: ReadonlyArray<string>
  readonly rows: ReadonlyArray<IngestRow>
  readonly error: Option.Option<string>
  readonly dispatched: ReadonlyArray<string>
}

const run = (
  fixture: Fixture,
  options: MakeChannelOptions & {
    readonly script?: Script
    readonly plain?: number
    readonly onEcho?: (line: string, channel: IndexerChannel) => void
    readonly during?: (channel: IndexerChannel) => Effect.Effect<void>
    readonly teamSink?: RunIndexerOptions["teamSink"]
  } = {}
) =>
  Effect.gen(function* () {
    const echoed: Array<string> = []
    const dispatched: Array<string> = []
    const holder: { channel?: IndexerChannel } = {}
    const channel = yield* makeChannel({
      ...options,
      echo: (line) => {
        echoed.push(line)
        if (options.onEcho !== undefined && holder.channel !== undefined) options.onEcho(line, holder.channel)
      }
    })
    holder.channel = channel
    const fiber = yield* Effect.fork(runIndexer(channel, {
      work: fixture.paths.root,
      version: "test",
      workers: () => fakeWorkers(dispatched, options.script, options.plain),
      ...(options.teamSink !== undefined ? { teamSink: options.teamSink } : {})
    }))
    if (options.during !== undefined) yield* options.during(channel)
    const code = yield* Fiber.join(fiber)
    return {
      code,
      channel,
      echoed,
      rows: yield* readIngestList(fixture.paths),
      error: yield* Ref.get(channel.error),
      dispatched
    } satisfies RunResult
  })

const statuses = (rows: ReadonlyArray<IngestRow>) => Object.fromEntries(rows.map((r) => [`${r.index}/${r.path}`, r.status]))
const closing = (r: RunResult) => Effect.map(Ref.get(r.channel.closing), Option.map((c) => c.message))
const tsvText = (paths: WorkPaths, index: string, rel: string) => {
  const folder = bodyFolderOf(paths, index, rel)
  return fs.existsSync(folder) ? fs.readFileSync(path.join(folder, "1_Sheet1.tsv"), "utf8").split("\n")[1] : undefined
}

const provide = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, NodeWithWorkStore)

// runIndexer alone in `layer` (the fixture's rows are read by the caller, outside it).
const runOnly = (fixture: Fixture, layer: Layer.Layer<FileSystem.FileSystem>) =>
  Effect.gen(function* () {
    const dispatched: Array<string> = []
    const channel = yield* makeChannel()
    const code = yield* runIndexer(channel, { work: fixture.paths.root, version: "test", workers: () => fakeWorkers(dispatched) }).pipe(
      Effect.provide(WorkStore.DefaultWithoutDependencies.pipe(Layer.provide(layer)))
    )
    return { code, error: yield* Ref.get(channel.error), dispatched }
  })

// The test layer of a transient read error: reading `file` fails with a permission error while the
// file is there (and writing it would work); every other operation is the real file system's.
const failingRead = (file: string) =>
  Layer.effect(
    FileSystem.FileSystem,
    Effect.map(FileSystem.FileSystem, (real): FileSystem.FileSystem => {
      const refuse = (method: string) =>
        new SystemError({ reason: "PermissionDenied", module: "FileSystem", method, pathOrDescriptor: file, description: "EACCES: permission denied (injected)" })
      return {
        ...real,
        readFile: (p) => (p === file ? Effect.fail(refuse("readFile")) : real.readFile(p)),
        readFileString: (p, encoding) => (p === file ? Effect.fail(refuse("readFileString")) : real.readFileString(p, encoding))
      }
    })
  ).pipe(Layer.provide(NodeContext.layer))

// ---------------------------------------------------------------------------

describe("runIndexer(): start of the run (R1–R6)", () => {
  it.effect("R2: an unusable work folder → channel.error, exit 1, exitCode set last, nothing written", () =>
    provide(Effect.gen(function* () {
      const channel = yield* makeChannel()
      const missing = path.join(os.tmpdir(), `sagasu-missing-${process.pid}`)
      const code = yield* runIndexer(channel, { work: missing, version: "test" })
      expect(code).toBe(1)
      expect(yield* Deferred.await(channel.exitCode)).toBe(1)
      expect(Option.getOrThrow(yield* Ref.get(channel.error))).toContain("work folder cannot be used")
      expect(fs.existsSync(missing)).toBe(false)
    })))

  it.scoped("R3: a held lock → the seed's message, exit 1, the log untouched", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a.xlsx": "x" } })
      fs.writeFileSync(f.paths.log, "the running run's log")
      yield* acquireLock(f.paths)
      const r = yield* run(f)
      expect(r.code).toBe(1)
      expect(r.error).toEqual(Option.some("ほかのインデックス作成が実行中です。インデックス作成が終わってから実行してください。"))
      expect(fs.readFileSync(f.paths.log, "utf8")).toBe("the running run's log")
      expect(fs.existsSync(f.paths.logPrevious)).toBe(false)
      expect(r.dispatched).toEqual([])
    })))

  it.effect("R4: the log has a BOM, a header, [n/total] blocks, its start and end time, and the previous log is kept", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a.xlsx": "見積", "b.xlsx": "fail" } })
      fs.writeFileSync(f.paths.log, "older")
      const r = yield* run(f)
      expect(r.code).toBe(0)
      const log = fs.readFileSync(f.paths.log, "utf8")
      // Issue 16: every line in the settings' language (Japanese by default).
      expect(log).toMatch(/^\uFEFFSagasu test — インデックス作成の開始: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d\n環境: .*Node\.js v/)
      expect(log).toContain(`作業フォルダ: ${f.paths.root}\n`)
      expect(log).toContain(`インデックス「A」: ${f.folder("A")}\n`)
      expect(log).toContain("インデックス「A」: 新規 2、変更 0、未取り込み 0、再試行 0、変更なし 0、前回失敗 0、前回失敗・環境（再試行） 0、削除 0\n")
      expect(log).toContain("[1/2] A/a.xlsx: 取り込みました\n    1 パート、1 行、7 ms\n")
      // Issue 16: a failure said once — the catalogue's sentence, its code and detail after; no line repeats it.
      expect(log).toContain("[警告] [2/2] A/b.xlsx: 失敗 — ファイルが壊れています。Office で開いて保存し直すと直ることがあります。（corrupt: scripted failure）\n取り込み段階: ")
      expect(log).toMatch(/\nインデックス作成が完了しました。（成功: 1 件 \/ 失敗: 1 件）\n失敗したファイルと原因:\n  A\/b\.xlsx: .*\nインデックス作成の終了: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d\d:\d\d（所要 0:\d\d）\n$/)
      expect(fs.readFileSync(f.paths.logPrevious, "utf8")).toBe("older")
      expect(r.echoed).toContain("[1/2] A/a.xlsx: 取り込みました")
    })))

  it.effect("R4, issue 16: the log keeps the last five runs, newest first, each moved one place down", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a.xlsx": "見積" } })
      const kept = [f.paths.log, f.paths.logPrevious, ...f.paths.logOlder]
      expect(kept.map((p) => path.basename(p))).toEqual([
        "indexing_log.txt", "indexing_log_previous.txt", "indexing_log_previous_2.txt", "indexing_log_previous_3.txt", "indexing_log_previous_4.txt"
      ])
      const starts: Array<string> = []
      for (let i = 0; i < 6; i++) {
        expect((yield* run(f)).code).toBe(0)
        const log = fs.readFileSync(f.paths.log, "utf8")
        starts.push(log.split("\n")[0] ?? "")
        // A marker of this run, to tell the files apart.
        fs.appendFileSync(f.paths.log, `run ${i}\n`)
      }
      // Six runs: the first is gone, the sixth is the current log, the second the oldest kept.
      expect(kept.map((p) => fs.readFileSync(p, "utf8").match(/run (\d)\n$/)?.[1])).toEqual(["5", "4", "3", "2", "1"])
      expect(fs.readdirSync(f.paths.root).filter((n) => n.startsWith("indexing_log")).sort()).toEqual(kept.map((p) => path.basename(p)).sort())
      expect(starts.every((l) => l.includes("インデックス作成の開始: "))).toBe(true)
    })))

  it.effect("R5: no enabled index → error, exit 1", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a.xlsx": "x" } })
      yield* writeSettings(f.paths, { ...defaultSettings, targetFolders: [{ name: "A", path: f.folder("A"), enabled: false }] })
      const r = yield* run(f)
      expect(r.code).toBe(1)
      expect(Option.getOrThrow(r.error)).toContain("チェックの付いたインデックスがありません")
    })))

  it.effect("R5: a target folder that does not exist → error, exit 1, saying how to go on (--only, disable; issue 16)", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a.xlsx": "x" }, B: { "b.xlsx": "y" } })
      fs.rmSync(f.folder("A"), { recursive: true })
      const r = yield* run(f)
      expect(r.code).toBe(1)
      expect(Option.getOrThrow(r.error)).toBe(
        `インデックス「A」のフォルダが見つかりません: ${f.folder("A")}\n` +
          "フォルダを使えるようにしてからもう一度実行するか、ほかのインデックスだけを更新するなら sagasu index --only B、" +
          "このインデックスを外すなら sagasu disable A（フォルダが移ったなら sagasu move A 新しいフォルダ）を実行してください。"
      )
    })))

  it.effect("R5: onlyNames with unknown and disabled names are logged and reported; unselected indexes are untouched", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a.xlsx": "x" }, B: { "b.xlsx": "y" } })
      yield* run(f) // both indexed once
      writeSource(f.folder("B"), "b2.xlsx", "new in B")
      writeSource(f.folder("A"), "a2.xlsx", "new in A")
      const r = yield* run(f, { onlyNames: ["A", "Z"], confirmTargets: true, during: (c) => answerWhenAsked(c, { retryFailed: false, includeCloud: false }) })
      expect(r.code).toBe(0)
      expect(yield* Ref.get(r.channel.onlySkipped)).toEqual([{ name: "Z", reason: "unknown" }])
      expect(r.echoed).toContain("インデックス「Z」は設定にありません。飛ばします。")
      expect(statuses(r.rows)).toEqual({ "A/a.xlsx": "done", "B/b.xlsx": "done", "A/a2.xlsx": "done" })
      expect(r.dispatched).toEqual(["plain:a2.xlsx"])
    })))

  it.effect("R5: when none of onlyNames can be updated → error, exit 1", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a.xlsx": "x" } })
      const r = yield* run(f, { onlyNames: ["nope"] })
      expect(r.code).toBe(1)
      expect(Option.getOrThrow(r.error)).toBe("選んだインデックスはどれも更新できません。")
    })))

  it.effect("R6: a legacy mark gives the notice in the log and system_index is removed", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a.xlsx": "x" } })
      fs.writeFileSync(path.join(f.paths.store, "layout_legacy"), "0")
      fs.mkdirSync(path.join(f.paths.root, "system_index"))
      const r = yield* run(f)
      expect(r.code).toBe(0)
      expect(fs.readFileSync(f.paths.log, "utf8")).toContain("[警告] 前の版のインデックスは使えません。")
      expect(fs.existsSync(path.join(f.paths.root, "system_index"))).toBe(false)
    })))
})

describe("runIndexer(): journal recovery and crawl (R7, R8, C1, C3)", () => {
  it.effect("R7/C1: publishes complete staged folders of a killed run and puts its in-flight files last", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "1.xlsx": "one", "2.xlsx": "two", "3.xlsx": "three" } })
      yield* run(f)
      // Simulate a killed run: 1.xlsx was staged complete (row done), 2.xlsx in flight (row pending), no `end`.
      writeSource(f.folder("A"), "1.xlsx", "one v2")
      writeSource(f.folder("A"), "2.xlsx", "two v2")
      const staged = path.join(f.paths.root, "publish", "99999", "w1", "1")
      yield* stage({ staging: staged } as IngestFile, "one v2 staged")
      const st1 = fs.statSync(path.join(f.folder("A"), "1.xlsx"))
      const st2 = fs.statSync(path.join(f.folder("A"), "2.xlsx"))
      fs.writeFileSync(f.paths.journal, [
        "start\tA\t1.xlsx\tpublish/99999/w1/1",
        "start\tA\t2.xlsx\tpublish/99999/w2/2",
        ""
      ].join("\n"))
      fs.appendFileSync(f.paths.ingestList, `A\t1.xlsx\t${st1.size}\t${st1.mtimeMs}\tdone\t\nA\t2.xlsx\t${st2.size}\t${st2.mtimeMs}\tpending\t\n`)
      writeSource(f.folder("A"), "0.xlsx", "zero")
      const r = yield* run(f)
      expect(r.code).toBe(0)
      expect(r.echoed).toContain("復旧しました: A/1.xlsx（中断した前回の実行が用意した本文を書き出しました）")
      expect(tsvText(f.paths, "A", "1.xlsx")).toBe("A1\tone v2 staged")
      // 1.xlsx is done and unchanged: not a target; 2.xlsx was in flight: last, though the larger (issue 20).
      expect(r.dispatched).toEqual(["plain:0.xlsx", "plain:2.xlsx"])
      expect(fs.existsSync(path.join(f.paths.root, "publish", "99999"))).toBe(false)
      expect((yield* readJournal(f.paths)).at(-1)).toEqual({ _tag: "end" })
    })))

  it.effect("R7, R18: a journal that exists but cannot be read ends the run with exit 1; nothing is reset or deleted (issue 15)", () =>
    Effect.gen(function* () {
      const f = yield* provide(makeFixture({ A: { "1.xlsx": "one" } }))
      yield* provide(run(f))
      // A killed run's state: 1.xlsx changed and staged complete, `start` without `published`.
      writeSource(f.folder("A"), "1.xlsx", "one v2")
      const staged = path.join(f.paths.root, "publish", "99999", "w1", "1")
      yield* stage({ staging: staged } as IngestFile, "one v2 staged")
      const journal = "start\tA\t1.xlsx\tpublish/99999/w1/1\n"
      fs.writeFileSync(f.paths.journal, journal)
      // A transient read error (the disk of a share hiccups): the file is there, reading it fails.
      const r = yield* runOnly(f, failingRead(f.paths.journal))
      expect(r.code).toBe(1)
      expect(Option.getOrThrow(r.error)).toContain("journal/ingest.tsv could not be read")
      expect(fs.readFileSync(f.paths.log, "utf8")).toContain("journal/ingest.tsv could not be read")
      expect(r.dispatched).toEqual([])
      expect(fs.readFileSync(f.paths.journal, "utf8")).toBe(journal) // not reset
      expect(fs.existsSync(path.join(staged, stagingCompleteMark))).toBe(true) // not deleted
      expect(tsvText(f.paths, "A", "1.xlsx")).toBe("A1\tone") // the body index as it was
      // The error gone, the next run recovers the staged folder as R7 says.
      const again = yield* provide(run(f))
      expect(again.code).toBe(0)
      expect(again.echoed).toContain("復旧しました: A/1.xlsx（中断した前回の実行が用意した本文を書き出しました）")
    }))

  it.effect("R14, R18: pending removals that exist but cannot be read end the run with exit 1 before anything is touched (issue 15)", () =>
    Effect.gen(function* () {
      const f = yield* provide(makeFixture({ A: { "1.xlsx": "one" } }))
      yield* provide(run(f))
      fs.writeFileSync(f.paths.pendingRemove, "A\t1.xlsx\n")
      writeSource(f.folder("A"), "2.xlsx", "two")
      const list = fs.readFileSync(f.paths.ingestList, "utf8")
      const r = yield* runOnly(f, failingRead(f.paths.pendingRemove))
      expect(r.code).toBe(1)
      expect(Option.getOrThrow(r.error)).toContain("store/pending_remove.tsv could not be read")
      expect(r.dispatched).toEqual([])
      expect(fs.readFileSync(f.paths.ingestList, "utf8")).toBe(list)
      expect(fs.readFileSync(f.paths.pendingRemove, "utf8")).toBe("A\t1.xlsx\n")
      expect(tsvText(f.paths, "A", "1.xlsx")).toBe("A1\tone")
    }))

  it.effect("R11, R18: origins that exist but cannot be read end the run with exit 1; the records stay as they were (issue 15)", () =>
    Effect.gen(function* () {
      const f = yield* provide(makeFixture({ A: { "1.xlsx": "one" } }))
      yield* provide(run(f))
      const origins = fs.readFileSync(f.paths.origins, "utf8")
      expect(origins).toContain(f.folder("A"))
      writeSource(f.folder("A"), "2.xlsx", "two")
      const r = yield* runOnly(f, failingRead(f.paths.origins))
      expect(r.code).toBe(1)
      expect(Option.getOrThrow(r.error)).toContain("store/origins.tsv could not be read")
      expect(r.dispatched).toEqual([])
      expect(fs.readFileSync(f.paths.origins, "utf8")).toBe(origins)
    }))

  it.effect("R8: a stop during the crawl looks at no further folder, asks nothing, exit 2; finished folders drop vanished files", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a1.xlsx": "x", "a2.xlsx": "y" }, B: { "b1.xlsx": "z", "b2.xlsx": "w" } })
      yield* run(f)
      fs.rmSync(path.join(f.folder("A"), "a2.xlsx"))
      fs.rmSync(path.join(f.folder("B"), "b2.xlsx"))
      writeSource(f.folder("A"), "a3.xlsx", "new")
      const r = yield* run(f, {
        confirmTargets: true,
        onEcho: (line, channel) => {
          if (line.startsWith("クロール中: A")) Effect.runSync(requestStop(channel))
        }
      })
      expect(r.code).toBe(2)
      expect(r.echoed.some((l) => l.startsWith("クロール中: B"))).toBe(false)
      expect(yield* SubscriptionRef.get(r.channel.plan)).toEqual(Option.none())
      // A finished its crawl: a2 vanished is removed; a3 is not recorded as pending. B is untouched.
      expect(statuses(r.rows)).toEqual({ "A/a1.xlsx": "done", "B/b1.xlsx": "done", "B/b2.xlsx": "done" })
      expect(tsvText(f.paths, "A", "a2.xlsx")).toBeUndefined()
      expect(tsvText(f.paths, "B", "b2.xlsx")).toBe("A1\tw")
      expect(yield* closing(r)).toEqual(Option.some("インデックス作成を中止しました。（成功: 0 件 / 失敗: 0 件）"))
    })))
})

const answerWhenAsked = (channel: IndexerChannel, answer: { retryFailed: boolean; includeCloud: boolean } | null) =>
  channel.plan.changes.pipe(
    Stream.filter(Option.isSome),
    Stream.take(1),
    Stream.runDrain,
    Effect.zipRight(Deferred.succeed(channel.answer, answer))
  )

describe("runIndexer(): confirmation (R9, R10, R11, R12)", () => {
  it.effect("R10: the plan lists the selected indexes; cancel keeps the previous rows but removes vanished files, exit 2", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a1.xlsx": "x", "gone.xlsx": "y", "bad.xlsx": "fail" } })
      yield* run(f)
      fs.rmSync(path.join(f.folder("A"), "gone.xlsx"))
      writeSource(f.folder("A"), "new.xlsx", "n")
      const plans: Array<unknown> = []
      const r = yield* run(f, {
        confirmTargets: true,
        during: (c) =>
          c.plan.changes.pipe(Stream.filter(Option.isSome), Stream.take(1), Stream.runForEach((p) => Effect.sync(() => plans.push(p.value))),
            Effect.zipRight(Deferred.succeed(c.answer, null)))
      })
      expect(plans).toEqual([{ entries: [{ index: "A", new: 1, changed: 0, pending: 0, failedLastTime: 1, failedByEnvironment: 0, cloudOnly: 0, unchanged: 1, vanished: 1 }] }])
      expect(r.code).toBe(2)
      expect(statuses(r.rows)).toEqual({ "A/a1.xlsx": "done", "A/bad.xlsx": "failed" })
      expect(tsvText(f.paths, "A", "gone.xlsx")).toBeUndefined()
      expect(r.dispatched).toEqual([])
      // Issue 16: a cancel says it was one, not 「中止しました（0 / 0）」 as a stop does.
      expect(yield* closing(r)).toEqual(Option.some("取り込みの確認で取り消したため、インデックス作成をやめました。ファイルは 1 件も取り込んでいません。"))
    })))

  it.effect("R10: no answer within 60 minutes cancels (TestClock)", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a1.xlsx": "x" } })
      const r = yield* run(f, {
        confirmTargets: true,
        during: (c) =>
          c.plan.changes.pipe(Stream.filter(Option.isSome), Stream.take(1), Stream.runDrain,
            // Wait until the run's 60-minute timer is registered, then move the clock.
            Effect.zipRight(Effect.repeat(
              Effect.promise(() => new Promise((r) => setTimeout(r, 5))).pipe(Effect.zipRight(TestClock.sleeps())),
              { until: (sleeps) => sleeps.length > 0 }
            )),
            Effect.zipRight(TestClock.adjust("59 minutes")),
            Effect.zipRight(Effect.flatMap(Deferred.isDone(c.exitCode), (done) => Effect.sync(() => expect(done).toBe(false)))),
            Effect.zipRight(TestClock.adjust("1 minute")))
      })
      expect(r.code).toBe(2)
      expect(r.rows).toEqual([])
      expect(yield* closing(r)).toEqual(Option.some("取り込みの確認に 60 分返事が無かったため、インデックス作成をやめました。ファイルは 1 件も取り込んでいません。"))
    })))

  it.effect("R9/R10: the answer's retryFailed brings back failed files", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "bad.xlsx": "fail", "ok.xlsx": "ok" } })
      yield* run(f)
      writeSource(f.folder("A"), "bad.xlsx", "fail!") // same size/mtime would not matter: retry is by answer
      fs.utimesSync(path.join(f.folder("A"), "bad.xlsx"), 1, 1)
      const rows = yield* readIngestList(f.paths)
      const st = fs.statSync(path.join(f.folder("A"), "bad.xlsx"))
      fs.appendFileSync(f.paths.ingestList, `A\tbad.xlsx\t${st.size}\t${st.mtimeMs}\tfailed\tcorrupt: x\n`)
      void rows
      const r = yield* run(f, { confirmTargets: true, during: (c) => answerWhenAsked(c, { retryFailed: true, includeCloud: false }) })
      expect(r.dispatched).toEqual(["plain:bad.xlsx"])
      expect(r.code).toBe(0)
    })))

  it.effect("R12: nothing to ingest → the seed's message, exit 0", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a1.xlsx": "x" } })
      yield* run(f)
      const r = yield* run(f)
      expect(r.code).toBe(0)
      expect(yield* closing(r)).toEqual(Option.some("取り込みが必要なファイルはありません。"))
    })))

  it.effect("R9: only cloud-only files left → the cloud message; they are not added to the ingest list", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: {} })
      const sparse = path.join(f.folder("A"), "cloud.xlsx")
      fs.writeFileSync(sparse, "")
      fs.truncateSync(sparse, 50000)
      const r = yield* run(f)
      expect(r.code).toBe(0)
      expect(yield* closing(r)).toEqual(Option.some("クラウドにだけあるファイルは、ダウンロードせずに残しました"))
      expect(yield* Ref.get(r.channel.cloudSkipped)).toEqual([{ index: "A", path: "cloud.xlsx" }])
      expect(r.rows).toEqual([])
      expect(fs.readFileSync(f.paths.log, "utf8")).toContain("  クラウドのみ: A/cloud.xlsx\n")
    })))
})

describe("runIndexer(): dispatch and results (R13, R14, R15, R17, W5)", () => {
  it.effect("R17: completes with counts and the failure list; rows done/failed; TSVs published", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a.xlsx": "見積", "sub/b.docx": "fail" } })
      const r = yield* run(f)
      expect(r.code).toBe(0)
      expect(yield* closing(r)).toEqual(Option.some(
        // Issue 17: each failed file in the catalogue's words, its code and detail after.
        "インデックス作成が完了しました。（成功: 1 件 / 失敗: 1 件）\n失敗したファイルと原因:\n  A/sub/b.docx: ファイルが壊れています。Office で開いて保存し直すと直ることがあります。（corrupt: scripted failure）"
      ))
      expect(statuses(r.rows)).toEqual({ "A/a.xlsx": "done", "A/sub/b.docx": "failed" })
      expect(tsvText(f.paths, "A", "a.xlsx")).toBe("A1\t見積")
      expect(fs.readFileSync(f.paths.ingestList, "utf8").trim().split("\n")).toHaveLength(3) // header + one line per file (R15)
    })))

  it.effect("R14: a reroute goes to the Office owner and stays in flight; the owner's result is recorded", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "old.xlsx": "reroute", "x.fods": "opendocument" } })
      const r = yield* run(f)
      expect(r.code).toBe(0)
      expect(new Set(r.dispatched)).toEqual(new Set(["plain:old.xlsx", "spreadsheet:old.xlsx", "spreadsheet:x.fods"]))
      expect(statuses(r.rows)).toEqual({ "A/old.xlsx": "done", "A/x.fods": "done" })
      expect(r.echoed).toContain("A/old.xlsx: Office が無いと読めない内容のため、表計算の担当（LibreOffice）に回しました")
    })))

  it.effect("W3: legacy Excel files go to the plain workers first; one they cannot read is rerouted to the spreadsheet owner (R14)", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "biff8.xls": "読める", "biff4.xls": "reroute", "b.xlsb": "バイナリ" } })
      const r = yield* run(f)
      expect(r.code).toBe(0)
      expect(new Set(r.dispatched)).toEqual(new Set(["plain:biff8.xls", "plain:biff4.xls", "spreadsheet:biff4.xls", "plain:b.xlsb"]))
      expect(statuses(r.rows)).toEqual({ "A/biff8.xls": "done", "A/biff4.xls": "done", "A/b.xlsb": "done" })
      expect(tsvText(f.paths, "A", "biff8.xls")).toBe("A1\t読める")
    })))

  it.live("W5/R14: a stop lets the plain file in flight finish, interrupts Office, leaves the rest pending, exit 2", () =>
    provide(Effect.gen(function* () {
      // 1.xlsx the largest, then 9.fods: the first two handed over (the run's last files go largest first, issue 20).
      const f = yield* makeFixture({ A: { "1.xlsx": "slow plain file", "2.xlsx": "b", "3.xlsx": "c", "9.fods": "office-slow" } })
      const gate = yield* Deferred.make<void>()
      const r = yield* run(f, {
        script: (kind, request) =>
          request.path === "1.xlsx"
            ? Deferred.await(gate).pipe(Effect.zipRight(stage(request, "slow")), Effect.as<IngestResult>({ status: "done", tsvCount: 1, log: [] }))
            : kind === "spreadsheet"
            ? Effect.never
            : Effect.succeed(undefined),
        during: (c) =>
          Effect.gen(function* () {
            // Both the slow plain file and the Office file are in flight now.
            yield* c.progress.changes.pipe(Stream.filter((p: Progress) => p.current === "A/9.fods"), Stream.take(1), Stream.runDrain)
            yield* requestStop(c)
            yield* Effect.sleep("50 millis")
            yield* Deferred.succeed(gate, undefined)
          })
      })
      expect(r.code).toBe(2)
      expect(r.dispatched).toEqual(["plain:1.xlsx", "spreadsheet:9.fods"])
      expect(statuses(r.rows)).toEqual({ "A/1.xlsx": "done", "A/2.xlsx": "pending", "A/3.xlsx": "pending", "A/9.fods": "pending" })
      expect(r.echoed.some((l) => l.startsWith("前回中止"))).toBe(false)
      expect(tsvText(f.paths, "A", "1.xlsx")).toBe("A1\tslow")
      expect(tsvText(f.paths, "A", "9.fods")).toBeUndefined()
      expect(yield* closing(r)).toEqual(Option.some("インデックス作成を中止しました。（成功: 1 件 / 失敗: 0 件）"))
      const progress = yield* SubscriptionRef.get(r.channel.progress)
      expect(progress).toMatchObject({ phase: "finalize", processed: 1, failed: 0, exitCode: 2 })
      // The next run says in words that it goes on from the stopped one, with the 3 files it left,
      // before it asks about the plan.
      const resumed = "前回中止・中断した実行の続きです（そのとき未取り込みだった 3 件も取り込みます）。"
      let saidWhenAsked = false
      const echoedSoFar: Array<string> = []
      const next = yield* run(f, {
        script: () => Effect.succeed(undefined),
        confirmTargets: true,
        onEcho: (line) => {
          echoedSoFar.push(line)
        },
        during: (c) =>
          c.plan.changes.pipe(
            Stream.filter(Option.isSome),
            Stream.take(1),
            Stream.runDrain,
            Effect.zipRight(Effect.sync(() => {
              saidWhenAsked = echoedSoFar.includes(resumed)
            })),
            Effect.zipRight(Deferred.succeed(c.answer, { retryFailed: false, includeCloud: false }))
          )
      })
      expect(next.code).toBe(0)
      expect(saidWhenAsked).toBe(true)
      expect(next.echoed).toContain(resumed)
    })), 20_000)

  it.live("R14: a reroute that arrives after a stop keeps the file pending, not failed", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a.xlsx": "reroute", "b.xlsx": "b" } })
      const gate = yield* Deferred.make<void>()
      const r = yield* run(f, {
        script: (kind, request) =>
          kind === "plain" && request.path === "a.xlsx"
            ? Deferred.await(gate).pipe(Effect.as<IngestResult>({ status: "reroute", failure: { reason: "needs-office", detail: "x" }, app: "spreadsheet", log: [] }))
            : Effect.succeed(undefined),
        during: (c) =>
          Effect.gen(function* () {
            yield* c.progress.changes.pipe(Stream.filter((p: Progress) => p.current === "A/a.xlsx"), Stream.take(1), Stream.runDrain)
            yield* requestStop(c)
            yield* Deferred.succeed(gate, undefined)
          })
      })
      expect(r.code).toBe(2)
      expect(r.dispatched).toEqual(["plain:a.xlsx"])
      expect(statuses(r.rows)).toEqual({ "A/a.xlsx": "pending", "A/b.xlsx": "pending" })
      expect(yield* closing(r)).toEqual(Option.some("インデックス作成を中止しました。（成功: 0 件 / 失敗: 0 件）"))
    })))

  it.effect("R13: a source file gone before dispatch is removed from the list and the body index, with the seed's message", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "1.xlsx": "one", "2.xlsx": "two" } })
      yield* run(f)
      writeSource(f.folder("A"), "1.xlsx", "one v2")
      writeSource(f.folder("A"), "2.xlsx", "two v2")
      const r = yield* run(f, {
        script: (_kind, request) =>
          Effect.sync(() => {
            if (request.path === "1.xlsx") fs.rmSync(path.join(f.folder("A"), "2.xlsx"))
            return undefined
          })
      })
      expect(r.code).toBe(0)
      expect(r.echoed).toContain("[2/2] A/2.xlsx: 元のファイルが無くなったため、取り込まずに一覧から除きます。")
      expect(statuses(r.rows)).toEqual({ "A/1.xlsx": "done" })
      expect(tsvText(f.paths, "A", "2.xlsx")).toBeUndefined()
    })))

  it.effect("R13: the target folder disappears mid-run → exit 1, the rest stays pending; back again → the next run completes", () =>
    provide(Effect.gen(function* () {
      // 1.xlsx the largest goes first; 2 and 3 of one size go in order (the run's last files go largest first, issue 20).
      const f = yield* makeFixture({ A: { "1.xlsx": "first", "2.xlsx": "two", "3.xlsx": "six" } })
      const away = f.folder("A") + ".away"
      const r = yield* run(f, {
        script: (_kind, request) =>
          Effect.gen(function* () {
            if (request.path !== "1.xlsx") return undefined
            yield* stage(request, "one")
            fs.renameSync(f.folder("A"), away)
            return { status: "done", tsvCount: 1, log: [] } as IngestResult
          })
      })
      expect(r.code).toBe(1)
      expect(Option.getOrThrow(r.error)).toContain("インデックス「A」のフォルダが見つからなくなりました")
      expect(statuses(r.rows)).toEqual({ "A/1.xlsx": "done", "A/2.xlsx": "pending", "A/3.xlsx": "pending" })
      expect((yield* readJournal(f.paths)).at(-1)).toEqual({ _tag: "end" }) // the finally step ran
      fs.renameSync(away, f.folder("A"))
      const again = yield* run(f)
      expect(again.code).toBe(0)
      expect(again.dispatched).toEqual(["plain:2.xlsx", "plain:3.xlsx"])
      expect(statuses(again.rows)).toEqual({ "A/1.xlsx": "done", "A/2.xlsx": "done", "A/3.xlsx": "done" })
    })))

  it.effect("R14/C2: a folder is published only when none of its files is in flight or waiting", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "x/1.xlsx": "a", "x/2.xlsx": "b", "y/3.xlsx": "c" } })
      const seen: Array<string> = []
      const r = yield* run(f, {
        script: (_kind, request) =>
          Effect.sync(() => {
            // When 2.xlsx starts, 1.xlsx (same folder) must not be in the body index yet.
            if (request.path === "x/2.xlsx") seen.push(`x/1 published: ${tsvText(f.paths, "A", "x/1.xlsx") !== undefined}`)
            if (request.path === "y/3.xlsx") seen.push(`x/2 published: ${tsvText(f.paths, "A", "x/2.xlsx") !== undefined}`)
            return undefined
          })
      })
      expect(r.code).toBe(0)
      expect(seen).toEqual(["x/1 published: false", "x/2 published: true"])
      const journal = (yield* readJournal(f.paths)).map((e) => (e._tag === "end" ? "end" : `${e._tag} ${e.path}`))
      expect(journal).toEqual([
        "start x/1.xlsx", "start x/2.xlsx", "published x/1.xlsx", "published x/2.xlsx", "start y/3.xlsx", "published y/3.xlsx", "end"
      ])
    })))

  it.effect("R14/S1: a done file that waits for the rest of its source folder is found while it waits", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "x/1.xlsx": "見積 一", "x/2.xlsx": "見積 二", "y/3.xlsx": "見積 三" } })
      const seen: Array<unknown> = []
      const r = yield* run(f, {
        script: (_kind, request) =>
          request.path === "x/2.xlsx"
            ? searchIndex(f.paths, "見積").pipe(
                Effect.map((found) => {
                  // x/1 is done and staged, not published (x/2 of its folder is in flight).
                  seen.push(tsvText(f.paths, "A", "x/1.xlsx") === undefined, found.hits.map((h) => `${h.path}:${h.text}`))
                  return undefined
                }),
                Effect.orDie,
                Effect.provide(NodeWithWorkStore)
              )
            : Effect.succeed(undefined)
      })
      expect(r.code).toBe(0)
      expect(seen).toEqual([true, ["x/1.xlsx:見積 一"]])
    })))

  it.effect("R15: a file that vanishes between runs is removed from the list and the body index", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a.xlsx": "x", "b.xlsx": "y" } })
      yield* run(f)
      fs.rmSync(path.join(f.folder("A"), "b.xlsx"))
      const r = yield* run(f)
      expect(r.code).toBe(0)
      expect(statuses(r.rows)).toEqual({ "A/a.xlsx": "done" })
      expect(tsvText(f.paths, "A", "b.xlsx")).toBeUndefined()
    })))

  it.effect("P1/P2/P3: progress goes crawl → ingest → finalize, is written to progress.json and keeps the end", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a.xlsx": "x", "b.xlsx": "y" } })
      const phases: Array<string> = []
      const currents: Array<string> = []
      const r = yield* run(f, {
        during: (c) =>
          c.progress.changes.pipe(
            Stream.takeUntil((p) => p.exitCode !== undefined),
            Stream.runForEach((p) => Effect.sync(() => {
              if (phases.at(-1) !== p.phase) phases.push(p.phase)
              if (p.phase === "ingest" && currents.at(-1) !== p.current) currents.push(p.current)
            })),
            Effect.fork,
            Effect.asVoid
          )
      })
      expect(r.code).toBe(0)
      expect(phases).toEqual(["crawl", "ingest", "finalize"])
      // The ingest phase's `current` names a file, none before the first is handed on (its count is the log's line).
      expect(currents[0]).toBe("")
      expect([...new Set(currents.slice(1))].sort()).toEqual(["A/a.xlsx", "A/b.xlsx"])
      const saved = JSON.parse(fs.readFileSync(f.paths.progress, "utf8")) as Progress
      expect(saved).toMatchObject({ phase: "finalize", processed: 2, remaining: 0, failed: 0, exitCode: 0 })
      expect(saved.current).toBe("インデックス作成が完了しました。（成功: 2 件 / 失敗: 0 件）")
    })))

  it.effect("R16: the gram hook gets what this round published and removed; it is skipped after a stop", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "a.xlsx": "x", "b.xlsx": "fail" } })
      const calls: Array<unknown> = []
      const channel = yield* makeChannel()
      const code = yield* runIndexer(channel, {
        work: f.paths.root, version: "test",
        workers: () => fakeWorkers([]),
        updateGram: (_paths, changes) => Effect.sync(() => calls.push(changes))
      })
      expect(code).toBe(0)
      expect(calls).toEqual([{ published: [{ index: "A", path: "a.xlsx" }], removed: [{ index: "A", path: "b.xlsx" }] }])
    })))

  it.effect("R16: a gram round hears of each done file and each publish, and is finished instead of the hook", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "x/a.xlsx": "x", "y/b.xlsx": "fail", "z/c.xlsx": "z" } })
      const events: Array<unknown> = []
      const channel = yield* makeChannel()
      const code = yield* runIndexer(channel, {
        work: f.paths.root, version: "test",
        workers: () => fakeWorkers([]),
        updateGram: () => Effect.sync(() => events.push("updateGram")),
        gramRound: () =>
          Effect.acquireRelease(
            Effect.sync(() => ({
              noted: Effect.sync(() => events.push("noted")),
              finish: (changes: unknown) => Effect.sync(() => events.push(changes)),
              close: Effect.sync(() => events.push("close"))
            })),
            () => Effect.sync(() => events.push("closed"))
          )
      })
      expect(code).toBe(0)
      // Each done file twice: staged (S1), then published.
      expect(events).toEqual([
        "noted",
        "noted",
        "noted",
        "noted",
        { published: [{ index: "A", path: "x/a.xlsx" }, { index: "A", path: "z/c.xlsx" }], removed: [{ index: "A", path: "y/b.xlsx" }] },
        "closed"
      ])
      expect(fs.readFileSync(f.paths.log, "utf8")).toMatch(/取り込み段階: \d+\.\d 秒/)
      expect(fs.readFileSync(f.paths.log, "utf8")).toMatch(/gram 索引を更新しました: \d+\.\d 秒/)
    })))

  it.effect("S1/S2: while the 2-gram round's pace holds, no file is handed over; once it lets go, the run goes on (issue 13)", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "x/a.xlsx": "x", "y/b.xlsx": "y", "z/c.xlsx": "z" } })
      const handed: Array<string> = []
      const gate = yield* Deferred.make<void>()
      const held = yield* Deferred.make<void>()
      let paces = 0
      const run = yield* Effect.fork(runIndexer(yield* makeChannel(), {
        work: f.paths.root, version: "test",
        workers: () => fakeWorkers(handed),
        gramRound: () =>
          Effect.succeed({
            noted: Effect.void,
            finish: () => Effect.void,
            close: Effect.void,
            // The first file goes at once; the round then falls behind until the gate opens.
            pace: Effect.suspend(() => (++paces === 1 ? Effect.void : Effect.zipRight(Deferred.succeed(held, undefined), Deferred.await(gate))))
          })
      }))
      // A commander that did not ask the pace would end the run here instead.
      expect(yield* Effect.raceFirst(Deferred.await(held).pipe(Effect.as("held")), Fiber.await(run).pipe(Effect.as("ended")))).toBe("held")
      expect(handed).toEqual(["plain:x/a.xlsx"])
      yield* Deferred.succeed(gate, undefined)
      expect(yield* Fiber.join(run)).toBe(0)
      expect(handed).toEqual(["plain:x/a.xlsx", "plain:y/b.xlsx", "plain:z/c.xlsx"])
    })))

  it.live("R16: when the round's thread dies mid-run, the update brings the index in line all the same (issue 20)", () =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "x/0.xlsx": "見積 零", "y/1.xlsx": "見積 壱", "z/2.xlsx": "見積 弐" } })
      let thread: { terminate: () => Promise<number> } | undefined
      let youngMb: number | undefined
      const ended = yield* Deferred.make<void>()
      // The thread is ended while y/1.xlsx is read, after x/0.xlsx was published and noted.
      const script: Script = (_kind, request) =>
        request.path === "y/1.xlsx"
          ? Effect.gen(function* () {
              yield* Effect.promise(() => thread?.terminate() ?? Promise.resolve(0))
              yield* Deferred.succeed(ended, undefined)
              return undefined
            })
          : Effect.succeed(undefined)
      const code = yield* runIndexer(yield* makeChannel(), {
        work: f.paths.root, version: "test",
        workers: () => fakeWorkers([], script),
        gramRound: (p) =>
          gramRoundThread(p, {
            round: { builderMemoryBytes: 1 },
            onThread: (t) => {
              thread = t
              youngMb = t.resourceLimits?.maxYoungGenerationSizeMb
            }
          }).pipe(Effect.provide(WorkStore.Default))
      })
      expect(code).toBe(0)
      // The thread runs with a small nursery (issue 20: the process's peak).
      expect(youngMb).toBe(16)
      expect(yield* Deferred.isDone(ended)).toBe(true)
      const found = yield* searchIndex(f.paths, "見積")
      expect([found.engine, ...found.hits.map((h) => h.text).sort()]).toEqual(["gram", "見積 壱", "見積 弐", "見積 零"])
      expect(fs.readFileSync(f.paths.log, "utf8")).toMatch(/gram 索引を更新しました: 3 ファイル（うち取り込み中に 0）/)
    })), 600_000)

  // The round in the commander's thread, and on a thread of its own as the product runs it (issue 20).
  const rounds: ReadonlyArray<{ readonly name: string; readonly round: NonNullable<RunIndexerOptions["gramRound"]> }> = [
    { name: "in the commander's thread", round: (p) => openGramRound(p, { builderMemoryBytes: 1 }) },
    { name: "on its own thread", round: (p) => gramRoundThread(p, { round: { builderMemoryBytes: 1 } }).pipe(Effect.provide(WorkStore.Default)) },
    {
      name: "on its own thread, the hand-over paced every 2 changes",
      round: (p) => gramRoundThread(p, { round: { builderMemoryBytes: 1 }, tailChanges: 2 }).pipe(Effect.provide(WorkStore.Default))
    }
  ]
  it.live.each(rounds)("R16/S1: a stopped run hides nothing: every done file is found in its new version at once; the next run merges (round $name)", ({ round }) =>
    provide(Effect.gen(function* () {
      const f = yield* makeFixture({ A: { "x/0.xlsx": "見積 旧0", "y/1.xlsx": "見積 旧1", "z/2.xlsx": "見積 旧2" } })
      const options = (workers: Layer.Layer<IngestWorkers>) => ({
        work: f.paths.root, version: "test",
        workers: () => workers,
        updateGram: (p: WorkPaths, changes: RoundChanges) => updateGramIndexesOfRound(p, changes),
        // A tiny budget: every source file is written to a segment at once.
        gramRound: round
      })
      const search = (q: string) => searchIndex(f.paths, q).pipe(Effect.map((r) => [r.engine, ...r.hits.map((h) => h.text).sort()]))
      expect(yield* runIndexer(yield* makeChannel(), options(fakeWorkers([])))).toBe(0)
      expect(yield* search("見積")).toEqual(["gram", "見積 旧0", "見積 旧1", "見積 旧2"])

      // Every file changes; the run is stopped while y/1.xlsx is in flight, after x/ was published.
      for (const n of [0, 1, 2]) writeSource(f.folder("A"), `${["x", "y", "z"][n]}/${n}.xlsx`, `見積 新${n}`)
      const gate = yield* Deferred.make<void>()
      const inFlight = yield* Deferred.make<void>()
      const channel = yield* makeChannel()
      const script: Script = (_kind, request) =>
        request.path === "y/1.xlsx"
          ? Effect.gen(function* () {
              yield* Deferred.succeed(inFlight, undefined)
              yield* requestStop(channel)
              yield* Deferred.await(gate)
              yield* stage(request, "見積 新1")
              return { status: "done", tsvCount: 1, log: [] } satisfies IngestResult
            })
          : Effect.succeed(undefined)
      const stopped = yield* Effect.fork(runIndexer(channel, options(fakeWorkers([], script))))
      yield* Deferred.await(inFlight)
      // While the run waits for the file in flight: x/ (published) is found in its new version (S1).
      expect(yield* search("見積")).toEqual(["gram", "見積 新0", "見積 旧1", "見積 旧2"])
      yield* Deferred.succeed(gate, undefined)
      expect(yield* Fiber.join(stopped)).toBe(2)
      expect(statuses(yield* readIngestList(f.paths))).toEqual({ "A/x/0.xlsx": "done", "A/y/1.xlsx": "done", "A/z/2.xlsx": "pending" })
      // After the stop: both done files in their new versions; the pending one as it was.
      expect(yield* search("見積")).toEqual(["gram", "見積 新0", "見積 新1", "見積 旧2"])

      // The next run ingests z/ and merges.
      expect(yield* runIndexer(yield* makeChannel(), options(fakeWorkers([])))).toBe(0)
      expect(yield* search("見積")).toEqual(["gram", "見積 新0", "見積 新1", "見積 新2"])
      expect(fs.readFileSync(f.paths.log, "utf8")).toMatch(/gram 索引を更新しました: \d+ ファイル（うち取り込み中に \d+）/)
    })), 600_000)
})

describe("runIndexer(): the team server (issue 18)", () => {
  const team = { teamServer: { url: "postgres://indexer@db/sagasu", passwordEnv: "SAGASU_TEAM_PASSWORD", search: false } }

  it.effect("a completed run publishes every index's body index, and a run with nothing to do publishes what the server lacks", () =>
    provide(Effect.gen(function* () {
      const fixture = yield* makeFixture({ A: { "a.xlsx": "見積 A", "b.xlsx": "fail" }, B: { "c.xlsx": "山田" } }, team)
      const state = new Map<string, MemoryIndex>()
      const first = yield* run(fixture, { confirmTargets: false, teamSink: () => memorySinkLayer(state) })
      expect(first.code).toBe(0)
      expect([...state].map(([name, i]) => [name, [...i.files.keys()], i.generation])).toEqual([["A", ["a.xlsx"], 1], ["B", ["c.xlsx"], 1]])
      expect(state.get("A")?.files.get("a.xlsx")?.parts[0]?.lines).toEqual([{ loc: "A1", text: "見積 A" }])
      // The log says what went where.
      expect(fs.readFileSync(path.join(fixture.paths.root, "indexing_log.txt"), "utf8")).toContain("チームサーバーに公開しました: インデックス「A」 公開 1 件 / 削除 0 件 / 変更なし 0 件（世代 1）")
      // The server lost B (a new database): the next run, with nothing to ingest, publishes it again.
      state.delete("B")
      const second = yield* run(fixture, { confirmTargets: false, teamSink: () => memorySinkLayer(state) })
      expect(second.code).toBe(0)
      expect([...state].map(([name, i]) => [name, [...i.files.keys()], i.generation])).toEqual([["A", ["a.xlsx"], 1], ["B", ["c.xlsx"], 1]])
    })))

  it.effect("a file published into the body index is sent while the run goes on, and seen only after the flip", () =>
    provide(Effect.gen(function* () {
      const fixture = yield* makeFixture({ A: { "x/a.xlsx": "見積 A", "y/b.xlsx": "見積 B" } }, team)
      const state = new Map<string, MemoryIndex>()
      const seen: Array<string> = []
      // b waits (real time, at most 5 s) until a, published before it, has reached the server.
      const script: Script = (_kind, request) =>
        request.path !== "y/b.xlsx"
          ? Effect.succeed(undefined)
          : Effect.promise(async () => {
            for (let i = 0; i < 500 && !(state.get("A")?.sent ?? []).includes("x/a.xlsx"); i++) await new Promise((r) => setTimeout(r, 10))
            seen.push(`sent ${(state.get("A")?.sent ?? []).join(",")}; visible ${state.get("A")?.files.size ?? 0}`)
            return undefined
          })
      const result = yield* run(fixture, { confirmTargets: false, plain: 1, script, teamSink: () => memorySinkLayer(state) })
      expect(result.code).toBe(0)
      expect(seen).toEqual(["sent x/a.xlsx; visible 0"])
      expect([...(state.get("A")?.files.keys() ?? [])].sort()).toEqual(["x/a.xlsx", "y/b.xlsx"])
      // a is not sent twice: the end sends only b.
      expect(state.get("A")?.sent).toEqual(["x/a.xlsx", "y/b.xlsx"])
      expect(fs.readFileSync(path.join(fixture.paths.root, "indexing_log.txt"), "utf8")).toContain("インデックス「A」 公開 2 件 / 削除 0 件 / 変更なし 0 件（世代 1）")
    })))

  it.effect("an index another publisher holds is a warning with the lock's message; the run still ends 0", () =>
    provide(Effect.gen(function* () {
      const fixture = yield* makeFixture({ A: { "a.xlsx": "見積 A" } }, team)
      const state = new Map<string, MemoryIndex>([["A", { files: new Map(), generation: 0, held: true }]])
      const result = yield* run(fixture, { confirmTargets: false, teamSink: () => memorySinkLayer(state) })
      expect(result.code).toBe(0)
      expect(result.echoed.some((l) => l.includes("チームサーバーに公開できませんでした") && l.includes("ほかのインデックス作成が実行中です。"))).toBe(true)
      expect(state.get("A")?.files.size).toBe(0)
    })))

  it.effect("without a team server nothing is published", () =>
    provide(Effect.gen(function* () {
      const fixture = yield* makeFixture({ A: { "a.xlsx": "見積 A" } })
      const state = new Map<string, MemoryIndex>()
      const result = yield* run(fixture, { confirmTargets: false, teamSink: () => memorySinkLayer(state) })
      expect(result.code).toBe(0)
      expect(state.size).toBe(0)
    })))
})
