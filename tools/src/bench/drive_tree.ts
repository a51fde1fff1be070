/**
 * A shared drive's tree for the ingest benchmark (issue 20): at least 20,000
 * files in deep folders with Japanese names, made of generated documents
 * (ingest_tree.ts: xlsx/docx/pptx, log-normal sizes), legacy files (≈15%:
 * the corpus's own xls/doc/ppt, and generated documents converted once by
 * LibreOffice), and the corpus's OOXML files — each placed by a hard link,
 * so the tree costs the disk of its distinct files only. Both tools read
 * every path in full; neither knows two paths share their bytes.
 *
 * Cached in `<cache>/drive-<files>-<seed>` with `drive-<files>-<seed>.json`
 * listing every file: its path, kind, where it came from and a probe (a
 * string a correct extractor must find in it).
 *
 * @module
 */
import { seededRandom } from "@sagasu/domain"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { corpusDir, readManifest } from "../corpus.ts"
import { makeIngestTree } from "./ingest_tree.ts"

/** One file of the drive. */
export interface DriveFile {
  /** Relative to the tree, `/`-separated. */
  readonly path: string
  readonly ext: string
  readonly source: "generated" | "legacy-generated" | "legacy-corpus" | "corpus"
  readonly bytes: number
  /** A string the file holds (a generated probe, or the corpus manifest's first expected string); `""` when none is known. */
  readonly probe: string
}

/** The drive as its `.json` describes it. */
export interface DriveTree {
  readonly version: number
  readonly files: ReadonlyArray<DriveFile>
}

const version = 1
const legacyOf: Readonly<Record<string, string>> = { xlsx: "xls", docx: "doc", pptx: "ppt" }

const departments = ["営業部", "総務部", "経理部", "開発部", "購買部", "品質管理部", "人事部", "企画部", "法務部", "情報システム部"]
const years = ["2019年度", "2020年度", "2021年度", "2022年度", "2023年度", "2024年度"]
const kinds = ["見積", "請求", "契約", "議事録", "報告書", "提案書", "予算", "在庫", "顧客", "案件", "稟議", "規程"]
const clients = ["株式会社山田商事", "佐藤工業", "鈴木物産", "高橋建設", "田中電機", "伊藤食品", "渡辺運輸", "中村製作所", "小林薬品", "加藤不動産"]

function folderOf(rand: () => number): string {
  const pick = <A>(xs: ReadonlyArray<A>) => xs[Math.floor(rand() * xs.length)] as A
  const depth = 2 + Math.floor(rand() * 5)
  const parts = [pick(departments), pick(years)]
  if (depth > 2) parts.push(`${pick(kinds)}関係`)
  if (depth > 3) parts.push(pick(clients))
  if (depth > 4) parts.push(`${1 + Math.floor(rand() * 12)}月`)
  if (depth > 5) parts.push(rand() < 0.5 ? "旧版" : "確定版")
  return parts.join("/")
}

/**
 * Makes (or finds in `cache`) the drive of `files` files for `seed`;
 * `legacyShare` of them legacy (default 0.15). Conversions need LibreOffice
 * (`soffice`) once.
 */
