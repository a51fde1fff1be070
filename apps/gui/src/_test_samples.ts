/**
 * A small sample folder for the GUI's end-to-end tests: Japanese business
 * documents built in memory with jszip (the tools' generator lives in a
 * layer this package may not import), one damaged workbook for the failure
 * list, and — for the stop test — many small documents. Used by tests only.
 *
 * @module
 */
import JSZip from "jszip"
import * as fs from "node:fs"
import * as path from "node:path"

const ns = {
  sml: "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
  r: "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
  w: "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
  rels: "http://schemas.openxmlformats.org/package/2006/relationships"
}
const contentTypes = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/></Types>`
const rels = (items: ReadonlyArray<readonly [string, string, string]>) =>
  `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${ns.rels}">` +
  items.map(([id, type, target]) => `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`).join("") +
  `</Relationships>`
const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

const zip = async (files: Record<string, string>) => {
  const z = new JSZip()
  for (const [name, content] of Object.entries(files)) z.file(name, content, { date: new Date(Date.UTC(2024, 2, 31)) })
  return z.generateAsync({ type: "nodebuffer", compression: "DEFLATE" })
}

/** A workbook of one sheet; `cells` are `[address, text]` written as inline strings. */
export const workbook = (sheet: string, cells: ReadonlyArray<readonly [string, string]>) =>
  zip({
    "[Content_Types].xml": contentTypes,
    "_rels/.rels": rels([["rId1", "officeDocument", "xl/workbook.xml"]]),
    "xl/workbook.xml": `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${ns.sml}" xmlns:r="${ns.r}"><sheets><sheet name="${esc(sheet)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    "xl/_rels/workbook.xml.rels": rels([["rId1", "worksheet", "worksheets/sheet1.xml"]]),
    "xl/worksheets/sheet1.xml":
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${ns.sml}"><sheetData>` +
      cells.map(([ref, text]) => `<row r="${ref.replace(/^[A-Z]+/, "")}"><c r="${ref}" t="inlineStr"><is><t>${esc(text)}</t></is></c></row>`).join("") +
      `</sheetData></worksheet>`
  })

