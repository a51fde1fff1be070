/**
 * Legacy Word and PowerPoint files in a real run (W3, R14): Word 97–2003,
 * Word 6/95, Word 2, PowerPoint 97–2003, 95 and 4.0 are read by a plain
 * worker without LibreOffice; a file the plain worker cannot read (an Office
 * 2003 XML workbook named .xls: no legacy Word or PowerPoint file of the
 * corpus is left that only LibreOffice reads) comes back from it as
 * *reroute* and the run hands it to the owner of its kind, whose
 * LibreOffice reads it. Needs the corpus (../shared/corpus) and LibreOffice.
 */
import { describe, expect, it } from "@effect/vitest"
import { defaultSettings } from "@sagasu/domain"
import { formatSettings } from "@sagasu/store"
import { initWorkFolder, readIngestList, searchIndex, writeSettings, NodeWithWorkStore } from "@sagasu/store/testing"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { makeChannel } from "./channel.ts"
import { ingestPlain } from "./ingest_one.ts"
import { corpusFile, haveCorpus } from "./_test_corpus.ts"
import { haveSoffice } from "./office/_test_support.ts"
import { runIndexer } from "./run_indexer.ts"
import { standardRunOptions } from "./run_workers.ts"

const files = {
  "word97.doc": "poi/Bug34898.doc",
  "word95.doc": "poi/Word95.doc",
  "word2.doc": "poi/word2.doc",
  "ppt97.ppt": "poi/54880_chinese.ppt",
  "ppt95.ppt": "poi/PPT95.ppt",
  "ppt40.ppt": "poi/pp40only.ppt",
  "excel2003.xls": "phpspreadsheet/excel2003.xml"
} as const

const tempDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-legacy-run-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

