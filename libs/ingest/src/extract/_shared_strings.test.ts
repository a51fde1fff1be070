import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { extractBuffer } from "../extract.ts"
import { LineBudget } from "./_limits.ts"
import { SharedStringsReader, SharedStringsScan, SharedStringTable } from "./_shared_strings.ts"
import { workbookFiles, worksheet, zipOf } from "./_test_packages.ts"
import { XmlStream } from "./_xml.ts"

describe("SharedStringTable (issue 9: the table of a 100 MB workbook packed)", () => {
  it("gives back every string by index, across blocks, before and after packing", () => {
    const table = new SharedStringTable()
    // Latin-1 and wider strings interleaved in uneven runs (two pools, a bit per string), empty ones among
    // them, 0 to 2,999 characters long: ~3 million characters, blocks of both pools.
    const strings = Array.from({ length: 3000 }, (_, i) =>
      i % 7 === 0 ? "" : i % 5 < 2 ? `code-${i}-` + "x".repeat(i) : i % 5 === 2 ? `café ${i}` : `${i}番目:` + "あa".repeat(i >> 1))
    strings.forEach((s) => table.push(s))
    expect(table.length).toBe(3000)
    // The last few are still pending (not yet a full block).
    expect(strings.every((s, i) => table.get(i) === s)).toBe(true)
    table.pack()
    expect(strings.every((s, i) => table.get(i) === s)).toBe(true)
    table.push("後から")
    expect(table.get(3000)).toBe("後から")
  })

  it("has no string at a negative, fractional or too large index (BUG-01: never a wrong string)", () => {
    const table = new SharedStringTable()
    table.push("請求書")
    table.pack()
    expect([table.get(-1), table.get(0.5), table.get(1), table.get(Number.NaN), table.get(0)]).toEqual([undefined, undefined, undefined, undefined, "請求書"])
  })
})

/** The strings of a table, in order. */
const stringsOf = (table: SharedStringTable): Array<string> => Array.from({ length: table.length }, (_, i) => table.get(i) ?? "")

const message = (e: unknown) => (e instanceof Error ? e.message : String((e as { detail?: string }).detail ?? e))

/** The saxes path's reading of `xml`: the strings, or the error. */
function saxes(xml: string, budget = new LineBudget(1e9, 1e9)): { strings: Array<string>; error?: string } {
  const reader = new SharedStringsReader(budget)
  try {
    const stream = new XmlStream("xl/sharedStrings.xml", reader)
    stream.write(xml)
    stream.close()
    return { strings: stringsOf(reader.strings) }
  } catch (e) {
    return { strings: stringsOf(reader.strings), error: message(e) }
  }
}

/** The fast path's reading of `xml` written in `pieces`: its outcome and the strings (or the error). */
function fast(pieces: ReadonlyArray<string>): { outcome: string; strings: Array<string>; error?: string } {
  const reader = new SharedStringsReader(new LineBudget(1e9, 1e9))
  const scan = new SharedStringsScan(reader, "xl/sharedStrings.xml", 1000)
  try {
    for (const piece of pieces) scan.write(piece)
    scan.finish()
    return { outcome: scan.outcome._tag, strings: stringsOf(reader.strings) }
  } catch (e) {
    return { outcome: scan.outcome._tag, strings: stringsOf(reader.strings), error: message(e) }
  }
}

