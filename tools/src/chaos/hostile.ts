/**
 * Hostile input (issue 8; SPEC §5 names, W1, R18): one `sagasu index` over
 * the generated hostile set. The run must complete (exit 0, no unexpected
 * error), every file must end as its expectation says — `done` with its
 * text, `failed` with a specific reason, or skipped with the reason logged —
 * nothing outside the package may be read or written, the run's peak
 * resident memory must stay under the stated bound, and a second run must
 * find nothing left to do.
 *
 * @module
 */
import { formatFailureText, parseBodyTsv } from "@sagasu/domain"
import { bodyFolderOf, workPaths } from "@sagasu/store"
import * as fs from "node:fs"
import * as path from "node:path"
import { type Tally, ingestRows, makeWork, peakRss, rssOfProcesses, startIndex } from "./_harness.ts"
import { type HostileFile, makeHostileTree, specificReasons } from "./_hostile_files.ts"

/** Options of {@link hostilePart}. */
export interface HostileOptions {
  readonly base: string
  readonly seed: number
  /** The stated bound of the run's peak resident memory (the node process with its worker threads). */
  readonly rssBoundBytes: number
}

const MiB = 1024 * 1024

/** Runs the hostile part into `tally`. */
export async function hostilePart(options: HostileOptions, tally: Tally): Promise<void> {
  const tree = path.join(options.base, "tree")
  const files = await makeHostileTree(tree, options.seed)
  for (const f of files) tally.fault(`hostile: ${f.kind}`)
  tally.note(`hostile: ${files.length} files`)
  const work = await makeWork(path.join(options.base, "work"), { hostile: tree })

  const child = startIndex(work)
  let peak = 0
  let officePeak = 0
  const poll = setInterval(() => {
    if (child.child.pid !== undefined) peak = Math.max(peak, peakRss(child.child.pid))
    officePeak = Math.max(officePeak, rssOfProcesses(path.join(work, "tmp", "office")))
  }, 50)
  const hang = setTimeout(() => child.child.kill("SIGKILL"), 20 * 60_000)
  const exit = await child.exited
  clearInterval(poll)
  clearTimeout(hang)
  const out = child.out()
  tally.check("hostile: the run completes (exit 0), the process never crashes", exit.code === 0, () => `exit ${exit.code} ${exit.signal ?? ""}: ${out.slice(-800)}`)
  tally.check("hostile: no unexpected error", !/Unexpected error|予期しないエラー|RangeError|Maximum call stack/.test(out), () => out.match(/.*(Unexpected error|予期しないエラー|RangeError|Maximum call stack).*/)?.[0] ?? "")
  tally.check(`hostile: peak RSS under ${options.rssBoundBytes / MiB} MiB`, peak > 0 && peak < options.rssBoundBytes, () => `peak ${Math.round(peak / MiB)} MiB`)
  tally.figures.set("hostile: peak RSS", `${Math.round(peak / MiB)} MiB for the Sagasu process (bound ${options.rssBoundBytes / MiB} MiB), ${Math.round(officePeak / MiB)} MiB for its LibreOffice processes; run ${(exit.ms / 1000).toFixed(1)} s for ${files.length} files`)

  const paths = workPaths(work)
  const rows = await ingestRows(work)
  const log = fs.readFileSync(paths.log, "utf8")
  const counts = { done: 0, failed: 0, skipped: 0 }
  for (const f of files) {
    const row = rows.get(`hostile/${f.path}`)
    const status = row?.status ?? "no row"
    const failure = row?.status === "failed" ? row.failure : undefined
    const specific = failure !== undefined && failure.detail !== "" && specificReasons.includes(failure.reason)
    const texts = row?.status === "done" ? textsOf(bodyFolderOf(paths, "hostile", f.path)) : ""
    const hasTexts = (want: ReadonlyArray<string>) => want.every((t) => texts.includes(t))
    const what = `${f.path.slice(0, 120)} (${f.kind}): ${status} ${failure === undefined ? "" : formatFailureText(failure).slice(0, 200)}`
    if (row?.status === "done") counts.done++
    if (row?.status === "failed") counts.failed++
    switch (f.expect._tag) {
      case "done":
        tally.check("hostile: ends done with the right text", row?.status === "done" && hasTexts(f.expect.texts), () => `${what}; want the text ${JSON.stringify(f.expect._tag === "done" ? f.expect.texts : [])}`)
        break
      case "failed": {
        const reasons = f.expect.reasons
        const ok = specific && (reasons.includes("*") || reasons.includes(failure.reason))
        tally.check("hostile: ends failed with a specific reason", ok, () => `${what}; want ${reasons.join("|")}`)
        break
      }
      case "either": {
        const want = f.expect.texts
        if (process.env.SAGASU_CHAOS_DEBUG !== undefined) console.log(`  either: ${what} texts ${JSON.stringify(texts.slice(0, 80))}`)
        tally.check("hostile: ends done with the right text or failed with a specific reason", (row?.status === "done" && hasTexts(want)) || specific, () => `${what}; want done with ${JSON.stringify(want)} or a specific failure`)
        break
      }
      case "skipped": {
        counts.skipped++
        const pattern = f.expect.logPattern
        tally.check("hostile: skipped by the crawl with the reason logged", row === undefined && pattern.test(log), () => `${what}; want no row and a log line ${pattern}`)
        break
      }
    }
  }
  tally.figures.set("hostile: outcome", `${counts.done} done, ${counts.failed} failed with a specific reason, ${counts.skipped} skipped with the reason logged`)

  // Nothing read from outside the package, nothing written outside the work folder.
  const allText = allTsvText(paths.index)
  tally.check("hostile: no file outside the package was read (no /etc/passwd text)", !/root:x?:0:0/.test(allText), () => "the body index holds /etc/passwd text")
  const slipped = [`/tmp/sagasu-chaos-slip-${options.seed}.xml`, `/tmp/sagasu-chaos-slip-${options.seed}-abs.xml`].filter((p) => fs.existsSync(p))
  tally.check("hostile: no zip entry was written outside (zip slip)", slipped.length === 0, () => slipped.join(", "))

  // Nothing is left pending: a second run has nothing to do.
  const again = startIndex(work)
  const second = await again.exited
  tally.check("hostile: a second run completes with nothing left to do", second.code === 0 && /取り込みが必要なファイルはありません|クラウドにだけあるファイルは、ダウンロードせずに残しました/.test(again.out()) && !/^\[\d+\/\d+\]/m.test(again.out()), () => `exit ${second.code}: ${again.out().slice(-500)}`)
}

function textsOf(folder: string): string {
  if (!fs.existsSync(folder)) return ""
  return fs
    .readdirSync(folder)
    .filter((n) => n.endsWith(".tsv"))
    .map((n) => parseBodyTsv(fs.readFileSync(path.join(folder, n), "utf8")).lines.map((l) => l.text).join("\n"))
    .join("\n")
}

function allTsvText(root: string): string {
  let text = ""
  for (const e of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (e.isFile() && e.name.endsWith(".tsv")) text += fs.readFileSync(path.join(e.parentPath, e.name), "utf8")
  }
  return text
}

export type { HostileFile }
