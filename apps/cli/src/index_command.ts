/**
 * `sagasu index`: runs an indexing run headless with a terminal channel
 * (SPEC §6, R10, P1): shows the plan and asks before ingesting unless
 * `--yes`, draws a progress bar on a terminal (plain lines otherwise), turns
 * the first Ctrl+C into a stop (exit 2) and the second into an immediate exit.
 *
 * @module
 */
import {
  type Language, type Plan, type Progress, defaultPlanAnswer, defaultSettings, planTargetCount, displayWidth, failedFilesForTerminal, failureCause, formatProgressLine, initialPlainProgress,
  messages, plainProgressDue, selectIndexes
} from "@sagasu/domain"
import * as NodeContext from "@effect/platform-node/NodeContext"
import { makeChannel, requestStop, runIndexer, standardRunOptions } from "@sagasu/ingest"
import { workPaths, WorkStore } from "@sagasu/store"
import { Deferred, Effect, Fiber, Option, Ref, Schedule, Stream, SubscriptionRef } from "effect"
import * as readline from "node:readline"
import { forTerminal } from "./terminal_text.ts"
import { version } from "./version.ts"
import { workHint } from "./work_dir.ts"

/** Options of `sagasu index`. */
export interface IndexCommandOptions {
  readonly yes: boolean
  readonly retryFailed: boolean
  readonly includeCloud: boolean
  readonly only: ReadonlyArray<string>
  /** One line per file (its `[n/total]` block, skips, recoveries), as the log has them (issue 16). */
  readonly verbose: boolean
  /** No progress and no info lines: the plan (when asking), warnings, errors and the closing message. */
  readonly quiet: boolean
}

const tty = process.stdout.isTTY === true
const color = tty && process.env.NO_COLOR === undefined
const colorErr = process.stderr.isTTY === true && process.env.NO_COLOR === undefined
const yellow = (s: string) => (color ? `\x1b[33m${s}\x1b[0m` : s)
const red = (s: string) => (colorErr ? `\x1b[31m${s}\x1b[0m` : s)
const dim = (s: string) => (color ? `\x1b[2m${s}\x1b[0m` : s)
// Back to the start of the line and clear to its end: the bar is one line, never wider than the
// terminal (formatProgressLine), so this removes all of it.
const eraseLine = "\r\x1b[K"

/** Failed files the closing message names on a terminal (R17); the rest are counted (`--verbose` and a pipe get all). */
const closingListLimit = 10

/**
 * The plan for the terminal (R10), at most `columns` display columns wide
 * (issue 16: Japanese takes two columns, and the nine headings side by side
 * took 102): one row per kind of file and one column per index, numbers
 * right-aligned; when the index names are too long for that, the columns
 * numbered and the names listed below; when even that does not fit, one
 * block per index.
 */
export function formatPlan(plan: Plan, language: Language, columns = 80): string {
  // Files that failed for the environment (unreadable, LibreOffice missing or not starting) are
  // ingested again anyway and counted apart from the files' own failures (issue 15).
  const text = messages(language)
  const labels = text.planLabels
  const heading = text.planHeading
  const counts = plan.entries.map((e) =>
    [e.new, e.changed, e.pending, e.failedLastTime, e.failedByEnvironment, e.cloudOnly, e.unchanged, e.vanished].map((n) => n.toLocaleString("en-US"))
  )
  const pad = (s: string, width: number) => s + " ".repeat(Math.max(0, width - displayWidth(s)))
  const padStart = (s: string, width: number) => " ".repeat(Math.max(0, width - displayWidth(s))) + s
  const labelWidth = Math.max(displayWidth(heading), ...labels.map(displayWidth))
  const tableOf = (names: ReadonlyArray<string>) => {
    const widths = names.map((name, i) => Math.max(displayWidth(name), ...(counts[i] ?? []).map(displayWidth)))
    return [
      [pad(heading, labelWidth), ...names.map((name, i) => padStart(name, widths[i] ?? 0))].join("  "),
      ...labels.map((label, row) => [pad(label, labelWidth), ...counts.map((c, i) => padStart(c[row] ?? "", widths[i] ?? 0))].join("  "))
    ]
  }
  const fits = (lines: ReadonlyArray<string>) => Math.max(...lines.map(displayWidth)) <= columns
  const table = tableOf(plan.entries.map((e) => e.index))
  if (fits(table)) return table.join("\n")
  // Long index names: numbered columns, the names below them.
  const numbered = [
    ...tableOf(plan.entries.map((_, i) => `[${i + 1}]`)),
    ...plan.entries.map((e, i) => `[${i + 1}] ${e.index}`)
  ]
  if (fits(numbered)) return numbered.join("\n")
  const numberWidth = Math.max(...counts.flat().map(displayWidth))
  return plan.entries
    .map((e, i) => [e.index, ...labels.map((label, row) => `  ${pad(label, labelWidth)}  ${padStart(counts[i]?.[row] ?? "", numberWidth)}`)].join("\n"))
    .join("\n")
}

