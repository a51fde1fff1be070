/**
 * The search benchmark (issue 6; `npx tsx tools/src/bench/search_bench.ts
 * [--mb 1024] [--dir DIR] [--reuse] [--no-rg] [--no-groonga] [--no-recoll] [--write-doc]`).
 * Not a timed test: it prints a table and, with `--write-doc`, writes it as
 * the "Search" section of docs/benchmarks.md.
 *
 * In one run: generate a body index of about `--mb` MiB of TSV text (fixed
 * seed), build the gram index (time, size on disk, ratio to the raw text),
 * then run 200 fixed queries (1, 2, 3, 5, 10 characters; Japanese and ASCII;
 * hits and misses) with
 * - Sagasu, in one warm process (as the GUI searches): the first 50 hits, and
 *   all hits (postings only where they are exact);
 * - `rg -F -n` over a mirror of the same lines, normalised as Sagasu
 *   normalises them, so the hit sets are comparable line by line;
 * - Groonga (`groonga-bin`): TokenBigramSplitSymbolAlphaDigit +
 *   NormalizerNFKC100 with `unify_kana`, loaded with the same lines, queried
 *   through one warm `groonga DB` process (`select --filter 'text @ "…"'
 *   --limit 50`, which also counts all hits).
 * Sagasu's complete hit set must equal ripgrep's on every query.
 *
 * @module
 */
import { NodeContext } from "@effect/platform-node"
import { defaultSettings, normalizeForSearch } from "@sagasu/domain"
import { GramSearcher, formatSettings } from "@sagasu/store"
import { initWorkFolder, updateGramIndexesOfRound } from "@sagasu/store/testing"
import { Effect } from "effect"
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as v8 from "node:v8"
import * as vm from "node:vm"
import { type BenchQuery, benchQueries, generateBenchCorpus } from "./bench_corpus.ts"
import { sagasuLaunch } from "./_launch.ts"

const args = process.argv.slice(2)
const flag = (name: string) => args.includes(`--${name}`)
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback
}
const mb = Number(option("mb", "1024"))
const root = path.resolve(option("dir", path.join(os.tmpdir(), `sagasu-bench-${mb}mb`)))
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const run = <A, E>(e: Effect.Effect<A, E, NodeContext.NodeContext>) => Effect.runPromise(Effect.provide(e, NodeContext.layer))
const log = (s: string) => console.error(`[bench] ${s}`)

const duSync = (dir: string): number => {
  let total = 0
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) total += fs.statSync(path.join(e.parentPath, e.name)).size
  }
  return total
}
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const size = (bytes: number) => (bytes >= 1 << 30 ? `${(bytes / (1 << 30)).toFixed(2)} GiB` : `${(bytes / (1 << 20)).toFixed(1)} MiB`)
const quantile = (xs: ReadonlyArray<number>, q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN
}
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1))

// ---- 1. corpus ----
const work = path.join(root, "work")
const mirrorDir = path.join(root, "rg-mirror")
const groongaLoad = path.join(root, "groonga-load.grn")
const corpusInfo = path.join(root, "corpus.json")
let corpus: { tsvBytes: number; files: number; lines: number; sample: ReadonlyArray<string> }
const paths = await run(initWorkFolder(work, formatSettings(defaultSettings)))
if (flag("reuse") && fs.existsSync(corpusInfo)) {
  corpus = JSON.parse(fs.readFileSync(corpusInfo, "utf8"))
  log(`reusing ${size(corpus.tsvBytes)} in ${root}`)
} else {
  for (const d of [paths.index, paths.gram, mirrorDir]) fs.rmSync(d, { recursive: true, force: true })
  fs.mkdirSync(paths.index, { recursive: true })
  const t0 = performance.now()
  corpus = generateBenchCorpus(mb * 1024 * 1024, { indexDir: paths.index, mirrorDir, groongaLoad })
  fs.writeFileSync(corpusInfo, JSON.stringify(corpus))
  log(`generated ${size(corpus.tsvBytes)}, ${corpus.files} files, ${corpus.lines} lines in ${seconds(performance.now() - t0)}`)
}

