/**
 * Crash safety of the indexing run through the real CLI (SPEC C1–C3, R3, R7,
 * W5, §6 Ctrl+C): `sagasu index` runs as a child process on a generated tree
 * and is killed with SIGKILL at seeded random moments; after every kill the
 * invariants are checked, and the run is restarted until it completes. The end
 * state must equal a clean, uninterrupted run's.
 */
import { seededRandom } from "@sagasu/domain"
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { snapshot } from "./chaos/_harness.ts"
import { repoRoot } from "./corpus.ts"
import { type TreeFile, makeTree } from "./make_tree.ts"

const bin = path.join(repoRoot, "apps", "cli", "bin", "sagasu.js")
const base = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-crash-"))
const tree = path.join(base, "tree")
let files: ReadonlyArray<TreeFile> = []

const sagasu = (work: string, ...args: Array<string>) =>
  spawnSync(process.execPath, [bin, ...args, "--work", work], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } })

const startIndex = (work: string): ChildProcess =>
  spawn(process.execPath, [bin, "index", "--yes", "--verbose", "--work", work], { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } })

const exitOf = (child: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })))

const makeWork = (name: string) => {
  const work = path.join(base, name)
  expect(sagasu(work, "init").status).toBe(0)
  expect(sagasu(work, "add", "tree", tree).status).toBe(0)
  fs.writeFileSync(path.join(work, "setting.config"), JSON.stringify({
    ...JSON.parse(fs.readFileSync(path.join(work, "setting.config"), "utf8")),
    ingestThreads: 2
  }))
  return work
}

interface Row { readonly key: string; readonly status: string }
const ingestRows = (work: string): Array<Row> => {
  const file = path.join(work, "store", "ingest_list.tsv")
  if (!fs.existsSync(file)) return []
  const rows = new Map<string, string>()
  for (const line of fs.readFileSync(file, "utf8").split("\n").slice(1)) {
    const f = line.split("\t")
    if (f.length >= 5 && ["done", "failed", "pending"].includes(f[4] ?? "")) rows.set(`${f[0]}/${f[1]}`, f[4] ?? "")
  }
  return [...rows].map(([key, status]) => ({ key, status }))
}

/** The files a new `sagasu search` process finds by their probes (`tree/<path>`): every probe starts `PROBE-`. */
const foundByProbe = (work: string): Set<string> => {
  const r = sagasu(work, "search", "PROBE-", "--limit", "1000000", "--json")
  if (r.status !== 0) return new Set([`search failed: ${r.stderr}`])
  return new Set((JSON.parse(r.stdout) as Array<{ path: string }>).map((h) => `tree/${h.path}`))
}

/** Files with `start` and no `published` whose row is still pending: the next run must put them last (C1). */
const inFlightAtKill = (work: string): Set<string> => {
  const journal = path.join(work, "store", "journal", "ingest.tsv")
  if (!fs.existsSync(journal)) return new Set()
  const open = new Set<string>()
  for (const line of fs.readFileSync(journal, "utf8").split("\n")) {
    const [tag, index, p] = line.split("\t")
    if (tag === "start") open.add(`${index}/${p}`)
    if (tag === "published") open.delete(`${index}/${p}`)
  }
  const pending = new Set(ingestRows(work).filter((r) => r.status === "pending").map((r) => r.key))
  return new Set([...open].filter((k) => pending.has(k)))
}

beforeAll(async () => {
  files = await makeTree(tree, { seed: 11, files: 150, minRows: 50, maxRows: 600 })
}, 600_000)

// A failed run keeps its folders (work folders with their logs and journals) for a look.
let keepForLook = false
afterAll(() => {
  if (keepForLook) console.log(`crash test: kept ${base}`)
  else fs.rmSync(base, { recursive: true, force: true })
})

