/**
 * Writes a small, deterministic folder of Japanese business documents (two
 * workbooks, a Word document, a presentation, plus a lock file and a hidden
 * file that a crawler must skip) for the README demo and for tests.
 *
 * Every file comes with the list of strings an extractor must find in it and
 * where they stand, taken from the values this generator wrote, so that tests
 * can assert against the source of truth rather than against extractor output.
 *
 * Output is byte-for-byte stable: no clock, no randomness; zip entries carry
 * {@link SAMPLE_TIME} as their date, workbook properties are fixed, and every
 * written file and sub-folder gets {@link SAMPLE_TIME} as its mtime/atime.
 *
 * Run as a script: `npx tsx tools/src/make_samples.ts OUT_DIR`.
 *
 * @module
 */
import { mkdir, realpath, utimes, writeFile } from "node:fs/promises"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import ExcelJS from "exceljs"
import type { CellValue, Workbook, Worksheet } from "exceljs"
import JSZip from "jszip"
import { contentTypes, escapeXml, officeXmlHead, relationships, xmlns } from "@sagasu/ingest/testing"

// ---------------------------------------------------------------------------
// Public types

/**
 * How the generator wrote a value, which tells how `text` relates to what is
 * stored in the file:
 * - `text`: a string written as is (a shared/inline string cell, or the joined
 *   runs of one Word/PowerPoint paragraph);
 * - `number`: a numeric cell; `text` is `String(value)` of the stored number
 *   (no thousands separators, no number format applied);
 * - `formula`: a formula cell whose cached result is a number; `text` is
 *   `String(result)`, the formula itself is not part of `text`;
 * - `date`: a date cell, stored as an Excel serial day number (1900 system)
 *   with number format `yyyy-mm-dd`; `text` is that formatted form,
 *   e.g. `2024-03-31` (serial 45382).
 */
export type ExpectedKind = "text" | "number" | "formula" | "date"

/**
 * One string an extractor must find in a sample file.
 *
 * `location` is `<part>!<loc>`, mirroring the body index (a `BodyPart` name and
 * a `BodyLine.loc` of `@sagasu/domain`):
 * - workbooks: `<sheet name>!<A1 address>`, e.g. `見積書!B3`;
 * - Word documents: `document!<n>` with `n` the 1-based position of the
 *   paragraph among all `w:p` of `w:body` in document order, paragraphs inside
 *   table cells included (each cell holds exactly one paragraph; the samples
 *   contain no empty paragraph, so skipping empty ones changes nothing);
 * - presentations: `slides!<n>` with `n` the 1-based slide number in
 *   `sldIdLst` order; each `a:p` of the slide's shapes (title first) is one
 *   entry, so several entries share one location.
 *
 * Use {@link parseLocation} to split it; `loc` never contains `!`.
 */
export interface ExpectedText {
  /** The exact text, NFC, as written (full-width characters kept as written). */
  readonly text: string
  /** `<part>!<loc>`, see above. */
  readonly location: string
  /** How the value was written; see {@link ExpectedKind}. */
  readonly kind: ExpectedKind
}

/** One file written by {@link makeSamples}. */
export interface SampleFile {
  /** Path relative to the output folder, `/`-separated, e.g. `見積/見積書_A-1234.xlsx`. */
  readonly path: string
  /**
   * Every non-empty cell / paragraph the file holds, in writing order
   * (sheet by sheet, row-major). Empty for files to skip.
   */
  readonly expected: ReadonlyArray<ExpectedText>
  /** `true` for files a crawler must not index (Office lock file, hidden dot-file). */
  readonly skip?: boolean
  /** Names of sheets the workbook declares `hidden` (their cells are still in `expected`). */
  readonly hiddenParts?: ReadonlyArray<string>
}

/**
 * The fixed instant used for every date the generator has to write (zip entry
 * dates, workbook created/modified, file and folder mtimes):
 * 2024-03-31T00:00:00Z (09:00 JST). Whole seconds, even, so that it survives
 * DOS zip timestamps (2 s resolution) unchanged.
 */
export const SAMPLE_TIME: Date = new Date(Date.UTC(2024, 2, 31, 0, 0, 0))

