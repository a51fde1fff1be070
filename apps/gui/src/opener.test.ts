import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { isInside, relativePieces } from "./open_target.ts"
import { hasDesktop, openPathCommand, openerCommand, openerProblem, spawnOpener } from "./opener.ts"

describe("openerCommand()", () => {
  const url = "http://127.0.0.1:1234/?token=abc"
  it("uses the platform's opener", () => {
    expect(openerCommand(url, "darwin", {})).toEqual({ command: "open", args: [url] })
    expect(openerCommand(url, "win32", {})).toEqual({ command: "rundll32", args: ["url.dll,FileProtocolHandler", url] })
  })
  it("does not try on Linux without a desktop session", () => {
    expect(openerCommand(url, "linux", { PATH: "/usr/bin:/bin" })).toBeUndefined()
  })
  it("does not try when xdg-open is missing", () => {
    expect(openerCommand(url, "linux", { DISPLAY: ":0", PATH: "/nonexistent" })).toBeUndefined()
  })
})

describe("openerProblem() (issue 16: POST /api/open on a machine without a desktop)", () => {
  const xdg = { command: "xdg-open", args: ["/mnt/share/a.xlsx"] }
  it("says there is no desktop session on Linux without DISPLAY or WAYLAND_DISPLAY", () => {
    expect(openerProblem(xdg, "linux", { PATH: "/usr/bin:/bin" })).toEqual({ ok: false, problem: "no-desktop" })
  })
  it("says which command is missing when the desktop has no xdg-open", () => {
    expect(openerProblem(xdg, "linux", { DISPLAY: ":0", PATH: "/nonexistent" })).toEqual({ ok: false, problem: "no-opener", command: "xdg-open" })
  })
  it("lets a command on the PATH start, and never doubts Windows' or macOS' own opener", () => {
    const here = path.dirname(process.execPath)
    expect(openerProblem({ command: path.basename(process.execPath), args: [] }, "linux", { WAYLAND_DISPLAY: "wayland-0", PATH: here })).toBeUndefined()
    expect(openerProblem({ command: "explorer.exe", args: [] }, "win32", { PATH: "/nonexistent" })).toBeUndefined()
    expect(openerProblem({ command: "open", args: [] }, "darwin", { PATH: "/nonexistent" })).toBeUndefined()
  })
})

describe("openPathCommand() (issue 16: open a hit's file or its folder)", () => {
  const posixFile = path.posix.join("/mnt/share/営業", "見積", "見積書 A-1234.xlsx")
  const winFile = path.win32.join("C:\\共有\\営業", "見積", "見積書 A-1234.xlsx")
  it.each([
    ["linux", posixFile, false, { command: "xdg-open", args: ["/mnt/share/営業/見積/見積書 A-1234.xlsx"] }],
    ["linux", posixFile, true, { command: "xdg-open", args: ["/mnt/share/営業/見積"] }],
    ["freebsd", posixFile, true, { command: "xdg-open", args: ["/mnt/share/営業/見積"] }],
    ["darwin", posixFile, false, { command: "open", args: ["/mnt/share/営業/見積/見積書 A-1234.xlsx"] }],
    ["darwin", posixFile, true, { command: "open", args: ["-R", "/mnt/share/営業/見積/見積書 A-1234.xlsx"] }],
    ["win32", winFile, false, { command: "explorer.exe", args: ['"C:\\共有\\営業\\見積\\見積書 A-1234.xlsx"'], verbatim: true }],
    ["win32", winFile, true, { command: "explorer.exe", args: ['/select,"C:\\共有\\営業\\見積\\見積書 A-1234.xlsx"'], verbatim: true }],
    ["win32", "\\\\server\\share\\a.docx", true, { command: "explorer.exe", args: ['/select,"\\\\server\\share\\a.docx"'], verbatim: true }]
  ] as const)("%s %s folder=%s", (platform, file, folder, expected) => {
    expect(openPathCommand(file, folder, platform)).toEqual(expected)
  })

  it("knows a desktop session", () => {
    expect(hasDesktop("linux", {})).toBe(false)
    expect(hasDesktop("linux", { DISPLAY: ":0" })).toBe(true)
    expect(hasDesktop("linux", { WAYLAND_DISPLAY: "wayland-0" })).toBe(true)
    expect(hasDesktop("darwin", {})).toBe(true)
    expect(hasDesktop("win32", {})).toBe(true)
  })
})

describe("spawnOpener()", () => {
  it("reports a command that does not exist as a message, never a throw", async () => {
    const outcome = await spawnOpener({ command: "sagasu-no-such-opener", args: ["/tmp/x"] })
    expect(outcome).toEqual({ ok: false, problem: "failed", message: expect.stringContaining("sagasu-no-such-opener: spawn sagasu-no-such-opener ENOENT") })
  })
  it("starts a command detached and answers once it started", async () => {
    expect(await spawnOpener({ command: process.execPath, args: ["-e", ""] })).toEqual({ ok: true })
  })
})

describe("relativePieces() and isInside() (the path of POST /api/open)", () => {
  it.each([
    ["見積/見積書.xlsx", "linux", ["見積", "見積書.xlsx"]],
    ["a/./b.docx", "linux", ["a", "b.docx"]],
    ["..見積.xlsx", "linux", ["..見積.xlsx"]],
    ["a\\b.docx", "linux", ["a\\b.docx"]],
    ["a\\b.docx", "win32", ["a", "b.docx"]],
    ["../x", "linux", undefined],
    ["a/../../x", "linux", undefined],
    ["..\\x", "win32", undefined],
    ["/etc/passwd", "linux", undefined],
    ["/etc/passwd", "win32", undefined],
    ["C:\\Windows\\win.ini", "win32", undefined],
    ["C:win.ini", "win32", undefined],
    ["\\\\server\\share\\x", "win32", undefined],
    ["", "linux", undefined],
    [".", "linux", undefined],
    ["a\u0000b", "linux", undefined]
  ] as const)("%j on %s → %j", (relative, platform, expected) => {
    expect(relativePieces(relative, platform)).toEqual(expected)
  })

  it.each([
    ["/srv/共有", "/srv/共有/a.xlsx", "linux", true],
    ["/srv/共有", "/srv/共有/..a/b.xlsx", "linux", true],
    ["/srv/共有", "/srv/共有2/a.xlsx", "linux", false],
    ["/srv/共有", "/srv/a.xlsx", "linux", false],
    ["/srv/共有", "/etc/passwd", "linux", false],
    ["C:\\共有", "C:\\共有\\a.xlsx", "win32", true],
    ["C:\\共有", "c:\\共有\\A.xlsx", "win32", true],
    ["C:\\共有", "D:\\共有\\a.xlsx", "win32", false],
    ["C:\\共有", "C:\\共有2\\a.xlsx", "win32", false]
  ] as const)("%s holds %s on %s: %s", (parent, child, platform, expected) => {
    expect(isInside(parent, child, platform)).toBe(expected)
  })
})
