/**
 * The Office owner of one application kind (SPEC W3–W5): the one worker that
 * reads files needing Office — xls, doc, ppt, xlsb, ods, odt, odp, rtf, and
 * files the plain reader rerouted — through its own headless LibreOffice.
 *
 * Per file: the plain extractor looks at the bytes first (an encrypted file
 * fails at once, BUG-27); otherwise the file is copied into the owner's work
 * area, converted by the owner's warm LibreOffice to the OOXML of its kind
 * (xlsx, docx, pptx), the output is checked (exists, non-empty, a zip) and
 * read by the same extractor as the plain path, so the TSVs look the same.
 *
 * Measured (LibreOffice 7.4, 2 CPUs, office_corpus.test.ts): a cold start
 * takes ≈0.9–1.1 s on a quiet machine (up to ≈2 s under load); a warm
 * forwarded conversion ≈90–160 ms median (doc < xls < ppt); 43 spreadsheets
 * (xls, xlsb, ods) went through one owner at ≈160 files/min, 12 doc files at
 * ≈300/min, 8 ppt at ≈175/min — extraction of the converted file included.
 *
 * The owners of a run share one LibreOffice process ({@link OfficeSlot}):
 * one soffice converts every kind (its Calc, Writer and Impress filters live
 * in the same instance, and a forwarded `--convert-to` with the same profile
 * reaches it whatever the kind), so when another kind needs it the process
 * is handed over warm instead of being ended and started again.
 *
 * Why a scoped constructor and not an `Effect.Service`: there are three
 * owners, one per kind, each with the run's own options (work area, recycle
 * count, time limit), made when a run starts and ended with it (R15). A
 * service tag is one value per context; a `make` returning a plain interface
 * in the caller's scope keeps all three side by side and lets tests make as
 * many as they like. The commander wraps them in its worker layer.
 *
 * @module
 */
import { CommandExecutor, FileSystem } from "@effect/platform"
import { type AppKind, type Extraction, type FileNote, fileFormatOf } from "@sagasu/domain"
import { Clock, Duration, Effect, Exit, Fiber, Option, type Scope } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import type { ExtractFileOptions } from "../extract.ts"
import { extractBuffer } from "../extract.ts"
import { noTextWarning } from "../ingest_one.ts"
import { precheck } from "./_precheck.ts"
import {
  awaitReady,
  endOffice,
  forwardConversion,
  groupMembers,
  type OfficeProcess,
  packageOf,
  type SofficeSpec,
  sofficeVersion,
  startOffice,
  tail,
  targetOf
} from "./_soffice.ts"
import { OfficeFailure } from "./office_failure.ts"
import { findSoffice } from "./soffice_path.ts"

/** The OOXML extensions: a file by such a name that reaches an owner holds something else (R14). */
const ooxmlExtensions = new Set(["xlsx", "xlsm", "xltx", "xltm", "docx", "docm", "dotx", "dotm", "pptx", "pptm", "ppsx", "ppsm", "potx", "potm"])

