/**
 * Extraction into a sink while reading (W1, issue 9): a sheet that streams
 * gives exactly the lines it gives when held whole (merged areas, hyperlinks
 * and cells out of order included), `maxLines` counts per part, and what a
 * streaming sheet holds stays bounded.
 */
import { describe, expect, it } from "@effect/vitest"
import type { BodyLine, Extraction } from "@sagasu/domain"
import { Effect, Either } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { collectingSink, type ExtractError, extractBuffer, extractFileTo, type ExtractFileOptions, type ExtractionSink } from "./extract.ts"
import { writeZip } from "./extract/_test_containers.ts"
import { relationships, sharedStrings, workbookFiles, worksheet, zipOf } from "./extract/_test_packages.ts"

/** Row `r` of `cols` inline-string cells `<sheet>-<col><r>`. */
const row = (sheet: string, r: number, cols = 3) =>
  `<row r="${r}">${Array.from({ length: cols }, (_, c) => `<c r="${String.fromCharCode(65 + c)}${r}" t="inlineStr"><is><t>${sheet}-${String.fromCharCode(65 + c)}${r}</t></is></c>`).join("")}</row>`
const rows = (sheet: string, from: number, to: number, cols = 3) => Array.from({ length: to - from + 1 }, (_, i) => row(sheet, from + i, cols)).join("")

/** Writes `files` as a workbook in a fresh folder and returns its path. */
const workbookFile = (files: Record<string, string>) =>
  Effect.gen(function* () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-stream-"))
    yield* Effect.addFinalizer(() => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true })))
    const file = path.join(dir, "台帳.xlsx")
    fs.writeFileSync(file, yield* Effect.promise(() => zipOf(files)))
    return file
  })

/** Extracts through a sink that lets sheets stream, recording what it is handed. */
const streamed = (file: string, options?: ExtractFileOptions) =>
  Effect.gen(function* () {
    const sink = collectingSink({ keepsLines: false })
    const batches: Array<number> = []
    let restarts = 0
    const recording: ExtractionSink<never> = {
      ...sink,
      appendLines: (lines) => Effect.zipRight(Effect.sync(() => batches.push(lines.length)), sink.appendLines(lines)),
      restartPart: Effect.zipRight(Effect.sync(() => restarts++), sink.restartPart)
    }
    const result = yield* Effect.either(extractFileTo(file, recording, options))
    return { result, extraction: sink.extraction(), batches, restarts }
  })

const whole = (file: string, options?: ExtractFileOptions): Effect.Effect<Either.Either<Extraction, ExtractError>> =>
  Effect.either(extractBuffer(fs.readFileSync(file), path.basename(file), options))

const texts = (lines: ReadonlyArray<BodyLine> | undefined) => (lines ?? []).map((l) => `${l.loc}=${l.text}`)