/** Split an {@link ExpectedText.location} into its part name and locator (`A1`, `12`, `3`). */
export const parseLocation = (location: string): { readonly part: string; readonly loc: string } => {
  const i = location.lastIndexOf("!")
  if (i < 0) throw new Error(`not a sample location: ${location}`)
  return { part: location.slice(0, i), loc: location.slice(i + 1) }
}

// ---------------------------------------------------------------------------
// Zip helpers

/** Build a zip whose bytes depend only on `entries` (order kept, fixed dates, no folder entries). */
const zipEntries = async (entries: ReadonlyArray<readonly [name: string, data: string | Uint8Array]>): Promise<Buffer> => {
  const zip = new JSZip()
  for (const [name, data] of entries) {
    zip.file(name, data, { date: SAMPLE_TIME, createFolders: false })
  }
  return zip.generateAsync({
    type: "nodebuffer",
    compression: "DEFLATE",
    compressionOptions: { level: 6 },
    platform: "DOS"
  })
}

/** Re-pack a zip (as written by exceljs, whose entries carry the current time) with {@link SAMPLE_TIME}. */
const normalizeZip = async (bytes: Uint8Array): Promise<Buffer> => {
  const src = await JSZip.loadAsync(bytes)
  const entries: Array<readonly [string, Uint8Array]> = []
  for (const file of Object.values(src.files)) {
    if (file.dir) continue
    entries.push([file.name, await file.async("uint8array")])
  }
  return zipEntries(entries)
}

// ---------------------------------------------------------------------------
// Workbooks (exceljs)

type CellInput = string | number | Date | { readonly formula: string; readonly result: number }

/** Writes cells into one sheet and records what an extractor must find there. */
const sheetWriter = (ws: Worksheet, out: Array<ExpectedText>) => (address: string, value: CellInput): void => {
  const cell = ws.getCell(address)
  const location = `${ws.name}!${address}`
  if (typeof value === "string") {
    cell.value = value
    out.push({ text: value, location, kind: "text" })
  } else if (typeof value === "number") {
    cell.value = value
    out.push({ text: String(value), location, kind: "number" })
  } else if (value instanceof Date) {
    cell.value = value
    cell.numFmt = "yyyy-mm-dd"
    out.push({ text: value.toISOString().slice(0, 10), location, kind: "date" })
  } else {
    const v: CellValue = { formula: value.formula, result: value.result }
    cell.value = v
    out.push({ text: String(value.result), location, kind: "formula" })
  }
}

const newWorkbook = (title: string): Workbook => {
  const wb = new ExcelJS.Workbook()
  wb.creator = "Sagasu samples"
  wb.lastModifiedBy = "Sagasu samples"
  wb.title = title
  wb.company = "株式会社サガス"
  wb.created = SAMPLE_TIME
  wb.modified = SAMPLE_TIME
  return wb
}

const writeWorkbook = async (wb: Workbook): Promise<Buffer> =>
  normalizeZip(new Uint8Array(await wb.xlsx.writeBuffer()))

/** Column letter(s) of a 1-based column number. */
const colName = (n: number): string => {
  let s = ""
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s
  return s
}

/** Products of the 明細 sheet: [code, name, unit price in yen]. */
const DETAIL_ITEMS: ReadonlyArray<readonly [string, string, number]> = [
  ["P-0001", "ノートパソコン 14型", 120000],
  ["P-0002", "液晶モニター 24型", 28000],
  ["P-0003", "ワイヤレスマウス", 2500],
  ["P-0004", "キーボード（日本語配列）", 4800],
  ["P-0005", "ドッキングステーション", 18000],
  ["P-0006", "ＵＳＢ－Ｃケーブル 1m", 1200],
  ["P-0007", "ウェブカメラ", 6500],
  ["P-0008", "ヘッドセット", 7200],
  ["P-0009", "外付けSSD 1TB", 15800],
  ["P-0010", "無線LANルーター", 13500],
  ["P-0011", "レーザープリンター", 45000],
  ["P-0012", "トナーカートリッジ（黒）", 9800],
  ["P-0013", "コピー用紙 A4 5000枚", 3600],
  ["P-0014", "シュレッダー", 22000],
  ["P-0015", "ホワイトボード 1800×900", 19800],
  ["P-0016", "会議用スピーカーフォン", 32000],
  ["P-0017", "ノートパソコン用バッグ", 5400],
  ["P-0018", "セキュリティワイヤー", 2980],
  ["P-0019", "保守サポート（1年）", 36000],
  ["P-0020", "セットアップ作業費", 8000]
]

