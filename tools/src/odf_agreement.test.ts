/**
 * The plain OpenDocument reader (ods, odt, odp: `_open_document.ts`, W3,
 * issue 20) against the LibreOffice path it replaces, on OpenDocument files
 * LibreOffice itself wrote: a deterministic sample of the corpus's xlsx, docx
 * and pptx rows is converted once to ods, odt and odp (one `soffice` call per
 * kind, a private profile in a temporary folder), then every such file is
 * read twice — by `extractFile` (the plain reader) and by the run's Office
 * owners with `convertReadable` (what Sagasu did before: LibreOffice converts
 * it back to xlsx/docx/pptx and the OOXML readers read that) — and the two are
 * compared as sets of lines (part, loc, text, forms).
 *
 * What fails: the plain reader failing on a file LibreOffice wrote; an
 * expected string of the source's MANIFEST row that the LibreOffice path
 * finds and the plain reader does not; agreement below the floors set from
 * the measured figures. The differences seen (counted and shown, not
 * failed): the cell text LibreOffice stores in an ods is its own display
 * (the padding space of `_)`, its rounding of seconds, its day and month
 * names, `Err:508` for `#VALUE!`, dates before 1900-03-01 without Excel's
 * leap day), where the round trip's xlsx is shown by Sagasu's number
 * formats; paragraph numbers shift where the docx LibreOffice writes has
 * paragraphs the odt has not (the empty paragraph of each cell a vertical
 * merge covers, deleted tracked changes) or the odt has paragraphs the docx
 * has not (the empty one of a text-less shape), and its footnotes count from
 * 2; sheet headers and footers and charts only the OOXML path reads (the
 * plain reader reads cell links and the `Company`, `Manager` and `Category`
 * user-defined properties LibreOffice keeps); a float cell shown through a
 * date format gets a number's forms, not a date's; LibreOffice's xlsx
 * export unhides a hidden first sheet and drops tabs in cells.
 */
import { NodeContext } from "@effect/platform-node"
import { type AppKind, type Extraction, normalizeForSearch } from "@sagasu/domain"
import { extractFile, makeOfficeOwners } from "@sagasu/ingest"
import { Cause, Effect, Exit } from "effect"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"
import { corpusDir, type ManifestRow, readManifest } from "./corpus.ts"

const haveSoffice = spawnSync("soffice", ["--version"], { encoding: "utf8" }).status === 0
const haveCorpus = fs.existsSync(path.join(corpusDir, "MANIFEST.tsv"))

/** Each OOXML kind, its OpenDocument kind and how many of its rows the sample takes. */
const kinds = [
  { ooxml: "xlsx", odf: "ods", app: "spreadsheet", take: 16 },
  { ooxml: "docx", odf: "odt", app: "document", take: 12 },
  { ooxml: "pptx", odf: "odp", app: "presentation", take: 12 }
] as const satisfies ReadonlyArray<{ ooxml: string; odf: string; app: AppKind; take: number }>

/**
 * Files up to this size: converting all 181 xlsx/docx/pptx rows both ways
 * took 82 s + 338 s here; the test on its sample of 40 files under 300 KB
 * takes 55–70 s here (both cores busy with other tests).
 */
const maxBytes = 300_000
/** LibreOffice takes 270 s to write the xlsx of its ods: a note at XFD1048576 makes it write out the whole sheet. */
const passedOver = new Set(["files/xlsxwriter/comment03.xlsx"])

/** `take` rows spread evenly over the kind's rows, in manifest order. */
function sampleOf(rows: ReadonlyArray<ManifestRow>): Array<{ row: ManifestRow; kind: (typeof kinds)[number] }> {
  return kinds.flatMap((kind) => {
    const mine = rows.filter((r) => r.kind === kind.ooxml && !passedOver.has(r.path) && fs.statSync(path.join(corpusDir, r.path)).size <= maxBytes)
    const n = Math.min(kind.take, mine.length)
    return Array.from({ length: n }, (_, i) => ({ row: mine[Math.floor((i * mine.length) / n)] as ManifestRow, kind }))
  })
}

/**
 * One `soffice --convert-to` call for all `inputs` (one start for many
 * files), in the profile `profile`; resolves when LibreOffice exits, whatever
 * it could convert. Spawned in a process group of its own, which `signal`
 * (the test's end) kills.
 */
