/**
 * The fast sheetData scanner against the saxes reader on the same text
 * (issue 20): the same cells in the same order, or — for what the scanner
 * does not read — a fallback, after which the saxes path is the answer.
 * Every sheet is also cut into two pieces at every position, as the zip's
 * pieces may cut it anywhere.
 */
import { describe, expect, it } from "vitest"
import { compileFormat } from "./_format_code.ts"
import type { CellContext } from "./_cell_text.ts"
import { LineBudget } from "./_limits.ts"
import { WorksheetScan } from "./_sheet_scan.ts"
import { SharedStringTable } from "./_shared_strings.ts"
import { WorksheetReader } from "./_worksheet.ts"
import { XmlStream } from "./_xml.ts"

const sml = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
const strings = new SharedStringTable()
for (const s of ["請求書", "東京", "A&B"]) strings.push(s)
strings.pack()
const context: CellContext = {
  sharedStrings: strings,
  formats: [undefined, compileFormat('yyyy"年"m"月"d"日"'), compileFormat("#,##0"), compileFormat('@"様"')],
  date1904: false
}

interface Read {
  readonly lines: ReadonlyArray<string>
  readonly areas: number
  readonly links: number
  readonly footer: ReadonlyArray<readonly [string, string]>
  readonly error?: string
}

const collect = (reader: WorksheetReader, error?: string): Read => ({
  // A cell's search-only forms (S4) after its text: both paths must give them too.
  lines: reader.lines().map((l) => `${l.loc}=${l.text}${l.forms === undefined ? "" : ` [${l.forms}]`}`),
  areas: reader.areas.length,
  links: reader.hyperlinks.length,
  footer: reader.headerFooter,
  ...(error !== undefined ? { error } : {})
})

const message = (e: unknown) => (e instanceof Error ? e.message : String((e as { detail?: string }).detail ?? e))

/** The saxes path's reading of `xml`. */
function saxes(xml: string, maxDepth = 1000): Read {
  const reader = new WorksheetReader(context, new LineBudget(1e9), "sheet.xml")
  try {
    const stream = new XmlStream("sheet.xml", reader, maxDepth)
    stream.write(xml)
    stream.close()
    return collect(reader)
  } catch (e) {
    return collect(reader, message(e))
  }
}

/** The fast path's reading of `xml` written in `pieces`: its outcome and what it read. */
function fast(pieces: ReadonlyArray<string>, maxDepth = 1000): { outcome: string; read: Read } {
  const reader = new WorksheetReader(context, new LineBudget(1e9), "sheet.xml")
  const scan = new WorksheetScan(new XmlStream("sheet.xml", reader, maxDepth), reader.cells, context, maxDepth)
  try {
    for (const piece of pieces) scan.write(piece)
    scan.finish()
    return { outcome: scan.outcome._tag, read: collect(reader) }
  } catch (e) {
    return { outcome: scan.outcome._tag, read: collect(reader, message(e)) }
  }
}

