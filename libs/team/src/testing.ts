/**
 * `@sagasu/team/testing`: a private PostgreSQL cluster for tests and
 * benchmarks (issue 18) — `initdb` into a temporary folder, started on a
 * free loopback port, stopped and removed at the end. PostgreSQL refuses to
 * run as root, and CI runs as root: then the cluster runs as `nobody`, its
 * folder handed over to that user. The programs are found through
 * `pg_config --bindir`, else the newest `/usr/lib/postgresql/<n>/bin`
 * (Debian's layout; `/usr/local/bin` links are not relied on). And the
 * sink port's test layer, in memory ({@link memorySinkLayer}).
 *
 * Not for production code (the dependency rule keeps this door to tests
 * and tools).
 *
 * @module
 */
import { Effect, Layer } from "effect"
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { TeamError } from "./team_error.ts"
import { type TeamFile, type TeamIndexWriter, TeamSink } from "./team_sink.ts"

/** A running private cluster. */
export interface PrivateCluster {
  /** The loopback port it listens on. */
  readonly port: number
  /** The superuser's name (`sagasu_admin`) and password (connections over TCP need it). */
  readonly adminUser: string
  readonly adminPassword: string
  /** A connection string to `database` (default `postgres`) as `user` (default the superuser), without a password. */
  readonly url: (options?: { readonly user?: string; readonly database?: string }) => string
  /** Runs SQL as the superuser through `psql` on the cluster's socket; returns its output (unaligned, tuples only). */
  readonly psql: (sql: string, database?: string) => string
  /** Stops the cluster (fast) and removes its folder; safe to call twice. */
  readonly stop: () => void
}

/** Options of {@link startPrivateCluster}. */
export interface PrivateClusterOptions {
  /** Turn durability off (`fsync`, `synchronous_commit`, `full_page_writes`): faster tests; default true. */
  readonly fast?: boolean
  /** Extra `-c name=value` settings. */
  readonly settings?: Readonly<Record<string, string>>
}

/**
 * The folder of PostgreSQL's server programs (`initdb`, `pg_ctl`,
 * `postgres`), or `undefined` when PostgreSQL is not installed.
 */
export function postgresBinDir(): string | undefined {
  const has = (dir: string) => fs.existsSync(path.join(dir, "initdb")) && fs.existsSync(path.join(dir, "pg_ctl"))
  try {
    const dir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim()
    if (dir !== "" && has(dir)) return dir
  } catch {
    // no pg_config: look in Debian's folders
  }
  let versions: Array<string> = []
  try {
    versions = fs.readdirSync("/usr/lib/postgresql").filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))
  } catch {
    return undefined
  }
  for (const v of versions) {
    const dir = path.join("/usr/lib/postgresql", v, "bin")
    if (has(dir)) return dir
  }
  return undefined
}

/** Why the tests that need PostgreSQL are skipped, or `undefined` when it is installed. */
export function postgresMissing(): string | undefined {
  return postgresBinDir() === undefined
    ? "PostgreSQL is not installed (no initdb through pg_config --bindir or /usr/lib/postgresql/*/bin): apt-get install postgresql"
    : undefined
}

/** A TCP port on 127.0.0.1 free at the time of the call (for a test's server: a PostgreSQL cluster, the GUI). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

// The user the server runs as: ourselves, or `nobody` when we are root (PostgreSQL refuses root).
const serverUser = (): { uid: number; gid: number } | undefined => {
  if (process.getuid?.() !== 0) return undefined
  const id = (flag: string) => Number(execFileSync("id", [flag, "nobody"], { encoding: "utf8" }).trim())
  return { uid: id("-u"), gid: id("-g") }
}

const chownTree = (dir: string, user: { uid: number; gid: number }) => {
  fs.chownSync(dir, user.uid, user.gid)
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    if (entry.isDirectory()) chownTree(p, user)
    else fs.chownSync(p, user.uid, user.gid)
  }
}

/**
 * Starts a private cluster (module doc); throws when PostgreSQL is missing
 * ({@link postgresMissing} says so first) or does not start — its log is
 * in the message. The cluster is stopped when the process exits, too.
 */
