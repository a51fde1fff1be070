/**
 * Before/after of the extraction hot path in one run: the working tree's
 * `extractFile` against the same function at a git ref (default HEAD), on
 * the same files, alternating A and B so that both see the same machine, and
 * the floor (ingest_floor.ts) on the same files for the ratio. Reports the
 * CPU seconds (user + system of this process) of the best of `--rounds`.
 *
 * The ref's `libs/ingest/src` is exported (git archive) to a cache folder
 * beside a link to this repository's node_modules, so both versions resolve
 * the same `@sagasu/domain` and dependencies: only the extractor differs.
 *
 * `npx tsx tools/src/bench/ingest_ab.ts TREE_DIR [--ref HEAD] [--kind xlsx] [--every 30] [--rounds 3]`
 * (TREE_DIR: a tree made by ingest_tree.ts, e.g. the bench's cache).
 *
 * @module
 */
import { extractFile } from "@sagasu/ingest"
import { Effect } from "effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { repoRoot } from "../corpus.ts"
import { floorFile } from "./ingest_floor.ts"
import { opt } from "./_args.ts"

const argv = process.argv.slice(2)
const treeDir = argv[0]
if (treeDir === undefined || treeDir.startsWith("--")) {
  console.error("usage: npx tsx tools/src/bench/ingest_ab.ts TREE_DIR [--ref HEAD] [--kind xlsx] [--every 30] [--rounds 3]")
  process.exit(2)
}
const ref = opt("ref", "HEAD")
const kind = opt("kind", "xlsx")
const every = Number(opt("every", "30"))
const rounds = Number(opt("rounds", "3"))

const commit = execFileSync("git", ["rev-parse", "--short", ref], { cwd: repoRoot, encoding: "utf8" }).trim()
const before = path.join(os.tmpdir(), `sagasu-ab-${commit}`)
if (!fs.existsSync(path.join(before, "libs", "ingest", "src", "extract.ts"))) {
  fs.mkdirSync(before, { recursive: true })
  const tar = execFileSync("git", ["archive", commit, "libs/ingest/src"], { cwd: repoRoot, maxBuffer: 256 << 20 })
  execFileSync("tar", ["-x", "-C", before], { input: tar })
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(before, "node_modules"))
}
const old = (await import(pathToFileURL(path.join(before, "libs", "ingest", "src", "extract.ts")).href)) as { extractFile: typeof extractFile }

const files = fs.readdirSync(treeDir, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith(`.${kind}`))
  .map((e) => path.join(e.parentPath, e.name))
  .sort()
  .filter((_, i) => i % every === 0)
const bytes = files.reduce((n, f) => n + fs.statSync(f).size, 0)

const cpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}
const measure = async (one: (file: string) => Promise<unknown>) => {
  const c0 = cpu()
  for (const f of files) await one(f)
  return cpu() - c0
}
// A file either extractor refuses (encrypted, corrupt) counts as the same output when both refuse it alike.
const after = (f: string) => Effect.runPromise(Effect.either(extractFile(f)))
const prior = (f: string) => Effect.runPromise(Effect.either(old.extractFile(f)))

// Same output first: a faster extractor that reads less is no faster.
let same = 0
for (const f of files) {
  const [a, b] = [await after(f), await prior(f)]
  if (JSON.stringify(a) === JSON.stringify(b)) same++
}
const results = { before: [] as Array<number>, after: [] as Array<number>, floor: [] as Array<number> }
for (let r = 0; r < rounds; r++) {
  results.before.push(await measure(prior))
  results.after.push(await measure(after))
  results.floor.push(await measure(async (f) => floorFile(f)))
}
const best = (xs: Array<number>) => Math.min(...xs)
const mbs = (s: number) => (bytes / 1e6 / s).toFixed(2)
console.log(
  `${files.length} ${kind} files, ${(bytes / 1e6).toFixed(1)} MB, identical output ${same}/${files.length}; best of ${rounds}, CPU s:\n` +
    `  before (${commit}): ${best(results.before).toFixed(2)} s = ${mbs(best(results.before))} MB/s\n` +
    `  after (working tree): ${best(results.after).toFixed(2)} s = ${mbs(best(results.after))} MB/s (${((best(results.before) / best(results.after) - 1) * 100).toFixed(0)}% faster)\n` +
    `  floor: ${best(results.floor).toFixed(2)} s = ${mbs(best(results.floor))} MB/s; after/floor throughput ${((100 * best(results.floor)) / best(results.after)).toFixed(0)}%, before/floor ${((100 * best(results.floor)) / best(results.before)).toFixed(0)}%\n` +
    `  load ${fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0]}`
)
