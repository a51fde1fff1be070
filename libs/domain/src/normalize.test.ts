import { describe, expect, it } from "vitest"
import { normalizeForSearch, normalizeUnitTable, normalizeWithMap, unitTableMinLength } from "./normalize.ts"
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

// Issue 20: a long text (a block of the body index) takes steps 3–5 unit by unit from a table; a short one does not.
describe("normalizeForSearch() of a long text: the unit table", () => {
  it("gives each unit that NFKC leaves as it is what the string path gives it, or 0 where that is not one unit", () => {
    const table = normalizeUnitTable()
    const zero: Array<number> = []
    for (let c = 0; c < 0x10000; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue
      const ch = String.fromCharCode(c)
      if (ch.normalize("NFKC") !== ch) continue
      // A one-unit text takes the string path (toLowerCase and the folds).
      const expected = normalizeForSearch(ch)
      if (table[c] === 0 && c !== 0) zero.push(c)
      else expect(String.fromCharCode(table[c] ?? 0), `U+${c.toString(16)}`).toBe(expected)
    }
    // Only the units whose steps give two: İ (i + combining dot) and ヷ–ヺ (わ゙ ゐ゙ ゑ゙ を゙).
    expect(zero.map((c) => c.toString(16))).toEqual(["130", "30f7", "30f8", "30f9", "30fa"])
    expect(normalizeForSearch("\u0130")).toBe("i\u0307")
  })

  it("is the rows normalised one by one (each shorter than the table's minimum) on long random blocks", () => {
    // Without İ and 𐐀 (Deseret) a block takes the table all through; with them, the string path.
    const tableUnits = [..."aAZ09 -.,:()（）「」、。かなカナ漢字株式会社データｱｲｳﾊﾟｶﾞ・ーｰ－−‐〜～ΣσςŉßẞÅﬁ㈱㍻①ⅫⒶＡ１😀𠮷\u2028\uFEFFД\t"]
    // Built, as in a process past unitTableAfterUnits (these blocks are fewer units).
    normalizeUnitTable()
    const random = seededRandom(20)
    for (let n = 0; n < 40; n++) {
      const alphabet = n % 4 === 0 ? [...tableUnits, "İ", "𐐀"] : tableUnits
      const rows: Array<string> = []
      let length = 0
      while (length < unitTableMinLength * 2) {
        let row = ""
        const len = Math.floor(random() * 60)
        for (let i = 0; i < len; i++) row += alphabet[Math.floor(random() * alphabet.length)]
        // Some blocks hold a lone surrogate or start with U+FEFF: the decoder must not change them.
        if (n % 10 === 3 && rows.length === 7) row += "\uD800"
        if (n % 10 === 5 && rows.length === 0) row = `\uFEFF${row}`
        rows.push(row)
        length += row.length + 1
      }
      const block = rows.join("\n")
      expect(normalizeForSearch(block)).toBe(rows.map((r) => normalizeForSearch(r)).join("\n"))
    }
  })

  it("leaves a long text with nothing to change as it is, and one without ヷ or İ through the table", () => {
    normalizeUnitTable()
    const plain = "見積番号 1234 かな漢字。".repeat(1000)
    expect(normalizeForSearch(plain)).toBe(plain)
    expect(normalizeForSearch("データ ABC Σ−1 ".repeat(600))).toBe("で-た abc σ-1 ".repeat(600))
    expect(normalizeForSearch("ヷ".repeat(5000))).toBe("わ\u3099".repeat(5000))
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
