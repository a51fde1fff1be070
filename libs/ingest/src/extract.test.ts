import { describe, expect, it } from "@effect/vitest"
import type { BodyLine, Extraction } from "@sagasu/domain"
import { Effect, Either } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { ExtractError, extractBuffer, extractFile, type ExtractFileOptions } from "./extract.ts"
import {
  chartPart,
  documentFiles,
  sheetDrawing,
  presentationFiles,
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

  it.effect("issue 15 item 7: a cell whose r is a bare number or missing takes the next position in its row", () =>
    Effect.gen(function* () {
      const v = (t: string) => `<is><t>${t}</t></is>`
      const sheet = worksheet(
        // A 0-based column index as r (some writers), then no r at all, then a row without r, then junk.
        `<row r="2"><c r="0" t="inlineStr">${v("a2")}</c><c r="1" t="inlineStr">${v("b2")}</c><c r="2" t="inlineStr">${v("c2")}</c></row>` +
          `<row r="3"><c t="inlineStr">${v("a3")}</c><c r="5" t="inlineStr">${v("b3")}</c><c r="D3" t="inlineStr">${v("d3")}</c><c t="inlineStr">${v("e3")}</c></row>` +
          `<row><c r="1" t="inlineStr">${v("a4")}</c><c r="XFE4" t="inlineStr">${v("b4")}</c><c r="C" t="inlineStr">${v("c4")}</c></row>` +
          `<row r="7"><c r="A7x" t="inlineStr">${v("a7")}</c><c r="$B$7" t="inlineStr">${v("b7")}</c><c r="C0" t="inlineStr">${v("c7")}</c></row>`
      )
      const { parts } = yield* extract(workbookFiles({ sheets: [{ name: "S", xml: sheet }] }))
      expect(parts[0]?.lines.map((l) => `${l.loc}=${l.text}`)).toEqual([
        "A2=a2", "B2=b2", "C2=c2",
        "A3=a3", "B3=b3", "D3=d3", "E3=e3",
        "A4=a4", "B4=b4", "C4=c4",
        "A7=a7", "B7=b7", "C7=c7"
      ])
    }))

  it.effect("issue 15 item 9: a formula without a cached value shows its formula; an empty cached string stays empty", () =>
    Effect.gen(function* () {
      const sheet = worksheet(
        `<row r="1"><c r="A1"><f>SUM(B1:B3)</f></c><c r="B1" t="str"><f>_xlfn.CONCAT("見積","番号")</f></c>` +
          `<c r="C1" t="str"><f>""</f><v></v></c><c r="D1"><f t="shared" ref="D1:D2" si="0">A1*2</f><v>6</v></c></row>` +
          `<row r="2"><c r="D2"><f t="shared" si="0"/></c><c r="E2"><f>IF(A1&gt;0,"&lt;正&gt;","負")</f></c></row>`
      )
      const { parts } = yield* extract(workbookFiles({ sheets: [{ name: "S", xml: sheet }] }))
      expect(parts[0]?.lines.map((l) => `${l.loc}=${l.text}`)).toEqual([
        "A1==SUM(B1:B3)",
        `B1==CONCAT("見積","番号")`,
        "D1=6",
        `E2==IF(A1>0,"<正>","負")`
      ])
    }))

  it.effect("numbers and dates as their format shows them; text sections wrap strings", () =>
    Effect.gen(function* () {
      // Styles: 0 General, 1 #,##0 (3), 2 custom yen, 3 custom 和暦 with weekday, 4 0.00% (10), 5 @"様", 6 custom date-time.
      const style = styles([0, 3, 164, 165, 10, 166, 167], [
        [164, '"¥"#,##0;[Red]"▲¥"#,##0'],
        [165, '[$-ja-JP]ggge"年"m"月"d"日"(aaa)'],
        [166, '@"様"'],
        [167, "yyyy/mm/dd hh:mm"]
      ])
      const sheet = worksheet(
        `<row r="1"><c r="A1"><v>1234.5</v></c><c r="B1" s="1"><v>1234567</v></c><c r="C1" s="2"><v>-5000</v></c>` +
          `<c r="D1" s="3"><v>43586</v></c><c r="E1" s="4"><v>0.125</v></c><c r="F1" s="5" t="inlineStr"><is><t>山田</t></is></c>` +
          `<c r="G1" s="6"><v>45000.5</v></c><c r="H1" s="3"><v>-1</v></c></row>`
      )
      const { parts } = yield* extract(workbookFiles({ sheets: [{ name: "S", xml: sheet }], styles: style }))
      expect(texts(parts[0]?.lines ?? [])).toEqual([
        "1234.5",
        "1,234,567",
        "▲¥5,000",
        "令和1年5月1日(水)",
        "12.50%",
        "山田様",
        "2023/03/15 12:00",
        // A negative date is #### in Excel; its value is still indexed.
        "-1"
      ])
    }))

  it.effect("notes and threaded comments at their cells, hyperlinks, headers and footers, text boxes and charts", () =>
    Effect.gen(function* () {
      const files: Record<string, string> = workbookFiles({
        sheets: [
          {
            name: "報告",
            xml: worksheet(
              `<row r="1"><c r="A1" t="inlineStr"><is><t>本社</t></is></c><c r="B1" t="inlineStr"><is><t>リンク</t></is></c></row>`,
              `<hyperlinks><hyperlink ref="B1" r:id="rId9" display="リンク"/><hyperlink ref="C3" location="'集計'!A1" display="集計へ"/></hyperlinks>` +
                `<headerFooter><oddHeader>&amp;L&amp;"ＭＳ ゴシック,太字"&amp;12社外秘&amp;R&amp;D</oddHeader><oddFooter>&amp;C&amp;P / &amp;N ページ &amp;&amp; 続く</oddFooter></headerFooter>` +
                `<drawing r:id="rId3"/><legacyDrawing r:id="rId4"/>`
            )
          }
        ]
      })
      files["xl/worksheets/_rels/sheet1.xml.rels"] = relationships([
        ["rId1", "comments", "../comments1.xml"],
        ["rId2", "threadedComment", "../threadedComments/threadedComment1.xml"],
        ["rId3", "drawing", "../drawings/drawing1.xml"]
      ]).replace(
        "</Relationships>",
        `<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.co.jp/報告" TargetMode="External"/></Relationships>`
      )
      files["xl/comments1.xml"] =
        `<comments xmlns="${xmlns.sml}"><authors><author>山田</author></authors><commentList>` +
        `<comment ref="B2" authorId="0"><text><r><rPr><b/></rPr><t>山田:</t></r><r><t xml:space="preserve">
確認済み</t></r></text></comment>` +
        `<comment ref="A1" authorId="0"><text><t>[Threaded comment] Your version of Excel allows you to read this threaded comment</t></text></comment>` +
        `</commentList></comments>`
      files["xl/threadedComments/threadedComment1.xml"] =
        `<ThreadedComments xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments">` +
        `<threadedComment ref="A1" id="{1}" personId="{9}"><text>住所を確認</text></threadedComment>` +
        `<threadedComment ref="A1" id="{2}" parentId="{1}" personId="{9}"><text>確認しました</text></threadedComment></ThreadedComments>`
      files["xl/drawings/drawing1.xml"] = sheetDrawing([3, 4], "注意事項", [0, 10])
      files["xl/drawings/_rels/drawing1.xml.rels"] = relationships([["rId1", "chart", "../charts/chart1.xml"]])
      files["xl/charts/chart1.xml"] = chartPart("月別売上", ["4月", "5月"])
      const { parts } = yield* extract(files)
      expect(parts[0]?.lines.map((l) => `${l.loc}=${l.text}`)).toEqual([
        "A1=本社",
        "B1=リンク",
        "A1 comment=住所を確認",
        "A1 comment=確認しました",
        "B2 comment=山田:\n確認済み".replace("\\n", "\n"),
        "B1 link=https://example.co.jp/報告",
        "C3 link=集計へ",
        "C3 link='集計'!A1",
        "D5 shape=注意事項",
        "A11 chart=月別売上",
        "A11 chart=4月",
        "A11 chart=5月",
        "header=社外秘",
        "footer=/ ページ & 続く"
      ])
    }))

  it.effect("a chart sheet gives the text of its chart", () =>
    Effect.gen(function* () {
      const files: Record<string, string> = workbookFiles({ sheets: [{ name: "表", xml: worksheet("") }, { name: "グラフ", xml: "" }] })
      delete files["xl/worksheets/sheet2.xml"]
      files["xl/_rels/workbook.xml.rels"] = relationships([
        ["rId1", "worksheet", "worksheets/sheet1.xml"],
        ["rId2", "chartsheet", "chartsheets/sheet1.xml"]
      ])
      files["xl/chartsheets/sheet1.xml"] = `<chartsheet xmlns="${xmlns.sml}" xmlns:r="${xmlns.r}"><drawing r:id="rId1"/></chartsheet>`
      files["xl/chartsheets/_rels/sheet1.xml.rels"] = relationships([["rId1", "drawing", "../drawings/drawing1.xml"]])
      files["xl/drawings/drawing1.xml"] =
        `<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="${xmlns.a}" xmlns:r="${xmlns.r}"><xdr:absoluteAnchor><xdr:graphicFrame><a:graphic><a:graphicData><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rId1"/></a:graphicData></a:graphic></xdr:graphicFrame></xdr:absoluteAnchor></xdr:wsDr>`
      files["xl/drawings/_rels/drawing1.xml.rels"] = relationships([["rId1", "chart", "../charts/chart1.xml"]])
      files["xl/charts/chart1.xml"] = chartPart("部門別", ["営業"])
      const { parts } = yield* extract(files)
      expect(parts.map((p) => [p.name, p.lines.map((l) => `${l.loc}=${l.text}`)])).toEqual([
        ["表", []],
        ["グラフ", ["chart=部門別", "chart=営業"]]
      ])
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


/** SmartArt parts (issue 15 item 8): a graphic naming its data part, the data model, and Office's drawing of it. */
const dgm = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
const dsp = "http://schemas.microsoft.com/office/drawing/2008/diagram"
const smartArtGraphic = (dataId: string) =>
  `<a:graphic xmlns:a="${xmlns.a}"><a:graphicData uri="${dgm}"><dgm:relIds xmlns:dgm="${dgm}" xmlns:r="${xmlns.r}" r:dm="${dataId}" r:lo="rIdLo" r:qs="rIdQs" r:cs="rIdCs"/></a:graphicData></a:graphic>`
const diagramData = (texts: ReadonlyArray<string>, drawingRelId?: string) =>
  `<dgm:dataModel xmlns:dgm="${dgm}" xmlns:a="${xmlns.a}"><dgm:ptLst><dgm:pt modelId="0" type="doc"><dgm:prSet/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:endParaRPr/></a:p></dgm:t></dgm:pt>` +
  texts.map((t, i) => `<dgm:pt modelId="${i + 1}"><dgm:prSet phldrT="[テキスト]"/><dgm:spPr/><dgm:t><a:bodyPr/><a:p><a:r><a:t>${t}</a:t></a:r></a:p></dgm:t></dgm:pt>`).join("") +
  `</dgm:ptLst><dgm:cxnLst/><dgm:bg/><dgm:whole/>` +
  (drawingRelId === undefined ? "" : `<dgm:extLst><a:ext uri="${dsp}"><dsp:dataModelExt xmlns:dsp="${dsp}" relId="${drawingRelId}" minVer="${dgm}"/></a:ext></dgm:extLst>`) +
  `</dgm:dataModel>`
const diagramDrawing = (texts: ReadonlyArray<string>) =>
  `<dsp:drawing xmlns:dsp="${dsp}" xmlns:a="${xmlns.a}"><dsp:spTree><dsp:nvGrpSpPr><dsp:cNvPr id="0" name=""/><dsp:cNvGrpSpPr/></dsp:nvGrpSpPr><dsp:grpSpPr/>` +
  texts.map((t, i) => `<dsp:sp modelId="${i}"><dsp:nvSpPr><dsp:cNvPr id="0" name=""/><dsp:cNvSpPr/></dsp:nvSpPr><dsp:spPr/><dsp:txBody><a:bodyPr/><a:p><a:r><a:t>${t}</a:t></a:r></a:p></dsp:txBody></dsp:sp>`).join("") +
  `</dsp:spTree></dsp:drawing>`

/** Shift_JIS bytes of `text` (test fixtures of legacy-encoded chunks); Node decodes Shift_JIS but does not encode it. */
const sjis = (text: string): Array<number> => {
  const decoder = new TextDecoder("shift_jis")
  const out: Array<number> = []
  for (const ch of text) {
    let found = false
    for (let hi = 0x81; hi <= 0xfc && !found; hi++) {
      if (hi > 0x9f && hi < 0xe0) continue
      for (let lo = 0x40; lo <= 0xfc && !found; lo++) {
        if (decoder.decode(new Uint8Array([hi, lo])) === ch) {
          out.push(hi, lo)
          found = true
        }
      }
    }
    if (!found) throw new Error(`no Shift_JIS code for ${ch}`)
  }
  return out
}

describe("extractBuffer() on documents", () => {
  const w = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`

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

  it.effect("issue 15 item 10: altChunks give their text where they stand: HTML, MHT, plain text and a nested document", () =>
    Effect.gen(function* () {
      const p = (t: string) => `<w:p>${w(t)}</w:p>`
      const chunk = (id: string) => `<w:altChunk r:id="${id}"/>`
      // HTML in Shift_JIS as its meta says, with entities, a script, a style, a table and an implied </p>.
      const html = new Uint8Array(
        Buffer.concat([
          Buffer.from(`<!DOCTYPE html><html><head><meta http-equiv="Content-Type" content="text/html; charset=shift_jis"><title>題名</title><style>p{color:red}</style></head><body>`),
          Buffer.from(
            new Uint8Array([
              ...Buffer.from("<h1>"), ...sjis("見積書"), ...Buffer.from("</h1><p>A &amp; B&nbsp;&#x682A;"), ...sjis("式会社"), ...Buffer.from("<p>"),
              ...sjis("二行目"), ...Buffer.from("<br>"), ...sjis("続き"), ...Buffer.from("<script>var x = '隠れ';</script><table><tr><td>"), ...sjis("品名"),
              ...Buffer.from("</td><td>&lt;"), ...sjis("数量"), ...Buffer.from("&gt;</td></tr></table></body></html>")
            ])
          )
        ])
      )
      const mht =
        `MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="----=_NextPart_01"\r\n\r\n` +
        `------=_NextPart_01\r\nContent-Location: file:///C:/x.htm\r\nContent-Transfer-Encoding: quoted-printable\r\nContent-Type: text/html; charset="utf-8"\r\n\r\n` +
        `<html><body><p>=E6=9D=B1=E4=BA=AC=E6=94=AF=E7=A4=BE</p><p>soft=\r\nbreak</p></body></html>\r\n` +
        `------=_NextPart_01\r\nContent-Location: file:///C:/x_files/image.png\r\nContent-Transfer-Encoding: base64\r\nContent-Type: image/png\r\n\r\niVBORw0KGgo=\r\n` +
        `------=_NextPart_01--\r\n`
      const nested = yield* Effect.promise(() => zipOf(documentFiles(p("入れ子の文書") + p("二段落目"))))
      const files: Record<string, string | Uint8Array> = documentFiles(p("前文") + chunk("rIdH") + chunk("rIdM") + p("中間") + chunk("rIdT") + chunk("rIdD") + p("結び"), [
        ["rIdH", "aFChunk", "chunk1.htm", ""],
        ["rIdM", "aFChunk", "chunk2.mht", mht],
        ["rIdT", "aFChunk", "chunk3.txt", "\uFEFF一行目\r\n\r\n  二行目  \r\n"],
        ["rIdD", "aFChunk", "chunk4.docx", ""]
      ])
      files["word/chunk1.htm"] = html
      files["word/chunk4.docx"] = nested
      const { parts } = yield* extract(files, "test.docx")
      expect(parts[0]?.lines.map((l) => `${l.loc}=${l.text}`)).toEqual([
        "1=前文",
        "2=見積書",
        "2=A & B 株式会社",
        "2=二行目 続き",
        "2=品名",
        "2=<数量>",
        "3=東京支社",
        "3=softbreak",
        "4=中間",
        "5=一行目",
        "5=二行目",
        "6=入れ子の文書",
        "6=二段落目",
        "7=結び"
      ])
    }))

  it.effect("issue 15 item 8: SmartArt text stands where its graphic stands, from the data part, else from Office's drawing of it", () =>
    Effect.gen(function* () {
      const p = (t: string) => `<w:p>${w(t)}</w:p>`
      const drawingRun = (id: string) =>
        `<w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="1" cy="1"/><wp:docPr id="1" name="図表 1"/>${smartArtGraphic(id)}</wp:inline></w:drawing></w:r>`
      const files = documentFiles(
        p("前の段落") + `<w:p>${w("図の説明：")}${drawingRun("rId10")}</w:p>` + p("次の段落") + `<w:p>${drawingRun("rId20")}</w:p>` + p("最後"),
        [
          ["rId10", "diagramData", "diagrams/data1.xml", diagramData(["企画", "設計", "実装"], "rId11")],
          ["rId11", "diagramDrawing", "diagrams/drawing1.xml", diagramDrawing(["企画", "設計", "実装"])],
          // The second diagram's data part is missing from the package: its drawing is what is left.
          ["rId21", "diagramDrawing", "diagrams/drawing2.xml", diagramDrawing(["承認", "公開"])]
        ]
      )
      files["word/_rels/document.xml.rels"] = files["word/_rels/document.xml.rels"]!.replace(
        "</Relationships>",
        `<Relationship Id="rId20" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/diagramData" Target="diagrams/data2.xml"/></Relationships>`
      )
      const { parts } = yield* extract(files, "test.docx")
      expect(parts[0]?.lines.map((l) => `${l.loc}=${l.text}`)).toEqual([
        "1=前の段落",
        "2=図の説明：",
        "2=企画",
        "2=設計",
        "2=実装",
        "3=次の段落",
        "4=承認",
        "4=公開",
        "5=最後"
      ])
    }))
})

describe("extractBuffer() on presentations", () => {
  it.effect("slides in presentation order, not file order; hidden slides in a part marked hidden; tables, groups, charts, notes", () =>
    Effect.gen(function* () {
      const files = {
        ...presentationFiles(["slides/slide2.xml", "slides/slide1.xml"]),
        // slide2.xml is shown first; slide1.xml second and hidden, with a table and a group.
        "ppt/slides/slide2.xml": slide(textShape(["はじめに"])),
        "ppt/slides/slide1.xml": slide(
          `<p:grpSp>${textShape(["グループ", ""])}</p:grpSp>` +
            `<p:graphicFrame><a:graphic><a:graphicData><a:tbl><a:tr><a:tc><a:txBody><a:p><a:r><a:t>表</a:t></a:r><a:br/><a:r><a:t>セル</a:t></a:r></a:p></a:txBody></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`,
          "sld",
          ` show="0"`
        ),
        "ppt/slides/_rels/slide1.xml.rels": relationships([
          ["rId1", "notesSlide", "../notesSlides/notesSlide7.xml"],
          ["rId2", "chart", "../charts/chart1.xml"]
        ]),
        "ppt/charts/chart1.xml": chartPart("売上推移", ["東日本", "西日本"]),
        "ppt/notesSlides/notesSlide7.xml": slide(
          textShape(["スライド画像"], "sldImg") + textShape(["補足説明"], "body") + textShape(["2"], "sldNum"),
          "notes"
        )
      }
      const { parts } = yield* extract(files, "test.pptx")
      expect(parts).toEqual([
        { name: "slides", locator: "slide", state: "visible", lines: [{ loc: "1", text: "はじめに" }] },
        {
          name: "hidden slides",
          locator: "slide",
          state: "hidden",
          lines: [
            { loc: "2", text: "グループ" },
            { loc: "2", text: "表 セル" },
            { loc: "2", text: "売上推移" },
            { loc: "2", text: "東日本" },
            { loc: "2", text: "西日本" },
            { loc: "2 notes", text: "補足説明" }
          ]
        }
      ])
    }))
})

describe("extractBuffer() on presentations: SmartArt", () => {
  it.effect("issue 15 item 8: a slide's SmartArt text where the graphic stands; a missing data part falls back to the drawing", () =>
    Effect.gen(function* () {
      const frame = (id: string) => `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Diagram"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>${smartArtGraphic(id)}</p:graphicFrame>`
      const files = {
        ...presentationFiles(["slides/slide1.xml", "slides/slide2.xml"]),
        "ppt/slides/slide1.xml": slide(textShape(["工程"]) + frame("rId5") + textShape(["備考"])),
        "ppt/slides/_rels/slide1.xml.rels": relationships([
          ["rId5", "diagramData", "../diagrams/data1.xml"],
          ["rId6", "diagramDrawing", "../diagrams/drawing1.xml"]
        ]),
        "ppt/diagrams/data1.xml": diagramData(["要件定義", "開発"], "rId6"),
        "ppt/diagrams/drawing1.xml": diagramDrawing(["要件定義", "開発"]),
        // Slide 2 names a data part that the package does not hold.
        "ppt/slides/slide2.xml": slide(textShape(["組織図"]) + frame("rId7")),
        "ppt/slides/_rels/slide2.xml.rels": relationships([
          ["rId7", "diagramData", "../diagrams/data2.xml"],
          ["rId8", "diagramDrawing", "../diagrams/drawing2.xml"]
        ]),
        "ppt/diagrams/drawing2.xml": diagramDrawing(["社長", "営業部"])
      }
      const { parts } = yield* extract(files, "test.pptx")
      expect(parts[0]?.lines.map((l) => `${l.loc}=${l.text}`)).toEqual([
        "1=工程",
        "1=要件定義",
        "1=開発",
        "1=備考",
        "2=組織図",
        "2=社長",
        "2=営業部"
      ])
    }))
})

describe("extractBuffer() failures", () => {
  const failWith = (bytes: Uint8Array, name = "x.xlsx", options?: ExtractFileOptions) => failureOf(extractBuffer(bytes, name, options))

  it.effect("the format comes from the bytes: empty, not Office, bare BIFF, truncated zip", () =>
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

  it.effect("an OpenDocument drawing goes to Office, and so does a binary workbook the xlsb reader cannot read (R14)", () =>
    Effect.gen(function* () {
      // Spreadsheets, texts and presentations are read without Office (_open_document.test.ts); a drawing is not.
      const odg = yield* failureOf(extract({ mimetype: "application/vnd.oasis.opendocument.graphics", "content.xml": "<x/>" }, "a.odg"))
      expect([odg?.reason, odg?.openDocument]).toEqual(["needs-office", true])
      const xlsb = yield* failureOf(
        extract({ "_rels/.rels": relationships([["rId1", "officeDocument", "xl/workbook.bin"]]), "xl/workbook.bin": "\x00" }, "a.xlsb")
      )
      expect(xlsb?.reason).toBe("needs-office")
      // A lone byte: a record cut short (readable xlsb files are read without Office, _xlsb.test.ts).
      expect(xlsb?.detail).toContain("xl/workbook.bin: the part ends inside a record")
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
