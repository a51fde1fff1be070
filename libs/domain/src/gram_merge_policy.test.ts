import { describe, expect, it } from "vitest"
import { chooseRoundMerge, mergeLevel } from "./gram_merge_policy.ts"
import { seededRandom } from "./seeded_random.ts"

describe("mergeLevel() (issue 20)", () => {
  it.each([
    [0, 4, 0], [1, 4, 0], [3, 4, 0], [4, 4, 1], [15, 4, 1], [16, 4, 2], [1_000_000, 4, 9], [4 ** 12, 4, 12], [4 ** 12 - 1, 4, 11], [7, 8, 0], [8, 8, 1]
  ])("%i lines, factor %i → level %i", (lines, factor, level) => {
    expect(mergeLevel(lines, factor)).toBe(level)
  })
})

describe("chooseRoundMerge() (R16, S1; issue 20)", () => {
  it.each([
    { name: "fewer segments than the factor", lines: [10, 10, 10], max: 24, expected: undefined },
    { name: "four new segments on one level", lines: [5_000_000, 150, 200, 250, 100], max: 24, expected: 1 },
    { name: "the newest window on one level, not an older one", lines: [150, 200, 250, 100, 5_000, 4_900, 6_000, 5_500], max: 24, expected: 4 },
    { name: "an older window when the newest segments differ", lines: [150, 200, 250, 100, 90_000, 20], max: 24, expected: 0 },
    { name: "levels that never line up, under the bound: nothing", lines: [4 ** 9, 4 ** 8, 4 ** 7, 4 ** 6, 4 ** 5, 4 ** 4, 4 ** 3], max: 24, expected: undefined },
    { name: "the same past the bound: the window with the fewest lines", lines: [4 ** 9, 4 ** 8, 4 ** 7, 4 ** 6, 4 ** 5, 4 ** 4, 4 ** 3], max: 6, expected: 3 },
    { name: "large old segments are not rewritten for a small new one", lines: [4 ** 12, 4 ** 11, 4 ** 10, 4 ** 9, 4 ** 8, 40_000], max: 24, expected: undefined }
  ])("$name → $expected", ({ lines, max, expected }) => {
    expect(chooseRoundMerge(lines, 4, max)).toBe(expected)
  })

  // The round as a loop: flush a segment of a random size, then merge while the policy says so.
  const simulate = (flushes: ReadonlyArray<number>, choose: (lines: ReadonlyArray<number>) => number | undefined) => {
    const segments: Array<number> = []
    let rewritten = 0
    let most = 0
    for (const lines of flushes) {
      segments.push(lines)
      for (let start = choose(segments); start !== undefined; start = choose(segments)) {
        const merged = segments.slice(start, start + 4).reduce((a, b) => a + b, 0)
        rewritten += merged
        segments.splice(start, 4, merged)
      }
      most = Math.max(most, segments.length)
    }
    return { perLine: rewritten / flushes.reduce((a, b) => a + b, 0), most }
  }
  // The policy before issue 20: at most 2 × factor segments, the window with the fewest lines merged.
  const fewest = (lines: ReadonlyArray<number>) => {
    let best = 0
    for (let s = 0, low = Number.POSITIVE_INFINITY; s + 4 <= lines.length; s++) {
      const sum = lines.slice(s, s + 4).reduce((a, b) => a + b, 0)
      if (sum < low) [best, low] = [s, sum]
    }
    return best
  }

  it("a drive's 900 flushes: each line rewritten about once a level, the count bounded", () => {
    const random = seededRandom(7)
    // 20,000 to 320,000 lines a flush (1–16 MB of rows at ≈ 50 bytes a row).
    const flushes = Array.from({ length: 900 }, () => Math.round(20_000 + random() * 300_000))
    const tiered = simulate(flushes, (lines) => chooseRoundMerge(lines, 4, 24))
    const old = simulate(flushes, (lines) => (lines.length > 8 ? fewest(lines) : undefined))
    expect(tiered.most).toBeLessThanOrEqual(24)
    // log_4 of 900 flushes ≈ 4.9 levels; the bound's fallback adds some.
    expect(tiered.perLine).toBeLessThan(8)
    expect(old.perLine).toBeGreaterThan(20)
  })
})
