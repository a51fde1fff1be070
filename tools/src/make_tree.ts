/**
 * Generates a deterministic tree of Office files (xlsx, docx, pptx) for
 * crash tests, chaos campaigns and benchmarks: Japanese and ASCII business
 * text from a seeded generator, written as minimal but valid OOXML with the
 * package plumbing of `@sagasu/ingest/testing` (no exceljs: it would be the
 * slow part at 2,000 files).
 *
 * Every file holds a unique probe string (`PROBE-<n>`) in a known place, so a
 * test can check that search finds exactly the files it should.
 *
 * Run as a script: `npx tsx tools/src/make_tree.ts OUT_DIR [FILES] [SEED]`.
 *
 * @module
 */
import { seededRandom } from "@sagasu/domain"
import { contentTypes, escapeXml, officeXmlHead, relationships, slideFiles, xmlns, zipOf } from "@sagasu/ingest/testing"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/** Options of {@link makeTree}. */
export interface TreeOptions {
  /** Seed of the generator: the same seed gives the same bytes. */
  readonly seed: number
  /** Number of files. */
  readonly files: number
  /** Shares of xlsx / docx / pptx (default 0.7 / 0.2 / 0.1). */
  readonly mix?: { readonly xlsx: number; readonly docx: number; readonly pptx: number }
  /** Rows per sheet are drawn from [minRows, maxRows] (default 10..200). */
  readonly minRows?: number
  readonly maxRows?: number
  /** Sheets per workbook are drawn from [1, maxSheets] (default 3). */
  readonly maxSheets?: number
  /** Files per folder before a new folder is started (default 25). */
  readonly filesPerFolder?: number
}

/** A generated file: `path` relative to the tree, `/`-separated; its `probe` string and where it stands. */
export interface TreeFile {
  readonly path: string
  readonly kind: "xlsx" | "docx" | "pptx"
  readonly bytes: number
  readonly probe: string
  /** `Sheet1!A1`, `¶1` or `slide 1`: the probe's location as search reports it. */
  readonly probeLocation: string
}

const words = [
  "見積", "請求", "納品", "発注", "契約", "会議", "議事録", "予算", "実績", "売上", "原価", "経費", "部署", "担当",
  "営業部", "総務部", "経理部", "開発部", "株式会社", "サンプル", "商事", "工業", "東京", "大阪", "名古屋", "福岡",
  "プロジェクト", "スケジュール", "レビュー", "テスト", "仕様書", "設計", "品質", "課題", "対応", "完了", "未着手",
  "ノートパソコン", "モニター", "ケーブル", "ライセンス", "保守", "サポート", "クラウド", "サーバー", "ネットワーク",
  "invoice", "order", "quote", "delivery", "budget", "review", "meeting", "report", "status", "total", "amount"
]

const sentence = (rand: () => number, n: number) => {
  const parts: Array<string> = []
  for (let i = 0; i < n; i++) parts.push(words[Math.floor(rand() * words.length)] ?? "")
  if (rand() < 0.3) parts.push(`A-${1000 + Math.floor(rand() * 9000)}`)
  return parts.join(rand() < 0.5 ? "" : " ")
}

const colName = (n: number) => {
  let s = ""
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s
  return s
}

const sheetType = "application/vnd.openxmlformats-officedocument.spreadsheetml"

const xlsx = (rand: () => number, probe: string, options: TreeOptions): Made => {
  const sheets = 1 + Math.floor(rand() * (options.maxSheets ?? 3))
  const minRows = options.minRows ?? 10
  const maxRows = options.maxRows ?? 200
  const files: Record<string, string> = {}
  const sheetEntries: Array<string> = []
  const relItems: Array<readonly [string, string, string]> = []
  const overrides: Array<readonly [string, string]> = [["/xl/workbook.xml", `${sheetType}.sheet.main+xml`]]
  for (let s = 1; s <= sheets; s++) {
    const rows = minRows + Math.floor(rand() * (maxRows - minRows + 1))
    const out: Array<string> = []
    for (let r = 1; r <= rows; r++) {
      const cells: Array<string> = []
      for (let c = 1; c <= 4; c++) {
        const ref = `${colName(c)}${r}`
        if (s === 1 && r === 1 && c === 1) {
          cells.push(`<c r="${ref}" t="inlineStr"><is><t>${probe}</t></is></c>`)
        } else if (c === 4) {
          cells.push(`<c r="${ref}"><v>${Math.floor(rand() * 1000000)}</v></c>`)
        } else {
          cells.push(`<c r="${ref}" t="inlineStr"><is><t>${escapeXml(sentence(rand, 2 + Math.floor(rand() * 4)))}</t></is></c>`)
        }
      }
      out.push(`<row r="${r}">${cells.join("")}</row>`)
    }
    files[`xl/worksheets/sheet${s}.xml`] = `${officeXmlHead}<worksheet xmlns="${xmlns.sml}"><sheetData>${out.join("")}</sheetData></worksheet>`
    sheetEntries.push(`<sheet name="シート${s}" sheetId="${s}" r:id="rId${s}"/>`)
    relItems.push([`rId${s}`, "worksheet", `worksheets/sheet${s}.xml`])
    overrides.push([`/xl/worksheets/sheet${s}.xml`, `${sheetType}.worksheet+xml`])
  }
  files["[Content_Types].xml"] = contentTypes(overrides)
  files["_rels/.rels"] = relationships([["rId1", "officeDocument", "xl/workbook.xml"]])
  files["xl/workbook.xml"] = `${officeXmlHead}<workbook xmlns="${xmlns.sml}" xmlns:r="${xmlns.r}"><sheets>${sheetEntries.join("")}</sheets></workbook>`
  files["xl/_rels/workbook.xml.rels"] = relationships(relItems)
  return { files, probeLocation: "シート1!A1" }
}