/**
 * Writes a priced line in row `r` through `put`: A to E the line's number,
 * two texts, quantity and unit price, F the amount as the formula `D*E`
 * with its cached result. Returns the amount.
 */
const pricedLine = (
  put: (address: string, value: CellInput) => void,
  r: number,
  cells: readonly [no: number, first: string, second: string, qty: number, price: number]
): number => {
  cells.forEach((value, k) => put(`${colName(k + 1)}${r}`, value))
  const [, , , qty, price] = cells
  put(`F${r}`, { formula: `D${r}*E${r}`, result: qty * price })
  return qty * price
}

/** Writes label–value rows through `put`: in row `r`, the label in column A, then the value in column B. */
const putLabelled = (
  put: (address: string, value: CellInput) => void,
  rows: ReadonlyArray<readonly [r: number, label: string, value: CellInput]>
): void => {
  for (const [r, label, value] of rows) {
    put(`A${r}`, label)
    put(`B${r}`, value)
  }
}

const makeEstimate = async (): Promise<{ bytes: Buffer; expected: Array<ExpectedText> }> => {
  const expected: Array<ExpectedText> = []
  const wb = newWorkbook("御見積書 A-1234")

  // Sheet 1: 見積書
  const ws = wb.addWorksheet("見積書")
  ws.columns = [{ width: 6 }, { width: 28 }, { width: 14 }, { width: 8 }, { width: 12 }, { width: 14 }]
  const put = sheetWriter(ws, expected)
  put("A1", "御見積書")
  put("B3", "見積番号 A-1234")
  put("B4", "発行日 2024年3月15日")
  put("B5", "株式会社サンプル商事 御中")
  put("E5", "株式会社サガス 営業部")
  const header = ["No.", "品名", "型番", "数量", "単価", "金額"]
  header.forEach((h, i) => put(`${colName(i + 1)}7`, h))
  const lines: ReadonlyArray<readonly [string, string, number, number]> = [
    ["ノートパソコン 14型", "NB-2024X", 10, 120000],
    ["液晶モニター 24型", "LCD-24W", 10, 28000],
    ["ワイヤレスマウス", "MS-100", 20, 2500],
    ["ＵＳＢ－Ｃケーブル 1m", "CB-USBC-1M", 20, 1200]
  ]
  let total = 0
  lines.forEach(([name, code, qty, price], i) => {
    total += pricedLine(put, 8 + i, [i + 1, name, code, qty, price])
  })
  const last = 8 + lines.length - 1
  put(`E${last + 2}`, "合計")
  put(`F${last + 2}`, { formula: `SUM(F8:F${last})`, result: total })
  put(`B${last + 4}`, "納期：ご発注後2週間")
  put(`B${last + 5}`, "有効期限：発行日より30日")

  // Sheet 2: 明細 — a 20-row table under a header row.
  const ds = wb.addWorksheet("明細")
  ds.columns = [{ width: 6 }, { width: 10 }, { width: 28 }, { width: 8 }, { width: 12 }, { width: 14 }]
  const dput = sheetWriter(ds, expected)
  ;["行", "品目コード", "品名", "数量", "単価", "金額"].forEach((h, i) => dput(`${colName(i + 1)}1`, h))
  DETAIL_ITEMS.forEach(([code, name, price], i) => {
    pricedLine(dput, 2 + i, [i + 1, code, name, ((i * 7) % 13) + 1, price])
  })

  // Sheet 3: メモ — hidden.
  const ms = wb.addWorksheet("メモ", { state: "hidden" })
  const mput = sheetWriter(ms, expected)
  mput("A1", "社内メモ：値引き上限は10%")
  mput("A2", "担当：営業部 鈴木")

  return { bytes: await writeWorkbook(wb), expected }
}