function convertAll(inputs: ReadonlyArray<string>, to: string, outDir: string, profile: string, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("soffice", [`-env:UserInstallation=${pathToFileURL(profile).href}`, "--headless", "--norestore", "--convert-to", to, "--outdir", outDir, ...inputs], {
      stdio: "ignore",
      detached: true
    })
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
      } catch {
        // the group is gone already
      }
    }
    signal.addEventListener("abort", kill, { once: true })
    child.on("error", reject)
    child.on("exit", () => {
      signal.removeEventListener("abort", kill)
      resolve()
    })
  })
}

/** A line as compared: its part (with the part's state when not visible), loc, text and forms; `numbered` when its loc is a paragraph's number. */
interface Line {
  readonly part: string
  readonly loc: string
  readonly text: string
  readonly forms: string | undefined
  readonly numbered: boolean
}

const linesOf = (x: Extraction): Array<Line> =>
  x.parts.flatMap((p) =>
    p.lines.map((l) => ({
      part: p.state === "visible" ? p.name : `${p.name} (${p.state})`,
      loc: l.loc,
      text: l.text,
      forms: l.forms,
      numbered: p.locator === "paragraph" && /^\d+$/.test(l.loc)
    }))
  )

/** How two readings of one file compare, as sets of lines. */
interface Agreement {
  readonly identical: number
  /** Lines in either reading (identical + only plain + only LibreOffice). */
  readonly either: number
  readonly onlyPlain: ReadonlyArray<Line>
  readonly onlyOffice: ReadonlyArray<Line>
}

/** `key` of a line: what must be equal for two lines to count as identical (`undefined`: the line is left out). */
function compare(plain: ReadonlyArray<Line>, office: ReadonlyArray<Line>, key: (l: Line) => string | undefined): Agreement {
  const keyed = (ls: ReadonlyArray<Line>) =>
    new Map(
      ls.flatMap((l) => {
        const k = key(l)
        return k === undefined ? [] : [[k, l] as const]
      })
    )
  const a = keyed(plain)
  const b = keyed(office)
  const onlyPlain = [...a].filter(([k]) => !b.has(k)).map(([, l]) => l)
  const onlyOffice = [...b].filter(([k]) => !a.has(k)).map(([, l]) => l)
  const identical = a.size - onlyPlain.length
  return { identical, either: identical + onlyPlain.length + onlyOffice.length, onlyPlain, onlyOffice }
}

const exact = (l: Line) => JSON.stringify([l.part, l.loc, l.text, l.forms ?? ""])
/**
 * Paragraph numbers and spacing aside (runs of white space as one space,
 * none at the ends, lines of only spaces left out): tells text that differs
 * from the same text numbered or padded differently, which a search does not see.
 */
const lenient = (l: Line) => {
  const text = l.text.replace(/\s+/g, " ").trim()
  return text === "" ? undefined : JSON.stringify([l.part, l.numbered ? "¶" : l.loc, text, l.forms ?? ""])
}

/** Everything a search can match in a reading — each line's text and forms — normalised as the search normalises. */
const searchable = (lines: ReadonlyArray<Line>) => normalizeForSearch(lines.map((l) => (l.forms === undefined ? l.text : `${l.text} ${l.forms}`)).join("\n"))

/** One sampled file's readings. */
interface FileResult {
  readonly row: ManifestRow
  readonly kind: (typeof kinds)[number]
  /** Why there is no comparison: LibreOffice wrote no OpenDocument file, or could not convert it back. */
  readonly skipped?: string
  /** The plain reader's failure (an ExtractError's reason and detail, or the defect). */
  readonly plainFailure?: string
  readonly exact?: Agreement
  readonly lenient?: Agreement
  /** The expected strings of the source's MANIFEST row the LibreOffice path finds, and those of them the plain reader does not. */
  readonly expected?: { readonly foundByOffice: number; readonly missed: ReadonlyArray<string> }
}

const failureText = (cause: Cause.Cause<unknown>): string => {
  const e = Cause.failureOption(cause)
  if (e._tag === "Some" && typeof e.value === "object" && e.value !== null && "reason" in e.value && "detail" in e.value) return `${String(e.value.reason)}: ${String(e.value.detail)}`
  return Cause.pretty(cause).split("\n")[0] ?? "unknown"
}

/**
 * Reads every OpenDocument file both ways: the plain reader, and the run's
 * Office owners (one LibreOffice handed from kind to kind) converting it back.
 */