const sml = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
const sst = (items: string, root = `<sst xmlns="${sml}" count="9" uniqueCount="9">`, close = "</sst>") =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n${root}${items}${close}`

/** Asserts the fast path reads `xml` as saxes does, whole and cut in two at every position; returns the outcome. */
function same(xml: string): string {
  const expected = saxes(xml)
  const whole = fast([xml])
  if (whole.outcome !== "fallback") expect({ strings: whole.strings, error: whole.error }, "written whole").toEqual({ strings: expected.strings, error: expected.error })
  for (let k = 1; k < xml.length; k++) {
    const cut = fast([xml.slice(0, k), xml.slice(k)])
    if (cut.outcome !== "fallback") expect({ strings: cut.strings, error: cut.error }, `cut at ${k}`).toEqual({ strings: expected.strings, error: expected.error })
    expect(cut.outcome, `cut at ${k}`).toBe(whole.outcome)
  }
  return whole.outcome
}

describe("SharedStringsScan: the fast sst path reads what saxes reads (issue 20)", () => {
  it("plain and rich items, readings and phonetic properties left out, entities, CDATA, line ends and _x escapes, empty items", () => {
    const xml = sst(
      `<si><t>請求書</t></si><si><r><rPr><b/><sz val="11"/><color rgb="FFFF0000"/><rFont val="游ゴシック"/><family val="3"/><charset val="128"/></rPr><t>会議</t></r><r><t xml:space="preserve"> 資料 </t></r></si>` +
        `<si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1" type="noConversion"/></si>` +
        `<si><t>&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos; &#x6771;&#20140; 1\r\n2\r3</t></si><si><t><![CDATA[<生> & raw\r\n]]>tail</t></si>` +
        `<si><t>_x0041__x000D__x005F_x0041_</t></si><si><t/></si><si/><si></si><!-- a comment --><?pi data?>\r\n  <si><t>末尾</t></si>`
    )
    expect(same(xml)).toBe("fast")
    expect(saxes(xml).strings).toEqual(["請求書", "会議 資料 ", "東京", "<a> & \"b\" 'c' 東京 1\n2\n3", "<生> & raw\ntail", "A\r_x0041_", "", "", "", "末尾"])
  })

  it("a prefixed SpreadsheetML namespace (x:si), and no table at all", () => {
    const xml = sst(`<x:si><x:t>納品書</x:t></x:si><x:si><x:r><x:t>一</x:t></x:r><x:r><x:t>二</x:t></x:r></x:si>`, `<x:sst xmlns:x="${sml}">`, "</x:sst>")
    expect(same(xml)).toBe("fast")
    expect(saxes(xml).strings).toEqual(["納品書", "一二"])
    expect(same(sst("").replace("<sst", "<sst").replace("></sst>", "/>"))).toBe("fast")
    expect(same(`<?xml version="1.0"?><root xmlns="${sml}"><si><t>x</t></si></root>`)).toBe("saxes")
  })

  it("what it does not read it gives back: Markup Compatibility, extensions, another prefix, a nested si, a declaration", () => {
    const cases = [
      `<si><mc:AlternateContent xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"><mc:Choice Requires="x"><t>選</t></mc:Choice><mc:Fallback><t>代</t></mc:Fallback></mc:AlternateContent></si>`,
      `<si><t>a</t></si><extLst><ext uri="u"/></extLst>`,
      `<si><t xmlns:y="y-ns">a</t></si>`,
      `<si><t>a</t><si><t>b</t></si></si>`,
      `<si><y:t xmlns:y="${sml}">a</y:t></si>`
    ]
    for (const items of cases) {
      const xml = sst(items)
      expect(fast([xml]).outcome, items).toBe("fallback")
    }
  })

  it("malformed items are given back, and the saxes path fails them as before", () => {
    const cases = [
      `<si><t>a</t></bad>`,
      `<si><t>a</t></si><si>`,
      `<si><t>&nbsp;</t></si>`,
      `<si><t>a & b</t></si>`,
      `<si><t>\u0001</t></si>`,
      `<si><t>]]></t></si>`,
      `<si><t xml:space="a" xml:space="b">a</t></si>`,
      `<si><t q=1>a</t></si>`
    ]
    for (const items of cases) {
      const xml = sst(items)
      expect(fast([xml]).outcome, items).toBe("fallback")
      expect(saxes(xml).error, items).toBeDefined()
    }
  })

  it("a table the fast path gives back late is read again by saxes, its characters counted once against the budget", async () => {
    // 2,000 items of 10 characters: (10 + 8) × 2,000 = 36,000 held; the budget takes 50,000. The extension
    // at the end sends the part back to saxes after every item was read: counted twice, it would fail too-large.
    const items = Array.from({ length: 2000 }, (_, i) => `<si><t>${String(i).padStart(10, "0")}</t></si>`).join("")
    const part = sst(`${items}<extLst><ext uri="u"/></extLst>`)
    const files = workbookFiles({ sheets: [{ name: "S", xml: worksheet(`<row r="1"><c r="A1" t="s"><v>1999</v></c></row>`) }], sharedStrings: "" })
    const bytes = await zipOf({ ...files, "xl/sharedStrings.xml": part })
    const outcomes: Array<string> = []
    const read = await Effect.runPromise(
      Effect.either(extractBuffer(bytes, "book.xlsx", { maxTextChars: 50_000, onSharedStringsScan: (_, o) => outcomes.push(o._tag) }))
    )
    expect(outcomes).toEqual(["fallback"])
    expect(read._tag).toBe("Right")
    expect(read._tag === "Right" ? read.right.parts[0]?.lines.map((l) => l.text) : []).toEqual(["0000001999"])
    const tooSmall = await Effect.runPromise(Effect.either(extractBuffer(bytes, "book.xlsx", { maxTextChars: 30_000 })))
    expect(tooSmall._tag === "Left" ? tooSmall.left.reason : "read").toBe("too-large")
  })
})