/** Options of {@link makeOfficeOwner}. */
export interface OfficeOwnerOptions {
  /**
   * The run's work area (`<work>/tmp`): the owner keeps its files under
   * `<workArea>/office/<kind>/` — `in/` (copies of the sources) and `out/`
   * (conversions), removed when the owner's scope closes. The profile of a
   * LibreOffice process (with that process's TMPDIR) is
   * `<workArea>/office/profile-<n>/` when the owner shares a {@link slot}
   * (n counts the run's processes; the process, and with it its profile,
   * passes from owner to owner), else `<workArea>/office/<kind>/profile-<n>/`
   * (n counts the owner's own). A profile is removed when its process ends.
   */
  readonly workArea: string
  /** Files one LibreOffice process converts before it is ended and a fresh one started (`officeRecycleAfter`, default 100). */
  readonly recycleAfter?: number
  /** Time limit of one file, LibreOffice start-up included (`fileTimeoutMinutes`, default 10 minutes, W1). */
  readonly timeout?: Duration.DurationInput
  /**
   * How one file's time limit runs out (default: `Effect.sleep(timeout)` by the clock). A test
   * gives its own — a signal it fires once LibreOffice is frozen — so that no limit of the test is
   * a guess of how fast a machine is (issue 15).
   */
  readonly limit?: (timeout: Duration.Duration) => Effect.Effect<void>
  /**
   * How long a LibreOffice process may sit without a file before the owner
   * ends it (default {@link defaultOfficeIdle}, 10 s); the next file starts a
   * fresh one (W3).
   */
  readonly idleEnd?: Duration.DurationInput
  /**
   * How the idle wait runs out (default: `Effect.sleep(idleEnd)` by the clock); a test fires it
   * when it chooses, as with {@link limit}.
   */
  readonly idle?: (idleEnd: Duration.Duration) => Effect.Effect<void>
  /**
   * Shared with the owners of the other kinds: at most one LibreOffice
   * process of the run lives at a time, and it passes from owner to owner
   * ({@link makeOfficeSlot}). Without it the owner starts and ends its own
   * processes, one at a time (W3).
   */
  readonly slot?: OfficeSlot
  /** The LibreOffice command, a name looked up on PATH or a path (default `soffice`). */
  readonly command?: string
  /** Extra environment for the LibreOffice processes (tests set PATH). */
  readonly env?: Readonly<Record<string, string>>
  /** Limits of the extraction of converted files (as for the plain path). */
  readonly extract?: ExtractFileOptions
  /**
   * Convert through LibreOffice even a file the plain reader reads (default
   * false: such a file is read without Office). For measuring the two paths
   * against each other (`office_corpus.test.ts`, `tools/src/bench/legacy_cpu.ts`).
   */
  readonly convertReadable?: boolean
}

/** What {@link OfficeOwner.ingest} returns for a file it could read. */
export interface OfficeIngestion {
  readonly extraction: Extraction
  /** `office` when LibreOffice converted it; `plain` when the bytes turned out readable without Office. */
  readonly via: "office" | "plain"
  /** Notes for the file's log block (R4): how it was read and how long it took. */
  readonly log: ReadonlyArray<FileNote>
}

/** The default of {@link OfficeOwnerOptions.idleEnd}: a burst of rerouted files shares one start, a quiet run holds no LibreOffice. */
export const defaultOfficeIdle = Duration.seconds(10)

/** An owner as the {@link OfficeSlot} sees it. */
export interface SlotHolder {
  readonly kind: AppKind
  /**
   * Once the files the holder is reading or already has queued are done (it
   * waits its turn on the owner's own queue), hands the slot and its running
   * LibreOffice, if any, to `next` ({@link OfficeSlot.handOver}); nothing when
   * it no longer holds the slot.
   */
  readonly giveUp: (next: SlotHolder) => Effect.Effect<void>
  /**
   * The owner now holds the slot, and `process` (handed over by the previous
   * holder) is its LibreOffice. False when the owner has been closed: it
   * takes no process then, and the giver ends it (R15).
   */
  readonly receive: (process: OfficeProcess | undefined) => boolean
}

/**
 * One LibreOffice process at a time for the owners that share it (issue 20:
 * memory), handed from owner to owner. A LibreOffice process takes
 * 150–380 MB; the three owners each keeping theirs warm held 726 MB of the
 * 1,215 MB a corpus run peaked at. The process itself is handed over, not
 * ended: one soffice converts every kind, and ending it whenever another
 * kind needed it cost a start each time (≈1.4 s wall, ≈1.3 s CPU): 6–7
 * starts on the shared corpus (262 files, 10 of them through LibreOffice),
 * ≈9 s of the run's ≈45 s CPU; handed over, that run starts one (more
 * only when the idle end fires between files). An owner takes the slot
 * before its file's time limit starts (waiting for another kind's file is
 * not the file's time) and keeps it while it holds a LibreOffice; another
 * kind that needs it asks the holder to give it up, which happens after the
 * files the holder already has queued, and then converts through the same
 * process: its files count towards that process's recycle, its idle end is
 * scheduled by whoever holds it, and whoever holds it when the owners close
 * ends it.
 */
export interface OfficeSlot {
  /** Waits until `owner` holds the slot (at once when it holds it or none does), with the process handed to it if any. Interruptible. */
  readonly acquire: (owner: SlotHolder) => Effect.Effect<void>
  /** `owner` no longer runs LibreOffice: the slot is free (nothing when another holds it). */
  readonly release: (owner: SlotHolder) => void
  /**
   * `from`, giving up, hands the slot and its `process` straight to `to` (so
   * no third owner takes it in between, and the process is never without a
   * holder). False when `to` did not take the process: `from` ends it.
   */
  readonly handOver: (from: SlotHolder, to: SlotHolder, process: OfficeProcess | undefined) => boolean
  /** The number of the next LibreOffice process of the run (1, 2, …), for its profile folder and the log (R4). */
  readonly nextProcess: () => number
}

