/**
 * The LibreOffice process of the Office owners, and the forwarded
 * `--convert-to` calls it serves (ARCHITECTURE.md, "Known traps":
 * single-instance forwarding). One process converts every kind: owners
 * sharing a slot hand it from one to the next (office_owner.ts).
 *
 * How it works: the owner starts `soffice` with its own
 * `-env:UserInstallation` profile and a keep-alive document, so the instance
 * stays up; each conversion is a second, short `soffice` call with the same
 * profile, which LibreOffice forwards over the profile's IPC pipe to the warm
 * instance and which returns when the conversion is written. Without a
 * document open the instance would exit after one forwarded call. A different
 * profile means a different pipe, so a LibreOffice the user has open is never
 * reached, and never killed: every process here is spawned detached (its own
 * process group, by @effect/platform-node) and is killed by that group id
 * only, never by name.
 *
 * @module
 */
import { Command, type CommandExecutor, FileSystem } from "@effect/platform"
import type { PlatformError } from "@effect/platform/Error"
import type { AppKind } from "@sagasu/domain"
import { Duration, Effect, Exit, Option, Scope, Stream } from "effect"
import { createHash } from "node:crypto"
import * as fsSync from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { OfficeFailure } from "./office_failure.ts"

/** A warm, invisible instance that never shows a dialog, restores nothing and opens no start centre. */
export const headlessFlags = ["--headless", "--invisible", "--norestore", "--nologo", "--nodefault"] as const

/** The OOXML format each kind converts to, with LibreOffice's export filter (explicit, so the result does not depend on defaults). */
export const targetOf: Record<AppKind, { readonly ext: string; readonly filter: string }> = {
  spreadsheet: { ext: "xlsx", filter: "xlsx:Calc MS Excel 2007 XML" },
  document: { ext: "docx", filter: "docx:MS Word 2007 XML" },
  presentation: { ext: "pptx", filter: "pptx:Impress MS PowerPoint 2007 XML" }
}

/** The LibreOffice package that converts each kind, for a message when that part is missing. */
export const packageOf: Record<AppKind, string> = {
  spreadsheet: "libreoffice-calc-nogui",
  document: "libreoffice-writer-nogui",
  presentation: "libreoffice-impress-nogui"
}

/** The keep-alive document's name inside the profile folder; LibreOffice's lock file beside it says "loaded". */
const keepAliveName = "keepalive.txt"

/** How long a cold start may take before it counts as failed (measured: 1–1.7 s here). */
const startLimit = Duration.seconds(60)

/** Lines of LibreOffice output kept per process, for failure details. */
const outputLines = 200

/** How to run `soffice`. */
export interface SofficeSpec {
  /** Command name or path (default `soffice`). */
  readonly command: string
  /** Extra environment for every `soffice` started (a test can set PATH). */
  readonly env: Readonly<Record<string, string>>
}

/** A running LibreOffice instance, held by one owner at a time. */
export interface OfficeProcess {
  /** Its number for the log (R4): the run's n-th process when the owners share a slot, else the owner's (1, 2 after the first recycle, …). */
  readonly generation: number
  /** Its profile folder (`-env:UserInstallation`), also holding the keep-alive document and its TMPDIR. */
  readonly dir: string
  /** The profile folder as a file URL, exactly as passed to LibreOffice. */
  readonly url: string
  /** The spawned process; its pid is also its process group id. */
  readonly process: CommandExecutor.Process
  /** Owns the process: closing it reaps the process handle. */
  readonly scope: Scope.CloseableScope
  /** The last lines LibreOffice printed (stdout and stderr), newest last. */
  readonly output: Array<string>
  /** Files converted by this process, whichever owner held it (its recycle counts these). */
  files: number
}

/**
 * The single-instance pipe LibreOffice listens on for a profile:
 * `/tmp/OSL_PIPE_<uid>_SingleOfficeIPC_<md5>`, the MD5 of the profile URL in
 * UTF-16LE with each byte in hex without padding (read from LibreOffice's
 * source, checked on this machine). A killed instance leaves it behind, so
 * the owner removes its own — and only its own.
 */
export function ipcPipePath(url: string): string | undefined {
  if (process.platform === "win32" || typeof process.getuid !== "function") return undefined
  const digest = createHash("md5").update(Buffer.from(url, "utf16le")).digest()
  const hash = [...digest].map((b) => b.toString(16)).join("")
  return path.join("/tmp", `OSL_PIPE_${process.getuid()}_SingleOfficeIPC_${hash}`)
}

const decode = new TextDecoder()

/** Keeps the last {@link outputLines} lines of a process's stdout and stderr, so its pipes never fill up. */
const drainInto = (proc: CommandExecutor.Process, lines: Array<string>) => {
  const keep = (chunk: Uint8Array) =>
    Effect.sync(() => {
      for (const line of decode.decode(chunk).split(/\r?\n/)) {
        if (line.trim() === "") continue
        lines.push(line.trim())
        if (lines.length > outputLines) lines.splice(0, lines.length - outputLines)
      }
    })
  return Effect.all([Stream.runForEach(proc.stdout, keep), Stream.runForEach(proc.stderr, keep)], {
    concurrency: 2,
    discard: true
  }).pipe(Effect.ignore)
}

