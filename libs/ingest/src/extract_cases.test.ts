/**
 * One test per case of ../shared/cases/cases.md of the kinds XL, ZIP and DOC,
 * named after its id; the inputs are built in memory after each recipe by
 * extract/_cases.ts (tools/src/make_cases.ts writes the same files to disk).
 */
import { describe, expect, it } from "@effect/vitest"
import { type Extraction, propertiesPartName } from "@sagasu/domain"
import { Effect, Either } from "effect"
import { type ExtractError, extractBuffer } from "./extract.ts"
import * as cases from "./extract/_cases.ts"
import { ZipArchive } from "./extract/_zip.ts"

const extract = (bytes: Uint8Array | Promise<Uint8Array>, name: string) =>
  Effect.flatMap(
    Effect.promise(async () => bytes),
    (b) => extractBuffer(b, name)
  )

const failureOf = (effect: Effect.Effect<Extraction, ExtractError>) =>
  Effect.map(Effect.either(effect), (e) => (Either.isLeft(e) ? e.left : undefined))

const linesOf = (x: Pick<Extraction, "parts">) => x.parts.flatMap((p) => p.lines.map((l) => `${l.loc}=${l.text}`))

describe("cases.md, kind XL", () => {
  it.effect("BUG-01 shared strings stored after the worksheet read like the usual order", () =>
    Effect.gen(function* () {
      for (const last of [true, false]) {
        const { parts } = yield* extract(cases.bug01(last), "請求.xlsx")
        expect(parts[0]?.lines, `sharedStrings last: ${last}`).toEqual([{ loc: "A1", text: "請求書" }])
      }
    }))

  it.effect("BUG-02 inline strings and inline rich text, without a sharedStrings part", () =>
    Effect.gen(function* () {
      const { parts } = yield* extract(cases.bug02(), "見積.xlsx")
      expect(parts[0]?.lines).toEqual([
        { loc: "A1", text: "見積書" },
        { loc: "B1", text: "会議資料" }
      ])
    }))

  it.effect("BUG-03 x:-prefixed SpreadsheetML reads the same as the default namespace", () =>
    Effect.gen(function* () {
      const prefixed = yield* extract(cases.bug03(true), "発注.xlsx")
      const plain = yield* extract(cases.bug03(false), "発注.xlsx")
      expect(prefixed).toEqual(plain)
      expect(prefixed.parts).toEqual([
        { name: "発注", locator: "cell", state: "visible", lines: [{ loc: "A1", text: "発注書" }, { loc: "B1", text: "納品書" }] }
      ])
    }))

  it.effect("BUG-04 absolute relationship targets, and a worksheet not named sheetN.xml", () =>
    Effect.gen(function* () {
      for (const numbered of [true, false]) {
        const { parts } = yield* extract(cases.bug04(numbered), "稟議.xlsx")
        expect(parts, `numbered: ${numbered}`).toEqual([
          { name: "稟議", locator: "cell", state: "visible", lines: [{ loc: "A1", text: "稟議書" }] }
        ])
      }
    }))

  it.effect("BUG-07 built-in Japanese date formats show the display form; the ISO date is a search-only form", () =>
    Effect.gen(function* () {
      const { parts } = yield* extract(cases.bug07(), "日付.xlsx")
      // ids 31, 55, 57, 58, 14, 27, 28, 30 — none defined in styles.xml.
      expect(parts[0]?.lines.map((l) => l.text)).toEqual([
        "2023年3月15日",
        "2023年3月",
        "R5.3.15",
        "令和5年3月15日",
        "2023/3/15",
        "R5.3.15",
        "令和5年3月15日",
        "3/15/23"
      ])
      // Either query finds it (BUG-07's expected): the ISO date is among each cell's search-only forms (S4).
      expect(parts[0]?.lines.map((l) => (l.forms ?? "").split(" ").includes("2023-03-15"))).toEqual(Array(8).fill(true))
      const in1904 = yield* extract(cases.bug07(`date1904="1"`), "日付.xlsx")
      expect(in1904.parts[0]?.lines[0]?.text).toBe("2027年3月16日")
    }))

  it.effect("BUG-09 phonetic runs (rPh) never reach the cell text; ruby readings never reach the body", () =>
    Effect.gen(function* () {
      const book = yield* extract(cases.bug09Workbook(), "住所.xlsx")
      expect(book.parts[0]?.lines).toEqual([
        { loc: "A1", text: "東京" },
        { loc: "B1", text: "日本語" },
        { loc: "C1", text: "東京" }
      ])
      const doc = yield* extract(cases.bug09Document(), "住所.docx")
      expect(doc.parts[0]?.lines).toEqual([{ loc: "1", text: "東京" }])
    }))

  it.effect("BUG-10 a sheet formatted over 1,048,576 × 16,384 cells: styled empty cells are never materialised", () =>
    Effect.gen(function* () {
      const bytes = yield* Effect.promise(() => cases.bug10())
      const heapBefore = process.memoryUsage().heapUsed
      // This process's CPU time, not the wall clock: a busy machine stretches the one, not the other (issue 15).
      const cpuBefore = process.cpuUsage()
      // A line budget of 100 proves the ~80,000 styled empty cells cost nothing.
      const { parts } = yield* extractBuffer(bytes, "全体.xlsx", { maxLines: 100 })
      expect(parts[0]?.lines.map((l) => l.text)).toEqual(Array.from({ length: 10 }, (_, i) => `項目${i + 1}`))
      const cpu = process.cpuUsage(cpuBefore)
      expect((cpu.user + cpu.system) / 1000, "CPU ms").toBeLessThan(5_000)
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 ** 2)
    }))
})

