/**
 * Index management on disk (issue 16): the edits write `setting.config`,
 * rename and remove carry the body index, the ingest list, the origin records
 * and the 2-gram index along, and search answers for the new state at once —
 * also when a rename is run again after a crash midway.
 */
import { type IngestRow, type IndexEdit, defaultSettings } from "@sagasu/domain"
import { Effect, Either } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { makeWork, part, publish, run, tempFolder } from "./gram/_test_corpus.ts"
import { readManifestSync } from "./gram/manifest.ts"
import { scanBodyIndexFiles } from "./search_scan.ts"
import type { WorkPaths } from "./work_paths.ts"
import { WorkStore } from "./work_store.ts"
import { WorkStoreTest } from "./testing.ts"

const row = (index: string, p: string, status: IngestRow["status"] = "done"): IngestRow =>
  ({ index, path: p, size: 10, mtimeMs: 1_700_000_000_000, status, ...(status === "failed" ? { failure: { reason: "corrupt", detail: "x" } } : {}) })

/** A work folder with two indexes, A (two files, one failed, one pending) and B (one file), ingested and in the 2-gram index. */
const fixture = async () => {
  const paths = await makeWork()
  const base = tempFolder("sagasu-admin-src-")
  const folder = (name: string) => {
    const p = path.join(base, name)
    fs.mkdirSync(p, { recursive: true })
    return p
  }
  const a = folder("a")
  const b = folder("b")
  await run(WorkStore.writeSettings(paths, { ...defaultSettings, targetFolders: [{ name: "A", path: a, enabled: true }, { name: "B", path: b, enabled: true }] }))
  await publish(paths, "A", "見積/見積書.xlsx", [part("見積書", "cell", ["見積番号 A-1234", "合計"])])
  await publish(paths, "A", "報告.docx", [part("document", "paragraph", ["見積の報告"])])
  await publish(paths, "B", "見積.xlsx", [part("s", "cell", ["見積 B"])])
  await run(WorkStore.rewriteIngestList(paths, [
    row("A", "見積/見積書.xlsx"), row("A", "報告.docx"), row("A", "壊れた.xlsx", "failed"), row("A", "次.xlsx", "pending"), row("B", "見積.xlsx")
  ]))
  await run(Effect.flatMap(Effect.all([WorkStore.describeOrigin("A", a), WorkStore.describeOrigin("B", b)]), (o) => WorkStore.writeOrigins(paths, o)))
  await run(WorkStore.updateGramIndexesOfRound(paths, { published: [], removed: [] }))
  return { paths, base, folder, a, b }
}

// What search answers, as `index|path`, sorted; the same as a scan of the body index itself.
const found = async (paths: WorkPaths, query: string) => {
  const result = await run(WorkStore.searchIndexFiles(paths, query, { limit: 1000 }))
  const scanned = await run(scanBodyIndexFiles(paths, query, { limit: 1000 }))
  const keys = result.files.map((f) => `${f.index}|${f.path}`).sort()
  expect(keys).toEqual(scanned.files.map((f) => `${f.index}|${f.path}`).sort())
  return keys
}

const edit = (paths: WorkPaths, e: IndexEdit, platform?: string) =>
  run(Effect.either(WorkStore.editIndexes(paths, e, platform === undefined ? {} : { platform })))

const names = async (paths: WorkPaths) => (await run(WorkStore.readSettings(paths))).targetFolders.map((t) => `${t.name}:${t.enabled ? "on" : "off"}:${t.path}`)

describe("listIndexes()", () => {
  it("lists the settings' indexes in order with the ingest list's counts", async () => {
    const { paths, a, b } = await fixture()
    const { indexes } = await run(WorkStore.listIndexes(paths))
    expect(indexes).toEqual([
      { name: "A", path: a, enabled: true, done: 2, failed: 1, pending: 1 },
      { name: "B", path: b, enabled: true, done: 1, failed: 0, pending: 0 }
    ])
  })
})

