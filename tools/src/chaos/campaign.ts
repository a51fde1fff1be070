/**
 * The chaos campaign (issue 8): its parts, their sizes at the two scales
 * (`full` for `npm run chaos`, `ci` for `npm test`), and the report table.
 *
 * @module
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Tally, killAllChildren } from "./_harness.ts"
import { crashPart } from "./crash.ts"
import { concurrencyPart } from "./concurrency.ts"
import { environmentPart } from "./environment.ts"
import { hostilePart } from "./hostile.ts"
import { stopPart } from "./stop.ts"

/** The parts, in the order they run. */
export const partNames = ["crash", "stop", "concurrency", "environment", "hostile"] as const
export type PartName = (typeof partNames)[number]

/** `full`: the campaign of docs/reliability.md; `ci`: the reduced one inside `npm test`. */
export type Scale = "full" | "ci"

/** Options of {@link runCampaign}. */
export interface CampaignOptions {
  readonly seed: number
  readonly scale: Scale
  readonly only?: ReadonlyArray<PartName>
}

/** One part's outcome. */
export interface PartReport {
  readonly name: PartName
  readonly tally: Tally
  readonly ms: number
}

/** The campaign's outcome. */
export interface CampaignReport {
  readonly seed: number
  readonly scale: Scale
  readonly parts: ReadonlyArray<PartReport>
  readonly violations: number
  readonly ms: number
  readonly machine: string
}

/** Sizes of each part at each scale. */
export const sizes = {
  full: {
    crash: { kills: 200, chains: 2, tree: { good: 470, slow: 12, slowRows: 20_000, failing: 16, office: 4 } },
    stop: { stops: 100, tree: { good: 100, slow: 4, slowRows: 20_000, failing: 6, office: 2 } },
    concurrency: { rounds: 50 },
    environment: { repeats: 3 },
    hostile: { rssBoundMiB: 1024 }
  },
  ci: {
    crash: { kills: 30, chains: 2, tree: { good: 60, slow: 3, slowRows: 20_000, failing: 8, office: 2 } },
    stop: { stops: 10, tree: { good: 40, slow: 2, slowRows: 20_000, failing: 4, office: 2 } },
    concurrency: { rounds: 5 },
    environment: { repeats: 1 },
    hostile: { rssBoundMiB: 1024 }
  }
} as const

/** Runs the campaign's parts in a temporary folder (removed at the end) and returns the report. */
export async function runCampaign(options: CampaignOptions): Promise<CampaignReport> {
  const started = Date.now()
  const base = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-chaos-"))
  // Readable by others: the permission scenarios run `sagasu` as nobody inside it.
  fs.chmodSync(base, 0o755)
  const size = sizes[options.scale]
  const parts: Array<PartReport> = []
  const wanted = (p: PartName) => options.only === undefined || options.only.includes(p)
  try {
    for (const name of partNames) {
      if (!wanted(name)) continue
      const tally = new Tally()
      const partStarted = Date.now()
      const dir = path.join(base, name)
      fs.mkdirSync(dir, { recursive: true })
      console.log(`chaos: ${name} …`)
      try {
        switch (name) {
          case "crash":
            await crashPart({ base: dir, seed: options.seed, kills: size.crash.kills, chains: size.crash.chains, tree: { seed: options.seed, ...size.crash.tree } }, tally)
            break
          case "stop":
            await stopPart({ base: dir, seed: options.seed, stops: size.stop.stops, tree: { seed: options.seed + 100, ...size.stop.tree } }, tally)
            break
          case "concurrency":
            await concurrencyPart({ base: dir, seed: options.seed, rounds: size.concurrency.rounds, runners: 4 }, tally)
            break
          case "environment":
            await environmentPart({ base: dir, seed: options.seed, repeats: size.environment.repeats }, tally)
            break
          case "hostile":
            await hostilePart({ base: dir, seed: options.seed, rssBoundBytes: size.hostile.rssBoundMiB * 1024 * 1024 }, tally)
            break
        }
      } catch (e) {
        tally.check(`${name}: the part ran to its end`, false, () => (e instanceof Error ? e.stack ?? e.message : String(e)))
      }
      killAllChildren()
      parts.push({ name, tally, ms: Date.now() - partStarted })
      console.log(`chaos: ${name} done in ${Math.round((Date.now() - partStarted) / 1000)} s, ${tally.checks} checks, ${tally.violations.length} violations`)
    }
  } finally {
    killAllChildren()
    fs.rmSync(base, { recursive: true, force: true })
  }
  return {
    seed: options.seed,
    scale: options.scale,
    parts,
    violations: parts.reduce((n, p) => n + p.tally.violations.length, 0),
    ms: Date.now() - started,
    machine: `${os.type()} ${os.release()}, ${os.availableParallelism()} CPU(s), ${Math.round(os.totalmem() / 1024 ** 3)} GiB, Node.js ${process.version}`
  }
}

