/**
 * The CLI as a user runs it, on the generated sample documents: init, add,
 * index, search (text and JSON), and clear errors for wrong use.
 */
import { NodeContext } from "@effect/platform-node"
import { messages } from "@sagasu/domain"
import { workPaths } from "@sagasu/store"
import { scanBodyIndex } from "@sagasu/store/testing"
import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { beforeAll, describe, expect, it } from "vitest"
import { repoRoot } from "./corpus.ts"
import { type SampleFile, makeSamples, parseLocation } from "./make_samples.ts"

const bin = path.join(repoRoot, "apps", "cli", "bin", "sagasu.js")
const sagasu = (work: string, ...args: Array<string>) => {
  const r = spawnSync(process.execPath, [bin, ...args, "--work", work], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

// The per-test limits are hang guards, not speeds: with both cores busy a CLI start takes seconds (issue 15 item 11).
describe("sagasu CLI on the sample documents", () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-cli-"))
  const work = path.join(base, "work")
  const samples = path.join(base, "samples")
  let files: ReadonlyArray<SampleFile> = []

  beforeAll(async () => {
    files = await makeSamples(samples)
    expect(sagasu(work, "init").code).toBe(0)
    expect(sagasu(work, "add", "サンプル", samples).code).toBe(0)
  }, 600_000)

  it("indexes the samples, skipping the lock file and the hidden file", () => {
    // --verbose: the per-file lines (issue 16: without it a run prints none).
    const r = sagasu(work, "index", "--yes", "--verbose")
    expect(r.err).toBe("")
    expect(r.code).toBe(0)
    expect(r.out).toContain("インデックス作成が完了しました。（成功: 4 件 / 失敗: 0 件）")
    expect(r.out).toContain("飛ばしました: サンプル/見積/~$見積書_A-1234.xlsx — Office が開いている間だけある作業用のファイルです（owner-file）")
    expect(r.out.match(/インデックス作成が完了しました/g)).toHaveLength(1)
    const list = fs.readFileSync(workPaths(work).ingestList, "utf8")
    for (const f of files) expect(list.includes(f.path)).toBe(f.skip !== true)
  }, 600_000)

  it("finds a Japanese word and says file, sheet and cell", () => {
    const r = sagasu(work, "search", "見積番号")
    expect(r.code).toBe(0)
    // S5: the file once, with its hits, date and size, then the location and the snippet.
    expect(r.out).toMatch(/^サンプル {2}見積\/見積書_A-1234\.xlsx {2}\(1 件 · \d{4}-\d{2}-\d{2} · \d+ KB\)\n {2}見積書!B3\n {4}【見積番号】 A-1234\n/)
    expect(r.out).toContain("1 件（1 ファイル）: 1〜1 ファイル目\n")
  }, 600_000)

  it("S2: the cold-start search prints byte for byte what the full command prints", async () => {
    // Each case blocks this worker for seconds (spawnSync): let vitest's messages through between them.
    const breathe = () => new Promise<void>((resolve) => setImmediate(resolve))
    // The full command, as the sources run through tsx, never takes the cold-start path.
    const full = (...args: Array<string>) => {
      const r = spawnSync(process.execPath, [bin, ...args, "--work", work], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1", SAGASU_NO_BUNDLE: "1" } })
      return { code: r.status, out: r.stdout, err: r.stderr }
    }
    for (const args of [
      ["見積"], ["inv-2024-003", "--json"], ["見積", "--limit", "2"], ["見積", "--type", "excel"], ["見積", "--index", "サンプル"], ["存在しない語"],
      // Issue 14: several words and an excluded one, paging, one line per file.
      ["山田", "決定事項", "-テンプレート"], ["見積", "--limit", "1", "--offset", "1"], ["見積", "--files"],
      // Issue 16: the context of the hits, read from the body index by both paths.
      ["LCD", "山田", "--context"], ["120000", "--json", "--context"],
      // A repeated --type (either type), and nothing found inside the options that narrowed the search.
      ["山田", "--type", "docx", "--type", "pptx"], ["見積", "--folder", "nope", "--since", "2030-01-01"]
    ]) {
      const cold = sagasu(work, "search", ...args)
      expect(cold, args.join(" ")).toEqual(full("search", ...args))
      expect(cold.code).toBe(0)
      await breathe()
    }
    const filesOf = (...args: Array<string>) => sagasu(work, "search", "山田", "--files", ...args).out.split("\n").filter((l) => l !== "")
    const docx = filesOf("--type", "docx")
    const pptx = filesOf("--type", "pptx")
    expect(docx.length * pptx.length, "the samples hold 山田 in both types").toBeGreaterThan(0)
    expect(new Set(filesOf("--type", "docx", "--type", "pptx"))).toEqual(new Set([...docx, ...pptx]))
    expect(sagasu(work, "search", "見積", "--folder", "nope", "--since", "2030-01-01").out).toBe(
      "「見積」は見つかりませんでした。\n絞り込み（--folder nope --since 2030-01-01）の中を探しました。外すと、すべてのファイルから探します。\n"
    )
    // A wrong option: the cold path hands it over, so the message and the exit code are the full command's.
    for (const args of [["見積", "--type", "foo"], ["見積", "--index", "nope"]]) {
      const cold = sagasu(work, "search", ...args)
      expect(cold, args.join(" ")).toEqual(full("search", ...args))
      expect(cold.code).toBe(1)
      await breathe()
    }
    // The cold-start bundle holds no Effect (it would cost more than the search).
    const cache = path.join(repoRoot, "node_modules", ".cache", "sagasu")
    const bundle = fs.readdirSync(cache).find((n) => n.startsWith("search-") && n.endsWith(".cjs"))
    expect(bundle).toBeDefined()
    const text = fs.readFileSync(path.join(cache, bundle ?? ""), "utf8")
    expect(text).not.toMatch(/node_modules\/effect\//)
    // Its code stays small; esbuild's `// path` line before each module names the checkout's folder
    // (longer in one clone than another), so those lines are not counted. 202 kB at 2026-12-03, of which
    // the message catalogue (both languages) is 61 kB; 210 kB at 2026-12-07 (normalize.ts's unit table for
    // long texts, the catalogue's exclusions hint); an Effect module alone would be more than the margin.
    expect(text.replace(/^\/\/ .*\n/gm, "").length).toBeLessThan(216_000)
    // Issue 13: it runs compiled from V8's code cache beside it, written by the first search that answered.
    const caches = () => fs.readdirSync(cache).filter((n) => n.startsWith(`${(bundle ?? "").replace(/\.cjs$/, "")}-`) && n.endsWith(".v8cache"))
    expect(caches()).toEqual([`${(bundle ?? "").replace(/\.cjs$/, "")}-${fs.statSync(path.join(cache, bundle ?? "")).size}-${Math.trunc(fs.statSync(path.join(cache, bundle ?? "")).mtimeMs)}-v8-${process.versions.v8}-${process.arch}.v8cache`])
    const cacheFile = path.join(cache, caches()[0] ?? "")
    const expected = full("search", "見積番号")
    // Taken as it is: not written again.
    const written = fs.statSync(cacheFile).mtimeMs
    expect(sagasu(work, "search", "見積番号")).toEqual(expected)
    expect(fs.statSync(cacheFile).mtimeMs).toBe(written)
    // A damaged cache (V8 rejects it) costs the compile once and is written anew; the output is the same.
    const good = fs.readFileSync(cacheFile)
    fs.writeFileSync(cacheFile, Buffer.alloc(good.length, 0x5a))
    expect(sagasu(work, "search", "見積番号")).toEqual(expected)
    expect(fs.readFileSync(cacheFile).equals(Buffer.alloc(good.length, 0x5a))).toBe(false)
    fs.writeFileSync(cacheFile, good.subarray(0, 100))
    expect(sagasu(work, "search", "見積番号")).toEqual(expected)
    expect(fs.statSync(cacheFile).size).toBeGreaterThan(100)
    // `--work W` before the command takes the cold path too: only that path writes the code cache, which
    // is gone here. (Before, the full command answered it: the same output, 0.65 s instead of 0.18 s.)
    fs.rmSync(cacheFile)
    const before = spawnSync(process.execPath, [bin, "--work", work, "search", "見積番号"], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } })
    expect({ code: before.status, out: before.stdout, err: before.stderr }).toEqual(expected)
    expect(fs.existsSync(cacheFile)).toBe(true)
    // A hang guard, not a speed limit: each case starts the full command through tsx, seconds each on two busy cores.
  }, 600_000)

  it("prints the --json contract: one object per file with its best location's fields, hits, modified, size and locations", () => {
    const r = sagasu(work, "search", "inv-2024-003", "--json")
    expect(r.code).toBe(0)
    const files = JSON.parse(r.out) as Array<Record<string, unknown> & { locations: Array<Record<string, string>> }>
    expect(files.map((f) => [f.index, f.path, f.location, f.text, f.hits])).toEqual([
      ["サンプル", "経理/請求書_2024年3月.xlsx", "請求書!B3", "INV-2024-003", 3]
    ])
    expect(files[0]?.modified).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    expect(files[0]?.size).toBe(fs.statSync(path.join(samples, "経理", "請求書_2024年3月.xlsx")).size)
    // Issue 16: the full path and its file:// URL, so a script opens the file without reading the settings.
    expect(files[0]?.absolutePath).toBe(path.join(samples, "経理", "請求書_2024年3月.xlsx"))
    expect(files[0]?.url).toBe(pathToFileURL(path.join(samples, "経理", "請求書_2024年3月.xlsx")).href)
    expect(files[0]?.url).toMatch(/^file:\/\/\/.*\/%E7%B5%8C%E7%90%86\/%E8%AB%8B%E6%B1%82%E6%9B%B8_2024%E5%B9%B43%E6%9C%88\.xlsx$/)
    expect(files[0]?.locations.map((h) => [h.index, h.path, h.location, h.text])).toEqual([
      ["サンプル", "経理/請求書_2024年3月.xlsx", "請求書!B3", "INV-2024-003"],
      ["サンプル", "経理/請求書_2024年3月.xlsx", "入金予定!B1", "INV-2024-003"],
      // S4: the workbook's title (docProps) holds it too.
      ["サンプル", "経理/請求書_2024年3月.xlsx", "property:title", "請求書 INV-2024-003"]
    ])
  }, 600_000)

  it("issue 16 (S5): --context shows a cell's headings, a paragraph's neighbours, a slide's title; --json gains a context per location only with it", () => {
    const r = sagasu(work, "search", "LCD", "--context")
    expect(r.code).toBe(0)
    expect(r.out).toContain("  見積書!C9  列: 型番 / 行: 液晶モニター 24型\n    【LCD】-24W\n")
    const doc = sagasu(work, "search", "山田", "--context")
    expect(doc.out).toContain("  ¶4\n    前: 場所：本社 3F 会議室A\n    出席者：【山田】、佐藤\n    次: 議題：新製品「サガス」の発売準備について\n")
    expect(doc.out).toContain("  スライド 3  タイトル: 価格とスケジュール\n    お問い合わせ：営業部 【山田】\n")
    // Without --context: the output as before (no context line).
    expect(sagasu(work, "search", "LCD").out).toMatch(/\n {2}見積書!C9\n {4}【LCD】-24W\n/)

    type Located = Record<string, unknown> & { location: string; context?: unknown }
    const json = JSON.parse(sagasu(work, "search", "120000", "--json", "--context").out) as Array<{ locations: Array<Located> } & Record<string, unknown>>
    const e8 = json[0]?.locations.find((h) => h.location === "見積書!E8")
    expect(e8?.context).toEqual({
      kind: "cell",
      column: { loc: "E7", text: "単価" },
      row: { loc: "C8", text: "NB-2024X" },
      left: { loc: "D8", text: "10" },
      right: { loc: "F8", text: "1200000" },
      above: { loc: "E7", text: "単価" },
      below: { loc: "E9", text: "28000" }
    })
    // The file's own fields (its best location's) stay as they are; a name hit's context is null.
    expect(json[0]).not.toHaveProperty("context")
    const names = JSON.parse(sagasu(work, "search", "見積", "--json", "--context").out) as Array<{ locations: Array<Located> }>
    expect(names[0]?.locations.find((h) => h.location === "name")?.context).toBeNull()
    // The default --json has no context member at all.
    const plain = JSON.parse(sagasu(work, "search", "120000", "--json").out) as Array<{ locations: Array<Located> }>
    expect(plain[0]?.locations.every((h) => !("context" in h))).toBe(true)
  }, 600_000)

  it("issue 14 (S3, S4, S5): words anywhere in the file, -word, names and properties, paging, and wrong options told apart", async () => {
    const filesOf = async (...args: Array<string>) => {
      // Let vitest's messages through between the processes this worker waits for.
      await new Promise<void>((resolve) => setImmediate(resolve))
      const r = sagasu(work, "search", ...args, "--files")
      expect(r.code, args.join(" ")).toBe(0)
      return r.out.split("\n").filter((l) => l !== "")
    }
    // S3: words in different paragraphs of one document, as several arguments.
    expect(await filesOf("山田", "決定事項")).toEqual(["サンプル  議事録/定例会議_議事録.docx"])
    // S3: an excluded word removes the file; after --, a first word may start with -.
    expect(await filesOf("見積")).toEqual(["サンプル  見積/見積書_A-1234.xlsx", "サンプル  議事録/定例会議_議事録.docx"])
    expect(await filesOf("見積", "-テンプレート")).toEqual(["サンプル  見積/見積書_A-1234.xlsx"])
    const dash = spawnSync(process.execPath, [bin, "search", "--work", work, "--files", "--", "-テンプレート", "見積"], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } })
    expect([dash.status, dash.stdout]).toEqual([0, "サンプル  見積/見積書_A-1234.xlsx\n"])
    // A first word that starts with - needs no --, and options may follow it: the cold path (search
    // first) and the full command (--work before the command) read them alike, JSON and all.
    for (const args of [["search", "-テンプレート", "見積", "--files", "--work", work], ["--work", work, "search", "-テンプレート", "見積", "--json"]]) {
      const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } })
      expect(r.status, args.join(" ")).toBe(0)
      expect(args.includes("--json") ? (JSON.parse(r.stdout) as Array<{ path: string }>).map((f) => f.path) : r.stdout).toEqual(
        args.includes("--json") ? ["見積/見積書_A-1234.xlsx"] : "サンプル  見積/見積書_A-1234.xlsx\n"
      )
    }
    // S3: Japanese brackets are text: 「サガス」 as it stands in the minutes.
    expect(await filesOf("新製品「サガス」の発売準備")).toEqual(["サンプル  議事録/定例会議_議事録.docx"])
    // S4: a file name fragment, a folder name, a document title and company (docProps), a date as typed.
    expect(await filesOf("A-1234")).toContain("サンプル  見積/見積書_A-1234.xlsx")
    expect(await filesOf("議事録", "定例")).toEqual(["サンプル  議事録/定例会議_議事録.docx"])
    expect(await filesOf("御見積書", "A-1234")).toEqual(["サンプル  見積/見積書_A-1234.xlsx"])
    // Both hold it in their text, neither in its name: one tier of relevance, whose order is the index's (newest first).
    expect((await filesOf("株式会社サガス")).sort()).toEqual(["サンプル  経理/請求書_2024年3月.xlsx", "サンプル  見積/見積書_A-1234.xlsx"])
    // S4: the date cell shown 2024-03-31 is found as typed.
    expect(await filesOf("2024/3/31")).toEqual(["サンプル  経理/請求書_2024年3月.xlsx"])
    // S5: pages of one file each are disjoint and their union is the whole result; the totals are right.
    const whole = await filesOf("見")
    const pages: Array<Array<string>> = []
    for (let i = 0; i < whole.length; i++) pages.push(await filesOf("見", "--limit", "1", "--offset", String(i)))
    expect(pages.flat()).toEqual(whole)
    expect(new Set(pages.flat()).size).toBe(whole.length)
    const text = sagasu(work, "search", "見", "--limit", "1")
    expect(text.out).toMatch(new RegExp(`\\d+ 件（${whole.length} ファイル）: 1〜1 ファイル目（続きは --offset 1）\\n$`))
    // S5: a folder of the index, a modified date, newest first.
    expect(await filesOf("見積", "--folder", "見積")).toEqual(["サンプル  見積/見積書_A-1234.xlsx"])
    expect(await filesOf("見積", "--since", "2999-01-01")).toEqual([])
    expect(new Set(await filesOf("見積", "--until", "2999-01-01", "--sort", "modified"))).toEqual(new Set(await filesOf("見積")))
    const badSince = sagasu(work, "search", "見積", "--since", "2024-13-01")
    expect([badSince.code, badSince.out]).toEqual([1, ""])
    // A mistyped option is a mistake, not words of the query.
    const typo = sagasu(work, "search", "見積", "--limt", "5")
    expect([typo.code, typo.out]).toEqual([1, ""])
    expect(typo.err).toMatch(/^--limt という search のオプションはありません/)
    // Wrong options are mistakes, not "nothing found": exit 1, Japanese first, English second, naming the choices.
    const badType = sagasu(work, "search", "見積", "--type", "foo")
    expect([badType.code, badType.out]).toEqual([1, ""])
    expect(badType.err).toMatch(/^--type "foo" という種類はありません。使えるのは excel、word、powerpoint、legacy か、拡張子 .*xls.*です。\nUnknown --type "foo": use one of excel, word, powerpoint, legacy/)
    const badIndex = sagasu(work, "search", "見積", "--index", "nope")
    expect([badIndex.code, badIndex.out]).toEqual([1, ""])
    expect(badIndex.err).toBe("インデックス「nope」はありません。登録されているのは「サンプル」です。\nNo index \"nope\": the registered indexes are \"サンプル\".\n")
    // --type takes the legacy kinds and the groups: no xls here, so none found (exit 0), and excel finds the workbooks.
    expect(await filesOf("見積", "--type", "xls")).toEqual([])
    expect(await filesOf("見積", "--type", "excel")).toEqual(["サンプル  見積/見積書_A-1234.xlsx"])
  }, 600_000)

  it("finds every text the generator wrote, at the location it wrote it", async () => {
    const paths = workPaths(work)
    const missing: Array<string> = []
    for (const file of files.filter((f) => f.skip !== true)) {
      for (const e of file.expected.filter((x) => x.kind === "text")) {
        const { part, loc } = parseLocation(e.location)
        const { hits } = await Effect.runPromise(
          scanBodyIndex(paths, `"${e.text}"`, { index: "サンプル", path: file.path, limit: 1000 }).pipe(Effect.provide(NodeContext.layer))
        )
        if (!hits.some((h) => h.part === part && h.loc === loc && h.text === e.text)) missing.push(`${file.path} ${e.location} ${e.text}`)
      }
    }
    expect(missing).toEqual([])
  }, 600_000)

  it("a second run finds nothing to do", () => {
    const r = sagasu(work, "index", "--yes")
    expect(r.code).toBe(0)
    expect(r.out).toContain("取り込みが必要なファイルはありません。")
  }, 600_000)

  it("explains a work folder that was never initialised, without a stack trace", () => {
    const r = sagasu(path.join(base, "nowhere"), "search", "x")
    expect(r.code).toBe(1)
    expect(r.err).toContain("The work folder cannot be used")
    expect(r.err).not.toMatch(/\n\s+at /)
  }, 600_000)

  it("explains usage errors in one line, without a dump or a stack trace, exit 1", () => {
    for (const args of [["add"], ["serch", "x"], ["search", "--limit", "abc", "x"], ["gui", "--port", "80000"], ["add", "a/b", samples]]) {
      const r = sagasu(work, ...args)
      expect(r.code).toBe(1)
      expect(r.err + r.out).not.toMatch(/_tag|\n\s+at |ParseError/)
    }
    expect(sagasu(work, "add", "a/b", samples).err).toContain("名前に \\ / : * ? \" < > | と制御文字は使えません")
    // Words that are only spaces, half- or full-width, are no words: said as the missing word is, on both paths.
    const none = sagasu(work, "search")
    expect(none.code).toBe(1)
    expect(none.err).toMatch(/^<WORD> を指定してください/)
    for (const blank of ["", " ", "\u3000"]) expect(sagasu(work, "search", blank), JSON.stringify(blank)).toEqual(none)
    expect(spawnSync(process.execPath, [bin, "--work", work, "search", " ", "--json"], { encoding: "utf8" }).status).toBe(1)
    // `--work=` names no folder: said as for the other commands, not the current folder searched instead.
    const emptyWork = spawnSync(process.execPath, [bin, "search", "見積", "--work="], { encoding: "utf8", cwd: samples })
    expect([emptyWork.status, emptyWork.stderr]).toEqual([1, `${messages("ja").cliWorkValue}\n${messages("en").cliWorkValue}\n`])
    expect(spawnSync(process.execPath, [bin, "list", "--work="], { encoding: "utf8", cwd: samples }).stderr).toBe(emptyWork.stderr)
  }, 600_000)

  it("ends quietly when the reader of its output goes away (search | head)", () => {
    const r = spawnSync("sh", ["-c", `"${process.execPath}" "${bin}" search 見 --limit 500 --work "${work}" | head -1`], { encoding: "utf8" })
    expect(r.stderr).toBe("")
    expect(r.stdout.split("\n").filter((l) => l !== "")).toHaveLength(1)
  }, 600_000)

  it("refuses to add a folder that does not exist, a name twice, or the folder of another index (issue 16)", () => {
    expect(sagasu(work, "add", "x", path.join(base, "missing")).err).toBe(`フォルダが見つかりません: ${path.join(base, "missing")}\n`)
    const twice = sagasu(work, "add", "サンプル", samples)
    expect(twice.code).toBe(1)
    expect(twice.err).toBe("「サンプル」という名前のインデックスはもうあります。\n")
    const inside = sagasu(work, "add", "見積", path.join(samples, "見積"))
    expect(inside.code).toBe(1)
    expect(inside.err).toContain(`はインデックス「サンプル」のフォルダ（${samples}）の中にあります。`)
  }, 600_000)
})
