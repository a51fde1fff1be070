/**
 * What the agreement tests of a plain reader against the LibreOffice path it
 * replaced share (`odf_agreement.test.ts`, `rtf_agreement.test.ts`, W3,
 * issue 20): one `soffice --convert-to` call that writes the sample in the
 * format under test, each written file read twice — by `extractFile` (the
 * plain reader) and by the run's Office owners with `convertReadable` (what
 * Sagasu did before: LibreOffice converts it to OOXML and the OOXML reader
 * reads that) — the two readings compared as sets of lines, and the report's
 * figures and differences.
 *
 * @module
 */
import { NodeContext } from "@effect/platform-node"
import { type AppKind, type Extraction, normalizeForSearch } from "@sagasu/domain"
import { extractFile, makeOfficeOwners } from "@sagasu/ingest"
import { Cause, Effect, Exit } from "effect"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import { pathToFileURL } from "node:url"
import type { ManifestRow } from "./corpus.ts"

/** Whether `soffice` runs here (the agreement tests skip without it). */
export const haveSoffice = spawnSync("soffice", ["--version"], { encoding: "utf8" }).status === 0

/**
 * One `soffice --convert-to` call for all `inputs` (one start for many
 * files), in the profile `profile`; resolves when LibreOffice exits, whatever
 * it could convert. Spawned in a process group of its own, which `signal`
 * (the test's end) kills.
 */
