/**
 * Windows shapes of the paths ［開く］ and ［フォルダを開く］ check and start
 * (issue 19): a hit's relative path, the index's folder on a drive, on a UNC
 * share with Japanese names or as a long path (`\\?\`), mixed separators and
 * case (Windows compares names without case), and the explorer.exe command
 * made from them.
 */
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { isInside, relativePieces } from "./open_target.ts"
import { openPathCommand } from "./opener.ts"

describe("open a hit on Windows (issue 19)", () => {
  it("relativePieces() splits on both separators and refuses drives, shares and long paths", () => {
    const cases: ReadonlyArray<readonly [string, ReadonlyArray<string> | undefined]> = [
      ["見積\\2024\\見積書.xlsx", ["見積", "2024", "見積書.xlsx"]],
      ["見積/2024\\見積書.xlsx", ["見積", "2024", "見積書.xlsx"]],
      [".\\見積\\\\見積書.xlsx", ["見積", "見積書.xlsx"]],
      ["..見積\\a.xlsx", ["..見積", "a.xlsx"]],
      ["見積\\..\\..\\a.xlsx", undefined],
      ["C:\\共有\\a.xlsx", undefined],
      ["C:a.xlsx", undefined], // relative to drive C's current folder: outside the index
      ["\\\\server\\共有\\a.xlsx", undefined],
      ["\\\\?\\C:\\共有\\a.xlsx", undefined],
      ["\\共有\\a.xlsx", undefined]
    ]
    for (const [relative, pieces] of cases) expect(relativePieces(relative, "win32"), relative).toEqual(pieces)
  })

  it("isInside() compares drive, UNC and long-path spellings without case", () => {
    const cases: ReadonlyArray<readonly [string, string, boolean]> = [
      ["C:\\共有\\営業", "c:\\共有\\営業\\見積\\a.xlsx", true],
      ["C:/共有/営業", "C:\\共有\\営業\\見積\\a.xlsx", true],
      ["\\\\server\\共有\\営業", "\\\\SERVER\\共有\\営業\\見積\\a.xlsx", true],
      ["\\\\server\\共有\\営業", "\\\\server\\共有\\営業", true],
      ["\\\\?\\C:\\共有\\営業", "C:\\共有\\営業\\a.xlsx", true],
      ["C:\\共有\\営業", "\\\\?\\C:\\共有\\営業\\a.xlsx", true],
      ["\\\\server\\共有\\営業", "\\\\?\\UNC\\server\\共有\\営業\\a.xlsx", true],
      ["C:\\共有\\営業", "C:\\共有\\営業\\..a.xlsx", true],
      ["\\\\server\\共有\\営業", "\\\\server\\共有\\営業2\\a.xlsx", false],
      ["\\\\server\\共有\\営業", "\\\\other\\共有\\営業\\a.xlsx", false],
      ["C:\\共有", "D:\\共有\\a.xlsx", false],
      ["C:\\共有\\営業", "C:\\共有\\営業\\..\\経理\\a.xlsx", false]
    ]
    for (const [parent, child, inside] of cases) expect(isInside(parent, child, "win32"), `${parent} ⊃ ${child}`).toBe(inside)
  })

  it("openPathCommand() quotes UNC and long paths for explorer.exe as they are", () => {
    const file = path.win32.join("\\\\server\\共有\\営業", ..."見積/見積書 A-1234.xlsx".split("/"))
    expect(file).toBe("\\\\server\\共有\\営業\\見積\\見積書 A-1234.xlsx")
    expect(openPathCommand(file, true, "win32")).toEqual({ command: "explorer.exe", args: ['/select,"\\\\server\\共有\\営業\\見積\\見積書 A-1234.xlsx"'], verbatim: true })
    expect(openPathCommand(file, false, "win32")).toEqual({ command: "explorer.exe", args: ['"\\\\server\\共有\\営業\\見積\\見積書 A-1234.xlsx"'], verbatim: true })
    const long = "\\\\?\\C:\\共有\\営業\\見積\\見積書.xlsx"
    expect(openPathCommand(long, false, "win32")).toEqual({ command: "explorer.exe", args: [`"${long}"`], verbatim: true })
  })
})
