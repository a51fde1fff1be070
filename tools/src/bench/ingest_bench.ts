/**
 * `npm run bench:ingest`: indexing speed and memory of Sagasu side by side
 * with Recoll and against the machine's floor, in one run (issue 9), written
 * into the `## Ingest` section of docs/benchmarks.md (the rest of the file is
 * kept as it is).
 *
 * Corpora: (a) ../shared/corpus/files; (b) a generated tree (ingest_tree.ts:
 * 70/20/10 xlsx/docx/pptx, 5 KB–30 MB); (c) the same tree with 5% of its
 * files replaced by legacy xls/doc/ppt made from them by LibreOffice (cached).
 * Per corpus: Sagasu's `sagasu index --yes` as a user runs it (a child
 * process under /usr/bin/time -v, phases read from progress.json), Recoll's
 * `recollindex` (which filters ran, from its log), and the floor
 * (ingest_floor.ts). Then recall on the corpus's expected strings and the
 * trees' probes, a no-change re-run against `find -printf '%s %T@'`,
 * progress read latency at 50,000 and 1,000,000 ingest-list rows, peak RSS
 * on one 100 MB workbook, and 1 worker against 2.
 *
 * `--drive` runs drive_bench.ts instead: a shared drive's tree of 20,000
 * files (≈15% legacy), Sagasu and Recoll alternated, in its own section
 * (`--drive --rerun-only`: only the no-change re-run of what it left).
 *
 * Options: `--files N` (tree size, default 2000), `--seed N`, `--max-mb N`
 * (largest file, default 30), `--threads N` (plain workers, default the CPU
 * count), `--cache DIR` (generated trees and legacy conversions, default
 * `$TMPDIR/sagasu-bench-ingest`), `--big-mb N` (the big workbook, default
 * 100), `--scale-workers N` (files of tree (b) used for 1 vs 2 workers,
 * default 500), `--no-doc` (print only), `--profile` (CPU profiles of the
 * slowest corpus into artifacts/ingest-profile/).
 *
 * @module
 */
import { NodeContext } from "@effect/platform-node"
import { type IngestRow, defaultSettings, formatIngestRow, ingestListHeader, messages } from "@sagasu/domain"
import { formatSettings, workPaths } from "@sagasu/store"
import { initWorkFolder, readIngestList, readProgress, scanBodyIndex, writeProgress, writeSettings } from "@sagasu/store/testing"
import { type Effect, ManagedRuntime } from "effect"
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { corpusDir, ooxmlKinds, readManifest, repoRoot } from "../corpus.ts"
import type { FloorFile } from "./ingest_floor.ts"
import { type IngestTree, makeIngestTree, makeWorkbook } from "./ingest_tree.ts"
import { sagasuCommand } from "./_launch.ts"
import { flag, opt, treeBenchOptions } from "./_args.ts"

// One runtime for the whole run: building the platform layer per call would cost more than a recall query.
const runtime = ManagedRuntime.make(NodeContext.layer)
const run = <A, E>(effect: Effect.Effect<A, E, NodeContext.NodeContext>) => runtime.runPromise(effect)

// ---------------------------------------------------------------- options

const argv = process.argv.slice(2)
const options = {
  ...treeBenchOptions({ files: 2000, seed: 1 }),
  maxMb: Number(opt("max-mb", "30")),
  bigMb: Number(opt("big-mb", "100")),
  scaleWorkers: Number(opt("scale-workers", "500")),
  legacyShare: 0.05,
  profile: flag("profile")
}
fs.mkdirSync(options.cache, { recursive: true })
const here = path.dirname(fileURLToPath(import.meta.url))
const sagasuBin = path.join(repoRoot, "apps", "cli", "bin", "sagasu.js")
const recollEnv = { ...process.env, PATH: "/usr/bin:/bin" }
const say = (s: string) => console.log(`[bench:ingest ${new Date().toISOString().slice(11, 19)}] ${s}`)
const load = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0] ?? "?"

// ---------------------------------------------------------------- measuring a child process

/** What /usr/bin/time -v says about a command and its children, plus our own wall clock. */
interface Timed {
  readonly wall: number
  readonly user: number
  readonly sys: number
  /** Peak RSS of the largest process of the tree, MB. */
  readonly rssMb: number
  readonly code: number
  readonly stdout: string
  readonly stderr: string
  /** Load average (1 min) when it ended: other work on the machine. */
  readonly load: string
}