describe("editIndexes(): add, enable, move (setting.config only)", () => {
  it("adds a folder beside the others, also one whose name shares a prefix (/x/a vs /x/ab)", async () => {
    const { paths, folder, a, b } = await fixture()
    const ab = folder("ab")
    const r = await edit(paths, { _tag: "add", name: "AB", path: ab })
    expect(Either.isRight(r)).toBe(true)
    expect(await names(paths)).toEqual([`A:on:${a}`, `B:on:${b}`, `AB:on:${ab}`])
  })

  it.each([
    ["the same folder", (a: string) => a, "と同じです"],
    ["the same folder with a trailing slash", (a: string) => `${a}/`, "と同じです"],
    ["a folder inside it", (a: string) => path.join(a, "見積"), "の中にあります"],
    ["a folder containing it", (a: string) => path.dirname(a), "を含んでいます"]
  ])("refuses %s, naming the index and the relation", async (_, where, relation) => {
    const { paths, a } = await fixture()
    fs.mkdirSync(path.join(a, "見積"), { recursive: true })
    const before = fs.readFileSync(paths.settings, "utf8")
    const r = await edit(paths, { _tag: "add", name: "X", path: where(a) })
    expect(Either.isLeft(r) && r.left.reason).toBe("refused")
    expect(Either.isLeft(r) && r.left.message).toBe(
      `フォルダ ${where(a)} はインデックス「A」のフォルダ（${a}）${relation}。同じファイルが二重に取り込まれ、検索結果にも二度出るため、登録できません。`
    )
    expect(fs.readFileSync(paths.settings, "utf8")).toBe(before)
  })

  it("refuses a link to a registered folder (real paths), and a path that is no folder", async () => {
    const { paths, base, a } = await fixture()
    const link = path.join(base, "link-to-a")
    fs.symlinkSync(a, link)
    const r = await edit(paths, { _tag: "add", name: "X", path: link })
    expect(Either.isLeft(r) && r.left.refusal).toMatchObject({ _tag: "FolderOverlap", other: "A", relation: "same" })
    const none = path.join(base, "無い")
    const m = await edit(paths, { _tag: "add", name: "X", path: none })
    expect(Either.isLeft(m) && m.left.message).toBe(`フォルダが見つかりません: ${none}`)
  })

  it("compares without case where the platform does (macOS, Windows), with case on Linux", async () => {
    const { paths, base, a } = await fixture()
    const upper = path.join(base, "A")
    fs.mkdirSync(upper)
    const r = await edit(paths, { _tag: "add", name: "X", path: upper }, "darwin")
    expect(Either.isLeft(r) && r.left.refusal).toEqual({ _tag: "FolderOverlap", path: upper, other: "A", otherPath: a, relation: "same" })
    expect(Either.isRight(await edit(paths, { _tag: "add", name: "X", path: upper }, "linux"))).toBe(true)
  })

  it("enables and disables, in English when the settings say so", async () => {
    const { paths, a, b } = await fixture()
    expect(Either.isRight(await edit(paths, { _tag: "enable", name: "B", enabled: false }))).toBe(true)
    expect(await names(paths)).toEqual([`A:on:${a}`, `B:off:${b}`])
    await run(Effect.flatMap(WorkStore.readSettings(paths), (s) => WorkStore.writeSettings(paths, { ...s, language: "en" })))
    const r = await edit(paths, { _tag: "enable", name: "Z", enabled: true })
    expect(Either.isLeft(r) && r.left.message).toBe('There is no index named "Z".')
  })

  it("moves an index to another folder, not onto another index's; its data stays for the next run", async () => {
    const { paths, folder, b } = await fixture()
    const moved = folder("a2")
    const r = await edit(paths, { _tag: "move", name: "A", path: moved })
    expect(Either.isRight(r) && r.right.decision._tag).toBe("settings")
    expect(await names(paths)).toEqual([`A:on:${moved}`, `B:on:${b}`])
    expect(await found(paths, "見積")).toEqual(["A|報告.docx", "A|見積/見積書.xlsx", "B|見積.xlsx"])
    const onto = await edit(paths, { _tag: "move", name: "A", path: path.join(b, ".") })
    expect(Either.isLeft(onto) && onto.left.refusal).toMatchObject({ _tag: "FolderOverlap", other: "B", relation: "same" })
  })
})

