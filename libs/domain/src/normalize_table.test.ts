import { describe, expect, it } from "vitest"
import { normalizeForSearch, unitTableAfterUnits, unitTableBuilt } from "./normalize.ts"

// A file of its own: the table is per process (per test file here), and this one must start without it.
describe("normalizeForSearch(): the unit table is built only after enough long text (S2: a cold search never builds it)", () => {
  it("short texts and the first long ones take the string path; past the threshold the table is built, with the same results", () => {
    const row = "見積番号 A-1234 データ　ＡＢＣ\n"
    const block = row.repeat(Math.ceil(10_000 / row.length))
    const expected = "見積番号 a-1234 で-た abc\n".repeat(Math.ceil(10_000 / row.length))
    for (let i = 0; i < 1000; i++) expect(normalizeForSearch(row)).toBe("見積番号 a-1234 で-た abc\n")
    let units = 0
    while (units + block.length < unitTableAfterUnits) {
      expect(normalizeForSearch(block)).toBe(expected)
      units += block.length
    }
    expect(unitTableBuilt()).toBe(false)
    expect(normalizeForSearch(block)).toBe(expected)
    expect(unitTableBuilt()).toBe(true)
    expect(normalizeForSearch(block)).toBe(expected)
  })
})
