import { describe, expect, it } from "vitest"
import { formatPlan } from "./index_command.ts"
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