const readBoth = (files: ReadonlyArray<{ row: ManifestRow; kind: (typeof kinds)[number]; odf: string }>, workArea: string) =>
  Effect.scoped(
    Effect.gen(function* () {
      const owners = yield* makeOfficeOwners({ workArea, convertReadable: true })
      const results: Array<FileResult> = []
      for (const { row, kind, odf } of files) {
        if (!fs.existsSync(odf)) {
          results.push({ row, kind, skipped: `LibreOffice wrote no ${kind.odf}` })
          continue
        }
        const plain = yield* Effect.exit(extractFile(odf))
        const office = yield* Effect.exit(owners[kind.app].ingest(odf))
        if (Exit.isFailure(plain)) {
          results.push({ row, kind, plainFailure: failureText(plain.cause) })
          continue
        }
        if (Exit.isFailure(office)) {
          results.push({ row, kind, skipped: `LibreOffice could not convert its ${kind.odf} back: ${failureText(office.cause)}` })
          continue
        }
        const p = linesOf(plain.value)
        const o = linesOf(office.value.extraction)
        const [hp, ho] = [searchable(p), searchable(o)]
        const foundByOffice = row.expected.filter((s) => ho.includes(normalizeForSearch(s)))
        const missed = foundByOffice.filter((s) => !hp.includes(normalizeForSearch(s)))
        results.push({ row, kind, exact: compare(p, o, exact), lenient: compare(p, o, lenient), expected: { foundByOffice: foundByOffice.length, missed } })
      }
      return results
    })
  ).pipe(Effect.provide(NodeContext.layer))

const sumOf = (rs: ReadonlyArray<FileResult>, f: (a: Agreement) => number, which: "exact" | "lenient" = "exact") => rs.reduce((n, r) => n + (r[which] === undefined ? 0 : f(r[which])), 0)
/** Lines identical over lines in either, the files' lines pooled. */
const pooled = (rs: ReadonlyArray<FileResult>, which: "exact" | "lenient" = "exact") => sumOf(rs, (a) => a.identical, which) / Math.max(sumOf(rs, (a) => a.either, which), 1)
/** The mean of the files' agreements: a large file weighs as much as a small one. */
const perFile = (rs: ReadonlyArray<FileResult>, which: "exact" | "lenient" = "exact") => {
  const each = rs.flatMap((r) => {
    const a = r[which]
    return a === undefined ? [] : [a.either === 0 ? 1 : a.identical / a.either]
  })
  return each.reduce((n, x) => n + x, 0) / Math.max(each.length, 1)
}
const percent = (x: number) => `${(100 * x).toFixed(1)}%`
const shown = (l: Line) => `${l.part}!${l.loc} ${JSON.stringify(l.text.length > 80 ? `${l.text.slice(0, 80)}…` : l.text)}${l.forms === undefined ? "" : ` [${l.forms}]`}`

/** The report: per kind the files and lines, then per file that differs its first differences of each side. */
function report(results: ReadonlyArray<FileResult>, seconds: { convert: number; read: number }): string {
  const out = [`OpenDocument: the plain reader against LibreOffice's round trip, ${results.length} files sampled (conversion to OpenDocument ${seconds.convert.toFixed(1)} s, both readings ${seconds.read.toFixed(1)} s)`]
  out.push("kind | files | lines identical / in either | only plain | only LibreOffice | mean of the files | numbers and spacing aside: pooled, mean of the files")
  for (const kind of [...kinds, undefined]) {
    const rs = results.filter((r) => (kind === undefined || r.kind === kind) && r.exact !== undefined)
    out.push(
      `${kind?.odf ?? "all"} | ${rs.length} | ${sumOf(rs, (a) => a.identical)} / ${sumOf(rs, (a) => a.either)} (${percent(pooled(rs))}) | ` +
        `${sumOf(rs, (a) => a.onlyPlain.length)} | ${sumOf(rs, (a) => a.onlyOffice.length)} | ${percent(perFile(rs))} | ${percent(pooled(rs, "lenient"))}, ${percent(perFile(rs, "lenient"))}`
    )
  }
  const expected = results.reduce((n, r) => n + (r.expected?.foundByOffice ?? 0), 0)
  const missed = results.reduce((n, r) => n + (r.expected?.missed.length ?? 0), 0)
  out.push(`MANIFEST expected strings the LibreOffice path finds: ${expected}, of them the plain reader misses ${missed}`)
  for (const r of results.filter((x) => x.skipped !== undefined || x.plainFailure !== undefined)) out.push(`not compared: ${r.row.path}: ${r.skipped ?? `the plain reader failed: ${r.plainFailure}`}`)
  for (const r of results) {
    const a = r.exact
    if (a === undefined || a.identical === a.either) continue
    out.push(`${r.row.path}: ${a.identical} / ${a.either}`)
    for (const l of a.onlyPlain.slice(0, 3)) out.push(`    plain       ${shown(l)}`)
    for (const l of a.onlyOffice.slice(0, 3)) out.push(`    LibreOffice ${shown(l)}`)
  }
  return out.join("\n")
}

