import { Either, ParseResult } from "effect"
import { describe, expect, it } from "vitest"
import { decodeSettings, defaultSettings, encodeSettings } from "./settings.ts"

const messageOf = (input: unknown): string => {
  const result = decodeSettings(input)
  if (Either.isRight(result)) throw new Error("expected a decode error")
  return ParseResult.TreeFormatter.formatErrorSync(result.left)
}

describe("Settings (SPEC §5 setting.config)", () => {
  it("fills the defaults of an empty file", () => {
    expect(defaultSettings).toEqual({
      targetFolders: [],
      cloudFiles: "skip",
      fileTimeoutMinutes: 10,
      officeRecycleAfter: 100,
      language: "ja"
    })
  })

  it("decodes a full file and enables indexes by default", () => {
    const result = decodeSettings({
      targetFolders: [{ name: "共有", path: "/srv/share" }],
      ingestThreads: 2,
      cloudFiles: "download",
      language: "en"
    })
    expect(Either.getOrThrow(result)).toMatchObject({
      targetFolders: [{ name: "共有", path: "/srv/share", enabled: true }],
      ingestThreads: 2,
      cloudFiles: "download",
      language: "en"
    })
  })

  it("names the field and the problem in its errors", () => {
    expect(messageOf({ ingestThreads: 0 })).toContain("ingestThreads")
    expect(messageOf({ cloudFiles: "maybe" })).toContain('"download"')
    expect(messageOf({ targetFolders: [{ name: "a/b", path: "/x" }] })).toContain("must not contain")
    expect(
      messageOf({ targetFolders: [{ name: "x", path: "/a" }, { name: "x", path: "/b" }] })
    ).toContain('"x" is used twice')
  })

  it("round-trips through encode and decode", () => {
    const s = Either.getOrThrow(decodeSettings({ targetFolders: [{ name: "a", path: "/a", enabled: false }] }))
    expect(Either.getOrThrow(decodeSettings(JSON.parse(JSON.stringify(encodeSettings(s)))))).toEqual(s)
  })
})
