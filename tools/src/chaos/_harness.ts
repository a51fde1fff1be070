/**
 * What every part of the chaos campaign shares: the tally of injected faults,
 * invariant checks and violations; the `sagasu` command as a child process;
 * work folders made in-process; and the views of a work folder that the
 * invariants compare (body-index snapshot, ingest list, journal, search
 * answers, the lock, stray processes).
 *
 * @module
 */
import { NodeContext } from "@effect/platform-node"
import { type IngestRow, type Settings, defaultSettings } from "@sagasu/domain"
import { formatSettings, lockAddress, stagingCompleteMark, workPaths } from "@sagasu/store"
import { initWorkFolder, readIngestList, searchIndex, writeSettings } from "@sagasu/store/testing"
import { Effect } from "effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"
import { repoRoot } from "../corpus.ts"

export { repoRoot }

/** The `sagasu` command of this repository. */
export const cliBin = path.join(repoRoot, "apps", "cli", "bin", "sagasu.js")

/** The preload that kills or fills the disk at a chosen file operation (see kill_on_write.cjs). */
export const faultPreload = path.join(repoRoot, "tools", "src", "chaos", "fault_preload.cjs")

// ---------------------------------------------------------------------------
// The tally.

/** Faults injected, invariants checked and violations found by one part of the campaign. */
export class Tally {
  readonly faults = new Map<string, number>()
  readonly checksByKind = new Map<string, number>()
  readonly violations: Array<string> = []
  readonly notes: Array<string> = []
  readonly figures = new Map<string, string>()

  /** Counts `n` injected faults of `kind`. */
  fault(kind: string, n = 1): void {
    this.faults.set(kind, (this.faults.get(kind) ?? 0) + n)
  }

  /** One invariant check of `kind`: records a violation (the message) when `ok` is false. */
  check(kind: string, ok: boolean, message: () => string): boolean {
    this.checksByKind.set(kind, (this.checksByKind.get(kind) ?? 0) + 1)
    if (!ok) {
      const m = `${kind}: ${message()}`
      this.violations.push(m)
      console.log(`  VIOLATION ${m}`)
    }
    return ok
  }

  get checks(): number {
    return [...this.checksByKind.values()].reduce((a, b) => a + b, 0)
  }

  note(line: string): void {
    this.notes.push(line)
    console.log(`  ${line}`)
  }
}

// ---------------------------------------------------------------------------
// The command as a child process.

/** Options of {@link startCli}. */
export interface CliOptions {
  readonly env?: Readonly<Record<string, string>>
  /** Run as this uid/gid (root ignores file modes; `nobody` does not). */
  readonly asUser?: { readonly uid: number; readonly gid: number }
  /** Load {@link faultPreload} into the process (its env variables arm it). */
  readonly preload?: boolean
}

/** A running `sagasu` child with its output so far. */
export interface CliChild {
  readonly child: ChildProcess
  readonly started: number
  /** Everything printed so far (stdout, then stderr appended as it arrives). */
  readonly out: () => string
  readonly stdout: () => string
  readonly stderr: () => string
  /** Called with each stdout chunk. */
  readonly onOut: (f: (text: string) => void) => void
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null; readonly ms: number }>
}

const live = new Set<ChildProcess>()

/** Kills every child still running (by its own pid): for the campaign's clean-up. */
export function killAllChildren(): void {
  for (const c of live) {
    try {
      c.kill("SIGKILL")
    } catch {
      // gone
    }
  }
}

/** Starts `sagasu ARGS`. */
export function startCli(args: ReadonlyArray<string>, options: CliOptions = {}): CliChild {
  const nodeArgs = [...(options.preload === true ? ["--require", faultPreload] : []), cliBin, ...args]
  const env = { ...process.env, NO_COLOR: "1", ...options.env }
  const child =
    options.asUser === undefined
      ? spawn(process.execPath, nodeArgs, { stdio: ["pipe", "pipe", "pipe"], env })
      : spawn(
          "setpriv",
          [`--reuid=${options.asUser.uid}`, `--regid=${options.asUser.gid}`, "--clear-groups", "--", process.execPath, ...nodeArgs],
          { stdio: ["pipe", "pipe", "pipe"], env: { ...env, HOME: "/tmp" } }
        )
  live.add(child)
  const started = Date.now()
  let stdout = ""
  let stderr = ""
  const listeners: Array<(text: string) => void> = []
  child.stdout?.on("data", (d: Buffer) => {
    const text = d.toString()
    stdout += text
    for (const l of listeners) l(text)
  })
  child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }>((resolve) =>
    child.on("exit", (code, signal) => {
      live.delete(child)
      // Let the pipes drain before the caller reads the output.
      setTimeout(() => resolve({ code, signal, ms: Date.now() - started }), 20)
    })
  )
  return {
    child,
    started,
    out: () => stdout + stderr,
    stdout: () => stdout,
    stderr: () => stderr,
    onOut: (f) => listeners.push(f),
    exited
  }
}

/** Runs `sagasu ARGS` to its end. */
export async function runCli(args: ReadonlyArray<string>, options: CliOptions = {}) {
  const c = startCli(args, options)
  c.child.stdin?.end()
  const exit = await c.exited
  return { ...exit, out: c.out(), stdout: c.stdout(), stderr: c.stderr() }
}

