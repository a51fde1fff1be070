/**
 * The team server benchmark (issue 18; `npm run bench:team [-- --mb 6]`,
 * which writes the doc; by hand `npx tsx tools/src/bench/team_bench.ts
 * [--mb 6] [--write-doc]`): the search benchmark's generated body index (≥ 100,000
 * lines at the default 6 MiB), published to a private PostgreSQL cluster
 * (durable settings: fsync on) — publish throughput, a publish with nothing
 * changed, the server's size — then the search benchmark's 200 queries as a
 * file-level page of 20 on the server (a warm pool, as the GUI keeps it)
 * and locally (a warm gram searcher, as the GUI's thread keeps it): p50 /
 * p95 / max, and whether both found the same number of files and hits.
 * Not a timed test: it prints a table and, with `--write-doc`, writes it
 * as the "Team server" section of docs/benchmarks.md. Run it under
 * `nice -n 19` on a shared machine; the load average goes in the table.
 *
 * @module
 */
import type { NodeContext } from "@effect/platform-node"
import { defaultSettings } from "@sagasu/domain"
import { GramSearcher, type WorkStore, formatSettings } from "@sagasu/store"
import { NodeWithWorkStore, initWorkFolder, updateGramIndexesOfRound } from "@sagasu/store/testing"
import { openTeamSearcher, pgSinkLayer, publishToTeam } from "@sagasu/team"
import { startPrivateCluster } from "@sagasu/team/testing"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { repoRoot } from "../corpus.ts"
import { flag, opt } from "./_args.ts"
import { benchQueries, generateBenchCorpus } from "./bench_corpus.ts"

const mb = Number(opt("mb", "6"))
const log = (s: string) => console.error(`[bench:team] ${s}`)
const run = <A, E>(effect: Effect.Effect<A, E, NodeContext.NodeContext | WorkStore>) => Effect.runPromise(Effect.provide(effect, NodeWithWorkStore))
const quantile = (xs: ReadonlyArray<number>, q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN
}
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1))
const loadAverage = () => os.loadavg().map((l) => l.toFixed(1)).join(" / ")

// ---- 1. the body index and the local gram index ----
const root = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-bench-team-"))
const paths = await run(initWorkFolder(path.join(root, "work"), formatSettings(defaultSettings)))
const corpus = generateBenchCorpus(mb * 1024 * 1024, { indexDir: paths.index, mirrorDir: path.join(root, "mirror"), groongaLoad: path.join(root, "load.grn") })
log(`body index: ${(corpus.tsvBytes / 1048576).toFixed(1)} MiB, ${corpus.files} files, ${corpus.lines} lines`)
await run(updateGramIndexesOfRound(paths, { published: [], removed: [] }))

// ---- 2. publish ----
const cluster = await startPrivateCluster({ fast: false })
cluster.psql("CREATE DATABASE bench")
process.env.SAGASU_BENCH_TEAM_PASSWORD = cluster.adminPassword
const server = { url: cluster.url({ database: "bench" }), passwordEnv: "SAGASU_BENCH_TEAM_PASSWORD", search: false }
const loadBefore = loadAverage()
let t = performance.now()
const [first] = await run(publishToTeam(paths, ["bench"]).pipe(Effect.provide(pgSinkLayer(server))))
const publishMs = performance.now() - t
t = performance.now()
const [again] = await run(publishToTeam(paths, ["bench"]).pipe(Effect.provide(pgSinkLayer(server))))
const noChangeMs = performance.now() - t
log(`published ${first?.published} files in ${ms(publishMs)} ms; again (nothing changed, ${again?.unchanged} unchanged) ${ms(noChangeMs)} ms`)
cluster.psql("VACUUM ANALYZE", "bench")
const sizeOf = (sql: string) => Number(cluster.psql(sql, "bench").trim())
const tableBytes = sizeOf("SELECT pg_table_size('sagasu.lines') + pg_table_size('sagasu.files')")
const ginBytes = sizeOf("SELECT pg_relation_size('sagasu.lines_grams')")
const allBytes = sizeOf("SELECT pg_database_size('bench')")

// ---- 3. queries: a page of 20 files, each side warm ----
const queries = benchQueries(corpus.sample)
const page = { limit: 20, locations: 3 }
const searcher = GramSearcher.open(paths)
if (searcher === undefined) throw new Error("no gram index was built")
const localTimes: Array<number> = []
const localExactTimes: Array<number> = []
const serverTimes: Array<number> = []
let sameCounts = 0
const differ: Array<string> = []
await Effect.runPromise(
  Effect.scoped(
    Effect.gen(function* () {
      const team = yield* openTeamSearcher(server)
      for (const q of queries) {
        yield* team.search(q.text, page) // warm: the server's caches, the pool's connection
        searcher.searchFiles(q.text, { ...page, countDeadline: performance.now() + 50 })
      }
      for (const q of queries) {
        let s = performance.now()
        searcher.searchFiles(q.text, { ...page, countDeadline: performance.now() + 50 })
        localTimes.push(performance.now() - s)
        s = performance.now()
        const exact = searcher.searchFiles(q.text, page)
        localExactTimes.push(performance.now() - s)
        s = performance.now()
        const remote = yield* team.search(q.text, page)
        serverTimes.push(performance.now() - s)
        if (remote.totals.files === exact.totals.files && remote.totals.hits === exact.totals.hits) sameCounts++
        else differ.push(`${JSON.stringify(q.text)}: server ${remote.totals.files} files / ${remote.totals.hits} hits, local ${exact.totals.files} / ${exact.totals.hits}`)
      }
    })
  )
)
searcher.close()
const loadAfter = loadAverage()
const pgVersion = cluster.psql("SHOW server_version").trim()
cluster.stop()
fs.rmSync(root, { recursive: true, force: true })

