/**
 * Hostile input, each a test (issue 3): zip bombs, entity expansion and
 * external entities, deep nesting, a 200 MB sharedStrings part, truncated and
 * corrupt zips, a file that changes while it is read. Every one ends as an
 * ExtractError with a specific reason and detail, never a crash or a hang.
 * (The 1,048,576 × 16,384 range is BUG-10 in extract_cases.test.ts.)
 */
import { describe, expect, it } from "@effect/vitest"
import type { Extraction } from "@sagasu/domain"
import { Effect, Either, Exit } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { collectingSink, ExtractError, extractBuffer, extractFile, extractFileTo, type ExtractFileOptions } from "./extract.ts"
import { readSnapshot } from "./extract/_read_file.ts"
import { deflateRepeated, writeZip, type RawZipEntry } from "./extract/_test_containers.ts"
import { documentFiles, sharedStrings, workbookFiles, worksheet, xmlns, zipOf } from "./extract/_test_packages.ts"

const failureOf = (effect: Effect.Effect<Extraction, ExtractError>) =>
  Effect.map(Effect.either(effect), (e) => (Either.isLeft(e) ? e.left : undefined))

/** A workbook whose files are raw zip entries, so that any of them can be precompressed or lie. */
const rawWorkbook = (sheetXml: string | RawZipEntry["deflated"], extra: Record<string, string | RawZipEntry["deflated"]> = {}) => {
  const base = workbookFiles({ sheets: [{ name: "S", xml: "" }], ...("xl/sharedStrings.xml" in extra ? { sharedStrings: "" } : {}) })
  const files: Record<string, string | RawZipEntry["deflated"]> = { ...base, ...extra }
  files["xl/worksheets/sheet1.xml"] = sheetXml
  return writeZip(
    Object.entries(files).map(([name, content]) => (typeof content === "string" ? { name, data: content } : { name, ...(content ? { deflated: content } : {}) }))
  )
}

const cell = (text: string) => `<row r="1"><c r="A1" t="inlineStr"><is><t>${text}</t></is></c></row>`

describe("zip bombs", () => {
  it.effect("a part of 1 GiB of zeros is refused by its declared ratio before anything is inflated", () =>
    Effect.gen(function* () {
      const bomb = deflateRepeated(`<worksheet xmlns="${xmlns.sml}"><sheetData>`, "\0".repeat(1 << 20), 1024, "</sheetData></worksheet>")
      // This process's CPU time, not the wall clock: a busy machine stretches the one, not the other (issue 15).
      const cpuBefore = process.cpuUsage()
      const error = yield* failureOf(extractBuffer(rawWorkbook(bomb), "bomb.xlsx"))
      expect(error?.reason).toBe("too-large")
      expect(error?.detail).toMatch(/ratio of \d+:1; the limit is 1000:1/)
      const cpu = process.cpuUsage(cpuBefore)
      expect((cpu.user + cpu.system) / 1000, "CPU ms").toBeLessThan(1_000)
    }))

  it.effect("the total inflated per file is capped, and the cap is configurable", () =>
    Effect.gen(function* () {
      const rows = Array.from({ length: 2000 }, (_, i) => `<row r="${i + 1}"><c r="A${i + 1}"><v>${i}</v></c></row>`).join("")
      const bytes = yield* Effect.promise(() => zipOf(workbookFiles({ sheets: [{ name: "S", xml: worksheet(rows) }] })))
      const options: ExtractFileOptions = { maxInflatedBytes: 20_000 }
      const error = yield* failureOf(extractBuffer(bytes, "x.xlsx", options))
      expect(error?.reason).toBe("too-large")
      expect(error?.detail).toContain("the limit is 20000 bytes inflated per file")
      expect((yield* extractBuffer(bytes, "x.xlsx")).parts[0]?.lines).toHaveLength(2000)
    }))

  it.effect("an entry that lies about its size is stopped at the size it declared", () =>
    Effect.gen(function* () {
      const liar = deflateRepeated(`<worksheet xmlns="${xmlns.sml}"><sheetData>`, "<row/>".repeat(100_000), 200, "</sheetData></worksheet>")
      const error = yield* failureOf(extractBuffer(rawWorkbook({ ...liar, size: 1000 }), "liar.xlsx"))
      expect(error?.reason).toBe("corrupt")
      expect(error?.detail).toContain("inflates beyond its declared 1000 bytes")
    }))
})