// ---- 2. Sagasu build ----
fs.rmSync(paths.gram, { recursive: true, force: true })
let t = performance.now()
const summary = await run(updateGramIndexesOfRound(paths, { published: [], removed: [] }))
const buildMs = performance.now() - t
// Live files only: segments merged away stay until the next update collects them.
const liveGramBytes = () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(paths.gram, "manifest.json"), "utf8")) as {
    segments: Array<{ id: string; deleted: string }>
  }
  let total = fs.statSync(path.join(paths.gram, "manifest.json")).size
  for (const name of fs.readdirSync(paths.gram)) {
    if (manifest.segments.some((s) => name.startsWith(`${s.id}.`) && (!name.includes(".del-") || name === s.deleted))) {
      total += fs.statSync(path.join(paths.gram, name)).size
    }
  }
  return total
}
const gramBytes = liveGramBytes()
log(`gram index: ${seconds(buildMs)}, ${size(gramBytes)} (${(gramBytes / corpus.tsvBytes).toFixed(2)}× raw), ${summary.segments} segments`)
// The first update after a build removes the files merged away (unlinking GiBs takes a while): not timed.
await run(updateGramIndexesOfRound(paths, { published: [], removed: [] }))
t = performance.now()
await run(updateGramIndexesOfRound(paths, { published: [], removed: [] }))
const noChangeMs = performance.now() - t
log(`update with nothing changed: ${ms(noChangeMs)} ms`)
// An incremental round: 20 source folders re-published (copied to a new folder and swapped in).
const some = fs.readdirSync(path.join(paths.index, "bench"), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith(".tsv")).slice(0, 20).map((e) => e.parentPath)
for (const dir of new Set(some)) {
  const staged = `${dir}.staged`
  fs.cpSync(dir, staged, { recursive: true })
  fs.rmSync(dir, { recursive: true })
  fs.renameSync(staged, dir)
}
t = performance.now()
const incremental = await run(updateGramIndexesOfRound(paths, { published: [], removed: [] }))
const incrementalMs = performance.now() - t
log(`update after ${incremental.indexed} re-published files: ${ms(incrementalMs)} ms, ${incremental.merges} merges`)

// ---- 3. queries ----
const queries = benchQueries(corpus.sample)
const lengths = [...new Set(queries.map((q) => q.length))]
log(`${queries.length} queries`)

// ---- 4. Sagasu ----
// Collect the build's garbage first: its pauses are not search time.
v8.setFlagsFromString("--expose-gc")
const gc = vm.runInNewContext("gc") as () => void
gc()
t = performance.now()
const opened = GramSearcher.open(paths)
const openMs = performance.now() - t
if (opened === undefined) throw new Error("no gram index")
const searcher = opened
const sagasuFirst: Array<number> = []
const sagasuAll: Array<number> = []
const sagasuCounts: Array<number> = []
for (const q of queries) searcher.search(`"${q.text}"`, { limit: 50 }) // warm the page cache once
for (const q of queries) {
  t = performance.now()
  searcher.search(`"${q.text}"`, { limit: 50 })
  sagasuFirst.push(performance.now() - t)
}
for (const q of queries) {
  let n = 0
  t = performance.now()
  searcher.forEachMatch(`"${q.text}"`, {}, () => {
    n++
    return true
  })
  sagasuAll.push(performance.now() - t)
  sagasuCounts.push(n)
}
// The first page as the CLI and the GUI ask for it (S5, issue 14): 20 files, each once with its best
// located hits, the totals counted for 50 ms at most (both bounds); and the page alone.
const sagasuPage: Array<number> = []
const sagasuPageOnly: Array<number> = []
for (const q of queries) {
  t = performance.now()
  searcher.searchFiles(`"${q.text}"`, { limit: 20, countDeadline: t + 50 })
  sagasuPage.push(performance.now() - t)
  t = performance.now()
  searcher.searchFiles(`"${q.text}"`, { limit: 20, totals: false })
  sagasuPageOnly.push(performance.now() - t)
}
log(`sagasu first page of 20 files: p50 ${ms(quantile(sagasuPage, 0.5))} ms, p95 ${ms(quantile(sagasuPage, 0.95))} ms; ` +
  `without the totals p50 ${ms(quantile(sagasuPageOnly, 0.5))} ms, p95 ${ms(quantile(sagasuPageOnly, 0.95))} ms`)
