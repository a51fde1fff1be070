/**
 * `npm run bench:ingest -- --drive`: indexing a shared drive's tree
 * (drive_tree.ts, ≥ 20,000 files, ≈15% legacy) from empty, Sagasu and Recoll
 * alternated A B A B in the same minutes (issue 20). Per run: wall time, CPU
 * of the whole process tree (user + system of every process, LibreOffice
 * and Recoll's filters included: /usr/bin/time over the tree, checked
 * against a /proc sampler every 250 ms), the peak RSS of the tree (the
 * sampler's sum), the work folder's (index's) size, the 1-minute load
 * average; then recall on a sample of probes, and a no-change re-run of
 * each. The table goes into the `## Ingest at a shared drive's scale`
 * section of docs/benchmarks.md.
 *
 * Options: `--files N` (default 20000), `--seed N`, `--pairs N` (default 3),
 * `--threads N`, `--cache DIR`, `--no-doc`.
 *
 * `--rerun-only` measures only the no-change re-run, on the work folder and
 * Recoll index an earlier run left in the cache (`drive-work/sagasu-<n>`,
 * `drive-recoll/recoll-<n>`, `--n` default 0): first a check that Sagasu
 * would ingest nothing (`sagasu index` without `--yes`, declined, its plan
 * read), one re-run of each unmeasured (the caches warm), then `--reps`
 * (default 5) re-runs of each alternated A B A B;
 * median wall and CPU of the process tree, the 1-minute load before each.
 * It prints its table and writes nothing into the document.
 *
 * @module
 */
import { messages } from "@sagasu/domain"
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { repoRoot } from "../corpus.ts"
import { type DriveTree, makeDriveTree } from "./drive_tree.ts"
import { flag, opt, treeBenchOptions } from "./_args.ts"
import { sagasuCommand } from "./_launch.ts"

const options = { ...treeBenchOptions({ files: 20000, seed: 7 }), pairs: Number(opt("pairs", "3")) }
const bin = path.join(repoRoot, "apps", "cli", "bin", "sagasu.js")
const recollEnv = { ...process.env, PATH: "/usr/bin:/bin" }
const say = (s: string) => console.log(`[bench:drive ${new Date().toISOString().slice(11, 19)}] ${s}`)
const load = () => Number(fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0] ?? "0")
const median = (xs: ReadonlyArray<number>) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? Number.NaN : s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : "–")
const f2 = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "–")

const ticks = 100 // USER_HZ on Linux
const pageBytes = 4096

/** Every process of the machine: pid → [ppid, rss bytes, cpu seconds]. */
function processes(): Map<number, [number, number, number]> {
  const out = new Map<number, [number, number, number]>()
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8")
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      // After the command: state(0) ppid(1) … utime(11) stime(12) … rss(21)
      out.set(Number(name), [Number(fields[1]), Number(fields[21]) * pageBytes, (Number(fields[11]) + Number(fields[12])) / ticks])
    } catch {
      // gone meanwhile
    }
  }
  return out
}

interface Measured {
  readonly wall: number
  /** User + system seconds of the tree: /usr/bin/time's (reaped descendants), or the sampler's when larger. */
  readonly cpu: number
  /** Peak of the summed RSS of the tree, MB. */
  readonly rssMb: number
  readonly code: number
  readonly loadStart: number
  readonly loadEnd: number
  readonly stdout: string
}