/** `sagasu index --yes --verbose --work WORK` (the campaign reads the per-file `[n/total]` and `skip:` lines). */
export const startIndex = (work: string, options: CliOptions = {}): CliChild => {
  const c = startCli(["index", "--yes", "--verbose", "--work", work], options)
  c.child.stdin?.end()
  return c
}

// ---------------------------------------------------------------------------
// Work folders, made in-process (the CLI's init/add cost seconds each).

/** Runs an effect that needs the platform's FileSystem. */
export const runNode = <A, E>(effect: Effect.Effect<A, E, NodeContext.NodeContext>): Promise<A> =>
  Effect.runPromise(effect.pipe(Effect.provide(NodeContext.layer)))

/** Creates the work folder `work` with one index per entry of `targets` (name → folder) and `settings`. */
export async function makeWork(work: string, targets: Readonly<Record<string, string>>, settings: Partial<Settings> = {}): Promise<string> {
  await runNode(
    Effect.gen(function* () {
      const paths = yield* initWorkFolder(work, formatSettings(defaultSettings))
      yield* writeSettings(paths, {
        ...defaultSettings,
        ingestThreads: 2,
        ...settings,
        targetFolders: Object.entries(targets).map(([name, folder]) => ({ name, path: folder, enabled: true }))
      })
    })
  )
  return work
}

// ---------------------------------------------------------------------------
// Views of a work folder.

/** Every body-index folder holding TSVs: relative path → hash of its TSV names and bytes. */
export function snapshot(work: string): Map<string, string> {
  const root = path.join(work, "index")
  const out = new Map<string, string>()
  if (!fs.existsSync(root)) return out
  const byFolder = new Map<string, Array<string>>()
  for (const e of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue
    const folder = path.relative(root, e.parentPath)
    const list = byFolder.get(folder) ?? []
    list.push(e.name)
    byFolder.set(folder, list)
  }
  for (const [folder, names] of byFolder) {
    const h = crypto.createHash("sha256")
    // The .complete mark holds the source's size and modified time (S5): a copy of the tree (the
    // second work folder's) has other times, so the mark counts by its name, the TSVs by their bytes.
    for (const name of names.sort()) {
      h.update(name).update("\0")
      if (name !== stagingCompleteMark) h.update(fs.readFileSync(path.join(root, folder, name)))
      h.update("\0")
    }
    out.set(folder.split(path.sep).join("/"), h.digest("hex"))
  }
  return out
}

/** Differences between two snapshots, as short lines (at most `max`). */
export function snapshotDiff(
  got: ReadonlyMap<string, string>,
  want: ReadonlyMap<string, string>,
  options: { readonly allowMissing?: boolean; readonly max?: number } = {}
): Array<string> {
  const max = options.max ?? 5
  const out: Array<string> = []
  for (const [k, v] of want) {
    if (got.has(k) ? got.get(k) !== v : options.allowMissing !== true) out.push(got.has(k) ? `differs: ${k}` : `missing: ${k}`)
  }
  for (const k of got.keys()) if (!want.has(k)) out.push(`extra: ${k}`)
  return out.slice(0, max).concat(out.length > max ? [`… ${out.length - max} more`] : [])
}

/** The ingest list, last row per file: `index/path` → row. */
export async function ingestRows(work: string): Promise<Map<string, IngestRow>> {
  const rows = await runNode(readIngestList(workPaths(work))).catch(() => [] as ReadonlyArray<IngestRow>)
  return new Map(rows.map((r) => [`${r.index}/${r.path}`, r]))
}

/** `status` (+ the reason's kind for failed rows) per file: what two runs over the same tree must agree on. */
export function rowStates(rows: ReadonlyMap<string, IngestRow>): Map<string, string> {
  return new Map(
    [...rows].map(([k, r]) => [k, r.status === "failed" ? `failed ${r.failure?.reason ?? ""}` : r.status])
  )
}

/** Differences between two row-state maps, as short lines. */
export function mapDiff(got: ReadonlyMap<string, string>, want: ReadonlyMap<string, string>, max = 5): Array<string> {
  const out: Array<string> = []
  for (const [k, v] of want) if (got.get(k) !== v) out.push(`${k}: ${got.get(k) ?? "(no row)"} ≠ ${v}`)
  for (const [k, v] of got) if (!want.has(k)) out.push(`${k}: ${v} (not in the reference)`)
  return out.slice(0, max).concat(out.length > max ? [`… ${out.length - max} more`] : [])
}

/** Journal lines of the current journal: files with `start` and no `published`. */
export function openJournalStarts(work: string): Set<string> {
  const journal = path.join(work, "store", "journal", "ingest.tsv")
  const open = new Set<string>()
  if (!fs.existsSync(journal)) return open
  for (const line of fs.readFileSync(journal, "utf8").split("\n")) {
    const [tag, index, p] = line.split("\t")
    if (tag === "start") open.add(`${index}/${p}`)
    if (tag === "published") open.delete(`${index}/${p}`)
  }
  return open
}