/** A spawn error: `NotFound` means LibreOffice is not installed (or not on PATH). */
const spawnFailure = (spec: SofficeSpec, error: PlatformError): OfficeFailure =>
  error._tag === "SystemError" && error.reason === "NotFound"
    ? new OfficeFailure({ reason: "office-missing", detail: `command "${spec.command}" not found` })
    : new OfficeFailure({ reason: "office-start-failed", detail: `"${spec.command}" could not be started: ${error.message}` })

const commandOf = (spec: SofficeSpec, dir: string, args: ReadonlyArray<string>) =>
  Command.make(spec.command, ...args).pipe(
    // TMPDIR: LibreOffice's own temporary folders (lu*.tmp) stay in the profile folder and go with it.
    Command.env({ TMPDIR: path.join(dir, "tmp"), ...spec.env }),
    Command.workingDirectory(dir)
  )

/** The last lines LibreOffice printed, for a failure detail. */
export const tail = (lines: ReadonlyArray<string>, from = 0): string => {
  const shown = lines.slice(Math.max(from, lines.length - 5))
  return shown.length === 0 ? "no output" : shown.join(" / ")
}

/**
 * Starts a LibreOffice instance with a fresh profile in `dir` and waits until
 * it has loaded its keep-alive document (then its IPC pipe is listening).
 * The process belongs to a new scope owned by the caller, who ends it with
 * {@link endOffice}. Fails with `office-missing` or `office-start-failed`;
 * on failure nothing is left running.
 */
export const startOffice = Effect.fn("Office.start")(function* (spec: SofficeSpec, dir: string, generation: number) {
  const fs = yield* FileSystem.FileSystem
  const setup = Effect.gen(function* () {
    yield* fs.remove(dir, { recursive: true }).pipe(Effect.catchAll(() => Effect.void))
    yield* fs.makeDirectory(path.join(dir, "tmp"), { recursive: true })
    yield* fs.writeFileString(path.join(dir, keepAliveName), "Sagasu keeps this document open so that its LibreOffice stays running.\n")
  })
  yield* setup.pipe(
    Effect.mapError((e) => new OfficeFailure({ reason: "office-start-failed", detail: `the profile folder could not be prepared: ${e.message}` }))
  )
  const url = pathToFileURL(dir).href
  const scope = yield* Scope.make()
  const proc = yield* Command.start(
    commandOf(spec, dir, [`-env:UserInstallation=${url}`, ...headlessFlags, path.join(dir, keepAliveName)])
  ).pipe(
    Scope.extend(scope),
    Effect.mapError((e) => spawnFailure(spec, e)),
    Effect.tapError(() => Scope.close(scope, Exit.void))
  )
  const office: OfficeProcess = { generation, dir, url, process: proc, scope, output: [], files: 0 }
  yield* drainInto(proc, office.output).pipe(Effect.forkIn(scope))
  return office
})

/**
 * Waits until `office` has loaded its keep-alive document: LibreOffice writes
 * `.~lock.keepalive.txt#` beside it once the document is open. Fails with
 * `office-start-failed` when the process exits first or after 60 s.
 */
export const awaitReady = Effect.fn("Office.awaitReady")(function* (office: OfficeProcess) {
  const fs = yield* FileSystem.FileSystem
  const lock = path.join(office.dir, `.~lock.${keepAliveName}#`)
  const poll: Effect.Effect<void, OfficeFailure> = Effect.gen(function* () {
    for (;;) {
      if (yield* fs.exists(lock).pipe(Effect.orElseSucceed(() => false))) return
      if (!(yield* office.process.isRunning.pipe(Effect.orElseSucceed(() => false)))) {
        const code = yield* office.process.exitCode.pipe(
          Effect.map((c) => `exit code ${c}`),
          Effect.orElseSucceed(() => "killed by a signal")
        )
        yield* Effect.sleep(Duration.millis(50)) // let the last output arrive
        return yield* new OfficeFailure({
          reason: "office-start-failed",
          detail: `LibreOffice exited during start-up (${code}): ${tail(office.output)}`
        })
      }
      yield* Effect.sleep(Duration.millis(20))
    }
  })
  yield* poll.pipe(
    Effect.timeoutFail({
      duration: startLimit,
      onTimeout: () =>
        new OfficeFailure({ reason: "office-start-failed", detail: `LibreOffice was not ready after ${Duration.format(startLimit)}: ${tail(office.output)}` })
    })
  )
})

/**
 * The live (not zombie) processes of group `pgid`: oosplash and its
 * soffice.bin. Read from /proc on Linux, where a killed soffice.bin may stay
 * a zombie for a while when no init reaps it; elsewhere `kill(-pgid, 0)` says
 * whether the group exists at all (then the pid list is just the leader).
 */
