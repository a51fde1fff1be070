/**
 * The plain legacy-workbook readers (xls, xlsb: W3) against the LibreOffice
 * path they replace, over the corpus's xls/xlsb rows: for every file both
 * read, each cell's text as the plain reader gives it and as the xlsx path
 * gives it from LibreOffice's conversion (the Office owner's path: a warm
 * LibreOffice converts to xlsx, the xlsx reader reads that); and the CPU
 * time (user + sys, not wall) of each path per file — the plain reader in
 * this process, LibreOffice's as its process group's and the forwarding
 * call's CPU plus the extraction of the converted file.
 *
 * `npm run bench:legacy` (add `--diffs` to list every differing cell,
 * `--json <file>` to write the report). A few tens of seconds: one warm
 * LibreOffice, each file converted once, each plain reading repeated.
 *
 * @module
 */
import { NodeContext } from "@effect/platform-node"
import { extractFile } from "@sagasu/ingest"
import type { Extraction } from "@sagasu/domain"
import { Effect, Exit, } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { awaitReady, endOffice, forwardConversion, groupMembers, startOffice } from "@sagasu/ingest/testing"
import { corpusDir, readManifest } from "../corpus.ts"

/** A cell's text by sheet position and address. */
type Cells = Map<string, string>

const cellLoc = /^[A-Z]+\d+$/

/** The cells of an extraction, keyed `<sheet index>!<A1>` (comments, links, shapes, headers left out). */
export function cellsOf(x: Extraction): Cells {
  const cells: Cells = new Map()
  x.parts.forEach((part, i) => {
    for (const line of part.lines) if (cellLoc.test(line.loc)) cells.set(`${i}!${line.loc}`, line.text)
  })
  return cells
}

/** How two readings of one file's cells compare. */
export interface Agreement {
  readonly identical: number
  /** Cells both give, with different text. */
  readonly differ: ReadonlyArray<readonly [loc: string, plain: string, office: string]>
  /** Cells only one of them gives. */
  readonly onlyPlain: ReadonlyArray<readonly [loc: string, text: string]>
  readonly onlyOffice: ReadonlyArray<readonly [loc: string, text: string]>
  /** Cells either gives (identical + differ + only one). */
  readonly total: number
  readonly sheetNames: { readonly plain: ReadonlyArray<string>; readonly office: ReadonlyArray<string> }
}

/** Compares the plain reader's cells with LibreOffice's. */
export function compareCells(plain: Extraction, office: Extraction): Agreement {
  const a = cellsOf(plain)
  const b = cellsOf(office)
  let identical = 0
  const differ: Array<readonly [string, string, string]> = []
  const onlyPlain: Array<readonly [string, string]> = []
  const onlyOffice: Array<readonly [string, string]> = []
  for (const [loc, text] of a) {
    const other = b.get(loc)
    if (other === undefined) onlyPlain.push([loc, text])
    else if (other === text) identical++
    else differ.push([loc, text, other])
  }
  for (const [loc, text] of b) if (!a.has(loc)) onlyOffice.push([loc, text])
  return {
    identical,
    differ,
    onlyPlain,
    onlyOffice,
    total: identical + differ.length + onlyPlain.length + onlyOffice.length,
    sheetNames: { plain: plain.parts.map((p) => p.name), office: office.parts.map((p) => p.name) }
  }
}

