/**
 * The terminal conventions of the CLI (issue 16): `--quiet`, `--verbose` and
 * the plain progress lines off a terminal, help without colour when piped or
 * with NO_COLOR, errors on stderr, `status --failed`, and a real 80-column
 * terminal (tmux) over long Japanese paths that keeps the progress bar on one
 * line and leaves no stale bar line behind.
 */
import { displayWidth, helpText } from "@sagasu/domain"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { repoRoot } from "./corpus.ts"
import { makeTree } from "./make_tree.ts"

const bin = path.join(repoRoot, "apps", "cli", "bin", "sagasu.js")
const withoutNoColor = (): NodeJS.ProcessEnv => {
  const env = { ...process.env }
  delete env.NO_COLOR
  return env
}
const run = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" }) => {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: "utf8", env, stdio: ["ignore", "pipe", "pipe"] })
  return { code: r.status, out: r.stdout, err: r.stderr }
}
const has = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0
// Each spawnSync blocks this worker for seconds: let vitest's messages through between them.
const breathe = () => new Promise<void>((resolve) => setTimeout(resolve, 0))
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

// A progress line starts with a phase name and a space ("クロール中:" and "取り込み対象:" are log lines).
const barLine = /^(クロール|取り込み|仕上げ) /
const escape = /\x1b/

const base = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-term-"))
const broken = path.join(base, "broken")
const brokenFile = "壊れた見積書.xlsx"
// "not a zip": the bytes the reader names in the reason.
// Issue 17: the catalogue's sentence, then the code and detail.
const brokenReason = "Office のファイルではありません（名前の拡張子と中身が違います）。（not-office: neither a zip nor an OLE2 container (first bytes 6e 6f 74 20 61 20 7a 69)）"
const small = path.join(base, "small")
const longTree = path.join(base, "long")
let smallCount = 0
let longCount = 0

/** A work folder with the indexes `name → folder`. */
const makeWork = (name: string, indexes: Record<string, string>): string => {
  const work = path.join(base, name)
  expect(run(["init", "--work", work]).code).toBe(0)
  for (const [index, folder] of Object.entries(indexes)) expect(run(["add", index, folder, "--work", work]).code).toBe(0)
  return work
}

beforeAll(async () => {
  fs.mkdirSync(broken, { recursive: true })
  fs.writeFileSync(path.join(broken, brokenFile), "not a zip")
  smallCount = (await makeTree(small, { seed: 16, files: 6, minRows: 5, maxRows: 20, maxSheets: 1 })).length
  // Long Japanese names: a path of about 130 display columns, wider than the terminal.
  const made = await makeTree(path.join(base, "made"), { seed: 17, files: 30, minRows: 5, maxRows: 20, maxSheets: 1 })
  const folder = path.join(longTree, "営業部の共有フォルダ", "２０２４年度の顧客別見積書と請求書の控え（部長承認済み）")
  fs.mkdirSync(folder, { recursive: true })
  made.forEach((f, i) => {
    fs.renameSync(path.join(base, "made", ...f.path.split("/")), path.join(folder, `株式会社サンプル商事御中_御見積書_第${i + 1}版_最終確定版.${f.kind}`))
  })
  longCount = made.length
}, 600_000)

