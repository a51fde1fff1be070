import { FileSystem } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { type BodyPart, type IngestRow, defaultSettings } from "@sagasu/domain"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { bodyFolderOf, openStagingFolder, publishFolder } from "./body_index.ts"
import { scanBodyIndex } from "./search_scan.ts"
import { formatSettings } from "./settings_store.ts"
import { WorkStore, workStoreError } from "./work_store.ts"
import { TestWorkFolder, WorkStoreTest } from "./testing.ts"

// Another empty temporary folder of the test layer (removed with it).
const tempDir = Effect.flatMap(TestWorkFolder, (t) => t.tempDir)
const init = (root: string) => WorkStore.initWorkFolder(root, formatSettings(defaultSettings))
const row = (p: string, status: IngestRow["status"]): IngestRow => ({
  index: "共有", path: p, size: 1, mtimeMs: 2, status
})

describe("work folder (R2)", () => {
  it.effect("init creates the layout with its mark and checkWorkFolder accepts it", () =>
    Effect.gen(function* () {
      const root = (yield* tempDir)
      yield* init(root)
      expect(fs.readFileSync(path.join(root, "store", "layout_version"), "utf8")).toBe("1\n")
      expect(fs.existsSync(path.join(root, "setting.config"))).toBe(true)
      const paths = yield* WorkStore.checkWorkFolder(root)
      expect(paths.ingestList).toBe(path.join(root, "store", "ingest_list.tsv"))
    }).pipe(Effect.provide(WorkStoreTest)))

  it.effect.each([
    ["missing", (root: string) => path.join(root, "nope")],
    ["not-initialised", (root: string) => root],
    ["not-a-folder", (root: string) => { fs.writeFileSync(path.join(root, "f"), "x"); return path.join(root, "f") }]
  ] as const)("checkWorkFolder fails with %s", ([reason, make]) =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(WorkStore.checkWorkFolder(make((yield* tempDir))))
      expect(error.reason).toBe(reason)
      expect(error.message).toContain("work folder cannot be used")
    }).pipe(Effect.provide(WorkStoreTest)))

  it.effect("checkWorkFolder refuses a layout of another version", () =>
    Effect.gen(function* () {
      const root = (yield* tempDir)
      yield* init(root)
      fs.writeFileSync(path.join(root, "store", "layout_version"), "0\n")
      expect((yield* Effect.flip(WorkStore.checkWorkFolder(root))).reason).toBe("unknown-layout")
    }).pipe(Effect.provide(WorkStoreTest)))
})

describe("settings file", () => {
  it.effect("issue 16: one line per wrong field with its JSON path, never the Schema's tree; a Windows path's \\ gets a hint", () =>
    Effect.gen(function* () {
      const paths = (yield* TestWorkFolder).paths
      fs.writeFileSync(paths.settings, '{"targetFolders":[{"name":"共有","path":5,"enabled":true}],"ingestThreads":"two"}')
      const wrong = yield* Effect.flip(WorkStore.readSettings(paths))
      expect(wrong.message.split("\n")).toEqual([
        `設定ファイル ${paths.settings} の設定に誤りがあります。直してください / Settings file ${paths.settings}: some settings are wrong; fix them:`,
        "  targetFolders[0].path: 文字列（\"…\"）を書いてください（今は 5） / Expected string, actual 5",
        "  ingestThreads: 数を書いてください（今は \"two\"） / Expected number, actual \"two\""
      ])
      fs.writeFileSync(paths.settings, '{\n  "targetFolders": [{"name": "a", "path": "C:\\Users\\x", "enabled": true}]\n}')
      const json = yield* Effect.flip(WorkStore.readSettings(paths))
      expect(json.reason).toBe("invalid-json")
      expect(json.message.split("\n")[1]).toMatch(/^2 行 46 文字目 \/ line 2, column 46: Bad escaped character。Windows のパスの/)
    }).pipe(Effect.provide(WorkStoreTest)))

  it.effect.each([
    ["{ not json", "invalid-json", "not valid JSON"],
    ['{"targetFolders":[{"name":"a"}]}', "invalid", "path"],
    ['{"ingestThreads":"two"}', "invalid", "ingestThreads"]
  ] as const)("%s → %s mentioning %s", ([text, reason, mention]) =>
    Effect.gen(function* () {
      const paths = (yield* TestWorkFolder).paths
      fs.writeFileSync(paths.settings, text)
      const error = yield* Effect.flip(WorkStore.readSettings(paths))
      expect(error.reason).toBe(reason)
      expect(error.message).toContain(mention)
    }).pipe(Effect.provide(WorkStoreTest)))

  it.effect("reads a file with a BOM", () =>
    Effect.gen(function* () {
      const paths = (yield* TestWorkFolder).paths
      fs.writeFileSync(paths.settings, '\uFEFF{"targetFolders":[{"name":"共有","path":"/x"}]}')
      expect((yield* WorkStore.readSettings(paths)).targetFolders).toEqual([{ name: "共有", path: "/x", enabled: true }])
    }).pipe(Effect.provide(WorkStoreTest)))
})

