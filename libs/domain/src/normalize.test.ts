import { describe, expect, it } from "vitest"
import { normalizeForSearch, normalizeWithMap } from "./normalize.ts"

describe("normalizeForSearch() (SPEC §5: NFKC, case fold, width)", () => {
  it.each([
    ["ＡＢＣ１２３", "abc123"],
    ["ｶﾞｲﾄﾞ", "ガイド"],
    ["カ\u3099イト\u3099", "ガイド"], // NFD as macOS writes names (BUG-30)
    ["いう\u309Bぁんか", "いゔぁんか"], // spacing voiced mark (BUG-28)
    ["Invoice No.", "invoice no."],
    ["㈱サンプル", "(株)サンプル"],
    ["😀Ａ", "😀a"]
  ])("%j → %j", (input, expected) => {
    expect(normalizeForSearch(input)).toBe(expected)
  })

  it("maps every normalised unit back to its original segment", () => {
    const n = normalizeWithMap("ｶﾞＢ")
    // ｶﾞ (2 units) → ガ (1 unit); Ｂ → b
    expect(n.text).toBe("ガb")
    expect(n.from).toEqual([0, 2])
    expect(n.to).toEqual([2, 3])
  })
})