const makeInvoice = async (): Promise<{ bytes: Buffer; expected: Array<ExpectedText> }> => {
  const expected: Array<ExpectedText> = []
  const wb = newWorkbook("請求書 INV-2024-003")

  const ws = wb.addWorksheet("請求書")
  ws.columns = [{ width: 26 }, { width: 18 }]
  const put = sheetWriter(ws, expected)
  put("A1", "請求書")
  putLabelled(put, [
    [3, "請求書番号", "INV-2024-003"],
    [4, "請求日", new Date(Date.UTC(2024, 2, 31))],
    [5, "請求先", "株式会社サンプル商事"],
    [7, "項目", "金額"],
    [8, "保守サポート費用（3月分）", 150000],
    [9, "クラウド利用料", 48000],
    [10, "小計", { formula: "SUM(B8:B9)", result: 198000 }],
    [11, "消費税（10%）", { formula: "ROUNDDOWN(B10*0.1,0)", result: 19800 }],
    [12, "合計", { formula: "B10+B11", result: 217800 }]
  ])

  const ps = wb.addWorksheet("入金予定")
  ps.columns = [{ width: 14 }, { width: 40 }]
  const pput = sheetWriter(ps, expected)
  putLabelled(pput, [
    [1, "請求書番号", "INV-2024-003"],
    [2, "支払期限", new Date(Date.UTC(2024, 3, 30))],
    [3, "振込先", "サンプル銀行 本店営業部 普通 1234567"],
    [4, "入金額", { formula: "請求書!B12", result: 217800 }]
  ])

  return { bytes: await writeWorkbook(wb), expected }
}

// ---------------------------------------------------------------------------
// Word document (hand-built OOXML)

/** A run of a Word paragraph; `bold` renders it bold. */
type Run = { readonly text: string; readonly bold?: boolean }

const wRun = (r: Run): string =>
  `<w:r>${r.bold === true ? "<w:rPr><w:b/></w:rPr>" : ""}<w:t xml:space="preserve">${escapeXml(r.text)}</w:t></w:r>`

const makeMinutes = async (): Promise<{ bytes: Buffer; expected: Array<ExpectedText> }> => {
  const expected: Array<ExpectedText> = []
  let n = 0
  /** One `w:p`; records its joined text under the next paragraph number. */
  const para = (runs: ReadonlyArray<Run>, pPr = ""): string => {
    n += 1
    expected.push({ text: runs.map((r) => r.text).join(""), location: `document!${n}`, kind: "text" })
    return `<w:p>${pPr}${runs.map(wRun).join("")}</w:p>`
  }
  const cell = (text: string, width: number, bold = false): string =>
    `<w:tc><w:tcPr><w:tcW w:w="${width}" w:type="dxa"/></w:tcPr>${para([{ text, bold }])}</w:tc>`
  const border = (side: string): string => `<w:${side} w:val="single" w:sz="4" w:space="0" w:color="000000"/>`
  const table = (rows: ReadonlyArray<readonly [string, string]>): string =>
    `<w:tbl><w:tblPr><w:tblW w:w="8500" w:type="dxa"/><w:tblBorders>` +
    ["top", "left", "bottom", "right", "insideH", "insideV"].map(border).join("") +
    `</w:tblBorders><w:tblLook w:val="04A0"/></w:tblPr>` +
    `<w:tblGrid><w:gridCol w:w="6500"/><w:gridCol w:w="2000"/></w:tblGrid>` +
    rows.map(([a, b], i) => `<w:tr>${cell(a, 6500, i === 0)}${cell(b, 2000, i === 0)}</w:tr>`).join("") +
    `</w:tbl>`

  const body =
    para([{ text: "第12回 定例会議 議事録", bold: true }], `<w:pPr><w:jc w:val="center"/></w:pPr>`) +
    para([{ text: "日時：2024年3月18日（月）10:00～11:00" }]) +
    para([{ text: "場所：本社 3F 会議室A" }]) +
    // Split over runs on purpose: an extractor must join runs of one paragraph.
    para([{ text: "出席者：", bold: true }, { text: "山田" }, { text: "、佐藤" }]) +
    para([{ text: "議題：新製品「サガス」の発売準備について" }]) +
    table([
      ["決定事項", "担当"],
      ["発売日を2024年5月1日とする", "山田"],
      ["見積書テンプレートを改訂する", "佐藤"]
    ]) +
    para([{ text: "Next meeting: 2024-04-15" }]) +
    para([{ text: "以上" }], `<w:pPr><w:jc w:val="right"/></w:pPr>`)

  const document =
    officeXmlHead +
    `<w:document xmlns:w="${xmlns.w}" xmlns:r="${xmlns.r}"><w:body>` +
    body +
    `<w:sectPr><w:pgSz w:w="11906" w:h="16838"/>` +
    `<w:pgMar w:top="1985" w:right="1701" w:bottom="1701" w:left="1701" w:header="851" w:footer="992" w:gutter="0"/>` +
    `</w:sectPr></w:body></w:document>`

  const bytes = await zipEntries([
    [
      "[Content_Types].xml",
      contentTypes([
        ["/word/document.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"]
      ])
    ],
    ["_rels/.rels", relationships([["rId1", "officeDocument", "word/document.xml"]])],
    ["word/document.xml", document]
  ])
  return { bytes, expected }
}