describe("extractFileTo(): sheets stream and give what they give held whole (W1)", () => {
  it.scoped("a big sheet streams in batches; merged areas, hyperlinks and cells out of order make it read again, with the same lines", () =>
    Effect.gen(function* () {
      // Sheet 1 plain; sheet 2 with an area hiding B5:C6 and a link on A7; sheet 3 out of order after row 1,000
      // (its first 64 KiB have streamed by then); sheet 4 small, held whole. A sheet streams past 80 cells here.
      const merged = worksheet(rows("M", 1, 1500), `<mergeCells count="2"><mergeCell ref="A5:C6"/><mergeCell ref="D1:D1"/></mergeCells><hyperlinks><hyperlink ref="A7" display="M-A7" location="'S'!A1"/></hyperlinks>`)
      const disordered = worksheet(rows("D", 1, 1000) + row("D", 3) + rows("D", 1001, 1500))
      const file = yield* workbookFile(workbookFiles({
        sheets: [
          { name: "一覧", xml: worksheet(rows("P", 1, 1500)) },
          { name: "結合", xml: merged },
          { name: "順不同", xml: disordered },
          { name: "小", xml: worksheet(rows("S", 1, 2)) }
        ]
      }))
      const options: ExtractFileOptions = { sheetBatchLines: 10 }
      const held = yield* whole(file)
      const r = yield* streamed(file, options)
      expect(Either.isRight(r.result)).toBe(true)
      expect(Either.isRight(held)).toBe(true)
      if (Either.isLeft(held)) return
      expect(r.extraction).toEqual(held.right)
      // The merge hides B5, C5, A6, B6, C6; the link's display text is what its cell shows (known only from the cells), its target is a line.
      const sheet2 = texts(r.extraction.parts[1]?.lines)
      expect(sheet2).toContain("A5=M-A5")
      expect(sheet2).not.toContain("B5=M-B5")
      expect(sheet2).not.toContain("A6=M-A6")
      expect(sheet2.at(-1)).toBe("A7 link='S'!A1")
      expect(sheet2).not.toContain("A7 link=M-A7")
      // Cells out of order come sorted, the repeated D3 right after the first (as held whole).
      expect(texts(r.extraction.parts[2]?.lines).slice(6, 12)).toEqual(["A3=D-A3", "A3=D-A3", "B3=D-B3", "B3=D-B3", "C3=D-C3", "C3=D-C3"])
      // Sheets 2 and 3 streamed and were read again; a batch is at most what a sheet holds before it streams plus one
      // piece (64 KiB) of its XML, except the sheet out of order: the second time it is held whole to be sorted.
      expect(r.restarts).toBe(2)
      expect(r.batches.filter((n) => n >= 80 + 1_300)).toEqual([4_503])
      expect(r.batches.length).toBeGreaterThan(3 * 3)
    }))

  it.scoped("a sheet of 200,000 cells is handed on in batches of about 1,024, never held whole", () =>
    Effect.gen(function* () {
      const file = yield* workbookFile(workbookFiles({ sheets: [{ name: "大", xml: worksheet(rows("B", 1, 40_000, 5)) }] }))
      const r = yield* streamed(file)
      expect(Either.isRight(r.result)).toBe(true)
      expect(r.extraction.parts[0]?.lines).toHaveLength(200_000)
      expect(r.extraction.parts[0]?.lines.at(-1)).toEqual({ loc: "E40000", text: "B-E40000" })
      // The first batch is what the sheet held before it streamed (8,192 cells and what the last piece added); the rest are small.
      expect(r.batches[0]).toBeGreaterThan(8_192)
      expect(r.batches[0]).toBeLessThan(8_192 + 2_000)
      expect(Math.max(...r.batches.slice(1))).toBeLessThan(2_000)
    }))
})

describe("limits when parts stream (BUG-10, issue 9)", () => {
  const fourSheets = (linesPerSheet: number) =>
    workbookFiles({ sheets: ["一", "二", "三", "四"].map((name, i) => ({ name, xml: worksheet(rows(name, 1, linesPerSheet / 3)) })) })

  it.scoped("maxLines counts per sheet: four sheets of 90 lines pass a limit of 100 and all are staged; held whole they fail over the file", () =>
    Effect.gen(function* () {
      const file = yield* workbookFile(fourSheets(90))
      const r = yield* streamed(file, { maxLines: 100 })
      expect(Either.isRight(r.result)).toBe(true)
      expect(r.extraction.parts.map((p) => [p.name, p.lines.length])).toEqual([["一", 90], ["二", 90], ["三", 90], ["四", 90]])
      const held = yield* whole(file, { maxLines: 100 })
      expect(Either.isLeft(held) && held.left.reason).toBe("too-large")
      expect(Either.isLeft(held) && held.left.detail).toBe("xl/worksheets/sheet2.xml: more than 100 lines of text")
    }))

  it.scoped("a sheet over maxLines still fails too-large, naming its part", () =>
    Effect.gen(function* () {
      const files = fourSheets(90)
      files["xl/worksheets/sheet3.xml"] = worksheet(rows("三", 1, 40))
      const file = yield* workbookFile(files)
      const r = yield* streamed(file, { maxLines: 100, sheetBatchLines: 4 })
      expect(Either.isLeft(r.result) && r.result.left).toMatchObject({ reason: "too-large", detail: "xl/worksheets/sheet3.xml: more than 100 lines of text" })
    }))

  it.scoped("lines handed on are no longer held: a sheet of 600,000 characters passes maxTextChars 100,000 when it streams, not held whole", () =>
    Effect.gen(function* () {
      const file = yield* workbookFile(workbookFiles({ sheets: [{ name: "S", xml: worksheet(rows("文字数の多いセル", 1, 5_000, 5)) }] }))
      const r = yield* streamed(file, { maxTextChars: 100_000, sheetBatchLines: 100 })
      expect(Either.isRight(r.result)).toBe(true)
      expect(r.extraction.parts[0]?.lines).toHaveLength(25_000)
      const held = yield* whole(file, { maxTextChars: 100_000 })
      expect(Either.isLeft(held) && held.left.detail).toBe("xl/worksheets/sheet1.xml: more than 100000 characters of text")
    }))

  it.scoped("BUG-10 a sheet formatted over its whole range stays cheap when it streams: ten texts, one part", () =>
    Effect.gen(function* () {
      const styled = Array.from({ length: 5_000 }, (_, r) => `<row r="${r + 11}">${Array.from({ length: 16 }, (_, c) => `<c r="${String.fromCharCode(65 + c)}${r + 11}" s="1"/>`).join("")}</row>`).join("")
      const xml = worksheet(rows("項目", 1, 10, 1) + styled, `<mergeCells count="1"><mergeCell ref="A20:XFD1048576"/></mergeCells>`)
      const files = workbookFiles({ sheets: [{ name: "全体", xml }], sharedStrings: sharedStrings([]) })
      files["xl/_rels/workbook.xml.rels"] = relationships([["rId1", "worksheet", "worksheets/sheet1.xml"], ["rIdS", "sharedStrings", "sharedStrings.xml"]])
      const file = yield* workbookFile(files)
      const r = yield* streamed(file, { maxLines: 100, sheetBatchLines: 1 })
      expect(Either.isRight(r.result)).toBe(true)
      expect(texts(r.extraction.parts[0]?.lines)).toEqual(Array.from({ length: 10 }, (_, i) => `A${i + 1}=項目-A${i + 1}`))
    }))
})

