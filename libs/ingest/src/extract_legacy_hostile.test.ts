/**
 * Hostile legacy workbooks (W3, issue 20): xls files cut short at many
 * points, sector chains that loop or leave the table, a 1 GiB sparse file, a
 * 1 GiB workbook stream that is mostly a hole, records whose lengths run
 * past their stream, seeded byte flips of real xls and xlsb files. Every one
 * ends as `done` or as an ExtractError with a specific reason (never a
 * defect, never a hang), and the whole set is read in a child process whose
 * peak resident memory stays under 300 MB.
 */
import { describe, expect, it } from "@effect/vitest"
import JSZip from "jszip"
import { seededRandom } from "@sagasu/domain"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { corpusFile, haveCorpus } from "./_test_corpus.ts"
import { biff8Workbook, label, xlsFile } from "./extract/_test_biff.ts"
import { cfbDirectoryEntry, cfbHeader } from "./extract/_test_containers.ts"

const here = path.dirname(fileURLToPath(import.meta.url))

/** The same variants on every run. */
const random = seededRandom

const sector = 512
const endOfChain = 0xfffffffe
const free = 0xffffffff

/**
 * A version 3 compound file of `streamSectors` sectors of Workbook stream
 * whose first bytes are `head` (the rest a hole), with as many FAT and DIFAT
 * sectors as that takes, written sparse: a 1 GiB stream costs its FAT (8 MB)
 * on disk.
 */
function writeBigCfb(file: string, head: Uint8Array, streamSectors: number): void {
  let fatSectors = 1
  let difatSectors = 0
  for (;;) {
    difatSectors = Math.max(0, Math.ceil((fatSectors - 109) / 127))
    const total = difatSectors + fatSectors + 1 + streamSectors
    if (fatSectors * 128 >= total) break
    fatSectors = Math.ceil(total / 128)
  }
  const firstFat = difatSectors
  const dirSector = firstFat + fatSectors
  const firstStream = dirSector + 1
  const header = cfbHeader({ fatSectors, firstFat, dirSector, difatSectors })
  const difat = Buffer.alloc(difatSectors * sector, 0xff)
  for (let d = 0; d < difatSectors; d++) {
    for (let i = 0; i < 127; i++) {
      const n = 109 + d * 127 + i
      difat.writeUInt32LE(n < fatSectors ? firstFat + n : free, d * sector + i * 4)
    }
    difat.writeUInt32LE(d + 1 < difatSectors ? d + 1 : endOfChain, d * sector + 127 * 4)
  }
  const fat = Buffer.alloc(fatSectors * sector, 0xff)
  for (let s = 0; s < difatSectors; s++) fat.writeUInt32LE(0xfffffffc, s * 4)
  for (let s = firstFat; s < dirSector; s++) fat.writeUInt32LE(0xfffffffd, s * 4)
  fat.writeUInt32LE(endOfChain, dirSector * 4)
  for (let s = 0; s < streamSectors; s++) fat.writeUInt32LE(s + 1 < streamSectors ? firstStream + s + 1 : endOfChain, (firstStream + s) * 4)
  const dir = Buffer.alloc(sector)
  cfbDirectoryEntry(dir, 0, { name: "Root Entry", type: 5, child: 1, right: free, start: endOfChain, size: 0 })
  cfbDirectoryEntry(dir, 1, { name: "Workbook", type: 2, child: free, right: free, start: firstStream, size: streamSectors * sector })
  const fd = fs.openSync(file, "w")
  try {
    fs.writeSync(fd, Buffer.concat([header, difat, fat, dir, Buffer.from(head)]))
    fs.ftruncateSync(fd, (firstStream + 1 + streamSectors) * sector)
  } finally {
    fs.closeSync(fd)
  }
}

/** Sets the FAT entry of sector `n` of a writeCfb file (its one FAT sector is sector 0). */
const setFat = (bytes: Uint8Array, n: number, value: number): Uint8Array => {
  const b = Buffer.from(bytes)
  b.writeUInt32LE(value >>> 0, sector + n * 4)
  return new Uint8Array(b)
}

interface Outcome {
  readonly file: string
  readonly outcome: string
  readonly detail: string
}

/** Extracts `files` in a child process (as a plain worker does): each outcome, and the child's peak RSS. */
function extractInChild(files: ReadonlyArray<string>): { outcomes: Map<string, Outcome>; maxRssBytes: number } {
  const out = execFileSync(process.execPath, ["--import", "tsx", path.join(here, "testdata", "extract_rss.ts"), ...files], { encoding: "utf8", maxBuffer: 64 << 20 })
  const lines = out.trim().split("\n").map((l) => JSON.parse(l) as Outcome & { maxRssBytes?: number })
  const last = lines.pop()
  return { outcomes: new Map(lines.map((l) => [path.basename(l.file), l])), maxRssBytes: last?.maxRssBytes ?? Infinity }
}

const specific = ["done", "needs-office", "corrupt", "encrypted", "empty-file", "not-office", "too-large"]
/** A needs-office that hides a bug: an exception of the reader's own code turned into damage. */
const hidesABug = (o: Outcome) => /TypeError|RangeError|ReferenceError|Cannot read|undefined/.test(o.detail)

