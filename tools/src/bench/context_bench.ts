/**
 * `npx tsx tools/src/bench/context_bench.ts [--cells N] [--files N] [--runs N]`:
 * what `--context` costs (S5, issue 16): the time `hitContexts` takes for a
 * page of files, each a workbook whose hit sheet holds N cells (default
 * 10,000: 100 columns), 3 cell hits per file, plus a small second sheet the
 * hits do not touch. The body index is written as the extractor writes it
 * (formatBodyTsv), in a temporary folder. Prints the first call (a new
 * process's first page: TSVs read from the OS cache) and the median and
 * p95 of the next runs (each a new page: nothing cached between calls).
 *
 * @module
 */
import { type BodyLine, bodyTsvFileName, formatBodyTsv } from "@sagasu/domain"
import { type FileHit, hitContexts, workPaths } from "@sagasu/store"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"

const { values } = parseArgs({ options: { cells: { type: "string" }, files: { type: "string" }, runs: { type: "string" } } })
const cells = Number(values.cells ?? 10_000)
const fileCount = Number(values.files ?? 20)
const runs = Number(values.runs ?? 30)
const columns = 100
const rows = Math.ceil(cells / columns)

const letters = (c: number): string => (c <= 26 ? String.fromCharCode(64 + c) : letters(Math.floor((c - 1) / 26)) + String.fromCharCode(65 + ((c - 1) % 26)))

const root = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-context-bench-"))
const paths = workPaths(root)
const page: Array<FileHit> = []
let tsvBytes = 0
for (let f = 0; f < fileCount; f++) {
  const lines: Array<BodyLine> = []
  for (let r = 1; r <= rows; r++) {
    for (let c = 1; c <= columns && (r - 1) * columns + c <= cells; c++) {
      const text = r === 1 ? `見出し${c}` : c === 1 ? `品目${r}-${f}` : c % 3 === 0 ? `¥${(r * c * 7) % 100000}` : `値${r}_${c}`
      lines.push({ loc: `${letters(c)}${r}`, text })
    }
  }
  const dir = path.join(paths.index, "bench", `f${f}.xlsx`)
  fs.mkdirSync(dir, { recursive: true })
  const big = formatBodyTsv({ name: "明細", locator: "cell", state: "visible", lines })
  tsvBytes += Buffer.byteLength(big)
  fs.writeFileSync(path.join(dir, bodyTsvFileName(1, "表紙")), formatBodyTsv({ name: "表紙", locator: "cell", state: "visible", lines: [{ loc: "A1", text: "御見積書" }] }))
  fs.writeFileSync(path.join(dir, bodyTsvFileName(2, "明細")), big)
  const locations = [0.3, 0.6, 0.9].map((at) => {
    const line = lines[Math.floor(lines.length * at)] as BodyLine
    return { index: "bench", path: `f${f}.xlsx`, part: "明細", locator: "cell" as const, loc: line.loc, location: `明細!${line.loc}`, text: line.text, snippet: line.text }
  })
  page.push({ index: "bench", path: `f${f}.xlsx`, hits: 3, modifiedMs: undefined, size: undefined, nameTerms: 0, near: true, locations })
}

let reads = 0
const time = () => {
  const t = performance.now()
  const out = hitContexts(paths, page, { onRead: () => reads++ })
  const ms = performance.now() - t
  if (out.some((f) => f.some((c) => c?.kind !== "cell" || c.column === undefined))) throw new Error("a hit without its column heading")
  return ms
}
const first = time()
const readsPerPage = reads
const times: Array<number> = []
for (let i = 0; i < runs; i++) times.push(time())
times.sort((a, b) => a - b)
const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] as number
console.log(
  `${fileCount} files × ${cells} cells (${(tsvBytes / fileCount / 1024).toFixed(0)} KB TSV each), 3 cell hits per file; TSVs read per page: ${readsPerPage}; ` +
    `first page ${first.toFixed(1)} ms; next ${runs} pages p50 ${q(0.5).toFixed(1)} ms, p95 ${q(0.95).toFixed(1)} ms; load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`
)
fs.rmSync(root, { recursive: true, force: true })
