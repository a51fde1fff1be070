/**
 * The ingest benchmark's corpus (b): a deterministic tree of Office files as
 * a shared drive holds them — 70% xlsx (1–20 sheets, 10–20,000 rows, shared
 * strings, dates, number formats and formulas as Excel writes them), 20%
 * docx (paragraphs in runs, tables, sometimes a picture), 10% pptx (slides,
 * notes, sometimes a picture); Japanese and ASCII text; file sizes drawn from
 * a log-normal (median 60 KB) clipped to 5 KB–30 MB, the largest file forced
 * to the top of the range.
 *
 * Fast: XML is built as strings in 1 MB pieces and zipped by a small writer
 * over Node's native deflate (no jszip), and files are made by several child
 * processes at once, each taking every k-th file (every file has its own
 * seed, so the split does not change a byte). The tree is cached: a folder
 * whose `tree.json` names the same options and generator version is reused.
 *
 * Every file holds a unique probe token (`PRB<n>`) and a Japanese probe
 * (`検索確認<n>`) in its first cell / paragraph / slide, so recall can be
 * checked on the tree too.
 *
 * Script: `npx tsx tools/src/bench/ingest_tree.ts OUT_DIR [FILES] [SEED] [MAX_MB]`.
 *
 * @module
 */
import { seededRandom } from "@sagasu/domain"
import { contentTypes, escapeXml, officeXmlHead, type RawZipEntry, relationships, writeZip, xmlns } from "@sagasu/ingest/testing"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { code, departments, int, people, phrases, pick, type Rand } from "./_vocabulary.ts"

/** Bump when the bytes the generator writes change: cached trees of another version are made again. */
export const generatorVersion = 4

/** Options of {@link makeIngestTree}. */
export interface IngestTreeOptions {
  readonly seed: number
  readonly files: number
  /** Largest file in bytes (default 30 MB); the smallest is 5 KB. */
  readonly maxBytes?: number
  /** Median file size in bytes (default 60 KB). */
  readonly medianBytes?: number
  /** Child processes that generate at once (default 2). */
  readonly processes?: number
}

export type OoxmlKind = "xlsx" | "docx" | "pptx"

/** One generated file. */
export interface IngestTreeFile {
  /** Relative to the tree, `/`-separated. */
  readonly path: string
  readonly kind: OoxmlKind
  readonly bytes: number
  /** The ASCII probe token and the Japanese probe, both in the first cell / paragraph / slide. */
  readonly probe: string
  readonly probeJa: string
  /** Sheets, paragraphs or slides. */
  readonly units: number
  /** Rows (xlsx), paragraphs (docx), text boxes (pptx) over the whole file. */
  readonly rows: number
}

/** What a tree folder's `tree.json` holds. */
export interface IngestTree {
  readonly version: number
  readonly options: Required<Omit<IngestTreeOptions, "processes">>
  readonly files: ReadonlyArray<IngestTreeFile>
}


// ---------------------------------------------------------------- text

const companies = [
  "サンプル商事株式会社", "山田製作所", "東都物産", "ミライ電機", "さくら食品", "北斗システムズ", "大和運輸", "青葉建設", "ひかり印刷",
  "中央化学工業", "アルファ工業", "富士見不動産", "みどり薬品", "朝日ソリューションズ", "ｻﾝﾌﾟﾙ商事", "日本データサービス", "光陽精機",
  "Tokyo Trading Co., Ltd.", "Pacific Systems", "Blue Ocean Foods", "Nippon Logistics", "Kansai Steel"
]
const products = [
  "ノートパソコン", "液晶モニター 27型", "複合機", "トナーカートリッジ", "オフィスチェア", "会議用テーブル", "ＬＡＮケーブル 5m",
  "無線ルーター", "外付けＨＤＤ 4TB", "ＵＳＢメモリ", "プロジェクター", "スキャナー", "電源タップ", "ホワイトボード", "シュレッダー",
  "コピー用紙Ａ４", "ﾌﾟﾘﾝﾀｰ", "サーバーラック", "ソフトウェア保守", "クラウド利用料", "Laptop 14-inch", "Monitor", "Router", "License"
]
const statuses = ["完了", "対応中", "未着手", "保留", "確認待ち", "Done", "Open"]
const fileStems = ["見積書", "請求書", "売上集計", "顧客一覧", "議事録", "提案書", "報告書", "在庫表", "予算案", "budget", "report", "orders"]


