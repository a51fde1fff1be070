/**
 * The OpenDocument reader (W3, issue 20) on packages written here the way
 * LibreOffice writes them: what each kind gives, what is left out, and the
 * failures (`encrypted`, `needs-office`, `corrupt`, `too-large`). The
 * agreement with LibreOffice's own output over converted corpus files is
 * tools/src/odf_agreement.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import type { BodyLine, Extraction } from "@sagasu/domain"
import { Effect, Either } from "effect"
import { type ExtractError, extractBuffer, type ExtractFileOptions } from "../extract.ts"
import { zipOf } from "./_test_packages.ts"

const ns = [
  `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"`,
  `xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"`,
  `xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"`,
  `xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"`,
  `xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"`,
  `xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"`,
  `xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"`,
  `xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0"`,
  `xmlns:dc="http://purl.org/dc/elements/1.1/"`,
  `xmlns:xlink="http://www.w3.org/1999/xlink"`
].join(" ")

const mime = {
  ods: "application/vnd.oasis.opendocument.spreadsheet",
  odt: "application/vnd.oasis.opendocument.text",
  odp: "application/vnd.oasis.opendocument.presentation"
} as const

/** A package of `kind` whose content.xml has `automatic` styles and `body` in its office:body. */
const odf = (kind: keyof typeof mime, body: string, more: Record<string, string> = {}, automatic = "") => ({
  mimetype: mime[kind],
  "content.xml": `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ns} office:version="1.3"><office:automatic-styles>${automatic}</office:automatic-styles><office:body>${body}</office:body></office:document-content>`,
  "META-INF/manifest.xml": `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="${mime[kind]}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>`,
  ...more
})

const extract = (files: Record<string, string>, name: string, options?: ExtractFileOptions) =>
  Effect.flatMap(Effect.promise(() => zipOf(files)), (bytes) => extractBuffer(bytes, name, options))

const failureOf = (effect: Effect.Effect<Extraction, ExtractError>) => Effect.map(Effect.either(effect), (e) => (Either.isLeft(e) ? e.left : undefined))

const rows = (lines: ReadonlyArray<BodyLine>) => lines.map((l) => (l.forms === undefined ? `${l.loc}|${l.text}` : `${l.loc}|${l.text}|${l.forms}`))

const cell = (attrs: string, inner: string) => `<table:table-cell ${attrs}>${inner}</table:table-cell>`
const p = (text: string) => `<text:p>${text}</text:p>`