describe("cases.md, kind ZIP", () => {
  it("BUG-13 CP932 entry names without the UTF-8 flag, 0x5C trail bytes included", () => {
    const zip = new ZipArchive(cases.bug13(), { maxInflatedBytes: 1 << 20, maxRatio: 1000 })
    expect(zip.entries.map((e) => e.name)).toEqual(["資料/見積書.docx", "表/ソフト一覧.xlsx", "資料/請求書.xlsx"])
    // The 0x5C inside 表 and ソ is part of the character: no false folder split.
    expect(zip.entries[1]?.name.split("/")).toEqual(["表", "ソフト一覧.xlsx"])
  })

  it.effect("BUG-13 a package whose parts sit under a CP932-named folder is read through its relationships", () =>
    Effect.gen(function* () {
      const { parts } = yield* extract(cases.bug13Package(), "一覧.xlsx")
      expect(parts[0]?.lines).toEqual([{ loc: "A1", text: "ソフト一覧" }])
    }))

  it.effect("BUG-14 the type comes from the content: encrypted OLE2, an xls renamed to xlsx, a zero-byte file", () =>
    Effect.gen(function* () {
      for (const name of ["保護.xlsx", "保護.docx"]) {
        const encrypted = yield* failureOf(extract(cases.bug14Encrypted(), name))
        expect(encrypted?.reason, name).toBe("encrypted")
        expect(encrypted?.detail).toContain("EncryptedPackage")
      }
      // Read as the legacy workbook it is, without Office (W3), whatever its name says.
      const renamed = yield* extract(cases.bug14LegacyWorkbook(), "古い.xlsx")
      expect(renamed.parts.map((p) => [p.name, p.lines])).toEqual([["旧形式", [{ loc: "A1", text: "古い形式の本文" }]]])
      const empty = yield* failureOf(extract(new Uint8Array(), "空.xlsx"))
      expect(empty?.reason).toBe("empty-file")
      expect(empty?.message).not.toMatch(/zip/i)
    }))
})

describe("cases.md, kind DOC", () => {
  it.effect("BUG-15 tracked changes: deletions out, insertions in, a moved text once at its moveTo position", () =>
    Effect.gen(function* () {
      const doc = yield* extract(cases.bug15(), "契約.docx")
      expect(linesOf(doc)).toEqual(["1=契約期間は2年とする", "2=詳細は", "3=添付の別紙参照"])
    }))

  it.effect("BUG-16 a text box once (Choice, not Fallback), in the body and in a table cell", () =>
    Effect.gen(function* () {
      const doc = yield* extract(cases.bug16(), "通知.docx")
      const texts = doc.parts[0]?.lines.map((l) => l.text) ?? []
      expect(texts).toEqual(["本文", "社外秘", "セル", "表内の箱"])
    }))

  it.effect("BUG-17 notes found through the slide's relationship, attributed to its slide; image and number placeholders skipped", () =>
    Effect.gen(function* () {
      const deck = yield* extract(cases.bug17(), "説明.pptx")
      expect(linesOf({ parts: deck.parts.slice(0, 1) })).toEqual(["1=表紙", "2=本題", "2 notes=補足説明"])
      // S4 (issue 14): the slides' titles are searched as the part `properties` too, last.
      expect(deck.parts.map((p) => p.name)).toEqual(["slides", propertiesPartName])
      expect(linesOf({ parts: deck.parts.slice(1) })).toEqual(["slide 1=表紙", "slide 2=本題"])
    }))

  it.effect("BUG-19 non-breaking and soft hyphens, symbols, tabs and breaks never glue or split words", () =>
    Effect.gen(function* () {
      const doc = yield* extract(cases.bug19(), "記号.docx")
      expect(doc.parts[0]?.lines.map((l) => l.text)).toEqual(["2-6", "ISO-9001", "情報システム", "確認 済み", "氏名 住所 電話"])
    }))
})
