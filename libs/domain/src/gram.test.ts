import { describe, expect, it } from "vitest"
import {
  GRAM_END,
  forEachGramInRange,
  forEachGramOfLine,
  gramKey,
  gramOfKey,
  gramRangeOf,
  POSITION_UNKNOWN,
  lookupOfTerm,
  positionsAgree,
  positionsVerdict
} from "./gram.ts"

const gramsOf = (line: string) => {
  const out: Array<string> = []
  forEachGramOfLine(line, (k, position) => {
    const [a, b] = gramOfKey(k)
    expect(position).toBe(out.length)
    out.push(String.fromCodePoint(a) + (b === GRAM_END ? "$" : String.fromCodePoint(b)))
  })
  return out
}

describe("2-gram tokenizer (issue 6: code points, not UTF-16 units)", () => {
  it.each([
    ["", []],
    ["見", ["見$"]],
    ["見積書", ["見積", "積書", "書$"]],
    ["ab", ["ab", "b$"]],
    ["😀見", ["😀見", "見$"]], // a surrogate pair is one character
    ["𠮷野家", ["𠮷野", "野家", "家$"]],
    ["a😀😀", ["a😀", "😀😀", "😀$"]]
  ])("%j → %j", (line, grams) => {
    expect(gramsOf(line)).toEqual(grams)
  })

  it("keys are ordered by first character, so a character's grams form one range", () => {
    const [from, to] = gramRangeOf(0x898B)
    for (const second of [0, 0x41, 0x898B, 0x1F600, GRAM_END]) {
      const k = gramKey(0x898B, second)
      expect(k >= from && k < to).toBe(true)
      expect(gramOfKey(k)).toEqual([0x898B, second])
    }
    expect(gramKey(0x10FFFF, GRAM_END)).toBeLessThan(Number.MAX_SAFE_INTEGER)
  })

  it.each([
    ["", { _tag: "empty" }],
    ["見", { _tag: "first", codePoint: 0x898B }],
    ["😀", { _tag: "first", codePoint: 0x1F600 }],
    ["abab", {
      _tag: "grams",
      keys: [gramKey(0x61, 0x62), gramKey(0x62, 0x61)],
      sequence: [gramKey(0x61, 0x62), gramKey(0x62, 0x61), gramKey(0x61, 0x62)]
    }]
  ])("lookupOfTerm(%j)", (term, expected) => {
    expect(lookupOfTerm(term)).toEqual(expected)
  })
})

describe("forEachGramInRange(): the grams of one line of a block (issue 9)", () => {
  it("gives what forEachGramOfLine gives for the slice, for every line of a block", () => {
    const lines = ["", "見積書", "😀見", "a😀😀", "\uD800x", "x\uDC00", "ab", "𠮷"]
    const block = lines.join("\n")
    const collect = (run: (f: (k: number, p: number) => void) => void) => {
      const out: Array<[number, number]> = []
      run((k, p) => out.push([k, p]))
      return out
    }
    let at = 0
    for (const line of lines) {
      const end = at + line.length
      expect(collect((f) => forEachGramInRange(block, at, end, f)), JSON.stringify(line)).toEqual(collect((f) => forEachGramOfLine(line, f)))
      at = end + 1
    }
  })
})

describe("positionsAgree(): the grams of a term must line up in the line", () => {
  const ab = gramKey(0x61, 0x62)
  const bc = gramKey(0x62, 0x63)
  const ba = gramKey(0x62, 0x61)
  const U = POSITION_UNKNOWN
  it.each([
    ["abc at 4", [ab, bc], { [ab]: 4, [bc]: 5 }, true],
    ["ab and bc apart", [ab, bc], { [ab]: 4, [bc]: 9 }, false],
    ["bc before ab", [ab, bc], { [ab]: 4, [bc]: 2 }, false],
    ["ab several times", [ab, bc], { [ab]: U, [bc]: 9 }, true],
    ["both unknown", [ab, bc], { [ab]: U, [bc]: U }, true],
    ["abab needs ab twice, seen once", [ab, ba, ab], { [ab]: 0, [ba]: 1 }, false],
    ["abab, ab several times", [ab, ba, ab], { [ab]: U, [ba]: 1 }, true],
    ["term would start before the line", [ab, bc], { [ab]: U, [bc]: 0 }, false]
  ] as const)("%s → %s", (_, sequence, tags, expected) => {
    expect(positionsAgree(sequence, (k) => (tags as Record<number, number>)[k] ?? U)).toBe(expected)
  })

  it.each([
    [{ [ab]: 4, [bc]: 5 }, "yes"],
    [{ [ab]: U, [bc]: 5 }, "maybe"],
    [{ [ab]: 4, [bc]: 6 }, "no"]
  ] as const)("verdict for %j is %s", (tags, expected) => {
    expect(positionsVerdict([ab, bc], (k) => (tags as Record<number, number>)[k] ?? U)).toBe(expected)
  })
})