const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`

/** The report as the Markdown of docs/reliability.md. */
export function renderReport(report: CampaignReport): string {
  const lines: Array<string> = []
  lines.push(`## Campaign table (seed ${report.seed}, scale ${report.scale})`, "")
  lines.push(`Run: ${report.machine}; ${minutes(report.ms)} in all.`, "")
  lines.push("| part | injected fault | count | invariant checks | violations | time |", "|---|---|---:|---:|---:|---:|")
  for (const p of report.parts) {
    const faults = [...p.tally.faults]
    const first = faults.shift()
    lines.push(`| **${p.name}** | ${first?.[0] ?? "—"} | ${first?.[1] ?? 0} | ${p.tally.checks} | ${p.tally.violations.length} | ${minutes(p.ms)} |`)
    for (const [kind, n] of faults) lines.push(`| | ${kind} | ${n} | | | |`)
  }
  const faults = report.parts.reduce((n, p) => n + [...p.tally.faults.values()].reduce((a, b) => a + b, 0), 0)
  const checks = report.parts.reduce((n, p) => n + p.tally.checks, 0)
  lines.push(`| **total** | | ${faults} | ${checks} | ${report.violations} | ${minutes(report.ms)} |`, "")
  lines.push("### Invariants checked", "", "| part | invariant | checks |", "|---|---|---:|")
  for (const p of report.parts) for (const [kind, n] of p.tally.checksByKind) lines.push(`| ${p.name} | ${kind} | ${n} |`)
  lines.push("")
  const figures = report.parts.flatMap((p) => [...p.tally.figures])
  if (figures.length > 0) {
    lines.push("### Figures", "")
    for (const [k, v] of figures) lines.push(`- ${k}: ${v}`)
    lines.push("")
  }
  const violations = report.parts.flatMap((p) => p.tally.violations.map((v) => `- ${p.name}: ${v}`))
  lines.push("### Violations", "", ...(violations.length > 0 ? violations : ["None."]), "")
  return lines.join("\n")
}

