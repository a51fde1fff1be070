/**
 * `npm run bench:fresh`: is what a first run ingested findable while it
 * runs, and does the GUI stay responsive meanwhile (S1, S2; issue 13)?
 *
 * A first indexing run over a generated tree (ingest_tree.ts, ≥ 5,000 files)
 * is started through a real `sagasu gui --no-open` process, as the page
 * starts it (POST /api/run, the plan answered). While it ingests, this
 * process is the page: it polls `/api/progress` every 250 ms, reads the
 * journal once a second to learn when each folder was published, and every
 * 5 s searches (`/api/search`) the probe of a file published at least 10 s
 * earlier — between probes, a search of any published file's probe every
 * second, so that progress polls overlap searches. It then stops the run
 * (POST /api/stop) and searches the probe of every `done` file of the ingest
 * list. The table goes into the `## Fresh search` section of
 * docs/benchmarks.md.
 *
 * Options: `--files N` (default 5000), `--seed N`, `--stop-at F` (stop when
 * this share of the files is done, default 0.7), `--cache DIR`, `--no-doc`.
 *
 * @module
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { repoRoot } from "../corpus.ts"
import { makeIngestTree } from "./ingest_tree.ts"
import { opt } from "./_args.ts"
import { sagasuCommand } from "./_launch.ts"

const argv = process.argv.slice(2)
const options = {
  files: Number(opt("files", "5000")),
  seed: Number(opt("seed", "5")),
  stopAt: Number(opt("stop-at", "0.7")),
  cache: path.resolve(opt("cache", path.join(os.tmpdir(), "sagasu-bench-fresh"))),
  writeDoc: !argv.includes("--no-doc")
}
const bin = path.join(repoRoot, "apps", "cli", "bin", "sagasu.js")
const say = (s: string) => console.log(`[bench:fresh ${new Date().toISOString().slice(11, 19)}] ${s}`)
const load = () => Number(fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0] ?? "0")
const quantile = (xs: ReadonlyArray<number>, q: number) => {
  if (xs.length === 0) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN
}
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "–")
const sleep = (t: number) => new Promise((r) => setTimeout(r, t))

interface Server {
  readonly port: number
  readonly token: string
  readonly child: ChildProcess
}

// One request to the GUI server; resolves with the status, the body and the time it took (ms).
const call = (server: Server, method: string, target: string, body?: unknown) =>
  new Promise<{ status: number; body: string; ms: number }>((resolve, reject) => {
    const started = performance.now()
    const data = body === undefined ? undefined : JSON.stringify(body)
    const req = http.request(
      {
        host: "127.0.0.1", port: server.port, path: target, method,
        headers: { "X-Sagasu-Token": server.token, ...(data !== undefined ? { "Content-Type": "application/json" } : {}) }
      },
      (res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (c) => (text += c))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, ms: performance.now() - started }))
      }
    )
    req.on("error", reject)
    if (data !== undefined) req.write(data)
    req.end()
  })

async function startGui(work: string): Promise<Server> {
  const gui = sagasuCommand(bin, ["gui", "--no-open", "--work", work], { env: { ...process.env, NO_COLOR: "1" } })
  const child = spawn(gui.command, gui.args, { stdio: ["ignore", "pipe", "inherit"], env: gui.env })
  let out = ""
  const url = await new Promise<URL>((resolve, reject) => {
    child.stdout?.setEncoding("utf8").on("data", (s: string) => {
      out += s
      const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+/.exec(out)
      if (m !== null) resolve(new URL(m[0]))
    })
    child.on("exit", (code) => reject(new Error(`sagasu gui exited ${code}: ${out}`)))
  })
  return { port: Number(url.port), token: url.searchParams.get("token") ?? "", child }
}

// The journal's `published` entries (index/path), read anew each time (the run rewrites nothing in it).
function publishedKeys(work: string): Array<string> {
  let text = ""
  try {
    text = fs.readFileSync(path.join(work, "store", "journal", "ingest.tsv"), "utf8")
  } catch {
    return []
  }
  return text.split("\n").filter((l) => l.startsWith("published\t")).map((l) => {
    const [, index, rel] = l.split("\t")
    return `${index}/${rel}`
  })
}

interface Probe {
  readonly path: string
  readonly ageS: number
  readonly found: boolean
  readonly ms: number
  readonly partial: boolean
}

async function main() {
  fs.mkdirSync(options.cache, { recursive: true })
  const treeDir = path.join(options.cache, `tree-${options.files}-${options.seed}`)
  say(`tree of ${options.files} files …`)
  const tree = await makeIngestTree(treeDir, { seed: options.seed, files: options.files, medianBytes: 20_000, maxBytes: 2_000_000 })
  const byPath = new Map(tree.files.map((f) => [`fresh/${f.path}`, f]))
  const treeBytes = tree.files.reduce((n, f) => n + f.bytes, 0)

  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-bench-fresh-work-"))
  for (const args of [["init"], ["add", "fresh", treeDir]]) {
    const r = spawnSync(process.execPath, [bin, ...args, "--work", work], { encoding: "utf8" })
    if (r.status !== 0) throw new Error(`sagasu ${args[0]}: ${r.stderr}`)
  }
  const server = await startGui(work)
  say(`gui on port ${server.port}`)
  const progressMs: Array<number> = []
  const progressWhileSearching: Array<number> = []
  const searchMs: Array<number> = []
  const probes: Array<Probe> = []
  let searching = 0
  const startedAt = performance.now()
  const loads: Array<number> = []

  const run = await call(server, "POST", "/api/run", { onlyNames: [] })
  if (run.status !== 200) throw new Error(`/api/run: ${run.status} ${run.body}`)
  // The plan (R10): start.
  for (;;) {
    const p = JSON.parse((await call(server, "GET", "/api/progress")).body) as { run: { plan: unknown; exitCode: number | null } | null }
    if (p.run?.plan !== null && p.run?.plan !== undefined) break
    if (p.run?.exitCode !== null && p.run?.exitCode !== undefined) throw new Error("the run ended before its plan")
    await sleep(200)
  }
  await call(server, "POST", "/api/plan-answer", { answer: { retryFailed: false, includeCloud: false } })
  say("plan answered; ingesting")

  const publishedAt = new Map<string, number>()
  let ingestStarted = performance.now()
  let stopRequested = false
  let ended = false
  let lastProbe = performance.now()
  let lastLoad = 0
  let processed = 0
  let total = options.files

  // A page as the GUI asks for it (20 files); a probe's check asks for the most a page holds (200).
  const search = async (probe: string, limit = 20) => {
    searching++
    try {
      const r = await call(server, "GET", `/api/search?q=${encodeURIComponent(probe)}&limit=${limit}`)
      if (!stopRequested) searchMs.push(r.ms)
      return { ...r, view: JSON.parse(r.body) as { files: Array<{ path: string }>; partial: boolean } }
    } finally {
      searching--
    }
  }

  const poller = (async () => {
    while (!ended) {
      const overlapping = searching > 0
      const r = await call(server, "GET", "/api/progress")
      progressMs.push(r.ms)
      if (overlapping || searching > 0) progressWhileSearching.push(r.ms)
      const view = JSON.parse(r.body) as { run: { exitCode: number | null; progress: { phase: string; processed: number; remaining: number } } | null }
      if (view.run?.exitCode !== null && view.run?.exitCode !== undefined) ended = true
      if (view.run !== null) {
        processed = view.run.progress.processed
        total = view.run.progress.processed + view.run.progress.remaining
      }
      await sleep(250)
    }
  })()

  while (!ended) {
    const now = performance.now()
    for (const key of publishedKeys(work)) if (!publishedAt.has(key)) publishedAt.set(key, now)
    if (now - lastLoad > 10_000) {
      loads.push(load())
      lastLoad = now
    }
    if (!stopRequested && processed >= options.stopAt * total && total > 0) {
      say(`${processed}/${total} processed: stopping the run`)
      stopRequested = true
      await call(server, "POST", "/api/stop")
    }
    if (!stopRequested && now - lastProbe >= 5000) {
      lastProbe = now
      const old = [...publishedAt].filter(([k, t]) => now - t >= 10_000 && !probes.some((p) => p.path === k))
      const pick = old[Math.floor(Math.random() * old.length)]
      if (pick !== undefined) {
        const file = byPath.get(pick[0])
        if (file !== undefined) {
          const r = await search(file.probe, 200)
          const found = r.view.files.some((h) => `fresh/${h.path}` === pick[0])
          probes.push({ path: pick[0], ageS: (now - pick[1]) / 1000, found, ms: r.ms, partial: r.view.partial })
          if (!found) say(`probe NOT found: ${file.probe} ${pick[0]} (published ${((now - pick[1]) / 1000).toFixed(0)} s ago)`)
        }
      }
    } else if (!stopRequested && publishedAt.size > 0) {
      // Load between probes: any published file's Japanese or ASCII probe.
      const keys = [...publishedAt.keys()]
      const file = byPath.get(keys[Math.floor(Math.random() * keys.length)] ?? "")
      if (file !== undefined) await search(Math.random() < 0.5 ? file.probe : file.probeJa)
    }
    if (publishedAt.size === 0) ingestStarted = performance.now()
    await sleep(1000)
  }
  await poller
  const runS = (performance.now() - startedAt) / 1000
  const ingestS = (performance.now() - ingestStarted) / 1000
  say(`run ended after ${runS.toFixed(0)} s; ${probes.length} probes, ${probes.filter((p) => p.found).length} found`)

  // After the stop: every done file of the ingest list, found by its probe through the GUI API.
  const list = fs.readFileSync(path.join(work, "store", "ingest_list.tsv"), "utf8").split("\n").slice(1)
  const done = list.map((l) => l.split("\t")).filter((f) => f[4] === "done").map((f) => `${f[0]}/${f[1]}`)
  const uniqueDone = [...new Set(done)]
  let doneFound = 0
  const missed: Array<string> = []
  for (const key of uniqueDone) {
    const file = byPath.get(key)
    if (file === undefined) continue
    const r = await search(file.probe, 200)
    if (r.view.files.some((h) => `fresh/${h.path}` === key)) doneFound++
    else missed.push(key)
  }
  say(`after the stop: ${doneFound}/${uniqueDone.length} done files found${missed.length > 0 ? `; missed ${missed.slice(0, 5).join(", ")}` : ""}`)
  server.child.kill("SIGINT")
  await new Promise((r) => server.child.on("exit", r))

  const found = probes.filter((p) => p.found).length
  const lines = [
    "## Fresh search",
    "",
    `One run of \`npm run bench:fresh -- --files ${options.files}\`, ${new Date().toISOString().slice(0, 10)}: ${os.availableParallelism()} cores, Node ${process.version}. ` +
      `A first indexing run over a generated tree of ${options.files} files (${(treeBytes / 1e6).toFixed(0)} MB, ingest_tree.ts seed ${options.seed}, median 20 KB), started through a real ` +
      "`sagasu gui --no-open` process with POST /api/run; this process plays the page: `/api/progress` every 250 ms, a probe search every 5 s for a file " +
      "published at least 10 s earlier (publish times from the journal), a search of any published file's probe every second between them. " +
      `Stopped (POST /api/stop) at ${Math.round(options.stopAt * 100)}% of the files, then every done file's probe searched. 1-minute load average during the run: ${loads.map((l) => l.toFixed(1)).join(", ")}.`,
    "",
    "| measure | value | target |",
    "|---|---:|---|",
    `| probes found during the run (published ≥ 10 s before) | ${found}/${probes.length} (${probes.length === 0 ? "–" : ((100 * found) / probes.length).toFixed(1)}%) | 100% |`,
    `| search latency in the GUI server while ingesting, p50 / p95 / max (${searchMs.length} queries) | ${ms(quantile(searchMs, 0.5))} / ${ms(quantile(searchMs, 0.95))} / ${ms(Math.max(...searchMs))} ms | p95 ≤ 100 ms |`,
    `| \`/api/progress\` latency, p50 / p95 / max (${progressMs.length} polls) | ${ms(quantile(progressMs, 0.5))} / ${ms(quantile(progressMs, 0.95))} / ${ms(Math.max(...progressMs))} ms | |`,
    `| \`/api/progress\` while a search was in flight, p50 / p95 (${progressWhileSearching.length} polls) | ${ms(quantile(progressWhileSearching, 0.5))} / ${ms(quantile(progressWhileSearching, 0.95))} ms | p95 ≤ 200 ms |`,
    `| done files found after the stop | ${doneFound}/${uniqueDone.length} | all |`,
    `| run wall time (to the stop's end) / ingest phase | ${runS.toFixed(0)} s / ${ingestS.toFixed(0)} s | |`,
    ""
  ]
  console.log(lines.join("\n"))
  if (options.writeDoc) writeSection(lines.join("\n"))
  fs.rmSync(work, { recursive: true, force: true })
}

function writeSection(section: string) {
  const doc = path.join(repoRoot, "docs", "benchmarks.md")
  const text = fs.readFileSync(doc, "utf8")
  const start = text.indexOf("## Fresh search")
  if (start < 0) {
    fs.writeFileSync(doc, `${text.trimEnd()}\n\n${section}`)
    return
  }
  const next = text.indexOf("\n## ", start + 3)
  fs.writeFileSync(doc, text.slice(0, start) + section + (next < 0 ? "" : text.slice(next)))
}

await main()
