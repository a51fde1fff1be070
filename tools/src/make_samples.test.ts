import { mkdtemp, readFile, rm, stat } from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import ExcelJS from "exceljs"
import type { CellFormulaValue, Workbook } from "exceljs"
import JSZip from "jszip"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeSamples, parseLocation, SAMPLE_TIME } from "./make_samples.ts"
import type { SampleFile } from "./make_samples.ts"

const ESTIMATE = "見積/見積書_A-1234.xlsx"
const INVOICE = "経理/請求書_2024年3月.xlsx"
const MINUTES = "議事録/定例会議_議事録.docx"
const SLIDES = "営業/新製品説明会.pptx"
const LOCK = "見積/~$見積書_A-1234.xlsx"
const HIDDEN = ".hidden.xlsx"

let dirA = ""
let dirB = ""
let filesA: ReadonlyArray<SampleFile> = []
let filesB: ReadonlyArray<SampleFile> = []

const abs = (dir: string, rel: string): string => path.join(dir, ...rel.split("/"))
const read = (rel: string): Promise<Buffer> => readFile(abs(dirA, rel))
const sample = (rel: string): SampleFile => {
  const f = filesA.find((x) => x.path === rel)
  if (f === undefined) throw new Error(`not in the returned list: ${rel}`)
  return f
}
const unescapeXml = (s: string): string =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&amp;/g, "&")
/** Joined `<t>` texts of each paragraph element `tag` (`w:p` or `a:p`) in `xml`, in order. */
const paragraphs = (xml: string, prefix: "w" | "a"): Array<string> =>
  [...xml.matchAll(new RegExp(`<${prefix}:p(?:\\s[^>]*)?>([\\s\\S]*?)</${prefix}:p>`, "g"))].map((m) =>
    [...(m[1] ?? "").matchAll(new RegExp(`<${prefix}:t(?:\\s[^>]*)?>([^<]*)</${prefix}:t>`, "g"))]
      .map((t) => unescapeXml(t[1] ?? ""))
      .join("")
  )
const loadZip = async (rel: string): Promise<JSZip> => JSZip.loadAsync(await read(rel))
const zipText = async (zip: JSZip, name: string): Promise<string> => {
  const f = zip.file(name)
  if (f === null) throw new Error(`missing part ${name}`)
  return f.async("string")
}
const loadWorkbook = async (rel: string): Promise<Workbook> => {
  const wb = new ExcelJS.Workbook()
  const bytes = await read(rel)
  // exceljs types `load` with an ArrayBuffer-like "Buffer"; hand it a plain ArrayBuffer.
  await wb.xlsx.load(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)
  return wb
}

/**
 * Light OPC consistency check: every relationship target exists, every
 * `Override` names an existing part, and every non-`.rels` part has an Override.
 */
const checkPackage = async (zip: JSZip): Promise<void> => {
  const names = Object.values(zip.files).filter((f) => !f.dir).map((f) => f.name)
  expect(names[0]).toBe("[Content_Types].xml")
  const ct = await zipText(zip, "[Content_Types].xml")
  const overrides = [...ct.matchAll(/PartName="\/([^"]+)"/g)].map((m) => m[1])
  for (const o of overrides) expect(names).toContain(o)
  for (const n of names) {
    if (n === "[Content_Types].xml" || n.endsWith(".rels")) continue
    expect(overrides).toContain(n)
  }
  for (const relsName of names.filter((n) => n.endsWith(".rels"))) {
    // "a/_rels/b.xml.rels" describes "a/b.xml"; targets are relative to "a/".
    const base = path.posix.dirname(path.posix.dirname(relsName))
    const rels = await zipText(zip, relsName)
    for (const m of rels.matchAll(/Target="([^"]+)"/g)) {
      const target = path.posix.normalize(path.posix.join(base === "." ? "" : base, m[1] ?? ""))
      expect(names, `${relsName} -> ${m[1]}`).toContain(target)
    }
  }
}

beforeAll(async () => {
  dirA = await mkdtemp(path.join(os.tmpdir(), "sagasu-samples-a-"))
  dirB = await mkdtemp(path.join(os.tmpdir(), "sagasu-samples-b-"))
  filesA = await makeSamples(dirA)
  // Let the wall clock move past a 2 s DOS-time tick so that a clock-dependent zip date would show.
  await new Promise((resolve) => setTimeout(resolve, 2100))
  filesB = await makeSamples(dirB)
}, 30_000)