export function groupMembers(pgid: number): ReadonlyArray<number> {
  if (process.platform === "linux") {
    const members: Array<number> = []
    let names: Array<string>
    try {
      names = fsSync.readdirSync("/proc")
    } catch {
      names = []
    }
    for (const name of names) {
      if (!/^\d+$/.test(name)) continue
      try {
        const stat = fsSync.readFileSync(`/proc/${name}/stat`, "latin1")
        // pid (comm) state ppid pgrp …; comm may contain spaces and parentheses.
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
        if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") members.push(Number(name))
      } catch {
        // the process ended while we looked
      }
    }
    return members
  }
  try {
    process.kill(-pgid, 0)
    return [pgid]
  } catch {
    return []
  }
}

/**
 * Ends `office`: `SIGKILL` for an abandoned instance (timeout, stop, failure:
 * W4 says no polite shutdown then), `SIGTERM` for a recycle or the owner's
 * end. Either way the whole process group is signalled — oosplash and its
 * soffice.bin — and nothing else. A group that has not ended 2 s after
 * `SIGTERM` gets `SIGKILL`, also when the caller is uninterruptible (R15).
 * Then the profile folder and the pipe it leaves in /tmp are removed. Never
 * fails.
 */
export const endOffice = Effect.fn("Office.end")(function* (office: OfficeProcess, signal: "SIGTERM" | "SIGKILL") {
  const fs = yield* FileSystem.FileSystem
  const pgid = office.process.pid
  const signalGroup = (s: NodeJS.Signals) =>
    process.platform === "win32"
      ? // No process groups: the platform's kill ends the tree with `taskkill /T /F`.
        office.process.kill(s).pipe(Effect.interruptible, Effect.timeout(Duration.seconds(5)), Effect.ignore)
      : Effect.sync(() => {
          try {
            process.kill(-pgid, s)
          } catch {
            // the group is gone already
          }
        })
  // Interruptible even where endOffice runs uninterruptibly (a finalizer, a hand-over): else the
  // timeouts below wait for it to end, and a process that ignores SIGTERM (frozen, or hung in its
  // shutdown) would hold the run's end forever instead of being killed after 2 s.
  const gone = Effect.gen(function* () {
    while (groupMembers(pgid).length > 0) yield* Effect.sleep(Duration.millis(10))
  }).pipe(Effect.interruptible)
  yield* signalGroup(signal)
  if (signal === "SIGTERM") {
    // LibreOffice exits on SIGTERM within milliseconds here; never wait long for it.
    const ended = yield* gone.pipe(Effect.timeout(Duration.seconds(2)), Effect.option)
    if (Option.isNone(ended)) yield* signalGroup("SIGKILL")
  }
  // The oosplash process is our child: its exit is reaped by Node. soffice.bin is reaped by init; wait a little for it.
  yield* gone.pipe(Effect.timeout(Duration.seconds(2)), Effect.ignore)
  yield* Scope.close(office.scope, Exit.void)
  const pipe = ipcPipePath(office.url)
  if (pipe !== undefined) yield* Effect.sync(() => fsSync.rmSync(pipe, { force: true }))
  yield* fs.remove(office.dir, { recursive: true }).pipe(Effect.ignore)
})

/**
 * One forwarded conversion: `soffice -env:UserInstallation=<same profile>
 * --convert-to <filter> --outdir <outDir> <input>`, which the warm instance
 * performs; returns when LibreOffice has written (or failed to write) the
 * output. Interrupting it kills the forwarding process at once; the caller
 * kills the instance. Returns the forwarding process's exit code and output.
 */
export const forwardConversion = Effect.fn("Office.forwardConversion")(function* (
  spec: SofficeSpec,
  office: OfficeProcess,
  kind: AppKind,
  input: string,
  outDir: string
) {
  return yield* Effect.scoped(
    Effect.gen(function* () {
      const client = yield* Command.start(
        commandOf(spec, office.dir, [
          `-env:UserInstallation=${office.url}`,
          ...headlessFlags,
          "--convert-to",
          targetOf[kind].filter,
          "--outdir",
          outDir,
          input
        ])
      ).pipe(Effect.mapError((e) => spawnFailure(spec, e)))
      const output: Array<string> = []
      yield* drainInto(client, output).pipe(Effect.forkScoped)
      const code = yield* client.exitCode.pipe(
        Effect.map((c): number | "signal" => c),
        Effect.orElseSucceed(() => "signal" as const),
        Effect.onInterrupt(() => client.kill("SIGKILL").pipe(Effect.ignore))
      )
      return { code, output }
    })
  )
})

/**
 * The installed LibreOffice's version line (`LibreOffice 7.4.7.2 40(Build:2)`),
 * or none when `soffice` is missing or does not answer within 20 s. Answered
 * by the launcher without a profile or IPC, so it never touches a running
 * LibreOffice.
 */
export const sofficeVersion = (spec: SofficeSpec): Effect.Effect<Option.Option<string>, never, CommandExecutor.CommandExecutor> =>
  Command.string(Command.make(spec.command, "--version").pipe(Command.env(spec.env))).pipe(
    Effect.timeout(Duration.seconds(20)),
    Effect.map((out) => Option.fromNullable(out.split(/\r?\n/).map((l) => l.trim()).find((l) => /office/i.test(l)))),
    Effect.orElseSucceed(() => Option.none<string>())
  )