/**
 * Why the plain reader and LibreOffice give a cell different texts, when it
 * is one of the known reasons — in each the plain reader shows what Excel
 * shows (the xlsx path's rules):
 * - `ja-builtin-format`: a built-in number format id the file does not
 *   define (14, 22, 27–40, 50–58): Excel shows it in its ja-JP form
 *   (`2002/6/30`, `H24.2.29`, `10時19分`, `-3`), LibreOffice in en-US
 *   (`6/30/2002`, `10:19:23`, `(3)`); cell_format_2000_builtinformat_ja.xls
 *   holds Excel's own results beside its test cells;
 * - `dbnum`: `[DBNum1]` kanji numerals, which LibreOffice shows as digits;
 * - `letter-case`: `am/pm`, `a/p` (Excel shows them as the code writes
 *   them, LibreOffice in capitals) and LibreOffice-only tokens (`R`, `RR`);
 * - `recalculated`: LibreOffice recalculates TODAY() on load; the cached
 *   result the file holds is what the xlsx path shows too;
 * - `15-digit-rounding`: a General number rounded once to 15 significant
 *   digits from the stored double (`30.6119865831276` for
 *   30.611986583127649), where LibreOffice rounds its shortest form again
 *   (`…277`);
 * - `mac-ce-code-page`: BIFF5 code page 10029 (Mac Central European),
 *   which LibreOffice decodes as another (`üadownoæ` for `Ładowność`).
 */
export function explainDifference(file: string, plain: string, office: string): string | undefined {
  const enDate = /^\d{1,2}\/\d{1,2}\/\d{2,4}( \d{1,2}:\d\d(:\d\d)?)?( \d{4}-\d\d-\d\d)?$|^\d{1,2}:\d\d:\d\d$/
  if (enDate.test(office) && !enDate.test(plain)) return "ja-builtin-format"
  if (/^\d{1,2}\/\d{1,2}\/\d{4}/.test(office) && /^\d{1,2}\/\d{1,2}\/\d{2}\b/.test(plain)) return "ja-builtin-format"
  const negative = /^\((.+)\)$/.exec(office)
  if (negative !== null && plain === `-${negative[1]}`) return "ja-builtin-format"
  // Kanji (DBNum1), daiji (DBNum2) or full-width (DBNum3) numerals where LibreOffice shows ASCII digits; the ISO date after a date is ASCII in both.
  const iso = / \d{4}-\d\d-\d\d$/
  const numerals = /[〇一二三四五六七八九十百千壱弐参肆伍陸漆捌玖拾０-９]+/g
  if (numerals.test(plain) && plain.replace(iso, "").replace(numerals, "N") === office.replace(iso, "").replace(/\d+/g, "N")) return "dbnum"
  if (plain.toLowerCase() === office.toLowerCase()) return "letter-case"
  if (/\d{8}/.test(office) && plain.replace(/\d{8}/g, "D") === office.replace(/\d{8}/g, "D")) return "recalculated"
  const [a, b] = [Number(plain), Number(office)]
  if (plain !== "" && Number.isFinite(a) && Number.isFinite(b) && Math.abs(a - b) <= 1e-13 * Math.abs(a)) return "15-digit-rounding"
  if (file.endsWith("maccentraleurope.biff5.xls") && plain.length === office.length) return "mac-ce-code-page"
  return undefined
}

const ticks = 100 // CLK_TCK on Linux

/** CPU ms (user + sys) of the processes `pids` so far, from /proc. */
function cpuOfPids(pids: ReadonlyArray<number>): number {
  let t = 0
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      t += Number(fields[11]) + Number(fields[12])
    } catch {
      // gone
    }
  }
  return (t * 1000) / ticks
}