export function convertAll(inputs: ReadonlyArray<string>, to: string, outDir: string, profile: string, signal: AbortSignal): Promise<void> {
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
export interface Line {
  readonly part: string
  readonly loc: string
  readonly text: string
  readonly forms: string | undefined
  readonly numbered: boolean
}

export const linesOf = (x: Extraction): Array<Line> =>
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
export interface Agreement {
  readonly identical: number
  /** Lines in either reading (identical + only plain + only LibreOffice). */
  readonly either: number
  readonly onlyPlain: ReadonlyArray<Line>
  readonly onlyOffice: ReadonlyArray<Line>
}

/** `key` of a line: what must be equal for two lines to count as identical (`undefined`: the line is left out). */
export function compare(plain: ReadonlyArray<Line>, office: ReadonlyArray<Line>, key: (l: Line) => string | undefined): Agreement {
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

/** Part (and its state), loc, text and forms equal. */
export const exact = (l: Line) => JSON.stringify([l.part, l.loc, l.text, l.forms ?? ""])
/**
 * Paragraph numbers and spacing aside (runs of white space as one space,
 * none at the ends, lines of only spaces left out): tells text that differs
 * from the same text numbered or padded differently, which a search does not see.
 */
export const lenient = (l: Line) => {
  const text = l.text.replace(/\s+/g, " ").trim()
  return text === "" ? undefined : JSON.stringify([l.part, l.numbered ? "¶" : l.loc, text, l.forms ?? ""])
}

/** Everything a search can match in a reading — each line's text and forms — normalised as the search normalises. */
export const searchable = (lines: ReadonlyArray<Line>) => normalizeForSearch(lines.map((l) => (l.forms === undefined ? l.text : `${l.text} ${l.forms}`)).join("\n"))

/** A file to read both ways: the sample's `row` (its path and expected strings), the Office owner that reads it, and the file in the format under test. */
export interface RoundTrip {
  readonly row: ManifestRow
  readonly app: AppKind
  /** The file LibreOffice wrote (absent when it wrote none). */
  readonly file: string
  /** Its format, for the report (`odt`, `rtf`). */
  readonly format: string
}

/** One file's readings (with the {@link RoundTrip} it came from). */
export type FileResult<T extends RoundTrip> = T & {
  /** Why there is no comparison: LibreOffice wrote no file, or could not convert it back. */
  readonly skipped?: string
  /** The plain reader's failure (an ExtractError's reason and detail, or the defect). */
  readonly plainFailure?: string
  readonly exact?: Agreement
  readonly lenient?: Agreement
  /** The expected strings of the row the LibreOffice path finds, and those of them the plain reader does not. */
  readonly expected?: { readonly foundByOffice: number; readonly missed: ReadonlyArray<string> }
}

export const failureText = (cause: Cause.Cause<unknown>): string => {
  const e = Cause.failureOption(cause)
  if (e._tag === "Some" && typeof e.value === "object" && e.value !== null && "reason" in e.value && "detail" in e.value) return `${String(e.value.reason)}: ${String(e.value.detail)}`
  return Cause.pretty(cause).split("\n")[0] ?? "unknown"
}

/**
 * Reads every file both ways: the plain reader, and the run's Office owners
 * (one LibreOffice, handed from kind to kind) converting it to OOXML.
 */
export const readBoth = <T extends RoundTrip>(files: ReadonlyArray<T>, workArea: string) =>
  Effect.scoped(
    Effect.gen(function* () {
      const owners = yield* makeOfficeOwners({ workArea, convertReadable: true })
      const results: Array<FileResult<T>> = []
      for (const f of files) {
        if (!fs.existsSync(f.file)) {
          results.push({ ...f, skipped: `LibreOffice wrote no ${f.format}` })
          continue
        }
        const plain = yield* Effect.exit(extractFile(f.file))
        const office = yield* Effect.exit(owners[f.app].ingest(f.file))
        if (Exit.isFailure(plain)) {
          results.push({ ...f, plainFailure: failureText(plain.cause) })
          continue
        }
        if (Exit.isFailure(office)) {
          results.push({ ...f, skipped: `LibreOffice could not convert its ${f.format} back: ${failureText(office.cause)}` })
          continue
        }
        const p = linesOf(plain.value)
        const o = linesOf(office.value.extraction)
        const [hp, ho] = [searchable(p), searchable(o)]
        const foundByOffice = f.row.expected.filter((s) => ho.includes(normalizeForSearch(s)))
        const missed = foundByOffice.filter((s) => !hp.includes(normalizeForSearch(s)))
        results.push({ ...f, exact: compare(p, o, exact), lenient: compare(p, o, lenient), expected: { foundByOffice: foundByOffice.length, missed } })
      }
      return results
    })
  ).pipe(Effect.provide(NodeContext.layer))

type Results = ReadonlyArray<FileResult<RoundTrip>>

export const sumOf = (rs: Results, f: (a: Agreement) => number, which: "exact" | "lenient" = "exact") => rs.reduce((n, r) => n + (r[which] === undefined ? 0 : f(r[which])), 0)
/** Lines identical over lines in either, the files' lines pooled. */
export const pooled = (rs: Results, which: "exact" | "lenient" = "exact") => sumOf(rs, (a) => a.identical, which) / Math.max(sumOf(rs, (a) => a.either, which), 1)
/** The mean of the files' agreements: a large file weighs as much as a small one. */
export const perFile = (rs: Results, which: "exact" | "lenient" = "exact") => {
  const each = rs.flatMap((r) => {
    const a = r[which]
    return a === undefined ? [] : [a.either === 0 ? 1 : a.identical / a.either]
  })
  return each.reduce((n, x) => n + x, 0) / Math.max(each.length, 1)
}
export const percent = (x: number) => `${(100 * x).toFixed(1)}%`
export const shown = (l: Line) => `${l.part}!${l.loc} ${JSON.stringify(l.text.length > 80 ? `${l.text.slice(0, 80)}…` : l.text)}${l.forms === undefined ? "" : ` [${l.forms}]`}`

/** The report's table heading, for {@link agreementRow}. */
export const agreementHeading = "kind | files | lines identical / in either | only plain | only LibreOffice | mean of the files | numbers and spacing aside: pooled, mean of the files"

/** One row of the report's table: `label`'s compared files and lines. */
export function agreementRow(label: string, results: Results): string {
  const rs = results.filter((r) => r.exact !== undefined)
  return (
    `${label} | ${rs.length} | ${sumOf(rs, (a) => a.identical)} / ${sumOf(rs, (a) => a.either)} (${percent(pooled(rs))}) | ` +
    `${sumOf(rs, (a) => a.onlyPlain.length)} | ${sumOf(rs, (a) => a.onlyOffice.length)} | ${percent(perFile(rs))} | ${percent(pooled(rs, "lenient"))}, ${percent(perFile(rs, "lenient"))}`
  )
}

/** The rest of the report: the expected strings, the files not compared, then per file that differs its first `shownPerSide` differences of each side. */
export function differences(results: Results, shownPerSide = 3): Array<string> {
  const expected = results.reduce((n, r) => n + (r.expected?.foundByOffice ?? 0), 0)
  const missed = results.reduce((n, r) => n + (r.expected?.missed.length ?? 0), 0)
  const out = [`MANIFEST expected strings the LibreOffice path finds: ${expected}, of them the plain reader misses ${missed}`]
  for (const r of results) for (const s of r.expected?.missed ?? []) out.push(`  missed: ${r.row.path}: ${JSON.stringify(s)}`)
  for (const r of results.filter((x) => x.skipped !== undefined || x.plainFailure !== undefined)) out.push(`not compared: ${r.row.path}: ${r.skipped ?? `the plain reader failed: ${r.plainFailure}`}`)
  for (const r of results) {
    const a = r.exact
    if (a === undefined || a.identical === a.either) continue
    out.push(`${r.row.path}: ${a.identical} / ${a.either}`)
    for (const l of a.onlyPlain.slice(0, shownPerSide)) out.push(`    plain       ${shown(l)}`)
    for (const l of a.onlyOffice.slice(0, shownPerSide)) out.push(`    LibreOffice ${shown(l)}`)
  }
  return out
}
