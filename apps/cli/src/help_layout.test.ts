import { displayWidth } from "@sagasu/domain"
import { describe, expect, it } from "vitest"
import { exampleRows, fitHelp, helpWidth, wrapWords } from "./help_layout.ts"

describe("the help fitted to the terminal (issue 16: sagasu --help came ≈200 columns wide)", () => {
  it("helpWidth(): at most 79 columns, the terminal's less one when narrower, never below 40", () => {
    expect([helpWidth(undefined), helpWidth(200), helpWidth(80), helpWidth(60), helpWidth(20)]).toEqual([79, 79, 79, 59, 40])
  })

  it("wrapWords(): cuts at spaces within the width in display columns, continuation indented", () => {
    expect(wrapWords("見積 番号 顧客 名前", 9, "  ")).toEqual(["見積 番号", "  顧客", "  名前"])
    expect(wrapWords("  a bb ccc", 6, "    ")).toEqual(["  a bb", "    ccc"])
    expect(wrapWords("abcdefghij k", 4, " ")).toEqual(["abcdefghij", " k"])
    expect(wrapWords("fits", 4, " ")).toEqual(["fits"])
  })

  it("exampleRows(): two aligned columns; a command wider than the column has its words below", () => {
    const rows = exampleRows([["sagasu search 見積", "files"], ["sagasu status", "counts"], ["sagasu search 見積 --folder 営業/2024 --since 2024-04-01", "one folder"], ["sagasu x --json", ""]], 79, 20)
    expect(rows).toEqual([
      "sagasu search 見積  files",
      "sagasu status       counts",
      "sagasu search 見積 --folder 営業/2024 --since 2024-04-01",
      "    one folder",
      "sagasu x --json"
    ])
  })

  it("fitHelp(): the COMMANDS section becomes one row per command; every other long line is cut, a usage line indented four", () => {
    const pad = " ".repeat(150)
    const help = [
      "USAGE", "", `$ sagasu search [--work text] [--json] [--files] [--context] [--limit integer] [--offset integer] <WORD>...`, "",
      "COMMANDS", "", `  - init [--work text]${pad}create a work folder`, "", `  - search [--work text] <WORD>...${pad}`, "",
      "OPTIONS", "", "--work text", "", "  the work folder (default: $SAGASU_WORK or the per-user data folder, which is a long way to say it)"
    ].join("\n")
    const fitted = fitHelp(help, 60, [["init", "create a work folder"], ["search", "find files holding every word, anywhere in the file"]])
    expect(fitted.split("\n")).toEqual([
      "USAGE", "",
      "$ sagasu search [--work text] [--json] [--files] [--context]",
      "    [--limit integer] [--offset integer] <WORD>...", "",
      "COMMANDS", "",
      "  init    create a work folder",
      "  search  find files holding every word, anywhere in the",
      "          file", "",
      "OPTIONS", "", "--work text", "",
      "  the work folder (default: $SAGASU_WORK or the per-user",
      "  data folder, which is a long way to say it)"
    ])
    expect(Math.max(...fitted.split("\n").map(displayWidth))).toBeLessThanOrEqual(60)
  })
})
