/**
 * The benchmark's body index: Japanese and ASCII business-like lines from a
 * fixed seed, written as the body index writes them (one folder per source
 * file, `<n>_<part>.tsv`), plus, in the same pass, what the peers search:
 * a mirror with each line's normalised text for `rg -F` (same relative paths,
 * `.txt`, one line per body line, so line n of a mirror file is body line n),
 * and a Groonga `load` file with the original lines.
 *
 * @module
 */
import { bodyTsvFileName, escapeTsvField, formatBodyTsv, type Locator, normalizeForSearch, seededRandom } from "@sagasu/domain"
import * as fs from "node:fs"
import * as path from "node:path"
import { code, departments, int, people, phrases, pick } from "./_vocabulary.ts"

const companies = [
  "サンプル商事", "山田製作所", "東都物産", "ミライ電機", "さくら食品", "北斗システムズ", "大和運輸", "青葉建設", "ひかり印刷",
  "中央化学", "アルファ工業", "富士見不動産", "みどり薬品", "朝日ソリューションズ", "ｻﾝﾌﾟﾙ商事", "日本データサービス", "光陽精機",
  "Tokyo Trading", "Pacific Systems", "Blue Ocean Foods", "Nippon Logistics", "Kansai Steel"
]
const products = [
  "ノートパソコン", "液晶モニター", "複合機", "トナーカートリッジ", "オフィスチェア", "会議用テーブル", "ＬＡＮケーブル", "無線ルーター",
  "外付けＨＤＤ", "ＵＳＢメモリ", "プロジェクター", "スキャナー", "電源タップ", "ホワイトボード", "シュレッダー", "コピー用紙Ａ４",
  "ﾌﾟﾘﾝﾀｰ", "サーバーラック", "ソフトウェア保守", "クラウド利用料", "Laptop", "Monitor", "Router", "License"
]

const yen = (random: () => number) => (int(random, 5000) * 100 + 100).toLocaleString("en-US")
const date = (random: () => number) => `${2019 + int(random, 7)}年${1 + int(random, 12)}月${1 + int(random, 28)}日`
const isoDate = (random: () => number) =>
  `${2019 + int(random, 7)}-${String(1 + int(random, 12)).padStart(2, "0")}-${String(1 + int(random, 28)).padStart(2, "0")}`

/** One business-like line (Japanese mostly, some ASCII, full- and half-width forms). */
export function businessLine(random: () => number): string {
  switch (int(random, 10)) {
    case 0:
      return `${pick(random, companies)}株式会社 ${pick(random, departments)} ${pick(random, people)} 様`
    case 1:
      return `見積番号 ${code(random)} 合計金額 ${yen(random)}円（税込）`
    case 2:
      return `${date(random)} ${pick(random, products)} ${1 + int(random, 50)}個 単価${yen(random)}円`
    case 3:
      return `納期：${date(random)} 担当：${pick(random, people)}（${pick(random, departments)}）`
    case 4:
      return `Invoice No. ${code(random)} Total ${yen(random)} JPY due ${isoDate(random)}`
    case 5:
      return `${pick(random, phrases)}。${pick(random, phrases)}。`
    case 6:
      return `${pick(random, products)}`
    case 7:
      return `${pick(random, people)}：${pick(random, phrases)}（${pick(random, companies)}）`
    case 8:
      return `Meeting ${isoDate(random)}: ${pick(random, phrases)} — ${pick(random, people)}`
    default:
      return `${code(random)}`
  }
}

/** Where {@link generateBenchCorpus} writes and what it wrote. */
export interface BenchCorpus {
  /** Bytes of all TSVs of the body index (the raw text). */
  readonly tsvBytes: number
  readonly files: number
  readonly lines: number
  /** Every 97th line, original text: where hit queries are sampled from. */
  readonly sample: ReadonlyArray<string>
}

// A cell address that gives the line number back: A1, B1, … E1, A2, …
const cellOf = (n: number) => `${"ABCDE"[n % 5]}${Math.floor(n / 5) + 1}`

/**
 * Writes about `targetBytes` of TSV text under `indexDir/<index>/…`, the rg
 * mirror under `mirrorDir`, and the Groonga load commands to `groongaLoad`.
 */