describe.skipIf(!haveCorpus)("hostile legacy workbooks (W3): specific reasons, bounded memory, no hang", () => {
  it("each ends done or with a specific reason, and the child that reads them all stays under 300 MB", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-legacy-hostile-"))
    try {
      const put = (name: string, bytes: Uint8Array) => {
        fs.writeFileSync(path.join(dir, name), bytes)
        return name
      }
      const expected = new Map<string, ReadonlyArray<string>>()

      // A small workbook of one cell, as writeCfb lays it out: FAT sector 0, directory sector 1, Workbook from sector 2 (8 sectors).
      const small = xlsFile(biff8Workbook([{ name: "S", records: [label(0, 0, "小さな本")] }]))
      expected.set(put("loop_in_stream.xls", setFat(small, 5, 2)), ["corrupt"])
      expected.set(put("loop_in_directory.xls", setFat(small, 1, 1)), ["corrupt"])
      expected.set(put("link_past_fat.xls", setFat(small, 3, 100_000)), ["corrupt"])
      expected.set(put("link_to_free_sector.xls", setFat(small, 3, 20)), ["corrupt"])
      // Cut inside the stream: its sectors past the end; Office may still read the rest (R14).
      expected.set(put("cut_inside_stream.xls", small.subarray(0, 5 * sector)), ["needs-office"])
      const lying = Buffer.from(small)
      lying.writeUInt32LE(900 * 1024 ** 2, 2 * sector + 128 + 0x78)
      expected.set(put("stream_larger_than_file.xls", new Uint8Array(lying)), ["needs-office"])

      // A record that declares more bytes than the stream holds, in the middle of the globals.
      const stream = biff8Workbook([{ name: "S", records: [label(0, 0, "途中")] }])
      const overlong = Buffer.from(stream)
      overlong.writeUInt16LE(0xfff0, 20 + 2) // the record after the 20-byte BOF (CODEPAGE)
      expected.set(put("record_past_stream.xls", xlsFile(new Uint8Array(overlong))), ["needs-office"])

      // 1 GiB sparse: a small file padded with a hole; and a 1 GiB Workbook stream, a real workbook at its start, a hole after its EOFs.
      const sparse = path.join(dir, "sparse_1GiB.xls")
      fs.writeFileSync(sparse, small)
      fs.truncateSync(sparse, 1024 ** 3 - 1)
      expected.set("sparse_1GiB.xls", ["done"])
      const streamSectors = Math.floor((1024 ** 3 - 9 * 1024 ** 2) / sector)
      writeBigCfb(path.join(dir, "stream_1GiB.xls"), biff8Workbook([{ name: "大", records: [label(0, 0, "穴の前の本文")] }]), streamSectors)
      expected.set("stream_1GiB.xls", ["done"])
      // The same stream with only a BOF before the hole: zeros where records should be, found after 4 KiB, not 1 GiB.
      writeBigCfb(path.join(dir, "zeros_1GiB.xls"), stream.subarray(0, 24), streamSectors)
      expected.set("zeros_1GiB.xls", ["needs-office"])

      // A real workbook cut short at 40 points, and 150 seeded byte flips of it.
      const real = fs.readFileSync(corpusFile("poi/12561-1.xls"))
      const rand = random(20)
      for (let i = 1; i <= 40; i++) expected.set(put(`cut_${i}.xls`, real.subarray(0, Math.floor((real.length * i) / 41))), specific)
      for (let i = 0; i < 150; i++) {
        const b = Buffer.from(real)
        for (let k = 0; k < 1 + Math.floor(rand() * 8); k++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256)
        expected.set(put(`flip_${i}.xls`, new Uint8Array(b)), specific)
      }
      // 40 flips of an xlsb's sheet records (the zip rebuilt around them, or its CRC would catch them first).
      const xlsb = await JSZip.loadAsync(fs.readFileSync(corpusFile("poi/sample.xlsb")))
      const sheet = await xlsb.file("xl/worksheets/sheet2.bin")?.async("uint8array")
      if (sheet === undefined) throw new Error("sample.xlsb has no sheet2.bin")
      for (let i = 0; i < 40; i++) {
        const b = Buffer.from(sheet)
        for (let k = 0; k < 1 + Math.floor(rand() * 4); k++) b[Math.floor(rand() * b.length)] = Math.floor(rand() * 256)
        xlsb.file("xl/worksheets/sheet2.bin", b)
        expected.set(put(`flip_${i}.xlsb`, await xlsb.generateAsync({ type: "uint8array", compression: "DEFLATE" })), specific)
      }

      const { outcomes, maxRssBytes } = extractInChild([...expected.keys()].map((n) => path.join(dir, n)))
      const wrong: Array<string> = []
      for (const [name, allowed] of expected) {
        const o = outcomes.get(name)
        if (o === undefined || !allowed.includes(o.outcome) || hidesABug(o)) wrong.push(`${name}: ${o?.outcome ?? "no outcome"} (${o?.detail ?? ""})`)
      }
      expect(wrong).toEqual([])
      // The damage is named: the chain, the record, the zeros.
      expect(outcomes.get("loop_in_stream.xls")?.detail).toContain("loops")
      expect(outcomes.get("link_past_fat.xls")?.detail).toContain("past its table")
      expect(outcomes.get("record_past_stream.xls")?.detail).toMatch(/record 0x0042 at offset 20 declares 65520 bytes, past the end of the Workbook stream/)
      expect(outcomes.get("zeros_1GiB.xls")?.detail).toContain("zeros where records should be")
      expect(outcomes.get("stream_larger_than_file.xls")?.detail).toContain("more than the file holds")
      expect(outcomes.get("cut_inside_stream.xls")?.detail).toMatch(/stream workbook declares 4096 bytes, more than the file holds \(truncated\)/)
      const tally = new Map<string, number>()
      for (const o of outcomes.values()) tally.set(o.outcome, (tally.get(o.outcome) ?? 0) + 1)
      console.log(`hostile legacy workbooks: ${outcomes.size} files, ${[...tally].map(([k, n]) => `${k} ${n}`).join(", ")}; child peak RSS ${Math.round(maxRssBytes / 1024 ** 2)} MB`)
      expect(maxRssBytes).toBeLessThan(300 * 1024 ** 2)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }, 300_000)
})
