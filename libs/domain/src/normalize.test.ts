import { describe, expect, it } from "vitest"
import { normalizeForSearch, normalizeWithMap } from "./normalize.ts"
import { seededRandom } from "./seeded_random.ts"

describe("normalizeForSearch() (SPEC §5: NFKC, case fold, width; issue 6: kana, dashes)", () => {
  it.each([
    ["ＡＢＣ１２３", "abc123"],
    ["ｶﾞｲﾄﾞ", "がいど"],
    ["カ\u3099イト\u3099", "がいど"], // NFD as macOS writes names (BUG-30)
    ["いう\u309Bぁんか", "いゔぁんか"], // spacing voiced mark (BUG-28)
    ["Invoice No.", "invoice no."],
    ["㈱サンプル", "(株)さんぷる"],
    ["😀Ａ", "😀a"],
    ["ΟΔΟΣ", "οδοσ"], // final sigma folded: same key wherever a line is cut
    ["A－001 A−001 Aー001 A‐001", "a-001 a-001 a-001 a-001"],
    ["10〜20 10～20", "10~20 10~20"],
    ["データ", "で-た"],
    ["ヷ", "わ\u3099"],
    ["한", "한"],
    ["\u1112\u1161\u11AB", "한"], // NFD Hangul (BUG-30's Korean report)
    ["ﾊﾟﾆｯｸ です", "ぱにっく です"]
  ])("%j → %j", (input, expected) => {
    expect(normalizeForSearch(input)).toBe(expected)
  })

  it.each([
    [{ kana: false }, "パソコン", "パソコン"],
    [{ dashes: false }, "A－001 データ", "a-001 でーた"],
    [{ kana: false, dashes: false }, "ｶﾞｲﾄﾞ", "ガイド"]
  ])("with options %j: %j → %j", (options, input, expected) => {
    expect(normalizeForSearch(input, options)).toBe(expected)
    expect(normalizeWithMap(input, options).text).toBe(expected)
  })

  it("maps every normalised unit back to its original segment", () => {
    const n = normalizeWithMap("ｶﾞＢ")
    // ｶﾞ (2 units) → が (1 unit); Ｂ → b
    expect(n.text).toBe("がb")
    expect(n.from).toEqual([0, 2])
    expect(n.to).toEqual([2, 3])
  })

  it("the whole-text fast path gives the same string as the mapped path on random mixed text", () => {
    const alphabet = [..."aAｱｶﾞﾞﾟ゛゜\u3099\u309Aかカ・ーｰ－−‐〜～ΣσςﾊﾟパＡ１😀𠮷 \t漢字㈱㍻ﬁ\u1100\u1161\u11A8가é\u0301ŉİ"]
    const random = seededRandom(28)
    for (let n = 0; n < 3000; n++) {
      let s = ""
      const len = 1 + Math.floor(random() * 12)
      for (let i = 0; i < len; i++) s += alphabet[Math.floor(random() * alphabet.length)]
      expect(normalizeForSearch(s), JSON.stringify(s)).toBe(normalizeWithMap(s).text)
    }
  })

  // The map without marks is the identity (issue 13: a snippet's fast path); it must be the segment-wise map.
  it("maps units exactly as segment by segment, with or without marks, on random mixed text", () => {
    const segment = /[\s\S][\p{M}\u309B\u309C\uFF9E\uFF9F\u1160-\u11FF\uD7B0-\uD7FF]*/gu
    const bySegment = (s: string) => {
      let text = ""
      const from: Array<number> = []
      const to: Array<number> = []
      for (const m of s.matchAll(segment)) {
        const n = normalizeForSearch(m[0])
        for (let i = 0; i < n.length; i++) {
          from.push(m.index)
          to.push(m.index + m[0].length)
        }
        text += n
      }
      return { text, from, to }
    }
    const plain = [..."aAZ09 -_.,/:()（）「」、。かなカナ漢字株式会社ＡＢｃ１２３ｱｲｳ・ーｰ－−‐〜～ΣσςİŉßẞÅﬁ㈱㍻①\t"]
    const marked = [..."ｶﾞﾟ゛゜\u3099\u309A😀𠮷\u1100\u1161\u11A8é\u0301"]
    const random = seededRandom(13)
    let fast = 0
    for (let n = 0; n < 4000; n++) {
      let s = ""
      const len = 1 + Math.floor(random() * 16)
      const alphabet = random() < 0.7 ? plain : [...plain, ...marked]
      for (let i = 0; i < len; i++) s += alphabet[Math.floor(random() * alphabet.length)]
      const got = normalizeWithMap(s)
      expect(got, JSON.stringify(s)).toEqual(bySegment(s))
      if (normalizeForSearch(s).length === s.length && !/[\p{M}\uFF9E\uFF9F\u309B\u309C\u1160-\u11FF]/u.test(s) && !/[\uD800-\uDFFF]/.test(s)) fast++
    }
    // Both paths were taken many times.
    expect(fast).toBeGreaterThan(1000)
    expect(fast).toBeLessThan(3800)
  })

  // The gram index normalises a block of TSV rows at once (issue 9): that must be the rows normalised one by one.
  it("never joins or makes characters across a tab or a line feed: a block of rows normalises row by row", () => {
    const alphabet = [..."aAｱｶﾞﾞﾟ゛゜\u3099\u309Aかカ・ーｰ－−‐〜～ΣσςﾊﾟパＡ１😀𠮷 漢字㈱㍻ﬁ\u1100\u1161\u11A8가é\u0301ŉİ\u2028\uFEFF＼\uD800\uDC00"]
    const random = seededRandom(9)
    const piece = () => {
      let s = ""
      const len = Math.floor(random() * 6)
      for (let i = 0; i < len; i++) s += alphabet[Math.floor(random() * alphabet.length)]
      return s
    }
    for (let n = 0; n < 3000; n++) {
      const rows = Array.from({ length: 1 + Math.floor(random() * 4) }, () => [piece(), piece()])
      const block = rows.map(([loc, text]) => `${loc}\t${text}`).join("\n")
      const expected = rows.map(([loc, text]) => `${normalizeForSearch(loc ?? "")}\t${normalizeForSearch(text ?? "")}`).join("\n")
      expect(normalizeForSearch(block), JSON.stringify(block)).toBe(expected)
    }
  })
})

// cases.md BUG-28: index and query through the same normaliser; every spelling finds the document.
describe("BUG-28: standalone/combining dakuten and kana unification", () => {
  const documents = ["イヴァンカ", "ヴァイオリン", "パニック です"]
  it.each([
    ["いう\u309Bぁんか", "イヴァンカ"],
    ["イヴァンカ", "イヴァンカ"],
    ["ｲｳﾞｧﾝｶ", "イヴァンカ"],
    ["イウ\u3099ァンカ", "イヴァンカ"],
    ["ゔぁいおりん", "ヴァイオリン"],
    ["パニック", "パニック です"]
  ])("query %j finds %j", (query, document) => {
    const key = normalizeForSearch(query)
    expect(documents.filter((d) => normalizeForSearch(d).includes(key))).toEqual([document])
  })
})

// cases.md BUG-30: NFD names and text (macOS) are found by an NFC query (Windows).
describe("BUG-30: NFD and NFC spellings share one search key", () => {
  it.each([
    ["テスト_ガイド.docx", "ガイド"],
    ["テスト_カ\u3099イト\u3099.docx", "ガイド"],
    ["ハ\u309Aンフレット", "パンフ"]
  ])("%j holds %j", (name, query) => {
    expect(normalizeForSearch(name).includes(normalizeForSearch(query))).toBe(true)
  })
})