describe.skipIf(!haveCorpus)("legacy Word and PowerPoint: plain first, Office when needed (W3, R14)", { timeout: 120_000 }, () => {
  it.scoped("a plain worker reads Word 97, Word 95, Word 2, PowerPoint 95 and 4.0 files and sends an Office 2003 XML file back as reroute to its owner", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const read = (name: keyof typeof files) => ingestPlain(corpusFile(files[name]), path.join(dir, name))
      // The text, then the summary information's properties (S4, issue 14): two TSVs each.
      expect(yield* read("word97.doc")).toMatchObject({ status: "done", tsvCount: 2 })
      expect(yield* read("ppt97.ppt")).toMatchObject({ status: "done", tsvCount: 2 })
      const staged = (name: string) => fs.readdirSync(path.join(dir, name)).filter((f) => f.endsWith(".tsv")).map((f) => fs.readFileSync(path.join(dir, name, f), "utf8")).join("")
      expect(staged("word97.doc")).toContain("title\tディレクトリ\n")
      expect(staged("ppt97.ppt")).toContain("author\tmkawachi\n")
      // Word 95 and Word 2 (issue 20): the text, and Word 95's properties from a summary stream with a 95 KB thumbnail.
      expect(yield* read("word95.doc")).toMatchObject({ status: "done", tsvCount: 2 })
      expect(staged("word95.doc")).toContain("5\tParagraph 3. Has some RED text and some BLUE BOLD text in it.\n")
      expect(staged("word95.doc")).toContain("author\tNevin Nollop\n")
      expect(yield* read("word2.doc")).toMatchObject({ status: "done" })
      expect(staged("word2.doc")).toContain("\tMr. Alain Bibas ORANGE FRANCE 3GPPMEMBER (ETSI) FR +33 1 45 29 46 63 alain.bibas@rd.francetelecom.com YES  -  NO\n")
      // PowerPoint 95: its slides and its summary's properties, without LibreOffice since W3's reader of it.
      expect(yield* read("ppt95.ppt")).toMatchObject({ status: "done", tsvCount: 2 })
      expect(staged("ppt95.ppt")).toContain("1\tIan GRAHAM\n")
      expect(staged("ppt95.ppt")).toContain("author\tIan S. Graham\n")
      // PowerPoint 4.0 likewise, since W3's reader of it: its notes pages hold the slide's number.
      expect(yield* read("ppt40.ppt")).toMatchObject({ status: "done", tsvCount: 2 })
      expect(staged("ppt40.ppt")).toContain("1\tCOMMUNITY ORGANISATIONS\n")
      expect(staged("ppt40.ppt")).toContain("2 notes\t2\n")
      expect(staged("ppt40.ppt")).toContain("author\tGreg Holmes\n")
      const result = yield* read("excel2003.xls")
      expect(result).toMatchObject({ status: "reroute", app: "spreadsheet", failure: { reason: "needs-office" } })
      expect(fs.existsSync(path.join(dir, "excel2003.xls")), "nothing staged").toBe(false)
    }).pipe(Effect.provide(NodeWithWorkStore)))

  it.scopedLive.skipIf(!haveSoffice)("a run indexes all seven: the Word and PowerPoint 97 files, Word 95, Word 2, PowerPoint 95 and 4.0 without LibreOffice, the Office 2003 XML file through it", () =>
    Effect.gen(function* () {
      const base = yield* tempDir
      const source = path.join(base, "src")
      fs.mkdirSync(source)
      for (const [name, file] of Object.entries(files)) fs.copyFileSync(corpusFile(file), path.join(source, name))
      const paths = yield* initWorkFolder(path.join(base, "work"), formatSettings(defaultSettings))
      yield* writeSettings(paths, { ...defaultSettings, targetFolders: [{ name: "A", path: source, enabled: true }] })
      const channel = yield* makeChannel()
      const code = yield* runIndexer(channel, yield* standardRunOptions(paths.root, "test"))
      expect(code).toBe(0)
      const rows = yield* readIngestList(paths)
      expect(Object.fromEntries(rows.map((r) => [r.path, r.status]))).toEqual({
        "excel2003.xls": "done",
        "ppt40.ppt": "done",
        "ppt95.ppt": "done",
        "ppt97.ppt": "done",
        "word2.doc": "done",
        "word95.doc": "done",
        "word97.doc": "done"
      })
      // The log block of each file says how it was read: LibreOffice converted only the Office 2003 XML file.
      const log = fs.readFileSync(paths.log, "utf8")
      // A file's block: its `[n/total]` line and the indented lines under it (R4).
      const block = (name: string) => {
        const lines = log.slice(log.indexOf(`] A/${name}: `)).split("\n")
        const end = lines.findIndex((l, i) => i > 0 && !l.startsWith("    "))
        return lines.slice(0, end).join("\n")
      }
      // R14: the reroute is logged when it happens, the owner's result in the file's block.
      expect(log).toContain("A/excel2003.xls: Office が無いと読めない内容のため、表計算の担当（LibreOffice）に回しました")
      expect(block("excel2003.xls")).toMatch(/: 取り込みました\n(.*\n)*.*xlsx に変換しました（\d+ ms、このプロセスで 1 件目）/)
      for (const name of ["word97.doc", "ppt97.ppt", "word95.doc", "word2.doc", "ppt95.ppt", "ppt40.ppt"]) expect(block(name), name).not.toMatch(/LibreOffice|変換/)
      for (const [query, file] of [
        ["ディレクトリ", "word97.doc"],
        ["カタカナ", "ppt97.ppt"],
        ["quick brown fox", "word95.doc"],
        ["alain.bibas@rd.francetelecom.com", "word2.doc"],
        ["utoronto", "ppt95.ppt"],
        ["COMMUNITY ORGANISATIONS", "ppt40.ppt"],
        ["Test String 1", "excel2003.xls"]
      ] as const) {
        const result = yield* searchIndex(paths, query, { index: "A", limit: 5 })
        expect(result.hits.map((h) => h.path), query).toContain(file)
      }
    }).pipe(Effect.provide(NodeWithWorkStore)))
})
