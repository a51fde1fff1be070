/**
 * Issue 20, the fast path for sheet data: a plain worker's TSVs are byte for
 * byte the same whether `sheetData` and the shared-string table's `sst` are
 * read by the fast scanners or by saxes,
 * over every xlsx/xlsm of ../shared/corpus and of the generated trees
 * (make_tree.ts, make_samples.ts, the ingest benchmark's generator), held
 * whole and streamed in small batches (which reads sheets with merged areas,
 * links or cells out of order twice). The fast path must also really be the
 * one that read them: no sheet or shared-string table of these files falls
 * back.
 */
import { ingestPlain } from "@sagasu/ingest"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { corpusDir } from "./corpus.ts"
import { makeFile } from "./bench/ingest_tree.ts"
import { makeSamples } from "./make_samples.ts"
import { makeTree } from "./make_tree.ts"
import { NodeWithWorkStore } from "@sagasu/store/testing"

const root = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-fast-sheet-"))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

const workbooks = (dir: string): Array<string> =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.xls[xm]$/i.test(e.name) && !e.name.startsWith("~$") && !e.name.startsWith("."))
    .map((e) => path.join(e.parentPath, e.name))
    .sort()

/** Every file of a staging folder, by name, as bytes (base64, so a difference shows where it is). */
const folderOf = (dir: string): Record<string, string> =>
  fs.existsSync(dir) ? Object.fromEntries(fs.readdirSync(dir).sort().map((n) => [n, fs.readFileSync(path.join(dir, n)).toString("base64")])) : {}

const outcomes = new Map<string, number>()
const tableOutcomes = new Map<string, number>()

/** Stages `file` with the given sheet reader: the result (without its timing line) and the folder's files. */
const stage = (file: string, reader: "fast" | "saxes", batch: number | undefined, n: number) =>
  Effect.gen(function* () {
    const staging = path.join(root, "stage", `${n}-${reader}-${batch ?? "whole"}`)
    const result = yield* ingestPlain(file, staging, {
      extract: {
        sheetReader: reader,
        ...(batch !== undefined ? { sheetBatchLines: batch } : {}),
        onSheetScan: (part, outcome) => {
          const key = outcome._tag === "fallback" ? `fallback: ${outcome.reason} (${path.basename(file)} ${part})` : outcome._tag
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1)
        },
        onSharedStringsScan: (part, outcome) => {
          const key = outcome._tag === "fast" ? "fast" : `${outcome._tag}: ${outcome.reason} (${path.basename(file)} ${part})`
          tableOutcomes.set(key, (tableOutcomes.get(key) ?? 0) + 1)
        }
      }
    })
    const files = folderOf(staging)
    fs.rmSync(staging, { recursive: true, force: true })
    return { status: result.status, failure: result.status === "failed" || result.status === "reroute" ? result.failure : undefined, lines: result.status === "done" ? result.lines : undefined, files }
  }).pipe(Effect.provide(NodeWithWorkStore))

describe("the fast sheetData and sst paths against saxes (issue 20)", () => {
  it(
    "gives byte-identical TSVs over the corpus's and the generated trees' workbooks, held whole and streamed, with no fallback",
    async () => {
      const generated = path.join(root, "generated")
      await makeTree(path.join(generated, "tree"), { seed: 20, files: 24, mix: { xlsx: 1, docx: 0, pptx: 0 }, minRows: 50, maxRows: 3000, maxSheets: 3 })
      await makeSamples(path.join(generated, "samples"))
      const bench = path.join(generated, "bench")
      fs.mkdirSync(bench, { recursive: true })
      for (let n = 1; n <= 16; n++) makeFile(bench, n, { seed: 20, files: 16, maxBytes: 3_000_000, medianBytes: 60_000 })
      const files = [...workbooks(path.join(corpusDir, "files")), ...workbooks(generated)]
      expect(files.length).toBeGreaterThan(150)

      const differ: Array<string> = []
      let n = 0
      for (const file of files) {
        for (const batch of [undefined, 7]) {
          const fast = await Effect.runPromise(stage(file, "fast", batch, ++n))
          const saxes = await Effect.runPromise(stage(file, "saxes", batch, n))
          if (JSON.stringify(fast) !== JSON.stringify(saxes)) differ.push(`${path.relative(root, file)} (batch ${batch ?? "whole"})`)
          if (batch === undefined) expect(fast.files, file).toEqual(saxes.files)
        }
      }
      console.log(`fast sheet path: ${files.length} workbooks, sheet outcomes ${JSON.stringify([...outcomes])}, shared strings ${JSON.stringify([...tableOutcomes])}`)
      expect(differ).toEqual([])
      expect([...outcomes.keys()].filter((k) => k.startsWith("fallback"))).toEqual([])
      expect(outcomes.get("fast") ?? 0).toBeGreaterThan(1000)
      expect([...tableOutcomes.keys()].filter((k) => k !== "fast")).toEqual([])
      expect(tableOutcomes.get("fast") ?? 0).toBeGreaterThan(150)
    },
    600_000
  )
})
