import { NodeContext } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { type Extraction, defaultSettings } from "@sagasu/domain"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { bodyFolderOf, publishFolder, stageExtraction } from "./body_index.ts"
import { hitContexts } from "./hit_context.ts"
import { scanBodyIndexFiles } from "./search_scan.ts"
import type { FileHit } from "./search_hit.ts"
import { formatSettings } from "./settings_store.ts"
import { initWorkFolder } from "./work_folder.ts"

const workbook: Extraction = {
  parts: [
    { name: "表紙", locator: "cell", state: "visible", lines: [{ loc: "A1", text: "御見積書" }] },
    {
      name: "見積",
      locator: "cell",
      state: "visible",
      lines: [
        { loc: "A1", text: "見積番号" }, { loc: "B1", text: "顧客名" }, { loc: "C1", text: "金額" },
        { loc: "A2", text: "A-1233" }, { loc: "B2", text: "XYZ工業" }, { loc: "C2", text: "¥1,000", forms: "1000" },
        { loc: "A3", text: "A-1234" }, { loc: "B3", text: "ABC商事" }, { loc: "C3", text: "¥2,000", forms: "2000" }
      ]
    }
  ]
}
const document: Extraction = {
  parts: [{ name: "document", locator: "paragraph", state: "visible", lines: [{ loc: "1", text: "議事録" }, { loc: "2", text: "予算 A-1234 を承認する。" }, { loc: "3", text: "以上" }] }]
}
const deck: Extraction = {
  parts: [
    { name: "slides", locator: "slide", state: "visible", lines: [{ loc: "1", text: "事業計画" }, { loc: "2", text: "案件一覧" }, { loc: "2", text: "A-1234 受注" }] },
    { name: "properties", locator: "property", state: "visible", lines: [{ loc: "title", text: "計画書" }, { loc: "slide 2", text: "案件一覧（タイトル）" }] }
  ]
}

describe("hitContexts(): the context of a page's hits, read from a real body index (S5, issue 16)", () => {
  it.effect("a cell's headings, a paragraph's neighbours, a slide's title; none for a name; one read per TSV", () =>
    Effect.gen(function* () {
      const paths = yield* initWorkFolder(fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-context-")), formatSettings(defaultSettings))
      const files: Array<[string, Extraction]> = [["見積/A-1234.xlsx", workbook], ["議事録.docx", document], ["計画.pptx", deck]]
      for (const [i, [rel, extraction]] of files.entries()) {
        const staged = path.join(paths.publish, "1", `w${i}`)
        yield* stageExtraction(staged, extraction)
        yield* publishFolder(staged, bodyFolderOf(paths, "共有", rel))
      }
      const found = yield* scanBodyIndexFiles(paths, "A-1234", { locations: 5 })
      const byPath = new Map(found.files.map((f) => [f.path, f]))
      expect([...byPath.keys()].sort()).toEqual(["見積/A-1234.xlsx", "計画.pptx", "議事録.docx"])

      const reads: Array<string> = []
      // A second cell of the same sheet on the page: the sheet is read once.
      const xlsx = byPath.get("見積/A-1234.xlsx") as FileHit
      const second = { ...(xlsx.locations.find((h) => h.loc === "A3") as FileHit["locations"][number]), loc: "B3", location: "見積!B3", text: "ABC商事" }
      const page: Array<FileHit> = [{ ...xlsx, locations: [...xlsx.locations, second] }, byPath.get("議事録.docx") as FileHit, byPath.get("計画.pptx") as FileHit]
      const contexts = hitContexts(paths, page, { onRead: (tsv) => reads.push(path.basename(tsv)) })

      expect(page[0]?.locations.map((h) => h.location)).toEqual(["name", "見積!A3", "見積!B3"])
      expect(contexts[0]).toEqual([
        undefined, // the file name
        { kind: "cell", column: { loc: "A1", text: "見積番号" }, right: { loc: "B3", text: "ABC商事" }, above: { loc: "A2", text: "A-1233" } },
        { kind: "cell", column: { loc: "B1", text: "顧客名" }, row: { loc: "A3", text: "A-1234" }, left: { loc: "A3", text: "A-1234" }, right: { loc: "C3", text: "¥2,000" }, above: { loc: "B2", text: "XYZ工業" } }
      ])
      expect(contexts[1]).toEqual([{ kind: "paragraph", previous: { loc: "1", text: "議事録" }, next: { loc: "3", text: "以上" } }])
      expect(contexts[2]).toEqual([{ kind: "slide", title: { loc: "slide 2", text: "案件一覧（タイトル）" } }])
      // Bounded: the hit sheet once (not the cover sheet), the document, the slides and the properties for the title.
      expect(reads.sort()).toEqual(["1_document.tsv", "1_slides.tsv", "2_properties.tsv", "2_見積.tsv"])

      // A folder gone since the search: no context, no error.
      fs.rmSync(bodyFolderOf(paths, "共有", "議事録.docx"), { recursive: true })
      expect(hitContexts(paths, [page[1] as FileHit])).toEqual([[undefined]])
    }).pipe(Effect.provide(NodeContext.layer)))
})