// ---------------------------------------------------------------------------
// Presentation (hand-built OOXML: presentation, 1 master, 1 layout, 1 theme, slides)

const SLIDES: ReadonlyArray<{ readonly title: string; readonly bullets: ReadonlyArray<string> }> = [
  { title: "新製品「サガス」のご紹介", bullets: ["社内資料のすばやい全文検索", "2024年4月 営業部"] },
  {
    title: "主な機能",
    bullets: ["Excel・Word・PowerPoint の本文を検索", "日本語の部分一致に対応", "Search by keyword: A-1234"]
  },
  {
    title: "価格とスケジュール",
    bullets: ["標準ライセンス：1ユーザー 年額 12,000円", "発売日：2024年5月1日", "お問い合わせ：営業部 山田"]
  }
]

const SLIDE_W = 12192000 // EMU, 16:9
const SLIDE_H = 6858000

const xfrm = (x: number, y: number, cx: number, cy: number): string =>
  `<a:xfrm><a:off x="${x}" y="${y}"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm>`
const TITLE_XFRM = xfrm(838200, 365125, 10515600, 1325563)
const BODY_XFRM = xfrm(838200, 1825625, 10515600, 4351338)

const GROUP_START =
  `<p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>` +
  `<p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>`

/** A placeholder shape; `paras` are already-built `a:p` elements. */
const placeholder = (id: number, name: string, ph: string, spPr: string, paras: string): string =>
  `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="${name}"/><p:cNvSpPr><a:spLocks noGrp="1"/></p:cNvSpPr>` +
  `<p:nvPr>${ph}</p:nvPr></p:nvSpPr><p:spPr>${spPr}</p:spPr>` +
  `<p:txBody><a:bodyPr/><a:lstStyle/>${paras}</p:txBody></p:sp>`

const aPara = (text: string): string => {
  const lang = /^[\x20-\x7e]*$/.test(text) ? "en-US" : "ja-JP"
  return `<a:p><a:r><a:rPr lang="${lang}" dirty="0"/><a:t>${escapeXml(text)}</a:t></a:r></a:p>`
}

const PML_ROOT_ATTRS = `xmlns:a="${xmlns.a}" xmlns:r="${xmlns.r}" xmlns:p="${xmlns.p}"`

const slideXml = (title: string, bullets: ReadonlyArray<string>): string =>
  officeXmlHead +
  `<p:sld ${PML_ROOT_ATTRS}><p:cSld><p:spTree>${GROUP_START}` +
  placeholder(2, "Title 1", `<p:ph type="title"/>`, TITLE_XFRM, aPara(title)) +
  placeholder(3, "Content Placeholder 2", `<p:ph idx="1"/>`, BODY_XFRM, bullets.map(aPara).join("")) +
  `</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>`

const EMPTY_PARA = `<a:p><a:endParaRPr lang="ja-JP"/></a:p>`
const RECT = `<a:prstGeom prst="rect"><a:avLst/></a:prstGeom>`