describe("extractFileTo() reads the zip from disk as it goes (issue 9: the file is never held whole)", () => {
  it.scoped("a zip cut anywhere, or with zip64 records and data descriptors, reads from disk as it does from memory", () =>
    Effect.gen(function* () {
      const files = Object.entries(workbookFiles({ sheets: [{ name: "S", xml: worksheet(rows("切", 1, 400)) }] }))
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-stream-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true })))
      const variants = [writeZip(files.map(([name, data]) => ({ name, data, dataDescriptor: true })), { zip64: true }), yield* Effect.promise(() => zipOf(Object.fromEntries(files)))]
      for (const [v, bytes] of variants.entries()) {
        for (let cut = 1; cut <= bytes.length; cut += Math.ceil(bytes.length / 60)) {
          const file = path.join(dir, `${v}-${cut}.xlsx`)
          fs.writeFileSync(file, bytes.subarray(0, cut))
          const fromDisk = yield* streamed(file)
          const fromMemory = yield* whole(file)
          if (Either.isRight(fromMemory)) {
            expect(Either.isRight(fromDisk.result), `${v} cut at ${cut}`).toBe(true)
            expect(fromDisk.extraction).toEqual(fromMemory.right)
          } else {
            expect(Either.isLeft(fromDisk.result) && fromDisk.result.left, `${v} cut at ${cut}`).toEqual(fromMemory.left)
          }
        }
        const file = path.join(dir, `${v}-whole.xlsx`)
        fs.writeFileSync(file, bytes)
        expect((yield* streamed(file)).extraction.parts[0]?.lines).toHaveLength(1200)
      }
    }))

  it.scoped("a file saved again while it is being read fails unreadable (retried on the next run), not with what was read", () =>
    Effect.gen(function* () {
      const file = yield* workbookFile(workbookFiles({ sheets: [{ name: "一", xml: worksheet(rows("一", 1, 100)) }, { name: "二", xml: worksheet(rows("二", 1, 100)) }] }))
      const sink = collectingSink({ keepsLines: false })
      const saving: ExtractionSink<never> = {
        ...sink,
        beginPart: (head) => Effect.zipRight(Effect.sync(() => head.name === "二" && fs.appendFileSync(file, "PK\x03\x04 more")), sink.beginPart(head))
      }
      const error = yield* Effect.flip(extractFileTo(file, saving))
      expect(error.reason).toBe("unreadable")
      expect(error.detail).toMatch(/^the file changed while it was being read \(\d+ → \d+ bytes\); it is retried on the next run$/)
    }))
})
