import { formatBodyTsv, forEachGramOfLine, normalizeForSearch, parseBodyTsv } from "@sagasu/domain"
import { describe, expect, it } from "vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { randomLine, randomParts, seeded, tempFolder } from "./_test_corpus.ts"
import { bodyFolderAt, tsvSourcesOf } from "./body_walk.ts"
import { decodePostings, isPagedOffsets } from "./format.ts"
import { mergeSegments } from "./segment_merge.ts"
import { DocFeed, SegmentBuilder } from "./segment_builder.ts"
import { SegmentReader } from "./segment_reader.ts"

// A body index in a temp folder: index/共有/<name>/<tsv files>.
function bodyIndex(files: Record<string, ReadonlyArray<{ file: string; text: string }>>): { root: string; gram: string } {
  const base = tempFolder("sagasu-builder-")
  const root = path.join(base, "index")
  for (const [name, tsvs] of Object.entries(files)) {
    const dir = path.join(root, "共有", name)
    fs.mkdirSync(dir, { recursive: true })
    for (const t of tsvs) fs.writeFileSync(path.join(dir, t.file), t.text)
  }
  const gram = path.join(base, "gram")
  fs.mkdirSync(gram)
  return { root, gram }
}

const feedOf = (root: string, name: string) => {
  const folder = bodyFolderAt(root, "共有", name)
  if (folder === undefined) throw new Error(`no folder ${name}`)
  return new DocFeed({ index: "共有", path: name, fingerprint: folder.fingerprint, mtimeMs: folder.mtimeMs }, tsvSourcesOf(folder))
}

// Every line of every segment, read back from the body index, in order, with the grams the postings give it.
function readBack(gram: string, root: string, ids: ReadonlyArray<{ id: string; lines: number; docs: number }>) {
  const out: Array<{ file: string; n: number; loc: string; text: string; forms: string; grams: string }> = []
  for (const s of ids) {
    const r = SegmentReader.open(gram, { id: s.id, docs: s.docs, lines: s.lines, textBytes: 0, deleted: "", deletedDocs: 0, deletedLines: 0 }, root)
    try {
      const grams = new Map<number, Array<number>>()
      const all = r.readAllEntries()
      for (let i = 0; i < all.keys.length; i++) {
        const bytes = r.readPostings(all.offsets[i]!, all.offsets[i + 1]! - all.offsets[i]!)
        for (const id of decodePostings(bytes, all.dfs[i]!).ids) grams.set(id, [...(grams.get(id) ?? []), all.keys[i]!])
      }
      for (let d = 0; d < r.docs.length; d++) {
        for (const p of r.partsOf(d)) {
          for (let i = 0; i < p.count; i++) {
            const line = r.line(p.first + i)
            if (line === undefined) throw new Error("unreadable line")
            out.push({ file: p.file, n: p.lineBase + i, ...line, grams: (grams.get(p.first + i) ?? []).sort().join(",") })
          }
        }
      }
    } finally {
      r.close()
    }
  }
  return out
}

// What the domain says: each TSV's lines and the distinct grams of each line's normalised text and
// of its search-only forms (S4: the third field).
function expected(tsvs: ReadonlyArray<{ file: string; text: string }>) {
  return tsvs.flatMap((t) =>
    parseBodyTsv(t.text).lines.map((l, n) => {
      const keys = new Set<number>()
      forEachGramOfLine(normalizeForSearch(l.text), (k) => keys.add(k))
      forEachGramOfLine(normalizeForSearch(l.forms ?? ""), (k) => keys.add(k))
      return { file: t.file, n, loc: l.loc, text: l.text, forms: l.forms ?? "", grams: [...keys].sort().join(",") }
    })
  )
}