describe("OpenDocument spreadsheets (ods)", () => {
  it.effect("give a part per table with each cell's shown text, its forms, notes and shapes; repeats stand for their cells", () =>
    Effect.gen(function* () {
      const first =
        `<table:table table:name="見積" table:style-name="ta1">` +
        `<table:table-column table:number-columns-repeated="16384"/>` +
        // A1 a date shown the Japanese way; B1 a grouped number; C1 12.5%; D1 a string with a run, two spaces and a tab.
        `<table:table-row>${cell(`office:value-type="date" office:date-value="2009-09-04"`, p("2009年9月4日"))}` +
        `${cell(`office:value-type="float" office:value="123350"`, p("¥123,350"))}` +
        `${cell(`office:value-type="percentage" office:value="0.125"`, p("12.5%"))}` +
        `${cell(`office:value-type="string"`, p(`見積<text:span>番号</text:span><text:s text:c="2"/>A-1234<text:tab/>x`))}` +
        `<table:table-cell table:number-columns-repeated="16380"/></table:table-row>` +
        // Row 2: a cell repeated over three columns, an empty repeat, a two-paragraph cell with a note, a merged area.
        `<table:table-row>${cell(`office:value-type="float" office:value="0" table:number-columns-repeated="3"`, p("0"))}` +
        `<table:table-cell table:number-columns-repeated="2"/>` +
        `${cell(`office:value-type="string"`, `<office:annotation><dc:creator>山田</dc:creator><dc:date>2024-01-01T00:00:00</dc:date>${p("確認してください")}${p("二行目")}</office:annotation>${p("上")}${p("下")}`)}` +
        `${cell(`table:number-columns-spanned="2" office:value-type="string"`, p("結合"))}<table:covered-table-cell>${p("隠れた")}</table:covered-table-cell>` +
        // A link whose cell does not show its target, one that does, a cell of spaces (kept, as xlsx keeps it).
        `${cell(`office:value-type="string"`, p(`<text:a xlink:href="https://example.jp/見積">見積一覧</text:a>`))}${cell(`office:value-type="string"`, p(`<text:a xlink:href="https://example.jp/">https://example.jp/</text:a>`))}${cell(`office:value-type="string"`, p("<text:s text:c=\"3\"/>"))}</table:table-row>` +
        // Two rows repeated with a value, then the empty rest of the sheet as LibreOffice writes it.
        `<table:table-row table:number-rows-repeated="2">${cell(`office:value-type="boolean" office:boolean-value="true"`, "")}<table:table-cell table:number-columns-repeated="16383"/></table:table-row>` +
        `<table:table-row table:number-rows-repeated="1048571"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>` +
        `</table:table>`
      const second =
        `<table:table table:name="隠し" table:style-name="ta2"><table:table-row>` +
        `${cell(`office:value-type="string"`, `<draw:frame><draw:text-box>${p("図の文字")}</draw:text-box><svg:title>代替テキスト</svg:title></draw:frame>${p("ルビ<text:ruby><text:ruby-base>東京</text:ruby-base><text:ruby-text>とうきょう</text:ruby-text></text:ruby>")}`)}` +
        `</table:table-row><table:shapes><draw:custom-shape>${p("ページの図形")}</draw:custom-shape></table:shapes></table:table>`
      const styles = `<style:style style:name="ta1" style:family="table"><style:table-properties table:display="true"/></style:style><style:style style:name="ta2" style:family="table"><style:table-properties table:display="false"/></style:style>`
      const meta =
        `<?xml version="1.0" encoding="UTF-8"?><office:document-meta ${ns}><office:meta><meta:initial-creator>佐藤</meta:initial-creator><dc:creator>鈴木</dc:creator>` +
        `<dc:title>見積書</dc:title><meta:keyword>見積</meta:keyword><meta:keyword>2024</meta:keyword><meta:user-defined meta:name="Company">株式会社サンプル</meta:user-defined>` +
        `<meta:user-defined meta:name="Info 1">使わない</meta:user-defined></office:meta></office:document-meta>`
      const out = yield* extract(odf("ods", `<office:spreadsheet>${first}${second}</office:spreadsheet>`, { "meta.xml": meta }, styles), "a.ods")
      expect(out.parts.map((part) => [part.name, part.locator, part.state])).toEqual([
        ["見積", "cell", "visible"],
        ["隠し", "cell", "hidden"],
        ["properties", "property", "visible"]
      ])
      expect(rows(out.parts[0]?.lines ?? [])).toEqual([
        "A1|2009年9月4日|2009/9/4 2009/09/04 2009-09-04",
        "B1|¥123,350|123350",
        "C1|12.5%|0.125",
        "D1|見積番号  A-1234\tx",
        "A2|0",
        "B2|0",
        "C2|0",
        "F2|上\n下",
        "G2|結合",
        "I2|見積一覧",
        "J2|https://example.jp/",
        "K2|   ",
        "A3|TRUE",
        "A4|TRUE",
        "F2 comment|確認してください\n二行目",
        "I2 link|https://example.jp/見積"
      ])
      expect(rows(out.parts[1]?.lines ?? [])).toEqual(["A1|ルビ東京", "A1 shape|図の文字", "shape|ページの図形"])
      expect(rows(out.parts[2]?.lines ?? [])).toEqual(["title|見積書", "author|佐藤", "keywords|見積 2024", "lastModifiedBy|鈴木", "company|株式会社サンプル"])
    }))

  it.effect("a value repeated past the line limit is too-large, and an empty sheet of a million rows gives nothing", () =>
    Effect.gen(function* () {
      const repeated = `<table:table table:name="S"><table:table-row table:number-rows-repeated="1048576">${cell(`office:value-type="float" office:value="1" table:number-columns-repeated="16384"`, p("1"))}</table:table-row></table:table>`
      const error = yield* failureOf(extract(odf("ods", `<office:spreadsheet>${repeated}</office:spreadsheet>`), "big.ods", { maxLines: 10_000 }))
      expect(error?.reason).toBe("too-large")
      const empty = `<table:table table:name="S"><table:table-row table:number-rows-repeated="1048576"><table:table-cell table:number-columns-repeated="16384"/></table:table-row></table:table>`
      const out = yield* extract(odf("ods", `<office:spreadsheet>${empty}</office:spreadsheet>`), "empty.ods")
      expect(out.parts.map((part) => [part.name, part.lines.length])).toEqual([["S", 0]])
    }))
})

