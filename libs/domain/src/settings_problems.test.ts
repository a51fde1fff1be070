import { describe, expect, it } from "vitest"
import { jsonPathText, settingsProblemLines, settingsSyntaxLine } from "./settings_problems.ts"

// Issue 16: a broken settings file is one line per problem, with its JSON path and what to do.
describe("settingsProblemLines()", () => {
  it("says each wrong field once, with its path, in Japanese then English; alternatives joined; 'may be left out' dropped", () => {
    // What Effect Schema's ArrayFormatter reports for
    // {targetFolders: [{path: 5}, {name: "", enabled: "yes"}], ingestThreads: "two", cloudFiles: "maybe"}.
    const issues = [
      { path: ["targetFolders", 0, "path"], message: "Expected string, actual 5" },
      { path: ["targetFolders", 1, "name"], message: "an index name must not be empty" },
      { path: ["targetFolders", 1, "enabled"], message: "Expected boolean, actual \"yes\"" },
      { path: ["targetFolders", 1, "enabled"], message: "Expected undefined, actual \"yes\"" },
      { path: ["targetFolders"], message: "Expected undefined, actual [{\"path\":5},{\"name\":\"\",\"enabled\":\"yes\"}]" },
      { path: ["ingestThreads"], message: "Expected number, actual \"two\"" },
      { path: ["ingestThreads"], message: "Expected undefined, actual \"two\"" },
      { path: ["cloudFiles"], message: "Expected \"skip\", actual \"maybe\"" },
      { path: ["cloudFiles"], message: "Expected \"download\", actual \"maybe\"" },
      { path: ["cloudFiles"], message: "Expected undefined, actual \"maybe\"" }
    ]
    expect(settingsProblemLines(issues)).toEqual([
      "targetFolders[0].path: 文字列（\"…\"）を書いてください（今は 5） / Expected string, actual 5",
      "targetFolders[1].name: an index name must not be empty",
      "targetFolders[1].enabled: true か false を書いてください（今は \"yes\"） / Expected boolean, actual \"yes\"",
      "ingestThreads: 数を書いてください（今は \"two\"） / Expected number, actual \"two\"",
      "cloudFiles: \"skip\" か \"download\" のどれかを書いてください（今は \"maybe\"） / Expected \"skip\" or \"download\", actual \"maybe\""
    ])
  })

  it("says a list or an object in words, never the Schema's type", () => {
    expect(settingsProblemLines([
      { path: ["targetFolders"], message: "Expected ReadonlyArray<(Struct (Encoded side) <-> Struct (Type side))>, actual {}" },
      { path: ["targetFolders"], message: "Expected undefined, actual {}" }
    ])).toEqual(["targetFolders: [ … ] の並び（配列）を書いてください（今は {}） / Expected a list [ … ], actual {}"])
  })

  it("keeps 'Expected undefined' when it is all there is to say of a field", () => {
    expect(settingsProblemLines([{ path: ["x"], message: "Expected undefined, actual 1" }])).toEqual([
      "x: この項目は書けません（今は 1） / Expected no value here, actual 1"
    ])
  })

  it.each([
    [["targetFolders", 0, "path"], "targetFolders[0].path"],
    [["language"], "language"],
    [[], "(全体 / the whole file)"]
  ] as const)("jsonPathText(%j) = %j", (path, text) => {
    expect(jsonPathText(path)).toBe(text)
  })
})

describe("settingsSyntaxLine()", () => {
  const lineOf = (text: string) => {
    try {
      JSON.parse(text)
      return "parsed"
    } catch (e) {
      return settingsSyntaxLine((e as Error).message, text)
    }
  }

  it("a Windows path's single backslash: where, and how to write it", () => {
    expect(lineOf('{\n  "path": "C:\\Users\\x"\n}')).toBe(
      "2 行 14 文字目 / line 2, column 14: Bad escaped character。Windows のパスの \\ は \\\\ と二つ重ねるか / に変えてください（\"C:\\\\Users\\\\…\" または \"C:/Users/…\"） / In JSON a Windows path's \\ is written \\\\ (or use /)."
    )
  })

  it("a comma after the last item of an object or an array", () => {
    expect(lineOf('{"a": 1,\n}')).toBe("2 行 1 文字目 / line 2, column 1: Expected double-quoted property name。最後の項目の後ろの「,」を消してください / Remove the comma after the last item.")
    expect(lineOf('{"a": [1,\n  2,\n]}')).toBe("3 行 1 文字目 / line 3, column 1: Unexpected token ']'。最後の項目の後ろの「,」を消してください / Remove the comma after the last item.")
  })

  it("an empty file, and one cut short", () => {
    expect(lineOf("")).toMatch(/^ファイルが空です。/)
    expect(lineOf('{"a": [1')).toMatch(/^ファイルが途中で終わっています/)
  })

  it("anything else: where and the parser's words", () => {
    expect(lineOf('{"a" 1}')).toBe("1 行 6 文字目 / line 1, column 6: Expected ':' after property name")
  })
})