function sentence(rand: Rand): string {
  switch (int(rand, 6)) {
    case 0:
      return `${pick(rand, companies)} ${pick(rand, departments)} ${pick(rand, people)} 様`
    case 1:
      return `見積番号 ${code(rand)} 合計金額 ${(int(rand, 5000) * 100 + 100).toLocaleString("en-US")}円（税込）`
    case 2:
      return `${pick(rand, phrases)}。${pick(rand, phrases)}。`
    case 3:
      return `${pick(rand, people)}：${pick(rand, phrases)}（${pick(rand, companies)}）`
    case 4:
      return `Invoice No. ${code(rand)} due ${2019 + int(rand, 7)}-${String(1 + int(rand, 12)).padStart(2, "0")}-15: ${pick(rand, phrases)}`
    default:
      return `${pick(rand, products)}の${pick(rand, phrases)}`
  }
}

const colName = (n: number) => {
  let s = ""
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s
  return s
}

// ---------------------------------------------------------------- zip

/** Collects text into ~1 MB Buffers, so a 200 MB part is never one JS string. */
class Chunks {
  readonly parts: Array<Buffer> = []
  private text = ""

  push(s: string): void {
    this.text += s
    if (this.text.length > 1 << 19) this.flush()
  }

  bytes(): Buffer {
    this.flush()
    return this.parts.length === 1 ? (this.parts[0] as Buffer) : Buffer.concat(this.parts)
  }

  private flush(): void {
    if (this.text !== "") this.parts.push(Buffer.from(this.text, "utf8"))
    this.text = ""
  }
}

/** One entry of a file's zip: a part's text or bytes, stored (a picture) or deflated. */
type ZipItem = Pick<RawZipEntry, "name" | "data" | "stored">

/** The time every entry carries: 2024-01-01 00:00. */
const zipDate = new Date(Date.UTC(2024, 0, 1))

/** Writes a zip of `items` to `file` (deflated at zlib's level 6 as Office does, or stored; names flagged UTF-8); its size. */
function writeZipFile(file: string, items: ReadonlyArray<ZipItem>): number {
  const bytes = writeZip(items.map((item) => ({ ...item, utf8Flag: true })), { date: zipDate })
  fs.writeFileSync(file, bytes)
  return bytes.length
}

const jpeg: ReadonlyArray<readonly [string, string]> = [["jpeg", "image/jpeg"]]

const appXml = (app: string) =>
  Buffer.from(
    `${officeXmlHead}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>${app}</Application></Properties>`
  )

/** Incompressible bytes standing in for a JPEG picture (stored, as Office does). */
function picture(rand: Rand, bytes: number): Buffer {
  const b = Buffer.allocUnsafe(bytes)
  for (let i = 0; i < bytes; i += 4) b.writeUInt32LE((rand() * 4294967296) >>> 0, Math.min(i, bytes - 4))
  b[0] = 0xff
  b[1] = 0xd8
  return b
}

// ---------------------------------------------------------------- xlsx

// Compressed bytes per row of the sheets below, measured (≈10 cells a row): how a file's target size becomes rows.
const xlsxBytesPerRow = 70
const docxBytesPerParagraph = 20
const pptxBytesPerSlide = 230

interface Made {
  readonly items: Array<ZipItem>
  readonly units: number
  readonly rows: number
}

