/**
 * The tree the crash and stop parts run on: ordinary generated Office files
 * (tools/src/make_tree.ts), slow ones (large sheets), failing ones (damaged
 * and hostile packages) and, when the shared corpus is present, a few legacy
 * files that go through LibreOffice. Deterministic for a seed.
 *
 * @module
 */
import { seededRandom } from "@sagasu/domain"
import * as fs from "node:fs"
import * as path from "node:path"
import {
  bug14Encrypted,
  deflateRepeated,
  sharedStrings,
  workbookFiles,
  worksheet,
  writeZip,
  xmlns,
  zipOf
} from "@sagasu/ingest/testing"
import { corpusDir } from "../corpus.ts"
import { makeTree } from "../make_tree.ts"

/** Options of {@link makeMixedTree}. */
export interface MixedTreeOptions {
  readonly seed: number
  /** Ordinary files (xlsx/docx/pptx, 10–200 rows). */
  readonly good: number
  /** Large single-sheet workbooks (`slowRows` rows each): the files a stop waits for. */
  readonly slow: number
  readonly slowRows?: number
  /** Damaged or hostile files that must end `failed`. */
  readonly failing: number
  /** Legacy files copied from the corpus, the first read through LibreOffice; 0 to leave Office out. */
  readonly office: number
}

/** What was written: relative paths by kind, and queries whose answers two runs must agree on. */
export interface MixedTree {
  readonly root: string
  readonly files: ReadonlyArray<{ readonly path: string; readonly kind: "good" | "slow" | "failing" | "office" }>
  readonly queries: ReadonlyArray<string>
}

/**
 * Legacy files of the corpus (small, one per application, plus an encrypted one that fails). Since issue
 * 20 the plain workers read most legacy formats, and PowerPoint 95 and 4.0 since W3's readers of them; an
 * Office 2003 XML workbook (copied as .xls: the crawl takes no .xml) still goes to LibreOffice (the plain
 * worker reroutes it, R14), so it comes first: a tree with any legacy file has one LibreOffice reads.
 */
const legacyFromCorpus = [
  "files/phpspreadsheet/excel2003.xml",
  "files/poi/pp40only.ppt",
  "files/poi/testEXCEL_4.xls",
  "files/poi/Word6.doc",
  "files/poi/bug46441.ppt",
  "files/poi/testEXCEL_3.xls",
  "files/poi/Password_Protected-hello.ppt",
  "files/poi/word2.doc"
]

const cellXml = (text: string) => `<row r="1"><c r="A1" t="inlineStr"><is><t>${text}</t></is></c></row>`

/** One damaged or hostile file, chosen by `i`; each ends `failed` with a specific reason. */
async function failingFile(i: number, rand: () => number, goodBytes: Uint8Array): Promise<{ name: string; bytes: Uint8Array }> {
  switch (i % 8) {
    case 0: {
      const cut = 30 + Math.floor(rand() * (goodBytes.length - 60))
      return { name: `切れたzip_${i}.xlsx`, bytes: goodBytes.subarray(0, cut) }
    }
    case 1: {
      const bytes = new Uint8Array(2000)
      bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
      for (let k = 8; k < bytes.length; k++) bytes[k] = Math.floor(rand() * 256)
      return { name: `画像なのに_${i}.xlsx`, bytes }
    }
    case 2:
      return { name: `空_${i}.docx`, bytes: new Uint8Array() }
    case 3:
      return { name: `暗号化_${i}.xlsx`, bytes: bug14Encrypted() }
    case 4: {
      const bomb = deflateRepeated(`<worksheet xmlns="${xmlns.sml}"><sheetData>`, "\0".repeat(1 << 20), 256, "</sheetData></worksheet>")
      const files = workbookFiles({ sheets: [{ name: "S", xml: "" }] })
      const entries = Object.entries(files).map(([name, data]) =>
        name === "xl/worksheets/sheet1.xml" ? { name, deflated: bomb } : { name, data }
      )
      return { name: `zip爆弾_${i}.xlsx`, bytes: writeZip(entries) }
    }
    case 5: {
      const laughs =
        `<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY a "lollollollollol">` +
        Array.from({ length: 9 }, (_, k) => `<!ENTITY ${String.fromCharCode(98 + k)} "${`&${String.fromCharCode(97 + k)};`.repeat(10)}">`).join("") +
        `]><sst xmlns="${xmlns.sml}"><si><t>&j;</t></si></sst>`
      const files = workbookFiles({ sheets: [{ name: "S", xml: worksheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`) }], sharedStrings: laughs })
      return { name: `実体展開_${i}.xlsx`, bytes: await zipOf(files) }
    }
    case 6:
      return { name: `中身が違う_${i}.pptx`, bytes: await zipOf({ "readme.txt": "not an Office package" }) }
    default: {
      const files = workbookFiles({ sheets: [{ name: "S", xml: worksheet(cellXml("壊れたXML")) }], sharedStrings: sharedStrings([]) })
      files["xl/worksheets/sheet1.xml"] = `<worksheet xmlns="${xmlns.sml}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>途中で`
      return { name: `XML途中_${i}.xlsx`, bytes: await zipOf(files) }
    }
  }
}

/** Writes the mixed tree under `root` (created). */
export async function makeMixedTree(root: string, options: MixedTreeOptions): Promise<MixedTree> {
  const files: Array<{ path: string; kind: "good" | "slow" | "failing" | "office" }> = []
  const good = await makeTree(path.join(root, "通常"), { seed: options.seed, files: options.good })
  for (const f of good) files.push({ path: `通常/${f.path}`, kind: "good" })

  if (options.slow > 0) {
    const rows = options.slowRows ?? 40_000
    const slow = await makeTree(path.join(root, "大きい表"), {
      seed: options.seed + 1,
      files: options.slow,
      mix: { xlsx: 1, docx: 0, pptx: 0 },
      minRows: rows,
      maxRows: rows,
      maxSheets: 1,
      filesPerFolder: 1000
    })
    for (const f of slow) files.push({ path: `大きい表/${f.path}`, kind: "slow" })
  }

  const rand = seededRandom(options.seed + 2)
  const someGood = fs.readFileSync(path.join(root, "通常", ...(good[0]?.path ?? "").split("/")))
  fs.mkdirSync(path.join(root, "壊れた"), { recursive: true })
  for (let i = 0; i < options.failing; i++) {
    const f = await failingFile(i, rand, someGood)
    fs.writeFileSync(path.join(root, "壊れた", f.name), f.bytes)
    files.push({ path: `壊れた/${f.name}`, kind: "failing" })
  }

  const legacy = legacyFromCorpus.slice(0, options.office).filter((p) => fs.existsSync(path.join(corpusDir, p)))
  if (legacy.length > 0) fs.mkdirSync(path.join(root, "旧形式"), { recursive: true })
  for (const p of legacy) {
    const name = p.endsWith(".xml") ? `${path.basename(p, ".xml")}.xls` : path.basename(p)
    fs.copyFileSync(path.join(corpusDir, p), path.join(root, "旧形式", name))
    files.push({ path: `旧形式/${name}`, kind: "office" })
  }

  // Probes of the first files of each kind, frequent words (thousands of hits), an ASCII pattern.
  const queries = [
    ...good.filter((_, i) => i % 50 === 0).map((f) => f.probe),
    "PROBE-0000",
    "見積",
    "営業部",
    "invoice",
    "A-1",
    "サンプル商事"
  ]
  return { root, files, queries }
}