/** CPU ms of this process's waited-for children (the forwarding `soffice` calls). */
function cpuOfChildren(): number {
  const stat = fs.readFileSync("/proc/self/stat", "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / ticks
}

const selfCpu = () => {
  const c = process.cpuUsage()
  return (c.user + c.system) / 1000
}

/** One file's figures. */
export interface FileReport {
  readonly path: string
  readonly plain: { readonly ok: boolean; readonly reason: string; readonly cpuMs: number }
  readonly office: { readonly ok: boolean; readonly reason: string; readonly conversionCpuMs: number; readonly extractionCpuMs: number }
  readonly agreement: Agreement | undefined
}

const reasonOf = (exit: Exit.Exit<Extraction, { readonly reason: string; readonly detail: string }>) =>
  Exit.isSuccess(exit) ? "" : Exit.match(exit, { onSuccess: () => "", onFailure: (c) => String(c).slice(0, 160) })

/** The plain reader's extraction of `file` and its CPU ms (the least of `repeat` readings, after one to warm up). */
async function plainReading(file: string, repeat: number) {
  let exit = await Effect.runPromiseExit(extractFile(file))
  let best = repeat > 0 ? Infinity : Number.NaN
  for (let i = 0; i < repeat; i++) {
    const c0 = selfCpu()
    exit = await Effect.runPromiseExit(extractFile(file))
    best = Math.min(best, selfCpu() - c0)
  }
  return { exit, cpuMs: best }
}

/**
 * Runs the comparison over `files` (corpus-relative paths): one warm
 * LibreOffice for all of them, in a fresh profile under a temp folder.
 */
export const compareWithOffice = (files: ReadonlyArray<string>, options: { readonly repeat?: number } = {}) =>
  Effect.scoped(
    Effect.gen(function* () {
      const home = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-legacy-vs-office-"))
      yield* Effect.addFinalizer(() => Effect.sync(() => fs.rmSync(home, { recursive: true, force: true })))
      const inDir = path.join(home, "in")
      const outDir = path.join(home, "out")
      fs.mkdirSync(inDir)
      fs.mkdirSync(outDir)
      const spec = { command: "soffice", env: {} }
      const office = yield* startOffice(spec, path.join(home, "profile"), 1)
      yield* Effect.addFinalizer(() => endOffice(office, "SIGKILL").pipe(Effect.ignore))
      yield* awaitReady(office)
      const pgid = office.process.pid
      const reports: Array<FileReport> = []
      let warmedUp = false
      for (const [n, rel] of files.entries()) {
        const file = path.join(corpusDir, rel)
        const plain = yield* Effect.promise(() => plainReading(file, options.repeat ?? 3))
        const ext = path.extname(rel).toLowerCase()
        const input = path.join(inDir, `${n}${ext}`)
        fs.copyFileSync(file, input)
        if (!warmedUp) {
          // The first conversion loads Calc's filters: not a per-file cost.
          yield* forwardConversion(spec, office, "spreadsheet", input, path.join(home, "warm"))
          warmedUp = true
        }
        const p0 = cpuOfPids(groupMembers(pgid))
        const k0 = cpuOfChildren()
        yield* forwardConversion(spec, office, "spreadsheet", input, outDir)
        const conversionCpuMs = cpuOfPids(groupMembers(pgid)) - p0 + (cpuOfChildren() - k0)
        const output = path.join(outDir, `${n}.xlsx`)
        const c0 = selfCpu()
        const converted = fs.existsSync(output) ? yield* Effect.exit(extractFile(output)) : undefined
        const extractionCpuMs = selfCpu() - c0
        const officeOk = converted !== undefined && Exit.isSuccess(converted)
        reports.push({
          path: rel,
          plain: { ok: Exit.isSuccess(plain.exit), reason: reasonOf(plain.exit), cpuMs: plain.cpuMs },
          office: {
            ok: officeOk,
            reason: converted === undefined ? "LibreOffice wrote nothing" : reasonOf(converted),
            conversionCpuMs,
            extractionCpuMs
          },
          agreement: Exit.isSuccess(plain.exit) && converted !== undefined && Exit.isSuccess(converted) ? compareCells(plain.exit.value, converted.value) : undefined
        })
      }
      return reports
    })
  ).pipe(Effect.provide(NodeContext.layer))

/** The corpus rows the legacy workbook readers take. */
export const legacyWorkbookRows = () => readManifest().filter((r) => r.kind === "xls" || r.kind === "xlsb")

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? 0 : s.length % 2 === 1 ? (s[(s.length - 1) / 2] ?? 0) : ((s[s.length / 2 - 1] ?? 0) + (s[s.length / 2] ?? 0)) / 2
}