export async function startPrivateCluster(options: PrivateClusterOptions = {}): Promise<PrivateCluster> {
  const bin = postgresBinDir()
  if (bin === undefined) throw new Error(postgresMissing())
  const user = serverUser()
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-pg-"))
  const data = path.join(root, "data")
  const socket = path.join(root, "sock")
  const log = path.join(root, "server.log")
  const adminUser = "sagasu_admin"
  const adminPassword = `pw-${process.pid}-${Date.now()}`
  fs.mkdirSync(socket)
  fs.writeFileSync(path.join(root, "pwfile"), `${adminPassword}\n`)
  if (user !== undefined) chownTree(root, user)
  const run = (program: string, args: ReadonlyArray<string>) => {
    const r = spawnSync(path.join(bin, program), args, {
      encoding: "utf8",
      ...(user !== undefined ? { uid: user.uid, gid: user.gid } : {}),
      env: { ...process.env, LC_ALL: "C.UTF-8", LANG: "C.UTF-8" },
      cwd: root
    })
    if (r.status !== 0) {
      let serverLog = ""
      try {
        serverLog = fs.readFileSync(log, "utf8")
      } catch {
        // no log yet
      }
      throw new Error(`${program} ${args.join(" ")} failed (${r.status ?? r.signal}): ${r.stderr}${r.stdout}\n${serverLog}`)
    }
    return r.stdout
  }
  run("initdb", ["-D", data, "-U", adminUser, "--pwfile", path.join(root, "pwfile"), "-E", "UTF8", "--locale=C.UTF-8", "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync"])
  const fast = options.fast ?? true
  const settings: Record<string, string> = {
    listen_addresses: "127.0.0.1",
    unix_socket_directories: socket,
    ...(fast ? { fsync: "off", synchronous_commit: "off", full_page_writes: "off" } : {}),
    ...options.settings
  }
  let port = 0
  for (let attempt = 0; ; attempt++) {
    port = await freePort()
    const flags = [`-p ${port}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(" ")
    try {
      run("pg_ctl", ["-D", data, "-l", log, "-o", flags, "-w", "-t", "120", "start"])
      break
    } catch (e) {
      if (attempt >= 2) {
        fs.rmSync(root, { recursive: true, force: true })
        throw e
      }
    }
  }
  let stopped = false
  const stop = () => {
    if (stopped) return
    stopped = true
    process.off("exit", stop)
    try {
      run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"])
    } catch {
      // already gone
    }
    fs.rmSync(root, { recursive: true, force: true })
  }
  process.on("exit", stop)
  const psql = (sql: string, database = "postgres") => {
    const r = spawnSync(path.join(bin, "psql"), ["-h", socket, "-p", String(port), "-U", adminUser, "-d", database, "-v", "ON_ERROR_STOP=1", "-At", "-c", sql], {
      encoding: "utf8"
    })
    if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`)
    return r.stdout
  }
  return {
    port,
    adminUser,
    adminPassword,
    url: (o = {}) => `postgres://${encodeURIComponent(o.user ?? adminUser)}@127.0.0.1:${port}/${encodeURIComponent(o.database ?? "postgres")}`,
    psql,
    stop
  }
}

/** What {@link memorySinkLayer} holds per index: the files by path, the visible generation, and whether another publisher holds it. */
export interface MemoryIndex {
  files: Map<string, TeamFile>
  generation: number
  held: boolean
  /** Every path published through a writer, in order (before any flip shows it). */
  sent?: Array<string>
}

/**
 * The test layer of the {@link TeamSink} port: indexes in `state` (made on
 * first open), a flip counting generations; an index marked `held` is
 * refused as another publisher's.
 */
export const memorySinkLayer = (state: Map<string, MemoryIndex>) =>
  Layer.succeed(TeamSink, {
    openIndex: (index) =>
      Effect.gen(function* () {
        const entry = state.get(index) ?? { files: new Map<string, TeamFile>(), generation: 0, held: false }
        state.set(index, entry)
        if (entry.held) return yield* new TeamError({ reason: "held", server: "memory", detail: index })
        const pending = new Map(entry.files)
        let changed = false
        const writer: TeamIndexWriter = {
          index,
          visibleGeneration: entry.generation,
          fingerprints: Effect.sync(() => new Map([...pending].map(([p, f]) => [p, f.fingerprint]))),
          publish: (file) => Effect.sync(() => {
            pending.set(file.path, file)
            entry.sent = [...(entry.sent ?? []), file.path]
            changed = true
          }),
          remove: (paths) => Effect.sync(() => {
            for (const p of paths) changed = pending.delete(p) || changed
          }),
          flip: Effect.sync(() => {
            if (!changed) return entry.generation
            entry.files = pending
            entry.generation++
            return entry.generation
          })
        }
        return writer
      })
  })