/** Search answers for `queries` from the work folder, as sorted `index/path location text` lines per query. */
export async function searchAnswers(
  work: string,
  queries: ReadonlyArray<string>,
  options: { readonly index?: string } = {}
): Promise<{ readonly answers: Map<string, string>; readonly engines: Set<string> }> {
  const answers = new Map<string, string>()
  const engines = new Set<string>()
  for (const q of queries) {
    const r = await runNode(searchIndex(workPaths(work), q, { limit: 1_000_000, ...options }))
    engines.add(r.engine)
    answers.set(q, r.hits.map((h) => `${h.index}/${h.path} ${h.location} ${h.text}`).sort().join("\n"))
  }
  return { answers, engines }
}

/** Whether the work folder's lock (R3) is free: it can be taken and released at once. */
export function lockIsFree(work: string): Promise<boolean> {
  const address = lockAddress(workPaths(work))
  return new Promise((resolve) => {
    const server = net.createServer()
    server.once("error", () => resolve(false))
    server.listen({ path: address, exclusive: true }, () => server.close(() => resolve(true)))
  })
}

/** Processes other than this one whose command line mentions `needle` (e.g. a work folder): strays after a kill. */
export function processesMentioning(needle: string): Array<{ readonly pid: number; readonly cmd: string }> {
  const out: Array<{ pid: number; cmd: string }> = []
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "latin1")
      const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0]
      if (state === "Z" || state === "X") continue
      const cmd = fs.readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").join(" ")
      if (cmd.includes(needle)) out.push({ pid: Number(name), cmd: cmd.slice(0, 200) })
    } catch {
      // ended while we looked
    }
  }
  return out
}

/** Peak resident set size (VmHWM, bytes) of a live process and its threads; 0 when it is gone. */
export function peakRss(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))
    return m === null ? 0 : Number(m[1]) * 1024
  } catch {
    return 0
  }
}

/** Current RSS (bytes) of every live process whose command line mentions `needle`, summed. */
export function rssOfProcesses(needle: string): number {
  let sum = 0
  for (const p of processesMentioning(needle)) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p.pid}/status`, "utf8"))
      sum += m === null ? 0 : Number(m[1]) * 1024
    } catch {
      // gone
    }
  }
  return sum
}

/** The last progress record the run wrote (P3), or undefined. */
export function readProgressFile(work: string): { phase: string; current: string; mtimeMs: number } | undefined {
  const file = path.join(work, "store", "progress.json")
  try {
    const p = JSON.parse(fs.readFileSync(file, "utf8")) as { phase: string; current: string }
    return { phase: p.phase, current: p.current, mtimeMs: fs.statSync(file).mtimeMs }
  } catch {
    return undefined
  }
}

/** Sets the mtime of `file` to `ms` (content unchanged: the file is "changed" for the next run, R8). */
export function touch(file: string, ms: number): void {
  fs.utimesSync(file, new Date(ms), new Date(ms))
}

/** Sleeps `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** `a` and `b` list the same strings in the same order. */
export const sameLines = (a: string, b: string) => a === b

/** The lines of the first difference between two multi-line strings, for a violation message. */
export function firstDifference(got: string, want: string): string {
  const g = got.split("\n")
  const w = want.split("\n")
  for (let i = 0; i < Math.max(g.length, w.length); i++) {
    if (g[i] !== w[i]) return `line ${i + 1}: got ${JSON.stringify(g[i] ?? "(none)")}, want ${JSON.stringify(w[i] ?? "(none)")} (${g.length} vs ${w.length} lines)`
  }
  return "equal"
}

/** What a clean, uninterrupted run left: its body index ({@link snapshot}), its ingest list's states ({@link rowStates}), its search answers. */
export interface CleanReference {
  readonly snapshot: ReadonlyMap<string, string>
  readonly rows: ReadonlyMap<string, string>
  readonly search: ReadonlyMap<string, string>
}

/**
 * Checks the end state of `work` against the clean run's `reference` (C1, R7, S1: the body index,
 * the ingest list and the answer to each of `queries` equal the clean run's); `when` names the
 * moment in a failed check, `whose` the reference in the checks' names (as the campaign reports them).
 */
export async function checkEndState(
  tally: Tally,
  work: string,
  reference: CleanReference,
  queries: ReadonlyArray<string>,
  when: string,
  whose = "the clean run's"
): Promise<void> {
  const d = snapshotDiff(snapshot(work), reference.snapshot)
  tally.check(`end state: body index equals ${whose}`, d.length === 0, () => `${when}: ${d.join("; ")}`)
  const rows = rowStates(await ingestRows(work))
  tally.check(`end state: ingest list equals ${whose}`, mapDiff(rows, reference.rows).length === 0, () => `${when}: ${mapDiff(rows, reference.rows).join("; ")}`)
  const search = (await searchAnswers(work, queries)).answers
  for (const q of queries) {
    const got = search.get(q) ?? ""
    const want = reference.search.get(q) ?? ""
    tally.check(`end state: search answers equal ${whose}`, got === want, () => `${when}: query ${q}: ${firstDifference(got, want)}`)
  }
}