/** Makes the slot the owners of one run share ({@link makeOfficeOwners} does). */
export function makeOfficeSlot(): OfficeSlot {
  let holder: SlotHolder | undefined
  let processes = 0
  return {
    acquire: (owner) =>
      Effect.gen(function* () {
        for (;;) {
          if (holder === undefined) holder = owner
          if (holder === owner) {
            owner.receive(undefined)
            return
          }
          // Waits for the holder's queued files; it then hands over to us, or has released already.
          yield* holder.giveUp(owner)
        }
      }),
    release: (owner) => {
      if (holder === owner) holder = undefined
    },
    handOver: (from, to, process) => {
      if (holder !== from) return false
      holder = to
      return to.receive(process)
    },
    nextProcess: () => ++processes
  }
}

/** Counters and the current process of an owner, for logs and tests. */
export interface OfficeOwnerStatus {
  readonly kind: AppKind
  /** LibreOffice processes this owner has started so far (successful starts; one handed over by another owner is not counted). */
  readonly processesStarted: number
  /** Files converted by LibreOffice so far, over all processes. */
  readonly filesConverted: number
  /** The process group id (= the pid of the launcher it spawned) of the LibreOffice this owner holds now (started or handed over), if any. */
  readonly pgid: Option.Option<number>
  /** The live pids of that group (the launcher and its soffice.bin); empty when none runs. */
  readonly pids: ReadonlyArray<number>
  /** The profile folder of the process it holds. */
  readonly profileDir: Option.Option<string>
}

/** The Office owner of one kind. */
export interface OfficeOwner {
  readonly kind: AppKind
  /**
   * Reads one file through LibreOffice. At most one file at a time per owner
   * (callers queue; never more than one Office process per kind, W3). Starts
   * LibreOffice on first need (or takes the one another kind's owner hands
   * over) and reuses it; ends it after `recycleAfter` files of that process
   * and after any failure or timeout (W3). On the time limit the process
   * group of the LibreOffice this owner holds is killed and the file fails
   * with `timeout` (W4). Interrupting the calling fiber — a stop (W5) —
   * kills it at once and propagates the interruption: the file is neither
   * done nor failed.
   */
  readonly ingest: (sourcePath: string) => Effect.Effect<OfficeIngestion, OfficeFailure>
  /** Counters and the running process. */
  readonly status: Effect.Effect<OfficeOwnerStatus>
}

/**
 * Makes the Office owner of `kind`. Nothing starts until the first file needs
 * LibreOffice; closing the scope ends the LibreOffice the owner holds (if
 * any: with a slot, whichever owner holds the run's process ends it) and
 * removes its work folder, so no soffice outlives the run (R15).
 */
