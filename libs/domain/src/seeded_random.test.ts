import { describe, expect, it } from "vitest"
import { seededRandom } from "./seeded_random.ts"

describe("seededRandom()", () => {
  it("is mulberry32: seed 1 starts with the reference implementation's 0.6270739405881613", () => {
    expect(seededRandom(1)()).toBe(0.6270739405881613)
  })

  it("gives the same sequence for the same seed, another for another seed, always in [0, 1)", () => {
    const a = seededRandom(42)
    const b = seededRandom(42)
    const c = seededRandom(43)
    const xs = Array.from({ length: 1000 }, () => a())
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs)
    expect(c()).not.toBe(xs[0])
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true)
  })
})
