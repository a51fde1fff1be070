import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { displayWidth } from "@sagasu/domain"
import { describe, expect, it } from "vitest"
import { formatPlan } from "./index_command.ts"
import { jsonForTerminal } from "./json_output.ts"
import { formatSearchOutput } from "./search_output.ts"
import { defaultWorkDir } from "./work_dir.ts"

describe("defaultWorkDir() (README: the work folder)", () => {
  it.each([
    [{ SAGASU_WORK: "/srv/work" }, "linux", "/srv/work"],
    [{ XDG_DATA_HOME: "/x/data" }, "linux", "/x/data/sagasu"],
    [{ LOCALAPPDATA: "C:\\Users\\me\\AppData\\Local" }, "win32", "C:\\Users\\me\\AppData\\Local/Sagasu"]
  ] as const)("%j on %s → %s", (env, platform, expected) => {
    expect(defaultWorkDir(env, platform).replace(/\\Sagasu$/, "/Sagasu")).toBe(expected)
  })
})

describe("formatPlan() (R10, issue 16: at most 80 columns)", () => {
  const entry = { new: 12, changed: 3, pending: 0, failedLastTime: 1, failedByEnvironment: 4, cloudOnly: 0, unchanged: 1200, vanished: 2 }
  it("one row per kind, one column per index, aligned by display width", () => {
    const text = formatPlan({ entries: [{ index: "共有", ...entry }, { index: "報告書", ...entry, new: 0 }] }, "ja")
    expect(text).toBe([
      "インデックス               共有  報告書",
      "新規                         12       0",
      "変更                          3       3",
      "未取り込み                    0       0",
      "前回失敗                      1       1",
      "前回失敗・環境（再試行）      4       4",
      "クラウドのみ                  0       0",
      "変更なし                  1,200   1,200",
      "削除                          2       2"
    ].join("\n"))
    for (const line of text.split("\n")) expect(displayWidth(line)).toBeLessThanOrEqual(80)
  })
  it("numbered columns with the names below them when the names are too long to stand side by side", () => {
    const names = ["営業部の共有フォルダ（二〇二四年度）", "経理部の請求書と領収書の控え", "総務部"]
    const text = formatPlan({ entries: names.map((index) => ({ index, ...entry })) }, "ja")
    expect(text.split("\n")).toEqual([
      "インデックス                [1]    [2]    [3]",
      "新規                         12     12     12",
      "変更                          3      3      3",
      "未取り込み                    0      0      0",
      "前回失敗                      1      1      1",
      "前回失敗・環境（再試行）      4      4      4",
      "クラウドのみ                  0      0      0",
      "変更なし                  1,200  1,200  1,200",
      "削除                          2      2      2",
      "[1] 営業部の共有フォルダ（二〇二四年度）",
      "[2] 経理部の請求書と領収書の控え",
      "[3] 総務部"
    ])
  })
  it("one block per index when even numbered columns do not fit", () => {
    const names = ["営業部の共有フォルダ（二〇二四年度）", "経理部の請求書と領収書の控え", "総務部"]
    const text = formatPlan({ entries: names.map((index) => ({ index, ...entry })) }, "ja", 40)
    const lines = text.split("\n")
    expect(lines).toHaveLength(27)
    expect(lines.slice(0, 3)).toEqual(["営業部の共有フォルダ（二〇二四年度）", "  新規                         12", "  変更                          3"])
    expect(lines[18]).toBe("総務部")
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(40)
  })
  it("in English too, within the terminal's width it is given", () => {
    const text = formatPlan({ entries: [{ index: "shared", ...entry }] }, "en", 60)
    expect(text.split("\n")[0]).toBe("index                                    shared")
    for (const line of text.split("\n")) expect(displayWidth(line)).toBeLessThanOrEqual(60)
  })
})

