import { describe, expect, it } from "vitest"
import { partKey, resolveTarget } from "./_opc.ts"

describe("resolveTarget() (OPC rules, BUG-04)", () => {
  it.each([
    ["xl/workbook.xml", "worksheets/sheet1.xml", "xl/worksheets/sheet1.xml"],
    ["xl/workbook.xml", "/xl/worksheets/sheet.xml", "xl/worksheets/sheet.xml"],
    ["ppt/slides/slide1.xml", "../notesSlides/notesSlide7.xml", "ppt/notesSlides/notesSlide7.xml"],
    ["", "xl/workbook.xml", "xl/workbook.xml"],
    ["", "./word/document.xml", "word/document.xml"],
    ["xl/workbook.xml", "worksheets\\sheet1.xml", "xl/worksheets/sheet1.xml"],
    ["word/document.xml", "media/a.png#frag", "word/media/a.png"]
  ])("from %s, %s is %s", (source, target, part) => {
    expect(resolveTarget(source, target)).toBe(part)
  })
})

describe("partKey()", () => {
  it("ignores ASCII case, backslashes, a leading slash and percent-encoding, but not other case", () => {
    expect(partKey("/XL\\Worksheets\\Sheet1.xml")).toBe(partKey("xl/worksheets/sheet1.xml"))
    expect(partKey("xl/media/%E7%94%BB%E5%83%8F.png")).toBe(partKey("xl/media/画像.png"))
    expect(partKey("Ä.xml")).not.toBe(partKey("ä.xml"))
  })
})