const docx = (rand: () => number, probe: string): Made => {
  const paragraphs = [probe, ...Array.from({ length: 5 + Math.floor(rand() * 60) }, () => sentence(rand, 4 + Math.floor(rand() * 10)))]
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(p)}</w:t></w:r></w:p>`).join("")
  return {
    files: {
      "[Content_Types].xml": contentTypes([["/word/document.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"]]),
      "_rels/.rels": relationships([["rId1", "officeDocument", "word/document.xml"]]),
      "word/document.xml": `${officeXmlHead}<w:document xmlns:w="${xmlns.w}"><w:body>${body}</w:body></w:document>`
    },
    probeLocation: "¶1"
  }
}

const pptx = (rand: () => number, probe: string): Made => {
  const slides = 1 + Math.floor(rand() * 8)
  const xml: Array<string> = []
  for (let s = 1; s <= slides; s++) {
    const paras = (s === 1 ? [probe] : []).concat(Array.from({ length: 2 + Math.floor(rand() * 5) }, () => sentence(rand, 3 + Math.floor(rand() * 5))))
    const sp = paras.map((p) => `<a:p><a:r><a:t>${escapeXml(p)}</a:t></a:r></a:p>`).join("")
    xml.push(`${officeXmlHead}<p:sld xmlns:a="${xmlns.a}" xmlns:p="${xmlns.p}"><p:cSld><p:spTree><p:sp><p:txBody>${sp}</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`)
  }
  return { files: slideFiles(xml), probeLocation: "slide 1" }
}

/** One file's parts (name → XML, in zip order) and where its probe stands. */
interface Made {
  readonly files: Record<string, string>
  readonly probeLocation: string
}

/**
 * Writes `options.files` Office files under `dir` (created) and returns what
 * it wrote. Deterministic for a seed: names, contents and zip bytes. Folder
 * names are Japanese (`部署01/…`), file names mix Japanese and ASCII.
 */
export async function makeTree(dir: string, options: TreeOptions): Promise<Array<TreeFile>> {
  const rand = seededRandom(options.seed)
  const mix = options.mix ?? { xlsx: 0.7, docx: 0.2, pptx: 0.1 }
  const perFolder = options.filesPerFolder ?? 25
  const out: Array<TreeFile> = []
  for (let n = 1; n <= options.files; n++) {
    const roll = rand() * (mix.xlsx + mix.docx + mix.pptx)
    const kind = roll < mix.xlsx ? "xlsx" : roll < mix.xlsx + mix.docx ? "docx" : "pptx"
    const probe = `PROBE-${String(n).padStart(5, "0")}`
    const made = kind === "xlsx" ? xlsx(rand, probe, options) : kind === "docx" ? docx(rand, probe) : pptx(rand, probe)
    const folder = `部署${String(Math.ceil(n / perFolder)).padStart(2, "0")}`
    const rel = `${folder}/${words[n % words.length]}_${String(n).padStart(5, "0")}.${kind}`
    const bytes = await zipOf(made.files)
    const file = path.join(dir, ...rel.split("/"))
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, bytes)
    out.push({ path: rel, kind, bytes: bytes.length, probe, probeLocation: made.probeLocation })
  }
  return out
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [outDir, files = "200", seed = "1"] = process.argv.slice(2)
  if (outDir === undefined) {
    console.error("usage: npx tsx tools/src/make_tree.ts OUT_DIR [FILES] [SEED]")
    process.exit(2)
  }
  const started = Date.now()
  const made = await makeTree(outDir, { seed: Number(seed), files: Number(files) })
  const total = made.reduce((n, f) => n + f.bytes, 0)
  console.log(`${made.length} files, ${(total / 1e6).toFixed(1)} MB in ${outDir} (${Date.now() - started} ms)`)
}
