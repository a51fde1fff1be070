import { displayWidth } from "@sagasu/domain"
import { describe, expect, it } from "vitest"
import { exampleRows, fitHelp, helpWidth, wrapWords } from "./help_layout.ts"

describe("the help fitted to the terminal (issue 16: sagasu --help came ≈200 columns wide)", () => {
  it("helpWidth(): at most 79 columns, the terminal's less one when narrower, never below 40", () => {
    expect([helpWidth(undefined), helpWidth(200), helpWidth(80), helpWidth(60), helpWidth(20)]).toEqual([79, 79, 79, 59, 40])
  })

  it("wrapWords(): cuts at spaces within the width, continuation indented", () => {
    expect(wrapWords("abc de fgh ij", 7, "  ")).toEqual(["abc de", "  fgh", "  ij"])
    expect(wrapWords("  a bb ccc", 6, "    ")).toEqual(["  a bb", "    ccc"])
    expect(wrapWords("abcdefghij k", 4, " ")).toEqual(["abcdefghij", " k"])
    expect(wrapWords("fits", 4, " ")).toEqual(["fits"])
  })

  it("wrapWords(): Japanese breaks between any two characters, an ASCII word and what is written against it never; no line starts with 。 or ） nor ends with （", () => {
    // No space at all: cut where the width is reached (two columns a character); spaces are kept where the line fits.
    expect(wrapWords("見積 番号 顧客 名前", 9, "  ")).toEqual(["見積 番号", "  顧客 名", "  前"])
    expect(wrapWords("作業フォルダを用意しました", 10, "  ")).toEqual(["作業フォル", "  ダを用意", "  しました"])
    // A stop does not start a line: its character goes down with it.
    expect(wrapWords("あいうえお。かきく", 10, "")).toEqual(["あいうえ", "お。かきく"])
    // An opening bracket does not end a line, a closing one does not start one.
    expect(wrapWords("あいう（えお）かき", 8, "")).toEqual(["あいう", "（えお）", "かき"])
    // Never inside an ASCII word, nor between one and the Japanese written against it (a date stays whole).
    expect(wrapWords("2009年9月4日の見積", 12, "")).toEqual(["2009年9月4日", "の見積"])
    expect(wrapWords("設定はsetting.configに書きます", 18, "")).toEqual(["設定", "はsetting.configに", "書きます"])
    // After a Japanese comma or a closing bracket, before an opening one, an ASCII word may start a line.
    expect(wrapWords("パスワードは$PASSWORD（teamServer.env）、teamServer.file から", 30, "")).toEqual([
      "パスワードは$PASSWORD",
      "（teamServer.env）、",
      "teamServer.file から"
    ])
    expect(wrapWords("sagasu index で取り込みます", 17, "  ")).toEqual(["sagasu index で取", "  り込みます"])
    expect(Math.max(...wrapWords("ファイルにすべて含まれているべき言葉（1 つでも複数の引数でも）。", 21, "  ").map(displayWidth))).toBeLessThanOrEqual(21)
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
    const fitted = fitHelp(help, 60, { commands: [["init", "create a work folder"], ["search", "find files holding every word, anywhere in the file"]] })
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
    // A usage line is cut between its options, not inside one.
    expect(fitHelp("$ sagasu search [--sort text] [--folder text] <WORD>...", 40).split("\n")).toEqual([
      "$ sagasu search [--sort text]",
      "    [--folder text] <WORD>..."
    ])
  })

  it("fitHelp(): in Japanese, the headings said in Japanese, the commands' rows wrapped between characters, a section after COMMANDS kept", () => {
    const help = [
      "USAGE", "", "$ sagasu", "",
      "COMMANDS", "", "  - init [--work text]", "", "  - search [--work text] <WORD>...", "",
      "共通のオプション", "", "-h, --help  コマンドのヘルプを表示します"
    ].join("\n")
    const fitted = fitHelp(help, 40, {
      commands: [["init", "作業フォルダを作ります"], ["search", "すべての言葉を含むファイルを探します（ファイル名やプロパティも）"]],
      headings: { USAGE: "使い方", COMMANDS: "コマンド" }
    })
    expect(fitted.split("\n")).toEqual([
      "使い方", "", "$ sagasu", "",
      "コマンド", "",
      "  init    作業フォルダを作ります",
      "  search  すべての言葉を含むファイルを探",
      "          します（ファイル名やプロパティ",
      "          も）", "",
      "共通のオプション", "", "-h, --help  コマンドのヘルプを表示します"
    ])
    expect(Math.max(...fitted.split("\n").map(displayWidth))).toBeLessThanOrEqual(40)
  })
})