describe("crash and resume through the CLI (C1, C2, C3, R3, R7)", () => {
  it("survives 20 SIGKILLs at seeded moments and ends identical to a clean run", async () => {
    const clean = makeWork("clean")
    const cleanRun = startIndex(clean)
    expect((await exitOf(cleanRun)).code).toBe(0)
    const reference = snapshot(clean)
    expect(reference.size).toBe(files.length)

    const work = makeWork("crashed")
    const rand = seededRandom(20261129)
    const violations: Array<string> = []
    let kills = 0
    let everDone = new Set<string>()
    // Files touched after the last completed run: their done rows may go pending (R11).
    let touched = new Set<string>()
    let previousInFlight = new Set<string>()
    let lastLog = ""
    let toldLog = false
    const phases = new Map<string, number>()
    for (let attempt = 0; attempt < 80 && kills < 20; attempt++) {
      const child = startIndex(work)
      let out = ""
      let phaseAtKill = ""
      // Half the kills (seeded) come at a moment by the clock, counted from the log header (the
      // lock is taken), so they spread over recovery, crawl, ingest and the finally step rather
      // than over Node's start-up; the other half right after the run's n-th result, so that kills
      // while ingesting do not depend on how fast a loaded machine gets there (issue 15: with both
      // cores busy, only 4 of 20 clock moments fell in the ingest phase).
      const byResult = rand() < 0.5
      const delay = Math.floor(rand() * 3000)
      const atResult = 1 + Math.floor(rand() * 8)
      let timer: NodeJS.Timeout | undefined
      const kill = () => {
        phaseAtKill = /インデックス作成が完了/.test(out) ? "closing" : /^\[\d+\//m.test(out) ? "ingest" : /取り込み対象/.test(out) ? "dispatch" : "start/crawl"
        child.kill("SIGKILL")
      }
      child.stdout?.on("data", (d: Buffer) => {
        out += d.toString()
        if (!byResult) timer ??= setTimeout(kill, delay)
        else if (phaseAtKill === "" && (out.match(/^\[\d+\/\d+\] /gm) ?? []).length >= atResult) kill()
      })
      const exit = await exitOf(child)
      clearTimeout(timer)
      if (exit.signal === "SIGKILL") {
        kills++
        phases.set(phaseAtKill, (phases.get(phaseAtKill) ?? 0) + 1)
      }
      if (exit.code === 1) violations.push(`run ${attempt} exited 1 (a stale lock?): ${out.slice(-300)}`)

      // C2: every body-index folder is either absent or exactly the clean run's.
      for (const [folder, hash] of snapshot(work)) {
        if (reference.get(folder) !== hash) violations.push(`after kill ${kills}: partial or wrong folder ${folder}`)
      }
      // C1: no `done` row is ever lost.
      const rows = new Map(ingestRows(work).map((r) => [r.key, r.status]))
      const done = new Set([...rows].filter(([, status]) => status === "done").map(([key]) => key))
      for (const key of everDone) {
        if (!done.has(key) && !touched.has(key)) {
          violations.push(`after kill ${kills} (run ${attempt}, exit ${exit.code ?? exit.signal}): lost done row ${key}, now ${rows.get(key) ?? "no row"}`)
        }
      }
      if (violations.length > 0 && !toldLog) {
        // The first violation: the run's own account of it, for the report.
        toldLog = true
        const logText = fs.readFileSync(path.join(work, "indexing_log.txt"), "utf8").split("\n")
        console.log(`crash test: first violation in run ${attempt}; its stdout:\n${out.slice(-3000)}\nits log (head and tail):\n${[...logText.slice(0, 40), "…", ...logText.slice(-60)].join("\n")}`)
      }
      // S1: every done file is found by a new process right after the kill (from a live segment, the
      // fresh tail, or its staging folder while it waited for the rest of its source folder).
      const found = foundByProbe(work)
      const missed = [...done].filter((key) => !found.has(key))
      for (const key of missed) violations.push(`after kill ${kills} (run ${attempt}): done ${key} is not found by a search`)
      // The later runs overwrite the state that broke S1: a copy of it, kept with the rest, for a look (an intermittent failure, note 34).
      if (missed.length > 0 && !fs.existsSync(`${work}-at-s1-violation`)) fs.cpSync(work, `${work}-at-s1-violation`, { recursive: true })
      everDone = done
      // C1: files in flight at the previous kill come last in this run's target list.
      const results = [...out.matchAll(/^\[(\d+)\/(\d+)\] (\S+): /gm)]
      for (const m of results) {
        if (previousInFlight.has(m[3] ?? "") && Number(m[1]) <= Number(m[2]) - previousInFlight.size) {
          violations.push(`run ${attempt}: ${m[3]} was in flight at the kill but came ${m[1]}/${m[2]}`)
        }
      }
      previousInFlight = inFlightAtKill(work)
      lastLog = out
      if (exit.code === 0) {
        // The run got through before the kill: give the next run work again by touching a
        // seeded third of the files (same content, new mtime → changed, R8).
        touched = new Set()
        for (const f of files) {
          if (rand() < 0.35) {
            fs.utimesSync(path.join(tree, ...f.path.split("/")), new Date(), new Date(Date.now() - Math.floor(rand() * 1e9)))
            // Changed: its row becomes pending again by design (R8, R11) in the first run that gets
            // past R11, which need not be the next one (a kill during the crawl leaves it done).
            touched.add(`tree/${f.path}`)
          }
        }
      }
    }
    keepForLook = violations.length > 0
    console.log(`crash test: ${kills} kills by phase ${JSON.stringify(Object.fromEntries(phases))}, 0 expected violations, found ${violations.length}`)
    expect(violations).toEqual([])
    expect(kills).toBeGreaterThanOrEqual(20)
    expect(phases.get("ingest") ?? 0).toBeGreaterThanOrEqual(5)

    // Finish: restart until the run completes; the end state equals the clean run's.
    for (let i = 0; i < 5; i++) {
      const r = await exitOf(startIndex(work))
      if (r.code === 0) break
    }
    expect(snapshot(work)).toEqual(reference)
    expect(ingestRows(work).sort((a, b) => a.key.localeCompare(b.key))).toEqual(ingestRows(clean).sort((a, b) => a.key.localeCompare(b.key)))
    for (const f of files.filter((_, i) => i % 16 === 0)) {
      const hits = JSON.parse(sagasu(work, "search", f.probe, "--json").stdout) as Array<{ path: string; location: string }>
      expect(hits.map((h) => [h.path, h.location])).toEqual([[f.path, f.probeLocation]])
    }
    void lastLog
  }, 1_200_000) // a hang guard only (336 s with both cores busy)

  it("§6/W5: the first Ctrl+C stops the run with exit 2 and the next run completes", async () => {
    const work = makeWork("interrupted")
    const child = startIndex(work)
    let out = ""
    await new Promise<void>((resolve) => {
      child.stdout?.on("data", (d: Buffer) => {
        out += d.toString()
        if (/^\[\d+\/\d+\] /m.test(out)) resolve()
      })
    })
    child.kill("SIGINT")
    const exit = await exitOf(child)
    expect(exit.code).toBe(2)
    expect(out).toMatch(/インデックス作成を中止しました。（成功: \d+ 件 \/ 失敗: 0 件）/)
    const pending = ingestRows(work).filter((r) => r.status === "pending").length
    expect(pending).toBeGreaterThan(0)
    expect(out).toContain(`未取り込みの ${pending} 件は、次の sagasu index --work ${work} で続きから取り込みます。`)
    // S1: every file the stopped run ingested is found at once (「取り込めたファイルは…検索できる」).
    const done = ingestRows(work).filter((r) => r.status === "done").map((r) => r.key)
    expect(done.length).toBeGreaterThan(0)
    const found = foundByProbe(work)
    expect(done.filter((k) => !found.has(k))).toEqual([])
    const again = spawnSync(process.execPath, [bin, "index", "--yes", "--work", work], { encoding: "utf8" })
    expect(again.status).toBe(0)
    expect(ingestRows(work).every((r) => r.status === "done")).toBe(true)
    expect(ingestRows(work)).toHaveLength(files.length)
  }, 600_000)

  it("R13/S1: a run that loses its target folder ends with exit 1, and every file it ingested is found", async () => {
    const work = makeWork("lost")
    const child = startIndex(work)
    let out = ""
    let err = ""
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()))
    const moved = `${tree}.away`
    await new Promise<void>((resolve) => {
      child.stdout?.on("data", (d: Buffer) => {
        out += d.toString()
        // A few files in: the drive goes away.
        if ((out.match(/^\[\d+\/\d+\] /gm) ?? []).length >= 3 && !fs.existsSync(moved)) {
          fs.renameSync(tree, moved)
          resolve()
        }
      })
    })
    const exit = await exitOf(child)
    fs.renameSync(moved, tree)
    expect(exit.code).toBe(1)
    expect(out + err).toContain("tree")
    const done = ingestRows(work).filter((r) => r.status === "done").map((r) => r.key)
    expect(done.length).toBeGreaterThanOrEqual(3)
    const found = foundByProbe(work)
    expect(done.filter((k) => !found.has(k))).toEqual([])
    // Back again: the next run completes.
    expect(spawnSync(process.execPath, [bin, "index", "--yes", "--work", work], { encoding: "utf8" }).status).toBe(0)
    expect(foundByProbe(work).size).toBe(files.length)
  }, 600_000)
})
