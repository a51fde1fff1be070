/**
 * Index management from the command line (issue 16), as a person runs it
 * (bin/sagasu.js): `add` (refusing overlapping folders), `list [--json]`,
 * `enable`, `disable`, `rename`, `remove`, `move`, each with its refusals,
 * exit 0 on success and 1 on an error, messages in Japanese (English when the
 * settings say so) and errors on stderr. Rename and remove are checked
 * through `sagasu search`: the files answer under the new name, or not at all.
 */
import type { NodeContext } from "@effect/platform-node"
import { defaultSettings } from "@sagasu/domain"
import { formatSettings } from "@sagasu/store"
import { initWorkFolder, publishSourceFolder, rewriteIngestList, stageExtraction, updateGramIndexesOfRound, NodeWithWorkStore } from "@sagasu/store/testing"
import { Effect } from "effect"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { beforeAll, describe, expect, it } from "vitest"

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "bin", "sagasu.js")
const sagasu = (work: string, ...args: Array<string>) => {
  const r = spawnSync(process.execPath, [bin, ...args, "--work", work], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } })
  return { code: r.status, out: r.stdout, err: r.stderr }
}
const run = <A, E>(effect: Effect.Effect<A, E, NodeContext.NodeContext>) => Effect.runPromise(Effect.provide(effect, NodeWithWorkStore))

const base = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-cli-indexes-"))
const folder = (name: string) => {
  const p = path.join(base, "src", name)
  fs.mkdirSync(p, { recursive: true })
  return p
}

/** A work folder with the index 共有 holding two ingested files (published as a run does), and 報告 with one. */
const ingestedWork = async (name: string) => {
  const work = path.join(base, name)
  const paths = await run(initWorkFolder(work, formatSettings(defaultSettings)))
  const share = folder(`${name}-share`)
  const reports = folder(`${name}-reports`)
  expect(sagasu(work, "add", "共有", share).code).toBe(0)
  expect(sagasu(work, "add", "報告", reports).code).toBe(0)
  let n = 0
  const publish = (index: string, rel: string, text: string) =>
    run(Effect.gen(function* () {
      const staged = path.join(paths.publish, "t", `w${n++}`)
      yield* stageExtraction(staged, { parts: [{ name: "見積書", locator: "cell", state: "visible", lines: [{ loc: "B3", text }] }] })
      yield* publishSourceFolder(paths, index, rel, staged)
    }))
  await publish("共有", "見積/見積書_A-1234.xlsx", "見積番号 A-1234")
  await publish("共有", "請求.xlsx", "見積 請求")
  await publish("報告", "報告書.xlsx", "見積の報告")
  const row = (index: string, p: string) => ({ index, path: p, size: 100, mtimeMs: 1_700_000_000_000, status: "done" as const })
  await run(rewriteIngestList(paths, [row("共有", "見積/見積書_A-1234.xlsx"), row("共有", "請求.xlsx"), row("報告", "報告書.xlsx")]))
  await run(updateGramIndexesOfRound(paths, { published: [], removed: [] }))
  return { work, share, reports }
}

const searchFiles = (work: string, query: string) => {
  const r = sagasu(work, "search", query, "--files")
  expect(r.code).toBe(0)
  return r.out.split("\n").filter((l) => l.includes("  ")).sort()
}

