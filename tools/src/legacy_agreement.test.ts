/**
 * The plain legacy-workbook readers (W3) against LibreOffice on the corpus's
 * xls/xlsb rows (bench/legacy_vs_office.ts; `npm run bench:legacy` prints
 * the per-file figures and CPU times): every cell both read, compared; a
 * cell only one of them gives, or a difference not among the known reasons
 * (where the plain reader shows what Excel shows), fails.
 */
import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { compareWithOffice, explainDifference, formatReport, legacyWorkbookRows } from "./bench/legacy_vs_office.ts"
import { corpusDir } from "./corpus.ts"

const haveSoffice = spawnSync("soffice", ["--version"], { encoding: "utf8" }).status === 0
const haveCorpus = fs.existsSync(path.join(corpusDir, "MANIFEST.tsv"))

describe.skipIf(!haveSoffice || !haveCorpus)("legacy workbooks: the plain readers against LibreOffice (W3)", () => {
  it("gives the cells LibreOffice gives, each difference one where the plain reader follows Excel", async () => {
    const rows = legacyWorkbookRows()
    const reports = await Effect.runPromise(compareWithOffice(rows.map((r) => r.path), { repeat: 0 }))
    console.log(formatReport(reports, false))
    const both = reports.filter((r) => r.agreement !== undefined)
    expect(both.length).toBeGreaterThanOrEqual(30)
    const unexplained = both.flatMap((r) => (r.agreement?.differ ?? []).filter(([, p, o]) => explainDifference(r.path, p, o) === undefined).map((d) => `${r.path} ${d.join(" / ")}`))
    expect(unexplained).toEqual([])
    expect(both.flatMap((r) => (r.agreement?.onlyPlain ?? []).map(([loc]) => `${r.path} ${loc}`))).toEqual([])
    expect(both.flatMap((r) => (r.agreement?.onlyOffice ?? []).map(([loc]) => `${r.path} ${loc}`))).toEqual([])
    const identical = both.reduce((n, r) => n + (r.agreement?.identical ?? 0), 0)
    const total = both.reduce((n, r) => n + (r.agreement?.total ?? 0), 0)
    expect(identical / total).toBeGreaterThan(0.995)
    // Excel 2–4 worksheets (rows tagged biff2-4), read by _xls_old.ts: every cell as LibreOffice gives it, a BIFF3/4 sheet named
    // Sheet1 as LibreOffice names it (a BIFF2 one takes its file's name on both paths: the harness's copy is named otherwise).
    const old = new Set(rows.filter((r) => r.traits.includes("biff2-4")).map((r) => r.path))
    expect(
      reports.filter((r) => old.has(r.path)).map((r) => [r.path, r.agreement?.identical, r.agreement?.total, r.path.endsWith(".XLS") ? "-" : r.agreement?.sheetNames.office.join("|")])
    ).toEqual([
      ["files/poi/testEXCEL_3.xls", 183, 183, "Sheet1"],
      ["files/poi/testEXCEL_4.xls", 980, 980, "Sheet1"],
      ["files/sheetjs/CRLFX5_2.XLS", 4, 4, "-"]
    ])
    for (const r of reports.filter((x) => old.has(x.path) && !x.path.endsWith(".XLS"))) expect(r.agreement?.sheetNames.plain, r.path).toEqual(["Sheet1"])
    // What LibreOffice reads and the plain reader does not goes to LibreOffice (needs-office), or fails as today: encrypted, a looping OLE2 chain.
    for (const r of reports.filter((x) => x.office.ok && !x.plain.ok)) expect(r.plain.reason, r.path).toMatch(/(needs-office|encrypted|corrupt): /)
  }, 600_000)
})
