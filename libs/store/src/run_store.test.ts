import { describe, expect, it } from "@effect/vitest"
import { defaultSettings, initialProgress } from "@sagasu/domain"
import { Effect, Option } from "effect"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { bodyFolderOf, publishFolder } from "./body_index.ts"
import { formatSettings } from "./settings_store.ts"
import type { StoreReadError } from "./read_error.ts"
import { rotateLogs } from "./run_log.ts"
import { type WorkPaths, keptLogs, workPaths } from "./work_paths.ts"
import { WorkStore } from "./work_store.ts"
import { TestWorkFolder, WorkStoreTest } from "./testing.ts"

const here = path.dirname(fileURLToPath(import.meta.url))
// A further work folder in a temporary folder of the test layer (the layer's own: TestWorkFolder).
const tempWork = () =>
  Effect.flatMap(TestWorkFolder, (t) => Effect.flatMap(t.tempDir, (dir) => WorkStore.initWorkFolder(dir, formatSettings(defaultSettings))))

describe("lock (R3)", () => {
  it.scoped("a second acquire in the same work folder fails with held; another folder is free", () =>
    Effect.gen(function* () {
      const a = yield* tempWork()
      const b = yield* tempWork()
      yield* WorkStore.acquireLock(a)
      expect(fs.readFileSync(path.join(a.store, "indexer.pid"), "utf8")).toBe(`${process.pid}\n`)
      const error = yield* Effect.flip(Effect.scoped(WorkStore.acquireLock(a)))
      expect(error.reason).toBe("held")
      yield* WorkStore.acquireLock(b)
    }).pipe(Effect.provide(WorkStoreTest)))

  it.scoped("is held through a symbolic link to the folder, and through the folder when taken through the link (issue 15)", () =>
    Effect.gen(function* () {
      const a = yield* tempWork()
      const link = path.join(path.dirname(a.root), `${path.basename(a.root)}-link`)
      fs.symlinkSync(a.root, link)
      yield* Effect.scoped(Effect.gen(function* () {
        yield* WorkStore.acquireLock(a)
        expect((yield* Effect.flip(Effect.scoped(WorkStore.acquireLock(workPaths(link))))).reason).toBe("held")
      }))
      yield* Effect.scoped(Effect.gen(function* () {
        yield* WorkStore.acquireLock(workPaths(link))
        expect((yield* Effect.flip(Effect.scoped(WorkStore.acquireLock(a)))).reason).toBe("held")
      }))
    }).pipe(Effect.provide(WorkStoreTest)))

  it.effect("checkWorkFolder and initWorkFolder give the real path's paths through a link (profiles, markers, issue 15)", () =>
    Effect.gen(function* () {
      const a = yield* tempWork()
      const real = fs.realpathSync(a.root)
      const link = path.join(path.dirname(a.root), `${path.basename(a.root)}-via`)
      fs.symlinkSync(a.root, link)
      expect((yield* WorkStore.checkWorkFolder(link)).tmp).toBe(path.join(real, "tmp"))
      expect((yield* WorkStore.checkWorkFolder(path.join(link, "store", ".."))).root).toBe(real)
      expect((yield* WorkStore.initWorkFolder(link, formatSettings(defaultSettings))).root).toBe(real)
    }).pipe(Effect.provide(WorkStoreTest)))

  it.effect("is released when its scope closes", () =>
    Effect.gen(function* () {
      const a = yield* tempWork()
      yield* Effect.scoped(WorkStore.acquireLock(a))
      yield* Effect.scoped(WorkStore.acquireLock(a))
      expect(fs.existsSync(path.join(a.store, "indexer.pid"))).toBe(false)
    }).pipe(Effect.provide(WorkStoreTest)))

  it.effect("is freed by the OS when the holder is killed with SIGKILL", () =>
    Effect.gen(function* () {
      const a = yield* tempWork()
      const child = spawn(process.execPath, ["--import", "tsx", path.join(here, "testdata", "hold_lock.ts"), a.root], {
        cwd: here, stdio: ["ignore", "pipe", "inherit"]
      })
      yield* Effect.promise(() => new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (d: Buffer) => d.toString().includes("locked") && resolve())
        child.on("exit", (code) => reject(new Error(`lock holder exited early (${code})`)))
      }))
      expect((yield* Effect.flip(Effect.scoped(WorkStore.acquireLock(a)))).reason).toBe("held")
      child.kill("SIGKILL")
      yield* Effect.promise(() => new Promise((resolve) => child.on("exit", resolve)))
      yield* Effect.scoped(WorkStore.acquireLock(a))
    }).pipe(Effect.provide(WorkStoreTest)), 30_000)
})