describe("sagasu add / list / enable / disable / move (issue 16)", () => {
  const work = path.join(base, "plain")
  const a = folder("a")
  const b = folder("b")
  const bc = folder("bc")
  fs.mkdirSync(path.join(b, "sub"), { recursive: true })

  beforeAll(async () => {
    await run(initWorkFolder(work, formatSettings(defaultSettings)))
  })

  it("init makes a work folder, and on one that is there keeps it and says so (new-user trial: it said it had prepared it again)", () => {
    const fresh = path.join(base, "init-twice")
    expect(sagasu(fresh, "init")).toEqual({ code: 0, out: `作業フォルダを用意しました: ${fresh}\n次は sagasu add 名前 フォルダ --work ${fresh} でインデックスを追加します。\n`, err: "" })
    expect(sagasu(fresh, "init").out).toBe(`作業フォルダはもう用意されています（設定とインデックスはそのままです）: ${fresh}\n次は sagasu add 名前 フォルダ --work ${fresh} でインデックスを追加します。\n`)
    expect(sagasu(fresh, "add", "A", folder("init-a")).code).toBe(0)
    const settings = fs.readFileSync(path.join(fresh, "setting.config"), "utf8")
    expect(sagasu(fresh, "init")).toEqual({
      code: 0,
      out: `作業フォルダはもう用意されています（設定とインデックスはそのままです）: ${fresh}\nインデックスは 1 個あります（sagasu list --work ${fresh} で一覧できます）。\n`,
      err: ""
    })
    expect(fs.readFileSync(path.join(fresh, "setting.config"), "utf8")).toBe(settings)
  })

  it("a work folder that is not there: each command suggests the init of that folder, with its --work (new-user trial)", () => {
    const missing = path.join(base, "not-made")
    for (const args of [["list"], ["status"], ["search", "見積"], ["index", "--yes"], ["add", "A", folder("not-made-a")]]) {
      const r = sagasu(missing, ...args)
      expect([args, r.code, r.out, r.err.split("\n")[0]]).toEqual([args, 1, "", `作業フォルダを使えません（${missing}）: フォルダがありません。sagasu init --work ${missing} で作ってください`])
    }
  })

  it("list says there are none yet; add registers, list shows them", () => {
    expect(sagasu(work, "list")).toEqual({ code: 0, out: `インデックスはまだありません。sagasu add 名前 フォルダ --work ${work} で追加してください。\n`, err: "" })
    expect(sagasu(work, "list", "--json")).toEqual({ code: 0, out: "[]\n", err: "" })
    // The next step repeats the --work the user gave (a trial's new user ran `sagasu index` without it and found nothing).
    expect(sagasu(work, "add", "A", a)).toEqual({ code: 0, out: `インデックス「A」を追加しました: ${a}\n次は sagasu index --work ${work} で取り込みます。\n`, err: "" })
    // The default work folder (SAGASU_WORK) needs no --work.
    const added = spawnSync(process.execPath, [bin, "add", "B", b], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1", SAGASU_WORK: work } })
    expect(added.stdout).toBe(`インデックス「B」を追加しました: ${b}\n次は sagasu index で取り込みます。\n`)
    // A folder whose name starts like another's is its neighbour, not inside it.
    expect(sagasu(work, "add", "BC", bc).code).toBe(0)
    expect(sagasu(work, "list")).toEqual({
      code: 0,
      // Aligned columns: names padded to BC's width, folders to bc's (one letter longer than a's and b's).
      out: `A   ${a}   済 0 / 失敗 0 / 未取り込み 0\nB   ${b}   済 0 / 失敗 0 / 未取り込み 0\nBC  ${bc}  済 0 / 失敗 0 / 未取り込み 0\n`,
      err: ""
    })
  })

  it.each([
    ["the same folder", () => b, "と同じです"],
    ["the same folder with a trailing slash", () => `${b}/`, "と同じです"],
    ["a folder inside it", () => path.join(b, "sub"), "の中にあります"],
    ["a folder containing it", () => path.dirname(b), "を含んでいます"]
  ])("add refuses %s, naming the index and the relation, exit 1", (_, where, relation) => {
    const r = sagasu(work, "add", "X", where())
    expect(r.code).toBe(1)
    expect(r.out).toBe("")
    const shown = path.resolve(where())
    const other = path.dirname(b) === shown ? "A" : "B"
    const otherPath = other === "A" ? a : b
    expect(r.err).toBe(`フォルダ ${shown} はインデックス「${other}」のフォルダ（${otherPath}）${relation}。同じファイルが二重に取り込まれ、検索結果にも二度出るため、登録できません。\n`)
  })

  it("add refuses a taken name, a bad name, a missing folder and a file, exit 1", () => {
    expect(sagasu(work, "add", "A", folder("c"))).toEqual({ code: 1, out: "", err: "「A」という名前のインデックスはもうあります。\n" })
    expect(sagasu(work, "add", "a/b", folder("c")).err).toBe(`名前に \\ / : * ? " < > | と制御文字は使えません（「.」「..」も名前にできません）: a/b\n`)
    const missing = path.join(base, "無い")
    expect(sagasu(work, "add", "X", missing)).toEqual({ code: 1, out: "", err: `フォルダが見つかりません: ${missing}\n` })
    const file = path.join(base, "見積.docx")
    fs.writeFileSync(file, "")
    expect(sagasu(work, "add", "X", file)).toEqual({ code: 1, out: "", err: `フォルダではなくファイルです: ${file}（インデックスにはフォルダを登録します）\n` })
  })

  it("disable and enable, shown in list and list --json; an unknown name exits 1", () => {
    expect(sagasu(work, "disable", "B")).toEqual({ code: 0, out: "インデックス「B」を無効にしました（sagasu index で更新しません。検索には出ます）。\n", err: "" })
    expect(sagasu(work, "list").out).toContain(`A          ${a}   済 0 / 失敗 0 / 未取り込み 0\nB（無効）  ${b}   済 0 / 失敗 0 / 未取り込み 0\n`)
    expect(JSON.parse(sagasu(work, "list", "--json").out)).toEqual([
      { name: "A", path: a, enabled: true, done: 0, failed: 0, pending: 0 },
      { name: "B", path: b, enabled: false, done: 0, failed: 0, pending: 0 },
      { name: "BC", path: bc, enabled: true, done: 0, failed: 0, pending: 0 }
    ])
    expect(sagasu(work, "enable", "B")).toEqual({ code: 0, out: "インデックス「B」を有効にしました（sagasu index で更新します）。\n", err: "" })
    expect(sagasu(work, "enable", "無い")).toEqual({ code: 1, out: "", err: "「無い」という名前のインデックスはありません。\n" })
    expect(sagasu(work, "disable", "無い").code).toBe(1)
  })

  it("move changes the folder; onto or around another index's folder is refused", () => {
    const moved = folder("a2")
    expect(sagasu(work, "move", "A", moved)).toEqual({
      code: 0, out: `インデックス「A」のフォルダを変えました: ${moved}\n次の sagasu index で、変わったファイルだけ取り込み直します。\n`, err: ""
    })
    expect(JSON.parse(sagasu(work, "list", "--json").out)[0]).toMatchObject({ name: "A", path: moved })
    const r = sagasu(work, "move", "A", path.join(b, "sub"))
    expect(r.code).toBe(1)
    expect(r.err).toBe(`フォルダ ${path.join(b, "sub")} はインデックス「B」のフォルダ（${b}）の中にあります。同じファイルが二重に取り込まれ、検索結果にも二度出るため、登録できません。\n`)
    expect(sagasu(work, "move", "無い", moved).code).toBe(1)
  })

  it("speaks English when the settings say so", () => {
    const settings = JSON.parse(fs.readFileSync(path.join(work, "setting.config"), "utf8"))
    fs.writeFileSync(path.join(work, "setting.config"), JSON.stringify({ ...settings, language: "en" }))
    expect(sagasu(work, "disable", "BC")).toEqual({ code: 0, out: 'Index "BC" is disabled (sagasu index leaves it; its files are still found).\n', err: "" })
    expect(sagasu(work, "add", "X", bc).err).toBe(
      `The folder ${bc} is the folder of index "BC" (${bc}); its files would be ingested twice and every hit shown twice, so it cannot be registered.\n`
    )
  })

  it("a work folder that cannot be used exits 1 without a stack trace", () => {
    const r = sagasu(path.join(base, "nowhere"), "list")
    expect(r.code).toBe(1)
    expect(r.err).toContain("The work folder cannot be used")
    expect(r.err).not.toMatch(/\n\s+at /)
  })
})

describe("sagasu index without --yes (R10)", () => {
  it("asks nothing when a yes would ingest nothing: no question, exit 0 (new-user trial: [y/N] over a plan of zeros)", async () => {
    const work = path.join(base, "nothing-to-ask")
    await run(initWorkFolder(work, formatSettings(defaultSettings)))
    expect(sagasu(work, "add", "空", folder("nothing-to-ask-empty")).code).toBe(0)
    // stdin is closed: a question would be declined (exit 2).
    const r = sagasu(work, "index")
    expect([r.code, r.err]).toEqual([0, ""])
    expect(r.out).not.toContain("取り込みを始めますか")
    expect(r.out).toContain("取り込みが必要なファイルはありません。")
  })

  it("declined (its input closed): the cancel on a line of its own, and no file said to be pending (new-user trial)", async () => {
    const work = path.join(base, "declined")
    await run(initWorkFolder(work, formatSettings(defaultSettings)))
    const share = folder("declined-share")
    fs.writeFileSync(path.join(share, "見積.xlsx"), "")
    expect(sagasu(work, "add", "共有", share).code).toBe(0)
    const r = sagasu(work, "index")
    expect(r.code).toBe(2)
    const lines = r.out.split("\n")
    expect(lines).toContain("取り込みを始めますか？ [y/N] ")
    expect(lines.some((l) => l.startsWith("取り込みの確認で取り消したため"))).toBe(true)
    expect(r.out).not.toContain("未取り込みの")
  })
})

describe("sagasu rename / remove carry the ingested files along (issue 16)", () => {
  it("rename: search answers under the new name at once; refusals exit 1", async () => {
    const { work } = await ingestedWork("rename")
    expect(searchFiles(work, "見積")).toEqual(["共有  見積/見積書_A-1234.xlsx", "共有  請求.xlsx", "報告  報告書.xlsx"])
    expect(sagasu(work, "rename", "共有", "営業")).toEqual({ code: 0, out: "インデックス「共有」の名前を「営業」に変えました。\n", err: "" })
    expect(searchFiles(work, "見積")).toEqual(["営業  見積/見積書_A-1234.xlsx", "営業  請求.xlsx", "報告  報告書.xlsx"])
    expect(searchFiles(work, "A-1234")).toEqual(["営業  見積/見積書_A-1234.xlsx"])
    expect(sagasu(work, "list").out.split("\n")[0]).toMatch(/^営業 {2}.* {2}済 2 \/ 失敗 0 \/ 未取り込み 0$/)
    expect(sagasu(work, "rename", "共有", "X")).toEqual({ code: 1, out: "", err: "「共有」という名前のインデックスはありません。\n" })
    expect(sagasu(work, "rename", "営業", "報告")).toEqual({ code: 1, out: "", err: "「報告」という名前のインデックスはもうあります。\n" })
    expect(sagasu(work, "rename", "営業", " 営業")).toEqual({ code: 1, out: "", err: "名前の前後に空白は使えません。\n" })
  })

  it("remove: its files leave search, the other index stays; an unknown name exits 1", async () => {
    const { work, reports } = await ingestedWork("remove")
    expect(sagasu(work, "remove", "共有")).toEqual({
      code: 0, out: "インデックス「共有」を削除しました（取り込み一覧の 2 ファイルとその本文を索引から除きました。元のファイルはそのままです）。\n", err: ""
    })
    expect(searchFiles(work, "見積")).toEqual(["報告  報告書.xlsx"])
    expect(JSON.parse(sagasu(work, "list", "--json").out)).toEqual([{ name: "報告", path: reports, enabled: true, done: 1, failed: 0, pending: 0 }])
    expect(sagasu(work, "remove", "共有")).toEqual({ code: 1, out: "", err: "「共有」という名前のインデックスはありません。\n" })
  })
})

describe("the command line's own mistakes and --work first (usage_errors.ts)", () => {
  const raw = (...args: Array<string>) => {
    const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } })
    return { code: r.status, out: r.stdout, err: r.stderr }
  }

  it("--work before the command is read as after it, as people write it", async () => {
    const { work } = await ingestedWork("work-first")
    expect(raw("--work", work, "list")).toEqual(sagasu(work, "list"))
    expect(raw(`--work=${work}`, "search", "A-1234", "--files")).toEqual({ code: 0, out: "共有  見積/見積書_A-1234.xlsx\n", err: "" })
  })

  it("an unknown command, a missing argument or an unknown option: Japanese, then English, exit 1", () => {
    const work = path.join(base, "usage")
    const wrong = raw("lst", "--work", work)
    expect(wrong.code).toBe(1)
    expect(wrong.out).toBe("")
    expect(wrong.err.split("\n")[0]).toMatch(/^「lst」というコマンドは sagasu にありません。使えるのは init、add、list、.*team です（sagasu --help）。$/)
    expect(wrong.err.split("\n")[1]).toMatch(/^Unknown command "lst" for sagasu; the commands are init, add, list, .*team \(see sagasu --help\)\.$/)
    expect(sagasu(work, "add")).toEqual({
      code: 1, out: "", err: "<NAME> を指定してください（sagasu add --help）。\nMissing argument <NAME> (see sagasu add --help).\n"
    })
    expect(sagasu(work, "index", "--onlyy", "x")).toEqual({
      code: 1,
      out: "",
      err: "「--onlyy」は sagasu index の引数にもオプションにもありません（sagasu index --help）。\n--onlyy is neither an argument nor an option of sagasu index (see sagasu index --help).\n"
    })
    expect(raw("team", "conect", "x").err.split("\n")[0]).toBe("「conect」というコマンドは sagasu team にありません。使えるのは connect、grant、revoke です（sagasu team --help）。")
  })

  it("sagasu gui stops on Ctrl+C with a closing line, exit 0", async () => {
    const work = path.join(base, "gui")
    await run(initWorkFolder(work, formatSettings(defaultSettings)))
    const child = spawn(process.execPath, [bin, "gui", "--no-open", "--work", work], { env: { ...process.env, NO_COLOR: "1" } })
    let out = ""
    let err = ""
    child.stderr.setEncoding("utf8").on("data", (d: string) => (err += d))
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))
    // Ctrl+C once the page's address is printed (the server listens), not after a guessed time.
    await new Promise<void>((resolve) =>
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        out += d
        if (out.includes("Ctrl+C")) resolve()
      })
    )
    child.kill("SIGINT")
    expect(await exited).toBe(0)
    expect(out.trimEnd().split("\n").at(-1)).toBe("Sagasu の画面を終了しました。")
    expect(err).toBe("")
  }, 60_000)
})