const SLIDE_MASTER =
  officeXmlHead +
  `<p:sldMaster ${PML_ROOT_ATTRS}><p:cSld>` +
  `<p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg><p:spTree>${GROUP_START}` +
  placeholder(2, "Title Placeholder 1", `<p:ph type="title"/>`, TITLE_XFRM + RECT, EMPTY_PARA) +
  placeholder(3, "Text Placeholder 2", `<p:ph type="body" idx="1"/>`, BODY_XFRM + RECT, EMPTY_PARA) +
  `</p:spTree></p:cSld>` +
  `<p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" ` +
  `accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/>` +
  `<p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst>` +
  `<p:txStyles>` +
  `<p:titleStyle><a:lvl1pPr algn="l"><a:defRPr sz="4000"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill>` +
  `<a:latin typeface="+mj-lt"/><a:ea typeface="+mj-ea"/><a:cs typeface="+mj-cs"/></a:defRPr></a:lvl1pPr></p:titleStyle>` +
  `<p:bodyStyle><a:lvl1pPr marL="228600" indent="-228600" algn="l"><a:buFont typeface="Arial"/><a:buChar char="&#8226;"/>` +
  `<a:defRPr sz="2400"><a:solidFill><a:schemeClr val="tx1"/></a:solidFill>` +
  `<a:latin typeface="+mn-lt"/><a:ea typeface="+mn-ea"/><a:cs typeface="+mn-cs"/></a:defRPr></a:lvl1pPr></p:bodyStyle>` +
  `<p:otherStyle><a:lvl1pPr><a:defRPr sz="1800"/></a:lvl1pPr></p:otherStyle>` +
  `</p:txStyles></p:sldMaster>`

const SLIDE_LAYOUT =
  officeXmlHead +
  `<p:sldLayout ${PML_ROOT_ATTRS} type="obj" preserve="1"><p:cSld name="Title and Content"><p:spTree>${GROUP_START}` +
  placeholder(2, "Title 1", `<p:ph type="title"/>`, "", EMPTY_PARA) +
  placeholder(3, "Content Placeholder 2", `<p:ph idx="1"/>`, "", EMPTY_PARA) +
  `</p:spTree></p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`

const srgb = (name: string, hex: string): string => `<a:${name}><a:srgbClr val="${hex}"/></a:${name}>`
const fontSet = (latin: string): string => `<a:latin typeface="${latin}"/><a:ea typeface=""/><a:cs typeface=""/>`
const phFill = `<a:solidFill><a:schemeClr val="phClr"/></a:solidFill>`
const line = (w: number): string => `<a:ln w="${w}" cap="flat" cmpd="sng" algn="ctr">${phFill}<a:prstDash val="solid"/></a:ln>`

const THEME =
  officeXmlHead +
  `<a:theme xmlns:a="${xmlns.a}" name="Sagasu"><a:themeElements>` +
  `<a:clrScheme name="Sagasu">` +
  `<a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1>` +
  srgb("dk2", "44546A") + srgb("lt2", "E7E6E6") + srgb("accent1", "4472C4") + srgb("accent2", "ED7D31") +
  srgb("accent3", "A5A5A5") + srgb("accent4", "FFC000") + srgb("accent5", "5B9BD5") + srgb("accent6", "70AD47") +
  srgb("hlink", "0563C1") + srgb("folHlink", "954F72") +
  `</a:clrScheme>` +
  `<a:fontScheme name="Sagasu"><a:majorFont>${fontSet("Arial")}</a:majorFont>` +
  `<a:minorFont>${fontSet("Arial")}</a:minorFont></a:fontScheme>` +
  `<a:fmtScheme name="Sagasu">` +
  `<a:fillStyleLst>${phFill}${phFill}${phFill}</a:fillStyleLst>` +
  `<a:lnStyleLst>${line(6350)}${line(12700)}${line(19050)}</a:lnStyleLst>` +
  `<a:effectStyleLst>` + `<a:effectStyle><a:effectLst/></a:effectStyle>`.repeat(3) + `</a:effectStyleLst>` +
  `<a:bgFillStyleLst>${phFill}${phFill}${phFill}</a:bgFillStyleLst>` +
  `</a:fmtScheme></a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>`

const PRES_PROPS = officeXmlHead + `<p:presentationPr ${PML_ROOT_ATTRS}/>`

