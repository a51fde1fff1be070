/**
 * Cold command-line searches on a body index the search benchmark generated
 * (`npx tsx tools/src/bench/cold_cli.ts --dir DIR [--queries 40]`; DIR as
 * `search_bench.ts --dir`, its gram index brought up to date first): a new
 * process per query, as a script or a person runs them — `sagasu search`
 * (bin/sagasu.js: the cold-start bundle, Node's start included) and
 * `rg -F` over the benchmark's normalised mirror, and `recollq` when the
 * search benchmark built a Recoll index there — alternated A B (C), then
 * B (C) A, so no tool always runs first. Wall time and the CPU time of the
 * child (user + system, /usr/bin/time), median and p95, and the 1-minute
 * load average before and after. Prints a markdown table (issue 13, S2).
 *
 * @module
 */
import { NodeContext } from "@effect/platform-node"
import { normalizeForSearch, seededRandom } from "@sagasu/domain"
import { workPaths } from "@sagasu/store"
import { updateGramIndexesOfRound } from "@sagasu/store/testing"
import { Effect } from "effect"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { sagasuLaunch } from "./_launch.ts"

const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback
}
const root = path.resolve(option("dir", ""))
const count = Number(option("queries", "40"))
const work = path.join(root, "work")
const mirror = path.join(root, "rg-mirror")
const recollConf = path.join(root, "recoll-conf")
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..")
const sagasuBin = path.join(repoRoot, "apps", "cli", "bin", "sagasu.js")
const log = (s: string) => console.error(`[cold] ${s}`)
const load = () => fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0] ?? "?"

const corpus = JSON.parse(fs.readFileSync(path.join(root, "corpus.json"), "utf8")) as { tsvBytes: number; files: number; sample: ReadonlyArray<string> }
const t = performance.now()
const summary = await Effect.runPromise(Effect.provide(updateGramIndexesOfRound(workPaths(work), { published: [], removed: [] }), NodeContext.layer))
log(`gram index up to date in ${((performance.now() - t) / 1000).toFixed(1)} s (rebuilt: ${summary.rebuilt})`)

// Substrings of sampled lines, 2 to 10 characters, no spaces (one word each).
const random = seededRandom(13)
const queries: Array<string> = []
while (queries.length < count) {
  const line = corpus.sample[Math.floor(random() * corpus.sample.length)] ?? ""
  const len = [2, 3, 5, 10][queries.length % 4]!
  const chars = [...line]
  if (chars.length < len) continue
  const at = Math.floor(random() * (chars.length - len + 1))
  const q = chars.slice(at, at + len).join("")
  // A leading "-" is an option to a command line and an exclusion to Sagasu's query syntax: not a word to find.
  if (/\s/.test(q) || q.startsWith("-")) continue
  queries.push(q)
}

