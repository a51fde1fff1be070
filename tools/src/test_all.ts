/**
 * `npm test`'s runner: `turbo run typecheck test` over every package, its
 * output passed through as it comes; when a task fails, the failures are
 * printed once more at the very end. CI keeps only the end of a long output,
 * and there the tools package's report (the last task to finish) used to
 * hide which test of another package had failed.
 *
 * Usage: `tsx tools/src/test_all.ts [turbo options…]`; exits with turbo's code.
 *
 * @module
 */
import { spawn } from "node:child_process"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/** ANSI colour and style sequences, which vitest writes even through turbo. */
const ansi = /\x1b\[[0-9;]*m/g

/** The most lines repeated for one failed task. */
const maxLinesPerTask = 200

/**
 * The failed tasks of a turbo run's output, as `package:task` prefixes of
 * their lines (`@sagasu/ingest:test`), from turbo's closing `Failed:` line
 * (`Failed:    @sagasu/ingest#test, @sagasu/cli#typecheck`). Empty when none.
 */
export function failedTasks(output: string): ReadonlyArray<string> {
  const tasks: Array<string> = []
  for (const line of output.replace(ansi, "").split("\n")) {
    const m = /^\s*Failed:\s+(.+)$/.exec(line)
    if (m === null) continue
    for (const t of m[1]!.split(",")) {
      const id = t.trim()
      if (/^\S+#\S+$/.test(id)) tasks.push(id.replace("#", ":"))
    }
  }
  return tasks
}

/**
 * What to repeat of failed task `task`'s lines in `output`: vitest's closing
 * sections (from its first `Failed Tests`, `Failed Suites` or `Unhandled
 * Errors` heading to its `Test Files` count) and the lines naming a failed
 * test file (` FAIL `, ` × `); for a task without them (a type error), its
 * last lines. At most {@link maxLinesPerTask} lines, prefix and colours removed.
 */
export function failureExcerpt(output: string, task: string): ReadonlyArray<string> {
  const prefix = `${task}: `
  const lines = output
    .replace(ansi, "")
    .split("\n")
    .filter((l) => l.startsWith(prefix))
    .map((l) => l.slice(prefix.length))
  const start = lines.findIndex((l) => /Failed (Tests|Suites)|Unhandled Error/.test(l))
  if (start < 0) return lines.slice(-maxLinesPerTask)
  const endAt = lines.findIndex((l, i) => i > start && /^\s*Test Files\s/.test(l))
  const section = lines.slice(start, endAt < 0 ? undefined : endAt + 1)
  const marks = lines.slice(0, start).filter((l) => /^\s*(FAIL|×)\s/.test(l))
  return [...marks, ...section].slice(0, maxLinesPerTask)
}

/** The closing report of failed tasks, or "" when none failed. */
export function failureReport(output: string): string {
  const tasks = failedTasks(output)
  if (tasks.length === 0) return ""
  const parts = tasks.map((t) => [`--- ${t} ---`, ...failureExcerpt(output, t)].join("\n"))
  return ["", "=== 失敗したタスク / failed tasks (repeated from above) ===", ...parts, ""].join("\n")
}

const main = () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..")
  const turbo = path.join(root, "node_modules", ".bin", "turbo")
  const args = ["run", "typecheck", "test", "--concurrency=2", "--continue=always", ...process.argv.slice(2)]
  const child = spawn(turbo, args, { cwd: root, env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" }, stdio: ["inherit", "pipe", "pipe"] })
  const chunks: Array<Buffer> = []
  child.stdout.on("data", (b: Buffer) => {
    chunks.push(b)
    process.stdout.write(b)
  })
  child.stderr.on("data", (b: Buffer) => {
    chunks.push(b)
    process.stderr.write(b)
  })
  child.on("close", (code, signal) => {
    const report = code === 0 ? "" : failureReport(Buffer.concat(chunks).toString("utf8"))
    if (report !== "") process.stdout.write(report)
    process.exitCode = code ?? (signal === null ? 1 : 128)
  })
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main()