describe("editIndexes(): rename and remove carry the data along (search stays consistent)", () => {
  it("rename: search, the ingest list, the origin record and the body index follow the new name", async () => {
    const { paths, a, b } = await fixture()
    expect(await found(paths, "見積")).toEqual(["A|報告.docx", "A|見積/見積書.xlsx", "B|見積.xlsx"])
    const r = await edit(paths, { _tag: "rename", from: "A", to: "営業" })
    expect(Either.isRight(r) && r.right.files).toBe(4)
    expect(await names(paths)).toEqual([`営業:on:${a}`, `B:on:${b}`])
    expect(await found(paths, "見積")).toEqual(["B|見積.xlsx", "営業|報告.docx", "営業|見積/見積書.xlsx"])
    expect(await found(paths, "A-1234")).toEqual(["営業|見積/見積書.xlsx"])
    expect((await run(WorkStore.readIngestList(paths))).map((x) => `${x.index}|${x.path}|${x.status}`).sort()).toEqual([
      "B|見積.xlsx|done", "営業|報告.docx|done", "営業|壊れた.xlsx|failed", "営業|次.xlsx|pending", "営業|見積/見積書.xlsx|done"
    ])
    expect((await run(WorkStore.readOrigins(paths))).map((o) => `${o.index}|${o.path}`).sort()).toEqual([`B|${b}`, `営業|${a}`])
    expect(fs.readdirSync(paths.index).sort()).toEqual(["B", "営業"])
  })

  it("rename run again after a crash midway finishes it (rows moved; rows and folder moved)", async () => {
    for (const crashAfter of ["rows", "folder"] as const) {
      const { paths, a, b } = await fixture()
      // The state a killed rename leaves: the settings still say A.
      const rows = await run(WorkStore.readIngestList(paths))
      await run(WorkStore.rewriteIngestList(paths, rows.map((x) => (x.index === "A" ? { ...x, index: "営業" } : x))))
      if (crashAfter === "folder") fs.renameSync(path.join(paths.index, "A"), path.join(paths.index, "営業"))
      const r = await edit(paths, { _tag: "rename", from: "A", to: "営業" })
      expect(Either.isRight(r), crashAfter).toBe(true)
      expect(await names(paths)).toEqual([`営業:on:${a}`, `B:on:${b}`])
      expect(await found(paths, "見積"), crashAfter).toEqual(["B|見積.xlsx", "営業|報告.docx", "営業|見積/見積書.xlsx"])
      expect((await run(WorkStore.listIndexes(paths))).indexes.map((i) => `${i.name}:${i.done}/${i.failed}/${i.pending}`)).toEqual(["営業:2/1/1", "B:1/0/0"])
    }
  })

  it("rename to the same name in another case keeps the data (the folder is never removed as a leftover)", async () => {
    const { paths } = await fixture()
    expect(Either.isRight(await edit(paths, { _tag: "rename", from: "A", to: "a" }))).toBe(true)
    expect(await found(paths, "見積")).toEqual(["B|見積.xlsx", "a|報告.docx", "a|見積/見積書.xlsx"])
    expect(fs.readdirSync(paths.index).sort()).toEqual(["B", "a"])
  })

  it("remove: its files leave search, the ingest list, the origins and the body index; the others stay", async () => {
    const { paths, b } = await fixture()
    const r = await edit(paths, { _tag: "remove", name: "A" })
    expect(Either.isRight(r) && r.right.files).toBe(4)
    expect(await names(paths)).toEqual([`B:on:${b}`])
    expect(await found(paths, "見積")).toEqual(["B|見積.xlsx"])
    expect(await found(paths, "A-1234")).toEqual([])
    expect((await run(WorkStore.readIngestList(paths))).map((x) => `${x.index}|${x.path}`)).toEqual(["B|見積.xlsx"])
    expect((await run(WorkStore.readOrigins(paths))).map((o) => o.index)).toEqual(["B"])
    expect(fs.readdirSync(paths.index)).toEqual(["B"])
  })

  it("remove and rename make the 2-gram update walk: folders without a row leave it too (issue 20: no in-line mark trusted)", async () => {
    for (const e of [{ _tag: "remove", name: "B" }, { _tag: "rename", from: "B", to: "営業" }] as const) {
      const { paths } = await fixture()
      // B's folder holds a file the ingest list has no row of (a row lost by hand): only a walk sees it go.
      await run(WorkStore.rewriteIngestList(paths, (await run(WorkStore.readIngestList(paths))).filter((x) => x.index !== "B")))
      const before = readManifestSync(paths.gram)!.generation
      expect(fs.existsSync(path.join(paths.gram, "in-line.json"))).toBe(true)
      expect(Either.isRight(await edit(paths, e)), e._tag).toBe(true)
      // The update walked and deleted B's doc: a new manifest (a skipped walk writes none).
      expect(readManifestSync(paths.gram)!.generation, e._tag).toBeGreaterThan(before)
    }
  })

  it("rename and remove wait for an indexing run (R3): refused while the lock is held, nothing changed", async () => {
    const { paths } = await fixture()
    const before = fs.readFileSync(paths.settings, "utf8")
    const refused = await Effect.runPromise(Effect.scoped(Effect.gen(function* () {
      yield* WorkStore.acquireLock(paths)
      return [
        yield* Effect.either(WorkStore.editIndexes(paths, { _tag: "rename", from: "A", to: "営業" })),
        yield* Effect.either(WorkStore.editIndexes(paths, { _tag: "remove", name: "B" }))
      ]
    })).pipe(Effect.provide(WorkStoreTest)))
    for (const r of refused) {
      expect(Either.isLeft(r) && r.left.reason).toBe("lock-held")
      expect(Either.isLeft(r) && r.left.message).toBe("ほかのインデックス作成が実行中です。インデックス作成が終わってから実行してください。")
    }
    expect(fs.readFileSync(paths.settings, "utf8")).toBe(before)
    expect(await found(paths, "見積")).toEqual(["A|報告.docx", "A|見積/見積書.xlsx", "B|見積.xlsx"])
  })
})