/** The whole of docs/reliability.md: what is proved and how, then the table of one run, then the limits. */
export function reliabilityDocument(report: CampaignReport): string {
  return [
    "# Reliability: fault injection and hostile input",
    "",
    "Users trust an index only if it never lies and never loses work. This page makes the guarantees of",
    "SPEC §1–§4 and the mechanisms table of ARCHITECTURE.md measurable. This page is written by `npm run chaos`;",
    `the table and figures are those of one run (seed ${report.seed}; \`npm run chaos -- --seed N\` reruns it with another seed);`,
    "`npm test` runs the reduced campaign (`tools/src/chaos/chaos.test.ts`, `--scale ci`).",
    "",
    "## What the campaign does",
    "",
    "| part | how the fault is injected | invariants checked |",
    "|---|---|---|",
    "| crash | `sagasu index` as a child process over a generated tree of ≥ 500 files (ordinary xlsx/docx/pptx, large sheets that take seconds, damaged and hostile files that fail, legacy files read through LibreOffice), killed with SIGKILL at seeded moments: timed from the start (before the lock), from the lock over recovery, crawl, ingest, publish and the finally step; exactly at the test-only crash points (`SAGASU_CRASH_POINT`: after `start` is journaled, before a result's row, between the two renames of a publish, before `published` is journaled, before the ingest list is rewritten); and at a seeded file operation inside the 2-gram update (`tools/src/chaos/fault_preload.cjs`). Runs are restarted until one completes; a completed run gets work again (a seeded half of the files touched). Two work folders are killed at once. | after every kill: no body-index folder partial or foreign (each equals the clean run's or is absent, C2); no `done` row lost (C1); the lock is free (R3); files in flight at a kill come last in the next run (C1). After every completed run and at the end: body index, ingest list (status and reason per file) and the answers to probe and frequent-word searches (through the 2-gram index) equal a clean uninterrupted run's; no process of a killed run is left |",
    "| stop | `requestStop` on the channel (what ［中止］ and the first Ctrl+C do) at seeded moments: right at the start, as the n-th file is handed to a worker, or at a time within the run; the run is in-process with the real workers (worker threads and the LibreOffice owners) and the 2-gram update | exit code 2 and the closing message; the wait from the stop to the exit within the in-flight plain files' own time (×1.5 + 2.5 s for the finally step); Office conversions in flight ended within 3 s; nothing handed to a worker after the stop; nothing partial published and nothing of a file the stop left pending; no file recorded wrongly; the next run completes to the clean run's state |",
    "| concurrency | four `sagasu index` started at the same moment on one work folder, each round, two of them through a symbolic link to it | exactly one runs; the others exit 1 with ほかのインデックス作成が実行中です。インデックス作成が終わってから実行してください。, print no log header, and leave the log alone (`indexing_log_previous.txt` is byte for byte the log from before the round, `indexing_log.txt` is the winner's); the lock is free afterwards |",
    "| environment | the target folder renamed away after a few results, then back; files deleted, truncated and rewritten with other content while the run reads; files and a folder without read permission and a work folder that cannot be written, with `sagasu` run as `nobody` (root reads everything); a FIFO in the tree, and a file replaced by a FIFO after the crawl; the work folder on a small tmpfs that fills up (an injected ENOSPC where mounting is not allowed); the same tmpfs filled by another program the moment LibreOffice starts on a legacy file | exit 1 naming the lost folder, unfinished files pending, renamed back the next run completes; no crash, two runs later equal to a clean run over the files as they are; unreadable files fail as `unreadable` (permission denied), an unreadable folder is logged and its files keep their rows and body index, permissions back the next run (without `--retry-failed`: an unreadable file is the environment's failure) equals a clean run; the work folder error exits 1 and writes nothing; the crawl never blocks on a FIFO and the run never hangs; a full disk ends the run with exit 1 and a message saying so, no file is failed for it (LibreOffice's failures on the full disk included), the previous index still answers the same searches, with space again the next run — without `--retry-failed` — equals a clean run |",
    "| hostile | one `sagasu index` over ≥ 200 generated files: truncated zips, bad CRC, damaged deflate data, ZIP64 and data descriptors, other formats behind Office names, empty and encrypted files, zip bombs (1 GiB parts, lying sizes, 300 sheets, 20,000 entries), zip-slip names and relationships pointing outside, entity expansion and external entities in every kind of part, nesting 200,000 deep, whole-sheet ranges, out-of-range indexes, NaN and infinities, a 3,000,000-character cell, 60,000 paragraphs, 1,000 slides, invalid UTF-8, UTF-16 (LE, BE, odd length, lone surrogates), Shift_JIS, control characters, hostile sheet names, NFD and NFC twins, emoji, 255-byte names, tabs, newlines and backslashes in names, paths near PATH_MAX (one whose body-index path passes it), undecodable name bytes, links out of the tree, loops, dangling links, hard links, a FIFO, a sparse 2 GB file | the run completes (exit 0) with no unexpected error; every file ends `done` with its text, `failed` with a specific reason (the extractor's and the Office owners' closed lists), or skipped with the reason logged; nothing outside a package is read (no /etc/passwd text), nothing is written outside the work folder; peak resident memory under the stated bound; a second run finds nothing left to do |",
    "",
    renderReport(report).replace(/^## /m, "## "),
    "## Violations found on the way, and their fixes",
    "",
    "Each was found by this campaign, fixed at its cause, and has a regression test besides the campaign itself.",
    "",
    "| found by | violation | fix | regression test |",
    "|---|---|---|---|",
    "| crash | A LibreOffice started by a run killed with SIGKILL kept running (detached, its own process group). The next run's LibreOffice with the same profile forwarded to it and exited, so every file needing Office failed with `office-start-failed` — for good, failed files are not retried — and the orphans piled up. | `libs/store/src/leftover_processes.ts`: after taking the lock, the run ends (SIGKILL, by pid) every process whose command line names this work folder's LibreOffice profile area, and logs it (`run_indexer.ts`, R7 step). | `libs/store/src/leftover_processes.test.ts`; `libs/ingest/src/run_indexer_faults.test.ts` (C1, W3) |",
    "| environment | A file replaced by a FIFO after the crawl was handed to a worker, whose `open()` blocked a libuv thread for good: the file timed out, but the run could not end its worker thread and hung until the FIFO got a writer. | R13 in `run_indexer.ts`: before handing a file over, the commander checks it is still a regular file; one that is not is treated like a vanished file (as the crawl would). | `run_indexer_faults.test.ts` (R13, §5) |",
    "| environment | Files under a folder the crawl could not read (permission denied, a dangling link) were decided *vanished*: their rows and body-index folders were removed, and their text was no longer found. | R8 in `run_indexer.ts`: rows under an entry the crawl logged as `unreadable` are kept exactly as they were, like the files of a folder whose crawl was stopped. | `run_indexer_faults.test.ts` (R8) |",
    "| environment | With the work folder's disk full, the file being staged was recorded `failed` (`unreadable: the TSVs could not be written…`) — for good — and the run went on; the run's final message was a bare `FileSystem.writeAll (25): ENOSPC`. | R18 in `run_indexer.ts`: a result whose TSVs could not be written (`stagingWriteFailure`, `libs/store/src/body_index.ts`) is the work folder's fault: nothing more is handed over, the file stays pending, the run ends with exit 1 and `The disk of the work folder is full: free some space and start indexing again; …`. | `run_indexer_faults.test.ts` (R18) |",
    "| issue 15 (an outside campaign) | `sagasu index --work W` and `--work L`, `L` a symbolic link to `W`, started together: both ran (the lock was named after the path as typed), shared one LibreOffice profile, lost a log. | R3: the lock is named after the work folder's device and inode (`lock.ts`), and every path of a run is the folder's real path (`checkWorkFolder`), so profiles and the leftover marker have one spelling; a leftover is also recognised by its profile folder's inode (`leftover_processes.ts`). | `tools/src/work_lock.test.ts`; `libs/store/src/run_store.test.ts`, `leftover_processes.test.ts` |",
    "| issue 15 | With the work folder's disk full, LibreOffice failed in ways that blamed the file (`office-start-failed … insufficient free disk space`, `conversion-failed … Class:Space`, `corrupt`), those files were recorded `failed` and not retried. | R18: `work_area_space.ts` — a file is not handed to LibreOffice with too little room, and an Office failure that says the disk was full (or comes with it nearly full) is a `work-folder` failure: the run's error, the file stays pending (`decideOnResult` → `WorkFolderFailed`). Failures of the environment (`unreadable`, `office-missing`, `office-start-failed`) are retried by the next run without `--retry-failed` (`failure_reason.ts`). | `libs/ingest/src/run_indexer_faults.test.ts` (a real tmpfs), `work_area_space.test.ts`, `libs/domain/src/failure_reason.test.ts` |",
    "| crash (reduced, in `npm test`) | After completed runs, searches through the 2-gram index found some files' lines twice (or, without an older version, lost them): a round killed between two flushes of one file had left its first pieces live under the folder's fingerprint, and the next round kept them beside a whole new reading (or took them for the whole file). | S1: a file counts as live only when its pieces hold every body line of its TSVs exactly once (`piecesCoverFolder`, `gram/body_walk.ts`); otherwise the round reads it again and its leftover pieces go with the older versions; the update's walk checks the same for files spanning segments. | `libs/store/src/gram/round.test.ts` 'S1: a file a round was still reading when killed …' |",
    "| environment (reduced, in `npm test`) | Target folder renamed away mid-run: two files queued ahead in a plain worker (issue 20) were read after the folder had gone and recorded `failed unreadable`. | R13: a file that fails while its target folder is gone is `TargetLost` (`decideOnResult`): it stays pending, nothing more is handed over, the run ends naming the folder. | `libs/domain/src/run_decisions.test.ts` ('… with the target folder gone …') |",
    "| hostile | A file whose body-index path passes PATH_MAX got a `done` row, then its publish failed with ENAMETOOLONG and ended the run with exit 1 — and every later run too (its staged folder was recovered first and failed again): the whole index was stuck. | C2 in `run_indexer.ts`: a done result whose body-index paths the system cannot hold is recorded `failed` with the reason (`path-too-long: its body-index path would be N bytes, more than this system allows (4095); …`); R7: a staged folder that cannot be published is carried over and ingested again, as the spec says, instead of failing the run. | `run_indexer_faults.test.ts` (C2, R7) |",
    "",
    "## Limits",
    "",
    "- **Timing.** Kill and stop moments are seeded, but where a moment lands depends on the machine's speed and load: the same seed covers the same kinds of moments, not byte-identical runs. Each run's table says how many kills fell in each phase.",
    "- **Permissions** are tested with `sagasu` run as `nobody` through `setpriv` (root ignores file modes). Without root or setpriv the scenario is skipped and says so.",
    "- **Disk full** uses a tmpfs mounted under the work folder (root only); elsewhere ENOSPC is injected into the file operations under the work folder (`fault_preload.cjs`), which does not reproduce a file system's partial writes.",
    "- **2-gram update.** The 2-gram code has no crash point of its own; kills inside it are placed at its file operations by the preload (`SAGASU_CHAOS_KILL_AT`).",
    "- **FIFO race.** The R13 check closes the window between the crawl and the dispatch; a file swapped for a FIFO in the milliseconds between the check and the worker's `open()` would still block that worker (the reader should open with O_NONBLOCK, `libs/ingest/src/extract/_read_file.ts`).",
    "- **Power loss** is modelled by SIGKILL: what the operating system had not written to the disk is not lost in these runs. The store fsyncs its atomic replacements; appended rows are not fsynced (a torn last line is ignored by the reader).",
    "- **The lock** is an abstract Unix socket per network namespace (ARCHITECTURE.md); runs in two namespaces are not tested.",
    "- **Leftover LibreOffice** processes are found through `/proc` (Linux); on other systems a killed run's LibreOffice is not ended by the next run.",
    ""
  ].join("\n")
}