const makePresentation = async (): Promise<{ bytes: Buffer; expected: Array<ExpectedText> }> => {
  const expected: Array<ExpectedText> = []
  SLIDES.forEach(({ title, bullets }, i) => {
    for (const text of [title, ...bullets]) expected.push({ text, location: `slides!${i + 1}`, kind: "text" })
  })
  const pml = "application/vnd.openxmlformats-officedocument.presentationml"
  // presentation.xml.rels: rId1 master, rId2.. slides, then theme and presProps.
  const slideRid = (i: number): string => `rId${i + 2}`
  const themeRid = `rId${SLIDES.length + 2}`
  const propsRid = `rId${SLIDES.length + 3}`
  const presentation =
    officeXmlHead +
    `<p:presentation ${PML_ROOT_ATTRS} saveSubsetFonts="1">` +
    `<p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst>` +
    `<p:sldIdLst>${SLIDES.map((_, i) => `<p:sldId id="${256 + i}" r:id="${slideRid(i)}"/>`).join("")}</p:sldIdLst>` +
    `<p:sldSz cx="${SLIDE_W}" cy="${SLIDE_H}"/><p:notesSz cx="6858000" cy="9144000"/>` +
    `</p:presentation>`

  const entries: Array<readonly [string, string]> = [
    [
      "[Content_Types].xml",
      contentTypes([
        ["/ppt/presentation.xml", `${pml}.presentation.main+xml`],
        ["/ppt/presProps.xml", `${pml}.presProps+xml`],
        ["/ppt/slideMasters/slideMaster1.xml", `${pml}.slideMaster+xml`],
        ["/ppt/slideLayouts/slideLayout1.xml", `${pml}.slideLayout+xml`],
        ["/ppt/theme/theme1.xml", "application/vnd.openxmlformats-officedocument.theme+xml"],
        ...SLIDES.map((_, i) => [`/ppt/slides/slide${i + 1}.xml`, `${pml}.slide+xml`] as const)
      ])
    ],
    ["_rels/.rels", relationships([["rId1", "officeDocument", "ppt/presentation.xml"]])],
    ["ppt/presentation.xml", presentation],
    [
      "ppt/_rels/presentation.xml.rels",
      relationships([
        ["rId1", "slideMaster", "slideMasters/slideMaster1.xml"],
        ...SLIDES.map((_, i) => [slideRid(i), "slide", `slides/slide${i + 1}.xml`] as const),
        [themeRid, "theme", "theme/theme1.xml"],
        [propsRid, "presProps", "presProps.xml"]
      ])
    ],
    ["ppt/presProps.xml", PRES_PROPS],
    ["ppt/slideMasters/slideMaster1.xml", SLIDE_MASTER],
    [
      "ppt/slideMasters/_rels/slideMaster1.xml.rels",
      relationships([
        ["rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"],
        ["rId2", "theme", "../theme/theme1.xml"]
      ])
    ],
    ["ppt/slideLayouts/slideLayout1.xml", SLIDE_LAYOUT],
    [
      "ppt/slideLayouts/_rels/slideLayout1.xml.rels",
      relationships([["rId1", "slideMaster", "../slideMasters/slideMaster1.xml"]])
    ],
    ["ppt/theme/theme1.xml", THEME],
    ...SLIDES.flatMap(({ title, bullets }, i) => [
      [`ppt/slides/slide${i + 1}.xml`, slideXml(title, bullets)] as const,
      [
        `ppt/slides/_rels/slide${i + 1}.xml.rels`,
        relationships([["rId1", "slideLayout", "../slideLayouts/slideLayout1.xml"]])
      ] as const
    ])
  ]
  return { bytes: await zipEntries(entries), expected }
}

// ---------------------------------------------------------------------------
// Lock file

/**
 * An Office owner ("lock") file as Excel leaves beside an open workbook: a
 * length byte, the user name, space padding to 54 bytes, then the name again
 * in UTF-16LE. Not a zip; a crawler must skip `~$*` names.
 */
const lockFileBytes = (): Buffer => {
  const user = "yamada"
  const head = Buffer.alloc(54, 0x20)
  head[0] = user.length
  head.write(user, 1, "latin1")
  return Buffer.concat([head, Buffer.from([user.length, 0]), Buffer.from(user, "utf16le"), Buffer.alloc(2)])
}

