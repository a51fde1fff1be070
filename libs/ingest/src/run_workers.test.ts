/**
 * The standard workers of a real run (plain worker threads and the Office
 * owners with LibreOffice) on legacy workbooks (W3, R14): a BIFF8 .xls and a
 * BIFF4 one (Excel 4, corpus rows tagged biff2-4) are read by a plain worker
 * without Office; an Office 2003 XML workbook named .xls comes back from the
 * plain worker as a reroute and the spreadsheet owner reads it through
 * LibreOffice.
 */
import { describe, expect, it } from "@effect/vitest"
import { defaultSettings, type IngestRow } from "@sagasu/domain"
import { bodyFolderOf, formatSettings, workPaths } from "@sagasu/store"
import { initWorkFolder, readIngestList, writeSettings, NodeWithWorkStore } from "@sagasu/store/testing"
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { makeChannel } from "./channel.ts"
import { corpusFile, haveCorpus } from "./_test_corpus.ts"
import { aroundIngest } from "./_test_workers.ts"
import { pgrep } from "./office/_test_support.ts"
import { runIndexer } from "./run_indexer.ts"
import { standardWorkersLayer } from "./run_workers.ts"

describe.skipIf(!haveCorpus)("standard workers on legacy workbooks (W3, R14)", () => {
  it.live(
    "a BIFF8 and a BIFF4 .xls are read by a plain worker; an Office 2003 XML .xls is rerouted and read by the spreadsheet owner's LibreOffice",
    () =>
      Effect.gen(function* () {
        const base = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-legacy-run-"))
        try {
          const source = path.join(base, "files")
          fs.mkdirSync(source)
          fs.copyFileSync(corpusFile("poi/12561-1.xls"), path.join(source, "作業.xls"))
          fs.copyFileSync(corpusFile("poi/testEXCEL_4.xls"), path.join(source, "excel4.xls"))
          // The content decides, not the name (BUG-14): SpreadsheetML 2003 is only Office's.
          fs.copyFileSync(corpusFile("phpspreadsheet/excel2003.xml"), path.join(source, "excel2003.xls"))
          const work = path.join(base, "work")
          const paths = yield* initWorkFolder(work, formatSettings(defaultSettings))
          yield* writeSettings(paths, { ...defaultSettings, ingestThreads: 1, targetFolders: [{ name: "L", path: source, enabled: true }] })
          const dispatched: Array<string> = []
          const results: Array<string> = []
          const recording = aroundIngest((kind, request, ingest) => {
            dispatched.push(`${kind}:${request.path}`)
            return ingest.pipe(Effect.tap((r) => Effect.sync(() => results.push(`${kind}:${request.path}:${r.status}`))))
          })
          const channel = yield* makeChannel({})
          const code = yield* runIndexer(channel, {
            work,
            version: "test",
            workers: (s) => recording.pipe(Layer.provide(standardWorkersLayer(workPaths(work), s)), Layer.provide(NodeWithWorkStore))
          })
          expect(code).toBe(0)
          // The plain worker first for all; the owner only for the one it gave back.
          expect(new Set(results)).toEqual(
            new Set(["plain:作業.xls:done", "plain:excel4.xls:done", "plain:excel2003.xls:reroute", "spreadsheet:excel2003.xls:done"])
          )
          expect(dispatched.filter((d) => d.startsWith("spreadsheet:"))).toEqual(["spreadsheet:excel2003.xls"])
          const rows: ReadonlyArray<IngestRow> = yield* readIngestList(paths)
          expect(Object.fromEntries(rows.map((r) => [r.path, r.status]))).toEqual({ "作業.xls": "done", "excel4.xls": "done", "excel2003.xls": "done" })
          const text = (file: string) =>
            fs.readdirSync(bodyFolderOf(paths, "L", file)).filter((n) => n.endsWith(".tsv")).map((n) => fs.readFileSync(path.join(bodyFolderOf(paths, "L", file), n), "utf8")).join("\n")
          expect(text("作業.xls")).toContain("予想作業日数")
          // testEXCEL_4.xls is a BIFF4 worksheet of IRS examination figures, read by _xls_old.ts.
          expect(text("excel4.xls")).toContain("Returns examined")
          // excel2003.xml's first sheet, "Sample Data", as LibreOffice reads it.
          expect(text("excel2003.xls")).toContain("Test String 1")
          expect(pgrep(work), "no LibreOffice of the run is left").toEqual([])
        } finally {
          fs.rmSync(base, { recursive: true, force: true })
        }
      }).pipe(Effect.provide(NodeWithWorkStore)),
    120_000
  )
})