export const makeOfficeOwner = (
  kind: AppKind,
  options: OfficeOwnerOptions
): Effect.Effect<OfficeOwner, never, Scope.Scope | CommandExecutor.CommandExecutor | FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const executor = yield* CommandExecutor.CommandExecutor
    const spec: SofficeSpec = { command: options.command ?? findSoffice(process.platform, { ...process.env, ...options.env }), env: options.env ?? {} }
    const recycleAfter = Math.max(1, options.recycleAfter ?? 100)
    const timeout = Duration.decode(options.timeout ?? Duration.minutes(10))
    const limit = options.limit ?? Effect.sleep
    const home = path.resolve(options.workArea, "office", kind)
    const inDir = path.join(home, "in")
    const outDir = path.join(home, "out")
    const target = targetOf[kind]
    const permit = yield* Effect.makeSemaphore(1)
    const idleEnd = Duration.decode(options.idleEnd ?? defaultOfficeIdle)
    const idle = options.idle ?? Effect.sleep
    const slot = options.slot
    const scope = yield* Effect.scope

    // Touched only by the fiber holding the permit, and by the finalizer. With a slot, `office` is
    // set only while `holdsSlot`; a hand-over moves it to the next holder (in `giveUp`, which runs
    // on the fiber that holds both owners' permits).
    let office: OfficeProcess | undefined
    let generation = 0
    let processesStarted = 0
    let filesConverted = 0
    let sequence = 0
    let closed = false
    let holdsSlot = false
    // Files handed to `ingest` and not finished: an idle end is only for an owner with none.
    let inFlight = 0
    // Counts finished files, so an idle end knows whether a file came meanwhile.
    let finished = 0
    let idleEnder: Fiber.RuntimeFiber<void> | undefined

    const provide = <A, E>(effect: Effect.Effect<A, E, CommandExecutor.CommandExecutor | FileSystem.FileSystem>) =>
      effect.pipe(Effect.provideService(CommandExecutor.CommandExecutor, executor), Effect.provideService(FileSystem.FileSystem, fs))

    /** Ends the current process, if any: killed when abandoned, terminated otherwise. */
    const end = (signal: "SIGTERM" | "SIGKILL") =>
      Effect.suspend(() => {
        const current = office
        office = undefined
        return current === undefined ? Effect.void : provide(endOffice(current, signal))
      })

    /** The process has ended or was never needed: the slot goes back (issue 20). */
    const releaseSlot = () => {
      if (!holdsSlot) return
      holdsSlot = false
      slot?.release(self)
    }

    /**
     * Under the permit: passes the slot and the running LibreOffice on to `next` (another kind's
     * owner), which converts its files through the same process (issue 20: a start is ≈1.3 s of CPU).
     */
    const giveUp = (next: SlotHolder) =>
      permit.withPermits(1)(
        Effect.suspend(() => {
          if (!holdsSlot || slot === undefined) return Effect.void
          const handed = office
          office = undefined
          holdsSlot = false
          // Uninterruptible: the process is forgotten here; a stop of the asking file half-way must
          // not leave a LibreOffice nobody holds (R15). Our idle end, if pending, finds no process.
          if (slot.handOver(self, next, handed) || handed === undefined) return Effect.void
          return provide(endOffice(handed, "SIGTERM")) // `next` was closed
        }).pipe(Effect.uninterruptible)
      )

    /** Called by the slot, on the fiber holding our permit: we hold the slot, and the process handed over, if any. */
    const receive = (handed: OfficeProcess | undefined): boolean => {
      holdsSlot = true
      if (handed === undefined) return true
      if (closed || office !== undefined) return false
      office = handed
      return true
    }
    const self: SlotHolder = { kind, giveUp, receive }

    /** After a file, with nothing else in flight: ends LibreOffice once it has been idle for `idleEnd` (W3). */
    const scheduleIdleEnd = Effect.suspend(() => {
      const previous = idleEnder
      const mark = finished
      // Called from a finalizer (uninterruptible): the timer is made interruptible, and the previous one
      // is interrupted without waiting (it may be waiting for the permit this file holds).
      return (previous === undefined ? Effect.void : Fiber.interruptFork(previous)).pipe(
        Effect.zipRight(
          idle(idleEnd).pipe(
            Effect.zipRight(
              permit.withPermits(1)(
                Effect.suspend(() =>
                  finished === mark && inFlight === 0 && office !== undefined
                    ? end("SIGTERM").pipe(Effect.tap(() => Effect.sync(releaseSlot)), Effect.uninterruptible)
                    : Effect.void
                )
              )
            ),
            Effect.interruptible,
            Effect.forkIn(scope)
          )
        ),
        Effect.tap((fiber) =>
          Effect.sync(() => {
            idleEnder = fiber
          })
        ),
        Effect.asVoid
      )
    })

    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        closed = true
      }).pipe(
        Effect.zipRight(end("SIGTERM")),
        Effect.zipRight(Effect.sync(releaseSlot)),
        Effect.zipRight(fs.remove(home, { recursive: true }).pipe(Effect.ignore))
      )
    )

    /**
     * The running process (our own or one handed over), started (cold) when there is none or the
     * last one died on its own. With a slot the process is numbered over the run and its profile is
     * not in our own folder: it may outlive our hold of it.
     */
    const ensureOffice = Effect.gen(function* () {
      if (office !== undefined && (yield* office.process.isRunning.pipe(Effect.orElseSucceed(() => false)))) {
        return { office, cold: false as const }
      }
      yield* end("SIGKILL")
      const number = slot === undefined ? ++generation : slot.nextProcess()
      const profile = slot === undefined ? path.join(home, `profile-${number}`) : path.resolve(options.workArea, "office", `profile-${number}`)
      const started = yield* provide(startOffice(spec, profile, number)).pipe(
        // A start that never ran leaves its profile folder; no finalizer of ours removes it with a slot.
        Effect.onError(() => fs.remove(profile, { recursive: true }).pipe(Effect.ignore))
      )
      if (closed) {
        // The owner's scope closed while this file was starting LibreOffice: nothing may outlive it.
        yield* provide(endOffice(started, "SIGKILL"))
        return yield* new OfficeFailure({ reason: "office-start-failed", detail: "the Office owner was closed while LibreOffice was starting" })
      }
      office = started // registered before waiting, so a timeout or stop during start-up kills it
      yield* provide(awaitReady(started))
      processesStarted += 1
      return { office: started, cold: true as const }
    })

    /**
     * The input copy's extension: the source's own for a format of this kind that is not OOXML (xls,
     * xlsb, ods, doc, …: LibreOffice picks its import filter by it); the legacy one of the kind for a
     * rerouted OOXML name (an xls saved as .xlsx) or an unknown one.
     */
    const inputExt = (sourcePath: string): string => {
      const format = fileFormatOf(path.basename(sourcePath))
      return format !== undefined && format.app === kind && !ooxmlExtensions.has(format.ext) ? format.ext : { spreadsheet: "xls", document: "doc", presentation: "ppt" }[kind]
    }

    /** The work-area files of one conversion: a folder of its own in `in/` and in `out/`. */
    interface WorkFiles {
      readonly inputDir: string
      readonly input: string
      readonly outputDir: string
      readonly output: string
    }

    const convert = (source: Uint8Array, { inputDir, input, outputDir, output }: WorkFiles) =>
      Effect.gen(function* () {
        // A copy under a fixed ASCII name (the bytes already read, so a share is read once): no quoting,
        // locale or percent-encoding surprises in LibreOffice (under LANG=C it mangles a Japanese name,
        // and it percent-encodes the name it gives a sheet), and its lock file (.~lock.<name>#) goes
        // into our work area instead of the user's folder. What LibreOffice makes of the name is put
        // back to the file's own afterwards (ownNames).
        yield* fs.makeDirectory(inputDir, { recursive: true }).pipe(
          Effect.zipRight(fs.makeDirectory(outputDir, { recursive: true })),
          Effect.zipRight(fs.writeFile(input, source)),
          Effect.mapError((e) => new OfficeFailure({ reason: "unreadable", detail: `the file could not be copied to the work area: ${e.message}` }))
        )
        const t0 = yield* Clock.currentTimeMillis
        const { office: running, cold } = yield* ensureOffice
        const t1 = yield* Clock.currentTimeMillis
        const seen = running.output.length
        const call = yield* provide(forwardConversion(spec, running, kind, input, outputDir))
        const t2 = yield* Clock.currentTimeMillis
        const bytes = yield* fs.readFile(output).pipe(Effect.orElseSucceed(() => new Uint8Array()))
        if (bytes.length < 4 || bytes[0] !== 0x50 || bytes[1] !== 0x4b || bytes[2] !== 0x03 || bytes[3] !== 0x04) {
          yield* Effect.sleep(Duration.millis(50)) // LibreOffice's "Error: …" line may still be on its way
          const said = tail(running.output, seen)
          const missingPart = /no export filter/i.test(said) ? `; the ${packageOf[kind]} part of LibreOffice may be missing, or the file is not a ${kind}` : ""
          return yield* new OfficeFailure({
            reason: "conversion-failed",
            detail: `LibreOffice wrote ${bytes.length === 0 ? "no output" : "an output that is not a zip"} (exit ${call.code}; it said: ${said})${missingPart}`
          })
        }
        running.files += 1
        filesConverted += 1
        const note: FileNote = {
          _tag: "Converted", ext: target.ext, ms: t2 - t1, fileOfProcess: running.files,
          ...(cold ? { started: { process: running.generation, ms: t1 - t0 } } : {})
        }
        return { bytes, note }
      })

    const ingestOne = (sourcePath: string, files: WorkFiles, officeAsked: { value: boolean }) =>
      Effect.gen(function* () {
        const t0 = yield* Clock.currentTimeMillis
        const bytes = yield* fs.readFile(sourcePath).pipe(
          Effect.mapError((e) => new OfficeFailure({ reason: "unreadable", detail: e.message }))
        )
        const checked = yield* precheck(bytes, path.basename(sourcePath), options.extract)
        if (checked._tag === "plain" && options.convertReadable !== true) {
          const empty = checked.extraction.parts.every((part) => part.lines.length === 0)
          const log: Array<FileNote> = [{ _tag: "ReadWithoutOffice" }, ...(empty ? [noTextWarning] : [])]
          return { extraction: checked.extraction, via: "plain", log } satisfies OfficeIngestion
        }
        if (checked._tag === "fail") {
          return yield* new OfficeFailure({ reason: checked.error.reason, detail: checked.error.detail })
        }
        const verdict = checked._tag === "convert" ? checked : ({ verdict: "needs-office", detail: "also readable without Office" } as const)
        officeAsked.value = true
        const converted = yield* convert(bytes, files).pipe(
          Effect.catchTag("OfficeFailure", (e) =>
            // A file the plain reader found damaged or not Office, and Office could not read either, stays so.
            Effect.fail(e.reason === "conversion-failed" && verdict.verdict !== "needs-office" ? new OfficeFailure({ reason: verdict.verdict, detail: `${verdict.detail}; ${e.detail}` }) : e)
          )
        )
        const read = yield* extractBuffer(converted.bytes, path.basename(files.output), options.extract).pipe(
          Effect.mapError((e) =>
            e.reason === "needs-office"
              ? new OfficeFailure({ reason: "conversion-failed", detail: `the converted file is not ${target.ext}: ${e.detail}` })
              : new OfficeFailure({ reason: e.reason, detail: `in the ${target.ext} LibreOffice wrote: ${e.detail}` })
          )
        )
        const extraction = ownNames(read, files, sourcePath)
        if (readAsPlainText(extraction)) {
          return yield* new OfficeFailure({
            reason: "corrupt",
            detail: `${verdict.detail}; LibreOffice could only open it as plain text (its OLE2 header came out as text)`
          })
        }
        const t1 = yield* Clock.currentTimeMillis
        const lines = extraction.parts.reduce((sum, part) => sum + part.lines.length, 0)
        const log: Array<FileNote> = [converted.note, { _tag: "Read", parts: extraction.parts.length, lines, ms: t1 - t0 }]
        if (lines === 0) log.push({ _tag: "OfficeNoText", detail: verdict.detail })
        return { extraction, via: "office", log } satisfies OfficeIngestion
      })

    const ingest = (sourcePath: string): Effect.Effect<OfficeIngestion, OfficeFailure> =>
      permit.withPermits(1)(
        Effect.gen(function* () {
          // The slot before the time limit: waiting for another kind's LibreOffice is not this file's time.
          // It comes with the holder's LibreOffice, if one runs.
          if (slot !== undefined && !holdsSlot) yield* slot.acquire(self)
          yield* fs.makeDirectory(inDir, { recursive: true }).pipe(Effect.zipRight(fs.makeDirectory(outDir, { recursive: true })), Effect.ignore)
          const officeAsked = { value: false }
          const n = String(++sequence)
          const files: WorkFiles = {
            inputDir: path.join(inDir, n),
            input: path.join(inDir, n, `${copyStem}.${inputExt(sourcePath)}`),
            outputDir: path.join(outDir, n),
            output: path.join(outDir, n, `${copyStem}.${target.ext}`)
          }
          return yield* ingestOne(sourcePath, files, officeAsked).pipe(
            // The watchdog (W4): the time limit interrupts the work, and the exit handler below kills the process.
            Effect.raceFirst(
              limit(timeout).pipe(
                Effect.zipRight(Effect.fail(new OfficeFailure({ reason: "timeout", detail: `no result after ${Duration.format(timeout)}; LibreOffice was stopped` })))
              )
            ),
            Effect.onExit((exit) => {
              if (Exit.isSuccess(exit)) return office !== undefined && office.files >= recycleAfter ? end("SIGTERM") : Effect.void // recycle (W3)
              // Failure, timeout or stop once LibreOffice was asked: abandon its process at once (W3, W4, W5).
              // A failure found from the bytes alone leaves a process from earlier files running.
              return officeAsked.value ? end("SIGKILL") : Effect.void
            }),
            // After the kill, so a LibreOffice still writing cannot leave the output behind.
            Effect.ensuring(
              Effect.all([fs.remove(files.inputDir, { recursive: true }), fs.remove(files.outputDir, { recursive: true })], { discard: true }).pipe(Effect.ignore)
            )
          )
        }).pipe(
          // Also after a stop while waiting for the slot: a process handed over by then gets its idle end.
          Effect.ensuring(
            Effect.suspend(() => {
              finished += 1
              // No process left (recycled, abandoned, or none was needed): the slot goes back at once.
              if (office === undefined) releaseSlot()
              return office !== undefined && inFlight === 1 ? scheduleIdleEnd : Effect.void
            })
          )
        )
      ).pipe(
        Effect.ensuring(
          Effect.sync(() => {
            inFlight -= 1
          })
        ),
        (work) =>
          Effect.suspend(() => {
            inFlight += 1
            return work
          }),
        Effect.withSpan("Office.ingest", { attributes: { kind, sourcePath } })
      )

    const status = Effect.sync((): OfficeOwnerStatus => ({
      kind,
      processesStarted,
      filesConverted,
      pgid: office === undefined ? Option.none() : Option.some(office.process.pid),
      pids: office === undefined ? [] : groupMembers(office.process.pid),
      profileDir: office === undefined ? Option.none() : Option.some(office.dir)
    }))

    return { kind, ingest, status } satisfies OfficeOwner
  })

