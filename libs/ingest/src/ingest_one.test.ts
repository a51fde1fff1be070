/**
 * What a plain worker does with one file (W1, C2, R7, issue 9): each sheet's
 * TSV is written while the sheet is read, `.complete` last; a file that
 * fails leaves no staging folder; a worker killed halfway leaves a folder
 * without `.complete`, which no run publishes.
 */
import { describe, expect, it } from "@effect/vitest"
import { type IngestResult, defaultSettings } from "@sagasu/domain"
import { bodyFolderOf, formatSettings } from "@sagasu/store"
import { appendJournal, initWorkFolder, readIngestList, stageExtraction, writeSettings, NodeWithWorkStore } from "@sagasu/store/testing"
import { Effect, Fiber, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { makeChannel } from "./channel.ts"
import { extractFile } from "./extract.ts"
import { documentFiles, workbookFiles, worksheet, zipOf } from "./extract/_test_packages.ts"
import { ingestPlain, type IngestPlainOptions, noTextWarning, stagingCompleteMark } from "./ingest_one.ts"
import { runIndexer } from "./run_indexer.ts"
import { IngestWorkers } from "./workers.ts"

const row = (sheet: string, r: number) =>
  `<row r="${r}">${["A", "B", "C"].map((c) => `<c r="${c}${r}" t="inlineStr"><is><t>${sheet}-${c}${r}</t></is></c>`).join("")}</row>`
const rows = (sheet: string, n: number) => Array.from({ length: n }, (_, i) => row(sheet, i + 1)).join("")

/** Three sheets of 2,000 rows (a sheet streams past 8,192 cells … here past 24, with `sheetBatchLines: 3`). */
const threeSheets = (third = worksheet(rows("三", 2_000))) =>
  workbookFiles({ sheets: [{ name: "一", xml: worksheet(rows("一", 2_000)) }, { name: "二", xml: worksheet(rows("二", 2_000)) }, { name: "三", xml: third }] })

const small: IngestPlainOptions = { extract: { sheetBatchLines: 3 } }

const tempDir = () =>
  Effect.acquireRelease(
    Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-ingest-one-"))),
    (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
  )

const writeWorkbook = (dir: string, name: string, files: Record<string, string>) =>
  Effect.gen(function* () {
    const file = path.join(dir, name)
    fs.writeFileSync(file, yield* Effect.promise(() => zipOf(files)))
    return file
  })

/** A temporary folder (gone with the scope) holding the workbook `name` of `files`, and where its staging folder goes. */
const workbookToStage = (name: string, files: Record<string, string> = threeSheets()) =>
  Effect.gen(function* () {
    const dir = yield* tempDir()
    return { dir, file: yield* writeWorkbook(dir, name, files), staging: path.join(dir, "staging") }
  })

const filesOf = (dir: string) => Object.fromEntries(fs.readdirSync(dir).sort().map((n) => [n, fs.readFileSync(path.join(dir, n), "utf8")]))

describe("ingestPlain(): staging while reading (W1, C2, R7)", () => {
  it.scoped("stages each sheet as it is read: the TSVs and bytes of the whole extraction, .complete last, the same log line", () =>
    Effect.gen(function* () {
      const { dir, file, staging } = yield* workbookToStage("台帳.xlsx")
      const result = yield* ingestPlain(file, staging, small)
      expect(result).toMatchObject({ status: "done", tsvCount: 3 })
      expect(result.log).toEqual([{ _tag: "Read", parts: 3, lines: 18000, ms: expect.any(Number) }])
      yield* stageExtraction(path.join(dir, "whole"), yield* extractFile(file))
      // The mark holds the source's size and modified time (issue 14: shown and sorted by), in whole ms as
      // the stat's Date gives it (rounded; truncating mtimeMs differed by one at .5 and above).
      const info = fs.statSync(file)
      fs.writeFileSync(path.join(dir, "whole", stagingCompleteMark), `size\t${info.size}\nmodified\t${info.mtime.getTime()}\n`)
      expect(filesOf(staging)).toEqual(filesOf(path.join(dir, "whole")))
      // The mark is the newest file of the folder.
      const mtimes = fs.readdirSync(staging).map((n) => [n, fs.statSync(path.join(staging, n)).mtimeMs] as const)
      expect(Math.max(...mtimes.map(([, t]) => t))).toBe(mtimes.find(([n]) => n === stagingCompleteMark)?.[1])
    }).pipe(Effect.provide(NodeWithWorkStore)))

  it.scoped("S2: given where sieves go, a big file's sieve is written there once it is complete; a small file's is not", () =>
    Effect.gen(function* () {
      const { dir, file, staging } = yield* workbookToStage("台帳.xlsx")
      const sieves = path.join(dir, "sieves")
      const small = yield* writeWorkbook(dir, "小.xlsx", workbookFiles({ sheets: [{ name: "一", xml: worksheet(rows("一", 3)) }] }))
      expect(yield* ingestPlain(small, path.join(dir, "small"), { sieves })).toMatchObject({ status: "done" })
      expect(fs.existsSync(sieves)).toBe(false)
      // 18,000 lines, about 200 KB of TSV: past the size for a sieve.
      expect(yield* ingestPlain(file, staging, { sieves })).toMatchObject({ status: "done", tsvCount: 3 })
      const written = fs.readdirSync(sieves)
      expect(written).toHaveLength(1)
      expect(written[0]).toMatch(/^[0-9a-f]{16}\.sieve$/)
      // Nothing was added to the staging folder after its mark (its fingerprint is the one it publishes with).
      expect(fs.readdirSync(staging).sort()).toEqual([".complete", "1_一.tsv", "2_二.tsv", "3_三.tsv"])
    }).pipe(Effect.provide(NodeWithWorkStore)))

  it.scoped("a failure in the middle of sheet 3 fails the file with its reason and leaves no staging folder", () =>
    Effect.gen(function* () {
      const broken = worksheet(rows("三", 1_000) + `<row r="1001"><c r="A1001" t="inlineStr"><is><t>壊れ</t></is></c></bad>` + rows("三", 1_000))
      const { file, staging } = yield* workbookToStage("壊れ.xlsx", threeSheets(broken))
      const result = yield* ingestPlain(file, staging, small)
      expect(result.status).toBe("failed")
      expect(result.failure).toMatchObject({ reason: "corrupt", detail: expect.stringMatching(/^xl\/worksheets\/sheet3\.xml: /) })
      expect(fs.existsSync(staging)).toBe(false)
    }).pipe(Effect.provide(NodeWithWorkStore)))

  it.scoped("a sheet over maxLines fails too-large naming it; sheets each under it are all staged (maxLines per sheet)", () =>
    Effect.gen(function* () {
      const { file, staging } = yield* workbookToStage("行.xlsx")
      const over = yield* ingestPlain(file, staging, { extract: { maxLines: 5_999, sheetBatchLines: 3 } })
      expect(over).toMatchObject({ status: "failed", failure: { reason: "too-large", detail: "xl/worksheets/sheet1.xml: more than 5999 lines of text" } })
      expect(fs.existsSync(staging)).toBe(false)
      // 18,000 lines in all, 6,000 a sheet: over the old per-file limit of 6,000, under the per-sheet one.
      const under = yield* ingestPlain(file, staging, { extract: { maxLines: 6_000, sheetBatchLines: 3 } })
      expect(under).toMatchObject({ status: "done", tsvCount: 3 })
      expect(fs.readdirSync(staging).sort()).toEqual([".complete", "1_一.tsv", "2_二.tsv", "3_三.tsv"])
    }).pipe(Effect.provide(NodeWithWorkStore)))

  it.scoped("BUG-10: the staged TSVs of one file are bounded: past maxStagedBytes it fails too-large with the bound, nothing staged", () =>
    Effect.gen(function* () {
      const { file, staging } = yield* workbookToStage("大.xlsx")
      const result = yield* ingestPlain(file, staging, { ...small, maxStagedBytes: 200_000 })
      expect(result).toMatchObject({ status: "failed", failure: { reason: "too-large", detail: "staged TSVs: more than 200000 bytes of text" } })
      // The failure is its block's first line in the log (R4), said once: no note repeats it.
      expect(result.log).toEqual([])
      expect(fs.existsSync(staging)).toBe(false)
    }).pipe(Effect.provide(NodeWithWorkStore)))

  it.scoped("R18: a staging folder that cannot be written fails with the work-folder reason, not the file's", () =>
    Effect.gen(function* () {
      const { dir, file } = yield* workbookToStage("a.xlsx")
      fs.writeFileSync(path.join(dir, "not-a-folder"), "")
      const result = yield* ingestPlain(file, path.join(dir, "not-a-folder", "staging"), small)
      expect(result.status).toBe("failed")
      expect(result.failure?.reason).toBe("work-folder")
      expect(result.failure?.detail).toMatch(/^the TSVs could not be written to the work folder \(/)
    }).pipe(Effect.provide(NodeWithWorkStore)))

  it.scopedLive("issue 15 item 10: a file done with no text at all says so in its log, and its block is a warning a terminal shows; one with text is not", () =>
    Effect.gen(function* () {
      const base = yield* tempDir()
      const source = path.join(base, "src")
      fs.mkdirSync(source)
      yield* writeWorkbook(source, "空.docx", documentFiles(`<w:p><w:r><w:t xml:space="preserve">  </w:t></w:r></w:p>`))
      yield* writeWorkbook(source, "有.docx", documentFiles(`<w:p><w:r><w:t>本文</w:t></w:r></w:p>`))
      const paths = yield* initWorkFolder(path.join(base, "work"), formatSettings(defaultSettings))
      yield* writeSettings(paths, { ...defaultSettings, targetFolders: [{ name: "A", path: source, enabled: true }] })
      const results = new Map<string, IngestResult>()
      const workers = Layer.succeed(IngestWorkers, {
        slots: { plain: 1, spreadsheet: 1, document: 1, presentation: 1 },
        ingest: (_kind, request) =>
          ingestPlain(request.source, request.staging).pipe(
            Effect.tap((r: IngestResult) => results.set(request.path, r)),
            Effect.provide(NodeWithWorkStore)
          )
      })
      const echoed: Array<string> = []
      const channel = yield* makeChannel({ echo: (line, level, kind) => echoed.push(`${level}:${kind}:${line}`) })
      expect(yield* runIndexer(channel, { work: paths.root, version: "test", workers: () => workers })).toBe(0)
      // A terminal shows the warning without --verbose (kind fileAlert: no closing list repeats it); the other file's block is a plain file line.
      expect(echoed.filter((l) => l.includes("空.docx") || l.includes("文字が見つかりません"))).toEqual([
        expect.stringMatching(/^warn:fileAlert:\[\d\/2\] A\/空\.docx: 取り込みました$/),
        "warn:fileAlert:    注意: 文字が見つかりません。エラーなく読めましたが、Sagasu が読む文字が何もありません"
      ])
      expect(echoed.find((l) => l.includes("有.docx"))).toMatch(/^info:file:\[\d\/2\] A\/有\.docx: 取り込みました$/)
      expect(results.get("空.docx")).toMatchObject({ status: "done", lines: 0 })
      expect(results.get("空.docx")?.log).toContain(noTextWarning)
      expect(results.get("有.docx")).toMatchObject({ status: "done", lines: 1 })
      expect(results.get("有.docx")?.log).not.toContain(noTextWarning)
      const log = fs.readFileSync(paths.log, "utf8").split("\n")
      expect(log.find((l) => l.includes("A/空.docx: "))).toMatch(/^\[警告\] \[\d\/2\] A\/空\.docx: 取り込みました$/)
      expect(log).toContain("    注意: 文字が見つかりません。エラーなく読めましたが、Sagasu が読む文字が何もありません")
      expect(log.find((l) => l.includes("A/有.docx: "))).toMatch(/^\[\d\/2\] A\/有\.docx: 取り込みました$/)
    }).pipe(Effect.provide(NodeWithWorkStore)), 600_000)

  it.scopedLive("C2, R7: a worker stopped in the middle of sheet 3 leaves no .complete; the next run does not publish it and ingests the file again", () =>
    Effect.gen(function* () {
      const base = yield* tempDir()
      const source = path.join(base, "src")
      fs.mkdirSync(source)
      const file = yield* writeWorkbook(source, "台帳.xlsx", threeSheets(worksheet(rows("三", 20_000))))
      const paths = yield* initWorkFolder(path.join(base, "work"), formatSettings(defaultSettings))
      yield* writeSettings(paths, { ...defaultSettings, targetFolders: [{ name: "A", path: source, enabled: true }] })

      // What a killed worker leaves: a run's `start`, and sheets 1, 2 and part of 3 staged without the mark.
      const staging = path.join("publish", "99999", "w1", "1")
      const third = path.join(paths.root, staging, "3_三.tsv")
      const worker = yield* Effect.fork(ingestPlain(file, path.join(paths.root, staging), small))
      // The worker yields between pieces of a part: this fiber looks at the folder in between.
      while (!(fs.existsSync(third) && fs.statSync(third).size > 100)) yield* Effect.yieldNow()
      yield* Fiber.interrupt(worker)
      expect(fs.readdirSync(path.join(paths.root, staging)).sort()).toEqual(["1_一.tsv", "2_二.tsv", "3_三.tsv"])
      yield* appendJournal(paths, [{ _tag: "start", index: "A", path: "台帳.xlsx", staging }])

      const workers = Layer.succeed(IngestWorkers, {
        slots: { plain: 1, spreadsheet: 1, document: 1, presentation: 1 },
        ingest: (_kind, request) =>
          ingestPlain(request.source, request.staging, small).pipe(
            Effect.tap((r: IngestResult) => dispatched.push(`${r.status}:${request.path}`)),
            Effect.provide(NodeWithWorkStore)
          )
      })
      const dispatched: Array<string> = []
      const echoed: Array<string> = []
      const channel = yield* makeChannel({ echo: (line) => echoed.push(line) })
      const code = yield* runIndexer(channel, { work: paths.root, version: "test", workers: () => workers })
      expect(code).toBe(0)
      expect(echoed.some((l) => l.startsWith("復旧しました: A/台帳.xlsx"))).toBe(false)
      expect(dispatched).toEqual(["done:台帳.xlsx"])
      expect((yield* readIngestList(paths)).map((r) => r.status)).toEqual(["done"])
      const published = bodyFolderOf(paths, "A", "台帳.xlsx")
      expect(Object.keys(filesOf(published))).toEqual([".complete", "1_一.tsv", "2_二.tsv", "3_三.tsv"])
      expect(filesOf(published)["3_三.tsv"]?.trimEnd().split("\n")).toHaveLength(1 + 60_000)
      expect(fs.existsSync(path.join(paths.root, "publish", "99999"))).toBe(false)
    }).pipe(Effect.provide(NodeWithWorkStore)), 600_000)
})
