/**
 * The per-file overhead of small files and the memory of the whole process
 * tree (issue 20): `sagasu index --yes` from an empty work folder over a
 * tree of small generated files (ingest_tree.ts with a small median), or
 * over any folder (`--folder`: the shared corpus, the big workbook), for the
 * working tree and, with `--ref`, for an older commit exported beside it,
 * alternated A B A B in the same minutes.
 *
 * Per run: wall, CPU (user + system of the process tree, /usr/bin/time),
 * the peak RSS of the largest process (/usr/bin/time) and of the whole tree
 * (the sum of VmRSS over the process and its descendants, LibreOffice
 * included, sampled every 50 ms), the ingest phase from the run's log, and
 * the 1-minute load average. With `--trace`, each version also runs once
 * in-process (_traced_run.ts) to time each file from dispatch to its result
 * and to its publish; `--profile DIR` runs that under `node --cpu-prof` and
 * prints each thread's idle share and its top functions.
 *
 * `npx tsx tools/src/bench/small_files.ts [--files 1000] [--median-kb 20]
 * [--max-kb 40] [--seed 3] [--folder DIR] [--ref REF] [--pairs 2]
 * [--trace] [--profile DIR] [--rss-timeline FILE] [--cache DIR]`
 *
 * @module
 */
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { repoRoot } from "../corpus.ts"
import { summarize } from "./ingest_profile.ts"
import { makeIngestTree } from "./ingest_tree.ts"
import { flag, opt } from "./_args.ts"
import { sagasuCommand } from "./_launch.ts"

const options = {
  files: Number(opt("files", "1000")),
  medianKb: Number(opt("median-kb", "20")),
  maxKb: Number(opt("max-kb", "40")),
  seed: Number(opt("seed", "3")),
  folder: opt("folder", ""),
  ref: opt("ref", ""),
  pairs: Number(opt("pairs", "2")),
  trace: flag("trace") || flag("profile"),
  profile: opt("profile", ""),
  rssTimeline: opt("rss-timeline", ""),
  cache: path.resolve(opt("cache", path.join(os.tmpdir(), "sagasu-bench-small")))
}
const here = path.dirname(fileURLToPath(import.meta.url))
const say = (s: string) => console.log(`[small-files ${new Date().toISOString().slice(11, 19)}] ${s}`)
const load = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0] ?? "?"
fs.mkdirSync(options.cache, { recursive: true })

// ---------------------------------------------------------------- versions

interface Version {
  readonly name: string
  readonly root: string
}

/** `ref` exported (git archive) into the cache beside links to this repository's node_modules. */
function exportRef(ref: string): Version {
  const commit = execFileSync("git", ["rev-parse", "--short", ref], { cwd: repoRoot, encoding: "utf8" }).trim()
  const root = path.join(options.cache, `ref-${commit}`)
  if (!fs.existsSync(path.join(root, "package.json"))) {
    fs.mkdirSync(root, { recursive: true })
    execFileSync("tar", ["-x", "-C", root], { input: execFileSync("git", ["archive", commit], { cwd: repoRoot, maxBuffer: 1 << 30 }) })
    const modules = path.join(root, "node_modules")
    fs.mkdirSync(path.join(modules, "@sagasu"), { recursive: true })
    for (const name of fs.readdirSync(path.join(repoRoot, "node_modules"))) {
      if (name === "@sagasu" || name === ".cache") continue
      fs.symlinkSync(path.join(repoRoot, "node_modules", name), path.join(modules, name))
    }
    // Every workspace package of that commit (a later one, libs/team, was missing from a fixed list).
    const workspaces = ["apps", "libs"].flatMap((top) => (fs.existsSync(path.join(root, top)) ? fs.readdirSync(path.join(root, top)).map((d) => `${top}/${d}`) : [])).concat("tools")
    for (const dir of workspaces) {
      if (!fs.existsSync(path.join(root, dir, "package.json"))) continue
      fs.symlinkSync(path.join("..", "..", dir), path.join(modules, "@sagasu", path.basename(dir)))
    }
  }
  return { name: commit, root }
}

// ---------------------------------------------------------------- measuring

/** Sum of VmRSS (kB) of `pid` and its descendants. */
function treeRssKb(pid: number): number {
  let sum = 0
  const stack = [pid]
  while (stack.length > 0) {
    const p = stack.pop() as number
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, "utf8")
      sum += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
      for (const task of fs.readdirSync(`/proc/${p}/task`)) {
        for (const c of fs.readFileSync(`/proc/${p}/task/${task}/children`, "utf8").split(" ")) if (c.trim() !== "") stack.push(Number(c))
      }
    } catch {
      // Gone meanwhile.
    }
  }
  return sum
}

interface Measured {
  readonly wall: number
  readonly cpu: number
  readonly rssMb: number
  readonly treeRssMb: number
  /** Seconds from the start to the tree's peak. */
  readonly peakAt: number
  readonly code: number
  readonly load: string
  readonly stderr: string
}

