/**
 * Crash (SPEC C1–C3, R3, R7): `sagasu index` runs as a child process on the
 * mixed tree and is killed with SIGKILL at seeded moments — timed ones spread
 * over start-up, recovery, crawl, ingest and the finally step, and exact ones
 * at the test-only crash points (SAGASU_CRASH_POINT) and at file operations
 * inside the 2-gram update (fault_preload.cjs). After every kill the
 * invariants are checked; runs are restarted until one completes; every
 * completed run, and the final state, must equal a clean uninterrupted run.
 *
 * @module
 */
import { formatFailureText, type IngestRow, seededRandom } from "@sagasu/domain"
import * as fs from "node:fs"
import * as path from "node:path"
import {
  checkEndState,
  type Tally,
  ingestRows,
  lockIsFree,
  makeWork,
  openJournalStarts,
  processesMentioning,
  readProgressFile,
  rowStates,
  searchAnswers,
  snapshot,
  snapshotDiff,
  startIndex,
  touch
} from "./_harness.ts"
import { type MixedTree, type MixedTreeOptions, makeMixedTree } from "./_mixed_tree.ts"

/** Options of {@link crashPart}. */
export interface CrashOptions {
  readonly base: string
  readonly seed: number
  /** SIGKILLs to inject. */
  readonly kills: number
  /** Work folders killed at the same time (each its own chain of runs over the shared tree). */
  readonly chains: number
  readonly tree: MixedTreeOptions
}

const crashPoints = [
  "journal.after-start",
  "result.before-append",
  "publish.after-aside",
  "publish.before-journal",
  "finally.before-rewrite"
] as const

type Mode =
  | { readonly _tag: "timed"; readonly fromSpawn: boolean; readonly ms: number }
  | { readonly _tag: "point"; readonly name: string; readonly n: number }
  | { readonly _tag: "gram"; readonly n: number }

/** Runs the crash part into `tally`. */
export async function crashPart(options: CrashOptions, tally: Tally): Promise<void> {
  const started = Date.now()
  const tree = await makeMixedTree(path.join(options.base, "tree"), options.tree)
  tally.note(`crash: tree of ${tree.files.length} files (${count(tree.files, "good")} ordinary, ${count(tree.files, "slow")} slow, ${count(tree.files, "failing")} failing, ${count(tree.files, "office")} through LibreOffice)`)

  // The reference: one clean, uninterrupted run (counting the 2-gram update's file operations).
  const clean = await makeWork(path.join(options.base, "clean"), { tree: tree.root })
  const opsFile = path.join(options.base, "gram-ops.txt")
  const cleanRun = startIndex(clean, { preload: true, env: { SAGASU_CHAOS_COUNT: `${path.join(clean, "gram")}/:${opsFile}` } })
  let headerAt = 0
  cleanRun.onOut(() => (headerAt ||= Date.now() - cleanRun.started))
  const cleanExit = await cleanRun.exited
  if (cleanExit.code !== 0) throw new Error(`the clean run failed (${cleanExit.code}): ${cleanRun.out().slice(-2000)}`)
  const gramOps = Math.max(4, Number(fs.readFileSync(opsFile, "utf8").trim().split("\n").pop() ?? "4"))
  const runSpan = cleanExit.ms - headerAt
  const reference = snapshot(clean)
  const cleanRows = await ingestRows(clean)
  const referenceRows = rowStates(cleanRows)
  for (const f of tree.files) {
    const row = cleanRows.get(`tree/${f.path}`)
    const want = f.kind === "failing" ? "failed" : f.kind === "office" ? row?.status ?? "" : "done"
    tally.check("clean run: each file ends as its kind says", row?.status === want, () => `${f.path} (${f.kind}): ${row?.status ?? "no row"} ${row?.failure === undefined ? "" : formatFailureText(row.failure)}`)
  }
  const referenceSearch = (await searchAnswers(clean, tree.queries)).answers
  tally.note(`crash: clean run ${cleanExit.ms} ms (lock taken after ${headerAt} ms), ${reference.size} body-index folders, ${gramOps} file operations in the 2-gram build`)
  tally.figures.set("crash: clean run", `${(cleanExit.ms / 1000).toFixed(1)} s for ${tree.files.length} files`)

  const perChain = Math.ceil(options.kills / options.chains)
  const results = await Promise.all(
    Array.from({ length: options.chains }, (_, i) =>
      crashChain({ ...options, kills: Math.min(perChain, options.kills - i * perChain) }, i, tally, {
        tree, reference, referenceRows, referenceSearch, runSpan, headerAt, gramOps
      })
    )
  )
  const phases = new Map<string, number>()
  for (const r of results) for (const [p, n] of r.phases) phases.set(p, (phases.get(p) ?? 0) + n)
  const kills = results.reduce((n, r) => n + r.kills, 0)
  const completions = results.reduce((n, r) => n + r.completions, 0)
  tally.figures.set("crash: kills by phase", [...phases].map(([p, n]) => `${p} ${n}`).join(", "))
  tally.note(`crash: ${kills} kills in ${Math.round((Date.now() - started) / 1000)} s over ${options.chains} work folder(s) at once; ${completions} runs completed between kills and were compared with the clean run; at most ${Math.max(...results.map((r) => r.maxStrays))} stray processes seen right after a kill`)
  tally.fault("completed runs compared with the clean run", completions + options.chains)
}