describe("search --json: absolutePath and url (issue 16)", () => {
  const file = {
    index: "共有",
    path: "見積/見積書 A-1234.xlsx",
    hits: 1,
    modifiedMs: Date.UTC(2024, 2, 1),
    size: 2048,
    nameTerms: 0,
    near: false,
    locations: [{ index: "共有", path: "見積/見積書 A-1234.xlsx", part: "見積書", locator: "cell" as const, loc: "B3", location: "見積書!B3", text: "A-1234", snippet: "【A-1234】" }]
  }
  const result = { files: [file], offset: 0, totals: { hits: 1, files: 1, exact: true }, more: false, engine: "gram" as const, problem: "", partial: false }
  const options = { query: "A-1234", json: true, files: false, color: false, language: "ja" as const }

  it("joins the index's folder with the path and gives its file:// URL", () => {
    const out = formatSearchOutput(result, { ...options, folders: [{ name: "共有", path: "/mnt/share/営業" }] })
    const [json] = JSON.parse(out.stdout) as Array<Record<string, unknown>>
    expect(json?.["absolutePath"]).toBe(path.join("/mnt/share/営業", "見積", "見積書 A-1234.xlsx"))
    expect(json?.["url"]).toBe(pathToFileURL(path.join("/mnt/share/営業", "見積", "見積書 A-1234.xlsx")).href)
    if (process.platform !== "win32") {
      expect(json?.["absolutePath"]).toBe("/mnt/share/営業/見積/見積書 A-1234.xlsx")
      expect(json?.["url"]).toBe("file:///mnt/share/%E5%96%B6%E6%A5%AD/%E8%A6%8B%E7%A9%8D/%E8%A6%8B%E7%A9%8D%E6%9B%B8%20A-1234.xlsx")
    }
    // The contract's earlier fields keep their places; the new ones follow the best location's.
    expect(Object.keys(json ?? {})).toEqual(["index", "path", "part", "locator", "loc", "location", "text", "snippet", "absolutePath", "url", "hits", "modified", "size", "locations"])
  })

  it("gives null for a file of an index no longer registered", () => {
    const [json] = JSON.parse(formatSearchOutput(result, { ...options, folders: [] }).stdout) as Array<Record<string, unknown>>
    expect([json?.["absolutePath"], json?.["url"]]).toEqual([null, null])
  })
})

describe("search --files (issue 16)", () => {
  const none = { files: [], offset: 0, totals: { hits: 0, files: 0, exact: true }, more: false, engine: "gram" as const, problem: "", partial: false }
  const options = { query: "見積番号", json: false, files: true, color: false, folders: [] }

  it("with nothing found says so like the other modes, on stderr (stdout stays file lines only)", () => {
    expect(formatSearchOutput(none, { ...options, language: "ja" })).toEqual({ stdout: "", stderr: "「見積番号」は見つかりませんでした。\n" })
    expect(formatSearchOutput(none, { ...options, language: "en" })).toEqual({ stdout: "", stderr: "No hits for \"見積番号\".\n" })
  })

  it("a query of -words only that finds nothing says they were looked for as text, and how to exclude (new-user trial: search -Bloggs)", () => {
    const plain = { ...options, files: false, language: "ja" as const }
    expect(formatSearchOutput(none, { ...plain, query: "-Bloggs" }).stdout).toBe(
      "「-Bloggs」は見つかりませんでした。\n- で始まる語だけのときは、その文字列そのものを探します。除外するには、探す語の後に並べてください（例: 見積 -山田）。\n"
    )
    expect(formatSearchOutput(none, { ...plain, query: "見積 -Bloggs" }).stdout).toBe("「見積 -Bloggs」は見つかりませんでした。\n")
  })

  it("past the last page of a query that finds something prints nothing (the files are on earlier pages)", () => {
    expect(formatSearchOutput({ ...none, offset: 20, totals: { hits: 3, files: 3, exact: true } }, { ...options, language: "ja" })).toEqual({ stdout: "", stderr: "" })
  })
})

