/**
 * `sagasu index`: runs an indexing run headless with a terminal channel
 * (SPEC §6, R10, P1): shows the plan and asks before ingesting unless
 * `--yes`, draws a progress bar on a terminal (plain lines otherwise), turns
 * the first Ctrl+C into a stop (exit 2) and the second into an immediate exit.
 *
 * @module
 */
import { type Language, type Plan, type Progress, defaultSettings } from "@sagasu/domain"
import { NodeContext } from "@effect/platform-node"
import { makeChannel, requestStop, runIndexer, standardRunOptions } from "@sagasu/ingest"
import { readSettings, workPaths } from "@sagasu/store"
import { Deferred, Duration, Effect, Fiber, Option, Ref, Stream } from "effect"
import * as readline from "node:readline"
import { version } from "./version.ts"

/** Options of `sagasu index`. */
export interface IndexCommandOptions {
  readonly yes: boolean
  readonly retryFailed: boolean
  readonly includeCloud: boolean
  readonly only: ReadonlyArray<string>
}

const tty = process.stdout.isTTY === true
const color = tty && process.env.NO_COLOR === undefined
const yellow = (s: string) => (color ? `\x1b[33m${s}\x1b[0m` : s)
const red = (s: string) => (color ? `\x1b[31m${s}\x1b[0m` : s)
const dim = (s: string) => (color ? `\x1b[2m${s}\x1b[0m` : s)

const phaseLabel: Record<Language, Record<Progress["phase"], string>> = {
  ja: { crawl: "クロール", confirm: "確認", ingest: "取り込み", finalize: "仕上げ" },
  en: { crawl: "crawl", confirm: "confirm", ingest: "ingest", finalize: "finalize" }
}

/** The plan as a table for the terminal (R10). */
export function formatPlan(plan: Plan, language: Language): string {
  // Files that failed for the environment (unreadable, LibreOffice missing or not starting) are
  // ingested again anyway and counted apart from the files' own failures (issue 15).
  const head = language === "ja"
    ? ["インデックス", "新規", "変更", "未取り込み", "前回失敗", "前回失敗・環境（再試行）", "クラウドのみ", "変更なし", "削除"]
    : ["index", "new", "changed", "pending", "failed last time", "failed last time, environment (retried)", "cloud-only", "unchanged", "vanished"]
  const rows = plan.entries.map((e) =>
    [e.index, e.new, e.changed, e.pending, e.failedLastTime, e.failedByEnvironment, e.cloudOnly, e.unchanged, e.vanished].map(String)
  )
  const widths = head.map((h, i) => Math.max(width(h), ...rows.map((r) => width(r[i] ?? ""))))
  const line = (cells: ReadonlyArray<string>) => cells.map((c, i) => c + " ".repeat((widths[i] ?? 0) - width(c))).join("  ")
  return [line(head), ...rows.map(line)].join("\n")
}