function measure(command: string, args: ReadonlyArray<string>, cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const report = path.join(options.cache, `time-${process.pid}.txt`)
    const started = performance.now()
    const child = spawn("/usr/bin/time", ["-v", "-o", report, command, ...args], { cwd, env, stdio: ["ignore", "ignore", "pipe"] })
    let stderr = ""
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s))
    let peak = 0
    let peakAt = 0
    // The tree's largest RSS in each second (MB), for `--rss-timeline`.
    const timeline: Array<number> = []
    const tick = setInterval(() => {
      const kb = child.pid === undefined ? 0 : treeRssKb(child.pid)
      const at = (performance.now() - started) / 1000
      timeline[Math.floor(at)] = Math.max(timeline[Math.floor(at)] ?? 0, Math.round(kb / 1024))
      if (kb > peak) {
        peak = kb
        peakAt = at
      }
    }, 50)
    child.on("error", reject)
    child.on("close", (code) => {
      clearInterval(tick)
      if (options.rssTimeline !== "") fs.appendFileSync(options.rssTimeline, `${command} ${args.join(" ")}\n${[...timeline].map((mb, t) => `${t}:${mb ?? ""}`).join(" ")}\n`)
      const text = fs.readFileSync(report, "utf8")
      const num = (label: string) => Number(new RegExp(`${label}: ([0-9.]+)`).exec(text)?.[1] ?? NaN)
      resolve({
        wall: (performance.now() - started) / 1000,
        cpu: num("User time \\(seconds\\)") + num("System time \\(seconds\\)"),
        rssMb: num("Maximum resident set size \\(kbytes\\)") / 1024,
        treeRssMb: peak / 1024,
        peakAt,
        code: code ?? -1,
        load: load(),
        stderr
      })
    })
  })
}

function freshWork(version: Version, folder: string): string {
  const work = path.join(options.cache, "work", version.name)
  fs.rmSync(work, { recursive: true, force: true })
  const cli = path.join(version.root, "apps", "cli", "bin", "sagasu.js")
  execFileSync(process.execPath, [cli, "init", "--work", work], { cwd: version.root, stdio: "ignore" })
  execFileSync(process.execPath, [cli, "add", "bench", folder, "--work", work], { cwd: version.root, stdio: "ignore" })
  return work
}

const logFigure = (work: string, pattern: RegExp) => {
  const m = pattern.exec(fs.readFileSync(path.join(work, "indexing_log.txt"), "utf8"))
  return m?.[1] === undefined ? NaN : Number(m[1])
}

interface CliRun extends Measured {
  readonly ingestPhase: number
  readonly done: number
}

async function cliRun(version: Version, folder: string): Promise<CliRun> {
  const work = freshWork(version, folder)
  const index = sagasuCommand(path.join(version.root, "apps", "cli", "bin", "sagasu.js"), ["index", "--yes", "--work", work])
  const m = await measure(index.command, index.args, version.root, index.env)
  if (m.code !== 0) say(`${version.name}: exit ${m.code} ${m.stderr.slice(-400)}`)
  return {
    ...m,
    // The log's words follow the settings' language since issue 16; older versions wrote English.
    ingestPhase: logFigure(work, /(?:ingest phase|取り込み段階): ([0-9.]+) (?:s|秒)/),
    done: logFigure(work, /成功: (\d+)/)
  }
}

interface TraceFile {
  readonly dispatched: ReadonlyArray<number>
  readonly result?: number
  readonly published?: number
  readonly kind?: string
}