describe("search output on a terminal: what a document holds is shown, never obeyed (hostile-file trial)", () => {
  const evil = "請求\x1b]0;pwned\x07書\x1b[31m赤\x00\x9b"
  const file = {
    index: "共有",
    path: `悪い\x1b[2J.rtf`,
    hits: 1,
    modifiedMs: Date.UTC(2024, 2, 1),
    size: 2048,
    nameTerms: 0,
    near: false,
    locations: [{ index: "共有", path: "悪い.rtf", part: `シ\x1bート`, locator: "cell" as const, loc: "B3", location: "x", text: evil, snippet: `【請求】${evil}\tタブ` }]
  }
  const result = { files: [file], offset: 0, totals: { hits: 1, files: 1, exact: true }, more: false, engine: "gram" as const, problem: "", partial: false }
  const options = { query: "請求", json: false, files: false, language: "ja" as const, folders: [] }

  it.each([false, true])("drops control characters but tab and line feed from paths, places and snippets (colour %s)", (color) => {
    const out = formatSearchOutput(result, { ...options, color }).stdout
    // Only the output's own colour codes remain (SGR sequences it writes itself, when colour is on).
    const own = out.replace(/\x1b\[(?:1;33|1|2|0)m/g, "")
    expect(own).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    expect(own).toContain("請求]0;pwned書[31m赤\tタブ")
    expect(own).toContain("悪い[2J.rtf")
    expect(formatSearchOutput(result, { ...options, color, files: true }).stdout).toBe("共有  悪い[2J.rtf\n")
  })

  it("a cell's line breaks are spaces in its snippet: every snippet stays one line under its place (new-user trial: CRLFX5_2's B1)", () => {
    const multi = { ...result, files: [{ ...file, locations: [{ ...file.locations[0], snippet: "abc\n【def】\r\nghi\rjkl" }] }] } as typeof result
    expect(formatSearchOutput(multi, { ...options, color: false }).stdout).toContain("\n    abc 【def】 ghi jkl\n")
  })

  it("--json keeps every character, escaped: C0 by JSON, DEL and C1 (U+009B is a terminal's CSI) as \\u escapes too", () => {
    const out = formatSearchOutput(result, { ...options, color: false, json: true }).stdout
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    expect(out).toContain("\\u001b]0;pwned\\u0007書\\u001b[31m赤\\u0000\\u009b")
    const [parsed] = JSON.parse(out) as Array<{ readonly path: string; readonly locations: ReadonlyArray<{ readonly text: string }> }>
    expect(parsed?.locations[0]?.text).toBe(evil)
    expect(jsonForTerminal({ del: "a\x7fb", c1: "\x85" })).toBe('{\n  "del": "a\\u007fb",\n  "c1": "\\u0085"\n}')
  })
})

describe("search on a terminal: a file-name hit under its block's path (new-user trial: a long path printed twice)", () => {
  const deep = "営業部/2024年度/第38版/見積書 A-1234.xlsx"
  const nameHit = (snippet: string) => ({ index: "共有", path: deep, part: "", locator: "name" as const, loc: "path", location: "name", text: deep, snippet })
  const block = (snippet: string) => ({
    files: [{ index: "共有", path: deep, hits: 1, modifiedMs: Date.UTC(2024, 2, 1), size: 2048, nameTerms: 1, near: false, locations: [nameHit(snippet)] }],
    offset: 0,
    totals: { hits: 1, files: 1, exact: true },
    more: false,
    engine: "gram" as const,
    problem: "",
    partial: false
  })
  const options = { query: "A-1234", json: false, files: false, color: false, language: "ja" as const, folders: [] }

  it.each([
    ["営業部/2024年度/第38版/見積書 【A-1234】.xlsx", "…/見積書 【A-1234】.xlsx"],
    ["営業部/2024年度/【第38版】/見積書 A-1234.xlsx", "…/【第38版】/見積書 A-1234.xlsx"],
    ["【営業部】/2024年度/第38版/見積書 A-1234.xlsx", "【営業部】/2024年度/第38版/見積書 A-1234.xlsx"]
  ])("%s → %s", (snippet, shown) => {
    expect(formatSearchOutput(block(snippet), options).stdout.split("\n").slice(0, 3)).toEqual([
      "共有  営業部/2024年度/第38版/見積書 A-1234.xlsx  (1 件 · 2024-03-01 · 2 KB)",
      "  ファイル名",
      `    ${shown}`
    ])
  })

  it("a search that scanned the body index names the run that builds the index, with the --work given", () => {
    const scanned = { ...block("【営業部】/2024年度/第38版/見積書 A-1234.xlsx"), engine: "scan" as const }
    expect(formatSearchOutput(scanned, { ...options, nextStepWork: " --work /tmp/w" }).stderr).toBe(
      "検索用の索引がまだ無いため、本文インデックスを順に調べました（sagasu index --work /tmp/w で作られます）。\n"
    )
  })

  it("--json keeps the whole marked path", () => {
    const [json] = JSON.parse(formatSearchOutput(block("営業部/2024年度/第38版/見積書 【A-1234】.xlsx"), { ...options, json: true }).stdout) as Array<Record<string, unknown>>
    expect(json?.["snippet"]).toBe("営業部/2024年度/第38版/見積書 【A-1234】.xlsx")
  })
})
