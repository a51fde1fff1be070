import { describe, expect, it } from "@effect/vitest"
import type { BodyLine, Extraction } from "@sagasu/domain"
import { Effect, Either } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { ExtractError, extractBuffer, extractFile, type ExtractFileOptions } from "./extract.ts"
import {
  documentFiles,
  relationships,
  sharedStrings,
  slide,
  styles,
  textShape,
  workbookFiles,
  worksheet,
  xmlns,
  zipOf
} from "./extract/_test_packages.ts"

const extract = (files: Record<string, string | Uint8Array>, name = "test.xlsx", options?: ExtractFileOptions) =>
  Effect.flatMap(
    Effect.promise(() => zipOf(files)),
    (bytes) => extractBuffer(bytes, name, options)
  )

const failureOf = (effect: Effect.Effect<Extraction, ExtractError>) =>
  Effect.map(Effect.either(effect), (e) => (Either.isLeft(e) ? e.left : undefined))

const texts = (lines: ReadonlyArray<BodyLine>) => lines.map((l) => l.text)

describe("extractBuffer() on workbooks", () => {
  it.effect("BUG-09 phonetic guides (rPh) never reach the cell text", () =>
    Effect.gen(function* () {
      const sst = sharedStrings([
        `<si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si>`,
        `<si><r><t>日本</t></r><r><t>語</t></r><rPh sb="0" eb="3"><t>ニホンゴ</t></rPh></si>`
      ])
      const sheet = worksheet(
        `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>` +
          `<c r="C1" t="inlineStr"><is><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh></is></c></row>`
      )
      const { parts } = yield* extract(workbookFiles({ sheets: [{ name: "S", xml: sheet }], sharedStrings: sst }))
      expect(parts[0]?.lines).toEqual([
        { loc: "A1", text: "東京" },
        { loc: "B1", text: "日本語" },
        { loc: "C1", text: "東京" }
      ])
    }))

  it.effect("BUG-02 inline strings, rich runs joined in order, without a shared-strings part", () =>
    Effect.gen(function* () {
      const sheet = worksheet(
        `<row r="1"><c r="A1" t="inlineStr"><is><t>見積書</t></is></c>` +
          `<c r="B1" t="inlineStr"><is><r><t>会議</t></r><r><rPr><b/></rPr><t>資料</t></r></is></c></row>`
      )
      const { parts } = yield* extract(workbookFiles({ sheets: [{ name: "S", xml: sheet }] }))
      expect(texts(parts[0]?.lines ?? [])).toEqual(["見積書", "会議資料"])
    }))

  it.effect("BUG-01 shared strings stored after the worksheet in the zip", () =>
    Effect.gen(function* () {
      const files = workbookFiles({
        sheets: [{ name: "S", xml: worksheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`) }],
        sharedStrings: sharedStrings([`<si><t>請求書</t></si>`])
      })
      const { "xl/sharedStrings.xml": last = "", ...rest } = files
      const { parts } = yield* extract({ ...rest, "xl/sharedStrings.xml": last })
      expect(parts[0]?.lines).toEqual([{ loc: "A1", text: "請求書" }])
    }))

  it.effect("BUG-03 x:-prefixed SpreadsheetML reads like the default namespace", () =>
    Effect.gen(function* () {
      const files = workbookFiles({ sheets: [{ name: "ignored", xml: "" }] })
      files["xl/workbook.xml"] =
        `<x:workbook xmlns:x="${xmlns.sml}" xmlns:ns="${xmlns.r}"><x:sheets><x:sheet name="注文" sheetId="1" ns:id="rId1"/></x:sheets></x:workbook>`
      files["xl/worksheets/sheet1.xml"] =
        `<x:worksheet xmlns:x="${xmlns.sml}"><x:sheetData><x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>発注書</x:t></x:is></x:c></x:row></x:sheetData></x:worksheet>`
      const { parts } = yield* extract(files)
      expect(parts).toEqual([{ name: "注文", locator: "cell", state: "visible", lines: [{ loc: "A1", text: "発注書" }] }])
    }))

  it.effect("BUG-04 absolute relationship targets and a worksheet not named sheetN.xml", () =>
    Effect.gen(function* () {
      const files = workbookFiles({
        sheets: [{ name: "稟議", xml: "" }],
        sharedStrings: sharedStrings([`<si><t>稟議書</t></si>`])
      })
      delete files["xl/worksheets/sheet1.xml"]
      files["xl/worksheets/sheet.xml"] = worksheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`)
      files["xl/_rels/workbook.xml.rels"] = relationships([
        ["rId1", "worksheet", "/xl/worksheets/sheet.xml"],
        ["rId2", "sharedStrings", "/xl/sharedStrings.xml"]
      ])
      const { parts } = yield* extract(files)
      expect(parts).toEqual([{ name: "稟議", locator: "cell", state: "visible", lines: [{ loc: "A1", text: "稟議書" }] }])
    }))

  it.effect("BUG-07 built-in Japanese date formats, custom date codes and the 1904 system give ISO dates", () =>
    Effect.gen(function* () {
      const row = (ids: ReadonlyArray<number>, value: number) =>
        `<row r="1">${ids.map((_, i) => `<c r="${String.fromCharCode(65 + i)}1" s="${i}"><v>${value}</v></c>`).join("")}</row>`
      // Styles 0..7: 31, 55, 57, 58 (Japanese built-ins, undefined in the file), 14, custom 164 date-time, custom 165 number, General.
      const ids = [31, 55, 57, 58, 14, 164, 165, 0]
      const style = styles(ids, [
        [164, 'yyyy"年"m"月"d"日" hh:mm'],
        [165, '#,##0"円";[Red]\\-#,##0"円"']
      ])
      const book = (workbookPr?: string) =>
        workbookFiles({ sheets: [{ name: "S", xml: worksheet(row(ids, 45000.5)) }], styles: style, ...(workbookPr ? { workbookPr } : {}) })
      const { parts } = yield* extract(book())
      expect(texts(parts[0]?.lines ?? [])).toEqual([
        "2023-03-15",
        "2023-03-15",
        "2023-03-15",
        "2023-03-15",
        "2023-03-15",
        "2023-03-15 12:00:00",
        "45000.5",
        "45000.5"
      ])
      const in1904 = yield* extract(book(`date1904="1"`))
      expect(in1904.parts[0]?.lines[0]?.text).toBe("2027-03-16")
    }))

  it.effect("cell values go through one function: booleans, errors, formula strings, escapes, numbers", () =>
    Effect.gen(function* () {
      const sheet = worksheet(
        `<row r="1"><c r="A1" t="b"><v>1</v></c><c r="B1" t="b"><v>0</v></c><c r="C1" t="e"><v>#DIV/0!</v></c>` +
          `<c r="D1" t="str"><f>A1&amp;"x"</f><v>TRUEx</v></c><c r="E1"><f>1/3</f><v>0.33333333333333331</v></c>` +
          `<c r="F1" t="s"><v>0</v></c><c r="G1" t="s"><v>7</v></c><c r="H1" s="0"/><c r="I1"><v>0.30000000000000004</v></c></row>`
      )
      const sst = sharedStrings([`<si><t>_x005F_x000D_ and _x0041_</t></si>`])
      const { parts } = yield* extract(workbookFiles({ sheets: [{ name: "S", xml: sheet }], sharedStrings: sst }))
      // G1 points past the table: no text rather than a bare index (BUG-01); H1 is a styled empty cell.
      expect(parts[0]?.lines).toEqual([
        { loc: "A1", text: "TRUE" },
        { loc: "B1", text: "FALSE" },
        { loc: "C1", text: "#DIV/0!" },
        { loc: "D1", text: "TRUEx" },
        { loc: "E1", text: "0.333333333333333" },
        { loc: "F1", text: "_x000D_ and A" },
        { loc: "I1", text: "0.3" }
      ])
    }))

  it.effect("merged areas once at their top-left cell; rows and cells without r follow on; row-major order", () =>
    Effect.gen(function* () {
      const sheet = worksheet(
        `<row r="1"><c r="A1" t="inlineStr"><is><t>merged</t></is></c><c r="B1" t="inlineStr"><is><t>stale</t></is></c></row>` +
          `<row r="2"><c r="B2" t="inlineStr"><is><t>b2</t></is></c><c r="A2" t="inlineStr"><is><t>a2</t></is></c></row>` +
          `<row><c t="inlineStr"><is><t>a3</t></is></c><c t="inlineStr"><is><t>b3</t></is></c></row>`,
        `<mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells>`
      )
      const { parts } = yield* extract(workbookFiles({ sheets: [{ name: "S", xml: sheet }] }))
      expect(parts[0]?.lines.map((l) => `${l.loc}=${l.text}`)).toEqual(["A1=merged", "A2=a2", "B2=b2", "A3=a3", "B3=b3"])
    }))

  it.effect("sheets in workbook order with their state", () =>
    Effect.gen(function* () {
      const cell = (t: string) => worksheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>${t}</t></is></c></row>`)
      const { parts } = yield* extract(
        workbookFiles({
          sheets: [
            { name: "表", xml: cell("1") },
            { name: "隠し", xml: cell("2"), state: "hidden" },
            { name: "深く", xml: cell("3"), state: "veryHidden" }
          ]
        })
      )
      expect(parts.map((p) => [p.name, p.state, p.lines[0]?.text])).toEqual([
        ["表", "visible", "1"],
        ["隠し", "hidden", "2"],
        ["深く", "veryHidden", "3"]
      ])
    }))

  it.effect("Strict namespaces, a BOM, backslash entry names and other letter case resolve the same parts", () =>
    Effect.gen(function* () {
      const strict = "http://purl.oclc.org/ooxml/spreadsheetml/main"
      const strictR = "http://purl.oclc.org/ooxml/officeDocument/relationships"
      const { parts } = yield* extract({
        "[Content_Types].xml": "<Types/>",
        "_rels/.rels": relationships([["rId1", "officeDocument", "XL/Workbook.xml"]]),
        "xl\\workbook.xml": `\uFEFF<?xml version="1.0"?><workbook xmlns="${strict}" xmlns:r="${strictR}"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>`,
        "xl\\_rels\\workbook.xml.rels": relationships([["rId1", "worksheet", "worksheets/Sheet1.XML"]]),
        "xl\\worksheets\\sheet1.xml": `<worksheet xmlns="${strict}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>厳格</t></is></c></row></sheetData></worksheet>`
      })
      expect(parts[0]?.lines).toEqual([{ loc: "A1", text: "厳格" }])
    }))

  it.effect("UTF-16 parts are decoded", () =>
    Effect.gen(function* () {
      const files: Record<string, string | Uint8Array> = workbookFiles({ sheets: [{ name: "S", xml: "" }] })
      const xml = `\uFEFF<?xml version="1.0" encoding="UTF-16"?>${worksheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>十六</t></is></c></row>`).replace(/^<\?xml[^>]*>/, "")}`
      files["xl/worksheets/sheet1.xml"] = new Uint8Array(Buffer.from(xml, "utf16le"))
      const { parts } = yield* extract(files)
      expect(parts[0]?.lines).toEqual([{ loc: "A1", text: "十六" }])
    }))
})

describe("extractBuffer() on documents", () => {
  const w = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`

  it.effect("BUG-15 tracked changes: deletions and moved-away text are not body text", () =>
    Effect.gen(function* () {
      const body =
        `<w:p>${w("契約期間は")}<w:del w:id="1" w:author="a" w:date="2024-01-01T00:00:00Z"><w:r><w:delText>1年</w:delText></w:r></w:del>` +
        `<w:ins w:id="2" w:author="a"><w:r><w:t>2年</w:t></w:r></w:ins>${w("とする")}</w:p>` +
        `<w:p><w:moveFrom w:id="3" w:author="a"><w:r><w:t>別紙参照</w:t></w:r></w:moveFrom>${w("前")}</w:p>` +
        `<w:p>${w("後")}<w:moveTo w:id="4" w:author="a"><w:r><w:t>別紙参照</w:t></w:r></w:moveTo></w:p>`
      const { parts } = yield* extract(documentFiles(body), "test.docx")
      expect(parts).toEqual([
        {
          name: "document",
          locator: "paragraph",
          state: "visible",
          lines: [
            { loc: "1", text: "契約期間は2年とする" },
            { loc: "2", text: "前" },
            { loc: "3", text: "後別紙参照" }
          ]
        }
      ])
    }))

  it.effect("BUG-16 a text box is read once (Choice, not Fallback), also inside a table cell", () =>
    Effect.gen(function* () {
      const box = (text: string) =>
        `<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:wsp xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:txbx><w:txbxContent><w:p>${w(text)}</w:p></w:txbxContent></wps:txbx></wps:wsp></w:drawing></mc:Choice>` +
        `<mc:Fallback><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml"><v:textbox><w:txbxContent><w:p>${w(text)}</w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>`
      const body = `<w:p>${box("社外秘")}${w("本文")}</w:p><w:tbl><w:tr><w:tc><w:p>${box("表内")}</w:p></w:tc></w:tr></w:tbl>`
      const { parts } = yield* extract(documentFiles(body), "test.docx")
      expect(parts[0]?.lines).toEqual([
        { loc: "1", text: "本文" },
        { loc: "2", text: "社外秘" },
        { loc: "4", text: "表内" }
      ])
    }))

  it.effect("BUG-19 hyphens, soft hyphens, symbols, tabs and breaks", () =>
    Effect.gen(function* () {
      const body =
        `<w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>${w("2")}<w:r><w:noBreakHyphen/></w:r>${w("6 ISO")}<w:r><w:noBreakHyphen/><w:t>9001</w:t></w:r></w:p>` +
        `<w:p>${w("情報")}<w:r><w:softHyphen/></w:r>${w("システム")}</w:p>` +
        `<w:p>${w("可")}<w:r><w:sym w:font="Wingdings" w:char="F0FC"/></w:r>${w("否")}</w:p>` +
        `<w:p>${w("氏名")}<w:r><w:tab/><w:t>住所</w:t><w:br/><w:t>電話</w:t></w:r></w:p>`
      const { parts } = yield* extract(documentFiles(body), "test.docx")
      expect(texts(parts[0]?.lines ?? [])).toEqual(["2-6 ISO-9001", "情報システム", "可 否", "氏名 住所 電話"])
    }))

  it.effect("BUG-09 ruby readings (w:rt) are left out; field codes too", () =>
    Effect.gen(function* () {
      const body =
        `<w:p><w:r><w:ruby><w:rubyPr/><w:rt><w:r><w:t>とうきょう</w:t></w:r></w:rt><w:rubyBase><w:r><w:t>東京</w:t></w:r></w:rubyBase></w:ruby></w:r></w:p>` +
        `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>${w("3")}<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`
      const { parts } = yield* extract(documentFiles(body), "test.docx")
      expect(texts(parts[0]?.lines ?? [])).toEqual(["東京", "3"])
    }))

  it.effect("headers, footers, footnotes, endnotes and comments follow the body with their locators", () =>
    Effect.gen(function* () {
      const part = (root: string, inner: string) => `<w:${root} xmlns:w="${xmlns.w}">${inner}</w:${root}>`
      const p = (t: string) => `<w:p>${w(t)}</w:p>`
      const { parts } = yield* extract(
        documentFiles(p("本文"), [
          ["rId5", "comments", "comments.xml", part("comments", `<w:comment w:id="0" w:author="a">${p("指摘")}</w:comment>`)],
          ["rId1", "header", "header1.xml", part("hdr", p("見出し"))],
          ["rId2", "footer", "footer1.xml", part("ftr", p("頁"))],
          [
            "rId3",
            "footnotes",
            "footnotes.xml",
            part("footnotes", `<w:footnote w:type="separator" w:id="-1">${p("----")}</w:footnote><w:footnote w:id="1">${p("脚注")}</w:footnote>`)
          ],
          ["rId4", "endnotes", "endnotes.xml", part("endnotes", `<w:endnote w:id="2">${p("後注")}</w:endnote>`)]
        ]),
        "test.docx"
      )
      expect(parts[0]?.lines).toEqual([
        { loc: "1", text: "本文" },
        { loc: "header", text: "見出し" },
        { loc: "footer", text: "頁" },
        { loc: "footnote:1", text: "脚注" },
        { loc: "endnote:2", text: "後注" },
        { loc: "comment:0", text: "指摘" }
      ])
    }))
})

describe("extractBuffer() on presentations", () => {
  it.effect("slides in presentation order, not file order; hidden slides kept; notes through the slide's relationship (BUG-17)", () =>
    Effect.gen(function* () {
      const files = {
        "[Content_Types].xml": "<Types/>",
        "_rels/.rels": relationships([["rId1", "officeDocument", "ppt/presentation.xml"]]),
        "ppt/presentation.xml": `<p:presentation xmlns:p="${xmlns.p}" xmlns:r="${xmlns.r}"><p:sldIdLst><p:sldId id="256" r:id="rId3"/><p:sldId id="257" r:id="rId2"/></p:sldIdLst></p:presentation>`,
        "ppt/_rels/presentation.xml.rels": relationships([
          ["rId2", "slide", "slides/slide1.xml"],
          ["rId3", "slide", "slides/slide2.xml"]
        ]),
        // slide2.xml is shown first; slide1.xml second and hidden, with a table and a group.
        "ppt/slides/slide2.xml": slide(textShape(["はじめに"])),
        "ppt/slides/slide1.xml": slide(
          `<p:grpSp>${textShape(["グループ", ""])}</p:grpSp>` +
            `<p:graphicFrame><a:graphic><a:graphicData><a:tbl><a:tr><a:tc><a:txBody><a:p><a:r><a:t>表</a:t></a:r><a:br/><a:r><a:t>セル</a:t></a:r></a:p></a:txBody></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`,
          "sld",
          ` show="0"`
        ),
        "ppt/slides/_rels/slide1.xml.rels": relationships([["rId1", "notesSlide", "../notesSlides/notesSlide7.xml"]]),
        "ppt/notesSlides/notesSlide7.xml": slide(
          textShape(["スライド画像"], "sldImg") + textShape(["補足説明"], "body") + textShape(["2"], "sldNum"),
          "notes"
        )
      }
      const { parts } = yield* extract(files, "test.pptx")
      expect(parts).toEqual([
        {
          name: "slides",
          locator: "slide",
          state: "visible",
          lines: [
            { loc: "1", text: "はじめに" },
            { loc: "2", text: "グループ" },
            { loc: "2", text: "表 セル" },
            { loc: "2 notes", text: "補足説明" }
          ]
        }
      ])
    }))
})

describe("extractBuffer() failures", () => {
  const failWith = (bytes: Uint8Array, name = "x.xlsx", options?: ExtractFileOptions) => failureOf(extractBuffer(bytes, name, options))

  it.effect("BUG-14 the format comes from the bytes: empty, not Office, bare BIFF, truncated zip", () =>
    Effect.gen(function* () {
      expect((yield* failWith(new Uint8Array()))?.reason).toBe("empty-file")
      expect((yield* failWith(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))?.reason).toBe("not-office")
      expect((yield* failWith(new Uint8Array([0x09, 0x02, 0x06, 0x00, 0, 0, 0x10, 0])))?.reason).toBe("needs-office")
      const whole = yield* Effect.promise(() => zipOf(workbookFiles({ sheets: [{ name: "S", xml: worksheet("") }] })))
      const truncated = yield* failWith(whole.subarray(0, whole.length - 30))
      expect(truncated?.reason).toBe("corrupt")
      expect(truncated?.message).toMatch(/^corrupt: the file is damaged/)
    }))

  it.effect("a DTD in a part fails the file instead of expanding entities", () =>
    Effect.gen(function* () {
      const files = workbookFiles({ sheets: [{ name: "S", xml: "" }] })
      files["xl/worksheets/sheet1.xml"] =
        `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><worksheet xmlns="${xmlns.sml}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&lol2;</t></is></c></row></sheetData></worksheet>`
      const error = yield* failureOf(extract(files))
      expect(error?.reason).toBe("corrupt")
      expect(error?.detail).toContain("DTD")
    }))

  it.effect("BUG-26 declared sizes and ratios are checked before inflating", () =>
    Effect.gen(function* () {
      const big = worksheet(`<row r="1"><c r="A1" s="1"/></row>`.repeat(200_000))
      const files = workbookFiles({ sheets: [{ name: "S", xml: big }] })
      const bytes = yield* Effect.promise(() => zipOf(files))
      const bySize = yield* failWith(bytes, "x.xlsx", { maxInflatedBytes: 1 << 20 })
      expect(bySize?.reason).toBe("too-large")
      const byRatio = yield* failWith(bytes, "x.xlsx", { maxCompressionRatio: 10 })
      expect(byRatio?.reason).toBe("too-large")
      expect(byRatio?.detail).toContain("ratio")
      const fine = yield* extractBuffer(bytes, "x.xlsx")
      expect(fine.parts[0]?.lines).toEqual([])
    }))

  it.effect("a part that inflates beyond its declared size is corrupt", () =>
    Effect.gen(function* () {
      const bytes = Buffer.from(yield* Effect.promise(() => zipOf(workbookFiles({ sheets: [{ name: "S", xml: worksheet("") }] }))))
      // Shrink the declared uncompressed size of every central-directory entry.
      for (let at = bytes.indexOf("PK\x01\x02"); at >= 0; at = bytes.indexOf("PK\x01\x02", at + 4)) bytes.writeUInt32LE(10, at + 24)
      const error = yield* failWith(new Uint8Array(bytes))
      expect(error?.reason).toBe("corrupt")
    }))

  it.effect("an OpenDocument file and a binary workbook go to Office", () =>
    Effect.gen(function* () {
      const ods = yield* failureOf(extract({ mimetype: "application/vnd.oasis.opendocument.spreadsheet", "content.xml": "<x/>" }, "a.ods"))
      expect(ods?.reason).toBe("needs-office")
      const xlsb = yield* failureOf(
        extract({ "_rels/.rels": relationships([["rId1", "officeDocument", "xl/workbook.bin"]]), "xl/workbook.bin": "\x00" }, "a.xlsb")
      )
      expect(xlsb?.reason).toBe("needs-office")
    }))

  it.effect("extractFile() reads from disk and reports a missing file as unreadable", () =>
    Effect.gen(function* () {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-extract-"))
      const file = path.join(dir, "見積.xlsx")
      fs.writeFileSync(file, yield* Effect.promise(() => zipOf(workbookFiles({ sheets: [{ name: "S", xml: worksheet(`<row r="1"><c r="A1" t="inlineStr"><is><t>見積</t></is></c></row>`) }] }))))
      const { parts } = yield* extractFile(file)
      expect(parts[0]?.lines).toEqual([{ loc: "A1", text: "見積" }])
      const missing = yield* failureOf(extractFile(path.join(dir, "none.xlsx")))
      expect(missing).toBeInstanceOf(ExtractError)
      expect(missing?.reason).toBe("unreadable")
      fs.rmSync(dir, { recursive: true })
    }))
})