describe("OpenDocument text documents (odt)", () => {
  it.effect("number paragraphs in order of their start, then headers, footers, footnotes, endnotes and comments", () =>
    Effect.gen(function* () {
      const body =
        `<office:text><text:sequence-decls><text:sequence-decl text:name="Table"/></text:sequence-decls>` +
        `<text:h text:outline-level="1">見出し</text:h>` +
        `<text:p/>` +
        `<text:p>本文<text:note text:note-class="footnote"><text:note-citation>1</text:note-citation><text:note-body>${p("脚注です")}</text:note-body></text:note>の続き<text:line-break/>次の行</text:p>` +
        `<table:table><table:table-row>${cell("", p("表の中"))}</table:table-row></table:table>` +
        `<text:p>枠の前<draw:frame><draw:text-box>${p("枠の中")}</draw:text-box></draw:frame>枠の後</text:p>` +
        `<text:list><text:list-item>${p("箇条書き")}</text:list-item></text:list>` +
        `<text:p>変更<office:annotation><dc:creator>A</dc:creator>${p("コメント")}</office:annotation>後</text:p>` +
        `<text:tracked-changes><text:changed-region><text:deletion><office:change-info><dc:creator>A</dc:creator></office:change-info>${p("消した文")}</text:deletion></text:changed-region></text:tracked-changes>` +
        `<text:p>Kommuni\u00adkation<text:text-input text:description="">入力&#x0d;</text:text-input></text:p>` +
        `<text:p>巻末<text:note text:note-class="endnote"><text:note-citation>i</text:note-citation><text:note-body>${p("後注")}</text:note-body></text:note></text:p>` +
        `</office:text>`
      const styles =
        `<?xml version="1.0" encoding="UTF-8"?><office:document-styles ${ns}><office:master-styles>` +
        `<style:master-page style:name="Standard"><style:header>${p("社外秘")}</style:header><style:header-left style:display="false">${p("使わない")}</style:header-left><style:footer>${p("<text:page-number>1</text:page-number> ページ")}</style:footer></style:master-page>` +
        `<style:master-page style:name="Other"><style:header>${p("社外秘")}</style:header></style:master-page>` +
        `</office:master-styles></office:document-styles>`
      const out = yield* extract(odf("odt", body, { "styles.xml": styles }), "a.odt")
      expect(out.parts.map((part) => [part.name, part.locator])).toEqual([["document", "paragraph"]])
      expect(rows(out.parts[0]?.lines ?? [])).toEqual([
        "1|見出し",
        "3|本文の続き 次の行",
        "4|表の中",
        "5|枠の前枠の後",
        "6|枠の中",
        "7|箇条書き",
        "8|変更後",
        "9|Kommunikation入力",
        "10|巻末",
        "header|社外秘",
        "footer|1 ページ",
        "footnote:1|脚注です",
        "endnote:1|後注",
        "comment:0|コメント"
      ])
    }))
})

