import { describe, expect, it } from "vitest"
import { SharedStringTable } from "./_shared_strings.ts"

describe("SharedStringTable (issue 9: the table of a 100 MB workbook packed)", () => {
  it("gives back every string by index, across blocks, before and after packing", () => {
    const table = new SharedStringTable()
    // Latin-1 and wider strings interleaved in uneven runs (two pools, a bit per string), empty ones among
    // them, 0 to 2,999 characters long: ~3 million characters, blocks of both pools.
    const strings = Array.from({ length: 3000 }, (_, i) =>
      i % 7 === 0 ? "" : i % 5 < 2 ? `code-${i}-` + "x".repeat(i) : i % 5 === 2 ? `café ${i}` : `${i}番目:` + "あa".repeat(i >> 1))
    strings.forEach((s) => table.push(s))
    expect(table.length).toBe(3000)
    // The last few are still pending (not yet a full block).
    expect(strings.every((s, i) => table.get(i) === s)).toBe(true)
    table.pack()
    expect(strings.every((s, i) => table.get(i) === s)).toBe(true)
    table.push("後から")
    expect(table.get(3000)).toBe("後から")
  })

  it("has no string at a negative, fractional or too large index (BUG-01: never a wrong string)", () => {
    const table = new SharedStringTable()
    table.push("請求書")
    table.pack()
    expect([table.get(-1), table.get(0.5), table.get(1), table.get(Number.NaN), table.get(0)]).toEqual([undefined, undefined, undefined, undefined, "請求書"])
  })
})
