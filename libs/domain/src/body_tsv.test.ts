import { describe, expect, it } from "vitest"
import { bodyTsvFileName, compareTsvFileNames, formatBodyTsv, formatBodyTsvHeader, formatBodyTsvLines, formatSourceStamp, parseBodyTsv, parseSourceStamp, partNameOfTsvFileName } from "./body_tsv.ts"
import type { BodyPart } from "./extraction.ts"

describe("body-index TSV (SPEC §5)", () => {
  it("writes a header, escapes fields and parses back", () => {
    const part: BodyPart = {
      name: "メモ",
      locator: "cell",
      state: "hidden",
      lines: [{ loc: "A1", text: "見積\t番号" }, { loc: "B2", text: "二行\n目" }]
    }
    const text = formatBodyTsv(part)
    expect(text).toBe("cell\ttext\tstate=hidden\nA1\t見積\\t番号\nB2\t二行\\n目\n")
    expect(parseBodyTsv(text)).toEqual({ locator: "cell", state: "hidden", lines: part.lines })
  })

  it("writes the same text in batches as in one piece (W1: a sheet's TSV is written while it is read)", () => {
    const lines = [{ loc: "A1", text: "見積" }, { loc: "A2", text: "a\\b" }, { loc: "A3", text: "" }, { loc: "B3", text: "\r" }]
    const part: BodyPart = { name: "S", locator: "cell", state: "visible", lines }
    const batched = formatBodyTsvHeader(part) + formatBodyTsvLines(lines.slice(0, 1)) + formatBodyTsvLines([]) + formatBodyTsvLines(lines.slice(1))
    expect(batched).toBe("cell\ttext\nA1\t見積\nA2\ta\\\\b\nA3\t\nB3\t\\r\n")
    expect(batched).toBe(formatBodyTsv(part))
    expect(formatBodyTsvHeader({ name: "S", locator: "slide", state: "veryHidden" })).toBe("slide\ttext\tstate=veryHidden\n")
  })

  it.each([
    [1, "見積書", "1_見積書.tsv"],
    [2, "a/b:c*?", "2_a%2Fb%3Ac%2A%3F.tsv"],
    [3, "100%", "3_100%25.tsv"]
  ])("names part %i %j as %j and reads the name back", (n, name, fileName) => {
    expect(bodyTsvFileName(n, name)).toBe(fileName)
    expect(partNameOfTsvFileName(fileName)).toBe(name)
  })

  it("keeps file names within 200 UTF-8 bytes", () => {
    const fileName = bodyTsvFileName(12, "長".repeat(100))
    expect(new TextEncoder().encode(fileName).length).toBeLessThanOrEqual(200)
  })
})

describe("search-only forms and the source stamp (S4, S5: issue 14)", () => {
  it("writes a third field only for lines with forms, and reads it back", () => {
    const part: BodyPart = {
      name: "S", locator: "cell", state: "visible",
      lines: [{ loc: "A1", text: "¥123,350", forms: "123350" }, { loc: "A2", text: "見積" }, { loc: "A3", text: "x", forms: "" }]
    }
    const text = formatBodyTsv(part)
    expect(text).toBe("cell\ttext\nA1\t¥123,350\t123350\nA2\t見積\nA3\tx\n")
    expect(parseBodyTsv(text).lines).toEqual([{ loc: "A1", text: "¥123,350", forms: "123350" }, { loc: "A2", text: "見積" }, { loc: "A3", text: "x" }])
    expect(parseBodyTsv("property\ttext\ntitle\t報告書\n").locator).toBe("property")
  })

  it("reads back the size and modified time a .complete mark holds; an empty mark holds none", () => {
    expect(parseSourceStamp(formatSourceStamp({ size: 12345, mtimeMs: 1700000000123 }))).toEqual({ size: 12345, mtimeMs: 1700000000123 })
    expect(parseSourceStamp("")).toBeUndefined()
    expect(parseSourceStamp("size\t-1\nmodified\tx\n")).toBeUndefined()
  })
})

describe("the order of a source file's TSVs", () => {
  it.each([
    ["2_b.tsv", "10_a.tsv", -1],
    ["10_a.tsv", "2_b.tsv", 1],
    ["1_見積.tsv", "1_見積.tsv", 0],
    ["9_z.tsv", "9_zz.tsv", -1],
    ["100_x.tsv", "99_y.tsv", 1]
  ])("%s against %s: %i (the part number, then the name)", (a, b, sign) => {
    expect(Math.sign(compareTsvFileNames(a, b))).toBe(sign)
  })

  it("sorts a workbook's parts in workbook order", () => {
    expect(["10_k.tsv", "1_a.tsv", "2_b.tsv", "11_l.tsv", "3_c.tsv"].sort(compareTsvFileNames)).toEqual(["1_a.tsv", "2_b.tsv", "3_c.tsv", "10_k.tsv", "11_l.tsv"])
  })
})