for (const i of [...sagasuFirst.keys()].sort((a, b) => sagasuFirst[b]! - sagasuFirst[a]!).slice(0, 5)) {
  log(`  slow: ${JSON.stringify(queries[i]?.text)} (${queries[i]?.intent}) first50 ${ms(sagasuFirst[i]!)} ms, all ${ms(sagasuAll[i]!)} ms, ${sagasuCounts[i]} hits`)
}
log(`sagasu: open ${ms(openMs)} ms, p50 ${ms(quantile(sagasuFirst, 0.5))} ms, p95 ${ms(quantile(sagasuFirst, 0.95))} ms`)

// A hit set as (count, sum and xor of FNV-1a hashes of its keys): sets of
// millions of lines are compared without holding them in memory.
interface SetDigest {
  count: number
  sum: number
  xor: number
}
const emptyDigest = (): SetDigest => ({ count: 0, sum: 0, xor: 0 })
const addKey = (d: SetDigest, key: string) => {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
  d.count++
  d.sum = (d.sum + (h >>> 0)) % 4294967296
  d.xor = (d.xor ^ h) >>> 0
}
const sagasuDigest = (q: BenchQuery): SetDigest => {
  const d = emptyDigest()
  searcher.forEachMatch(`"${q.text}"`, {}, (m) => {
    addKey(d, `${m.path}/${m.part.file.replace(/\.tsv$/, ".txt")}:${m.line + 1}`)
    return true
  })
  return d
}

// ---- 5. ripgrep ----
const rgTimes: Array<number> = []
let identical = 0
const mismatches: Array<string> = []
const hitCounts: Array<number> = []
const haveRg = !flag("no-rg") && spawnSync("rg", ["--version"]).status === 0
const rgSearch = (pattern: string) =>
  new Promise<SetDigest>((resolve, reject) => {
    const d = emptyDigest()
    const proc = spawn("rg", ["--no-config", "-F", "-n", "--no-heading", "--null", "-e", pattern, "."], { cwd: mirrorDir })
    let rest = ""
    proc.stdout.setEncoding("utf8")
    proc.stdout.on("data", (chunk: string) => {
      const rows = (rest + chunk).split("\n")
      rest = rows.pop() ?? ""
      for (const row of rows) {
        const nul = row.indexOf("\0")
        const colon = row.indexOf(":", nul)
        addKey(d, `${row.slice(0, nul).replace(/^\.\//, "")}:${row.slice(nul + 1, colon)}`)
      }
    })
    proc.on("error", reject)
    proc.on("close", () => resolve(d))
  })
if (haveRg) {
  for (const [i, q] of queries.entries()) {
    t = performance.now()
    const theirs = await rgSearch(normalizeForSearch(q.text))
    rgTimes.push(performance.now() - t)
    hitCounts.push(theirs.count)
    const ours = sagasuDigest(q)
    if (ours.count === theirs.count && ours.sum === theirs.sum && ours.xor === theirs.xor) identical++
    else mismatches.push(`${JSON.stringify(q.text)}: sagasu ${ours.count}, rg ${theirs.count}`)
    void i
  }
  log(`rg: p50 ${ms(quantile(rgTimes, 0.5))} ms, p95 ${ms(quantile(rgTimes, 0.95))} ms; identical hit sets ${identical}/${queries.length}`)
  for (const m of mismatches.slice(0, 10)) log(`  differs: ${m}`)
}
searcher.close()