describe("ingest list (C1, R15)", () => {
  it.effect("appends rows (last wins), survives a torn line and rewrites one line per file", () =>
    Effect.gen(function* () {
      const paths = (yield* TestWorkFolder).paths
      yield* WorkStore.appendIngestRows(paths, [row("a.xlsx", "pending"), row("b.xlsx", "pending")])
      fs.appendFileSync(paths.ingestList, "共有\ttorn") // a crash in the middle of a write
      yield* WorkStore.appendIngestRows(paths, [row("a.xlsx", "done")])
      expect(yield* WorkStore.readIngestList(paths)).toEqual([row("a.xlsx", "done"), row("b.xlsx", "pending")])
      yield* WorkStore.rewriteIngestList(paths, yield* WorkStore.readIngestList(paths))
      expect(fs.readFileSync(paths.ingestList, "utf8").trim().split("\n")).toHaveLength(3)
    }).pipe(Effect.provide(WorkStoreTest)))

  it.effect("a list begins with its header, also when an empty file is there (a crash before its first write)", () =>
    Effect.gen(function* () {
      const paths = (yield* TestWorkFolder).paths
      fs.writeFileSync(paths.ingestList, "")
      yield* WorkStore.appendIngestRows(paths, [row("a.xlsx", "pending")])
      yield* WorkStore.appendIngestRows(paths, [row("b.xlsx", "done")])
      expect(fs.readFileSync(paths.ingestList, "utf8")).toBe(
        "index\tpath\tsize\tmtime_ms\tstatus\treason\n共有\ta.xlsx\t1\t2\tpending\t\n\n共有\tb.xlsx\t1\t2\tdone\t\n"
      )
    }).pipe(Effect.provide(WorkStoreTest)))
})

describe("body index (C2) and scanning search", () => {
  it.effect("stages, publishes over a previous folder, finds hits and removes", () =>
    Effect.gen(function* () {
      const paths = (yield* TestWorkFolder).paths
      const stage = (text: string) =>
        WorkStore.stageExtraction(path.join(paths.publish, "1", "w1"), {
          parts: [{ name: "見積書", locator: "cell", state: "visible", lines: [{ loc: "B3", text }] }]
        })
      const target = bodyFolderOf(paths, "共有", "見積/見積書.xlsx")
      yield* stage("見積番号 A-0001")
      yield* publishFolder(path.join(paths.publish, "1", "w1"), target)
      yield* stage("見積番号 A-1234")
      yield* publishFolder(path.join(paths.publish, "1", "w1"), target)
      expect(fs.readdirSync(target)).toEqual(["1_見積書.tsv"])
      expect(fs.readdirSync(path.dirname(target))).toEqual(["見積書.xlsx"])

      // A source folder sharing the file's name keeps its own files' folders (C2).
      yield* WorkStore.stageExtraction(path.join(paths.publish, "1", "w2"), {
        parts: [{ name: "document", locator: "paragraph", state: "visible", lines: [{ loc: "1", text: "中の文書" }] }]
      })
      yield* publishFolder(path.join(paths.publish, "1", "w2"), path.join(target, "inner.docx"))
      yield* stage("見積番号 A-1234")
      yield* publishFolder(path.join(paths.publish, "1", "w1"), target)
      expect(fs.readdirSync(target).sort()).toEqual(["1_見積書.tsv", "inner.docx"])
      fs.rmSync(path.join(target, "inner.docx"), { recursive: true })
      // Nothing is left beside the folder in the body index; the old copy went to the staging area.
      expect(fs.readdirSync(path.dirname(target))).toEqual(["見積書.xlsx"])

      const { hits } = yield* scanBodyIndex(paths, "ａ-１２３４")
      expect(hits).toEqual([{
        index: "共有", path: "見積/見積書.xlsx", part: "見積書", locator: "cell", loc: "B3",
        location: "見積書!B3", text: "見積番号 A-1234", snippet: "見積番号 【A-1234】"
      }])
      expect((yield* scanBodyIndex(paths, "A-0001")).hits).toEqual([])

      yield* WorkStore.removeBodyFolder(paths, "共有", "見積/見積書.xlsx")
      const fsys = yield* FileSystem.FileSystem
      expect(yield* fsys.exists(path.join(paths.index, "共有", "見積"))).toBe(false)
      expect((yield* scanBodyIndex(paths, "A-1234")).hits).toEqual([])
    }).pipe(Effect.provide(WorkStoreTest)))
})

