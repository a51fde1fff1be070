import { NodeContext } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { posixCloudOnlyRule } from "./cloud_only.ts"
import { crawlFolder, skipReasonOfName } from "./crawl.ts"

describe("skipReasonOfName() (SPEC §5 crawl, BUG-21)", () => {
  it.each([
    ["~$見積書.xlsx", "owner-file"],
    [".~lock.見積書.xlsx#", "owner-file"],
    ["~WRL1234.tmp", "temporary"],
    ["report.TMP", "temporary"],
    [".hidden.xlsx", "hidden"],
    ["見積書.xlsx", undefined],
    ["~draft.xlsx", undefined]
  ])("%s → %s", (name, reason) => {
    expect(skipReasonOfName(name)).toBe(reason)
  })
})

describe("crawlFolder()", () => {
  it.effect("skips a name that is not valid UTF-8 as invalid-name with its bytes, not as unreadable (ENOENT) (issue 15)", () =>
    Effect.gen(function* () {
      if (process.platform !== "linux") return // only Linux lets a name hold any bytes
      const root = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-crawl-names-"))
      const bytes = (...parts: Array<string | ReadonlyArray<number>>) =>
        Buffer.concat([Buffer.from(root + "/"), ...parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p)))])
      fs.writeFileSync(bytes("見積", [0x8c, 0xa9], ".xlsx"), "PK") // 見積 then 見 (0x8ca9) in Shift_JIS
      fs.mkdirSync(bytes("フォルダ", [0xff]))
      fs.writeFileSync(path.join(root, "正しい\ufffd名.xlsx"), "PK") // U+FFFD itself is valid UTF-8
      fs.writeFileSync(bytes("memo", [0xfe], ".txt"), "not Office: ignored as before")
      const result = yield* crawlFolder("共有", root)
      expect(result.files.map((f) => f.path)).toEqual(["正しい\ufffd名.xlsx"])
      expect(result.skipped.map((s) => [s.path, s.reason])).toEqual([
        ["フォルダ\ufffd", "invalid-name"],
        ["見積\ufffd\ufffd.xlsx", "invalid-name"]
      ])
      expect(result.skipped[1]?.detail).toBe(
        "the name is not valid UTF-8 (見積<8c><a9>.xlsx); it cannot be opened by name here: rename it, " +
          "or mount the share with its names in UTF-8 (e.g. iocharset=utf8)"
      )
      expect(result.skipped.map((s) => s.detail).join("\n")).not.toContain("ENOENT")
    }).pipe(Effect.provide(NodeContext.layer)))

  it.effect("lists Office files with size and mtime, skips owner/temp/hidden files, outside links, loops and FIFOs", () =>
    Effect.gen(function* () {
      const base = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-crawl-"))
      const root = path.join(base, "root")
      const outside = path.join(base, "outside")
      fs.mkdirSync(path.join(root, "sub"), { recursive: true })
      fs.mkdirSync(path.join(root, ".git"))
      fs.mkdirSync(outside)
      fs.writeFileSync(path.join(root, "見積書.xlsx"), "PK-not-really")
      fs.writeFileSync(path.join(root, "~$見積書.xlsx"), "owner")
      fs.writeFileSync(path.join(root, ".~lock.見積書.xlsx#"), "lock")
      fs.writeFileSync(path.join(root, "~WRL1234.tmp"), "tmp")
      fs.writeFileSync(path.join(root, ".hidden.xlsx"), "hidden")
      fs.writeFileSync(path.join(root, "notes.txt"), "not office")
      fs.writeFileSync(path.join(root, "sub", "議事録.docx"), "12345")
      fs.writeFileSync(path.join(outside, "secret.xlsx"), "x")
      fs.symlinkSync(outside, path.join(root, "to-outside"))
      fs.symlinkSync(root, path.join(root, "sub", "loop"))
      execFileSync("mkfifo", [path.join(root, "pipe.xlsx")])
      fs.utimesSync(path.join(root, "sub", "議事録.docx"), 1700000000, 1700000000)

      const result = yield* crawlFolder("共有", root)
      expect(result.files.map((f) => [f.path, f.size, f.cloudOnly])).toEqual([
        ["sub/議事録.docx", 5, false],
        ["見積書.xlsx", 13, false]
      ])
      expect(result.files[0]?.mtimeMs).toBe(1700000000000)
      expect(result.skipped.map((s) => [s.path, s.reason])).toEqual([
        [".git", "hidden"],
        [".hidden.xlsx", "hidden"],
        [".~lock.見積書.xlsx#", "owner-file"],
        ["pipe.xlsx", "not-a-file"],
        ["sub/loop", "loop"],
        ["to-outside", "link-outside"],
        ["~$見積書.xlsx", "owner-file"],
        ["~WRL1234.tmp", "temporary"]
      ])
    }).pipe(Effect.provide(NodeContext.layer)))

  it.effect("lists a linked folder inside the root under the link's path, and the folder itself then as a loop (R8)", () =>
    Effect.gen(function* () {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-crawl-inside-"))
      fs.mkdirSync(path.join(root, "real", "deep"), { recursive: true })
      fs.writeFileSync(path.join(root, "real", "deep", "表.xlsx"), "PK")
      fs.symlinkSync(path.join(root, "real"), path.join(root, "a-link"))
      fs.symlinkSync(path.join(root, "real", "deep", "表.xlsx"), path.join(root, "file-link.xlsx"))
      fs.symlinkSync(path.join(root, "gone"), path.join(root, "dangling.xlsx"))
      const result = yield* crawlFolder("共有", root)
      expect(result.files.map((f) => [f.path, f.size])).toEqual([["a-link/deep/表.xlsx", 2], ["file-link.xlsx", 2]])
      expect(result.skipped.map((s) => [s.path, s.reason, s.detail])).toEqual([
        ["dangling.xlsx", "unreadable", expect.stringContaining("ENOENT")],
        ["real", "loop", fs.realpathSync(path.join(root, "real"))]
      ])
    }))

  it.effect("lets the event loop run between folders once its slice is spent (issue 20: the GUI server crawls on its main thread)", () =>
    Effect.gen(function* () {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-crawl-slices-"))
      for (let i = 0; i < 20; i++) {
        fs.mkdirSync(path.join(root, `f${String(i).padStart(2, "0")}`))
        fs.writeFileSync(path.join(root, `f${String(i).padStart(2, "0")}`, "a.docx"), "PK")
      }
      // The event loop's turns, counted by a chain of immediates; each file's stat notes the count
      // it sees (the cloud-only rule is called once per file, inside the crawl).
      const turnsSeenPerFile = (sliceMs: number) =>
        Effect.gen(function* () {
          let turns = 0
          let handle = setImmediate(function turn() {
            turns++
            handle = setImmediate(turn)
          })
          const seen: Array<number> = []
          const result = yield* crawlFolder("共有", root, { sliceMs, cloudOnly: () => (seen.push(turns), false) }).pipe(
            Effect.ensuring(Effect.sync(() => clearImmediate(handle)))
          )
          return { paths: result.files.map((f) => f.path), distinct: new Set(seen).size, files: seen.length }
        })
      const sliced = yield* turnsSeenPerFile(0)
      expect(sliced.files).toBe(20)
      expect(sliced.distinct).toBe(20) // a turn of the event loop before each folder
      const whole = yield* turnsSeenPerFile(60_000)
      expect(whole.paths).toEqual(sliced.paths)
      expect(whole.distinct).toBe(1) // one slice: no turn in between
    }))

  it.effect("fails with CrawlError when the target folder is missing", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(crawlFolder("共有", path.join(os.tmpdir(), "no-such-sagasu-folder")))
      expect(error._tag).toBe("CrawlError")
      expect(error.message).toContain('index "共有"')
    }))
})

describe("posixCloudOnlyRule (SPEC §5 cloud-only)", () => {
  it("flags a sparse placeholder (size > 0, no blocks) and known placeholder names", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-cloud-"))
    const sparse = path.join(dir, "cloud.xlsx")
    execFileSync("truncate", ["-s", "40000", sparse])
    const real = path.join(dir, "real.xlsx")
    fs.writeFileSync(real, "x".repeat(40000))
    expect(posixCloudOnlyRule(fs.statSync(sparse), "cloud.xlsx")).toBe(true)
    expect(posixCloudOnlyRule(fs.statSync(real), "real.xlsx")).toBe(false)
    expect(posixCloudOnlyRule({ size: 10, blocks: 8 }, "見積.xlsx.icloud")).toBe(true)
    expect(posixCloudOnlyRule({ size: 0, blocks: 0 }, "empty.xlsx")).toBe(false)
  })
})