describe("sagasu help (issue 16: colour only on a terminal without NO_COLOR, examples, the query syntax, the settings' language)", () => {
  // The help speaks the language of the work folder's settings: Japanese by default, English with "en".
  let jaWork = ""
  let enWork = ""
  beforeAll(() => {
    jaWork = makeWork("help-ja", {})
    enWork = makeWork("help-en", {})
    const settings = path.join(enWork, "setting.config")
    fs.writeFileSync(settings, JSON.stringify({ ...JSON.parse(fs.readFileSync(settings, "utf8")), language: "en" }, null, 2))
  })
  const inWork = (work: string, env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" }): NodeJS.ProcessEnv => ({ ...env, SAGASU_WORK: work })
  const commands = ["init", "add", "list", "enable", "disable", "rename", "remove", "move", "index", "search", "status", "gui", "publish", "team"] as const

  it("piped: no escape codes, and search's help has its examples and query syntax", async () => {
    for (const args of [["--help"], ["index", "--help"], ["search", "--help"], ["status", "--help"]]) {
      const r = run(args, inWork(enWork, withoutNoColor()))
      expect(r.code, args.join(" ")).toBe(0)
      expect(r.out, args.join(" ")).not.toMatch(escape)
      await breathe()
    }
    const search = run(["search", "--help"], inWork(enWork, withoutNoColor())).out
    expect(search).toContain("QUERY SYNTAX")
    expect(search).toContain("-word excludes the files that contain it")
    expect(search).toContain("EXAMPLES")
    expect(search).toMatch(/^sagasu search 要件 合意 +both words in the same file$/m)
    // Repeatable options are optional, and shown so.
    expect(search).toContain("[--index text...]")
    // Only Sagasu's words: the usage names the command, and @effect/cli's filler lines are left out.
    expect(search).toMatch(/^\$ sagasu search \[--work text\]/m)
    for (const filler of ["A user-defined piece of text.", "A true or false value.", "An integer.", "This setting is optional.", "This option may be repeated", "This argument must be repeated"]) {
      expect(search).not.toContain(filler)
    }
    const index = run(["index", "--help"], inWork(enWork, withoutNoColor())).out
    expect(index).toContain("[--only text...] [(-v, --verbose)] [(-q, --quiet)]")
    // @effect/cli's built-ins are not listed (they still work); --help and --version are said in our footer.
    for (const help of [search, index, run(["--help"], inWork(enWork)).out]) {
      for (const builtIn of ["--wizard", "--completions", "--log-level"]) expect(help).not.toContain(builtIn)
      expect(help).toMatch(/^EVERY COMMAND\n\n-h, --help  show the help of the command\n--version   show the version of sagasu$/m)
    }
  }, 600_000)

  it("in the settings' language: Japanese by default (each command's summary, the headings, the footer), English with language en", async () => {
    const ja = helpText("ja")
    const top = run(["--help"], inWork(jaWork))
    expect(top.code).toBe(0)
    // One row per command with the start of its Japanese summary (the rest may wrap under it); publish and team too.
    for (const c of commands) expect(top.out).toMatch(new RegExp(`^  ${c} +${ja.summary[c].slice(0, 8)}`, "m"))
    expect(top.out).toMatch(/^ {2}search {3}すべての言葉を含むファイルを探します（空白で区切ると AND。ファイルの\n {11}どこにあってもよく、ファイル名やプロパティも探します）$/m)
    expect(top.out).toMatch(/^使い方\n\n\$ sagasu\n\n説明\n\nExcel・Word・PowerPoint のファイルを全文検索します\n\nコマンド\n/m)
    expect(top.out).toMatch(/^共通のオプション\n\n-h, --help  コマンドのヘルプを表示します\n--version   sagasu の版を表示します\n\nsagasu COMMAND --help で、/m)
    for (const english of ["USAGE", "DESCRIPTION", "COMMANDS", "EVERY COMMAND", "find files"]) expect(top.out).not.toContain(english)
    // No arguments at all is the same help.
    expect(run([], inWork(jaWork)).out).toBe(top.out)
    await breathe()

    const search = run(["search", "--help"], inWork(jaWork)).out
    expect(search).toMatch(/^検索の書き方\n\n空白（半角でも全角でも）で区切った言葉が、/m)
    expect(search).toMatch(/^sagasu search 要件 合意 +両方の言葉を含むファイル$/m)
    expect(search).toMatch(/^sagasu search 見積 --folder 営業\/2024 --since 2024-04-01 --sort modified\n {4}1 つのフォルダの 4 月以降のファイルを、新しい順に$/m)
    expect(search).toMatch(/^引数\n\n<WORD> 1\+\n\n {2}探す言葉。/m)
    expect(search).toMatch(/^--sort text\n\n {2}relevance（関連度順、既定）か modified（新しい順）$/m)
    for (const english of ["QUERY SYNTAX", "EXAMPLES", "ARGUMENTS", "OPTIONS", "This option", "This argument", "files on a page"]) expect(search).not.toContain(english)
    await breathe()

    // `team --help` lists team's own subcommands, and a subcommand's usage names team.
    const team = run(["team", "--help"], inWork(jaWork)).out
    expect(team).toMatch(new RegExp(`^コマンド\\n\\n  connect  ${ja.summary.connect.slice(0, 10)}`, "m"))
    expect(team).toMatch(/^ {2}revoke {3}データベースのロールが、/m)
    expect(team).not.toMatch(/^ {2}init /m)
    // Its footer points at its subcommands' help.
    expect(team).toMatch(/^sagasu team COMMAND --help で、/m)
    expect(run(["team", "connect", "--help"], inWork(jaWork)).out).toMatch(/^\$ sagasu team connect \[--work text\]/m)
    await breathe()

    // --work names the folder whose settings count; a missing or broken settings file: Japanese.
    expect(run(["search", "--help", "--work", jaWork], inWork(enWork)).out).toContain("検索の書き方")
    expect(run(["search", "--help", "--work", enWork], inWork(jaWork)).out).toContain("QUERY SYNTAX")
    const broken = makeWork("help-broken", {})
    fs.writeFileSync(path.join(broken, "setting.config"), '{"language": "en",')
    expect(run(["--help"], inWork(broken)).out).toContain("使い方")
    expect(run(["--help"], inWork(path.join(base, "no-such-work"))).out).toContain("使い方")
    const en = run(["--help"], inWork(enWork)).out
    expect(en).toMatch(/^ {2}search {3}find files holding every word \(space = AND, anywhere in the file,\n {11}names and properties too\)$/m)
    expect(en).toMatch(/^ {2}team {5}the team server: connect a work folder to it; grant or revoke who$/m)
  }, 600_000)

  it("every help fits 80 columns, in Japanese (two columns a character) and English: no line wider than 79 display columns", async () => {
    for (const work of [jaWork, enWork]) {
      for (const args of [["--help"], ...[...commands, "team connect", "team grant", "team revoke"].map((c) => [...c.split(" "), "--help"])]) {
        const r = run(args, inWork(work))
        expect(r.code, args.join(" ")).toBe(0)
        const wide = r.out.split("\n").filter((l) => displayWidth(l) > 79)
        expect(wide, `${work}: ${args.join(" ")}`).toEqual([])
        await breathe()
      }
    }
    // The examples of search keep their two columns where they fit, and go under a long command.
    const search = run(["search", "--help"], inWork(enWork)).out
    expect(search).toMatch(/^sagasu search 見積 --folder 営業\/2024 --since 2024-04-01 --sort modified\n {4}newest first, one folder, since April$/m)
  }, 600_000)

  it.skipIf(!has("script"))("on a terminal: coloured, and with NO_COLOR=1 not", () => {
    // script(1) gives the command a terminal; its output is the terminal's.
    const onTty = (env: NodeJS.ProcessEnv) =>
      spawnSync("script", ["-qec", `"${process.execPath}" "${bin}" search --help`, "/dev/null"], { encoding: "utf8", env: inWork(enWork, env) }).stdout
    // The control: @effect/cli does colour its help on a terminal, so the next check means something.
    expect(onTty(withoutNoColor())).toMatch(escape)
    const plain = onTty({ ...process.env, NO_COLOR: "1" })
    expect(plain).toContain("QUERY SYNTAX")
    expect(plain).not.toMatch(escape)
  }, 600_000)
})

describe("sagasu index output (issue 16: --quiet, --verbose, plain progress off a terminal, errors on stderr)", () => {
  it("--quiet prints only how the run ended, with the failed file and its reason", () => {
    const work = makeWork("quiet", { 小: small, 壊れ: broken })
    const r = run(["index", "--yes", "--quiet", "--work", work])
    expect(r.code).toBe(0)
    expect(r.err).toBe("")
    expect(r.out).toBe(
      `インデックス作成が完了しました。（成功: ${smallCount} 件 / 失敗: 1 件）\n失敗したファイルと原因:\n  壊れ/${brokenFile}: ${brokenReason}\n`
    )
    // Nothing to do the next time, the broken file still failed: where to see why and how to retry (R9, R12).
    const again = run(["index", "--yes", "--quiet", "--work", work])
    expect([again.code, again.err]).toEqual([0, ""])
    expect(again.out).toBe(
      "取り込みが必要なファイルはありません。\n" +
        `前回失敗した 1 件は取り込み直していません（原因は sagasu status --failed --work ${work}）。直したら sagasu index --retry-failed --work ${work} で取り込み直します。\n`
    )
  }, 600_000)

  it("off a terminal: no per-file lines and no redraw, a plain progress line at each tenth up to 100 %", () => {
    const work = makeWork("plain", { 小: small })
    const r = run(["index", "--yes", "--work", work])
    expect(r.code).toBe(0)
    expect(r.err).toBe("")
    expect(r.out).not.toMatch(/\r|\x1b/)
    expect(r.out).not.toMatch(/^\[\d+\/\d+\] /m)
    expect(r.out).toContain(`取り込み対象: ${smallCount} 件`)
    const progress = r.out.split("\n").filter((l) => barLine.test(l))
    // At 0 %, then at each new tenth: 6 files give 0, 1 (16 %), 3 (33 %), 5 (50 %), 6 (66 %), 8 (83 %), 10 (100 %)
    // at most; a slow result may cover two tenths at once, so only the order and the ends are fixed.
    // Nothing in the path's place before a file is handed on (it showed 「取り込み対象: 6 件」, the line above it).
    expect(progress[0]).toMatch(new RegExp(`^取り込み 0/${smallCount} 0%  経過 \\d+:\\d\\d$`))
    // The rate (and so the ETA) shows once the ingest has lasted long enough to count one: a fast run has none.
    expect(progress.at(-1)).toMatch(new RegExp(`^取り込み ${smallCount}/${smallCount} 100%  経過 \\d+:\\d\\d(?: [\\d.]+ 件/秒 残り約 0:00)?  小/`))
    const done = progress.map((l) => Number(/^取り込み (\d+)\//.exec(l)?.[1]))
    expect(done).toEqual([...done].sort((a, b) => a - b))
    expect(new Set(done).size).toBe(done.length)
    expect(progress.length).toBeLessThanOrEqual(smallCount + 1)
    expect(r.out).toContain(`インデックス作成が完了しました。（成功: ${smallCount} 件 / 失敗: 0 件）`)
    // How the run went inside is the log's (a new user read the 2-gram update's file count as a wrong count).
    expect(r.out).not.toMatch(/^(取り込み段階|gram 索引を更新しました): /m)
    expect(fs.readFileSync(path.join(work, "indexing_log.txt"), "utf8")).toMatch(/^取り込み段階: [\d.]+ 秒.*\ngram 索引を更新しました: /m)
  }, 600_000)

  it("--verbose prints each file's block, as the log has them", () => {
    const work = makeWork("verbose", { 小: small })
    const r = run(["index", "--yes", "--verbose", "--work", work])
    expect(r.code).toBe(0)
    const blocks = r.out.split("\n").filter((l) => /^\[\d+\/\d+\] /.test(l))
    expect(blocks).toHaveLength(smallCount)
    for (const b of blocks) expect(b).toMatch(new RegExp(`^\\[\\d+/${smallCount}\\] 小/部署01/.+: 取り込みました$`))
    // The [n/total] lines say how far the run is: no plain progress lines besides them.
    expect(r.out.split("\n").filter((l) => barLine.test(l))).toEqual([])
    // And how the run went inside, as the log has it.
    expect(r.out).toMatch(/^取り込み段階: [\d.]+ 秒.*\ngram 索引を更新しました: /m)
  }, 600_000)

  it("errors go to stderr with their exit codes; stdout has none of them", async () => {
    // A registered folder that is gone: exit 1, the Japanese message on stderr.
    const gone = path.join(base, "gone")
    fs.mkdirSync(gone)
    const work = makeWork("gone-work", { 消えた: gone })
    fs.rmdirSync(gone)
    const missing = run(["index", "--yes", "--work", work])
    expect(missing.code).toBe(1)
    expect(missing.err).toContain(`インデックス「消えた」のフォルダが見つかりません: ${gone}`)
    // The commands it suggests repeat the --work given (README; new-user trial).
    expect(missing.err).toContain(`sagasu disable 消えた --work ${work}（フォルダが移ったなら sagasu move 消えた 新しいフォルダ --work ${work}）`)
    expect(missing.out).not.toContain("フォルダが見つかりません")
    await breathe()
    // A work folder never initialised, a mistyped command, contradictory options: exit 1, nothing on stdout.
    for (const args of [["status", "--work", path.join(base, "nowhere")], ["index", "--work", path.join(base, "nowhere")], ["serch", "x"]]) {
      const r = run(args)
      expect([r.code, r.out], args.join(" ")).toEqual([1, ""])
      expect(r.err, args.join(" ")).not.toBe("")
      await breathe()
    }
    // --only with no name that can be updated: said at once on stderr, before any log header or plan (issue 16).
    const nope = run(["index", "--only", "nope", "--work", work])
    expect([nope.code, nope.out, nope.err]).toEqual([
      1,
      "",
      `インデックス「nope」は設定にありません。飛ばします。\n選んだインデックスはどれも更新できません。\n登録されているインデックス: 消えた（sagasu list --work ${work} で一覧できます）\n`
    ])
    const both = run(["index", "--quiet", "--verbose", "--work", work])
    // In the settings' language (the catalogue's, issue 16).
    expect([both.code, both.out, both.err]).toEqual([1, "", "--quiet と --verbose は一緒に使えません。\n"])
    // A port out of range is told while the command line is read, before the settings: Japanese, then English.
    const port = run(["gui", "--port", "0", "--work", work])
    expect([port.code, port.out, port.err]).toEqual([1, "", "--port には 1 から 65535 までの数を指定してください。\n--port must be a number from 1 to 65535.\n\n"])
  }, 600_000)
})

describe("sagasu status --failed (issue 16: the failed files at any time, from the ingest list)", () => {
  it("lists the failed file with its reason per index, as text and as JSON, also after a run with nothing to do", async () => {
    const work = makeWork("failed", { 小: small, 壊れ: broken })
    expect(run(["index", "--yes", "--quiet", "--work", work]).code).toBe(0)
    await breathe()
    // A second run has nothing to do and names no failed file in its log: the list still has it.
    expect(run(["index", "--yes", "--work", work]).out).toContain("取り込みが必要なファイルはありません。")
    expect(fs.readFileSync(path.join(work, "indexing_log.txt"), "utf8")).not.toContain(brokenFile)
    await breathe()
    const text = run(["status", "--failed", "--work", work])
    expect([text.code, text.err]).toEqual([0, ""])
    expect(text.out).toBe(`壊れ  ${broken}  失敗 1\n  ${brokenFile}: ${brokenReason}\n`)
    const json = run(["status", "--failed", "--json", "--work", work])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.out)).toEqual({
      indexes: [{
        name: "壊れ",
        path: broken,
        failed: [{
          path: brokenFile,
          absolutePath: path.join(broken, brokenFile),
          reason: "not-office",
          detail: "neither a zip nor an OLE2 container (first bytes 6e 6f 74 20 61 20 7a 69)",
          cause: "file"
        }]
      }]
    })
    // The counts point to it.
    // The command it names repeats the --work given (the default folder is another).
    expect(run(["status", "--work", work]).out).toContain(`失敗したファイルと原因は sagasu status --failed --work ${work} で表示します。`)
    // When the last run ended, in local time (new-user trial: status did not say): the progress record's last write.
    const ended = new Date("2026-12-01T12:40:30Z")
    fs.utimesSync(path.join(work, "store", "progress.json"), ended, ended)
    expect(run(["status", "--work", work], { ...process.env, NO_COLOR: "1", TZ: "Asia/Tokyo" }).out.split("\n")[0]).toMatch(/^前回のインデックス作成: 完了（2026-12-01 21:40 に終了） — 処理済み /)
    const none = makeWork("none-failed", { 小: small })
    expect(run(["status", "--failed", "--work", none]).out).toBe("失敗したファイルはありません。\n")
  }, 600_000)
})

describe("sagasu index in an 80-column terminal (issue 16: tmux, long Japanese paths)", () => {
  it.skipIf(!has("tmux"))("keeps the bar on one line of at most 79 columns, redrawn in place, and leaves no bar line behind", async () => {
    const work = makeWork("tmux", { 共有: longTree })
    const socket = `sagasu-test-${process.pid}`
    const tmux = (...args: Array<string>) => spawnSync("tmux", ["-u", "-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" })
    const command = `"${process.execPath}" "${bin}" index --yes --work "${work}"; echo "SAGASU_EXIT=$?"; sleep 600`
    expect(tmux("new-session", "-d", "-x", "80", "-y", "50", "-s", "t", command).status).toBe(0)
    try {
      // Read the pane as the run goes (-J joins wrapped lines, so a bar that wrapped would show as one
      // line wider than 80), until the command has ended.
      const captures: Array<Array<string>> = []
      let last: Array<string> = []
      while (!last.some((l) => l.startsWith("SAGASU_EXIT="))) {
        const joined = tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "t")
        expect(joined.status).toBe(0)
        last = joined.stdout.split("\n")
        captures.push(last)
        await sleep(100)
      }
      const rows = tmux("capture-pane", "-p", "-S", "-", "-t", "t").stdout.split("\n")
      for (const row of rows) expect(displayWidth(row), row).toBeLessThanOrEqual(80)
      const bars = captures.map((c) => c.filter((l) => barLine.test(l)))
      // The bar was seen (a run of 30 files takes seconds), never twice in one screen, never wider than 79.
      expect(bars.some((b) => b.length === 1)).toBe(true)
      for (const b of bars) {
        expect(b.length).toBeLessThanOrEqual(1)
        for (const l of b) expect(displayWidth(l), l).toBeLessThanOrEqual(79)
      }
      // The ingest phase's bar with its counts and the end of a long file name.
      expect(bars.flat().some((l) => new RegExp(`^取り込み (\\[[#-]+\\] )?\\d+/${longCount} \\d+%  経過 `).test(l))).toBe(true)
      // At the end: no bar line left, the closing message, exit 0.
      expect(last.filter((l) => barLine.test(l))).toEqual([])
      expect(last).toContain(`インデックス作成が完了しました。（成功: ${longCount} 件 / 失敗: 0 件）`)
      expect(last).toContain("SAGASU_EXIT=0")
      // Not asked (--yes): the plan's counts are said as the log has them, cut at the width.
      expect(rows.some((r) => r.startsWith(`インデックス「共有」: 新規 ${longCount}、変更 0、`))).toBe(true)
    } finally {
      tmux("kill-server")
    }
  }, 600_000)

  it.skipIf(!has("tmux"))("cuts the next steps of init, add and list and the refusal of --only where Japanese may be cut, not where the terminal would", async () => {
    // A work folder whose path puts each message's suggested command across the 80th column.
    const work = path.join(base, "端末で読む作業フォルダ-w2")
    const socket = `sagasu-test-steps-${process.pid}`
    const tmux = (...args: Array<string>) => spawnSync("tmux", ["-u", "-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" })
    const cli = `"${process.execPath}" "${bin}"`
    const command = `${cli} init --work "${work}"; ${cli} list --work "${work}"; ${cli} index --only nope --work "${work}"; ${cli} add 共有 "${small}" --work "${work}"; echo SAGASU_DONE; sleep 600`
    expect(tmux("new-session", "-d", "-x", "80", "-y", "50", "-s", "t", command).status).toBe(0)
    const pane = () => tmux("capture-pane", "-p", "-S", "-", "-t", "t").stdout.split("\n").map((l) => l.trimEnd())
    try {
      while (!pane().includes("SAGASU_DONE")) await sleep(100)
      const lines = pane().slice(0, pane().indexOf("SAGASU_DONE"))
      const hint = `sagasu add 名前 フォルダ --work ${work}`
      // Nothing lost (spaces apart: a cut at a space takes it), as the commands print it to a pipe.
      const said = [
        `作業フォルダを用意しました: ${work}`,
        `次は ${hint} でインデックスを追加します。`,
        `インデックスはまだありません。${hint} で追加してください。`,
        "インデックス「nope」は設定にありません。飛ばします。",
        "選んだインデックスはどれも更新できません。",
        `インデックスはまだありません。${hint} で追加してください。`,
        `インデックス「共有」を追加しました: ${small}`,
        `次は sagasu index --work ${work} で取り込みます。`
      ]
      expect(lines.join("").replace(/\s+/g, "")).toBe(said.join("").replace(/\s+/g, ""))
      // Each sentence's end and each command's words stay on one line (the terminal cut 「追」/「加します。」).
      const whole = (phrase: string) => lines.filter((l) => l.includes(phrase)).length
      expect(whole("でインデックスを追加します。")).toBe(1)
      expect(whole("で追加してください。")).toBe(2)
      expect(whole("で取り込みます。")).toBe(1)
      expect(whole("sagasu add 名前 フォルダ --work")).toBe(3)
      expect(whole("sagasu index --work")).toBe(1)
      expect(lines.filter((l) => l.startsWith("  ")).length).toBeGreaterThanOrEqual(3)
      for (const line of lines) expect(displayWidth(line), line).toBeLessThan(80)
    } finally {
      tmux("kill-server")
    }
  }, 600_000)

  it.skipIf(!has("tmux"))("asks on the terminal when stdout goes to a file (R10), and does not print the plan a second time after the answer", async () => {
    const work = makeWork("tmux-asked", { 共有: small })
    const out = path.join(base, "asked-out.txt")
    const socket = `sagasu-test-asked-${process.pid}`
    const tmux = (...args: Array<string>) => spawnSync("tmux", ["-u", "-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" })
    const command = `"${process.execPath}" "${bin}" index --work "${work}" > "${out}"; echo "SAGASU_EXIT=$?"; sleep 600`
    expect(tmux("new-session", "-d", "-x", "80", "-y", "50", "-s", "t", command).status).toBe(0)
    const pane = () => tmux("capture-pane", "-p", "-S", "-", "-t", "t").stdout.split("\n").map((l) => l.trimEnd())
    try {
      // The question waits for an answer: the pane shows it (before, it went into the file).
      const askedIn = (lines: ReadonlyArray<string>) => lines.some((l) => l.startsWith("取り込みを始めますか？"))
      const inFile = () => (fs.existsSync(out) ? fs.readFileSync(out, "utf8").includes("取り込みを始めますか？") : false)
      while (!askedIn(pane()) && !inFile()) await sleep(100)
      const asked = pane()
      expect(askedIn(asked)).toBe(true)
      expect(asked).toContainEqual(expect.stringMatching(new RegExp(`^新規 +${smallCount}$`)))
      expect(tmux("send-keys", "-t", "t", "y", "Enter").status).toBe(0)
      while (!pane().some((l) => l.startsWith("SAGASU_EXIT="))) await sleep(100)
      expect(pane()).toContain("SAGASU_EXIT=0")
      const written = fs.readFileSync(out, "utf8").split("\n")
      expect(written).toContain(`インデックス作成が完了しました。（成功: ${smallCount} 件 / 失敗: 0 件）`)
      // The plan went to the terminal only, once: neither its table nor its counts line is in the file.
      expect(written.filter((l) => /^新規 |取り込みを始めますか|インデックス「共有」: 新規/.test(l))).toEqual([])
      expect(written).toContain(`取り込み対象: ${smallCount} 件`)
    } finally {
      tmux("kill-server")
    }
  }, 600_000)

  it.skipIf(!has("tmux"))("ends with the counts and a short list of what failed, by reason, so that many failures do not scroll the counts away (R17)", async () => {
    const many = path.join(base, "broken-many")
    fs.mkdirSync(many, { recursive: true })
    for (let i = 1; i <= 12; i++) fs.writeFileSync(path.join(many, `壊れた見積書_${i}.xlsx`), "not a zip")
    const work = makeWork("tmux-failed", { 壊れ: many })
    const socket = `sagasu-test-failed-${process.pid}`
    const tmux = (...args: Array<string>) => spawnSync("tmux", ["-u", "-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" })
    const command = `"${process.execPath}" "${bin}" index --yes --work "${work}"; echo "SAGASU_EXIT=$?"; sleep 600`
    expect(tmux("new-session", "-d", "-x", "80", "-y", "50", "-s", "t", command).status).toBe(0)
    const pane = () => tmux("capture-pane", "-p", "-S", "-", "-t", "t").stdout.split("\n").map((l) => l.trimEnd())
    try {
      while (!pane().some((l) => l.startsWith("SAGASU_EXIT="))) await sleep(100)
      const lines = pane().filter((l) => l !== "")
      const end = lines.indexOf("SAGASU_EXIT=0")
      const counts = lines.indexOf("インデックス作成が完了しました。（成功: 0 件 / 失敗: 12 件）")
      expect(counts).toBeGreaterThan(0)
      const tail = lines.slice(counts + 1, end)
      // The reason once, ten of the files, how many more and where all are: 16 lines in all, the counts in sight.
      expect(tail[0]).toBe("失敗したファイルと原因:")
      expect(tail[1]).toBe("  Office のファイルではありません（名前の拡張子と中身が違います）。（12 件）")
      expect(tail.filter((l) => /^ {4}壊れ\/壊れた見積書_\d+\.xlsx$/.test(l))).toHaveLength(10)
      const noSpace = (text: string) => text.replace(/\s+/g, "") // the line is cut where the width falls (the work folder's path)
      expect(noSpace(tail.slice(12).join(""))).toBe(noSpace(`ほか 2 件。すべてのファイルと詳しい原因は sagasu status --failed --work ${work} で表示します。`))
      expect(tail.length).toBeLessThanOrEqual(16)
      // The log keeps every file with its reason.
      const log = fs.readFileSync(path.join(work, "indexing_log.txt"), "utf8")
      expect(log.split("\n").filter((l) => l.startsWith("  壊れ/壊れた見積書_") && l.includes("not-office"))).toHaveLength(12)
    } finally {
      tmux("kill-server")
    }
  }, 600_000)
})