describe("run log (R4)", () => {
  it.scoped("rotates the previous log, writes a BOM, the header, warnings marked and [n/total] blocks", () =>
    Effect.gen(function* () {
      const paths = yield* tempWork()
      fs.writeFileSync(paths.log, "previous run")
      const echoed: Array<string> = []
      const log = yield* Effect.scoped(Effect.gen(function* () {
        const log = yield* WorkStore.openRunLog(paths, ["Sagasu 0.1.0", "Node v20"], (l, level, kind) => echoed.push(`${level}:${kind}:${l}`))
        yield* log.write("crawling 共有")
        yield* log.write("skip: 共有/~$a.xlsx (owner-file)", "info", "file")
        yield* log.block(3, 10, "共有/見積.xlsx: failed (corrupt: bad zip)", ["line one"], "warn")
        return log
      }))
      void log
      expect(fs.readFileSync(paths.logPrevious, "utf8")).toBe("previous run")
      expect(fs.readFileSync(paths.log, "utf8")).toBe(
        "\uFEFFSagasu 0.1.0\nNode v20\ncrawling 共有\nskip: 共有/~$a.xlsx (owner-file)\n[警告] [3/10] 共有/見積.xlsx: failed (corrupt: bad zip)\n    line one\n"
      )
      // Issue 16: a file's lines are told apart from the run's, so a terminal can leave them out.
      expect(echoed).toEqual([
        "info:run:Sagasu 0.1.0", "info:run:Node v20", "info:run:crawling 共有", "info:file:skip: 共有/~$a.xlsx (owner-file)",
        "warn:file:[3/10] 共有/見積.xlsx: failed (corrupt: bad zip)", "warn:file:    line one"
      ])
    }).pipe(Effect.provide(WorkStoreTest)))
})

describe("rotateLogs() (R4, issue 16: five runs kept)", () => {
  it.effect("moves each log one place down, drops the oldest, and skips a place that is missing", () =>
    Effect.gen(function* () {
      const paths = yield* tempWork()
      const chain = [paths.log, paths.logPrevious, ...paths.logOlder]
      expect(chain).toHaveLength(keptLogs)
      // Logs of runs 1..5 (5 the newest), without run 3's.
      chain.forEach((p, i) => { if (i !== 2) fs.writeFileSync(p, `run ${5 - i}`) })
      expect(rotateLogs(paths)).toBeUndefined()
      expect(chain.map((p) => (fs.existsSync(p) ? fs.readFileSync(p, "utf8") : null))).toEqual([null, "run 5", "run 4", null, "run 2"])
      // Run 1 was the oldest of five: gone.
      expect(fs.readdirSync(paths.root).filter((n) => n.startsWith("indexing_log")).length).toBe(3)
    }).pipe(Effect.provide(WorkStoreTest)))

  it.effect("an English run's log marks warnings [WARN]", () =>
    Effect.gen(function* () {
      const paths = yield* tempWork()
      yield* Effect.scoped(Effect.flatMap(WorkStore.openRunLog(paths, ["Sagasu 0.1.0"], () => {}, "en"), (log) => log.write("a warning", "warn")))
      expect(fs.readFileSync(paths.log, "utf8")).toBe("\uFEFFSagasu 0.1.0\n[WARN] a warning\n")
    }).pipe(Effect.provide(WorkStoreTest)))
})

describe("journal (C1, R7)", () => {
  it.effect("appends entries, survives a torn line, and resets", () =>
    Effect.gen(function* () {
      const paths = yield* tempWork()
      yield* WorkStore.appendJournal(paths, [{ _tag: "start", index: "共有", path: "a\tb.xlsx", staging: "publish/1/w1/1" }])
      fs.appendFileSync(paths.journal, "published\t共")
      yield* WorkStore.appendJournal(paths, [{ _tag: "published", index: "共有", path: "a\tb.xlsx" }, { _tag: "end" }])
      expect(yield* WorkStore.readJournal(paths)).toEqual([
        { _tag: "start", index: "共有", path: "a\tb.xlsx", staging: "publish/1/w1/1" },
        { _tag: "published", index: "共有", path: "a\tb.xlsx" },
        { _tag: "end" }
      ])
      yield* WorkStore.resetJournal(paths)
      expect(yield* WorkStore.readJournal(paths)).toEqual([])
    }).pipe(Effect.provide(WorkStoreTest)))
})

describe("progress (P2, P3)", () => {
  it.effect("is replaced whole and read back; absent or garbage reads as None", () =>
    Effect.gen(function* () {
      const paths = yield* tempWork()
      expect(yield* WorkStore.readProgress(paths)).toEqual(Option.none())
      yield* WorkStore.writeProgress(paths, { ...initialProgress, phase: "ingest", remaining: 5, current: "共有/a.xlsx" })
      expect(yield* WorkStore.readProgress(paths)).toEqual(Option.some({ ...initialProgress, phase: "ingest", remaining: 5, current: "共有/a.xlsx" }))
      fs.writeFileSync(paths.progress, "{")
      expect(yield* WorkStore.readProgress(paths)).toEqual(Option.none())
    }).pipe(Effect.provide(WorkStoreTest)))
})