const stylesXml = Buffer.from(
  `${officeXmlHead}<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
    `<numFmts count="1"><numFmt numFmtId="176" formatCode="yyyy&quot;年&quot;m&quot;月&quot;d&quot;日&quot;"/></numFmts>` +
    `<fonts count="1"><font><sz val="11"/><name val="游ゴシック"/></font></fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills>` +
    `<borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
    `<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
    `<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
    `<xf numFmtId="3" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
    `<xf numFmtId="176" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>`
)

const header = ["伝票番号", "日付", "取引先", "担当者", "品名", "数量", "単価", "金額", "備考", "状況"]

function xlsx(rand: Rand, n: number, probe: string, probeJa: string, target: number, maxRows = 20_000, minSheets = 1): Made {
  const totalRows = Math.max(10, Math.round(target / xlsxBytesPerRow))
  let sheets = 1 + Math.floor(20 * rand() ** 3)
  sheets = Math.min(20, Math.max(sheets, minSheets, Math.ceil(totalRows / maxRows)))
  const perSheet = Math.min(maxRows, Math.max(10, Math.round(totalRows / sheets)))
  const strings = new Map<string, number>()
  const ss = (s: string) => {
    let i = strings.get(s)
    if (i === undefined) {
      i = strings.size
      strings.set(s, i)
    }
    return i
  }
  const items: Array<ZipItem> = []
  const sheetEntries: Array<string> = []
  const relItems: Array<readonly [string, string, string]> = []
  const overrides: Array<readonly [string, string]> = [
    ["/xl/workbook.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"],
    ["/xl/styles.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"],
    ["/xl/sharedStrings.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"]
  ]
  let rowsAll = 0
  for (let s = 1; s <= sheets; s++) {
    // ±25% per sheet, except at the 20,000-row cap (the largest files stay the largest).
    const rows = perSheet === maxRows ? perSheet : Math.min(maxRows, Math.max(10, Math.round(perSheet * (0.75 + rand() * 0.5))))
    const out = new Chunks()
    out.push(`${officeXmlHead}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${xmlns.r}">`)
    out.push(`<dimension ref="A1:J${rows}"/><sheetViews><sheetView workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="18.75"/>`)
    out.push(`<cols><col min="1" max="1" width="14" customWidth="1"/><col min="9" max="9" width="40" customWidth="1"/></cols><sheetData>`)
    out.push(`<row r="1" spans="1:10">`)
    for (let c = 1; c <= 10; c++) out.push(`<c r="${colName(c)}1" t="s"><v>${ss(header[c - 1] ?? "")}</v></c>`)
    out.push(`</row>`)
    for (let r = 2; r <= rows; r++) {
      const qty = 1 + int(rand, 50)
      const price = (1 + int(rand, 2000)) * 100
      let row = `<row r="${r}" spans="1:10">`
      row += `<c r="A${r}" t="s"><v>${ss(`${code(rand)}-${n}`)}</v></c>`
      row += `<c r="B${r}" s="${rand() < 0.5 ? 1 : 3}"><v>${43466 + int(rand, 2200)}</v></c>`
      row += `<c r="C${r}" t="s"><v>${ss(pick(rand, companies))}</v></c>`
      row += `<c r="D${r}" t="s"><v>${ss(pick(rand, people))}</v></c>`
      row += `<c r="E${r}" t="s"><v>${ss(pick(rand, products))}</v></c>`
      row += `<c r="F${r}"><v>${qty}</v></c>`
      row += `<c r="G${r}" s="2"><v>${price}</v></c>`
      row += `<c r="H${r}" s="2"><f>F${r}*G${r}</f><v>${qty * price}</v></c>`
      if (s === 1 && r === 2) row += `<c r="I${r}" t="s"><v>${ss(`${probe} ${probeJa}`)}</v></c>`
      else if (rand() < 0.65) row += `<c r="I${r}" t="s"><v>${ss(sentence(rand))}</v></c>`
      row += `<c r="J${r}" t="s"><v>${ss(pick(rand, statuses))}</v></c></row>`
      out.push(row)
    }
    out.push(`</sheetData><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`)
    items.push({ name: `xl/worksheets/sheet${s}.xml`, data: out.bytes() })
    sheetEntries.push(`<sheet name="${escapeXml(s === 1 ? "集計" : `${pick(rand, departments)}${s}`)}" sheetId="${s}" r:id="rId${s}"/>`)
    relItems.push([`rId${s}`, "worksheet", `worksheets/sheet${s}.xml`])
    overrides.push([`/xl/worksheets/sheet${s}.xml`, "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"])
    rowsAll += rows
  }
  const sst = new Chunks()
  sst.push(`${officeXmlHead}<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.size}" uniqueCount="${strings.size}">`)
  for (const s of strings.keys()) sst.push(`<si><t>${escapeXml(s)}</t></si>`)
  sst.push(`</sst>`)
  relItems.push([`rId${sheets + 1}`, "styles", "styles.xml"], [`rId${sheets + 2}`, "sharedStrings", "sharedStrings.xml"])
  items.unshift(
    { name: "[Content_Types].xml", data: contentTypes(overrides) },
    { name: "_rels/.rels", data: relationships([["rId1", "officeDocument", "xl/workbook.xml"], ["rId2", "extended-properties", "docProps/app.xml"]]) },
    { name: "docProps/app.xml", data: appXml("Microsoft Excel") },
    {
      name: "xl/workbook.xml",
      data: Buffer.from(
        `${officeXmlHead}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${xmlns.r}"><bookViews><workbookView/></bookViews><sheets>${sheetEntries.join("")}</sheets></workbook>`
      )
    },
    { name: "xl/_rels/workbook.xml.rels", data: relationships(relItems) },
    { name: "xl/styles.xml", data: stylesXml }
  )
  items.push({ name: "xl/sharedStrings.xml", data: sst.bytes() })
  return { items, units: sheets, rows: rowsAll }
}