afterAll(async () => {
  for (const d of [dirA, dirB]) if (d !== "") await rm(d, { recursive: true, force: true })
})

describe("makeSamples", () => {
  it("returns the fixed list of files, skip ones with no expectations", () => {
    expect(filesA.map((f) => f.path)).toEqual([ESTIMATE, INVOICE, MINUTES, SLIDES, LOCK, HIDDEN])
    for (const f of filesA) {
      if (f.skip === true) expect(f.expected).toEqual([])
      else expect(f.expected.length).toBeGreaterThan(0)
    }
    expect(sample(LOCK).skip).toBe(true)
    expect(sample(HIDDEN).skip).toBe(true)
    expect(sample(ESTIMATE).hiddenParts).toEqual(["メモ"])
    expect(filesB).toEqual(filesA)
  })

  it("writes every file with the fixed mtime, sub-folders too", async () => {
    for (const f of filesA) {
      const s = await stat(abs(dirA, f.path))
      expect(s.isFile()).toBe(true)
      expect(s.size).toBeGreaterThan(0)
      expect(s.mtimeMs).toBe(SAMPLE_TIME.getTime())
    }
    for (const d of ["見積", "経理", "議事録", "営業"]) {
      expect((await stat(abs(dirA, d))).mtimeMs).toBe(SAMPLE_TIME.getTime())
    }
  })

  it("produces identical bytes on two runs", async () => {
    for (const f of filesA) {
      const a = await readFile(abs(dirA, f.path))
      const b = await readFile(abs(dirB, f.path))
      expect(a.equals(b), f.path).toBe(true)
    }
  })

  it("writes a lock file that is not a zip and a hidden copy of the invoice", async () => {
    const lock = await read(LOCK)
    expect(lock.length).toBeLessThan(200)
    expect(lock.subarray(0, 2).toString("latin1")).not.toBe("PK")
    expect((await read(HIDDEN)).equals(await read(INVOICE))).toBe(true)
  })

  it("uses well-formed locations", () => {
    for (const f of filesA) {
      for (const e of f.expected) {
        const { part, loc } = parseLocation(e.location)
        if (f.path.endsWith(".xlsx")) expect(loc).toMatch(/^[A-Z]+[1-9][0-9]*$/)
        else if (f.path.endsWith(".docx")) expect([part, /^[1-9][0-9]*$/.test(loc)]).toEqual(["document", true])
        else expect([part, /^[1-9][0-9]*$/.test(loc)]).toEqual(["slides", true])
      }
    }
  })
})

describe("docx", () => {
  it("contains the minimal parts and consistent relationships", async () => {
    const zip = await loadZip(MINUTES)
    expect(Object.keys(zip.files)).toEqual(["[Content_Types].xml", "_rels/.rels", "word/document.xml"])
    await checkPackage(zip)
  })

  it("holds each expected paragraph at its number", async () => {
    const paras = paragraphs(await zipText(await loadZip(MINUTES), "word/document.xml"), "w")
    const expected = sample(MINUTES).expected
    expect(expected.map((e) => e.location)).toEqual(paras.map((_, i) => `document!${i + 1}`))
    expect(expected.map((e) => e.text)).toEqual(paras)
    expect(paras).toContain("第12回 定例会議 議事録")
    expect(paras[3]).toBe("出席者：山田、佐藤")
    expect(paras.slice(5, 7)).toEqual(["決定事項", "担当"])
    expect(paras[11]).toBe("Next meeting: 2024-04-15")
  })
})

describe("pptx", () => {
  it("contains presentation, 3 slides, master, layout and theme", async () => {
    const zip = await loadZip(SLIDES)
    const names = Object.keys(zip.files)
    for (const part of [
      "[Content_Types].xml",
      "_rels/.rels",
      "ppt/presentation.xml",
      "ppt/_rels/presentation.xml.rels",
      "ppt/slides/slide1.xml",
      "ppt/slides/slide2.xml",
      "ppt/slides/slide3.xml",
      "ppt/slides/_rels/slide1.xml.rels",
      "ppt/slideMasters/slideMaster1.xml",
      "ppt/slideLayouts/slideLayout1.xml",
      "ppt/theme/theme1.xml"
    ]) {
      expect(names).toContain(part)
    }
    expect(names.some((n) => n.endsWith("/"))).toBe(false)
    await checkPackage(zip)
    const pres = await zipText(zip, "ppt/presentation.xml")
    expect([...pres.matchAll(/<p:sldId /g)]).toHaveLength(3)
  })

  it("holds each expected paragraph on its slide, in order", async () => {
    const zip = await loadZip(SLIDES)
    const expected = sample(SLIDES).expected
    for (const n of [1, 2, 3]) {
      const paras = paragraphs(await zipText(zip, `ppt/slides/slide${n}.xml`), "a")
      expect(paras).toEqual(expected.filter((e) => e.location === `slides!${n}`).map((e) => e.text))
    }
    expect(expected[0]).toEqual({ text: "新製品「サガス」のご紹介", location: "slides!1", kind: "text" })
    expect(expected.map((e) => e.text)).toContain("Search by keyword: A-1234")
  })
})