function measure(command: string, args: ReadonlyArray<string>, env: NodeJS.ProcessEnv, cwd: string): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const report = path.join(os.tmpdir(), `sagasu-drive-time-${process.pid}-${Math.random().toString(36).slice(2)}`)
    const loadStart = load()
    const started = performance.now()
    const child = spawn("/usr/bin/time", ["-f", "%U %S", "-o", report, command, ...args], { env, cwd, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout = (stdout + s).slice(-20_000)))
    child.stderr.resume()
    let peak = 0
    const lastCpu = new Map<number, number>()
    const sample = () => {
      const all = processes()
      const tree = new Set<number>([child.pid ?? -1])
      let grew = true
      while (grew) {
        grew = false
        for (const [pid, [ppid]] of all) if (!tree.has(pid) && tree.has(ppid)) {
          tree.add(pid)
          grew = true
        }
      }
      let rss = 0
      for (const pid of tree) {
        const p = all.get(pid)
        if (p === undefined) continue
        rss += p[1]
        lastCpu.set(pid, p[2])
      }
      peak = Math.max(peak, rss)
    }
    const timer = setInterval(sample, 250)
    child.on("error", reject)
    child.on("close", (code) => {
      clearInterval(timer)
      const wall = (performance.now() - started) / 1000
      const [u = "0", s = "0"] = (fs.existsSync(report) ? fs.readFileSync(report, "utf8") : "").trim().split("\n").pop()?.split(" ") ?? []
      fs.rmSync(report, { force: true })
      const sampled = [...lastCpu.values()].reduce((a, b) => a + b, 0)
      resolve({ wall, cpu: Math.max(Number(u) + Number(s), sampled), rssMb: peak / 1e6, code: code ?? -1, loadStart, loadEnd: load(), stdout })
    })
  })
}

const du = (dir: string): number => {
  let total = 0
  if (!fs.existsSync(dir)) return 0
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) total += fs.statSync(path.join(e.parentPath, e.name)).size
  }
  return total
}

async function sagasuRun(treeDir: string, n: number) {
  const work = path.join(options.cache, "drive-work", `sagasu-${n}`)
  fs.rmSync(work, { recursive: true, force: true })
  fs.mkdirSync(path.dirname(work), { recursive: true })
  for (const args of [["init"], ["add", "drive", treeDir]]) execFileSync(process.execPath, [bin, ...args, "--work", work], { stdio: "ignore" })
  const settings = path.join(work, "setting.config")
  fs.writeFileSync(settings, JSON.stringify({ ...JSON.parse(fs.readFileSync(settings, "utf8")), ingestThreads: options.threads }))
  const index = sagasuCommand(bin, ["index", "--yes", "--work", work], { env: { ...process.env, NO_COLOR: "1" } })
  const m = await measure(index.command, index.args, index.env, repoRoot)
  const list = fs.readFileSync(path.join(work, "store", "ingest_list.tsv"), "utf8").split("\n").slice(1).map((l) => l.split("\t"))
  const last = new Map(list.filter((f) => f.length > 4).map((f) => [`${f[0]}/${f[1]}`, f[4]]))
  const done = [...last.values()].filter((s) => s === "done").length
  const failed = [...last.values()].filter((s) => s === "failed").length
  const body = du(path.join(work, "index"))
  const gram = du(path.join(work, "gram"))
  return { ...m, work, done, failed, bodyBytes: body, workBytes: du(work), gramBytes: gram }
}

async function recollRun(treeDir: string, n: number) {
  const conf = path.join(options.cache, "drive-recoll", `recoll-${n}`)
  fs.rmSync(conf, { recursive: true, force: true })
  fs.mkdirSync(conf, { recursive: true })
  fs.writeFileSync(path.join(conf, "recoll.conf"), `topdirs = ${treeDir}\nloglevel = 1\n`)
  const m = await measure("recollindex", ["-c", conf, "-z"], recollEnv, conf)
  let documents = Number.NaN
  try {
    documents = Number(/(\d+) results/.exec(execFileSync("recollq", ["-c", conf, "-Q", "mime:*"], { env: recollEnv, encoding: "utf8", maxBuffer: 1 << 28 }))?.[1] ?? NaN)
  } catch {
    // counted as unknown
  }
  return { ...m, conf, documents, indexBytes: du(path.join(conf, "xapiandb")) }
}

function sagasuFinds(work: string, probe: string, rel: string): boolean {
  try {
    const out = execFileSync(process.execPath, [bin, "search", `"${probe}"`, "--work", work, "--json", "--limit", "500"], { encoding: "utf8", maxBuffer: 1 << 26 })
    return (JSON.parse(out) as Array<{ path: string }>).some((h) => h.path === rel)
  } catch {
    return false
  }
}

