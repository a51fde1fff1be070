import { describe, expect, it } from "vitest"
import { workOptionHint } from "./work_option.ts"

describe("workOptionHint(): the --work a next-step hint repeats", () => {
  it.each([
    ["the default folder: nothing", "/home/a/.local/share/sagasu", "/home/a/.local/share/sagasu", "linux", ""],
    ["another folder, as it is", "/srv/検索用", "/home/a/.local/share/sagasu", "linux", " --work /srv/検索用"],
    ["a space: single quotes", "/mnt/共有 ドライブ/sagasu", "/d", "linux", " --work '/mnt/共有 ドライブ/sagasu'"],
    ["a quote in it", "/tmp/it's", "/d", "linux", " --work '/tmp/it'\\''s'"],
    ["a dollar sign", "/tmp/$HOME", "/d", "linux", " --work '/tmp/$HOME'"],
    ["Windows, as it is", "D:\\検索\\work", "C:\\Users\\a\\AppData\\Local\\Sagasu", "win32", " --work D:\\検索\\work"],
    ["Windows, a space: double quotes", "D:\\共有 ドライブ\\work", "C:\\x", "win32", ' --work "D:\\共有 ドライブ\\work"']
  ] as const)("%s", (_what, work, fallback, platform, expected) => {
    expect(workOptionHint(work, fallback, platform)).toBe(expected)
  })
})