// ---------------------------------------------------------------- docx


function docx(rand: Rand, probe: string, probeJa: string, target: number): Made {
  // Big documents are big mostly because of pictures: over 200 KB, 20–70% of the target is one, and text stops at 50,000 paragraphs.
  const share = target > 200_000 ? 0.2 + rand() * 0.5 : 0
  const paragraphs = Math.max(5, Math.min(50_000, Math.round((target * (1 - share)) / docxBytesPerParagraph)))
  const pictureBytes = share === 0 ? 0 : Math.max(0, Math.round(target - paragraphs * docxBytesPerParagraph))
  const run = (text: string, bold: boolean) =>
    `<w:r>${bold ? `<w:rPr><w:b/><w:rFonts w:hint="eastAsia"/></w:rPr>` : `<w:rPr><w:rFonts w:hint="eastAsia"/></w:rPr>`}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r>`
  const out = new Chunks()
  out.push(`${officeXmlHead}<w:document xmlns:w="${xmlns.w}" xmlns:r="${xmlns.r}"><w:body>`)
  out.push(`<w:p><w:pPr><w:pStyle w:val="Title"/></w:pPr>${run(`${probe} ${probeJa}`, true)}</w:p>`)
  let p = 1
  while (p < paragraphs) {
    if (rand() < 0.05) {
      // A table of 3–8 rows × 4 columns.
      const rows = 3 + int(rand, 6)
      out.push(`<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr>`)
      for (let r = 0; r < rows; r++) {
        out.push(`<w:tr>`)
        for (let c = 0; c < 4; c++) out.push(`<w:tc><w:p>${run(c === 0 ? pick(rand, products) : c === 1 ? String(1 + int(rand, 99)) : c === 2 ? pick(rand, people) : pick(rand, statuses), false)}</w:p></w:tc>`)
        out.push(`</w:tr>`)
      }
      out.push(`</w:tbl>`)
      p += rows * 4
    } else {
      const text = sentence(rand)
      const cut = int(rand, text.length)
      out.push(`<w:p><w:pPr><w:spacing w:after="0"/></w:pPr>${run(text.slice(0, cut), rand() < 0.2)}${run(text.slice(cut), false)}</w:p>`)
      p++
    }
  }
  const relItems: Array<readonly [string, string, string]> = [["rId1", "styles", "styles.xml"]]
  if (pictureBytes > 0) {
    out.push(`<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:docPr id="1" name="図 1"/></wp:inline></w:drawing></w:r></w:p>`)
    relItems.push(["rId2", "image", "media/image1.jpeg"])
  }
  out.push(`<w:sectPr><w:pgSz w:w="11906" w:h="16838"/></w:sectPr></w:body></w:document>`)
  const items: Array<ZipItem> = [
    {
      name: "[Content_Types].xml",
      data: contentTypes([
        ["/word/document.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"],
        ["/word/styles.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"]
      ], pictureBytes > 0 ? jpeg : [])
    },
    { name: "_rels/.rels", data: relationships([["rId1", "officeDocument", "word/document.xml"], ["rId2", "extended-properties", "docProps/app.xml"]]) },
    { name: "docProps/app.xml", data: appXml("Microsoft Office Word") },
    { name: "word/document.xml", data: out.bytes() },
    { name: "word/_rels/document.xml.rels", data: relationships(relItems) },
    { name: "word/styles.xml", data: Buffer.from(`${officeXmlHead}<w:styles xmlns:w="${xmlns.w}"><w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style></w:styles>`) }
  ]
  if (pictureBytes > 0) items.push({ name: "word/media/image1.jpeg", data: picture(rand, pictureBytes), stored: true })
  return { items, units: p, rows: p }
}

// ---------------------------------------------------------------- pptx