/**
 * The name of every copy LibreOffice converts: fixed and plain ASCII, so that
 * nothing of a run (its sequence number) and nothing of the locale reaches
 * the output; unlike any text a file holds, so that putting the file's own
 * name back in its place ({@link ownNames}) touches nothing else.
 */
export const copyStem = "sagasu_office_source"

/**
 * The extraction with the file's own names where LibreOffice wrote the
 * copy's (issue 15 item 6): a sheet named after the file (CSV, HTML, SYLK and
 * BIFF2–4 workbooks have no sheet names of their own, LibreOffice names the
 * sheet after the file), a `FILENAME` field in a header (`stem.doc`), a path
 * field. The copy's folder becomes the source's folder, the copy's stem the
 * source's stem (its name without its extension), so the text is the same on
 * every run and names the file the user has.
 */
export function ownNames(extraction: Extraction, files: { readonly inputDir: string }, sourcePath: string): Extraction {
  const stem = path.basename(sourcePath, path.extname(sourcePath)) || path.basename(sourcePath)
  const replace = (text: string) =>
    text.includes(copyStem) ? text.split(files.inputDir + path.sep).join(path.dirname(sourcePath) + path.sep).split(copyStem).join(stem) : text
  return {
    parts: extraction.parts.map((part) => ({
      ...part,
      name: replace(part.name),
      lines: part.lines.some((l) => l.text.includes(copyStem)) ? part.lines.map((l) => ({ loc: l.loc, text: replace(l.text) })) : part.lines
    }))
  }
}