// Display width: East Asian wide characters take two columns.
const width = (s: string) => [...s].reduce((n, c) => n + (/[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(c) ? 2 : 1), 0)

const bar = (p: Progress, language: Language) => {
  const total = p.processed + p.remaining
  const cells = 24
  const filled = total === 0 ? 0 : Math.round((cells * p.processed) / total)
  const counts = p.phase === "crawl" ? "" : ` ${p.processed}/${total}${p.failed > 0 ? (language === "ja" ? ` 失敗 ${p.failed}` : ` failed ${p.failed}`) : ""}`
  const text = `[${phaseLabel[language][p.phase]}] ${"█".repeat(filled)}${"░".repeat(cells - filled)}${counts} ${p.current}`
  const columns = process.stdout.columns ?? 100
  return [...text].slice(0, columns - 1).join("")
}

const ask = (question: string): Promise<string | undefined> =>
  new Promise((resolve) => {
    const rl = readline.createInterface({ input: process.stdin, output: process.stdout })
    let answered = false
    rl.question(question, (answer) => {
      answered = true
      rl.close()
      resolve(answer)
    })
    rl.on("close", () => {
      if (!answered) resolve(undefined)
    })
  })

/** Runs `sagasu index` on the work folder `work` and sets the process exit code (0, 1, 2). */
export const indexCommand = (work: string, options: IndexCommandOptions) =>
  Effect.gen(function* () {
    const settings = yield* readSettings(workPaths(work)).pipe(Effect.orElseSucceed(() => defaultSettings))
    const language = settings.language
    let barShown = false
    // Lines the log already printed (R4): the closing message is one of them when the log was open.
    const echoed = new Set<string>()
    const clearBar = () => {
      if (barShown) process.stdout.write("\r\x1b[2K")
      barShown = false
    }
    const channel = yield* makeChannel({
      confirmTargets: !options.yes,
      onlyNames: options.only,
      retryFailed: options.retryFailed,
      ...(options.includeCloud ? { includeCloud: true } : {}),
      echo: (line, level) => {
        echoed.add(line)
        clearBar()
        console.log(level === "warn" ? yellow(line) : level === "error" ? red(line) : dim(line))
      }
    })

    // SPEC §6: the first Ctrl+C stops the run (exit 2), the second ends the process at once
    // (a crash the next run recovers from, C1). runMain's own handler would interrupt instead.
    const saved = process.listeners("SIGINT")
    process.removeAllListeners("SIGINT")
    let interrupts = 0
    const onSigint = () => {
      interrupts++
      if (interrupts > 1) process.exit(2)
      clearBar()
      console.log(yellow(language === "ja" ? "中止しています…（もう一度 Ctrl+C で今すぐ終了）" : "Stopping… (Ctrl+C again to quit at once)"))
      Effect.runSync(requestStop(channel))
    }
    process.on("SIGINT", onSigint)

    // R10: the plan, and the question, on the terminal.
    const confirm = channel.plan.changes.pipe(
      Stream.filter(Option.isSome),
      Stream.take(1),
      Stream.runForEach((plan) =>
        Effect.gen(function* () {
          clearBar()
          console.log(formatPlan(plan.value, language))
          const reply = yield* Effect.promise(() => ask(language === "ja" ? "取り込みを始めますか？ [y/N] " : "Start ingesting? [y/N] "))
          const yes = reply !== undefined && /^(y|yes|はい)$/i.test(reply.trim())
          yield* Deferred.succeed(channel.answer, yes ? { retryFailed: options.retryFailed, includeCloud: options.includeCloud || settings.cloudFiles === "download" } : null)
        })
      ),
      Effect.fork
    )
    const confirmFiber = yield* confirm

    // P1: a progress bar on a terminal, redrawn at most 10 times a second.
    const progressFiber = tty
      ? yield* channel.progress.changes.pipe(
          Stream.throttle({ cost: () => 1, units: 1, duration: Duration.millis(100), strategy: "enforce" }),
          Stream.runForEach((p) => Effect.sync(() => {
            if (p.phase === "confirm" || p.exitCode !== undefined) return
            process.stdout.write("\r\x1b[2K" + bar(p, language))
            barShown = true
          })),
          Effect.fork
        )
      : undefined

    const code = yield* runIndexer(channel, yield* standardRunOptions(work, version).pipe(Effect.provide(NodeContext.layer)))
    yield* Fiber.interrupt(confirmFiber)
    if (progressFiber !== undefined) yield* Fiber.interrupt(progressFiber)
    clearBar()
    process.removeListener("SIGINT", onSigint)
    for (const l of saved) process.on("SIGINT", l as NodeJS.SignalsListener)

    const error = yield* Ref.get(channel.error)
    const closing = yield* Ref.get(channel.closing)
    if (Option.isSome(error)) {
      if (!echoed.has(error.value)) console.error(red(error.value))
    } else if (Option.isSome(closing) && !echoed.has(closing.value.message)) {
      console.log(closing.value.message)
    }
    process.exitCode = code
  })
