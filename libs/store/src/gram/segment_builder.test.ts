import { formatBodyTsv, parseBodyTsv } from "@sagasu/domain"
import { describe, expect, it } from "vitest"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { part, randomLine, randomParts, seeded } from "./_test_corpus.ts"
import { type DocInput, type PartInput, SegmentBuilder, type TsvInput } from "./segment_builder.ts"

const extensions = [".docs.json", ".dict", ".dix", ".post", ".text", ".offs"]

// The files of a segment written by `build`: a digest of each, by extension.
function segmentFiles(build: (b: SegmentBuilder) => void): Record<string, string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-builder-"))
  try {
    const b = new SegmentBuilder()
    build(b)
    b.write(dir, "s")
    const digest = (e: string) => createHash("sha256").update(fs.readFileSync(path.join(dir, "s" + e))).digest("hex")
    return Object.fromEntries(extensions.map((e) => [e, digest(e)]))
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

// The reference: each TSV parsed by the domain, added line by line.
const asParts = (tsvs: ReadonlyArray<TsvInput>): Array<PartInput> =>
  tsvs.map((t) => {
    const parsed = parseBodyTsv(t.text)
    return { file: t.file, locator: parsed.locator, state: parsed.state, lines: parsed.lines }
  })

interface Doc {
  readonly doc: DocInput
  readonly tsvs: ReadonlyArray<TsvInput>
}

function randomDocs(random: () => number, count: number): Array<Doc> {
  return Array.from({ length: count }, (_, i) => ({
    doc: { index: i % 2 === 0 ? "共有" : "個人", path: `d${i}.xlsx`, fingerprint: `1:${i}:x`, mtimeMs: 1000 + Math.floor(random() * 5) },
    tsvs: randomParts(random).map((p, n) => ({ file: `${n + 1}_${p.name}.tsv`, text: formatBodyTsv(p) }))
  }))
}

describe("SegmentBuilder.feedDoc() writes what the line-by-line path writes (issue 9)", () => {
  it.each([
    ["plain rows", "cell\ttext\nA1\t見積書\nA2\tＡＢＣ カタカナ ｶﾞｲﾄﾞ\n"],
    ["no final line feed", "cell\ttext\nA1\t見積\nA2\t請求"],
    ["empty rows and an empty text", "cell\ttext\n\nA1\t\n\nA2\tx\n\n"],
    ["escapes in text and location", "cell\ttext\nA\\t1\ta\\\\b\\nc\\td\nA2\tplain\n"],
    ["a carriage return", "cell\ttext\nA1\tx\ry\r\n"],
    ["a row without a tab, one with three fields", "paragraph\ttext\n1\n2\ta\tb\n3\tc\n"],
    ["header only", "slide\ttext\tstate=hidden"],
    ["empty file", ""],
    ["surrogates, a lone one, marks across rows", "cell\ttext\nA1\t😀𠮷\uD800\nA2\t\u3099か\u309B\nA3\tΣ\nA4\t゛\n"],
    ["a BOM row and an odd header", "\uFEFFrows\tnope\n\uFEFF\n1\tx\n"]
  ])("%s", (_, text) => {
    const doc = { index: "共有", path: "a.xlsx", fingerprint: "1:2:1_s.tsv", mtimeMs: 5 }
    const tsvs = [{ file: "1_s.tsv", text }, { file: "2_t.tsv", text: "cell\ttext\nB1\t後の部\n" }]
    expect(segmentFiles((b) => b.addDocTsvs(doc, tsvs))).toEqual(segmentFiles((b) => b.addDoc(doc, asParts(tsvs))))
  })

  it("on seeded random TSVs (escapes, tabs, marks, emoji), blocks of many rows, in any order of adding", () => {
    const random = seeded(9)
    for (let round = 0; round < 12; round++) {
      const docs = randomDocs(random, 1 + Math.floor(random() * 8))
      // A part of thousands of lines crosses several blocks.
      if (round % 4 === 0) {
        const lines = Array.from({ length: 6000 }, () => randomLine(random).replace(/[\\\t]/g, ""))
        docs.push({
          doc: { index: "共有", path: `big${round}.xlsx`, fingerprint: "9:9:1_big.tsv", mtimeMs: 1002 },
          tsvs: [{ file: "1_big.tsv", text: formatBodyTsv(part("big", "cell", lines)) }]
        })
      }
      const newestFirst = [...docs].sort((a, b) =>
        b.doc.mtimeMs - a.doc.mtimeMs || (a.doc.index < b.doc.index ? -1 : a.doc.index > b.doc.index ? 1 : a.doc.path < b.doc.path ? -1 : 1))
      const reference = segmentFiles((b) => newestFirst.forEach((d) => b.addDoc(d.doc, asParts(d.tsvs))))
      const shuffled = [...docs].sort(() => random() - 0.5)
      expect(segmentFiles((b) => shuffled.forEach((d) => b.addDocTsvs(d.doc, d.tsvs))), `round ${round}`).toEqual(reference)
    }
  }, 60_000)

  it("yields between blocks of rows and is complete only at the end", () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `行 ${i} の本文`)
    const tsv = { file: "1_s.tsv", text: formatBodyTsv(part("s", "cell", lines)) }
    const b = new SegmentBuilder()
    const steps = b.feedDoc({ index: "共有", path: "a.xlsx", fingerprint: "f", mtimeMs: 1 }, [tsv])
    let yields = 0
    while (steps.next().done !== true) {
      yields++
      expect(b.docCount).toBe(0)
    }
    expect(yields).toBeGreaterThan(2)
    expect(b.docCount).toBe(1)
    expect(b.lineCount).toBe(20_000)
  })
})