// ---------------------------------------------------------------------------
// Entry point

/**
 * Write the sample folder into `dir` (created if missing; files of the same
 * names are overwritten, nothing else is touched or deleted) and return what
 * was written, in a fixed order:
 *
 * 1. `見積/見積書_A-1234.xlsx` — sheets `見積書`, `明細` (header + 20 rows),
 *    `メモ` (hidden; listed in `hiddenParts`);
 * 2. `経理/請求書_2024年3月.xlsx` — sheets `請求書`, `入金予定`;
 * 3. `議事録/定例会議_議事録.docx` — 13 paragraphs, 6 of them in a table;
 * 4. `営業/新製品説明会.pptx` — 3 slides, title + bullets each;
 * 5. `見積/~$見積書_A-1234.xlsx` — Office lock file (`skip: true`);
 * 6. `.hidden.xlsx` — same bytes as file 2, but a dot-file (`skip: true`).
 *
 * Output bytes are identical from run to run; every file and sub-folder
 * written gets {@link SAMPLE_TIME} as atime and mtime (the folder `dir` itself
 * is left as it is).
 *
 * @param dir output folder, absolute or relative to the current directory
 * @returns one {@link SampleFile} per written file
 */
export const makeSamples = async (dir: string): Promise<ReadonlyArray<SampleFile>> => {
  const estimate = await makeEstimate()
  const invoice = await makeInvoice()
  const minutes = await makeMinutes()
  const presentation = await makePresentation()

  const outputs: ReadonlyArray<{ readonly file: SampleFile; readonly bytes: Uint8Array }> = [
    {
      file: { path: "見積/見積書_A-1234.xlsx", expected: estimate.expected, hiddenParts: ["メモ"] },
      bytes: estimate.bytes
    },
    { file: { path: "経理/請求書_2024年3月.xlsx", expected: invoice.expected }, bytes: invoice.bytes },
    { file: { path: "議事録/定例会議_議事録.docx", expected: minutes.expected }, bytes: minutes.bytes },
    { file: { path: "営業/新製品説明会.pptx", expected: presentation.expected }, bytes: presentation.bytes },
    { file: { path: "見積/~$見積書_A-1234.xlsx", expected: [], skip: true }, bytes: lockFileBytes() },
    { file: { path: ".hidden.xlsx", expected: [], skip: true }, bytes: invoice.bytes }
  ]

  const folders = new Set<string>()
  for (const { file, bytes } of outputs) {
    const target = path.join(dir, ...file.path.split("/"))
    await mkdir(path.dirname(target), { recursive: true })
    await writeFile(target, bytes)
    await utimes(target, SAMPLE_TIME, SAMPLE_TIME)
    const parts = file.path.split("/").slice(0, -1)
    for (let i = 1; i <= parts.length; i++) folders.add(parts.slice(0, i).join("/"))
  }
  // Deepest first, so that setting a child's time does not disturb its parent afterwards.
  for (const folder of [...folders].sort((a, b) => b.split("/").length - a.split("/").length)) {
    await utimes(path.join(dir, ...folder.split("/")), SAMPLE_TIME, SAMPLE_TIME)
  }
  return outputs.map((o) => o.file)
}

const isMain = async (): Promise<boolean> => {
  const arg = process.argv[1]
  if (arg === undefined) return false
  try {
    return (await realpath(arg)) === (await realpath(fileURLToPath(import.meta.url)))
  } catch {
    return false
  }
}

if (await isMain()) {
  const out = process.argv[2]
  if (out === undefined || out === "") {
    process.stderr.write("usage: tsx tools/src/make_samples.ts OUT_DIR\n")
    process.exit(2)
  }
  const files = await makeSamples(out)
  process.stdout.write(`wrote ${files.length} files to ${path.resolve(out)}\n`)
  for (const f of files) {
    const what = f.skip === true ? "skip" : `${f.expected.length} expected strings`
    const hidden = f.hiddenParts !== undefined ? `, hidden sheets: ${f.hiddenParts.join(", ")}` : ""
    process.stdout.write(`  ${f.path}  (${what}${hidden})\n`)
  }
}