function recollFinds(conf: string, probe: string, abs: string): boolean {
  const pieces = probe.split('"').map((p) => p.trim()).filter((p) => p !== "")
  if (pieces.length === 0) return false
  try {
    const out = execFileSync("recollq", ["-c", conf, "-b", "-n", "0", pieces.map((p) => `"${p}"`).join(" ")], { env: recollEnv, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], maxBuffer: 1 << 26 })
    return out.split("\n").includes(`file://${abs}`)
  } catch {
    return false
  }
}

/**
 * What `sagasu index` without `--yes` (declined: its stdin closed) would
 * ingest in `work`: the plan's new, changed and pending counts summed, read
 * from its output in either language (0 when it asked nothing and said that
 * nothing needs ingesting); throws when neither is there.
 */
function plannedIngests(work: string, env: NodeJS.ProcessEnv): number {
  let out: string
  try {
    const index = sagasuCommand(bin, ["index", "--work", work], { env })
    out = execFileSync(index.command, index.args, { env: index.env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 26 })
  } catch (e) {
    out = String((e as { stdout?: unknown }).stdout ?? "") // exit 2: declined
  }
  const counts = [...out.matchAll(/^(新規|変更|未取り込み|new|changed|pending)\s+([\d,]+)\s*$/gm)].map((m) => Number(m[2]!.replace(/,/g, "")))
  // Nothing a yes would ingest: the command asks nothing, shows no plan, and says so (exit 0).
  if (counts.length === 0 && [messages("ja").noTargetsNeeded, messages("en").noTargetsNeeded].some((m) => out.includes(m))) return 0
  if (counts.length < 3) throw new Error(`no plan in the output of sagasu index:\n${out.slice(-2000)}`)
  return counts.reduce((a, b) => a + b, 0)
}

/** `--rerun-only`: the no-change re-run of an existing work folder and Recoll index, alternated (see the module's comment). */
export async function rerunBench(): Promise<void> {
  const n = opt("n", "0")
  const reps = Number(opt("reps", "5"))
  const work = path.join(options.cache, "drive-work", `sagasu-${n}`)
  const conf = path.join(options.cache, "drive-recoll", `recoll-${n}`)
  for (const d of [work, conf]) if (!fs.existsSync(d)) throw new Error(`${d} is missing: run the drive benchmark first`)
  // Timing: without the extra CA certificates a start here costs 100+ ms less (they have nothing to do with indexing).
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1" }
  delete env.NODE_EXTRA_CA_CERTS
  const planned = plannedIngests(work, env)
  if (planned !== 0) throw new Error(`sagasu would ingest ${planned} files in ${work}: not a no-change re-run, nothing measured`)
  say(`${work}: nothing to ingest; ${reps} re-runs of each, alternated`)
  const runs = { sagasu: [] as Array<Measured>, recoll: [] as Array<Measured> }
  // Unmeasured: after other work the page cache may not hold either tree's folders (a cold re-run took 40 s and Recoll's 120 s here).
  const index = sagasuCommand(bin, ["index", "--yes", "--work", work], { env })
  await measure(index.command, index.args, index.env, repoRoot)
  await measure("recollindex", ["-c", conf], recollEnv, conf)
  for (let k = 0; k < reps; k++) {
    const s = await measure(index.command, index.args, index.env, repoRoot)
    if (s.code !== 0) throw new Error(`sagasu index exited ${s.code}: ${s.stdout.slice(-2000)}`)
    runs.sagasu.push(s)
    const r = await measure("recollindex", ["-c", conf], recollEnv, conf)
    runs.recoll.push(r)
    say(`  ${k + 1}: Sagasu ${f2(s.wall)} s (CPU ${f2(s.cpu)} s, load ${f1(s.loadStart)}), recollindex ${f2(r.wall)} s (CPU ${f2(r.cpu)} s, load ${f1(r.loadStart)})`)
  }
  const row = (tool: string, xs: ReadonlyArray<Measured>) =>
    `| ${tool} | ${f2(median(xs.map((x) => x.wall)))} | ${xs.map((x) => f2(x.wall)).join(", ")} | ${f2(median(xs.map((x) => x.cpu)))} | ${xs.map((x) => f1(x.loadStart)).join(", ")} |`
  console.log([
    "",
    `No-change re-run, ${reps} of each alternated, ${new Date().toISOString().slice(0, 16)}Z, ${os.availableParallelism()} cores, Node ${process.version}:`,
    "",
    "| tool | wall s, median | walls s | CPU s (tree), median | 1-min load before each |",
    "|---|---:|---|---:|---|",
    row("Sagasu `index --yes`", runs.sagasu),
    row("`recollindex`", runs.recoll),
    "",
    `Sagasu / recollindex: ${f2(median(runs.sagasu.map((x) => x.wall)) / median(runs.recoll.map((x) => x.wall)))}×`
  ].join("\n"))
}