// NODE_EXTRA_CA_CERTS makes Node parse a certificate file before any script runs: 130 ms of each start on
// this machine (`node -e 0` 180 ms with it, 45 ms without). A user's PC does not set it; `--keep-env` keeps it.
const keepEnv = args.includes("--keep-env")
const childEnv = keepEnv ? process.env : Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "NODE_EXTRA_CA_CERTS"))
// `sagasu` as a user starts it: the bin's first line's variables and Node options (V8 takes a code cache
// only under the flags that made it).
const launch = sagasuLaunch(sagasuBin)
const launchEnv = { ...childEnv, ...launch.env }
const timed = (cmd: string, argv: ReadonlyArray<string>, cwd?: string, env: NodeJS.ProcessEnv = childEnv) => {
  const started = performance.now()
  const r = spawnSync("/usr/bin/time", ["-f", "%U %S", cmd, ...argv], { encoding: "utf8", cwd, env, maxBuffer: 1 << 30 })
  const wall = performance.now() - started
  const [user = "0", sys = "0"] = (r.stderr.trim().split("\n").pop() ?? "").split(" ")
  return { wall, cpu: (Number(user) + Number(sys)) * 1000, status: r.status, out: r.stdout }
}
const haveRecoll = fs.existsSync(path.join(recollConf, "built.json"))
const runs = {
  sagasu: { wall: [] as Array<number>, cpu: [] as Array<number> },
  sagasuText: { wall: [] as Array<number>, cpu: [] as Array<number> },
  rg: { wall: [] as Array<number>, cpu: [] as Array<number> },
  recollq: { wall: [] as Array<number>, cpu: [] as Array<number> }
}
let found = 0
const loadBefore = load()
timed(process.execPath, [...launch.nodeArgs, sagasuBin, "search", "x", "--work", work], undefined, launchEnv) // the bundle built, the page cache warm
for (const [i, q] of queries.entries()) {
  const steps = [
    () => {
      const r = timed(process.execPath, [...launch.nodeArgs, sagasuBin, "search", q, "--work", work, "--json"], undefined, launchEnv)
      runs.sagasu.wall.push(r.wall)
      runs.sagasu.cpu.push(r.cpu)
      if (args.includes("--verbose")) log(`${q}: ${r.wall.toFixed(1)} ms`)
      if (r.status === 0 && r.out.trim().startsWith("[") && r.out.trim() !== "[]") found++
    },
    () => {
      // The text a person reads: the page and its totals (counted for the CLI's count budget).
      const r = timed(process.execPath, [...launch.nodeArgs, sagasuBin, "search", q, "--work", work], undefined, launchEnv)
      runs.sagasuText.wall.push(r.wall)
      runs.sagasuText.cpu.push(r.cpu)
    },
    ...(args.includes("--no-rg") ? [] : [() => {
      // Every match printed, into a pipe that discards it (a common word's matches pass the size of a string).
      const r = timed("sh", ["-c", 'rg --no-config -F -n -e "$1" . | cat > /dev/null', "rg", normalizeForSearch(q)], mirror)
      runs.rg.wall.push(r.wall)
      runs.rg.cpu.push(r.cpu)
    }]),
    ...(haveRecoll ? [() => {
      const r = timed("recollq", ["-c", recollConf, "-n", "0-49", "-b", normalizeForSearch(q)])
      runs.recollq.wall.push(r.wall)
      runs.recollq.cpu.push(r.cpu)
    }] : [])
  ]
  for (let k = 0; k < steps.length; k++) steps[(k + i) % steps.length]!()
}
const loadAfter = load()
const q = (xs: ReadonlyArray<number>, p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN
const f = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(1))
const row = (name: string, r: { wall: Array<number>; cpu: Array<number> }) => `| ${name} | ${f(q(r.wall, 0.5))} | ${f(q(r.wall, 0.95))} | ${f(q(r.cpu, 0.5))} |`
const median = (xs: ReadonlyArray<number>) => q(xs, 0.5)
const node = median([0, 1, 2, 3, 4].map(() => timed(process.execPath, ["-e", "0"]).wall))
const nodeWithCerts = median([0, 1, 2, 3, 4].map(() => timed(process.execPath, ["-e", "0"], undefined, process.env).wall))
const certsNote = keepEnv ? "" : `; NODE_EXTRA_CA_CERTS unset for every command (with this machine's certificate file \`node -e 0\` takes ${nodeWithCerts.toFixed(1)} ms)`
console.log([
  `Cold searches, ${count} one-word queries of 2–10 characters from the benchmark's lines, alternated; body index ${(corpus.tsvBytes / 2 ** 30).toFixed(2)} GiB of TSV, ${corpus.files} files; load average ${loadBefore} before, ${loadAfter} after; \`node -e 0\` ${node.toFixed(1)} ms (median of 5)${certsNote}.`,
  "",
  "| command | wall p50 (ms) | wall p95 (ms) | CPU p50 (ms) |",
  "|---|---:|---:|---:|",
  row(`\`sagasu search … --json\` (found ${found}/${count})`, runs.sagasu),
  row("`sagasu search …` (text: the page and its totals)", runs.sagasuText),
  args.includes("--no-rg") ? "| `rg -F -n` | not run (--no-rg) | | |" : row("`rg -F -n` over the mirror (into a pipe)", runs.rg),
  haveRecoll ? row("`recollq -n 0-49 -b`", runs.recollq) : "| `recollq` | not run (no Recoll index in this folder) | | |"
].join("\n"))