function pptx(rand: Rand, probe: string, probeJa: string, target: number): Made {
  // Over 100 KB, 30–80% of a presentation is a picture; text stops at 300 slides.
  const share = target > 100_000 ? 0.3 + rand() * 0.5 : 0
  const slides = Math.max(1, Math.min(300, Math.round((target * (1 - share)) / pptxBytesPerSlide)))
  const pictureBytes = share === 0 ? 0 : Math.max(0, Math.round(target - slides * pptxBytesPerSlide))
  const items: Array<ZipItem> = []
  const ids: Array<string> = []
  const relItems: Array<readonly [string, string, string]> = []
  const overrides: Array<readonly [string, string]> = [
    ["/ppt/presentation.xml", "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"]
  ]
  const shape = (id: number, paras: ReadonlyArray<string>) =>
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="テキスト ${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>` +
    paras.map((t) => `<a:p><a:r><a:rPr lang="ja-JP" altLang="en-US"/><a:t>${escapeXml(t)}</a:t></a:r></a:p>`).join("") +
    `</p:txBody></p:sp>`
  let boxes = 0
  for (let s = 1; s <= slides; s++) {
    const title = s === 1 ? `${probe} ${probeJa}` : `${pick(rand, fileStems)} ${s}`
    const body = Array.from({ length: 2 + int(rand, 6) }, () => sentence(rand))
    const slideRels: Array<readonly [string, string, string]> = []
    let pic = ""
    if (s === 1 && pictureBytes > 0) {
      pic = `<p:pic><p:nvPicPr><p:cNvPr id="4" name="図 3"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill><a:blip r:embed="rId1"/></p:blipFill><p:spPr/></p:pic>`
      slideRels.push(["rId1", "image", "../media/image1.jpeg"])
    }
    items.push({
      name: `ppt/slides/slide${s}.xml`,
      data: Buffer.from(
        `${officeXmlHead}<p:sld xmlns:a="${xmlns.a}" xmlns:p="${xmlns.p}" xmlns:r="${xmlns.r}"><p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>` +
          shape(2, [title]) + shape(3, body) + pic + `</p:spTree></p:cSld></p:sld>`
      )
    })
    if (slideRels.length > 0) items.push({ name: `ppt/slides/_rels/slide${s}.xml.rels`, data: relationships(slideRels) })
    ids.push(`<p:sldId id="${255 + s}" r:id="rId${s}"/>`)
    relItems.push([`rId${s}`, "slide", `slides/slide${s}.xml`])
    overrides.push([`/ppt/slides/slide${s}.xml`, "application/vnd.openxmlformats-officedocument.presentationml.slide+xml"])
    boxes += 2
  }
  items.unshift(
    { name: "[Content_Types].xml", data: contentTypes(overrides, pictureBytes > 0 ? jpeg : []) },
    { name: "_rels/.rels", data: relationships([["rId1", "officeDocument", "ppt/presentation.xml"], ["rId2", "extended-properties", "docProps/app.xml"]]) },
    { name: "docProps/app.xml", data: appXml("Microsoft Office PowerPoint") },
    {
      name: "ppt/presentation.xml",
      data: Buffer.from(
        `${officeXmlHead}<p:presentation xmlns:a="${xmlns.a}" xmlns:p="${xmlns.p}" xmlns:r="${xmlns.r}"><p:sldIdLst>${ids.join("")}</p:sldIdLst><p:sldSz cx="12192000" cy="6858000"/></p:presentation>`
      )
    },
    { name: "ppt/_rels/presentation.xml.rels", data: relationships(relItems) }
  )
  if (pictureBytes > 0) items.push({ name: "ppt/media/image1.jpeg", data: picture(rand, pictureBytes), stored: true })
  return { items, units: slides, rows: boxes }
}

// ---------------------------------------------------------------- the tree

/** The plan of file `n` (1-based): kind, name, target size; drawn from its own seed only. */
export function planFile(n: number, options: Required<Omit<IngestTreeOptions, "processes">>) {
  const rand = seededRandom(options.seed * 1_000_003 + n)
  const roll = rand()
  // The last file is the largest: a workbook.
  const kind: OoxmlKind = roll < 0.7 || n === options.files ? "xlsx" : roll < 0.9 ? "docx" : "pptx"
  // Log-normal size around the median (σ = 1.8), clipped to [5 KB, max]; the last file is the largest.
  const u1 = Math.max(rand(), 1e-12)
  const u2 = rand()
  const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2)
  const drawn = options.medianBytes * Math.exp(1.8 * z)
  const target = n === options.files ? options.maxBytes : Math.min(options.maxBytes, Math.max(5_000, drawn))
  const folder = `${pick(rand, departments)}/${2019 + int(rand, 7)}年度/${String(1 + ((n - 1) % 40)).padStart(2, "0")}`
  const rel = `${folder}/${pick(rand, fileStems)}_${String(n).padStart(5, "0")}.${kind}`
  return { kind, target, rel, seed: options.seed * 7_919 + n * 104_729 }
}