// ---- 6. Groonga ----
const groongaTimes: Array<number> = []
const groongaCounts: Array<number> = []
let groongaBuildMs = NaN
let groongaBytes = NaN
const haveGroonga = !flag("no-groonga") && spawnSync("groonga", ["--version"]).status === 0
if (haveGroonga) {
  const dbDir = path.join(root, "groonga")
  const db = path.join(dbDir, "db")
  fs.rmSync(dbDir, { recursive: true, force: true })
  fs.mkdirSync(dbDir)
  const schema = [
    "table_create Lines TABLE_NO_KEY",
    "column_create Lines text COLUMN_SCALAR LongText"
  ].join("\n") + "\n"
  const index = [
    `table_create Terms TABLE_PAT_KEY ShortText --default_tokenizer TokenBigramSplitSymbolAlphaDigit --normalizer 'NormalizerNFKC100("unify_kana", true)'`,
    "column_create Terms lines_text COLUMN_INDEX|WITH_POSITION Lines text"
  ].join("\n") + "\n"
  t = performance.now()
  spawnSync("groonga", ["-n", db], { input: schema, maxBuffer: 1 << 26 })
  const loaded = spawnSync("sh", ["-c", `groonga "$1" < "$2" > /dev/null`, "sh", db, groongaLoad])
  if (loaded.status !== 0) throw new Error(`groonga load failed: ${loaded.stderr}`)
  const indexed = spawnSync("groonga", [db], { input: index, maxBuffer: 1 << 26, encoding: "utf8" })
  if (indexed.status !== 0 || indexed.stdout.includes("\"error\"")) throw new Error(`groonga index failed: ${indexed.stdout}`)
  groongaBuildMs = performance.now() - t
  groongaBytes = duSync(dbDir)
  log(`groonga build ${seconds(groongaBuildMs)}, ${size(groongaBytes)}`)

  const proc: ChildProcessWithoutNullStreams = spawn("groonga", [db])
  let buffer = ""
  let waiting: ((line: string) => void) | undefined
  proc.stdout.setEncoding("utf8")
  proc.stdout.on("data", (chunk: string) => {
    buffer += chunk
    let nl: number
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl)
      buffer = buffer.slice(nl + 1)
      const w = waiting
      waiting = undefined
      w?.(line)
    }
  })
  const ask = (command: string) =>
    new Promise<string>((resolve) => {
      waiting = resolve
      proc.stdin.write(command + "\n")
    })
  const escapeScript = (s: string) => s.replace(/\\/g, "\\\\").replace(/"/g, "\\\"")
  const escapeArg = (s: string) => s.replace(/\\/g, "\\\\").replace(/'/g, "\\'")
  const command = (q: string) => `select Lines --filter '${escapeArg(`text @ "${escapeScript(q)}"`)}' --limit 50 --output_columns _id`
  for (const q of queries) await ask(command(q.text)) // warm
  for (const q of queries) {
    t = performance.now()
    const response = await ask(command(q.text))
    groongaTimes.push(performance.now() - t)
    const parsed = JSON.parse(response) as [unknown, [[[number]]]]
    groongaCounts.push(parsed[1]?.[0]?.[0]?.[0] ?? -1)
  }
  proc.stdin.end()
  log(`groonga: p50 ${ms(quantile(groongaTimes, 0.5))} ms, p95 ${ms(quantile(groongaTimes, 0.95))} ms`)
}