/**
 * A damaged OLE2 file that LibreOffice cannot load as Office is opened by its
 * text import instead, and the "text" starts with the OLE2 signature
 * (D0 CF 11 E0 A1 B1 1A E1 read as Latin-1: `ÐÏ␑à¡±␚á`; seen with the
 * corpus's oleloop.xls). That is damage, not content.
 */
function readAsPlainText(extraction: Extraction): boolean {
  const head = extraction.parts
    .flatMap((part) => part.lines.slice(0, 3))
    .slice(0, 3)
    .map((line) => line.text)
    .join("\n")
  return /ÐÏ[\s\S]{0,8}à¡±/.test(head)
}

/** The three owners of a run, one per kind (W3). */
export type OfficeOwners = Readonly<Record<AppKind, OfficeOwner>>

/**
 * Makes one owner per kind with the same options, sharing one {@link OfficeSlot}
 * (one LibreOffice at a time in the run, handed from kind to kind, issue 20);
 * none starts LibreOffice before a file needs it.
 */
export const makeOfficeOwners = (
  options: OfficeOwnerOptions
): Effect.Effect<OfficeOwners, never, Scope.Scope | CommandExecutor.CommandExecutor | FileSystem.FileSystem> =>
  Effect.suspend(() => {
    const shared = { ...options, slot: options.slot ?? makeOfficeSlot() }
    return Effect.all({
      spreadsheet: makeOfficeOwner("spreadsheet", shared),
      document: makeOfficeOwner("document", shared),
      presentation: makeOfficeOwner("presentation", shared)
    })
  })

