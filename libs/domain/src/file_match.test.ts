import { describe, expect, it } from "vitest"
import { FileMatch, fileNamesOf, matchNames, termCount } from "./file_match.ts"
import { parseSearchQuery, termMaskOf } from "./search_query.ts"

// S3, S4, S5 (issue 14): a query against a whole file.
describe("FileMatch: words anywhere in the file, names as locations", () => {
  const lines = (query: string, texts: ReadonlyArray<string>, path = "議事録/2024-04.docx", sheets: ReadonlyArray<string> = []) => {
    const q = parseSearchQuery(query)
    const m = new FileMatch<number>(q, matchNames(q, fileNamesOf(path, sheets)))
    texts.forEach((t, i) => {
      const norm = t.normalize("NFKC").toLowerCase()
      if (q.exclude.some((e) => norm.includes(e))) m.exclude()
      m.add(termMaskOf(q, norm), i)
    })
    return m
  }

  it("matches when the words stand in different paragraphs, and counts the locations holding one", () => {
    const m = lines("山田 決定事項", ["出席: 山田", "議題", "決定事項: 予算"])
    expect([m.matches, m.near, m.hits]).toEqual([true, false, 2])
    expect(m.picks(3)).toEqual([0, 2])
  })

  it("is near when one location holds every word", () => {
    const m = lines("山田 決定事項", ["山田", "決定事項は山田が記す", "決定事項"])
    expect([m.matches, m.near, m.hits]).toEqual([true, true, 3])
    // The location holding both first, then the others in document order.
    expect(m.picks(2)).toEqual([1, 0])
  })

  it("does not match when a word is missing or an excluded word stands anywhere", () => {
    expect(lines("山田 予算", ["山田"]).matches).toBe(false)
    expect(lines("山田 -下書き", ["山田", "これは下書き"]).matches).toBe(false)
    expect(lines("山田 -議事録", ["山田"]).matches).toBe(false) // the path holds it
  })

  it("counts a name holding a word as a hit of the file; a name holding every word matches with no text", () => {
    const m = lines("議事録 2024", [], "議事録/2024-04.docx")
    expect([m.matches, m.near, m.hits, m.nameMask]).toEqual([true, true, 1, 0b11])
    const sheet = lines("見積 山田", ["担当 山田"], "a.xlsx", ["見積明細"])
    expect([sheet.matches, sheet.near, sheet.hits]).toEqual([true, true, 2])
    expect(matchNames(parseSearchQuery("見積"), fileNamesOf("a.xlsx", ["見積明細", "集計"])).hits).toEqual([{ kind: "sheet", text: "見積明細", mask: 1 }])
  })

  it("shows each word where it stands before showing more of one word", () => {
    const m = lines("a b c", ["a", "a", "a b", "c", "a"])
    expect(m.picks(2)).toEqual([2, 3])
    expect(m.picks(4)).toEqual([2, 3, 0, 1])
    expect(m.picks(0)).toEqual([])
    expect(termCount(0b1011)).toBe(3)
  })
})
