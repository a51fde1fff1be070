import { describe, expect, it } from "vitest"
import { chooseFinalMerges, chooseRoundMerge, mergeLevel } from "./gram_merge_policy.ts"
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

describe("chooseFinalMerges() (R16; issue 20: the update at the end merges each run of neighbours once)", () => {
  // The two neighbours with the fewest lines, again and again (the update's rule before): lines written.
  const pairs = (lines: ReadonlyArray<number>, max: number) => {
    const s = [...lines]
    let written = 0
    while (s.length > max) {
      let best = 0
      for (let i = 1; i + 1 < s.length; i++) if (s[i]! + s[i + 1]! < s[best]! + s[best + 1]!) best = i
      written += s[best]! + s[best + 1]!
      s.splice(best, 2, s[best]! + s[best + 1]!)
    }
    return written
  }
  const written = (lines: ReadonlyArray<number>, runs: ReadonlyArray<{ start: number; count: number }>) =>
    runs.reduce((sum, r) => sum + lines.slice(r.start, r.start + r.count).reduce((a, b) => a + b, 0), 0)

  // The live lines of the 14 segments the corpus run ended with (a traced run of the shared corpus).
  const corpus = [52426, 207387, 314877, 29237, 48, 8743, 8124, 2534, 1925, 53090, 3016, 2051, 41215, 17104]

  it("the corpus run's 14 segments: 2 merges writing 55,678 lines where 6 pair merges wrote 98,556", () => {
    const runs = chooseFinalMerges(corpus, corpus.map(() => 1), 8, 1e12)
    expect(runs).toEqual([{ start: 3, count: 6 }, { start: 10, count: 2 }])
    expect(written(corpus, runs)).toBe(55_678)
    expect(pairs(corpus, 8)).toBe(98_556)
    expect(corpus.length - runs.reduce((n, r) => n + r.count - 1, 0)).toBe(8)
  })

  it.each([
    { name: "not more than the bound: nothing", lines: [5, 4, 3], text: [1, 1, 1], max: 3, limit: 10, expected: [] },
    { name: "one too many: the smallest pair of neighbours", lines: [100, 7, 9, 50], text: [1, 1, 1, 1], max: 3, limit: 10, expected: [{ start: 1, count: 2 }] },
    { name: "a run past the text bound is not taken", lines: [100, 7, 9, 50], text: [1, 6, 6, 1], max: 3, limit: 10, expected: [{ start: 2, count: 2 }] },
    { name: "no cut fits the text bound: nothing (the caller merges pairs)", lines: [1, 1, 1], text: [6, 6, 6], max: 2, limit: 10, expected: [] },
    { name: "a bound of one: everything in one", lines: [3, 2, 1], text: [1, 1, 1], max: 1, limit: 10, expected: [{ start: 0, count: 3 }] }
  ])("$name", ({ lines, text, max, limit, expected }) => {
    expect(chooseFinalMerges(lines, text, max, limit)).toEqual(expected)
  })

  it("never writes more than merging pairs, and always ends at the bound (random segment lists)", () => {
    const random = seededRandom(11)
    for (let trial = 0; trial < 200; trial++) {
      const n = 2 + Math.floor(random() * 24)
      const lines = Array.from({ length: n }, () => Math.round(random() ** 3 * 400_000))
      const max = 1 + Math.floor(random() * 10)
      const runs = chooseFinalMerges(lines, lines, max, Number.POSITIVE_INFINITY)
      const left = n - runs.reduce((k, r) => k + r.count - 1, 0)
      expect(left).toBe(Math.min(n, max))
      expect(written(lines, runs)).toBeLessThanOrEqual(pairs(lines, max))
      for (let i = 1; i < runs.length; i++) expect(runs[i]!.start).toBeGreaterThanOrEqual(runs[i - 1]!.start + runs[i - 1]!.count)
    }
  })
})