interface Reference {
  readonly tree: MixedTree
  readonly reference: ReadonlyMap<string, string>
  readonly referenceRows: ReadonlyMap<string, string>
  readonly referenceSearch: ReadonlyMap<string, string>
  readonly runSpan: number
  readonly headerAt: number
  readonly gramOps: number
}

// One chain: its own work folder over the shared tree, killed `options.kills` times.
async function crashChain(options: CrashOptions, chain: number, tally: Tally, ref: Reference) {
  const { reference, referenceRows, referenceSearch } = ref
  const started = Date.now()
  // Its own copy of the tree: the chain touches files, and another chain's touches would change its targets.
  const tree = { ...ref.tree, root: path.join(options.base, `tree-${chain}`) }
  fs.cpSync(ref.tree.root, tree.root, { recursive: true, preserveTimestamps: true })
  const work = await makeWork(path.join(options.base, `crashed-${chain}`), { tree: tree.root })
  const gramDir = `${path.join(work, "gram")}/`
  const rand = seededRandom(options.seed * 31 + chain)
  const phases = new Map<string, number>()
  let kills = 0
  let completions = 0
  let everDone = new Set<string>()
  let previousInFlight = new Set<string>()
  let maxStrays = 0
  let lastOut = ""
  // About how many targets the next run has: bounds the crash points' counts.
  let expectedTargets = tree.files.length

  // Done rows that describe the file as it is now (same size and mtime): no later kill may lose them.
  const currentDone = (rows: ReadonlyMap<string, IngestRow>) => {
    const out = new Set<string>()
    for (const [k, r] of rows) {
      if (r.status !== "done") continue
      const st = fs.statSync(path.join(tree.root, ...r.path.split("/")), { throwIfNoEntry: false })
      if (st !== undefined && st.size === r.size && st.mtimeMs === r.mtimeMs) out.add(k)
    }
    return out
  }

  const compareWithReference = (when: string) =>
    checkEndState(tally, work, { snapshot: reference, rows: referenceRows, search: referenceSearch }, tree.queries, when)

  for (let attempt = 0; kills < options.kills && attempt < options.kills * 4; attempt++) {
    const mode = pickMode(rand, ref, expectedTargets)
    const env: Record<string, string> =
      mode._tag === "point" ? { SAGASU_CRASH_POINT: `${mode.name}:${mode.n}` } : mode._tag === "gram" ? { SAGASU_CHAOS_KILL_AT: `${gramDir}:${mode.n}` } : {}
    const spawnedAt = Date.now()
    const child = startIndex(work, { env, preload: mode._tag === "gram" })
    let phase = mode._tag === "point" ? `crash point ${mode.name}` : mode._tag === "gram" ? "inside the 2-gram update (file operation)" : ""
    let timer: NodeJS.Timeout | undefined
    const killNow = () => {
      const p = readProgressFile(work)
      const fresh = p !== undefined && p.mtimeMs >= spawnedAt
      phase = child.stdout() === ""
        ? "start-up, before the lock"
        : !fresh || p.phase === "crawl"
          ? "recovery and crawl (R7, R8)"
          : p.phase === "ingest"
            ? "ingest and publish (R13, R14)"
            : "finally and 2-gram (R15, R16)"
      child.child.kill("SIGKILL")
    }
    if (mode._tag === "timed") {
      if (mode.fromSpawn) timer = setTimeout(killNow, mode.ms)
      else child.onOut(() => (timer ??= setTimeout(killNow, mode.ms)))
    }
    const hang = setTimeout(() => {
      tally.check("no hang", false, () => `run ${attempt} did not end within 180 s; killed`)
      child.child.kill("SIGKILL")
    }, 180_000)
    const exit = await child.exited
    clearTimeout(timer)
    clearTimeout(hang)
    const out = child.out()
    const previousOut = lastOut
    lastOut = out

    if (exit.signal === "SIGKILL") {
      kills++
      tally.fault(`SIGKILL: ${phase}`)
      phases.set(phase, (phases.get(phase) ?? 0) + 1)
      // C2: every body-index folder is absent or exactly the clean run's — never partial.
      const diff = snapshotDiff(snapshot(work), reference, { allowMissing: true })
      tally.check("C2: no partial or foreign body-index folder at a kill", diff.length === 0, () => `kill ${kills} (${phase}): ${diff.join("; ")}`)
      // C1: no done row is lost.
      const rows = await ingestRows(work)
      const lost = [...everDone].filter((k) => rows.get(k)?.status !== "done")
      tally.check("C1: no done row lost at a kill", lost.length === 0, () => `chain ${chain} kill ${kills} (${phase}): ${lost.slice(0, 5).join(", ")}`)
      if (lost.length > 0 && process.env.SAGASU_CHAOS_EVIDENCE !== undefined) {
        const dir = path.join(process.env.SAGASU_CHAOS_EVIDENCE, `chain${chain}-kill${kills}`)
        fs.cpSync(path.join(work, "store"), path.join(dir, "store"), { recursive: true })
        fs.writeFileSync(path.join(dir, "out.txt"), out)
        fs.writeFileSync(path.join(dir, "lost.txt"), lost.join("\n"))
        fs.copyFileSync(path.join(work, "indexing_log.txt"), path.join(dir, "indexing_log.txt"))
        fs.writeFileSync(path.join(dir, "previous_out.txt"), previousOut)
      }
      everDone = currentDone(rows)
      // R3: the operating system freed the lock.
      tally.check("R3: no stale lock after a kill", await lockIsFree(work), () => `kill ${kills} (${phase}): the lock is still held`)
      maxStrays = Math.max(maxStrays, processesMentioning(work).length)
      expectedTargets = Math.max(1, [...rows.values()].filter((r) => r.status === "pending").length)
    } else {
      tally.check("a run without a kill completes (exit 0)", exit.code === 0, () => `run ${attempt} exited ${exit.code}: ${out.slice(-600)}`)
      if (exit.code === 0) {
        completions++
        await compareWithReference(`completed run ${attempt}`)
        const rows = await ingestRows(work)
        // Give the next runs work again: a seeded half of the files changes (same bytes, new mtime, R8).
        expectedTargets = 0
        for (const f of tree.files) {
          if (rand() < 0.5) {
            expectedTargets++
            touch(path.join(tree.root, ...f.path.split("/")), Date.now() - Math.floor(rand() * 1e9))
          }
        }
        everDone = currentDone(rows)
      }
    }
    // C1: files in flight at the previous kill come last in this run's target list.
    for (const m of out.matchAll(/^\[(\d+)\/(\d+)\] (\S+): /gm)) {
      if (previousInFlight.has(m[3] ?? "") && Number(m[1]) <= Number(m[2]) - previousInFlight.size) {
        tally.check("C1: files in flight at a kill come last", false, () => `run ${attempt}: ${m[3]} came ${m[1]}/${m[2]}`)
      }
    }
    tally.check("C1: files in flight at a kill come last", true, () => "")
    const rowsNow = await ingestRows(work)
    const pendingNow = new Set([...rowsNow].filter(([, r]) => r.status === "pending").map(([k]) => k))
    previousInFlight = exit.signal === "SIGKILL" ? new Set([...openJournalStarts(work)].filter((k) => pendingNow.has(k))) : new Set()
    if (attempt % 20 === 19) console.log(`  crash ${chain}: ${kills}/${options.kills} kills after ${attempt + 1} runs, ${completions} completed, ${tally.violations.length} violations, ${Math.round((Date.now() - started) / 1000)} s`)
  }

  // Restart until a run completes; the end state equals the clean run's.
  let finished = false
  for (let i = 0; i < 5 && !finished; i++) finished = (await startIndex(work).exited).code === 0
  tally.check("the last run completes", finished, () => "five restarts did not complete")
  await compareWithReference("final")
  tally.check("R3: no stale lock at the end", await lockIsFree(work), () => "the lock is held")
  const strays = processesMentioning(work)
  tally.check("no process of a killed run left behind (LibreOffice)", strays.length === 0, () => strays.map((s) => `${s.pid} ${s.cmd}`).join("; "))
  for (const s of strays) {
    try {
      process.kill(s.pid, "SIGKILL")
    } catch {
      // gone
    }
  }
  return { kills, completions, phases, maxStrays }
}

const count = (files: ReadonlyArray<{ kind: string }>, kind: string) => files.filter((f) => f.kind === kind).length

// A quarter of the kills at the crash points, a twelfth inside the 2-gram update, a few before
// the lock, the rest timed from the lock over the first seconds of the run (which resumes where
// the previous one was killed, so successive kills walk through the whole run).
function pickMode(rand: () => number, ref: Reference, expectedTargets: number): Mode {
  const r = rand()
  if (r < 0.25) {
    const name = crashPoints[Math.floor(rand() * crashPoints.length)] ?? "journal.after-start"
    const n = name === "finally.before-rewrite" ? 1 : 1 + Math.floor(rand() * (name === "publish.after-aside" ? Math.min(10, expectedTargets) : expectedTargets))
    return { _tag: "point", name, n }
  }
  if (r < 0.33) return { _tag: "gram", n: 1 + Math.floor(rand() * ref.gramOps) }
  if (r < 0.37) return { _tag: "timed", fromSpawn: true, ms: Math.floor(rand() * ref.headerAt) }
  return { _tag: "timed", fromSpawn: false, ms: Math.floor(rand() * Math.min(ref.runSpan * 0.7, 4000)) }
}