describe("pending removals (R14)", () => {
  it.effect("removes the folders and clears the record; a left record is readable", () =>
    Effect.gen(function* () {
      const paths = yield* tempWork()
      const staged = path.join(paths.publish, "1", "w1", "1")
      yield* WorkStore.stageExtraction(staged, { parts: [{ name: "s", locator: "cell", state: "visible", lines: [{ loc: "A1", text: "x" }] }] })
      yield* publishFolder(staged, bodyFolderOf(paths, "共有", "d/a.xlsx"))
      yield* WorkStore.removeBodyFolders(paths, [{ index: "共有", path: "d/a.xlsx" }])
      expect(fs.existsSync(bodyFolderOf(paths, "共有", "d/a.xlsx"))).toBe(false)
      expect(yield* WorkStore.readPendingRemove(paths)).toEqual([])
      fs.writeFileSync(paths.pendingRemove, "共有\td/b.xlsx\n")
      expect(yield* WorkStore.readPendingRemove(paths)).toEqual([{ index: "共有", path: "d/b.xlsx" }])
    }).pipe(Effect.provide(WorkStoreTest)))
})

describe("origins (R11) and old layouts (R6)", () => {
  it.effect("records an index's folder identity and keeps other indexes' records", () =>
    Effect.gen(function* () {
      const paths = yield* tempWork()
      const a = yield* WorkStore.describeOrigin("A", paths.index)
      expect(a.identity).toMatch(/^\d+:\d+$/)
      yield* WorkStore.writeOrigins(paths, [a, { index: "B", path: "/gone", realPath: "", identity: "" }])
      yield* WorkStore.writeOrigins(paths, [{ ...a, path: "/moved" }])
      expect((yield* WorkStore.readOrigins(paths)).map((o) => [o.index, o.path])).toEqual([["B", "/gone"], ["A", "/moved"]])
    }).pipe(Effect.provide(WorkStoreTest)))

  it.effect("sees legacy marks and removes system_index", () =>
    Effect.gen(function* () {
      const paths = yield* tempWork()
      expect(yield* WorkStore.hasLegacyLayoutMarks(paths)).toBe(false)
      fs.writeFileSync(path.join(paths.store, "layout_legacy"), "0")
      expect(yield* WorkStore.hasLegacyLayoutMarks(paths)).toBe(true)
      fs.mkdirSync(path.join(paths.root, "system_index", "x"), { recursive: true })
      expect(yield* WorkStore.removeOldSystemIndex(paths)).toBeUndefined()
      expect(fs.existsSync(path.join(paths.root, "system_index"))).toBe(false)
    }).pipe(Effect.provide(WorkStoreTest)))
})

describe("readers of the work folder's records (issue 15, STYLE 14, R18)", () => {
  const readers = [
    ["journal", (p: WorkPaths) => p.journal, (p: WorkPaths) => WorkStore.readJournal(p)],
    ["origins", (p: WorkPaths) => p.origins, (p: WorkPaths) => WorkStore.readOrigins(p)],
    ["pending removals", (p: WorkPaths) => p.pendingRemove, (p: WorkPaths) => WorkStore.readPendingRemove(p)],
    ["progress", (p: WorkPaths) => p.progress, (p: WorkPaths) => WorkStore.readProgress(p)],
    ["ingest list", (p: WorkPaths) => p.ingestList, (p: WorkPaths) => WorkStore.readIngestList(p)]
  ] as const

  it.effect.each(readers)("%s: only a missing file reads as empty; a folder in its place (EISDIR) is a StoreReadError", ([, file, read]) =>
    Effect.gen(function* () {
      const paths = yield* tempWork()
      fs.rmSync(file(paths), { force: true })
      const empty = yield* (read(paths) as Effect.Effect<unknown, unknown, never>)
      // An absent file is empty: None for the progress, no entries for the others.
      expect(Option.isOption(empty) ? Option.isNone(empty) : Array.isArray(empty) && empty.length === 0).toBe(true)
      fs.mkdirSync(file(paths), { recursive: true })
      const error = yield* Effect.flip(read(paths) as Effect.Effect<unknown, StoreReadError, never>)
      expect(error._tag).toBe("StoreReadError")
      expect(error.reason).toBe("unreadable")
      expect(error.file).toBe(file(paths))
      expect(error.message).toContain("could not be read")
      expect(error.message).toContain("nothing was changed or deleted")
    }).pipe(Effect.provide(WorkStoreTest)))
})