export async function driveBench(): Promise<void> {
  if (flag("rerun-only")) return rerunBench()
  fs.mkdirSync(options.cache, { recursive: true })
  say(`the drive of ${options.files} files (made or cached in ${options.cache}) …`)
  const made = performance.now()
  const { dir, tree } = await makeDriveTree(options.cache, options.files, options.seed)
  say(`  ready in ${f1((performance.now() - made) / 1000)} s`)
  const bytes = tree.files.reduce((n, f) => n + f.bytes, 0)
  const byExt = new Map<string, number>()
  for (const f of tree.files) byExt.set(f.ext, (byExt.get(f.ext) ?? 0) + 1)
  const legacy = tree.files.filter((f) => f.source.startsWith("legacy")).length

  const sagasu: Array<Awaited<ReturnType<typeof sagasuRun>>> = []
  const recoll: Array<Awaited<ReturnType<typeof recollRun>>> = []
  for (let p = 0; p < options.pairs; p++) {
    say(`pair ${p + 1}: Sagasu (load ${load()})`)
    sagasu.push(await sagasuRun(dir, p))
    say(`  ${f1(sagasu[p]!.wall)} s, CPU ${f1(sagasu[p]!.cpu)} s, ${sagasu[p]!.done} done, ${sagasu[p]!.failed} failed; Recoll (load ${load()})`)
    recoll.push(await recollRun(dir, p))
    say(`  ${f1(recoll[p]!.wall)} s, CPU ${f1(recoll[p]!.cpu)} s, ${recoll[p]!.documents} docs`)
  }

  // Recall on every 60th file's probe, in the last pair's indexes.
  const s = sagasu[sagasu.length - 1]!
  const r = recoll[recoll.length - 1]!
  const sample = tree.files.filter((f, i) => i % 60 === 0 && f.probe !== "")
  let sFound = 0
  let rFound = 0
  for (const f of sample) {
    if (sagasuFinds(s.work, f.probe, f.path)) sFound++
    if (recollFinds(r.conf, f.probe, path.join(dir, ...f.path.split("/")))) rFound++
  }
  say(`recall on ${sample.length} probes: Sagasu ${sFound}, Recoll ${rFound}`)

  // A no-change re-run of each, alternated, 3 times.
  const again = { sagasu: [] as Array<number>, recoll: [] as Array<number> }
  for (let k = 0; k < 3; k++) {
    const index = sagasuCommand(bin, ["index", "--yes", "--work", s.work])
    again.sagasu.push((await measure(index.command, index.args, index.env, repoRoot)).wall)
    again.recoll.push((await measure("recollindex", ["-c", r.conf], recollEnv, r.conf)).wall)
  }

  const thr = (files: number, wall: number) => files / wall
  const ratios = sagasu.map((x, i) => thr(options.files, x.wall) / thr(options.files, recoll[i]!.wall))
  const lines = [
    "## Ingest at a shared drive's scale",
    "",
    `One run of \`npm run bench:ingest -- --drive --files ${options.files} --pairs ${options.pairs}\`, ${new Date().toISOString().slice(0, 10)}: ${os.availableParallelism()} cores, ${f1(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ` +
      `${execFileSync("dpkg-query", ["-W", "-f", "Recoll ${Version}", "recollcmd"], { encoding: "utf8" })}. ` +
      `Tree (drive_tree.ts, seed ${options.seed}): ${tree.files.length.toLocaleString("en-US")} files, ${f1(bytes / 1e6)} MB, ${legacy} legacy (${f1((100 * legacy) / tree.files.length)}%), ` +
      `${[...byExt].sort((a, b) => b[1] - a[1]).map(([e, n]) => `${n} ${e}`).join(", ")}; folders 2–6 deep with Japanese names; generated documents with log-normal sizes (median 30 KB), the corpus's legacy and OOXML files, generated documents converted to xls/doc/ppt once by LibreOffice. ` +
      `Sagasu: \`sagasu index --yes\` from an empty work folder, ${options.threads} plain workers. Recoll: \`recollindex -z\` with a config of only \`topdirs\`, Debian's filters. Alternated A B per pair; CPU = user + system of the whole process tree; RSS = the peak of the tree's summed RSS (250 ms samples).`,
    "",
    "| run | tool | wall s | files/s | CPU s | peak RSS MB (tree) | index on disk MB | done / failed (docs) | load start → end |",
    "|---|---|---:|---:|---:|---:|---:|---|---|",
    ...sagasu.flatMap((x, i) => {
      const y = recoll[i]!
      return [
        `| ${i + 1} | Sagasu | ${f1(x.wall)} | ${f1(thr(options.files, x.wall))} | ${f1(x.cpu)} | ${Math.round(x.rssMb)} | ${f1(x.workBytes / 1e6)} (body ${f1(x.bodyBytes / 1e6)}, 2-gram ${f1(x.gramBytes / 1e6)}) | ${x.done} / ${x.failed} | ${f1(x.loadStart)} → ${f1(x.loadEnd)} |`,
        `| ${i + 1} | Recoll | ${f1(y.wall)} | ${f1(thr(options.files, y.wall))} | ${f1(y.cpu)} | ${Math.round(y.rssMb)} | ${f1(y.indexBytes / 1e6)} | ${y.documents} docs | ${f1(y.loadStart)} → ${f1(y.loadEnd)} |`
      ]
    }),
    "",
    "| figure | measured | target |",
    "|---|---:|---|",
    `| Sagasu / Recoll throughput, median of ${options.pairs} pairs | ${f2(median(ratios))}× (pairs: ${ratios.map(f2).join(", ")}) | ≥ 3× |`,
    `| Sagasu / Recoll CPU, median | ${f2(median(sagasu.map((x, i) => x.cpu / recoll[i]!.cpu)))}× | |`,
    `| Sagasu peak RSS of the tree, median | ${Math.round(median(sagasu.map((x) => x.rssMb)))} MB | ≤ 400 MB |`,
    `| Sagasu work folder / extracted text (body index) | ${f2(median(sagasu.map((x) => x.workBytes / x.bodyBytes)))}× | ≤ 2× |`,
    `| recall on ${sample.length} probes (every 60th file): Sagasu / Recoll | ${sFound} / ${rFound} | |`,
    `| no-change re-run, median of 3: Sagasu / recollindex | ${f2(median(again.sagasu))} s / ${f2(median(again.recoll))} s (${f2(median(again.sagasu) / median(again.recoll))}×) | < 2 s, ≤ 2× |`,
    ""
  ]
  console.log(lines.join("\n"))
  if (options.writeDoc) {
    const doc = path.join(repoRoot, "docs", "benchmarks.md")
    const text = fs.readFileSync(doc, "utf8")
    const title = "## Ingest at a shared drive's scale"
    const start = text.indexOf(title)
    const section = lines.join("\n")
    if (start < 0) fs.writeFileSync(doc, `${text.trimEnd()}\n\n${section}`)
    else {
      // The section ends at the next one, or at its hand-written re-run subsection (--rerun-only's figures).
      const ends = [text.indexOf("\n## ", start + 3), text.indexOf("\n### No-change re-run", start)].filter((i) => i >= 0)
      const next = ends.length === 0 ? -1 : Math.min(...ends)
      fs.writeFileSync(doc, text.slice(0, start) + section + (next < 0 ? "" : text.slice(next)))
    }
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]).endsWith("drive_bench.ts")) await driveBench()

export type { DriveTree }