const sheet = (data: string, after = "", root = `<worksheet xmlns="${sml}" xmlns:r="r-ns" xmlns:x14ac="x14ac-ns">`, close = "</worksheet>") =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n${root}<dimension ref="A1"/><sheetData>${data}</sheetData>${after}${close}`

/** Asserts the fast path reads `xml` as saxes does, whole and cut in two at every position; returns the outcome. */
function same(xml: string, maxDepth = 1000): string {
  const expected = saxes(xml, maxDepth)
  const whole = fast([xml], maxDepth)
  expect(whole.read, "written whole").toEqual(expected)
  for (let k = 1; k < xml.length; k++) {
    const cut = fast([xml.slice(0, k), xml.slice(k)], maxDepth)
    if (cut.outcome !== "fallback") expect(cut.read, `cut at ${k}`).toEqual(expected)
    expect(cut.outcome, `cut at ${k}`).toBe(whole.outcome)
  }
  return whole.outcome
}

describe("WorksheetScan: the fast sheetData path reads what saxes reads (issue 20)", () => {
  it("shared, inline and rich strings, readings left out, numbers and dates as shown, booleans, errors, formulas", () => {
    const xml = sheet(
      `<row r="1" spans="1:9" x14ac:dyDescent="0.25"><c r="A1" t="s"><v>0</v></c><c r="B1" s="1"><v>45000</v></c><c r="C1" s="2"><v>1234567</v></c>` +
        `<c r="D1" t="inlineStr"><is><r><rPr><b/><sz val="11"/></rPr><t>会議</t></r><r><t xml:space="preserve"> 資料 </t></r><rPh sb="0" eb="2"><t>カイギ</t></rPh><phoneticPr fontId="1"/></is></c>` +
        `<c r="E1" t="b"><v>1</v></c><c r="F1" t="e"><v>#N/A</v></c><c r="G1" t="str"><f>A1&amp;"x"</f><v>請求書x</v></c><c r="H1"><f>SUM(B1:C1)</f></c>` +
        `<c r="I1" s="3" t="s"><v>1</v></c><c r="J1" t="s"><v></v></c><c r="K1" t="s"><v>9</v></c><c r="L1" s="0"/></row>`
    )
    expect(same(xml)).toBe("fast")
    expect(saxes(xml).lines).toEqual([
      "A1=請求書", "B1=2023年3月15日 [2023/3/15 2023/03/15 2023-03-15]", "C1=1,234,567 [1234567]", "D1=会議 資料 ", "E1=TRUE", "F1=#N/A", "G1=請求書x", "H1==SUM(B1:C1)", "I1=東京様"
    ])
  })

  it("entities, character references, CDATA, line ends and _x escapes in values, in both quote styles", () => {
    const xml = sheet(
      `<row r="2"><c r='A2' t='inlineStr'><is><t>&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos; &#x6771;&#20140; 1\r\n2\r3</t></is></c>` +
        `<c r="B2" t="inlineStr"><is><t><![CDATA[<生> & raw\r\n]]>tail</t></is></c><c r="C2" t="str"><v>_x0041__x000D_</v></c>` +
        `<c r="D2" t="inlineStr"><is><t>&#x1F600; &#13;</t></is></c></row>`
    )
    expect(same(xml)).toBe("fast")
    expect(saxes(xml).lines).toEqual(["A2=<a> & \"b\" 'c' 東京 1\n2\n3", "B2=<生> & raw\ntail", "C2=A\r", "D2=😀 \r"])
  })

  it("issue 15 item 7 rules: bare numbers and missing r take the next position; rows without r follow", () => {
    const v = (t: string) => `<is><t>${t}</t></is>`
    const xml = sheet(
      `<row r="2"><c r="0" t="inlineStr">${v("a")}</c><c r="1" t="inlineStr">${v("b")}</c></row><row><c t="inlineStr">${v("c")}</c><c r=" D3 " t="inlineStr">${v("d")}</c></row>` +
        `<row r="x"><c r="A9" t="inlineStr">${v("e")}</c><c t="inlineStr">${v("f")}</c></row>`
    )
    expect(same(xml)).toBe("fast")
    expect(saxes(xml).lines).toEqual(["A2=a", "B2=b", "A3=c", "B3=d", "A9=e", "B9=f"])
  })

  it("r, s and t read where they stand in the text: references, odd numbers and qualified attributes on every row as saxes reads them", () => {
    const v = (t: string) => `<is><t>${t}</t></is>`
    const xml = sheet(
      `<row r="0004" spans="1:3" x14ac:dyDescent="0.25"><c r="B&#52;" s=" 2" t="n"><v>1000</v></c><c r="C\t4" s="2.0"><v>2000</v></c><c s="1e0"><v>45000</v></c></row>` +
        `<row r="1e1" x14ac:dyDescent="0.3"><c r="A10" s="x"><v>3000</v></c><c r="B10" s="" t="&#115;"><v>1</v></c><c r="C10" s="0003" t='inlineStr'>${v("d")}</c></row>` +
        `<row r=" 12 " x14ac:dyDescent="0.3" xml:lang="ja"><c r="AAAA12" t="inlineStr">${v("e")}</c><c r="XFE12" t="inlineStr">${v("f")}</c><c r="B1048577" t="inlineStr">${v("g")}</c></row>` +
        `<row r="&#49;3"><c r="b13" t="inlineStr">${v("h")}</c><c r="C13x" t="inlineStr">${v("i")}</c></row>` +
        `<row r="0"><c t="inlineStr">${v("j")}</c><c r="A0" t="inlineStr">${v("k")}</c></row>`
    )
    expect(same(xml)).toBe("fast")
    expect(saxes(xml).lines).toEqual([
      "B4=1,000 [1000]", "C4=2,000 [2000]", "D4=2023年3月15日 [2023/3/15 2023/03/15 2023-03-15]",
      "A10=3000", "B10=東京", "C10=d様",
      "A12=e", "B12=f", "C12=g",
      "B13=h", "C13=i",
      "A14=j", "B14=k"
    ])
  })

  it("a prefixed SpreadsheetML namespace (x:c), comments and processing instructions; merged areas, links and footers after sheetData", () => {
    const xml = sheet(
      `<!-- a comment --><x:row r="1"><?pi data?><x:c r="A1" t="inlineStr"><x:is><x:t>前</x:t></x:is></x:c><x:c r="B1" t="s"><x:v>1</x:v></x:c></x:row>`,
      `<x:mergeCells><x:mergeCell ref="A1:B1"/></x:mergeCells><x:hyperlinks><x:hyperlink ref="A1" r:id="rId1"/></x:hyperlinks><x:headerFooter><x:oddFooter>&amp;C頁</x:oddFooter></x:headerFooter>`,
      `<x:worksheet xmlns:x="${sml}" xmlns:r="r-ns">`,
      "</x:worksheet>"
    ).replace("<dimension ref=\"A1\"/><sheetData>", "<x:sheetData>").replace("</sheetData>", "</x:sheetData>")
    expect(same(xml)).toBe("fast")
    expect(saxes(xml)).toMatchObject({ lines: ["A1=前"], areas: 1, links: 1, footer: [["footer", "頁"]] })
  })

  it("what it does not read it gives back: Markup Compatibility, other prefixes, declarations, odd entities, qualified r", () => {
    const cases = [
      `<row r="1"><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="x14ac"><c r="A1" t="inlineStr"><is><t>選</t></is></c></mc:Choice><mc:Fallback><c r="A1" t="inlineStr"><is><t>代</t></is></c></mc:Fallback></mc:AlternateContent></row>`,
      `<row r="1"><c r="A1"><extLst><ext uri="u"><x14ac:foo/></ext></extLst><v>1</v></c></row>`,
      `<row r="1" xmlns:y="y-ns"><c r="A1"><v>1</v></c></row>`,
      `<row r="1"><c r="A1" x:r="B1" xmlns:x="${sml}"><v>1</v></c></row>`,
      `<row r="1"><c r="A1"><v>1<b/></v></c></row>`
    ]
    for (const data of cases) {
      const xml = sheet(data)
      expect(fast([xml]).outcome, data).toBe("fallback")
    }
  })

  it("malformed sheet data is given back, and the saxes path fails it as before", () => {
    const cases = [
      `<row r="1"><c r="A1"><v>1</v></bad></row>`,
      `<row r="1"><c r="A1" r="B1"><v>1</v></c></row>`,
      `<row r="1" spans="1:2" spans="1:3"><c r="A1"><v>1</v></c></row>`,
      `<row r="1" x14ac:dyDescent="1" x14ac:dyDescent="2"><c r="A1"><v>1</v></c></row>`,
      `<row r="1"><c r="A1" t="s" t="n"><v>1</v></c></row>`,
      `<row r="1"><c r=A1><v>1</v></c></row>`,
      `<row r="1"><c r="A1"><v>&nbsp;</v></c></row>`,
      `<row r="1"><c r="A1"><v>a & b</v></c></row>`,
      `<row r="1"><c r="A1"><v>&#0;</v></c></row>`,
      `<row r="1"><c r="A1"><v>\u0001</v></c></row>`,
      `<row r="1"><c r="A1"><v>]]></v></c></row>`,
      `<row r="1"><c r="A1" y:q="1"><v>1</v></c></row>`,
      `<row r="1"><c r="A1"s="1"><v>1</v></c></row>`,
      `<row r="1"><!-- a -- b --><c r="A1"><v>1</v></c></row>`,
      `<row r="1"><c r="A1"><v>1</v></c>`
    ]
    for (const data of cases) {
      const xml = sheet(data)
      expect(fast([xml]).outcome, data).toBe("fallback")
      expect(saxes(xml).error, data).toBeDefined()
    }
  })

  it("nesting past the depth limit is given back (saxes then fails it too-large); a sheetData elsewhere is left to saxes", () => {
    const deep = sheet(`<row r="1"><c r="A1" t="inlineStr"><is>${"<r>".repeat(20)}<t>深</t>${"</r>".repeat(20)}</is></c></row>`)
    expect(fast([deep], 10).outcome).toBe("fallback")
    expect(saxes(deep, 10).error).toMatch(/nested deeper than 10/)
    expect(same(deep)).toBe("fast")
    const nested = `<worksheet xmlns="${sml}"><foo><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></foo></worksheet>`
    expect(same(nested)).toBe("saxes")
    const empty = sheet("").replace("<sheetData></sheetData>", "<sheetData/>")
    expect(same(empty)).toBe("fast")
  })
})