export async function makeDriveTree(cache: string, files: number, seed: number, legacyShare = 0.15): Promise<{ dir: string; tree: DriveTree }> {
  const dir = path.join(cache, `drive-${files}-${seed}`)
  const stamp = `${dir}.json`
  if (fs.existsSync(stamp) && fs.existsSync(dir)) {
    const tree = JSON.parse(fs.readFileSync(stamp, "utf8")) as DriveTree
    if (tree.version === version && tree.files.length === files) return { dir, tree }
  }
  const rand = seededRandom(seed)
  const manifest = readManifest()
  const expectedOf = new Map(manifest.map((r) => [r.path.replace(/^files\//, ""), r.expected[0] ?? ""]))
  const corpusFiles = fs.readdirSync(path.join(corpusDir, "files"), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(path.join(corpusDir, "files"), path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .sort()
  const ext = (p: string) => path.extname(p).slice(1).toLowerCase()
  const corpusLegacy = corpusFiles.filter((p) => ["xls", "doc", "ppt"].includes(ext(p)))
  const corpusOoxml = corpusFiles.filter((p) => ["xlsx", "xlsm", "docx", "docm", "pptx", "pptm", "dotx", "ppsx"].includes(ext(p)))

  const legacyCount = Math.round(files * legacyShare)
  const corpusCount = Math.min(Math.round(files * 0.04), corpusOoxml.length * 4)
  const genCount = files - legacyCount - corpusCount
  // Generated documents: a drive's files are small (median ≈ 30 KB) with a long tail.
  const genDir = path.join(cache, `drive-gen-${genCount + 600}-${seed}`)
  const gen = await makeIngestTree(genDir, { seed, files: genCount + 600, medianBytes: 30_000, maxBytes: 20_000_000 })
  // 600 small generated documents (200 a kind) converted to xls/doc/ppt once.
  const convertPool = gen.files.slice(genCount).filter((f) => f.bytes < 1_000_000)
  const convertedDir = path.join(cache, `drive-legacy-${seed}`)
  const converted: Array<{ rel: string; probe: string; bytes: number }> = []
  for (const kind of ["xlsx", "docx", "pptx"] as const) {
    const batch = convertPool.filter((f) => f.kind === kind)
    const outDir = path.join(convertedDir, kind)
    const want = batch.map((_, i) => path.join(outDir, `${i}.${legacyOf[kind]}`))
    if (!want.every((w) => fs.existsSync(w))) {
      fs.rmSync(outDir, { recursive: true, force: true })
      fs.mkdirSync(outDir, { recursive: true })
      const inDir = path.join(convertedDir, `_in-${kind}`)
      fs.rmSync(inDir, { recursive: true, force: true })
      fs.mkdirSync(inDir, { recursive: true })
      batch.forEach((f, i) => fs.copyFileSync(path.join(genDir, ...f.path.split("/")), path.join(inDir, `${i}.${kind}`)))
      execFileSync("soffice", [
        `-env:UserInstallation=file://${path.join(cache, "lo-profile-drive")}`, "--headless", "--norestore",
        "--convert-to", legacyOf[kind] ?? "", "--outdir", outDir, ...batch.map((_, i) => path.join(inDir, `${i}.${kind}`))
      ], { stdio: "ignore", timeout: 3_600_000 })
      fs.rmSync(inDir, { recursive: true, force: true })
    }
    batch.forEach((f, i) => {
      const file = want[i]!
      if (fs.existsSync(file)) converted.push({ rel: path.relative(convertedDir, file).split(path.sep).join("/"), probe: f.probe, bytes: fs.statSync(file).size })
    })
  }

  fs.rmSync(dir, { recursive: true, force: true })
  const out: Array<DriveFile> = []
  const place = (sourceFile: string, name: string, source: DriveFile["source"], probe: string) => {
    const rel = `${folderOf(rand)}/${out.length}_${name}`
    const target = path.join(dir, ...rel.split("/"))
    fs.mkdirSync(path.dirname(target), { recursive: true })
    fs.linkSync(sourceFile, target)
    out.push({ path: rel, ext: ext(name), source, bytes: fs.statSync(sourceFile).size, probe })
  }
  // Interleaved, so every folder holds a mix.
  let g = 0
  let l = 0
  let c = 0
  for (let i = 0; i < files; i++) {
    const r = rand()
    const wantLegacy = l < legacyCount && (r < legacyShare || files - i <= legacyCount - l)
    if (wantLegacy) {
      // Two thirds converted documents (their probes are known), a third the corpus's own legacy files.
      if (l % 3 !== 2 && converted.length > 0) {
        const s = converted[l % converted.length]!
        place(path.join(convertedDir, ...s.rel.split("/")), `${["見積書", "議事録", "報告書"][l % 3]}.${ext(s.rel)}`, "legacy-generated", s.probe)
      } else {
        const s = corpusLegacy[l % corpusLegacy.length]!
        place(path.join(corpusDir, "files", ...s.split("/")), path.basename(s), "legacy-corpus", expectedOf.get(s) ?? "")
      }
      l++
    } else if (c < corpusCount && r < legacyShare + 0.04) {
      const s = corpusOoxml[c % corpusOoxml.length]!
      place(path.join(corpusDir, "files", ...s.split("/")), path.basename(s), "corpus", expectedOf.get(s) ?? "")
      c++
    } else if (g < genCount) {
      const s = gen.files[g]!
      place(path.join(genDir, ...s.path.split("/")), path.basename(s.path), "generated", s.probe)
      g++
    } else {
      const s = corpusOoxml[c % corpusOoxml.length]!
      place(path.join(corpusDir, "files", ...s.split("/")), path.basename(s), "corpus", expectedOf.get(s) ?? "")
      c++
    }
  }
  const tree: DriveTree = { version, files: out }
  fs.writeFileSync(stamp, JSON.stringify(tree))
  return { dir, tree }
}