describe("xlsx", () => {
  for (const rel of [ESTIMATE, INVOICE]) {
    it(`${rel}: every expected value is in its cell, and every cell is expected`, async () => {
      const wb = await loadWorkbook(rel)
      const expected = sample(rel).expected
      for (const e of expected) {
        const { part, loc } = parseLocation(e.location)
        const ws = wb.getWorksheet(part)
        expect(ws, e.location).toBeDefined()
        const cell = ws!.getCell(loc)
        const v = cell.value
        switch (e.kind) {
          case "text":
            expect(v, e.location).toBe(e.text)
            break
          case "number":
            expect(v, e.location).toBe(Number(e.text))
            break
          case "formula":
            expect((v as CellFormulaValue).formula, e.location).toMatch(/\S/)
            expect((v as CellFormulaValue).result, e.location).toBe(Number(e.text))
            break
          case "date":
            expect(v, e.location).toBeInstanceOf(Date)
            expect((v as Date).toISOString().slice(0, 10), e.location).toBe(e.text)
            expect(cell.numFmt, e.location).toBe("yyyy-mm-dd")
            break
        }
      }
      const written: Array<string> = []
      wb.eachSheet((ws) =>
        ws.eachRow((row) => row.eachCell((cell) => void written.push(`${ws.name}!${cell.address}`)))
      )
      expect(written.sort()).toEqual(expected.map((e) => e.location).sort())
      // Zip entries carry the fixed date (DOS time, 2 s resolution).
      const zip = await JSZip.loadAsync(await read(rel))
      for (const f of Object.values(zip.files)) expect(f.date.getTime(), f.name).toBe(SAMPLE_TIME.getTime())
    })
  }

  it("見積書: header cells, customer, line items, total and hidden memo", async () => {
    const wb = await loadWorkbook(ESTIMATE)
    expect(wb.worksheets.map((w) => [w.name, w.state])).toEqual([
      ["見積書", "visible"],
      ["明細", "visible"],
      ["メモ", "hidden"]
    ])
    expect(wb.created.getTime()).toBe(SAMPLE_TIME.getTime())
    expect(wb.modified.getTime()).toBe(SAMPLE_TIME.getTime())
    const ws = wb.getWorksheet("見積書")!
    expect(ws.getCell("A1").value).toBe("御見積書")
    expect(ws.getCell("B3").value).toBe("見積番号 A-1234")
    expect(ws.getCell("B5").value).toBe("株式会社サンプル商事 御中")
    expect(ws.getCell("B8").value).toBe("ノートパソコン 14型")
    expect(ws.getCell("C8").value).toBe("NB-2024X")
    expect(ws.getCell("F13").value).toEqual({ formula: "SUM(F8:F11)", result: 1554000 })
    const detail = wb.getWorksheet("明細")!
    expect(detail.getCell("B2").value).toBe("P-0001")
    expect(detail.getCell("B21").value).toBe("P-0020")
    expect(detail.actualRowCount).toBe(21)
    expect(wb.getWorksheet("メモ")!.getCell("A1").value).toBe("社内メモ：値引き上限は10%")
  })

  it("請求書: number, date and amounts", async () => {
    const wb = await loadWorkbook(INVOICE)
    expect(wb.worksheets.map((w) => w.name)).toEqual(["請求書", "入金予定"])
    const ws = wb.getWorksheet("請求書")!
    expect(ws.getCell("B3").value).toBe("INV-2024-003")
    expect((ws.getCell("B4").value as Date).toISOString()).toBe("2024-03-31T00:00:00.000Z")
    expect(ws.getCell("B8").value).toBe(150000)
    expect(ws.getCell("B12").value).toEqual({ formula: "B10+B11", result: 217800 })
    expect(sample(INVOICE).expected).toContainEqual({ text: "2024-03-31", location: "請求書!B4", kind: "date" })
  })
})