function timed(
  command: string,
  args: ReadonlyArray<string>,
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; onTick?: (elapsed: number) => void } = {}
): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const report = path.join(options.cache, `time-${process.pid}-${Math.random().toString(36).slice(2)}.txt`)
    const started = performance.now()
    const child = spawn("/usr/bin/time", ["-v", "-o", report, command, ...args], {
      env: opts.env ?? process.env,
      cwd: opts.cwd ?? repoRoot,
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s))
    child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s))
    const tick = opts.onTick === undefined ? undefined : setInterval(() => opts.onTick?.(performance.now() - started), 100)
    child.on("error", reject)
    child.on("close", (code) => {
      if (tick !== undefined) clearInterval(tick)
      const wall = (performance.now() - started) / 1000
      const text = fs.existsSync(report) ? fs.readFileSync(report, "utf8") : ""
      fs.rmSync(report, { force: true })
      const num = (label: string) => Number(new RegExp(`${label}: ([0-9.]+)`).exec(text)?.[1] ?? NaN)
      resolve({
        wall,
        user: num("User time \\(seconds\\)"),
        sys: num("System time \\(seconds\\)"),
        rssMb: num("Maximum resident set size \\(kbytes\\)") / 1024,
        code: code ?? -1,
        stdout,
        stderr,
        load: load()
      })
    })
  })
}

// ---------------------------------------------------------------- corpora

interface Corpus {
  readonly id: "a" | "b" | "c"
  readonly label: string
  readonly dir: string
  readonly files: ReadonlyArray<{ readonly rel: string; readonly bytes: number; readonly kind: string }>
}

const kindOf = (rel: string) => path.extname(rel).slice(1).toLowerCase()

function listFiles(dir: string): Array<{ rel: string; bytes: number; kind: string }> {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const abs = path.join(e.parentPath, e.name)
      const rel = path.relative(dir, abs).split(path.sep).join("/")
      return { rel, bytes: fs.statSync(abs).size, kind: kindOf(rel) }
    })
    .sort((a, b) => a.rel.localeCompare(b.rel))
}

const legacyOf: Record<string, string> = { xlsx: "xls", docx: "doc", pptx: "ppt" }

/**
 * Tree (c): tree (b) with every 20th file under 2 MB (5% of the tree, in
 * the tree's own kind mix) replaced by its legacy form, converted once by
 * LibreOffice and cached; the rest hard-linked.
 */
function makeLegacyTree(tree: IngestTree, treeDir: string, outDir: string): Array<string> {
  const small = tree.files.filter((f) => f.bytes < 2_000_000)
  const want = Math.round(tree.files.length * options.legacyShare)
  const step = Math.max(1, Math.floor(small.length / want))
  const chosen = small.filter((_, i) => i % step === 0).slice(0, want)
  const cacheDir = path.join(options.cache, `legacy-${tree.options.seed}`)
  const missing = chosen.filter((f) => !fs.existsSync(path.join(cacheDir, f.path.replace(/\.(xlsx|docx|pptx)$/, (_, k: string) => `.${legacyOf[k]}`))))
  for (const kind of ["xlsx", "docx", "pptx"] as const) {
    const batch = missing.filter((f) => f.kind === kind)
    if (batch.length === 0) continue
    say(`converting ${batch.length} ${kind} to ${legacyOf[kind]} with LibreOffice (cached in ${cacheDir})`)
    // One conversion per file keeps the output beside its folder; one soffice process per kind.
    const staging = path.join(cacheDir, `_in-${kind}`)
    fs.rmSync(staging, { recursive: true, force: true })
    fs.mkdirSync(staging, { recursive: true })
    batch.forEach((f, i) => fs.copyFileSync(path.join(treeDir, f.path), path.join(staging, `${i}.${kind}`)))
    const out = path.join(cacheDir, `_out-${kind}`)
    fs.mkdirSync(out, { recursive: true })
    execFileSync("soffice", [
      `-env:UserInstallation=file://${path.join(options.cache, "lo-profile")}`, "--headless", "--norestore",
      "--convert-to", legacyOf[kind] ?? "", "--outdir", out, ...batch.map((_, i) => path.join(staging, `${i}.${kind}`))
    ], { stdio: "ignore", timeout: 1_800_000 })
    batch.forEach((f, i) => {
      const target = path.join(cacheDir, f.path.replace(/\.(xlsx|docx|pptx)$/, `.${legacyOf[kind]}`))
      fs.mkdirSync(path.dirname(target), { recursive: true })
      fs.renameSync(path.join(out, `${i}.${legacyOf[kind]}`), target)
    })
    fs.rmSync(staging, { recursive: true, force: true })
    fs.rmSync(out, { recursive: true, force: true })
  }
  fs.rmSync(outDir, { recursive: true, force: true })
  const replaced = new Set(chosen.map((f) => f.path))
  for (const f of tree.files) {
    const legacy = replaced.has(f.path)
    const rel = legacy ? f.path.replace(/\.(xlsx|docx|pptx)$/, (_, k: string) => `.${legacyOf[k]}`) : f.path
    const target = path.join(outDir, ...rel.split("/"))
    fs.mkdirSync(path.dirname(target), { recursive: true })
    fs.linkSync(legacy ? path.join(cacheDir, rel) : path.join(treeDir, f.path), target)
  }
  return chosen.map((f) => f.path)
}