/** Options of {@link officeVersion}. */
export interface OfficeVersionOptions {
  /** The LibreOffice command (default `soffice`). */
  readonly command?: string
  readonly env?: Readonly<Record<string, string>>
  /**
   * A file that keeps the answer for the installed files as they are (issue 20: `soffice
   * --version` is a LibreOffice start, 0.2 s of a 1.9 s no-change re-run); asked again when
   * the executable, `soffice.bin` or the version file beside it changed. Absent: always asked.
   */
  readonly cacheFile?: string
}

/**
 * The installed LibreOffice's version for the log header (R4), e.g.
 * `LibreOffice 7.4.7.2 40(Build:2)`; none when it is not installed (the header
 * then says so, with {@link installLibreOfficeHint}). With `cacheFile`, the
 * answer kept there while the installed files are the same (a cache that
 * cannot be read or written only costs the question).
 */
export const officeVersion = (
  options?: OfficeVersionOptions
): Effect.Effect<Option.Option<string>, never, CommandExecutor.CommandExecutor> =>
  Effect.gen(function* () {
    const env = { ...process.env, ...options?.env }
    const command = options?.command ?? findSoffice(process.platform, env)
    const cacheFile = options?.cacheFile
    const key = cacheFile === undefined ? undefined : installedFilesKey(command, env)
    if (cacheFile !== undefined && key !== undefined) {
      const kept = readVersionCache(cacheFile)
      if (kept?.key === key) return Option.some(kept.version)
    }
    const version = yield* sofficeVersion({ command, env: options?.env ?? {} })
    if (cacheFile !== undefined && key !== undefined && Option.isSome(version)) writeVersionCache(cacheFile, { key, version: version.value })
    return version
  })