/**
 * Where the plan and its question go (R10): stdout, unless stdout is not a terminal while stdin is —
 * `sagasu index > run.txt` or `| tee` typed by someone at a terminal, who is asked and must see the
 * question (a new user saw a blank screen, the plan and the question having gone into the file).
 * A script answering on stdin, with stdout piped too, still reads the plan on stdout.
 */
const planStream = (): NodeJS.WriteStream =>
  process.stdout.isTTY !== true && process.stdin.isTTY === true ? process.stderr : process.stdout

const ask = (question: string, output: NodeJS.WriteStream): Promise<string | undefined> =>
  new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output })
    let answered = false
    rl.question(question, (answer) => {
      answered = true
      rl.close()
      resolve(answer)
    })
    rl.on("close", () => {
      if (answered) return
      // No answer (its input closed): what follows starts on a line of its own, not after the question.
      output.write("\n")
      resolve(undefined)
    })
  })

/**
 * Runs `sagasu index` on the work folder `work` and sets the process exit code (0, 1, 2).
 *
 * What it prints (issue 16): on a terminal, one progress line redrawn in place
 * (at most the terminal's width in display columns, 5 times a second) above
 * the run's own lines; elsewhere (a pipe, a log file) no redraw, but a plain
 * progress line at each tenth of the files and once a minute in between
 * (`plainProgressDue`). A file's lines only with `--verbose`; `--quiet` prints
 * no progress and no info lines. Errors go to stderr.
 */