// ---------------------------------------------------------------- Sagasu

interface SagasuRun extends Timed {
  readonly done: number
  readonly failed: number
  /** Seconds from start to the first ingest progress, to the end of ingesting, to the 2-gram update, to exit. */
  readonly phases: { crawlEnd?: number; ingestEnd?: number; gramStart?: number }
}

async function sagasuIndex(work: string, opts: { profileDir?: string } = {}): Promise<SagasuRun> {
  const paths = workPaths(work)
  const phases: { crawlEnd?: number; ingestEnd?: number; gramStart?: number } = {}
  const updatingGram = [messages("ja").updatingGram, messages("en").updatingGram]
  let polling = false
  const nodeArgs = opts.profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${opts.profileDir}`]
  const index = sagasuCommand(sagasuBin, ["index", "--yes", "--work", work], { extraNodeArgs: nodeArgs })
  const t = await timed(index.command, index.args, {
    env: index.env,
    onTick: (elapsed) => {
      if (polling) return
      polling = true
      void run(readProgress(paths)).then((p) => {
        polling = false
        if (p._tag === "None") return
        const s = elapsed / 1000
        if (p.value.phase === "ingest" && phases.crawlEnd === undefined) phases.crawlEnd = s
        if (p.value.phase === "finalize" && phases.ingestEnd === undefined) phases.ingestEnd = s
        if (updatingGram.includes(p.value.current) && phases.gramStart === undefined) phases.gramStart = s
      }, () => (polling = false))
    }
  })
  const rows = await run(readIngestList(paths))
  return { ...t, phases, done: rows.filter((r) => r.status === "done").length, failed: rows.filter((r) => r.status === "failed").length }
}

async function freshWork(name: string, folder: string, threads: number): Promise<string> {
  const work = path.join(options.cache, "work", name)
  fs.rmSync(work, { recursive: true, force: true })
  fs.mkdirSync(path.dirname(work), { recursive: true })
  const paths = await run(initWorkFolder(work, formatSettings(defaultSettings)))
  await run(writeSettings(paths, { ...defaultSettings, ingestThreads: threads, targetFolders: [{ name: "bench", path: folder, enabled: true }] }))
  return work
}

// ---------------------------------------------------------------- Recoll

interface RecollRun extends Timed {
  readonly confDir: string
  /** MIME type → [files, handler as mimeconf names it]. */
  readonly filters: ReadonlyArray<readonly [string, number, string]>
  readonly documents: number
}

function recollHandlers(): Map<string, string> {
  const conf = fs.readFileSync("/usr/share/recoll/examples/mimeconf", "utf8")
  const start = conf.search(/^\[index\]$/m)
  const end = conf.slice(start + 1).search(/^\[/m)
  const index = conf.slice(start, end < 0 ? conf.length : start + 1 + end)
  const handlers = new Map<string, string>()
  for (const m of index.replace(/\\\n/g, " ").matchAll(/^([a-z]+\/[^\s=]+)\s*=\s*(.+)$/gm)) {
    const words = (m[2] ?? "").trim().split(/\s+/)
    handlers.set(m[1] ?? "", words[0] === "internal" && words[1] === "xsltproc"
      ? `internal xslt (${words.filter((w) => w.endsWith(".xml")).join(", ")})`
      : words.slice(0, 2).join(" "))
  }
  return handlers
}

async function recollIndex(name: string, folder: string): Promise<RecollRun> {
  const confDir = path.join(options.cache, "recoll", name)
  fs.rmSync(confDir, { recursive: true, force: true })
  fs.mkdirSync(confDir, { recursive: true })
  fs.writeFileSync(path.join(confDir, "recoll.conf"), `topdirs = ${folder}\nloglevel = 4\nlogfilename = ${path.join(confDir, "log.txt")}\n`)
  const t = await timed("recollindex", ["-c", confDir, "-z"], { env: recollEnv, cwd: confDir })
  const log = fs.readFileSync(path.join(confDir, "log.txt"), "utf8")
  const counts = new Map<string, number>()
  for (const m of log.matchAll(/getMimeHandler: mtype \[([^\]]+)\]/g)) {
    const mime = m[1] ?? ""
    if (mime !== "text/html" && mime !== "inode/directory") counts.set(mime, (counts.get(mime) ?? 0) + 1)
  }
  const handlers = recollHandlers()
  const filters = [...counts].sort((a, b) => b[1] - a[1]).map(([mime, n]) => [mime, n, handlers.get(mime) ?? "?"] as const)
  const documents = Number(/(\d+) results/.exec(execFileSync("recollq", ["-c", confDir, "-Q", "mime:*"], { env: recollEnv, encoding: "utf8" }))?.[1] ?? NaN)
  return { ...t, confDir, filters, documents }
}

/** True when Recoll finds `expected` (a phrase per `"`-free piece, all of them) in the file at `abs`. */
function recollFinds(confDir: string, expected: string, abs: string): boolean {
  const pieces = expected.split('"').map((p) => p.trim()).filter((p) => p !== "")
  if (pieces.length === 0) return false
  try {
    const out = execFileSync("recollq", ["-c", confDir, "-b", "-n", "0", pieces.map((p) => `"${p}"`).join(" ")], {
      env: recollEnv, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 64 << 20
    })
    return out.split("\n").includes(`file://${abs}`)
  } catch {
    return false
  }
}

async function sagasuFinds(work: string, expected: string, rel: string): Promise<boolean> {
  const query = expected.split('"').filter((p) => p.trim() !== "").map((p) => `"${p}"`).join(" ")
  if (query === "") return false
  const { hits } = await run(scanBodyIndex(workPaths(work), query, { index: "bench", path: rel, limit: 1 }))
  return hits.length > 0
}

// ---------------------------------------------------------------- the floor

interface FloorRun extends Timed {
  readonly files: ReadonlyArray<FloorFile>
}

async function floorRun(name: string, dir: string, files: ReadonlyArray<string>, threads: number): Promise<FloorRun> {
  const list = path.join(options.cache, `floor-${name}.txt`)
  fs.writeFileSync(list, files.map((f) => path.join(dir, f)).join("\n"))
  const t = await timed(process.execPath, ["--import", "tsx", path.join(here, "ingest_floor.ts"), "--run", list, String(threads)])
  if (t.code !== 0) throw new Error(`floor failed: ${t.stderr}`)
  return { ...t, files: JSON.parse(t.stdout) as Array<FloorFile> }
}

// ---------------------------------------------------------------- progress reads

async function progressLatency(rows: number): Promise<{ rows: number; median: number; p99: number; listMb: number }> {
  const work = await freshWork(`progress-${rows}`, repoRoot, 1)
  const paths = workPaths(work)
  const out = fs.openSync(paths.ingestList, "w")
  let chunk = `${ingestListHeader}\n`
  for (let n = 0; n < rows; n++) {
    const row: IngestRow = { index: "bench", path: `部署${n % 100}/見積書_${n}.xlsx`, size: 10_000 + n, mtimeMs: 1_700_000_000_000 + n, status: "done" }
    chunk += `${formatIngestRow(row)}\n`
    if (chunk.length > 1 << 20) {
      fs.writeSync(out, chunk)
      chunk = ""
    }
  }
  fs.writeSync(out, chunk)
  fs.closeSync(out)
  await run(writeProgress(paths, { phase: "ingest", processed: rows / 2, remaining: rows / 2, failed: 0, current: "bench/部署1/見積書_1.xlsx" }))
  const times: Array<number> = []
  for (let i = 0; i < 2000; i++) {
    const t0 = performance.now()
    const p = await run(readProgress(paths))
    times.push(performance.now() - t0)
    if (p._tag !== "Some") throw new Error("progress unreadable")
  }
  times.sort((a, b) => a - b)
  const listMb = fs.statSync(paths.ingestList).size / 1e6
  fs.rmSync(work, { recursive: true, force: true })
  return { rows, median: times[1000] ?? NaN, p99: times[1980] ?? NaN, listMb }
}

// ---------------------------------------------------------------- the run

const mb = (bytes: number) => bytes / 1e6
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "–")
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "–")
const pct = (a: number, b: number) => (b === 0 ? "–" : `${((100 * a) / b).toFixed(1)}%`)