describe("DocFeed reads a body-index TSV as the domain parses it (format 2: rows read from the body index)", () => {
  it.each([
    ["plain rows", "cell\ttext\nA1\t見積書\nA2\tＡＢＣ カタカナ ｶﾞｲﾄﾞ\n"],
    ["no final line feed", "cell\ttext\nA1\t見積\nA2\t請求"],
    ["empty rows and an empty text", "cell\ttext\n\nA1\t\n\nA2\tx\n\n"],
    ["escapes in text and location", "cell\ttext\nA\\t1\ta\\\\b\\nc\\td\nA2\tplain\n"],
    ["a carriage return", "cell\ttext\nA1\tx\ry\r\n"],
    ["a row without a tab, one with three fields", "paragraph\ttext\n1\n2\ta\tb\n3\tc\n"],
    ["search-only forms (S4), escaped ones too, four fields", "cell\ttext\nA1\t¥123,350\t123350\nA2\t2009年9月4日\t2009/9/4 2009/09/04\nA3\tx\\ty\t1\\t2\nA4\ta\tb\tc\n"],
    ["header only", "slide\ttext\tstate=hidden"],
    ["empty file", ""],
    ["surrogates, marks across rows", "cell\ttext\nA1\t😀𠮷\nA2\t\u3099か\u309B\nA3\tΣ\nA4\t゛\n"],
    ["a BOM row and an odd header", "\uFEFFrows\tnope\n\uFEFF\n1\tx\n"]
  ])("%s", (_, text) => {
    const tsvs = [{ file: "1_s.tsv", text }, { file: "2_t.tsv", text: "cell\ttext\nB1\t後の部\n" }]
    const { root, gram } = bodyIndex({ "a.xlsx": tsvs })
    const b = new SegmentBuilder()
    b.addDoc(feedOf(root, "a.xlsx").doc, tsvSourcesOf(bodyFolderAt(root, "共有", "a.xlsx")!))
    const w = b.write(gram, "s")
    expect(readBack(gram, root, [w.segment])).toEqual(expected(tsvs))
  })

  it("on seeded random TSVs (escapes, tabs, marks, emoji), many files in one segment", () => {
    const random = seeded(9)
    const files: Record<string, Array<{ file: string; text: string }>> = {}
    for (let i = 0; i < 30; i++) files[`d${i}.xlsx`] = randomParts(random).map((p, n) => ({ file: `${n + 1}_${p.name}.tsv`, text: formatBodyTsv(p) }))
    const { root, gram } = bodyIndex(files)
    const b = new SegmentBuilder()
    for (const name of Object.keys(files)) b.addDoc(feedOf(root, name).doc, tsvSourcesOf(bodyFolderAt(root, "共有", name)!))
    const w = b.write(gram, "s")
    const got = readBack(gram, root, [w.segment])
    // Same mtime granularity may reorder files; compare as sets of lines per file.
    const want = Object.values(files).flatMap((t) => expected(t))
    const key = (l: { file: string; n: number; loc: string; text: string; grams: string }) => JSON.stringify(l)
    expect(got.map(key).sort()).toEqual(want.map(key).sort())
  })

  it("keeps narrow (both code points below 256) and wide grams apart, through the hash table's growth", () => {
    // 50,000 distinct wide grams (the table starts at 65,536 slots and grows at half full), each line
    // also holding narrow ones, a gram whose first code point is narrow and second wide, and END grams.
    const rows: Array<string> = []
    for (let i = 0; i < 5000; i++) {
      const cjk = Array.from({ length: 11 }, (_, k) => String.fromCodePoint(0x4e00 + ((i * 7919 + k * k * 104729) % 20000))).join("")
      rows.push(`A${i + 1}\t${cjk}${i % 97}ab\u00e9${String.fromCodePoint(0x20000 + (i % 300))}x見`)
    }
    const tsvs = [{ file: "1_s.tsv", text: `cell\ttext\n${rows.join("\n")}\n` }]
    const { root, gram } = bodyIndex({ "a.xlsx": tsvs })
    const b = new SegmentBuilder()
    b.addDoc(feedOf(root, "a.xlsx").doc, tsvSourcesOf(bodyFolderAt(root, "共有", "a.xlsx")!))
    const w = b.write(gram, "s")
    const want = expected(tsvs)
    expect(new Set(want.flatMap((l) => l.grams.split(","))).size).toBeGreaterThan(50_000)
    expect(readBack(gram, root, [w.segment])).toEqual(want)
  })

  it("reads and merges segments whose row offsets are a u32 a line (written before the paged .offs, issue 20)", () => {
    const random = seeded(11)
    const files: Record<string, Array<{ file: string; text: string }>> = {}
    for (let i = 0; i < 12; i++) files[`d${i}.xlsx`] = randomParts(random).map((p, n) => ({ file: `${n + 1}_${p.name}.tsv`, text: formatBodyTsv(p) }))
    // One file of 3,000 lines: its offsets span pages.
    const big = Array.from({ length: 3000 }, (_, i) => `A${i + 1}\t${randomLine(random)}`)
    files["big.xlsx"] = [{ file: "1_big.tsv", text: `cell\ttext\n${big.join("\n")}\n` }]
    const { root, gram } = bodyIndex(files)
    const names = Object.keys(files)
    const written = names.map((name, i) => {
      const b = new SegmentBuilder()
      b.addDoc(feedOf(root, name).doc, tsvSourcesOf(bodyFolderAt(root, "共有", name)!))
      return b.write(gram, `s${i}`).segment
    })
    const before = readBack(gram, root, written)
    const entry = (s: { id: string; docs: number; lines: number }) => ({ id: s.id, docs: s.docs, lines: s.lines, textBytes: 0, deleted: "", deletedDocs: 0, deletedLines: 0 })
    // Every other segment's .offs rewritten as the first layout had it, from the offsets the paged file gives.
    for (const s of written.filter((_, i) => i % 2 === 0)) {
      const r = SegmentReader.open(gram, entry(s), root)
      const offsets = r.rowOffsets(0, s.lines)
      r.close()
      expect(offsets.length).toBe(s.lines)
      const raw = Buffer.alloc(4 * s.lines)
      offsets.forEach((o, i) => raw.writeUInt32LE(o, 4 * i))
      fs.writeFileSync(path.join(gram, `${s.id}.offs`), raw)
    }
    expect(readBack(gram, root, written)).toEqual(before)
    // A merge reads both layouts and writes the paged one.
    const readers = written.map((s) => SegmentReader.open(gram, entry(s), root))
    const merged = mergeSegments(gram, "m", readers)
    for (const r of readers) r.close()
    expect(isPagedOffsets(fs.readFileSync(path.join(gram, "m.offs")).subarray(0, 8))).toBe(true)
    const key = (l: { file: string; n: number; loc: string; text: string; grams: string }) => JSON.stringify(l)
    expect(readBack(gram, root, [merged.segment]).map(key).sort()).toEqual(before.map(key).sort())
  })

  it("merges inputs with and without deleted source files: the live lines, renumbered, and the text they cover", () => {
    const random = seeded(21)
    const files: Record<string, Array<{ file: string; text: string }>> = {}
    for (let i = 0; i < 9; i++) files[`d${i}.xlsx`] = randomParts(random).map((p, n) => ({ file: `${n + 1}_${p.name}.tsv`, text: formatBodyTsv(p) }))
    const { root, gram } = bodyIndex(files)
    const names = Object.keys(files)
    // Three segments of three files; the middle one loses its first and last file.
    const written = [0, 1, 2].map((k) => {
      const b = new SegmentBuilder()
      for (const name of names.slice(3 * k, 3 * k + 3)) b.addDoc(feedOf(root, name).doc, tsvSourcesOf(bodyFolderAt(root, "共有", name)!))
      return b.write(gram, `s${k}`)
    })
    const middle = written[1]!
    fs.writeFileSync(path.join(gram, "s1.del-2.json"), JSON.stringify([0, 2]))
    const gone = new Set([middle.docs[0]!.path, middle.docs[2]!.path])
    const entries = written.map((w, k) => ({
      id: w.segment.id, docs: w.segment.docs, lines: w.segment.lines, textBytes: 0,
      deleted: k === 1 ? "s1.del-2.json" : "", deletedDocs: k === 1 ? 2 : 0,
      deletedLines: k === 1 ? middle.docs[0]!.count + middle.docs[2]!.count : 0
    }))
    const readers = entries.map((e) => SegmentReader.open(gram, e, root))
    const merged = mergeSegments(gram, "m", readers)
    for (const r of readers) r.close()
    const live = names.filter((n) => !gone.has(n))
    const key = (l: { file: string; n: number; loc: string; text: string; grams: string }) => JSON.stringify(l)
    const want = live.flatMap((n) => expected(files[n]!))
    expect(merged.segment.lines).toBe(want.length)
    expect(readBack(gram, root, [merged.segment]).map(key).sort()).toEqual(want.map(key).sort())
    // The rows' bytes: each TSV without its header line.
    const rowBytes = live.flatMap((n) => files[n]!).reduce((sum, t) => {
      const nl = t.text.indexOf("\n")
      return sum + (nl < 0 ? 0 : Buffer.byteLength(t.text) - Buffer.byteLength(t.text.slice(0, nl + 1)))
    }, 0)
    expect(merged.segment.textBytes).toBe(rowBytes)
  })

  it("a TSV larger than a read spans segments when cut: every line once, in order, with its place in the TSV", () => {
    const random = seeded(3)
    const lines = Array.from({ length: 20000 }, (_, i) => `A${i + 1}\t${randomLine(random)}`)
    const text = `cell\ttext\n${lines.join("\n")}\n`
    expect(Buffer.byteLength(text)).toBeGreaterThan(3 * (1 << 18))
    const tsvs = [{ file: "1_big.tsv", text }, { file: "2_small.tsv", text: "cell\ttext\nA1\t末尾\n" }]
    const { root, gram } = bodyIndex({ "big.xlsx": tsvs })
    const feed = feedOf(root, "big.xlsx")
    const written = []
    let builder = new SegmentBuilder()
    let n = 0
    while (feed.step(builder)) {
      feed.cut(builder)
      written.push(builder.write(gram, `s${n++}`).segment)
      builder = new SegmentBuilder()
    }
    written.push(builder.write(gram, `s${n++}`).segment)
    expect(written.filter((w) => w.lines > 0).length).toBeGreaterThanOrEqual(3)
    expect(readBack(gram, root, written)).toEqual(expected(tsvs))
  })

  it("abandon() takes a half-fed file back out of the builder", () => {
    const big = `cell\ttext\n${Array.from({ length: 30000 }, (_, i) => `A${i + 1}\t見積 ${i}`).join("\n")}\n`
    const { root, gram } = bodyIndex({ "a.xlsx": [{ file: "1_s.tsv", text: "cell\ttext\nA1\t前\n" }], "b.xlsx": [{ file: "1_s.tsv", text: big }] })
    const b = new SegmentBuilder()
    b.addDoc(feedOf(root, "a.xlsx").doc, tsvSourcesOf(bodyFolderAt(root, "共有", "a.xlsx")!))
    const feed = feedOf(root, "b.xlsx")
    expect(feed.step(b)).toBe(true)
    expect(b.lineCount).toBeGreaterThan(1)
    feed.abandon(b)
    expect(feed.step(b)).toBe(false)
    const w = b.write(gram, "s")
    expect(w.docs.map((d) => d.path)).toEqual(["a.xlsx"])
    expect(readBack(gram, root, [w.segment]).map((l) => l.text)).toEqual(["前"])
  })
})
