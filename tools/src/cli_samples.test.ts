/**
 * The CLI as a user runs it, on the generated sample documents: init, add,
 * index, search (text and JSON), and clear errors for wrong use.
 */
import { NodeContext } from "@effect/platform-node"
import { scanBodyIndex, workPaths } from "@sagasu/store"
import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
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
    const r = sagasu(work, "index", "--yes")
    expect(r.err).toBe("")
    expect(r.code).toBe(0)
    expect(r.out).toContain("インデックス作成が完了しました。（成功: 4 件 / 失敗: 0 件）")
    expect(r.out).toContain("skip: サンプル/見積/~$見積書_A-1234.xlsx (owner-file)")
    expect(r.out.match(/インデックス作成が完了しました/g)).toHaveLength(1)
    const list = fs.readFileSync(workPaths(work).ingestList, "utf8")
    for (const f of files) expect(list.includes(f.path)).toBe(f.skip !== true)
  }, 600_000)

  it("finds a Japanese word and says file, sheet and cell", () => {
    const r = sagasu(work, "search", "見積番号")
    expect(r.code).toBe(0)
    expect(r.out).toContain("サンプル  見積/見積書_A-1234.xlsx  見積書!B3\n    【見積番号】 A-1234")
  }, 600_000)

  it("S2: the cold-start search prints byte for byte what the full command prints", () => {
    // The full command, as the sources run through tsx, never takes the cold-start path.
    const full = (...args: Array<string>) => {
      const r = spawnSync(process.execPath, [bin, ...args, "--work", work], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1", SAGASU_NO_BUNDLE: "1" } })
      return { code: r.status, out: r.stdout, err: r.stderr }
    }
    for (const args of [["見積"], ["inv-2024-003", "--json"], ["見積", "--limit", "2"], ["見積", "--type", "excel"], ["見積", "--index", "サンプル"], ["存在しない語"]]) {
      const cold = sagasu(work, "search", ...args)
      expect(cold, args.join(" ")).toEqual(full("search", ...args))
      expect(cold.code).toBe(0)
    }
    // The cold-start bundle holds no Effect (it would cost more than the search).
    const cache = path.join(repoRoot, "node_modules", ".cache", "sagasu")
    const bundle = fs.readdirSync(cache).find((n) => n.startsWith("search-") && n.endsWith(".mjs"))
    expect(bundle).toBeDefined()
    const text = fs.readFileSync(path.join(cache, bundle ?? ""), "utf8")
    expect(text).not.toMatch(/node_modules\/effect\//)
    expect(text.length).toBeLessThan(200_000)
  }, 600_000)

  it("prints the --json contract: index, path, location, text", () => {
    const r = sagasu(work, "search", "inv-2024-003", "--json")
    expect(r.code).toBe(0)
    const hits = JSON.parse(r.out) as Array<Record<string, string>>
    expect(hits.map((h) => [h.index, h.path, h.location, h.text])).toEqual([
      ["サンプル", "経理/請求書_2024年3月.xlsx", "請求書!B3", "INV-2024-003"],
      ["サンプル", "経理/請求書_2024年3月.xlsx", "入金予定!B1", "INV-2024-003"]
    ])
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
    expect(sagasu(work, "add", "a/b", samples).err).toContain("an index name must not contain")
  }, 600_000)

  it("ends quietly when the reader of its output goes away (search | head)", () => {
    const r = spawnSync("sh", ["-c", `"${process.execPath}" "${bin}" search 見 --limit 500 --work "${work}" | head -1`], { encoding: "utf8" })
    expect(r.stderr).toBe("")
    expect(r.stdout.split("\n").filter((l) => l !== "")).toHaveLength(1)
  }, 600_000)

  it("refuses to add a folder that does not exist, or a name twice", () => {
    expect(sagasu(work, "add", "x", path.join(base, "missing")).err).toContain("is not a folder")
    const twice = sagasu(work, "add", "サンプル", samples)
    expect(twice.code).toBe(1)
    expect(twice.err).toContain("exists already")
  }, 600_000)
})
