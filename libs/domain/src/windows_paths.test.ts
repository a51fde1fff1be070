/**
 * Windows shapes of the folders `add` and `move` compare (issue 19): drive
 * letters, UNC shares with Japanese names, long paths (`\\?\`), mixed
 * separators and case. Windows compares names without case, so these are
 * keys compared case-insensitively; the same paths under `posix` stay apart.
 */
import { describe, expect, it } from "vitest"
import { findFolderOverlap, folderRelation, folderSegments, isAbsoluteFolder, withoutLongPathPrefix } from "./index_admin.ts"

describe("Windows folder paths (issue 19)", () => {
  it("isAbsoluteFolder() takes drives and shares, not drive-relative or rooted-only paths", () => {
    const cases: ReadonlyArray<readonly [string, boolean]> = [
      ["C:\\共有\\営業", true],
      ["c:/共有/営業", true],
      ["\\\\server\\共有\\営業", true],
      ["//server/共有/営業", true],
      ["\\\\?\\C:\\共有\\営業", true],
      ["\\\\?\\UNC\\server\\共有\\営業", true],
      ["C:共有", false], // relative to the drive's current folder
      ["C:", false],
      ["\\共有\\営業", false], // rooted on the current drive: which drive is not known
      ["共有\\営業", false]
    ]
    for (const [p, absolute] of cases) expect(isAbsoluteFolder(p, "win32"), p).toBe(absolute)
  })

  it("withoutLongPathPrefix() spells \\\\?\\ and \\\\.\\ paths as their plain form", () => {
    expect(withoutLongPathPrefix("\\\\?\\C:\\共有\\営業")).toBe("C:\\共有\\営業")
    expect(withoutLongPathPrefix("\\\\.\\D:\\a")).toBe("D:\\a")
    expect(withoutLongPathPrefix("\\\\?\\UNC\\server\\共有\\営業")).toBe("\\\\server\\共有\\営業")
    expect(withoutLongPathPrefix("\\\\?\\unc\\server\\共有")).toBe("\\\\server\\共有")
    expect(withoutLongPathPrefix("\\\\server\\共有\\営業")).toBe("\\\\server\\共有\\営業")
    expect(withoutLongPathPrefix("C:\\a")).toBe("C:\\a")
    // A device that is no drive stays as it is.
    expect(withoutLongPathPrefix("\\\\.\\pipe\\sagasu")).toBe("\\\\.\\pipe\\sagasu")
  })

  it("folderSegments() folds case, both separators, the long-path prefix, and never climbs above a share", () => {
    expect(folderSegments("\\\\SERVER\\共有\\営業\\", "win32")).toEqual(["\\\\", "server", "共有", "営業"])
    expect(folderSegments("\\\\?\\UNC\\Server\\共有\\営業", "win32")).toEqual(["\\\\", "server", "共有", "営業"])
    expect(folderSegments("\\\\?\\C:\\Share\\営業", "win32")).toEqual(["c:", "share", "営業"])
    expect(folderSegments("C:/Share\\営業/./2024", "win32")).toEqual(["c:", "share", "営業", "2024"])
    expect(folderSegments("\\\\server\\共有\\..\\..\\営業", "win32")).toEqual(["\\\\", "server", "共有", "営業"])
    expect(folderSegments("C:\\..\\..\\営業", "win32")).toEqual(["c:", "営業"])
  })

  it("folderRelation() compares drive, UNC and long-path spellings of one folder as Windows does", () => {
    const cases: ReadonlyArray<readonly [string, string, string | undefined]> = [
      // case
      ["C:\\SHARE\\営業", "c:\\share\\営業", "same"],
      ["\\\\Server\\共有\\営業", "\\\\server\\共有\\営業", "same"],
      // mixed separators and trailing ones
      ["C:/共有\\営業/", "C:\\共有\\営業", "same"],
      ["//server/共有/営業/2024", "\\\\server\\共有\\営業", "inside"],
      // long paths
      ["\\\\?\\C:\\共有\\営業", "C:\\共有\\営業", "same"],
      ["\\\\?\\UNC\\server\\共有\\営業\\2024", "\\\\server\\共有\\営業", "inside"],
      ["\\\\server\\共有", "\\\\?\\UNC\\SERVER\\共有\\営業", "contains"],
      // apart: a neighbour by name, another server, another drive, a share and a drive
      ["\\\\server\\共有\\営業2", "\\\\server\\共有\\営業", undefined],
      ["\\\\other\\共有\\営業", "\\\\server\\共有\\営業", undefined],
      ["D:\\共有\\営業", "C:\\共有\\営業", undefined],
      ["\\\\server\\共有\\営業", "C:\\共有\\営業", undefined]
    ]
    for (const [a, b, relation] of cases) expect(folderRelation(a, b, "win32"), `${a} ~ ${b}`).toBe(relation)
    // Linux names differ by case: the same two spellings are two folders there.
    expect(folderRelation("/mnt/SHARE/営業", "/mnt/share/営業", "posix")).toBeUndefined()
  })

  it("findFolderOverlap() names the index whose share a long-path spelling points into", () => {
    const others = [
      { name: "経理", path: "\\\\server\\共有\\経理" },
      { name: "営業", path: "\\\\server\\共有\\営業", realPath: "\\\\?\\UNC\\server\\共有\\営業" }
    ]
    expect(findFolderOverlap({ path: "\\\\?\\UNC\\SERVER\\共有\\営業\\見積" }, others, "win32")).toEqual({
      index: "営業",
      path: "\\\\server\\共有\\営業",
      relation: "inside"
    })
  })
})