describe("staging folder written part by part (W1, issue 9)", () => {
  const parts: ReadonlyArray<BodyPart> = [
    { name: "見積書", locator: "cell", state: "visible", lines: [{ loc: "A1", text: "見積\t番号" }, { loc: "B2", text: "二行\n目" }, { loc: "C3", text: "a\\b" }] },
    { name: "空", locator: "cell", state: "hidden", lines: [] },
    { name: "a/b:c", locator: "cell", state: "veryHidden", lines: [{ loc: "A1", text: "最後" }] }
  ]
  const filesOf = (dir: string) => Object.fromEntries(fs.readdirSync(dir).sort().map((n) => [n, fs.readFileSync(path.join(dir, n), "utf8")]))

  it.effect("writes in batches, with a part read again from its start, the same files and bytes as stageExtraction", () =>
    Effect.gen(function* () {
      const root = (yield* tempDir)
      yield* WorkStore.stageExtraction(path.join(root, "whole"), { parts })
      const streamed = path.join(root, "streamed")
      fs.mkdirSync(streamed)
      fs.writeFileSync(path.join(streamed, "stale.tsv"), "from an earlier attempt")
      const counts = yield* Effect.scoped(
        Effect.gen(function* () {
          const folder = yield* WorkStore.openStagingFolder(streamed)
          const [first, empty, last] = parts
          if (first === undefined || empty === undefined || last === undefined) throw new Error("fixture")
          yield* folder.beginPart(first)
          expect(yield* folder.appendLines([{ loc: "Z9", text: "捨てる行" }])).toBe(Buffer.byteLength("Z9\t捨てる行\n"))
          yield* folder.restartPart
          for (const line of first.lines) yield* folder.appendLines([line])
          yield* folder.beginPart(empty)
          yield* folder.beginPart(last)
          yield* folder.appendLines([])
          yield* folder.appendLines(last.lines)
          yield* folder.endPart
          return [folder.tsvCount(), folder.bytes()] as const
        })
      )
      expect(filesOf(streamed)).toEqual(filesOf(path.join(root, "whole")))
      expect(Object.keys(filesOf(streamed))).toEqual(["1_見積書.tsv", "2_空.tsv", "3_a%2Fb%3Ac.tsv"])
      const bytes = Object.values(filesOf(streamed)).reduce((n, text) => n + Buffer.byteLength(text), 0)
      expect(counts).toEqual([3, bytes])
    }).pipe(Effect.provide(WorkStoreTest)))

  it.effect("fails with the file system's error when a TSV cannot be created", () =>
    Effect.gen(function* () {
      const dir = path.join((yield* tempDir), "staging")
      const error = yield* Effect.scoped(
        Effect.gen(function* () {
          // body_index.ts's own staging folder (the service's maps this error to a WorkStoreError).
          const folder = yield* openStagingFolder(dir)
          // A folder where the TSV should go: the open fails as a full disk or a permission would.
          fs.mkdirSync(path.join(dir, "1_S.tsv"))
          return yield* Effect.flip(folder.beginPart({ name: "S", locator: "cell", state: "visible" }))
        })
      )
      expect(error._tag).toBe("SystemError")
    }).pipe(Effect.provide(WorkStoreTest)))
})

describe("WorkStore (issue 17, R18)", () => {
  it.effect("a TSV that cannot be created is a WorkStoreError not-writable naming the staging folder, the system's words kept", () =>
    Effect.gen(function* () {
      const dir = path.join((yield* tempDir), "staging")
      const error = yield* Effect.scoped(
        Effect.gen(function* () {
          const folder = yield* WorkStore.openStagingFolder(dir)
          fs.mkdirSync(path.join(dir, "1_S.tsv"))
          return yield* Effect.flip(folder.beginPart({ name: "S", locator: "cell", state: "visible" }))
        })
      )
      expect(error._tag).toBe("WorkStoreError")
      expect(error.reason).toBe("not-writable")
      expect(error.path).toBe(dir)
      expect(error.detail).toMatch(/EISDIR/)
      expect(error.message.split("\n")[0]).toBe(`作業フォルダに書き込めませんでした（${dir}）。ディスクとフォルダの権限を確かめてから、もう一度実行してください`)
    }).pipe(Effect.provide(WorkStoreTest)))

  it("tells a full disk by the system's error code, not by its text", () => {
    const full = Object.assign(new Error("write failed"), { code: "ENOSPC" })
    expect(workStoreError("/w/store/ingest_list.tsv", { _tag: "SystemError", message: "x", cause: full }).reason).toBe("disk-full")
    expect(workStoreError("/w/store/ingest_list.tsv", new Error("ENOSPC: no space left on device")).reason).toBe("not-writable")
  })

  it.effect("the test layer's work folder is initialised and goes with the scope", () =>
    Effect.gen(function* () {
      const root = yield* Effect.scoped(
        Effect.gen(function* () {
          const { paths } = yield* TestWorkFolder
          expect((yield* WorkStore.checkWorkFolder(paths.root)).root).toBe(paths.root)
          return paths.root
        }).pipe(Effect.provide(WorkStoreTest))
      )
      expect(fs.existsSync(root)).toBe(false)
    }))
})