// The cache of officeVersion: the installed files' key and the version line. Sync node:fs: two
// small files and a few stats once per run, before anything else happens.
interface VersionCache {
  readonly key: string
  readonly version: string
}

function readVersionCache(file: string): VersionCache | undefined {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, "utf8"))
    if (typeof parsed !== "object" || parsed === null) return undefined
    const { key, version } = parsed as Record<string, unknown>
    return typeof key === "string" && typeof version === "string" ? { key, version } : undefined
  } catch {
    return undefined
  }
}

function writeVersionCache(file: string, cache: VersionCache): void {
  try {
    const temp = `${file}.tmp-${process.pid}`
    fs.writeFileSync(temp, JSON.stringify(cache))
    fs.renameSync(temp, file)
  } catch {
    // asked again next time
  }
}

/**
 * What identifies the installed LibreOffice `command` would start: the real
 * path, inode, size and mtime of the executable and of `soffice.bin`,
 * `versionrc` and `version.ini` beside it where present (an update replaces
 * them); `undefined` when the command is not found. Never throws: a `PATH`
 * entry that cannot be looked into (EACCES, ENOTDIR) is passed over, as the
 * system's own lookup does.
 */
export function installedFilesKey(command: string, env: NodeJS.ProcessEnv): string | undefined {
  const statOf = (file: string): fs.Stats | undefined => {
    try {
      return fs.statSync(file, { throwIfNoEntry: false })
    } catch {
      return undefined
    }
  }
  const found = command.includes("/") || command.includes("\\")
    ? command
    : (env.PATH ?? env.Path ?? "").split(path.delimiter).filter((d) => d !== "").map((d) => path.join(d, command))
      .find((file) => statOf(file)?.isFile() === true)
  if (found === undefined) return undefined
  let real: string
  try {
    real = fs.realpathSync(found)
  } catch {
    return undefined
  }
  const parts: Array<string> = []
  for (const file of [real, ...["soffice.bin", "versionrc", "version.ini"].map((n) => path.join(path.dirname(real), n))]) {
    const s = statOf(file)
    if (s !== undefined) parts.push(`${file}:${s.ino}:${s.size}:${s.mtimeMs}`)
  }
  return parts.length === 0 ? undefined : parts.join("|")
}
