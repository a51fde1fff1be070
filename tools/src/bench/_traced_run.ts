/**
 * One indexing run in this process, as `sagasu index --yes` runs it
 * (`standardRunOptions`, the plain workers and Office owners, the 2-gram
 * round), with the moments of each file noted: when the commander hands it
 * to a worker (`ingest` called), when its result comes back, and when its
 * folder is renamed into the body index (the publish). Used by
 * small_files.ts; run it under `node --cpu-prof` for the threads' profiles.
 *
 * The library is loaded from `ROOT/libs/ingest/src/mod.ts`, so an exported
 * older version (small_files.ts `--ref`) is measured the same way.
 *
 * `node --import tsx tools/src/bench/_traced_run.ts ROOT WORK OUT.json`
 *
 * @module
 */
import { FileSystem } from "@effect/platform"
import { NodeContext, NodeFileSystem } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import { createRequire, syncBuiltinESMExports } from "node:module"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { WorkStore } from "@sagasu/store"

const [root = "", work = "", out = ""] = process.argv.slice(2)
const ingest = (await import(pathToFileURL(path.join(root, "libs", "ingest", "src", "mod.ts")).href)) as typeof import("@sagasu/ingest")

interface Trace {
  dispatched: Array<number>
  result?: number
  published?: number
  kind?: string
}
const traces = new Map<string, Trace>()
const now = () => performance.now()
const indexDir = path.join(path.resolve(work), "index") + path.sep

const published = (to: string) => {
  if (!to.startsWith(indexDir)) return
  const key = to.slice(indexDir.length).split(path.sep).join("/")
  const t = traces.get(key)
  if (t !== undefined) t.published = now()
}

// The store publishes with `rename(staged, <work>/index/<index>/<path>)`: the last such rename of a file is its publish.
const tracedFs = Layer.effect(
  FileSystem.FileSystem,
  Effect.map(FileSystem.FileSystem, (real) => ({
    ...real,
    rename: (from: string, to: string) =>
      Effect.tap(real.rename(from, to), () => Effect.sync(() => published(to)))
  }))
).pipe(Layer.provide(NodeFileSystem.layer))

// A newer store publishes with `node:fs`'s renameSync (a measured hot path): noted the same way,
// through the module's CommonJS face and the builtin's ES module bindings synced to it.
const nodeFs = createRequire(import.meta.url)("node:fs") as typeof fs
const renameSync = nodeFs.renameSync
nodeFs.renameSync = (from, to) => {
  renameSync(from, to)
  published(String(to))
}
syncBuiltinESMExports()

const program = Effect.gen(function* () {
  const options = yield* ingest.standardRunOptions(work, "bench").pipe(Effect.provide(NodeContext.layer), Effect.provide(WorkStore.Default))
  const channel = yield* ingest.makeChannel({ confirmTargets: false })
  const workers = options.workers
  const traced: typeof options = {
    ...options,
    workers: (settings, paths) =>
      Layer.effect(
        ingest.IngestWorkers,
        Effect.map(ingest.IngestWorkers, (w) => ({
          ...w,
          ingest: (kind, request, worker) => {
            const key = `${request.index}/${request.path}`
            const t = traces.get(key) ?? { dispatched: [] }
            traces.set(key, t)
            t.dispatched.push(now())
            t.kind = kind
            return Effect.tap(w.ingest(kind, request, worker), () => Effect.sync(() => (t.result = now())))
          }
        }))
      ).pipe(Layer.provide(workers === undefined ? Layer.die("no workers") : workers(settings, paths)))
  }
  const started = now()
  const code = yield* ingest.runIndexer(channel, traced)
  return { code, ms: now() - started }
})

const cpu0 = process.cpuUsage()
const { code, ms } = await Effect.runPromise(program.pipe(Effect.provide(WorkStore.DefaultWithoutDependencies), Effect.provide(tracedFs)))
const cpu = process.cpuUsage(cpu0)
fs.writeFileSync(
  out,
  JSON.stringify({ code, ms, cpuMs: (cpu.user + cpu.system) / 1000, files: Object.fromEntries(traces) })
)
