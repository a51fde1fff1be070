import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"
import { formatPlan } from "./index_command.ts"
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

describe("formatPlan() (R10)", () => {
  it("aligns Japanese headers by display width", () => {
    const text = formatPlan({ entries: [{ index: "共有", new: 12, changed: 3, pending: 0, failedLastTime: 1, failedByEnvironment: 4, cloudOnly: 0, unchanged: 200, vanished: 2 }] }, "ja")
    expect(text).toBe([
      "インデックス  新規  変更  未取り込み  前回失敗  前回失敗・環境（再試行）  クラウドのみ  変更なし  削除",
      "共有          12    3     0           1         4" + " ".repeat(25) + "0" + " ".repeat(13) + "200       2   "
    ].join("\n"))
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