async function main() {
  // `--drive`: the shared drive's tree, Sagasu and Recoll alternated (drive_bench.ts).
  if (flag("drive")) {
    const { driveBench } = await import("./drive_bench.ts")
    return driveBench()
  }
  const started = Date.now()
  const versions = {
    node: process.version,
    recoll: `Recoll ${execFileSync("dpkg-query", ["-W", "-f", "${Version}", "recollcmd"], { encoding: "utf8" }).trim()} (Debian recollcmd)`,
    libreoffice: (() => { try { return execFileSync("soffice", ["--version"], { encoding: "utf8" }).trim() } catch { return "not found" } })(),
    saxes: (JSON.parse(fs.readFileSync(path.join(repoRoot, "node_modules", "saxes", "package.json"), "utf8")) as { version: string }).version
  }
  const cpu = os.cpus()[0]?.model ?? "?"
  say(`${os.availableParallelism()} cores (${cpu}), ${f1(os.totalmem() / 2 ** 30)} GiB; load ${load()}; cache ${options.cache}`)

  // Corpora.
  const treeB = path.join(options.cache, `tree-b-${options.files}-${options.seed}-${options.maxMb}`)
  say(`corpus (b): ${options.files} files (generated or cached)`)
  const genStarted = performance.now()
  const tree = await makeIngestTree(treeB, { files: options.files, seed: options.seed, maxBytes: options.maxMb * 1e6 })
  const genSeconds = (performance.now() - genStarted) / 1000
  const treeC = `${treeB}-legacy`
  const legacy = makeLegacyTree(tree, treeB, treeC)
  const corpora: Array<Corpus> = [
    { id: "a", label: "(a) shared corpus", dir: path.join(corpusDir, "files"), files: listFiles(path.join(corpusDir, "files")) },
    { id: "b", label: `(b) ${options.files} generated`, dir: treeB, files: listFiles(treeB) },
    { id: "c", label: `(c) (b) + ${legacy.length} legacy`, dir: treeC, files: listFiles(treeC) }
  ]

  // Per corpus: Sagasu, Recoll, floor.
  const results: Array<{ corpus: Corpus; sagasu: SagasuRun; work: string; log: string; recoll: RecollRun; floor: FloorRun }> = []
  for (const corpus of corpora) {
    const work = await freshWork(`sagasu-${corpus.id}`, corpus.dir, options.threads)
    say(`${corpus.label}: Sagasu (load ${load()})`)
    const sagasu = await sagasuIndex(work)
    // Read now: the no-change re-run below rotates the log.
    const log = fs.readFileSync(path.join(work, "indexing_log.txt"), "utf8")
    say(`  ${f1(sagasu.wall)} s, ${sagasu.done} done, ${sagasu.failed} failed; Recoll`)
    const recoll = await recollIndex(corpus.id, corpus.dir)
    say(`  ${f1(recoll.wall)} s; floor`)
    const floor = await floorRun(corpus.id, corpus.dir, corpus.files.map((f) => f.rel), options.threads)
    say(`  ${f1(floor.wall)} s`)
    results.push({ corpus, sagasu, work, log, recoll, floor })
  }

  // Recall: corpus (a)'s expected strings; the trees' probes (every 10th file, both probes).
  say("recall")
  const manifest = readManifest()
  const recallA = { all: [0, 0, 0], ooxml: [0, 0, 0] } // [total, sagasu, recoll]
  const ra = results[0]
  if (ra !== undefined) {
    for (const row of manifest) {
      const rel = row.path.replace(/^files\//, "")
      for (const expected of row.expected) {
        const s = await sagasuFinds(ra.work, expected, rel)
        const r = recollFinds(ra.recoll.confDir, expected, path.join(ra.corpus.dir, rel))
        for (const bucket of ooxmlKinds.has(row.kind) ? [recallA.all, recallA.ooxml] : [recallA.all]) {
          bucket[0]! += 1
          if (s) bucket[1]! += 1
          if (r) bucket[2]! += 1
        }
      }
    }
  }
  const probeRecall: Record<string, [number, number, number]> = {}
  for (const r of results.slice(1)) {
    const legacySet = new Set(legacy)
    const counts: [number, number, number] = [0, 0, 0]
    for (const f of tree.files.filter((_, i) => i % 10 === 0)) {
      const rel = r.corpus.id === "c" && legacySet.has(f.path) ? f.path.replace(/\.(xlsx|docx|pptx)$/, (_, k: string) => `.${legacyOf[k]}`) : f.path
      for (const probe of [f.probe, f.probeJa]) {
        counts[0]++
        if (await sagasuFinds(r.work, probe, rel)) counts[1]++
        if (recollFinds(r.recoll.confDir, probe, path.join(r.corpus.dir, rel))) counts[2]++
      }
    }
    probeRecall[r.corpus.id] = counts
  }

  // No-change re-run of (b) against find.
  say("no-change re-run")
  const rb = results[1]
  const rerun = rb === undefined ? undefined : await sagasuIndex(rb.work)
  const findTimes: Array<number> = []
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now()
    execFileSync("find", [treeB, "-type", "f", "-printf", "%s %T@\\n"], { stdio: ["ignore", "ignore", "ignore"] })
    findTimes.push((performance.now() - t0) / 1000)
  }
  findTimes.sort((a, b) => a - b)
  const find = findTimes[2] ?? NaN
  const version = sagasuCommand(sagasuBin, ["--version"])
  const startup = await timed(version.command, version.args, { env: version.env })

  // Progress reads.
  say("progress read latency")
  const progress = [await progressLatency(50_000), await progressLatency(1_000_000)]

  // One big workbook.
  say(`one ${options.bigMb} MB workbook`)
  const bigDir = path.join(options.cache, `big-${options.bigMb}`)
  const bigFile = path.join(bigDir, "大きな台帳.xlsx")
  if (!fs.existsSync(bigFile)) {
    fs.mkdirSync(bigDir, { recursive: true })
    makeWorkbook(bigFile, options.bigMb * 1e6, 42)
  }
  const bigWork = await freshWork("big", bigDir, options.threads)
  const big = await sagasuIndex(bigWork)
  const bigBytes = fs.statSync(bigFile).size

  // 1 worker against 2, on the first N files of (b) (same files both times).
  say(`workers: 1 vs ${options.threads} on ${options.scaleWorkers} files`)
  const subset = path.join(options.cache, `subset-${options.files}-${options.scaleWorkers}`)
  fs.rmSync(subset, { recursive: true, force: true })
  const subsetFiles = tree.files.filter((_, i) => i % Math.max(1, Math.floor(tree.files.length / options.scaleWorkers)) === 0).slice(0, options.scaleWorkers)
  for (const f of subsetFiles) {
    const target = path.join(subset, ...f.path.split("/"))
    fs.mkdirSync(path.dirname(target), { recursive: true })
    fs.linkSync(path.join(treeB, f.path), target)
  }
  const scaling: Array<{ threads: number; run: SagasuRun }> = []
  for (const threads of [1, options.threads]) scaling.push({ threads, run: await sagasuIndex(await freshWork(`scale-${threads}`, subset, threads)) })
  const subsetBytes = subsetFiles.reduce((n, f) => n + f.bytes, 0)

  // A CPU profile of the slowest corpus (main thread and each worker thread).
  let profileNote = ""
  if (options.profile) {
    const slowest = [...results].sort((x, y) => y.sagasu.wall - x.sagasu.wall)[0]
    if (slowest !== undefined) {
      const dir = path.join(repoRoot, "artifacts", "ingest-profile")
      fs.rmSync(dir, { recursive: true, force: true })
      fs.mkdirSync(dir, { recursive: true })
      say(`CPU profile of ${slowest.corpus.label} into artifacts/ingest-profile/`)
      await sagasuIndex(await freshWork("profile", slowest.corpus.dir, options.threads), { profileDir: dir })
      profileNote = `CPU profiles of ${slowest.corpus.label}: artifacts/ingest-profile/ (git-ignored).`
    }
  }

  // ------------------------------------------------------------ the table
  const lines: Array<string> = []
  const push = (s = "") => lines.push(s)
  push("## Ingest")
  push()
  // The cache folder is this machine's business, not the document's.
  const shown = argv.filter((a, i) => a !== "--cache" && argv[i - 1] !== "--cache").join(" ")
  push(`One run of \`npm run bench:ingest${shown === "" ? "" : ` -- ${shown}`}\`, ${new Date().toISOString().slice(0, 10)}, ${f1((Date.now() - started) / 60000)} min.`)
  push(`Machine: ${os.availableParallelism()} cores (${cpu}), ${f1(os.totalmem() / 2 ** 30)} GiB RAM, Linux ${os.release()}; Node ${versions.node}, saxes ${versions.saxes}, ${versions.libreoffice}, ${versions.recoll}.`)
  push(`Sagasu runs as a user runs it: \`sagasu index --yes\` in a fresh work folder, ${options.threads} plain workers, the Office owners for legacy files; its wall time includes Node start, crawl, ingest, publish and the 2-gram update (R16), shown apart. Recoll: \`recollindex -z\` with a config holding only \`topdirs\`, Debian's filters, PATH=/usr/bin:/bin. The floor reads each file, inflates every XML part and tokenizes it with saxes (namespaces on, as Sagasu), writing nothing, on ${options.threads} processes. CPU = user + system of the whole process tree (/usr/bin/time -v); RSS = the largest process of the tree. The machine was shared with other work: the 1-minute load average at the end of each step is given.`)
  push()
  for (const c of corpora) {
    const bytes = c.files.reduce((n, f) => n + f.bytes, 0)
    const kinds = new Map<string, number>()
    for (const f of c.files) kinds.set(f.kind, (kinds.get(f.kind) ?? 0) + 1)
    const sizes = c.files.map((f) => f.bytes).sort((x, y) => x - y)
    push(`- ${c.label}: ${c.files.length} files, ${f1(mb(bytes))} MB (${[...kinds].sort((x, y) => y[1] - x[1]).map(([k, n]) => `${n} ${k}`).join(", ")}); sizes ${f1(mb(sizes[0] ?? 0) * 1000)} KB … median ${f1(mb(sizes[Math.floor(sizes.length / 2)] ?? 0) * 1000)} KB … ${f1(mb(sizes.at(-1) ?? 0))} MB.`)
  }
  push(`- Tree (b): \`ingest_tree.ts\` seed ${options.seed}, ${options.files} files, largest ${options.maxMb} MB, log-normal sizes (median 60 KB); made in ${f1(genSeconds)} s (0 s = cached). Tree (c): ${legacy.length} files of (b) under 2 MB converted to xls/doc/ppt by LibreOffice once (cached), the rest hard links.`)
  push()
  push("| corpus | tool | wall s | files/s | MB/s | CPU s | peak RSS MB | done / failed | load |")
  push("|---|---|---:|---:|---:|---:|---:|---|---:|")
  for (const r of results) {
    const bytes = r.corpus.files.reduce((n, f) => n + f.bytes, 0)
    const n = r.corpus.files.length
    const row = (tool: string, t: Timed, extra: string) =>
      push(`| ${r.corpus.label} | ${tool} | ${f1(t.wall)} | ${f1(n / t.wall)} | ${f2(mb(bytes) / t.wall)} | ${f1(t.user + t.sys)} | ${Math.round(t.rssMb)} | ${extra} | ${t.load} |`)
    row("Sagasu", r.sagasu, `${r.sagasu.done} / ${r.sagasu.failed}`)
    const p = r.sagasu.phases
    if (p.ingestEnd !== undefined) {
      const ingest = p.ingestEnd - (p.crawlEnd ?? 0)
      push(`| | ↳ ingest phase only | ${f1(ingest)} | ${f1(n / ingest)} | ${f2(mb(bytes) / ingest)} | | | | |`)
      if (p.gramStart !== undefined) push(`| | ↳ 2-gram update (R16) | ${f1(r.sagasu.wall - p.gramStart)} | | | | | | |`)
    }
    row("Recoll", r.recoll, `${r.recoll.documents} docs`)
    const read = r.floor.files.filter((f) => !f.skipped)
    row("floor", r.floor, `${read.length} read, ${r.floor.files.length - read.length} not zip`)
  }
  push()
  push("| corpus | Sagasu/Recoll throughput | Sagasu/floor throughput (whole run) | Sagasu/floor (ingest phase) | xlsx only: Sagasu/floor per worker |")
  push("|---|---:|---:|---:|---:|")
  for (const r of results) {
    const p = r.sagasu.phases
    const ingest = p.ingestEnd !== undefined ? p.ingestEnd - (p.crawlEnd ?? 0) : NaN
    // Per-worker xlsx throughput: the worker's own time per file from the run log against the floor's per-file time.
    let sagasuXlsxMs = 0
    // A done file's block and its first note, `2 パート、100 行、35 ms` (English before issue 16: `…, 35 ms`).
    for (const m of r.log.matchAll(/\] bench\/(.+?\.xlsx): (?:done|取り込みました)\n\s+.*?[,、] ?(\d+) ms\n/g)) sagasuXlsxMs += Number(m[2])
    const floorXlsxMs = r.floor.files.filter((f) => f.file.endsWith(".xlsx")).reduce((n, f) => n + f.ms, 0)
    push(`| ${r.corpus.label} | ${f2(r.recoll.wall / r.sagasu.wall)}× | ${pct(r.floor.wall, r.sagasu.wall)} | ${pct(r.floor.wall, ingest)} | ${pct(floorXlsxMs, sagasuXlsxMs)} |`)
  }
  push()
  push("Recoll's filters, by MIME type (files seen → handler):")
  push()
  for (const r of results) push(`- ${r.corpus.label}: ${r.recoll.filters.map(([mime, n, h]) => `${mime.replace("application/vnd.openxmlformats-officedocument.", "ooxml.")} ×${n} → ${h}`).join("; ")}`)
  push()
  push("| recall | Sagasu | Recoll |")
  push("|---|---:|---:|")
  push(`| (a) expected strings, all ${recallA.all[0]} (every kind) | ${pct(recallA.all[1]!, recallA.all[0]!)} | ${pct(recallA.all[2]!, recallA.all[0]!)} |`)
  push(`| (a) expected strings of OOXML files, ${recallA.ooxml[0]} | ${pct(recallA.ooxml[1]!, recallA.ooxml[0]!)} | ${pct(recallA.ooxml[2]!, recallA.ooxml[0]!)} |`)
  for (const [id, c] of Object.entries(probeRecall)) push(`| (${id}) probes (ASCII + Japanese) of every 10th file, ${c[0]} | ${pct(c[1], c[0])} | ${pct(c[2], c[0])} |`)
  push()
  push("| other figures | measured | target |")
  push("|---|---:|---|")
  if (rerun !== undefined) {
    push(`| no-change re-run of (b), \`sagasu index --yes\` wall | ${f2(rerun.wall)} s (CPU ${f2(rerun.user + rerun.sys)} s, RSS ${Math.round(rerun.rssMb)} MB) | within 2× of find |`)
    push(`| \`find -type f -printf '%s %T@\\n'\` over (b), median of 5 | ${(find * 1000).toFixed(0)} ms | |`)
    push(`| \`sagasu --version\` (Node + tsx start, no work) | ${f2(startup.wall)} s, RSS ${Math.round(startup.rssMb)} MB | |`)
  }
  for (const p of progress) push(`| progress read (readProgress), ingest list of ${p.rows.toLocaleString("en-US")} rows (${f1(p.listMb)} MB) | median ${(p.median * 1000).toFixed(0)} µs, p99 ${(p.p99 * 1000).toFixed(0)} µs | < 1 ms |`)
  push(`| one ${f1(mb(bigBytes))} MB workbook: peak RSS / wall | ${Math.round(big.rssMb)} MB / ${f1(big.wall)} s (${big.done} done) | < 300 MB |`)
  const [one, two] = scaling
  if (one !== undefined && two !== undefined) {
    const ph = (r: SagasuRun) => (r.phases.ingestEnd ?? r.wall) - (r.phases.crawlEnd ?? 0)
    push(`| ${subsetFiles.length} files of (b) (${f1(mb(subsetBytes))} MB), ingest phase: 1 worker / ${two.threads} workers | ${f1(ph(one.run))} s / ${f1(ph(two.run))} s = ${f2(ph(one.run) / ph(two.run))}× | ≥ 1.7× |`)
    push(`| same, whole run | ${f1(one.run.wall)} s / ${f1(two.run.wall)} s = ${f2(one.run.wall / two.run.wall)}× | |`)
  }
  if (profileNote !== "") {
    push()
    push(profileNote)
  }
  const section = lines.join("\n")
  console.log(`\n${section}\n`)
  fs.writeFileSync(path.join(options.cache, "last-ingest-section.md"), section)
  if (options.writeDoc) writeSection(section)
}

