import { describe, expect, it } from "vitest"
import { buildSnippet, matchLine, parseQuery, spansOfTerms } from "./search_match.ts"

describe("parseQuery()", () => {
  it.each([
    ["見積 A-1234", ["見積", "a-1234"]],
    ["見積\u3000番号", ["見積", "番号"]],
    ['"Next meeting" ２０２４', ["next meeting", "2024"]],
    ["   ", []],
    ["見積 -下書き type:xlsx", ["見積"]]
  ])("%j → %j", (input, terms) => {
    expect(parseQuery(input).terms).toEqual(terms)
  })
})

describe("matchLine() and buildSnippet()", () => {
  it("finds every term (AND) and marks the hits in the original text", () => {
    const line = "見積番号 Ａ-1234 株式会社サンプル商事"
    const spans = matchLine(line, parseQuery("a-1234 サンプル"))
    expect(spans).toEqual([[5, 11], [16, 20]])
    expect(buildSnippet(line, spans ?? [])).toBe("見積番号 【Ａ-1234】 株式会社【サンプル】商事")
  })

  it("marks every occurrence and merges touching hits", () => {
    const line = "見積・見積・ミツモリ"
    expect(buildSnippet(line, matchLine(line, parseQuery("見積 みつもり")) ?? [])).toBe("【見積】・【見積】・【ミツモリ】")
  })

  it("marks the whole original character a hit falls inside (㈱ → (株))", () => {
    const line = "㈱サンプル"
    expect(buildSnippet(line, matchLine(line, parseQuery("株")) ?? [])).toBe("【㈱】サンプル")
  })

  it("returns undefined when a term is missing or an excluded term occurs", () => {
    expect(matchLine("見積書 下書き", parseQuery("見積 -下書き"))).toBeUndefined()
    expect(matchLine("見積書", parseQuery("見積 請求"))).toBeUndefined()
    expect(matchLine("見積書", parseQuery(""))).toBeUndefined()
  })

  it("matches half-width katakana against a full-width query and marks the original", () => {
    const line = "ﾃｽﾄ_ｶﾞｲﾄﾞ"
    const spans = matchLine(line, parseQuery("ガイド"))
    expect(buildSnippet(line, spans ?? [])).toBe("ﾃｽﾄ_【ｶﾞｲﾄﾞ】")
  })

  it("cuts long lines around the hit without splitting a surrogate pair", () => {
    const line = "😀".repeat(20) + "HIT" + "x".repeat(50)
    const spans = matchLine(line, parseQuery("hit")) ?? []
    const snippet = buildSnippet(line, spans, { context: 5 })
    expect(snippet).toBe("…" + "😀".repeat(3) + "【HIT】xxxxx…")
  })
})

describe("matchLine() with search-only forms (S4)", () => {
  it("finds a term in the forms and marks the whole displayed value; the snippet shows only the text", () => {
    const spans = matchLine("¥123,350", parseQuery("123350"), "123350")
    expect(buildSnippet("¥123,350", spans ?? [])).toBe("【¥123,350】")
    expect(matchLine("¥123,350", parseQuery("123350"))).toBeUndefined()
    expect(matchLine("2009年9月4日", parseQuery("2009/9/4 -2009-09-04"), "2009/9/4 2009-09-04")).toBeUndefined()
    expect(spansOfTerms("合計 ¥123,350", parseQuery("合計 999"), "123350")).toEqual([[0, 2]])
  })
})