// ---- 6b. cold command-line searches (S2; issue 13): a new process per query, as a script or a person runs them ----
// `sagasu search` (its cold-start bundle), `recollq` over a Recoll index of the ripgrep mirror, and `rg -F`, alternated.
const coldQueries = queries.filter((q) => q.intent === "hit" && q.length >= 2).filter((_, i) => i % 2 === 0)
const sagasuBin = path.join(repoRoot, "apps", "cli", "bin", "sagasu.js")
// `sagasu` as a user starts it: the bin's first line's variables and Node options (V8 takes a code cache
// only under the flags that made it).
const launch = sagasuLaunch(sagasuBin)
const timedCommand = (cmd: string, argv: ReadonlyArray<string>, cwd?: string) => {
  const started = performance.now()
  const r = spawnSync("/usr/bin/time", ["-f", "%U %S", cmd, ...argv], { encoding: "utf8", cwd, env: { ...process.env, ...launch.env, PATH: "/usr/bin:/bin:" + (process.env.PATH ?? "") }, maxBuffer: 1 << 30 })
  const wall = performance.now() - started
  const [user = "0", sys = "0"] = (r.stderr.trim().split("\n").pop() ?? "").split(" ")
  return { wall, cpu: (Number(user) + Number(sys)) * 1000, status: r.status, out: r.stdout }
}
const haveRecoll = !flag("no-recoll") && spawnSync("recollq", ["-h"]).status !== null && fs.existsSync("/usr/bin/recollindex")
const recollConf = path.join(root, "recoll-conf")
let recollBuildMs = Number.NaN
if (haveRecoll) {
  const stamp = path.join(recollConf, "built.json")
  if (!(flag("reuse") && fs.existsSync(stamp))) {
    fs.rmSync(recollConf, { recursive: true, force: true })
    fs.mkdirSync(recollConf, { recursive: true })
    fs.writeFileSync(path.join(recollConf, "recoll.conf"), `topdirs = ${mirrorDir}\nloglevel = 1\n`)
    log("recollindex over the mirror …")
    t = performance.now()
    spawnSync("recollindex", ["-c", recollConf, "-z"], { stdio: "ignore", env: { ...process.env, PATH: "/usr/bin:/bin" } })
    recollBuildMs = performance.now() - t
    fs.writeFileSync(stamp, JSON.stringify({ ms: recollBuildMs }))
    log(`recollindex: ${seconds(recollBuildMs)}`)
  } else recollBuildMs = (JSON.parse(fs.readFileSync(stamp, "utf8")) as { ms: number }).ms
}
const cold = { sagasu: [] as Array<number>, sagasuCpu: [] as Array<number>, recoll: [] as Array<number>, recollCpu: [] as Array<number>, rg: [] as Array<number>, rgCpu: [] as Array<number> }
let sagasuColdFound = 0
// Warm the bundle cache and the page cache once.
timedCommand(process.execPath, [...launch.nodeArgs, sagasuBin, "search", "x", "--work", work])
for (const [i, q] of coldQueries.entries()) {
  const norm = normalizeForSearch(q.text)
  const steps = [
    () => {
      const r = timedCommand(process.execPath, [...launch.nodeArgs, sagasuBin, "search", `"${q.text}"`, "--work", work, "--limit", "50", "--json"])
      cold.sagasu.push(r.wall)
      cold.sagasuCpu.push(r.cpu)
      if (r.status === 0 && (JSON.parse(r.out) as Array<unknown>).length > 0) sagasuColdFound++
    },
    () => {
      if (!haveRecoll) return
      const r = timedCommand("recollq", ["-c", recollConf, "-n", "0-49", "-b", `"${norm}"`])
      cold.recoll.push(r.wall)
      cold.recollCpu.push(r.cpu)
    },
    () => {
      if (!haveRg) return
      const r = timedCommand("rg", ["--no-config", "-F", "-n", "-e", norm, "."], mirrorDir)
      cold.rg.push(r.wall)
      cold.rgCpu.push(r.cpu)
    }
  ]
  // A B C, then B C A, then C A B: no tool always runs first.
  for (let k = 0; k < steps.length; k++) steps[(k + i) % steps.length]!()
}
log(`cold: sagasu p50 ${ms(quantile(cold.sagasu, 0.5))} ms, recollq ${ms(quantile(cold.recoll, 0.5))} ms, rg ${ms(quantile(cold.rg, 0.5))} ms`)
const loadNow = fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0] ?? "?"

// ---- 7. report ----
const row = (name: string, xs: ReadonlyArray<number>) =>
  xs.length === 0 ? `| ${name} | – | – | – |` : `| ${name} | ${ms(quantile(xs, 0.5))} | ${ms(quantile(xs, 0.95))} | ${ms(Math.max(...xs))} |`
const byLength = (xs: ReadonlyArray<number>) =>
  lengths.map((l) => {
    const sel = xs.filter((_, i) => queries[i]?.length === l)
    return sel.length === 0 ? "–" : `${ms(quantile(sel, 0.5))} / ${ms(quantile(sel, 0.95))}`
  })
