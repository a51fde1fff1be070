import { describe, expect, it } from "vitest"
import { seededRandom } from "./seeded_random.ts"
import { escapeTsvField, formatTsvLine, parseTsvLine, unescapeTsvField } from "./tsv.ts"

describe("TSV escaping (SPEC §5 body index)", () => {
  it.each([
    ["plain", "plain"],
    ["a\tb", "a\\tb"],
    ["line1\nline2", "line1\\nline2"],
    ["cr\r\n", "cr\\r\\n"],
    ["C:\\path\\x", "C:\\\\path\\\\x"],
    ["\\t literally", "\\\\t literally"],
    ["見積\t番号", "見積\\t番号"]
  ])("escapeTsvField(%j) = %j", (raw, escaped) => {
    expect(escapeTsvField(raw)).toBe(escaped)
    expect(unescapeTsvField(escaped)).toBe(raw)
  })

  it("round-trips random strings made of the special characters exactly", () => {
    // Seeded: the same 2,000 strings every run.
    const random = seededRandom(12345)
    const next = () => Math.floor(random() * 2147483648)
    const alphabet = ["\\", "\t", "\n", "\r", "t", "n", "r", "a", "見", "😀", " "]
    for (let i = 0; i < 2000; i++) {
      let s = ""
      const len = next() % 12
      for (let j = 0; j < len; j++) s += alphabet[next() % alphabet.length]
      const escaped = escapeTsvField(s)
      expect(escaped).not.toMatch(/[\t\n\r]/)
      expect(unescapeTsvField(escaped)).toBe(s)
    }
  })

  it("formats and parses a line of several fields", () => {
    const fields = ["A1", "tab\there", "back\\slash", ""]
    const line = formatTsvLine(fields)
    expect(line).toBe("A1\ttab\\there\tback\\\\slash\t")
    expect(parseTsvLine(line)).toEqual(fields)
  })
})