async function tracedRun(version: Version, folder: string, sizes: ReadonlyMap<string, number>) {
  const work = freshWork(version, folder)
  const out = path.join(options.cache, `trace-${version.name}.json`)
  const profileDir = options.profile === "" ? undefined : path.resolve(options.profile, version.name)
  if (profileDir !== undefined) fs.rmSync(profileDir, { recursive: true, force: true })
  const nodeArgs = [...(profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profileDir}`]), "--import", "tsx"]
  const m = await measure(process.execPath, [...nodeArgs, path.join(here, "_traced_run.ts"), version.root, work, out], version.root)
  const trace = JSON.parse(fs.readFileSync(out, "utf8")) as { ms: number; files: Record<string, TraceFile> }
  // The 20 KB xlsx files (16–24 KB) read by a plain worker.
  const picked = Object.entries(trace.files).filter(([key, t]) => {
    const bytes = sizes.get(key.slice(key.indexOf("/") + 1)) ?? 0
    return key.endsWith(".xlsx") && t.kind === "plain" && bytes >= 16_000 && bytes <= 24_000 && t.published !== undefined
  })
  const toResult = picked.map(([, t]) => (t.result ?? NaN) - (t.dispatched[0] ?? NaN))
  const toPublish = picked.map(([, t]) => (t.published ?? NaN) - (t.dispatched[0] ?? NaN))
  const threads: Array<{ file: string; sampled: number; idle: number; top: Array<string> }> = []
  if (profileDir !== undefined) {
    for (const file of fs.readdirSync(profileDir).filter((f) => f.endsWith(".cpuprofile")).sort()) {
      const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), "utf8")) as Parameters<typeof summarize>[0]
      const s = summarize(profile)
      const idle = [...s.byFunction].filter(([k]) => k.startsWith("(idle)")).reduce((n, [, t]) => n + t, 0)
      const top = [...s.byModule].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, t]) => `${((100 * t) / s.total).toFixed(1)}% ${k}`)
      threads.push({ file, sampled: s.total / 1e6, idle: idle / s.total, top })
    }
  }
  return { measured: m, files: picked.length, toResult, toPublish, threads, ms: trace.ms }
}

// ---------------------------------------------------------------- run

const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].filter((x) => !Number.isNaN(x)).sort((a, b) => a - b)
  if (s.length === 0) return NaN
  return s.length % 2 === 1 ? (s[s.length >> 1] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2
}
const quantile = (xs: ReadonlyArray<number>, q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN
}

let folder = options.folder === "" ? "" : path.resolve(options.folder)
const sizes = new Map<string, number>()
if (folder === "") {
  folder = path.join(options.cache, `tree-${options.files}-${options.medianKb}k-${options.maxKb}k-s${options.seed}`)
  const tree = await makeIngestTree(folder, { seed: options.seed, files: options.files, medianBytes: options.medianKb * 1000, maxBytes: options.maxKb * 1000 })
  for (const f of tree.files) sizes.set(f.path, f.bytes)
  const all = tree.files.map((f) => f.bytes).sort((a, b) => a - b)
  say(`tree: ${tree.files.length} files, ${(all.reduce((a, b) => a + b, 0) / 1e6).toFixed(1)} MB, sizes ${all[0]} … median ${median(all)} … ${all[all.length - 1]} bytes`)
} else {
  for (const e of fs.readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) sizes.set(path.relative(folder, path.join(e.parentPath, e.name)).split(path.sep).join("/"), fs.statSync(path.join(e.parentPath, e.name)).size)
  }
  say(`folder: ${folder}, ${sizes.size} files`)
}

const versions: Array<Version> = [...(options.ref === "" ? [] : [exportRef(options.ref)]), { name: "working-tree", root: repoRoot }]
// Bundle the CLI of each version once before measuring.
for (const v of versions) execFileSync(process.execPath, [path.join(v.root, "apps", "cli", "bin", "sagasu.js"), "--version"], { cwd: v.root, stdio: "ignore" })

const runs = new Map<string, Array<CliRun>>(versions.map((v) => [v.name, []]))
for (let pair = 0; pair < options.pairs; pair++) {
  for (const v of versions) {
    const r = await cliRun(v, folder)
    runs.get(v.name)?.push(r)
    say(
      `${v.name}: wall ${r.wall.toFixed(2)} s, ingest ${r.ingestPhase} s, CPU ${r.cpu.toFixed(2)} s, ` +
        `RSS ${r.rssMb.toFixed(0)} MB (largest process) / ${r.treeRssMb.toFixed(0)} MB (tree, at ${r.peakAt.toFixed(1)} s), load ${r.load}`
    )
  }
}
console.log("\n| version | runs | wall s | ingest phase s | CPU s | peak RSS, largest process MB | peak RSS, tree MB | load |")
console.log("|---|---:|---:|---:|---:|---:|---:|---|")
for (const v of versions) {
  const rs = runs.get(v.name) ?? []
  console.log(
    `| ${v.name} | ${rs.length} | ${median(rs.map((r) => r.wall)).toFixed(2)} | ${median(rs.map((r) => r.ingestPhase)).toFixed(2)} | ` +
      `${median(rs.map((r) => r.cpu)).toFixed(2)} | ${median(rs.map((r) => r.rssMb)).toFixed(0)} | ${median(rs.map((r) => r.treeRssMb)).toFixed(0)} | ` +
      `${rs.map((r) => r.load).join(", ")} |`
  )
}

if (options.trace) {
  for (const v of versions) {
    const t = await tracedRun(v, folder, sizes)
    console.log(
      `\n${v.name} traced in-process: ${(t.ms / 1000).toFixed(2)} s run, ${t.files} xlsx of 16–24 KB: ` +
        `dispatch → result median ${median(t.toResult).toFixed(1)} ms (p90 ${quantile(t.toResult, 0.9).toFixed(1)}), ` +
        `dispatch → publish median ${median(t.toPublish).toFixed(1)} ms (p90 ${quantile(t.toPublish, 0.9).toFixed(1)}), load ${t.measured.load}`
    )
    for (const th of t.threads) console.log(`  ${th.file}: ${th.sampled.toFixed(2)} s sampled, idle ${(100 * th.idle).toFixed(1)}%\n    ${th.top.join("\n    ")}`)
  }
}