// ---- 4. the table ----
const row = (name: string, xs: ReadonlyArray<number>) => `| ${name} | ${ms(quantile(xs, 0.5))} | ${ms(quantile(xs, 0.95))} | ${ms(Math.max(...xs))} |`
const lengths = [...new Set(queries.map((q) => q.length))]
const byLength = (xs: ReadonlyArray<number>) =>
  lengths.map((l) => {
    const sel = xs.filter((_, i) => queries[i]?.length === l)
    return `${ms(quantile(sel, 0.5))} / ${ms(quantile(sel, 0.95))}`
  }).join(" | ")
const linesPerSecond = (corpus.lines / (publishMs / 1000)).toFixed(0)
const table = [
  "## Team server",
  "",
  `Generated by \`nice -n 19 npm run bench:team -- --mb ${mb}\` (tools/src/bench/team_bench.ts) on ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? "CPU"}, ` +
    `Node ${process.version}, PostgreSQL ${pgVersion} (a private cluster the benchmark starts, fsync on, default settings), ` +
    `${new Date().toISOString().slice(0, 10)}. Load average (1 / 5 / 15 min) ${loadBefore} before publishing, ${loadAfter} after the queries: the machine is shared, so the figures are upper bounds.`,
  "",
  `Body index: the search benchmark's generator, ${(corpus.tsvBytes / 1048576).toFixed(1)} MiB of TSV text, ${corpus.files.toLocaleString("en-US")} source files, ${corpus.lines.toLocaleString("en-US")} lines.`,
  "",
  "| publish | time | throughput |",
  "|---|---|---|",
  `| first publish (schema, ${first?.published} files, one transaction each, GIN maintained as rows arrive, the flip) | ${(publishMs / 1000).toFixed(1)} s | ${linesPerSecond} lines/s, ${(corpus.files / (publishMs / 1000)).toFixed(1)} files/s |`,
  `| publish with nothing changed (walk + fingerprints, no flip) | ${ms(noChangeMs)} ms | |`,
  "",
  `On the server: tables ${(tableBytes / 1048576).toFixed(1)} MiB, the grams' GIN index ${(ginBytes / 1048576).toFixed(1)} MiB, the whole database ${(allBytes / 1048576).toFixed(1)} MiB (${(allBytes / corpus.tsvBytes).toFixed(1)}× the raw text).`,
  "",
  `${queries.length} queries (the search benchmark's: 1, 2, 3, 5, 10 characters × Japanese/ASCII × hit/miss), a page of 20 files with 3 locations each, latency in ms:`,
  "",
  "| search | p50 | p95 | max |",
  "|---|---|---|---|",
  row("local gram index, totals counted ≤ 50 ms (the CLI's and the GUI's page)", localTimes),
  row("local gram index, totals exact", localExactTimes),
  row("team server (one REPEATABLE READ transaction, totals exact; loopback)", serverTimes),
  "",
  `p50 / p95 by query length (${lengths.join(", ")} characters):`,
  "",
  `| search | ${lengths.map((l) => `${l} char${l === 1 ? "" : "s"}`).join(" | ")} |`,
  `|---|${lengths.map(() => "---").join("|")}|`,
  `| local, totals exact | ${byLength(localExactTimes)} |`,
  `| team server | ${byLength(serverTimes)} |`,
  "",
  `Same files and hits counted by the server and the local index: ${sameCounts}/${queries.length} queries${differ.length === 0 ? "" : ` (differing: ${differ.slice(0, 5).join("; ")})`}.`,
  ""
].join("\n")
console.log(table)

if (flag("write-doc")) {
  const doc = path.join(repoRoot, "docs", "benchmarks.md")
  const previous = fs.readFileSync(doc, "utf8")
  const start = previous.indexOf("## Team server")
  const end = start < 0 ? -1 : previous.indexOf("\n### How it would grow", start)
  const updated = start < 0
    ? `${previous.trimEnd()}\n\n${table}`
    : previous.slice(0, start) + table + (end < 0 ? "" : previous.slice(end))
  fs.writeFileSync(doc, `${updated.trimEnd()}\n`)
  log(`wrote ${doc}`)
}