describe("XML attacks", () => {
  it.effect("entity expansion (billion laughs) is refused, never expanded", () =>
    Effect.gen(function* () {
      const laughs =
        `<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY a "lollollollollol">` +
        Array.from({ length: 9 }, (_, i) => `<!ENTITY ${String.fromCharCode(98 + i)} "${`&${String.fromCharCode(97 + i)};`.repeat(10)}">`).join("") +
        `]><sst xmlns="${xmlns.sml}"><si><t>&j;</t></si></sst>`
      const files = workbookFiles({ sheets: [{ name: "S", xml: worksheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`) }], sharedStrings: laughs })
      const error = yield* failureOf(Effect.flatMap(Effect.promise(() => zipOf(files)), (b) => extractBuffer(b, "lol.xlsx")))
      expect(error?.reason).toBe("corrupt")
      expect(error?.detail).toContain("xl/sharedStrings.xml: declares a DTD")
    }))

  it.effect("an external entity is never resolved", () =>
    Effect.gen(function* () {
      const files = documentFiles("")
      files["word/document.xml"] =
        `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><w:document xmlns:w="${xmlns.w}"><w:body><w:p><w:r><w:t>&xxe;</w:t></w:r></w:p></w:body></w:document>`
      const exit = yield* Effect.exit(Effect.flatMap(Effect.promise(() => zipOf(files)), (b) => extractBuffer(b, "xxe.docx")))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(JSON.stringify(exit)).not.toContain("root:")
      const error = yield* failureOf(Effect.flatMap(Effect.promise(() => zipOf(files)), (b) => extractBuffer(b, "xxe.docx")))
      expect(error?.reason).toBe("corrupt")
      expect(error?.detail).toContain("entities are never expanded")
    }))

  it.effect("deeply nested XML stops at the depth limit instead of growing the parser's stack", () =>
    Effect.gen(function* () {
      const depth = 200_000
      const deep = deflateRepeated(`<worksheet xmlns="${xmlns.sml}"><sheetData>`, "<x>".repeat(1000), depth / 1000, "</sheetData></worksheet>")
      const error = yield* failureOf(extractBuffer(rawWorkbook(deep), "deep.xlsx"))
      expect(error?.reason).toBe("too-large")
      expect(error?.detail).toContain("nested deeper than 1000 levels")
      const shallow = yield* failureOf(extractBuffer(rawWorkbook(worksheet(`<x><x><x>${cell("ok")}</x></x></x>`)), "x.xlsx", { maxXmlDepth: 4 }))
      expect(shallow?.detail).toContain("nested deeper than 4 levels")
    }))
})

describe("a 200 MB sharedStrings part", () => {
  // Rich-text runs with font and phonetic properties: what bloated real tables are made of.
  const item = (i: number) =>
    `<si><r><rPr><b/><sz val="11"/><color theme="1"/><rFont val="ＭＳ Ｐゴシック"/><family val="3"/><charset val="128"/></rPr><t>項${i % 10}</t></r>` +
    `<r><rPr><sz val="11"/><rFont val="ＭＳ Ｐゴシック"/><family val="3"/><charset val="128"/></rPr><t>目</t></r><rPh sb="0" eb="1"><t>コウモク</t></rPh><phoneticPr fontId="1"/></si>`
  const body = Array.from({ length: 100 }, (_, i) => item(i)).join("")
  const repeat = Math.ceil((200 * 1024 ** 2) / Buffer.byteLength(body))
  const count = repeat * 100
  const sst = deflateRepeated(`<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${xmlns.sml}">`, body, repeat, `<si><t>最後の文字列</t></si></sst>`)
  const sheet = worksheet(`<row r="1"><c r="A1" t="s"><v>${count}</v></c><c r="B1" t="s"><v>7</v></c></row>`)
  const bytes = rawWorkbook(sheet, { "xl/sharedStrings.xml": sst })

  it.effect("streams: the part is never whole in memory, only its strings are kept", () =>
    Effect.gen(function* () {
      expect(sst.size).toBeGreaterThan(200 * 1024 ** 2)
      const rssBefore = process.memoryUsage().rss
      const { parts } = yield* extractBuffer(bytes, "big.xlsx")
      expect(parts[0]?.lines).toEqual([
        { loc: "A1", text: "最後の文字列" },
        { loc: "B1", text: "項7目" }
      ])
      // The inflated part alone is 200 MB: held whole, the resident set grows by at least its size (plus
      // the strings kept); streaming keeps the growth below it. The bound is the part's size, not a guess
      // of the collector's timing: with the reader unchanged, runs measured 55 MB alone, 87–99 MB in the
      // suite, and 161 and 194 MB on loaded machines (garbage not yet collected), past the 150 MB and
      // then 90% bounds this test had.
      const growth = process.memoryUsage().rss - rssBefore
      console.log(`200 MB sharedStrings: resident set grew ${(growth / 1024 ** 2).toFixed(0)} MB`)
      expect(growth).toBeLessThan(sst.size)
    }), 600_000) // a hang guard, not a speed limit: inflating 200 MB takes minutes on a loaded machine

  it.effect("a cap on the text kept refuses it with too-large, naming the shared strings", () =>
    Effect.gen(function* () {
      const error = yield* failureOf(extractBuffer(bytes, "big.xlsx", { maxTextChars: 100_000 }))
      expect(error?.reason).toBe("too-large")
      expect(error?.detail).toBe("shared strings: more than 100000 characters of text")
    }))
})

describe("damaged zips", () => {
  const good = () => zipOf(workbookFiles({ sheets: [{ name: "S", xml: worksheet(cell("正常")) }], sharedStrings: sharedStrings([]) }))

  it.effect("a zip truncated anywhere fails as corrupt, never crashes", () =>
    Effect.gen(function* () {
      const whole = yield* Effect.promise(good)
      for (let cut = 1; cut < whole.length; cut += Math.ceil(whole.length / 40)) {
        const exit = yield* Effect.exit(extractBuffer(whole.subarray(0, cut), "cut.xlsx"))
        if (Exit.isSuccess(exit)) continue
        const error = yield* failureOf(extractBuffer(whole.subarray(0, cut), "cut.xlsx"))
        expect(error, `cut at ${cut}`).toBeInstanceOf(ExtractError)
        expect(["corrupt", "not-office"], `cut at ${cut}: ${error?.detail}`).toContain(error?.reason)
      }
    }))

  it.effect("bad CRC, damaged deflate data and a directory pointing past the end are corrupt with a detail", () =>
    Effect.gen(function* () {
      const stored = writeZip(Object.entries(workbookFiles({ sheets: [{ name: "S", xml: worksheet(cell("CRC")) }] })).map(([name, data]) => ({ name, data, stored: true })))
      const badCrc = Buffer.from(stored)
      badCrc[badCrc.indexOf("CRC") + 1] = 0x58
      expect((yield* failureOf(extractBuffer(badCrc, "crc.xlsx")))?.detail).toContain("CRC mismatch")

      const deflated = Buffer.from(yield* Effect.promise(good))
      const sheetAt = deflated.indexOf("xl/worksheets/sheet1.xml") + "xl/worksheets/sheet1.xml".length
      for (let i = 0; i < 12; i++) deflated[sheetAt + 4 + i] = 0xff
      const garbage = yield* failureOf(extractBuffer(deflated, "garbage.xlsx"))
      expect(garbage?.reason).toBe("corrupt")
      expect(garbage?.detail).toContain("xl/worksheets/sheet1.xml")

      const past = Buffer.from(yield* Effect.promise(good))
      const eocd = past.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
      past.writeUInt32LE(past.length + 1000, eocd + 16)
      past.writeUInt32LE(past.length, eocd + 12)
      expect((yield* failureOf(extractBuffer(past, "past.xlsx")))?.reason).toBe("corrupt")
    }))

  it.effect("ZIP64 records and data descriptors are read", () =>
    Effect.gen(function* () {
      const files = Object.entries(workbookFiles({ sheets: [{ name: "S", xml: worksheet(cell("六十四")) }] }))
      for (const [zip64, dataDescriptor] of [[true, false], [false, true], [true, true]] as const) {
        const bytes = writeZip(files.map(([name, data]) => ({ name, data, dataDescriptor })), { zip64 })
        const { parts } = yield* extractBuffer(bytes, "z.xlsx")
        expect(parts[0]?.lines, `zip64 ${zip64}, data descriptor ${dataDescriptor}`).toEqual([{ loc: "A1", text: "六十四" }])
      }
    }))
})

describe("a file that changes while being read", () => {
  const withDir = <A, E>(f: (dir: string) => Effect.Effect<A, E>) =>
    Effect.acquireUseRelease(
      Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-change-"))),
      f,
      (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
    )

  it.effect("a change between reading and the second look fails as unreadable, to be retried", () =>
    withDir((dir) =>
      Effect.gen(function* () {
        const file = path.join(dir, "保存中.xlsx")
        fs.writeFileSync(file, yield* Effect.promise(() => zipOf(workbookFiles({ sheets: [{ name: "S", xml: worksheet(cell("前")) }] }))))
        const error = yield* Effect.flip(
          Effect.tryPromise({
            try: () => readSnapshot(file, 1 << 30, { afterRead: async () => fs.appendFileSync(file, "PK\x03\x04 more") }),
            catch: (e) => e as ExtractError
          })
        )
        expect(error.reason).toBe("unreadable")
        expect(error.detail).toContain("changed while it was being read")
      })
    ))

  it.effect("extraction during repeated rewrites gives text or a clean failure, never a crash, read whole or from disk", () =>
    withDir((dir) =>
      Effect.gen(function* () {
        const file = path.join(dir, "更新中.xlsx")
        const versions = yield* Effect.promise(() =>
          Promise.all(["一", "二"].map((t) => zipOf(workbookFiles({ sheets: [{ name: "S", xml: worksheet(cell(t.repeat(20_000))) }] }))))
        )
        fs.writeFileSync(file, versions[0] ?? new Uint8Array())
        let stop = false
        const writer = (async () => {
          for (let i = 0; !stop; i++) {
            const fd = fs.openSync(file, "r+")
            const v = versions[i % 2] ?? new Uint8Array()
            fs.writeSync(fd, v, 0, v.length, 0)
            fs.ftruncateSync(fd, v.length)
            fs.closeSync(fd)
            await new Promise((r) => setImmediate(r))
          }
        })()
        for (let i = 0; i < 30; i++) {
          const exit = yield* Effect.exit(extractFile(file))
          if (Exit.isFailure(exit)) {
            const error = yield* failureOf(extractFile(file))
            if (error !== undefined) expect(["unreadable", "corrupt"]).toContain(error.reason)
          }
          // Read from disk piece by piece, as a plain worker does (issue 9): the same contract.
          const streamed = yield* Effect.exit(extractFileTo(file, collectingSink({ keepsLines: false })))
          if (Exit.isFailure(streamed)) {
            const error = yield* Effect.flip(extractFileTo(file, collectingSink({ keepsLines: false }))).pipe(Effect.option)
            if (error._tag === "Some") expect(["unreadable", "corrupt"]).toContain(error.value.reason)
          }
        }
        stop = true
        yield* Effect.promise(() => writer)
      })
    ))

  it.effect("a file over maxFileBytes is refused before it is read", () =>
    withDir((dir) =>
      Effect.gen(function* () {
        const file = path.join(dir, "大.xlsx")
        fs.writeFileSync(file, Buffer.alloc(4096))
        const error = yield* failureOf(extractFile(file, { maxFileBytes: 1000 }))
        expect(error?.reason).toBe("too-large")
      })
    ))
})
