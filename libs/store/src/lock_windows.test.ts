/**
 * The one-run lock's address on Windows (R3, issue 19): a named pipe in
 * `\\.\pipe\`, made from the work folder's key, never a socket file under a
 * drive. Only the name is checked here; listening on a Windows pipe needs
 * Windows (README "Untested on Windows").
 */
import { describe, expect, it } from "vitest"
import { lockAddress } from "./lock.ts"
import { workPaths } from "./work_paths.ts"

describe("lockAddress() on Windows (issue 19)", () => {
  it("is a named pipe under \\\\.\\pipe\\ whatever shape the work folder has", () => {
    for (const root of ["C:\\Users\\山田\\AppData\\Local\\Sagasu", "\\\\server\\共有\\営業\\sagasu", "\\\\?\\C:\\Users\\山田\\AppData\\Local\\Sagasu"]) {
      expect(lockAddress(workPaths(root), "win32"), root).toMatch(/^\\\\\.\\pipe\\sagasu-indexer-[0-9a-f]{32}$/)
    }
  })

  it("is the same for the same folder and differs between folders", () => {
    const a = "C:\\Users\\山田\\AppData\\Local\\Sagasu"
    expect(lockAddress(workPaths(a), "win32")).toBe(lockAddress(workPaths(a), "win32"))
    expect(lockAddress(workPaths(a), "win32")).not.toBe(lockAddress(workPaths("D:\\Sagasu"), "win32"))
    // Linux: an abstract socket with the same key.
    expect(lockAddress(workPaths(a), "linux").slice(1)).toBe(lockAddress(workPaths(a), "win32").slice("\\\\.\\pipe\\".length))
  })
})