/** The report as text: per file, then the totals. */
export function formatReport(reports: ReadonlyArray<FileReport>, diffs: boolean): string {
  const out: Array<string> = []
  const both = reports.filter((r) => r.agreement !== undefined)
  const identical = both.reduce((n, r) => n + (r.agreement?.identical ?? 0), 0)
  const total = both.reduce((n, r) => n + (r.agreement?.total ?? 0), 0)
  out.push("file | plain CPU ms | LibreOffice CPU ms (conversion + its xlsx read) | cells identical / total")
  for (const r of reports) {
    const a = r.agreement
    const cpu = `${r.plain.cpuMs.toFixed(1)} | ${(r.office.conversionCpuMs + r.office.extractionCpuMs).toFixed(0)} (${r.office.conversionCpuMs.toFixed(0)} + ${r.office.extractionCpuMs.toFixed(1)})`
    const cells = a === undefined ? `— (plain: ${r.plain.ok ? "read" : r.plain.reason}; LibreOffice: ${r.office.ok ? "read" : r.office.reason})` : `${a.identical} / ${a.total}`
    out.push(`${r.path} | ${cpu} | ${cells}`)
    if (a !== undefined && (diffs || a.identical < a.total)) {
      const show = diffs ? Infinity : 5
      for (const [loc, p, o] of a.differ.slice(0, show)) {
        out.push(`    differ ${loc} (${explainDifference(r.path, p, o) ?? "UNEXPLAINED"}): plain ${JSON.stringify(p)} / LibreOffice ${JSON.stringify(o)}`)
      }
      for (const [loc, t] of a.onlyPlain.slice(0, show)) out.push(`    only plain ${loc}: ${JSON.stringify(t)}`)
      for (const [loc, t] of a.onlyOffice.slice(0, show)) out.push(`    only LibreOffice ${loc}: ${JSON.stringify(t)}`)
      const more = a.differ.length + a.onlyPlain.length + a.onlyOffice.length - 3 * Math.min(show, 5)
      if (!diffs && more > 0) out.push(`    … (${a.differ.length} differ, ${a.onlyPlain.length} only plain, ${a.onlyOffice.length} only LibreOffice)`)
      if (a.sheetNames.plain.join("|") !== a.sheetNames.office.join("|")) out.push(`    sheets: plain ${JSON.stringify(a.sheetNames.plain)} / LibreOffice ${JSON.stringify(a.sheetNames.office)}`)
    }
  }
  const read = reports.filter((r) => r.plain.ok && r.office.ok)
  out.push("")
  out.push(`cells identical: ${identical} / ${total} (${((100 * identical) / Math.max(total, 1)).toFixed(2)}%) over ${both.length} files both read`)
  const why = new Map<string, number>()
  for (const r of both) for (const [, p, o] of r.agreement?.differ ?? []) why.set(explainDifference(r.path, p, o) ?? "UNEXPLAINED", (why.get(explainDifference(r.path, p, o) ?? "UNEXPLAINED") ?? 0) + 1)
  out.push(`cells that differ, by reason: ${[...why].sort((x, y) => y[1] - x[1]).map(([k, n]) => `${k} ${n}`).join(", ") || "none"}`)
  out.push(
    `CPU per file, files both read: plain median ${median(read.map((r) => r.plain.cpuMs)).toFixed(1)} ms, mean ${(read.reduce((n, r) => n + r.plain.cpuMs, 0) / Math.max(read.length, 1)).toFixed(1)} ms; ` +
      `LibreOffice median ${median(read.map((r) => r.office.conversionCpuMs + r.office.extractionCpuMs)).toFixed(0)} ms, mean ${(read.reduce((n, r) => n + r.office.conversionCpuMs + r.office.extractionCpuMs, 0) / Math.max(read.length, 1)).toFixed(0)} ms ` +
      `(warm process; its start, ≈1 s, not counted)`
  )
  return out.join("\n")
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const diffs = process.argv.includes("--diffs")
  const jsonAt = process.argv.indexOf("--json")
  const reports = await Effect.runPromise(compareWithOffice(legacyWorkbookRows().map((r) => r.path)))
  console.log(formatReport(reports, diffs))
  if (jsonAt > 0 && process.argv[jsonAt + 1] !== undefined) fs.writeFileSync(process.argv[jsonAt + 1] ?? "", JSON.stringify(reports, null, 1))
}