/** A document with one paragraph per entry. */
export const document = (paragraphs: ReadonlyArray<string>) =>
  zip({
    "[Content_Types].xml": contentTypes,
    "_rels/.rels": rels([["rId1", "officeDocument", "word/document.xml"]]),
    "word/document.xml":
      `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${ns.w}"><w:body>` +
      paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`).join("") +
      `</w:body></w:document>`,
    "word/_rels/document.xml.rels": rels([])
  })

/**
 * Writes the sample folder `dir`: a quotation workbook (見積番号 in A1, a
 * 【重要】 note that must not be highlighted as a hit), minutes, a damaged
 * workbook that fails with `corrupt`, and a cloud-only placeholder.
 */
export async function writeSamples(dir: string): Promise<void> {
  fs.mkdirSync(path.join(dir, "見積"), { recursive: true })
  fs.writeFileSync(
    path.join(dir, "見積", "見積書_A-1234.xlsx"),
    await workbook("見積書", [
      ["A1", "見積番号"],
      ["B1", "A-1234"],
      ["A2", "件名"],
      ["B2", "【重要】会議室の備品一式（見積番号 A-1234 の再提出分）"],
      ["A3", "合計金額"],
      ["B3", "128,000円"]
    ])
  )
  fs.writeFileSync(
    path.join(dir, "議事録_2024-03-29.docx"),
    await document([
      "営業部 定例会議 議事録",
      "出席者: 山田、佐藤、鈴木",
      "見積番号 A-1234 について、金額を確認したうえで来週に再提出する。",
      "次回は 4 月 5 日（金）10 時から。"
    ])
  )
  fs.writeFileSync(path.join(dir, "壊れたファイル.xlsx"), Buffer.from("PK\u0003\u0004 this is not a real workbook"))
  // A cloud-only placeholder (SPEC §5): a size but no blocks on the disk.
  fs.mkdirSync(path.join(dir, "クラウド"), { recursive: true })
  const placeholder = path.join(dir, "クラウド", "予算_2024.xlsx")
  fs.writeFileSync(placeholder, "")
  fs.truncateSync(placeholder, 64 * 1024)
}

/** Writes `count` small documents into `dir` (for a run slow enough to stop). */
export async function writeManyDocuments(dir: string, count: number): Promise<void> {
  fs.mkdirSync(dir, { recursive: true })
  const bytes = await document(Array.from({ length: 40 }, (_, i) => `報告書の本文 第 ${i + 1} 段落: 月次の売上と経費をまとめました。`))
  for (let i = 0; i < count; i++) {
    fs.writeFileSync(path.join(dir, `報告書_${String(i + 1).padStart(4, "0")}.docx`), bytes)
  }
}

const coreProperties = (title: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ` +
  `xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${esc(title)}</dc:title><dc:creator>総務部 田中</dc:creator></cp:coreProperties>`

/** A document with one paragraph per entry and the document property `title`. */
export const titledDocument = async (title: string, paragraphs: ReadonlyArray<string>) => {
  const z = await JSZip.loadAsync(await document(paragraphs))
  z.file("docProps/core.xml", coreProperties(title), { date: new Date(Date.UTC(2024, 2, 31)) })
  return z.generateAsync({ type: "nodebuffer", compression: "DEFLATE" })
}

/**
 * A workbook of one sheet with numeric cells shown through number formats:
 * `cells` are `[address, value, format]`, the format an Excel format code
 * (`"¥"#,##0`, `yyyy"年"m"月"d"日"`) or `""` for a plain inline string
 * `value`.
 */
export const formattedWorkbook = (sheet: string, cells: ReadonlyArray<readonly [string, string, string]>) => {
  const formats = [...new Set(cells.map((c) => c[2]).filter((f) => f !== ""))]
  const styles =
    `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="${ns.sml}"><numFmts count="${formats.length}">` +
    formats.map((f, i) => `<numFmt numFmtId="${164 + i}" formatCode="${esc(f).replace(/"/g, "&quot;")}"/>`).join("") +
    `</numFmts><cellXfs count="${formats.length + 1}"><xf numFmtId="0"/>` +
    formats.map((_, i) => `<xf numFmtId="${164 + i}" applyNumberFormat="1"/>`).join("") +
    `</cellXfs></styleSheet>`
  const cell = ([ref, value, format]: readonly [string, string, string]) =>
    format === ""
      ? `<c r="${ref}" t="inlineStr"><is><t>${esc(value)}</t></is></c>`
      : `<c r="${ref}" s="${formats.indexOf(format) + 1}"><v>${value}</v></c>`
  return zip({
    "[Content_Types].xml": contentTypes,
    "_rels/.rels": rels([["rId1", "officeDocument", "xl/workbook.xml"]]),
    "xl/workbook.xml": `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${ns.sml}" xmlns:r="${ns.r}"><sheets><sheet name="${esc(sheet)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    "xl/_rels/workbook.xml.rels": rels([["rId1", "worksheet", "worksheets/sheet1.xml"], ["rId2", "styles", "styles.xml"]]),
    "xl/styles.xml": styles,
    "xl/worksheets/sheet1.xml":
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${ns.sml}"><sheetData>` +
      cells.map((c) => `<row r="${c[0].replace(/^[A-Z]+/, "")}">${cell(c)}</row>`).join("") +
      `</sheetData></worksheet>`
  })
}

/**
 * The folder of the search tests through the GUI API (issue 14): minutes
 * whose words stand in different paragraphs and whose title is a document
 * property, a manual with 「」 text, a price list with a yen amount and a
 * date shown as Excel shows them, and `reports` small reports sharing a
 * word, for paging.
 */
export async function writeSearchSamples(dir: string, reports: number): Promise<void> {
  fs.mkdirSync(path.join(dir, "議事録"), { recursive: true })
  fs.writeFileSync(
    path.join(dir, "議事録", "定例会_0329.docx"),
    await titledDocument("第12回 営業戦略会議", [
      "出席者: 山田、佐藤",
      "議題: 来期の販売計画",
      "決定事項: 新製品の発売を 6 月に前倒しする。"
    ])
  )
  fs.writeFileSync(
    path.join(dir, "議事録", "定例会_0405.docx"),
    await document(["出席者: 山田、鈴木", "議題: 予算の見直し", "決定事項: 出張費を 1 割減らす。"])
  )
  fs.writeFileSync(path.join(dir, "操作手順書.docx"), await document(["申請画面で「承認」ボタンを押すと、申請者にメールが届きます。"]))
  fs.writeFileSync(
    path.join(dir, "価格表.xlsx"),
    await formattedWorkbook("価格", [
      ["A1", "会議用テーブル", ""],
      ["B1", "123350", "\"¥\"#,##0"],
      ["A2", "改定日", ""],
      ["B2", "40060", "yyyy\"年\"m\"月\"d\"日\""]
    ])
  )
  fs.mkdirSync(path.join(dir, "月報"), { recursive: true })
  const bytes = await document(["月次報告: 売上と経費をまとめました。"])
  for (let i = 0; i < reports; i++) fs.writeFileSync(path.join(dir, "月報", `月報_${String(i + 1).padStart(3, "0")}.docx`), bytes)
}