/** Replaces (or appends) the `## Ingest` section of docs/benchmarks.md, keeping everything else; re-read right before writing. */
function writeSection(section: string) {
  const doc = path.join(repoRoot, "docs", "benchmarks.md")
  fs.mkdirSync(path.dirname(doc), { recursive: true })
  const before = fs.existsSync(doc) ? fs.readFileSync(doc, "utf8") : ""
  const start = before.search(/^## Ingest\s*$/m)
  let text: string
  if (start < 0) {
    text = before === "" ? `# Benchmarks\n\n${section}\n` : `${before.replace(/\n*$/, "\n\n")}${section}\n`
  } else {
    const rest = before.slice(start + 1)
    const next = rest.search(/^## /m)
    const end = next < 0 ? before.length : start + 1 + next
    const tail = before.slice(end)
    // The reading of the figures below the tables is written by hand: keep it across runs.
    const old = before.slice(start, end)
    const reading = old.indexOf("\n### Where the time goes")
    const kept = reading < 0 ? "" : `\n${old.slice(reading).replace(/\n+$/, "")}\n`
    text = `${before.slice(0, start)}${section}\n${kept}${tail === "" ? "" : `\n${tail.replace(/^\n+/, "")}`}`
  }
  fs.writeFileSync(doc, text)
  say(`wrote the Ingest section of ${path.relative(repoRoot, doc)}`)
}

await main()
await runtime.dispose()
