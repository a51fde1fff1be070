/**
 * A small sample folder for the GUI's end-to-end tests: Japanese business
 * documents built in memory with the package writers of
 * `@sagasu/ingest/testing` (the door for test inputs), one damaged workbook
 * for the failure list, and — for the stop test — many small documents.
 * Used by tests only.
 *
 * @module
 */
import { documentFiles, escapeXml, type SheetSpec, workbookFiles, worksheet, xmlns, zipOf } from "@sagasu/ingest/testing"
import * as fs from "node:fs"
import * as path from "node:path"

const esc = escapeXml
const inlineCell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${esc(text)}</t></is></c>`
const rowOf = (ref: string) => ref.replace(/^[A-Z]+/, "")

/** A workbook of one sheet named `sheet` (with `extra` parts, such as styles) whose cells, one row each, are `cells`' XML. */
const oneSheet = (sheet: string, cells: ReadonlyArray<readonly [ref: string, xml: string]>, extra: Omit<Parameters<typeof workbookFiles>[0], "sheets"> = {}) => {
  const spec: SheetSpec = { name: esc(sheet), xml: worksheet(cells.map(([ref, xml]) => `<row r="${rowOf(ref)}">${xml}</row>`).join("")) }
  return zipOf(workbookFiles({ sheets: [spec], ...extra }))
}

/** A workbook of one sheet; `cells` are `[address, text]` written as inline strings. */
export const workbook = (sheet: string, cells: ReadonlyArray<readonly [string, string]>) =>
  oneSheet(sheet, cells.map(([ref, text]) => [ref, inlineCell(ref, text)] as const))

/** A document with one paragraph per entry. */
export const document = (paragraphs: ReadonlyArray<string>) =>
  zipOf(documentFiles(paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`).join("")))

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
export const titledDocument = (title: string, paragraphs: ReadonlyArray<string>) =>
  zipOf({
    ...documentFiles(paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${esc(p)}</w:t></w:r></w:p>`).join("")),
    "docProps/core.xml": coreProperties(title)
  })

/**
 * A workbook of one sheet with numeric cells shown through number formats:
 * `cells` are `[address, value, format]`, the format an Excel format code
 * (`"¥"#,##0`, `yyyy"年"m"月"d"日"`) or `""` for a plain inline string
 * `value`.
 */
export const formattedWorkbook = (sheet: string, cells: ReadonlyArray<readonly [string, string, string]>) => {
  const formats = [...new Set(cells.map((c) => c[2]).filter((f) => f !== ""))]
  const styles =
    `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="${xmlns.sml}"><numFmts count="${formats.length}">` +
    formats.map((f, i) => `<numFmt numFmtId="${164 + i}" formatCode="${esc(f)}"/>`).join("") +
    `</numFmts><cellXfs count="${formats.length + 1}"><xf numFmtId="0"/>` +
    formats.map((_, i) => `<xf numFmtId="${164 + i}" applyNumberFormat="1"/>`).join("") +
    `</cellXfs></styleSheet>`
  return oneSheet(
    sheet,
    cells.map(([ref, value, format]) => [ref, format === "" ? inlineCell(ref, value) : `<c r="${ref}" s="${formats.indexOf(format) + 1}"><v>${value}</v></c>`] as const),
    { styles }
  )
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