const p50 = (xs: ReadonlyArray<number>) => quantile(xs, 0.5)
const p95 = (xs: ReadonlyArray<number>) => quantile(xs, 0.95)
const groongaAgree = groongaCounts.filter((c, i) => c === hitCounts[i]).length
const lines = [
  "## Search",
  "",
  `Generated by \`npx tsx tools/src/bench/search_bench.ts --mb ${mb} --write-doc\` on ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? "CPU"}, ` +
    `${Math.round(os.totalmem() / (1 << 30))} GiB RAM, Node ${process.version}, ${spawnSync("rg", ["--version"], { encoding: "utf8" }).stdout?.split("\n")[0] ?? "rg –"}, ` +
    `${spawnSync("groonga", ["--version"], { encoding: "utf8" }).stdout?.split(" [")[0] ?? "Groonga –"}. All engines measured in the same run; files in the page cache.`,
  "",
  `Body index: ${size(corpus.tsvBytes)} of TSV text (fixed seed: Japanese and ASCII business-like lines), ${corpus.files.toLocaleString("en-US")} source files, ${corpus.lines.toLocaleString("en-US")} lines.`,
  "",
  "| build | time | size on disk | size / raw text |",
  "|---|---|---|---|",
  `| Sagasu gram index (full build, ${summary.segments} segments after merges) | ${seconds(buildMs)} | ${size(gramBytes)} | ${(gramBytes / corpus.tsvBytes).toFixed(2)}× |`,
  `| Sagasu update, nothing changed (walk + fingerprints) | ${ms(noChangeMs)} ms | | |`,
  `| Sagasu update, ${incremental.indexed} files re-published | ${ms(incrementalMs)} ms | | |`,
  haveGroonga ? `| Groonga (load + offline index) | ${seconds(groongaBuildMs)} | ${size(groongaBytes)} | ${(groongaBytes / corpus.tsvBytes).toFixed(2)}× |` : "| Groonga | not run | | |",
  "",
  `${queries.length} queries (1, 2, 3, 5, 10 characters × Japanese/ASCII × hit/miss, 10 each), latency in ms:`,
  "",
  "| engine | p50 | p95 | max |",
  "|---|---|---|---|",
  row("Sagasu, first 50 hits (warm process)", sagasuFirst),
  row("Sagasu, first page of 20 files, totals ≤ 50 ms (GUI, CLI)", sagasuPage),
  row("Sagasu, first page of 20 files, no totals", sagasuPageOnly),
  row("Sagasu, all hits (counted)", sagasuAll),
  row("ripgrep `rg -F -n` (all hits)", rgTimes),
  row("Groonga `select … --limit 50` (counts all)", groongaTimes),
  "",
  "p50 / p95 (ms) by query length:",
  "",
  `| engine | ${lengths.map((l) => `${l} char${l > 1 ? "s" : ""}`).join(" | ")} |`,
  `|---|${lengths.map(() => "---").join("|")}|`,
  `| Sagasu, first 50 | ${byLength(sagasuFirst).join(" | ")} |`,
  `| Sagasu, all hits | ${byLength(sagasuAll).join(" | ")} |`,
  `| ripgrep | ${byLength(rgTimes).join(" | ")} |`,
  `| Groonga | ${byLength(groongaTimes).join(" | ")} |`,
  "",
  "Targets (issue 6):",
  "",
  `- p95 ≤ 20 ms: Sagasu first 50 hits p95 = ${ms(p95(sagasuFirst))} ms → ${p95(sagasuFirst) <= 20 ? "met" : "missed"}.`,
  haveRg ? `- ≥ 10× faster than ripgrep at p50: ${(p50(rgTimes) / p50(sagasuFirst)).toFixed(0)}× (first 50), ${(p50(rgTimes) / p50(sagasuAll)).toFixed(0)}× (all hits) → ${p50(rgTimes) / p50(sagasuFirst) >= 10 ? "met" : "missed"}.` : "- ripgrep not run.",
  haveGroonga ? `- within 1.5× of Groonga at p95: Sagasu ${ms(p95(sagasuFirst))} ms vs Groonga ${ms(p95(groongaTimes))} ms (${(p95(sagasuFirst) / p95(groongaTimes)).toFixed(2)}×) → ${p95(sagasuFirst) <= 1.5 * p95(groongaTimes) ? "met" : "missed"}.` : "- Groonga not run.",
  `- index ≤ 2× raw text: ${(gramBytes / corpus.tsvBytes).toFixed(2)}× → ${gramBytes <= 2 * corpus.tsvBytes ? "met" : "missed"}.`,
  haveRg ? `- identical hit sets to ripgrep (after the same normalisation; compared as count + order-free hash of file:line keys): ${identical}/${queries.length} queries${identical === queries.length ? "" : ` → missed: ${mismatches.slice(0, 5).join("; ")}`}.` : "",
  haveGroonga && haveRg ? `- Groonga's hit count equals ripgrep's on ${groongaAgree}/${queries.length} queries (its normaliser differs: no dash folding, other width/kana rules).` : "",
  "",
  `Cold command-line searches (S2): a new process per query, ${coldQueries.length} queries (2–10 characters, Japanese and ASCII, all with hits), the three tools alternated query by query (each first in turn); wall and CPU (user + system) of the process, ms; 1-minute load average at the end ${loadNow}. ` +
    `\`sagasu search "…" --limit 50 --json\` (its cold-start bundle: Node's start included), \`recollq -n 0-49 -b\` over a Recoll index of the same lines (the ripgrep mirror; recollindex took ${seconds(recollBuildMs)}), \`rg -F -n\` over the mirror (all hits).`,
  "",
  "| command | wall p50 | wall p95 | CPU p50 |",
  "|---|---:|---:|---:|",
  `| \`sagasu search\` (found ${sagasuColdFound}/${coldQueries.length}) | ${ms(quantile(cold.sagasu, 0.5))} | ${ms(quantile(cold.sagasu, 0.95))} | ${ms(quantile(cold.sagasuCpu, 0.5))} |`,
  haveRecoll ? `| \`recollq\` | ${ms(quantile(cold.recoll, 0.5))} | ${ms(quantile(cold.recoll, 0.95))} | ${ms(quantile(cold.recollCpu, 0.5))} |` : "| `recollq` | not run | | |",
  haveRg ? `| \`rg -F\` | ${ms(quantile(cold.rg, 0.5))} | ${ms(quantile(cold.rg, 0.95))} | ${ms(quantile(cold.rgCpu, 0.5))} |` : "| `rg -F` | not run | | |",
  `| \`node -e 0\` (Node's start alone) | ${ms(quantile(Array.from({ length: 9 }, () => timedCommand(process.execPath, ["-e", "0"]).wall), 0.5))} | | |`,
  "",
  `Target (issue 13): cold \`sagasu search\` p50 ≤ 100 ms and p95 ≤ 200 ms → ${quantile(cold.sagasu, 0.5) <= 100 && quantile(cold.sagasu, 0.95) <= 200 ? "met" : "missed"}. recollq answers word queries (Recoll's CJK n-grams, words for ASCII), Sagasu and rg substrings; the hit sets differ, the costs compare.`,
  "",
  "Notes: Sagasu and Groonga answer from a warm process (a GUI or server); ripgrep starts per query, as it is used. " +
    "ripgrep searches a mirror holding each line's normalised text (Sagasu's normalisation), so its hit sets are comparable line by line. " +
    "Groonga uses TokenBigramSplitSymbolAlphaDigit, not TokenBigram: plain TokenBigram keeps ASCII words whole and cannot find `voi` in `invoice`, which ripgrep and Sagasu do. Groonga's `--limit 50` still finds and counts every hit, so it does the work of Sagasu's “all hits” row, not of its “first 50” row: counting every hit, Groonga is faster than Sagasu at p95 (positional postings in C against JavaScript); Sagasu is faster when, as in the CLI and the GUI, only the first page of hits is wanted.",
  ""
]
const table = lines.join("\n")
console.log(table)
if (flag("write-doc")) {
  const doc = path.join(repoRoot, "docs", "benchmarks.md")
  fs.mkdirSync(path.dirname(doc), { recursive: true })
  const previous = fs.existsSync(doc) ? fs.readFileSync(doc, "utf8") : "# Benchmarks\n\n"
  const start = previous.indexOf("## Search")
  let next = start < 0 ? -1 : previous.indexOf("\n## ", start + 1)
  if (next >= 0) next += 1
  const updated = start < 0
    ? previous.trimEnd() + "\n\n" + table
    : previous.slice(0, start) + table + (next < 0 ? "" : "\n" + previous.slice(next))
  fs.writeFileSync(doc, updated.trimEnd() + "\n")
  log(`wrote ${doc}`)
}