export function generateBenchCorpus(
  targetBytes: number,
  dirs: { indexDir: string; mirrorDir: string; groongaLoad: string },
  seed = 20240601
): BenchCorpus {
  const random = seededRandom(seed)
  const sample: Array<string> = []
  const load = fs.openSync(dirs.groongaLoad, "w")
  fs.writeSync(load, "load --table Lines\n[\n")
  let tsvBytes = 0
  let files = 0
  let lines = 0
  let firstRecord = true
  let loadBuffer = ""
  while (tsvBytes < targetBytes) {
    const kind = pick(random, ["xlsx", "docx", "pptx", "xlsx"] as const)
    const rel = `${pick(random, departments)}/${2019 + int(random, 7)}/${kind === "xlsx" ? "見積" : kind === "docx" ? "議事録" : "提案"}_${files}.${kind}`
    const dir = path.join(dirs.indexDir, "bench", ...rel.split("/"))
    const mirror = path.join(dirs.mirrorDir, ...rel.split("/"))
    fs.mkdirSync(dir, { recursive: true })
    fs.mkdirSync(mirror, { recursive: true })
    const partCount = kind === "xlsx" ? 1 + int(random, 3) : 1
    for (let p = 1; p <= partCount; p++) {
      const name = kind === "xlsx" ? pick(random, ["見積書", "明細", "Sheet1", "集計", "顧客一覧"]) + p : kind === "docx" ? "document" : "slides"
      const locator: Locator = kind === "xlsx" ? "cell" : kind === "docx" ? "paragraph" : "slide"
      const count = 100 + int(random, 700)
      const body: Array<{ loc: string; text: string }> = []
      let mirrorText = ""
      for (let n = 0; n < count; n++) {
        const text = businessLine(random)
        body.push({ loc: locator === "cell" ? cellOf(n) : String(n + 1), text })
        mirrorText += escapeTsvField(normalizeForSearch(text)) + "\n"
        loadBuffer += (firstRecord ? "" : ",\n") + JSON.stringify({ text })
        firstRecord = false
        if (lines % 97 === 0) sample.push(text)
        lines++
      }
      const tsvName = bodyTsvFileName(p, name)
      const tsv = formatBodyTsv({ name, locator, state: "visible", lines: body })
      fs.writeFileSync(path.join(dir, tsvName), tsv)
      fs.writeFileSync(path.join(mirror, tsvName.replace(/\.tsv$/, ".txt")), mirrorText)
      tsvBytes += Buffer.byteLength(tsv)
    }
    if (loadBuffer.length > 1 << 20) {
      fs.writeSync(load, loadBuffer)
      loadBuffer = ""
    }
    files++
  }
  fs.writeSync(load, loadBuffer + "\n]\n")
  fs.closeSync(load)
  return { tsvBytes, files, lines, sample }
}

/** Line number of a body line from its location (the inverse of the generator's addresses). */
export function lineNumberOfLoc(loc: string): number {
  const m = /^([A-E])(\d+)$/.exec(loc)
  if (m === null) return Number(loc)
  return (Number(m[2]) - 1) * 5 + "ABCDE".indexOf(m[1] ?? "A") + 1
}

/** A benchmark query: its text, length in characters, script, and whether it was drawn to hit or to miss. */
export interface BenchQuery {
  readonly text: string
  readonly length: number
  readonly script: "ja" | "ascii"
  readonly intent: "hit" | "miss"
}

/**
 * The search benchmark's 200 fixed queries: 1, 2, 3, 5 and 10 characters,
 * Japanese and ASCII, 10 drawn from `sample` (lines of the corpus: hits)
 * and 10 made to miss (a rare character), each; seeded, so every run and
 * every benchmark asks the same.
 */
export function benchQueries(sample: ReadonlyArray<string>): Array<BenchQuery> {
  const random = seededRandom(200)
  const isJa = (s: string) => [...s].every((c) => c.charCodeAt(0) > 0x7f && !/\s/.test(c))
  const isAscii = (s: string) => /^[\x21-\x7e]+$/.test(s)
  const queries: Array<BenchQuery> = []
  const lengths = [1, 2, 3, 5, 10]
  const jaMissChars = [..."鬱麒麟薔薇檸檬躊躇顰蹙鼈甲轟"]
  const asciiMissChars = [..."#@!?&*^|`$"]
  const jaPool = [..."見積請求納期担当株式会社様円個単価合計金額税込部課長山田佐藤データサンプルのをにはがとでしたますです"]
  const asciiPool = [..."abcdefghijklmnopqrstuvwxyz0123456789"]
  for (const length of lengths) {
    for (const script of ["ja", "ascii"] as const) {
      let hits = 0
      let guard = 0
      while (hits < 10 && guard++ < 1_000_000) {
        const line = [...(sample[Math.floor(random() * sample.length)] ?? "")]
        if (line.length < length) continue
        const start = Math.floor(random() * (line.length - length + 1))
        const text = line.slice(start, start + length).join("")
        if (!(script === "ja" ? isJa(text) : isAscii(text))) continue
        if (queries.some((q) => q.text === text)) continue
        queries.push({ text, length, script, intent: "hit" })
        hits++
      }
      for (let k = 0; k < 10; k++) {
        let text = ""
        if (length === 1) text = (script === "ja" ? jaMissChars : asciiMissChars)[k] ?? "~"
        else {
          const pool = script === "ja" ? jaPool : asciiPool
          for (let i = 0; i < length; i++) text += pool[Math.floor(random() * pool.length)]
          if (script === "ja") text = text.slice(0, -1) + (jaMissChars[k] ?? "鬱") // rare character: a miss
        }
        queries.push({ text, length, script, intent: "miss" })
      }
    }
  }
  return queries
}
