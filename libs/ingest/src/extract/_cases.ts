/**
 * The inputs of ../shared/cases/cases.md (kinds XL, ZIP, DOC), built after
 * each case's recipe. `extract_cases.test.ts` builds them in memory and
 * checks each expected value; `tools/src/make_cases.ts` writes the same
 * files to `tools/testdata/cases/` for opening in Office. Test support only.
 *
 * @module
 */
import {
  documentFiles,
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
} from "./_test_packages.ts"
import { biff8Workbook, label } from "./_test_biff.ts"
import { writeCfb, writeZip } from "./_test_containers.ts"

/** One generated input: a file name and its bytes. */
export interface CaseFile {
  readonly name: string
  readonly bytes: Uint8Array
}

const cell = (ref: string, t: string) => `<c r="${ref}" t="inlineStr"><is><t>${t}</t></is></c>`

/** BUG-01: A1 is shared string 0 (請求書); `last` stores sharedStrings.xml after the worksheet in the zip. */
export async function bug01(last: boolean): Promise<Uint8Array> {
  const files = workbookFiles({
    sheets: [{ name: "請求", xml: worksheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`) }],
    sharedStrings: sharedStrings([`<si><t>請求書</t></si>`])
  })
  const { "xl/sharedStrings.xml": sst = "", ...rest } = files
  return zipOf(last ? { ...rest, "xl/sharedStrings.xml": sst } : { "xl/sharedStrings.xml": sst, ...rest })
}

/** BUG-02: no sharedStrings part; A1 inline 見積書, B1 inline rich text 会議 + 資料. */
export function bug02(): Promise<Uint8Array> {
  const sheet = worksheet(
    `<row r="1">${cell("A1", "見積書")}<c r="B1" t="inlineStr"><is><r><t>会議</t></r><r><rPr><b/></rPr><t>資料</t></r></is></c></row>`
  )
  return zipOf(workbookFiles({ sheets: [{ name: "Sheet1", xml: sheet }] }))
}

/** BUG-03: workbook, worksheet and sharedStrings under an `x:` prefix (`prefixed`), or the same file unprefixed. */
export function bug03(prefixed: boolean): Promise<Uint8Array> {
  const x = prefixed ? "x:" : ""
  const decl = prefixed ? `xmlns:x="${xmlns.sml}"` : `xmlns="${xmlns.sml}"`
  const files = workbookFiles({ sheets: [{ name: "発注", xml: "" }], sharedStrings: "" })
  files["xl/workbook.xml"] =
    `<${x}workbook ${decl} xmlns:r="${xmlns.r}"><${x}sheets><${x}sheet name="発注" sheetId="1" r:id="rId1"/></${x}sheets></${x}workbook>`
  files["xl/worksheets/sheet1.xml"] =
    `<${x}worksheet ${decl}><${x}sheetData><${x}row r="1"><${x}c r="A1" t="inlineStr"><${x}is><${x}t>発注書</${x}t></${x}is></${x}c>` +
    `<${x}c r="B1" t="s"><${x}v>0</${x}v></${x}c></${x}row></${x}sheetData></${x}worksheet>`
  files["xl/sharedStrings.xml"] = `<${x}sst ${decl}><${x}si><${x}t>納品書</${x}t></${x}si></${x}sst>`
  return zipOf(files)
}

/** BUG-04: every workbook relationship target absolute; (b) `numbered` false names the worksheet `sheet.xml`. */
export function bug04(numbered: boolean): Promise<Uint8Array> {
  const sheetPart = numbered ? "xl/worksheets/sheet1.xml" : "xl/worksheets/sheet.xml"
  const files = workbookFiles({ sheets: [{ name: "稟議", xml: "" }], sharedStrings: sharedStrings([`<si><t>稟議書</t></si>`]), styles: styles([0]) })
  delete files["xl/worksheets/sheet1.xml"]
  files[sheetPart] = worksheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`)
  files["xl/_rels/workbook.xml.rels"] = relationships([
    ["rId1", "worksheet", `/${sheetPart}`],
    ["rId2", "sharedStrings", "/xl/sharedStrings.xml"],
    ["rId3", "styles", "/xl/styles.xml"]
  ])
  return zipOf(files)
}

/** BUG-07: value 45000 in cells styled with built-in ids the file does not define (31, 55, 57, 58, 14, 27, 28, 30). */
export const bug07Ids: ReadonlyArray<number> = [31, 55, 57, 58, 14, 27, 28, 30]

/** BUG-07: A1… hold 45000 with the styles of {@link bug07Ids}; `workbookPr` e.g. `date1904="1"`. */
export function bug07(workbookPr = ""): Promise<Uint8Array> {
  const row = `<row r="1">${bug07Ids.map((_, i) => `<c r="${String.fromCharCode(65 + i)}1" s="${i}"><v>45000</v></c>`).join("")}</row>`
  return zipOf(workbookFiles({ sheets: [{ name: "日付", xml: worksheet(row) }], styles: styles(bug07Ids), workbookPr }))
}

/** BUG-09: three cells with phonetic runs (plain, rich, inline) and a docx with ruby. */
export function bug09Workbook(): Promise<Uint8Array> {
  const sst = sharedStrings([
    `<si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si>`,
    `<si><r><t>日本</t></r><r><t>語</t></r><rPh sb="0" eb="3"><t>ニホンゴ</t></rPh><phoneticPr fontId="1"/></si>`
  ])
  const sheet = worksheet(
    `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c>` +
      `<c r="C1" t="inlineStr"><is><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></is></c></row>`
  )
  return zipOf(workbookFiles({ sheets: [{ name: "住所", xml: sheet }], sharedStrings: sst }))
}

/** BUG-09, docx variant: ruby with base 東京 and reading とうきょう. */
export function bug09Document(): Promise<Uint8Array> {
  return zipOf(
    documentFiles(
      `<w:p><w:r><w:ruby><w:rubyPr><w:rubyAlign w:val="distributeSpace"/></w:rubyPr><w:rt><w:r><w:t>とうきょう</w:t></w:r></w:rt><w:rubyBase><w:r><w:t>東京</w:t></w:r></w:rubyBase></w:ruby></w:r></w:p>`
    )
  )
}

/**
 * BUG-10: ten texts in A1:A10 under formatting spread over the whole sheet:
 * a dimension and a `<cols>` entry for 1–16384, row 1 styled out to XFD,
 * `styledRows` rows of styled empty cells, a merge over millions of cells.
 */
export function bug10(styledRows = 3000): Promise<Uint8Array> {
  const styledRow = (r: number, cols: number) => {
    let cells = ""
    for (let c = 1; c <= cols; c++) cells += `<c r="${colName(c)}${r}" s="1"/>`
    return cells
  }
  let rows = `<row r="1" spans="1:16384" s="1" customFormat="1">${`<c r="A1" t="inlineStr" s="1"><is><t>項目1</t></is></c>`}${styledRow(1, 16384).slice(`<c r="A1" s="1"/>`.length)}</row>`
  for (let r = 2; r <= 10; r++) rows += `<row r="${r}" s="1" customFormat="1">${cell(`A${r}`, `項目${r}`)}<c r="B${r}" s="1"/><c r="XFD${r}" s="1"/></row>`
  for (let r = 11; r < 11 + styledRows; r++) rows += `<row r="${r}" s="1" customFormat="1">${styledRow(r, 20)}<c r="XFD${r}" s="1"/></row>`
  rows += `<row r="1048576" s="1"><c r="XFD1048576" s="1"/></row>`
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${xmlns.sml}"><dimension ref="A1:XFD1048576"/>` +
    `<cols><col min="1" max="16384" width="9" style="1"/></cols><sheetData>${rows}</sheetData>` +
    `<mergeCells count="1"><mergeCell ref="B20:XFD1048576"/></mergeCells></worksheet>`
  return zipOf(workbookFiles({ sheets: [{ name: "全体", xml }], styles: styles([0, 0]) }))
}

function colName(col: number): string {
  let name = ""
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(0x41 + ((n - 1) % 26)) + name
  return name
}

const cp932 = (text: string): Uint8Array => {
  // Node has no CP932 encoder; these are the bytes of the names the case uses.
  const table: Record<string, ReadonlyArray<number>> = {
    資: [0x8e, 0x91], 料: [0x97, 0xbf], 見: [0x8c, 0xa9], 積: [0x90, 0xcf], 書: [0x8f, 0x91],
    表: [0x95, 0x5c], ソ: [0x83, 0x5c], 一: [0x88, 0xea], 覧: [0x97, 0x97], フ: [0x83, 0x74], ト: [0x83, 0x67]
  }
  return new Uint8Array([...text].flatMap((c) => table[c] ?? [c.charCodeAt(0)]))
}

/**
 * BUG-13: a zip as Windows' "compressed folder" writes it: `資料/見積書.docx`
 * in CP932 without the UTF-8 flag, `表/ソフト一覧.xlsx` whose CP932 bytes hold
 * 0x5C trail bytes, and one UTF-8 name with the flag.
 */
export function bug13(): Uint8Array {
  return writeZip([
    { name: cp932("資料/見積書.docx"), data: "a", utf8Flag: false },
    { name: cp932("表/ソフト一覧.xlsx"), data: "b", utf8Flag: false },
    { name: "資料/請求書.xlsx", data: "c", utf8Flag: true }
  ])
}

/** BUG-13 in a package: an OOXML workbook whose parts are stored under a CP932-named folder is still found through relationships. */
export function bug13Package(): Uint8Array {
  const files = workbookFiles({ sheets: [{ name: "表", xml: worksheet(`<row r="1">${cell("A1", "ソフト一覧")}</row>`) }] })
  files["_rels/.rels"] = relationships([["rId1", "officeDocument", "表/workbook.xml"]])
  const entries = Object.entries(files).map(([name, data]) => {
    const renamed = name.replace(/^xl\//, "表/")
    return { name: /表/.test(renamed) ? cp932(renamed) : renamed, data, utf8Flag: false }
  })
  return writeZip(entries)
}

/** BUG-14 (a): a password-protected OOXML file: an OLE2 container with EncryptionInfo and EncryptedPackage. */
export function bug14Encrypted(): Uint8Array {
  const info = new Uint8Array(200)
  info.set([4, 0, 4, 0, 0x40, 0, 0, 0])
  return writeCfb([
    ["EncryptionInfo", info],
    ["EncryptedPackage", new Uint8Array(5000).fill(0x5a)]
  ])
}

/** BUG-14 (b): a BIFF8 workbook in an OLE2 container (an .xls renamed to .xlsx), one sheet 旧形式 whose A1 is 古い形式の本文. */
export function bug14LegacyWorkbook(): Uint8Array {
  return writeCfb([["Workbook", biff8Workbook([{ name: "旧形式", records: [label(0, 0, "古い形式の本文")] }])]])
}

/** BUG-15: tracked deletion, insertion, and a moveFrom/moveTo pair moving 別紙参照. */
export function bug15(): Promise<Uint8Array> {
  const w = (t: string) => `<w:r><w:t xml:space="preserve">${t}</w:t></w:r>`
  const rev = `w:author="山田" w:date="2024-04-01T09:00:00Z"`
  return zipOf(
    documentFiles(
      `<w:p>${w("契約期間は")}<w:del w:id="1" ${rev}><w:r><w:delText>1年</w:delText></w:r></w:del>` +
        `<w:ins w:id="2" ${rev}>${w("2年")}</w:ins>${w("とする")}</w:p>` +
        `<w:p><w:moveFromRangeStart w:id="3" w:name="move1" ${rev}/><w:moveFrom w:id="4" ${rev}>${w("別紙参照")}</w:moveFrom><w:moveFromRangeEnd w:id="3"/>${w("詳細は")}</w:p>` +
        `<w:p>${w("添付の")}<w:moveToRangeStart w:id="5" w:name="move1" ${rev}/><w:moveTo w:id="6" ${rev}>${w("別紙参照")}</w:moveTo><w:moveToRangeEnd w:id="5"/></w:p>`
    )
  )
}

/** BUG-16: a floating text box stored twice (DrawingML Choice, VML Fallback), in the body and in a table cell. */
export function bug16(): Promise<Uint8Array> {
  const w = (t: string) => `<w:r><w:t>${t}</w:t></w:r>`
  const wps = "http://schemas.microsoft.com/office/word/2010/wordprocessingShape"
  const box = (text: string) =>
    `<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><a:graphic xmlns:a="${xmlns.a}"><a:graphicData uri="${wps}"><wps:wsp xmlns:wps="${wps}"><wps:txbx><w:txbxContent><w:p>${w(text)}</w:p></w:txbxContent></wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>` +
    `<mc:Fallback><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml"><v:textbox><w:txbxContent><w:p>${w(text)}</w:p></w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>`
  return zipOf(documentFiles(`<w:p>${box("社外秘")}${w("本文")}</w:p><w:tbl><w:tr><w:tc><w:p>${box("表内の箱")}${w("セル")}</w:p></w:tc></w:tr></w:tbl>`))
}

/** BUG-17: two slides; slide 2's notes part is `notesSlide7.xml`, with 補足説明 in the body and 2 in the slide-number placeholder. */
export function bug17(): Promise<Uint8Array> {
  return zipOf({
    ...presentationFiles(["slides/slide1.xml", "slides/slide2.xml"]),
    "ppt/slides/slide1.xml": slide(textShape(["表紙"], "ctrTitle")),
    "ppt/slides/slide2.xml": slide(textShape(["本題"], "title")),
    "ppt/slides/_rels/slide2.xml.rels": relationships([["rId1", "notesSlide", "../notesSlides/notesSlide7.xml"]]),
    "ppt/notesSlides/notesSlide7.xml": slide(
      `<p:sp><p:nvSpPr><p:cNvPr id="2" name="i"/><p:cNvSpPr/><p:nvPr><p:ph type="sldImg"/></p:nvPr></p:nvSpPr><p:spPr/></p:sp>` +
        textShape(["補足説明"], "body") +
        `<p:sp><p:nvSpPr><p:cNvPr id="4" name="n"/><p:cNvSpPr/><p:nvPr><p:ph type="sldNum"/></p:nvPr></p:nvSpPr><p:txBody><a:p><a:fld id="{1}" type="slidenum"><a:t>2</a:t></a:fld></a:p></p:txBody></p:sp>`,
      "notes"
    )
  })
}

/** BUG-19: non-breaking and soft hyphens, a Wingdings symbol, a tab and a break. */
export function bug19(): Promise<Uint8Array> {
  const w = (t: string) => `<w:r><w:t xml:space="preserve">${t}</w:t></w:r>`
  return zipOf(
    documentFiles(
      `<w:p>${w("2")}<w:r><w:noBreakHyphen/></w:r>${w("6")}</w:p>` +
        `<w:p>${w("ISO")}<w:r><w:noBreakHyphen/><w:t>9001</w:t></w:r></w:p>` +
        `<w:p>${w("情報")}<w:r><w:softHyphen/></w:r>${w("システム")}</w:p>` +
        `<w:p>${w("確認")}<w:r><w:sym w:font="Wingdings" w:char="F0FC"/></w:r>${w("済み")}</w:p>` +
        `<w:p>${w("氏名")}<w:r><w:tab/></w:r>${w("住所")}<w:r><w:br/></w:r>${w("電話")}</w:p>`
    )
  )
}

/** Every case input as files, for `tools/src/make_cases.ts`. */
export async function allCaseFiles(): Promise<ReadonlyArray<CaseFile>> {
  return [
    { name: "BUG-01_shared_strings_last.xlsx", bytes: await bug01(true) },
    { name: "BUG-01_shared_strings_first.xlsx", bytes: await bug01(false) },
    { name: "BUG-02_inline_strings.xlsx", bytes: await bug02() },
    { name: "BUG-03_x_prefix.xlsx", bytes: await bug03(true) },
    { name: "BUG-03_no_prefix.xlsx", bytes: await bug03(false) },
    { name: "BUG-04a_absolute_targets.xlsx", bytes: await bug04(true) },
    { name: "BUG-04b_sheet_without_number.xlsx", bytes: await bug04(false) },
    { name: "BUG-07_japanese_builtin_dates.xlsx", bytes: await bug07() },
    { name: "BUG-09_phonetic.xlsx", bytes: await bug09Workbook() },
    { name: "BUG-09_ruby.docx", bytes: await bug09Document() },
    { name: "BUG-10_whole_sheet_formatting.xlsx", bytes: await bug10() },
    { name: "BUG-13_cp932_names.zip", bytes: bug13() },
    { name: "BUG-13_cp932_package.xlsx", bytes: bug13Package() },
    { name: "BUG-14a_encrypted.xlsx", bytes: bug14Encrypted() },
    { name: "BUG-14a_encrypted.docx", bytes: bug14Encrypted() },
    { name: "BUG-14b_xls_renamed.xlsx", bytes: bug14LegacyWorkbook() },
    { name: "BUG-14c_empty.xlsx", bytes: new Uint8Array() },
    { name: "BUG-15_tracked_changes.docx", bytes: await bug15() },
    { name: "BUG-16_text_box.docx", bytes: await bug16() },
    { name: "BUG-17_notes.pptx", bytes: await bug17() },
    { name: "BUG-19_hyphens_symbols.docx", bytes: await bug19() }
  ]
}