export const indexCommand = (work: string, options: IndexCommandOptions) =>
  Effect.gen(function* () {
    const read = yield* WorkStore.readSettings(workPaths(work)).pipe(Effect.option)
    const settings = Option.getOrElse(read, () => defaultSettings)
    const language = settings.language
    if (options.quiet && options.verbose) {
      process.stderr.write(`${messages(language).quietWithVerbose}\n`)
      process.exitCode = 1
      return
    }
    // R5: `--only` names none of which can be updated — a mistyped name — is said at once, with the
    // names there are, before a run starts (issue 16: it came after the log's header). A settings
    // file that cannot be read is the run's to report.
    if (Option.isSome(read) && options.only.length > 0) {
      const selection = selectIndexes(read.value.targetFolders, options.only)
      if (selection._tag === "noneSelected") {
        const text = messages(language)
        const lines = [
          ...selection.onlySkipped.map((s) => text.onlyNameSkipped(s.name, s.reason)),
          text.noneOfOnlyNames,
          text.knownIndexNames(read.value.targetFolders, workHint(work))
        ]
        process.stderr.write(red(forTerminal(lines.join("\n"), process.stderr)) + "\n")
        process.exitCode = 1
        return
      }
    }
    let barShown = false
    let drawn = ""
    let asking = false
    let planShown = false
    // Lines the log already printed (R4): the closing message is one of them when the log was open.
    const echoed = new Set<string>()
    const clearBar = () => {
      if (barShown) process.stdout.write(eraseLine)
      barShown = false
    }
    const channel = yield* makeChannel({
      confirmTargets: !options.yes,
      onlyNames: options.only,
      retryFailed: options.retryFailed,
      ...(options.includeCloud ? { includeCloud: true } : {}),
      echo: (line, level, kind) => {
        if ((kind === "file" || kind === "detail") && !options.verbose) return
        // R17: shown last, after the run (below).
        if (kind === "closing") return
        // R10: the plan's counts were just shown as a table above the question.
        if (kind === "plan" && planShown) return
        if (options.quiet && level === "info") return
        echoed.add(line)
        clearBar()
        const shown = forTerminal(line, level === "error" ? process.stderr : process.stdout)
        if (level === "error") process.stderr.write(red(shown) + "\n")
        else process.stdout.write((level === "warn" ? yellow(shown) : dim(shown)) + "\n")
      }
    })

    // SPEC §6: the first Ctrl+C stops the run (exit 2), the second ends the process at once
    // (a crash the next run recovers from, C1). runMain's own handler would interrupt instead.
    const saved = process.listeners("SIGINT")
    process.removeAllListeners("SIGINT")
    let interrupts = 0
    const onSigint = () => {
      interrupts++
      if (interrupts > 1) {
        // The shell's prompt on a line of its own, not after the progress line.
        if (barShown) process.stdout.write("\n")
        process.exit(2)
      }
      // Ctrl+C at the question: the stop's line under it, not after it (new-user trial).
      if (asking) planStream().write("\n")
      clearBar()
      console.log(yellow(forTerminal(messages(language).stoppingRun, process.stdout)))
      Effect.runSync(requestStop(channel))
    }
    process.on("SIGINT", onSigint)

    // R10: the plan, and the question, on the terminal.
    const confirm = channel.plan.changes.pipe(
      Stream.filter(Option.isSome),
      Stream.take(1),
      Stream.runForEach((plan) =>
        Effect.gen(function* () {
          // R9, R10: "yes" is the answer the run takes when nobody is asked (the flags, else the setting).
          const answer = defaultPlanAnswer({ retryFailed: channel.retryFailed, includeCloud: channel.includeCloud, cloudFiles: settings.cloudFiles })
          // Nothing a yes would ingest: nothing to ask (the plan's counts go out as the log's lines, as with --yes).
          if (planTargetCount(plan.value, answer) === 0) return yield* Deferred.succeed(channel.answer, answer)
          // The plan is set a moment before the phase says `confirm`: no bar may overwrite the question.
          asking = true
          clearBar()
          const out = planStream()
          out.write(`${formatPlan(plan.value, language, out.columns ?? 80)}\n`)
          planShown = true
          const reply = yield* Effect.promise(() => ask(messages(language).askStartIngest, out))
          asking = false
          const yes = reply !== undefined && /^(y|yes|はい)$/i.test(reply.trim())
          yield* Deferred.succeed(channel.answer, yes ? answer : null)
        })
      ),
      Effect.fork
    )
    const confirmFiber = yield* confirm

    // P1: the elapsed time counts from the start, then from the start of the ingest phase (the
    // time spent on the question is not the run's); the rate and the ETA are over the ingest phase.
    const started = performance.now()
    let ingestStarted: number | undefined
    const lineOf = (p: Progress, columns: number | undefined) => {
      const now = performance.now()
      if (ingestStarted === undefined && (p.phase === "ingest" || p.phase === "finalize")) ingestStarted = now
      const elapsedMs = now - (ingestStarted ?? started)
      return formatProgressLine(p, { language, elapsedMs, ingestElapsedMs: ingestStarted === undefined ? undefined : elapsedMs, columns })
    }
    let plain = initialPlainProgress
    const plainLine = (p: Progress) => {
      const due = plainProgressDue(plain, p, { nowMs: performance.now() })
      if (due === undefined) return
      plain = due
      process.stdout.write(lineOf(p, undefined) + "\n")
    }
    const draw = Effect.gen(function* () {
      const p = yield* SubscriptionRef.get(channel.progress)
      if (asking || p.phase === "confirm" || p.exitCode !== undefined) return
      // The width is read at each draw: a resized terminal gets lines of its new width.
      const line = lineOf(p, process.stdout.columns || 80)
      if (barShown && line === drawn) return
      process.stdout.write("\r" + line + "\x1b[K")
      drawn = line
      barShown = true
    })
    const progressFiber = options.quiet
      ? undefined
      : tty
        ? yield* draw.pipe(Effect.repeat(Schedule.spaced("200 millis")), Effect.asVoid, Effect.fork)
        : options.verbose
          // --verbose off a terminal: the `[n/total]` lines already say how far the run is.
          ? undefined
          : yield* channel.progress.changes.pipe(Stream.runForEach((p) => Effect.sync(() => plainLine(p))), Effect.fork)

    const runOptions = yield* standardRunOptions(work, version).pipe(Effect.provide(NodeContext.layer))
    const code = yield* runIndexer(channel, { ...runOptions, nextStepWork: workHint(work) })
    yield* Fiber.interrupt(confirmFiber)
    if (progressFiber !== undefined) yield* Fiber.interrupt(progressFiber)
    // A plain line a change still queued would have given (the last tenth).
    if (!tty && !options.quiet && !options.verbose) plainLine(yield* SubscriptionRef.get(channel.progress))
    clearBar()
    process.removeListener("SIGINT", onSigint)
    for (const l of saved) process.on("SIGINT", l as NodeJS.SignalsListener)

    const error = yield* Ref.get(channel.error)
    const closing = yield* Ref.get(channel.closing)
    if (Option.isSome(error)) {
      if (!echoed.has(error.value)) process.stderr.write(red(forTerminal(error.value, process.stderr)) + "\n")
    } else if (Option.isSome(closing)) {
      // R17: the counts, then the failed files — on a terminal by reason, the first ones, details left to
      // `status --failed` (new-user trial: 25 failures scrolled the counts away); all as the log has them
      // with --verbose or off a terminal.
      const { failed, message } = closing.value
      const shown = failed.length === 0 || options.verbose || !tty
        ? message
        : [message.split("\n")[0] ?? "", ...failedFilesForTerminal(language, failed, closingListLimit, workHint(work))].join("\n")
      console.log(forTerminal(shown, process.stdout))
    }
    // R12 said nothing needs ingesting while files of the run's indexes stay failed for a reason of
    // their own (R9: tried again only with --retry-failed): say where to see why and how to retry.
    if (code === 0 && Option.isSome(closing) && closing.value.message === messages(language).noTargetsNeeded && Option.isSome(read)) {
      const selection = selectIndexes(read.value.targetFolders, options.only)
      const names = new Set(selection._tag === "selected" ? selection.selected.map((t) => t.name) : [])
      const rows = yield* WorkStore.readIngestList(workPaths(work)).pipe(Effect.orElseSucceed(() => []))
      const failed = rows.filter((r) => names.has(r.index) && r.status === "failed" && r.failure !== undefined && failureCause(r.failure.reason) === "file").length
      if (failed > 0) console.log(forTerminal(messages(language).indexRetryFailedHint(failed, workHint(work)), process.stdout))
    }
    // A stopped run (exit 2): what is left, and that the next run goes on from there — not after a
    // cancel at the plan, which leaves nothing pending (R10; new-user trial: 「未取り込みの 5 件」 while
    // list said 0).
    const last = yield* SubscriptionRef.get(channel.progress)
    const left = last.phase === "ingest" || last.phase === "finalize" ? last.remaining : 0
    if (code === 2 && left > 0) console.log(forTerminal(messages(language).indexResumeHint(left, workHint(work)), process.stdout))
    process.exitCode = code
  })