describe.skipIf(!haveSoffice || !haveCorpus)("OpenDocument files: the plain reader against LibreOffice (W3)", () => {
  it("reads every ods, odt and odp LibreOffice writes, finds what LibreOffice's round trip finds, and mostly gives the same lines", async ({ signal }) => {
    const sample = sampleOf(readManifest())
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-odf-agreement-"))
    try {
      const started = performance.now()
      const inputs = sample.map(({ row, kind }, n) => {
        // Plain ASCII names: no two corpus files collide, and LibreOffice meets no locale surprise.
        const input = path.join(home, "in", kind.ooxml, `${n}.${kind.ooxml}`)
        fs.mkdirSync(path.dirname(input), { recursive: true })
        fs.copyFileSync(path.join(corpusDir, row.path), input)
        return { row, kind, input, odf: path.join(home, "odf", `${n}.${kind.odf}`) }
      })
      for (const kind of kinds) {
        const mine = inputs.filter((f) => f.kind === kind).map((f) => f.input)
        if (mine.length > 0) await convertAll(mine, kind.odf, path.join(home, "odf"), path.join(home, "profile"), signal)
      }
      const converted = performance.now()
      const results = await Effect.runPromise(readBoth(inputs, path.join(home, "area")), { signal })
      console.log(report(results, { convert: (converted - started) / 1000, read: (performance.now() - converted) / 1000 }))

      // A real sample of every kind was compared (LibreOffice converts all but the encrypted and damaged rows).
      for (const kind of kinds) expect(results.filter((r) => r.kind === kind && r.exact !== undefined).length, kind.odf).toBeGreaterThanOrEqual(kind.take - 2)
      // (ii) The plain reader reads every file LibreOffice wrote.
      expect(results.filter((r) => r.plainFailure !== undefined).map((r) => `${r.row.path}: ${r.plainFailure}`)).toEqual([])
      // (i) Every expected string the LibreOffice path finds, the plain reader finds too.
      expect(results.flatMap((r) => (r.expected?.missed ?? []).map((s) => `${r.row.path}: ${s}`))).toEqual([])
      // (iii) Agreement floors, a file's worth or more below what this sample gave here (LibreOffice 7.4.7): lines
      // identical, the mean of the files (ods 80.5%, odt 80.9%, odp 96.8%; pooled 54.3%, 25.9%, 98.9% — the padding
      // spaces of one large workbook and one long document's shifted paragraph numbers outweigh the rest there), and
      // paragraph numbers and spacing aside, pooled (ods 99.8%, odt 98.4%, odp 98.9%); over all 40 files 85.5% and 99.7%.
      // (Before the reader read cell links, user-defined properties and left soft hyphens and the notes page's
      // number out: mean of the files 79.7%, 72.7%, 87.8%, all 80.0%.)
      const floors = { ods: [0.74, 0.97], odt: [0.74, 0.95], odp: [0.9, 0.93] } as const
      for (const kind of kinds) {
        const rs = results.filter((r) => r.kind === kind)
        expect(perFile(rs), `${kind.odf}, lines identical, mean of the files`).toBeGreaterThan(floors[kind.odf][0])
        expect(pooled(rs, "lenient"), `${kind.odf}, numbers and spacing aside`).toBeGreaterThan(floors[kind.odf][1])
      }
      expect(perFile(results), "all, lines identical, mean of the files").toBeGreaterThan(0.8)
      expect(pooled(results, "lenient"), "all, numbers and spacing aside").toBeGreaterThan(0.97)
    } finally {
      fs.rmSync(home, { recursive: true, force: true })
    }
  }, 600_000)
})