/** Writes file `n` of the tree under `dir` and says what it wrote. */
export function makeFile(dir: string, n: number, options: Required<Omit<IngestTreeOptions, "processes">>): IngestTreeFile {
  const plan = planFile(n, options)
  const rand = seededRandom(plan.seed)
  const probe = `PRB${String(n).padStart(6, "0")}`
  const probeJa = `検索確認${String(n).padStart(6, "0")}`
  const made = plan.kind === "xlsx"
    ? xlsx(rand, n, probe, probeJa, plan.target)
    : plan.kind === "docx"
      ? docx(rand, probe, probeJa, plan.target)
      : pptx(rand, probe, probeJa, plan.target)
  const file = path.join(dir, ...plan.rel.split("/"))
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const bytes = writeZipFile(file, made.items)
  return { path: plan.rel, kind: plan.kind, bytes, probe, probeJa, units: made.units, rows: made.rows }
}

/**
 * One workbook of about `bytes` bytes (10 sheets, as many rows as that
 * takes: a 100 MB file has ~140,000 rows a sheet), for the peak-memory check.
 */
export function makeWorkbook(file: string, bytes: number, seed: number): number {
  const made = xlsx(seededRandom(seed), 1, "PRB000001", "検索確認000001", bytes, 1_048_576, 10)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  return writeZipFile(file, made.items)
}

const fullOptions = (o: IngestTreeOptions): Required<Omit<IngestTreeOptions, "processes">> => ({
  seed: o.seed,
  files: o.files,
  maxBytes: o.maxBytes ?? 30_000_000,
  medianBytes: o.medianBytes ?? 60_000
})

const here = fileURLToPath(import.meta.url)

/**
 * Makes the tree under `dir` (reusing it when its `tree.json` matches) with
 * `options.processes` child processes, and returns its description.
 */
export async function makeIngestTree(dir: string, options: IngestTreeOptions): Promise<IngestTree> {
  const full = fullOptions(options)
  const stamp = path.join(dir, "..", `${path.basename(dir)}.tree.json`)
  if (fs.existsSync(stamp)) {
    const tree = JSON.parse(fs.readFileSync(stamp, "utf8")) as IngestTree
    if (tree.version === generatorVersion && JSON.stringify(tree.options) === JSON.stringify(full) && fs.existsSync(dir)) return tree
  }
  fs.rmSync(dir, { recursive: true, force: true })
  fs.mkdirSync(dir, { recursive: true })
  const processes = Math.max(1, options.processes ?? 2)
  const parts = await Promise.all(
    Array.from({ length: processes }, (_, k) =>
      new Promise<Array<IngestTreeFile>>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", here, "--part", dir, JSON.stringify(full), String(k), String(processes)], {
          stdio: ["ignore", "pipe", "inherit"]
        })
        let out = ""
        child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s))
        child.on("error", reject)
        child.on("close", (code) => (code === 0 ? resolve(JSON.parse(out) as Array<IngestTreeFile>) : reject(new Error(`tree generator part ${k} exited ${code}`))))
      })
    )
  )
  const files = parts.flat().sort((a, b) => a.path.localeCompare(b.path))
  const tree: IngestTree = { version: generatorVersion, options: full, files }
  fs.writeFileSync(stamp, JSON.stringify(tree))
  return tree
}

if (process.argv[1] !== undefined && here === path.resolve(process.argv[1])) {
  const args = process.argv.slice(2)
  if (args[0] === "--part") {
    const [, dir = "", json = "{}", k = "0", of = "1"] = args
    const options = JSON.parse(json) as Required<Omit<IngestTreeOptions, "processes">>
    const made: Array<IngestTreeFile> = []
    for (let n = 1 + Number(k); n <= options.files; n += Number(of)) made.push(makeFile(dir, n, options))
    process.stdout.write(JSON.stringify(made))
  } else {
    const [outDir, files = "2000", seed = "1", maxMb = "30"] = args
    if (outDir === undefined) {
      console.error("usage: npx tsx tools/src/bench/ingest_tree.ts OUT_DIR [FILES] [SEED] [MAX_MB]")
      process.exit(2)
    }
    const started = Date.now()
    const tree = await makeIngestTree(path.resolve(outDir), { files: Number(files), seed: Number(seed), maxBytes: Number(maxMb) * 1e6 })
    const total = tree.files.reduce((n, f) => n + f.bytes, 0)
    console.log(`${tree.files.length} files, ${(total / 1e6).toFixed(1)} MB in ${outDir} (${Date.now() - started} ms)`)
  }
}
