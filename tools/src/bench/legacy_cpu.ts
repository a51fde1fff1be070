/**
 * CPU time per file of the legacy Word and PowerPoint readers (W3, issue 20)
 * against the LibreOffice conversion they replace, over the corpus's doc and
 * ppt files: user + system CPU, the plain reader's in this process
 * (`process.cpuUsage`), LibreOffice's as the growth of the warm instance's
 * process group (`/proc/<pid>/stat`) plus the forwarded `soffice` calls
 * (this process's reaped children) plus the extraction of the docx/pptx it
 * wrote. Linux only; a few seconds.
 *
 * `npx tsx tools/src/bench/legacy_cpu.ts [--reps N]`
 *
 * @module
 */
import { NodeContext } from "@effect/platform-node"
import { extractFile, makeOfficeOwner } from "@sagasu/ingest"
import { Duration, Effect, Exit } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { corpusDir, readManifest } from "../corpus.ts"

const reps = Number(process.argv[process.argv.indexOf("--reps") + 1] ?? "") || 5
const tick = 1000 / 100 // ms per clock tick (USER_HZ is 100 on Linux)

/** utime + stime of a process, in ms; 0 when it is gone. */
function cpuOfPid(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "latin1")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) * tick
  } catch {
    return 0
  }
}

/** CPU of this process's reaped children (the forwarded soffice calls), in ms. */
function childrenCpu(): number {
  const stat = fs.readFileSync("/proc/self/stat", "latin1")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[13]) + Number(fields[14])) * tick
}

const ownCpu = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0

const rows = readManifest().filter((r) => r.kind === "doc" || r.kind === "ppt")
const work = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-legacy-cpu-"))

const program = Effect.gen(function* () {
  const results: Array<{ file: string; plain: number | undefined; office: number | undefined }> = []
  for (const kind of ["document", "presentation"] as const) {
    yield* Effect.scoped(
      Effect.gen(function* () {
        const owner = yield* makeOfficeOwner(kind, { workArea: work, timeout: Duration.seconds(60), convertReadable: true })
        const mine = rows.filter((r) => (r.kind === "doc") === (kind === "document"))
        // Warm LibreOffice up: the cold start is a cost of the run, not of a file.
        if (mine[0] !== undefined) yield* Effect.exit(owner.ingest(path.join(corpusDir, mine[0].path)))
        for (const row of mine) {
          const file = path.join(corpusDir, row.path)
          // The plain reader, warm.
          const first = yield* Effect.exit(extractFile(file))
          let plain: number | undefined
          if (Exit.isSuccess(first)) {
            const c0 = ownCpu()
            for (let i = 0; i < reps; i++) yield* Effect.exit(extractFile(file))
            plain = (ownCpu() - c0) / reps
          }
          // LibreOffice, warm.
          let office: number | undefined
          let total = 0
          let ok = 0
          for (let i = 0; i < reps; i++) {
            const pids = (yield* owner.status).pids
            const group0 = pids.reduce((n, pid) => n + cpuOfPid(pid), 0)
            const children0 = childrenCpu()
            const own0 = ownCpu()
            const exit = yield* Effect.exit(owner.ingest(file))
            const after = (yield* owner.status).pids
            if (Exit.isFailure(exit) || exit.value.via !== "office" || after.join() !== pids.join()) continue
            total += after.reduce((n, pid) => n + cpuOfPid(pid), 0) - group0 + (childrenCpu() - children0) + (ownCpu() - own0)
            ok++
          }
          if (ok > 0) office = total / ok
          results.push({ file: row.path, plain, office })
        }
      })
    )
  }
  return results
})

const results = await Effect.runPromise(Effect.provide(program, NodeContext.layer))
fs.rmSync(work, { recursive: true, force: true })
const fmt = (n: number | undefined) => (n === undefined ? "—" : n.toFixed(1))
console.log(`| file | plain reader (ms CPU) | LibreOffice (ms CPU) |\n|---|---|---|`)
for (const r of results) console.log(`| ${r.file.replace(/^files\//, "")} | ${fmt(r.plain)} | ${fmt(r.office)} |`)
const both = results.filter((r) => r.plain !== undefined && r.office !== undefined)
const sum = (f: (r: (typeof both)[number]) => number) => both.reduce((n, r) => n + f(r), 0)
console.log(
  `\n${both.length} files read both ways (${reps} reps each, warm): plain median ${median(both.map((r) => r.plain ?? 0)).toFixed(1)} ms, ` +
    `mean ${(sum((r) => r.plain ?? 0) / both.length).toFixed(1)} ms; LibreOffice median ${median(both.map((r) => r.office ?? 0)).toFixed(1)} ms, ` +
    `mean ${(sum((r) => r.office ?? 0) / both.length).toFixed(1)} ms; LibreOffice / plain = ${(sum((r) => r.office ?? 0) / sum((r) => r.plain ?? 0)).toFixed(0)}× the CPU`
)
