/**
 * Stop (W5, R14, R15, R17): the run is stopped through the channel
 * (`requestStop`, what the GUI's ［中止］ and the CLI's first Ctrl+C do) at
 * seeded moments. Each stopped run must end with exit code 2 within the time
 * of the plain files in flight (Office conversions are cut at once), hand
 * nothing to a worker after the stop, publish nothing partial and nothing of
 * a stopped file, and the next run must complete to the clean run's state.
 *
 * @module
 */
import { seededRandom } from "@sagasu/domain"
import * as fs from "node:fs"
import * as path from "node:path"
import {
  checkEndState,
  type Tally,
  ingestRows,
  makeWork,
  rowStates,
  searchAnswers,
  snapshot,
  snapshotDiff,
  touch
} from "./_harness.ts"
import { runInProcess } from "./_in_process.ts"
import { type MixedTreeOptions, makeMixedTree } from "./_mixed_tree.ts"

/** Options of {@link stopPart}. */
export interface StopOptions {
  readonly base: string
  readonly seed: number
  readonly stops: number
  readonly tree: MixedTreeOptions
}

/** Slack on top of the in-flight files' own time: the finally step (publish, rewrite the list), ending Office. */
const slackMs = 2500

/** Runs the stop part into `tally`. */
export async function stopPart(options: StopOptions, tally: Tally): Promise<void> {
  const started = Date.now()
  const tree = await makeMixedTree(path.join(options.base, "tree"), options.tree)
  const clean = await makeWork(path.join(options.base, "clean"), { tree: tree.root })
  const cleanRun = await runInProcess(clean)
  if (cleanRun.code !== 0) throw new Error(`the clean run failed: ${cleanRun.error}`)
  const reference = snapshot(clean)
  const referenceRows = rowStates(await ingestRows(clean))
  const referenceSearch = (await searchAnswers(clean, tree.queries)).answers
  // What each file costs when nothing else happens: the bound of a stop's wait (W5).
  const duration = new Map(cleanRun.events.map((e) => [e.key, (e.end ?? e.start) - e.start]))
  const slowest = Math.max(...duration.values())
  tally.note(`stop: ${tree.files.length} files; clean run ${cleanRun.ended - cleanRun.started} ms, slowest file ${slowest} ms`)

  const work = await makeWork(path.join(options.base, "stopped"), { tree: tree.root })
  const rand = seededRandom(options.seed + 7)
  let stops = 0
  let expectedMs = cleanRun.ended - cleanRun.started
  let expectedTargets = tree.files.length
  const waits: Array<number> = []
  for (let round = 0; stops < options.stops && round < options.stops * 3; round++) {
    // A stop at a seeded moment: right at the start (recovery, crawl), as the n-th file is handed
    // to a worker, or at a moment within the run's expected time.
    const r = rand()
    const run =
      r < 0.15
        ? await runInProcess(work, { stopAfterMs: Math.floor(rand() * 150) })
        : r < 0.75
          ? await runInProcess(work, { stopWhen: ((nth) => (events) => events.length >= nth)(1 + Math.floor(rand() * expectedTargets)) })
          : await runInProcess(work, { stopAfterMs: Math.floor(rand() * expectedMs) })
    if (run.code === 0) {
      // The run got through before the stop, or the stop came after the last file (nothing left to stop).
      await compare("a run that ended before its stop")
      touchSome()
      continue
    }
    if (run.code !== 2 || run.stoppedAt === undefined) {
      tally.check("W5: a stopped run ends with exit code 2", false, () => `round ${round}: exit ${run.code} ${run.error}`)
      continue
    }
    stops++
    const stopAt = run.stoppedAt
    const inFlight = run.events.filter((e) => e.start <= stopAt && (e.end === undefined || e.end > stopAt))
    const plainInFlight = inFlight.filter((e) => e.kind === "plain")
    const officeInFlight = inFlight.filter((e) => e.kind !== "plain")
    tally.fault(`stop in phase ${run.phaseAtStop}${run.phaseAtStop !== "ingest" ? "" : plainInFlight.length > 0 ? `, plain files in flight${officeInFlight.length > 0 ? " and an Office conversion" : ""}` : officeInFlight.length > 0 ? ", only an Office conversion in flight" : ", nothing in flight"}`)
    tally.check("W5: a stopped run ends with exit code 2", run.code === 2, () => `round ${round}: exit ${run.code}`)
    tally.check("R17: the closing message says stopped", /中止しました/.test(run.closing), () => `round ${round}: ${run.closing}`)
    // W5: the wait is the in-flight plain files' own time; Office conversions are ended at once.
    const bound = Math.max(0, ...plainInFlight.map((e) => (duration.get(e.key) ?? slowest) * 1.5)) + slackMs
    const waited = run.ended - stopAt
    waits.push(waited)
    tally.check("W5: exit within the in-flight files' time", waited <= bound, () => `round ${round}: ${waited} ms after the stop, bound ${Math.round(bound)} ms (in flight: ${inFlight.map((e) => `${e.key} ${e.kind}`).join(", ")})`)
    for (const e of officeInFlight) {
      tally.check("W5: an Office conversion in flight is ended at once", (e.end ?? run.ended) - stopAt <= 3000, () => `round ${round}: ${e.key} ended ${(e.end ?? run.ended) - stopAt} ms after the stop`)
    }
    const late = run.events.filter((e) => e.start > stopAt + 50)
    tally.check("W5: nothing is handed to a worker after the stop", late.length === 0, () => `round ${round}: ${late.map((e) => e.key).join(", ")}`)
    // C2, W5: nothing partial published, and nothing of a file the stop left pending.
    const diff = snapshotDiff(snapshot(work), reference, { allowMissing: true })
    tally.check("C2: no partial body-index folder after a stop", diff.length === 0, () => `round ${round}: ${diff.join("; ")}`)
    const rows = await ingestRows(work)
    const pending = new Set([...rows].filter(([, r]) => r.status === "pending").map(([k]) => k))
    const publishedPending = publishedInJournal(work).filter((k) => pending.has(k))
    tally.check("W5: a stopped file's staged TSVs are never published", publishedPending.length === 0, () => `round ${round}: ${publishedPending.join(", ")}`)
    const wrong = [...rowStates(rows)].filter(([k, s]) => s !== "pending" && s !== referenceRows.get(k))
    tally.check("R14: a stop records no file as failed or done wrongly", wrong.length === 0, () => `round ${round}: ${wrong.slice(0, 5).map(([k, s]) => `${k} ${s}`).join(", ")}`)

    // The next run completes to the clean run's state.
    const next = await runInProcess(work)
    tally.check("the run after a stop completes (exit 0)", next.code === 0, () => `round ${round}: exit ${next.code} ${next.error}`)
    expectedMs = Math.max(500, next.ended - next.started + (run.ended - run.started))
    const t0 = Date.now()
    await compare(`after stop ${stops}`)
    if (process.env.SAGASU_CHAOS_DEBUG !== undefined) console.log(`  stop round ${round}: stopped run ${run.ended - run.started} ms (stop after ${stopAt - run.started} ms, ${run.events.length} files), next ${next.ended - next.started} ms (${next.events.length} files), compare ${Date.now() - t0} ms`)
    touchSome()
    if (stops % 10 === 0) console.log(`  stop: ${stops}/${options.stops} stops, ${tally.violations.length} violations, ${Math.round((Date.now() - started) / 1000)} s`)
  }
  waits.sort((a, b) => a - b)
  tally.figures.set("stop: wait from the stop to exit code 2", `median ${waits[Math.floor(waits.length / 2)] ?? 0} ms, max ${waits.at(-1) ?? 0} ms (slowest single file ${slowest} ms)`)
  tally.note(`stop: ${stops} stops in ${Math.round((Date.now() - started) / 1000)} s`)

  function compare(when: string) {
    return checkEndState(tally, work, { snapshot: reference, rows: referenceRows, search: referenceSearch }, tree.queries, when)
  }

  // Same bytes, new mtime: a seeded share of the files becomes work for the next run (R8).
  function touchSome() {
    expectedTargets = 1
    for (const f of tree.files) {
      if (rand() < 0.3) {
        touch(path.join(tree.root, ...f.path.split("/")), Date.now() - Math.floor(rand() * 1e9))
        expectedTargets++
      }
    }
  }
}

// `published` entries of the last run's journal, as `index/path` keys.
function publishedInJournal(work: string): Array<string> {
  const file = path.join(work, "store", "journal", "ingest.tsv")
  if (!fs.existsSync(file)) return []
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .map((l) => l.split("\t"))
    .filter((f) => f[0] === "published")
    .map((f) => `${f[1]}/${f[2]}`)
}