describe("OpenDocument presentations (odp)", () => {
  it.effect("give each page's text at its number, its notes, hidden pages apart and the titles as properties", () =>
    Effect.gen(function* () {
      const page = (n: number, style: string, title: string, text: string, notes: string) =>
        `<draw:page draw:name="page${n}" draw:style-name="${style}">` +
        `<draw:frame presentation:class="title"><draw:text-box>${p(title)}</draw:text-box></draw:frame>` +
        `<draw:frame presentation:class="outline"><draw:text-box><text:list><text:list-item>${p(text)}</text:list-item></text:list></draw:text-box></draw:frame>` +
        `<presentation:notes><draw:page-thumbnail/><draw:frame presentation:class="notes"><draw:text-box>${p(notes)}</draw:text-box></draw:frame>` +
        `<draw:frame presentation:class="page-number"><draw:text-box>${p("<text:page-number>&lt;number&gt;</text:page-number>")}</draw:text-box></draw:frame></presentation:notes>` +
        `</draw:page>`
      const styles = `<style:style style:name="dp2" style:family="drawing-page"><style:drawing-page-properties presentation:visibility="hidden"/></style:style>`
      const out = yield* extract(odf("odp", `<office:presentation>${page(1, "dp1", "表紙", "概要", "話すこと")}${page(2, "dp2", "予備", "隠した", "")}</office:presentation>`, {}, styles), "a.odp")
      expect(out.parts.map((part) => [part.name, part.locator, part.state, rows(part.lines)])).toEqual([
        ["slides", "slide", "visible", ["1|表紙", "1|概要", "1 notes|話すこと"]],
        ["hidden slides", "slide", "hidden", ["2|予備", "2|隠した"]],
        ["properties", "property", "visible", ["slide 1|表紙", "slide 2|予備"]]
      ])
    }))
})

describe("OpenDocument failures", () => {
  it.effect("encrypted, another kind of OpenDocument, a missing or malformed content.xml", () =>
    Effect.gen(function* () {
      const encrypted = odf("ods", "<office:spreadsheet/>", {
        "META-INF/manifest.xml": `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data manifest:checksum-type="SHA1"/></manifest:file-entry></manifest:manifest>`
      })
      expect((yield* failureOf(extract(encrypted, "secret.ods")))?.reason).toBe("encrypted")
      const drawing = yield* failureOf(extract({ ...odf("ods", ""), mimetype: "application/vnd.oasis.opendocument.graphics" }, "a.odg"))
      expect([drawing?.reason, drawing?.openDocument]).toEqual(["needs-office", true])
      const { "content.xml": _, ...noContent } = odf("odt", "")
      expect((yield* failureOf(extract(noContent, "a.odt")))?.reason).toBe("corrupt")
      const malformed = yield* failureOf(extract({ ...odf("odt", ""), "content.xml": "<office:document-content><text:p>" }, "a.odt"))
      expect([malformed?.reason, malformed?.detail.startsWith("content.xml")]).toEqual(["corrupt", true])
    }))

  it.effect("text:s elements stand for at most 65,536 spaces in a paragraph, then one each; tables without a name are Sheet1, Sheet2 (hostile-file trial)", () =>
    Effect.gen(function* () {
      const spaces = Array.from({ length: 100 }, () => `<text:s text:c="1024"/>`).join("")
      const out = yield* extract(odf("odt", `<office:text><text:p>a${spaces}b</text:p></office:text>`), "a.odt")
      expect(out.parts[0]?.lines[0]?.text).toBe(`a${" ".repeat(64 * 1024 + 36)}b`)
      const unnamed = (n: number) => `<table:table><table:table-row>${cell(`office:value-type="string"`, p(`表${n}`))}</table:table-row></table:table>`
      const sheets = yield* extract(odf("ods", `<office:spreadsheet>${unnamed(1)}${unnamed(2)}</office:spreadsheet>`), "a.ods")
      expect(sheets.parts.map((part) => [part.name, rows(part.lines)])).toEqual([["Sheet1", ["A1|表1"]], ["Sheet2", ["A1|表2"]]])
    }))

  it.effect("a template is read as its document is (ots, ott, otp)", () =>
    Effect.gen(function* () {
      const template = { ...odf("ods", `<office:spreadsheet><table:table table:name="雛形"><table:table-row>${cell(`office:value-type="string"`, p("見積番号"))}</table:table-row></table:table></office:spreadsheet>`), mimetype: "application/vnd.oasis.opendocument.spreadsheet-template" }
      const out = yield* extract(template, "見積.ots")
      expect(out.parts.map((part) => [part.name, rows(part.lines)])).toEqual([["雛形", ["A1|見積番号"]]])
    }))

  it.effect("a space count of a billion stands for a bounded run of spaces", () =>
    Effect.gen(function* () {
      const out = yield* extract(odf("odt", `<office:text><text:p>a<text:s text:c="1000000000"/>b</text:p></office:text>`), "a.odt")
      expect(out.parts[0]?.lines[0]?.text).toBe(`a${" ".repeat(1024)}b`)
    }))
})
