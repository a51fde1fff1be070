/**
 * The run's log file (R4): `indexing_log.txt`, UTF-8 with a BOM, opened only
 * after the lock is taken; the previous one becomes
 * `indexing_log_previous.txt`, and the older ones move down one place each
 * (`indexing_log_previous_2.txt` … `_4.txt`, issue 16: five runs are kept,
 * `keptLogs`). Written only by the commander.
 *
 * @module
 */
import { type Language, messages } from "@sagasu/domain"
import { Effect, type Scope } from "effect"
import * as fs from "node:fs"
import type { WorkPaths } from "./work_paths.ts"

/** `info`, or a warning ("yellow" in the seed: marked `[警告]` / `[WARN]` in the file), or an error (`[エラー]` / `[ERROR]`). */
export type LogLevel = "info" | "warn" | "error"

/**
 * `run`: a line about the run as a whole (header, crawl, counts, warnings);
 * `file`: a line about one file (its `[n/total]` block, a skip, a recovery, a removal), of which a
 * run has as many as files — a terminal shows those only when asked (`sagasu index --verbose`, issue 16);
 * `fileAlert`: a line about one file that is a warning the closing message does not list again (a
 * file read without error but with no text, issue 15 item 10; an entry the crawl cannot read) — a
 * terminal shows it as it shows a run's warning (a new user found them only in the log file);
 * `plan`: an index's counts of the plan (R10, R13), which a terminal that was just shown the plan as a
 * table and asked about it need not show again as a line (a new user read it as the plan printed twice);
 * `closing`: the closing message (R17), which a terminal shows last, its list of failed files cut short;
 * `detail`: how the run went inside (the ingest phase's time, the 2-gram update's counts), for the log and
 * the benchmarks that read it — a terminal shows it only with `--verbose` (a new user read 「239 ファイル」
 * of the 2-gram update against 237 ingested as a wrong count).
 */
export type LogLineKind = "run" | "file" | "fileAlert" | "plan" | "closing" | "detail"

/** Receives every line also written to the file (headless runs print the log, R4). */
export type LogEcho = (line: string, level: LogLevel, kind: LogLineKind) => void

/** The open log of one run. Writing never fails the run: an I/O error is reported once through `echo`. */
export interface RunLog {
  /** Writes one line (a timestamp-free line: the header carries the start time); `kind` is for the echo only. */
  readonly write: (line: string, level?: LogLevel, kind?: LogLineKind) => Effect.Effect<void>
  /**
   * Writes one file's block (R4): the first line prefixed `[n/total]` with `n`
   * the file's 1-based position in the target list, the worker's lines indented.
   */
  readonly block: (n: number, total: number, title: string, lines: ReadonlyArray<string>, level?: LogLevel, kind?: LogLineKind) => Effect.Effect<void>
}


/**
 * Moves each kept log one place down — the oldest of `keptLogs` is dropped,
 * `indexing_log.txt` becomes `indexing_log_previous.txt` (R4) — and returns
 * the first error, if any (the rest is still tried: a log that cannot move
 * is overwritten by the next one).
 */
export function rotateLogs(paths: WorkPaths): unknown {
  const chain = [paths.log, paths.logPrevious, ...paths.logOlder]
  let error: unknown
  for (let i = chain.length - 1; i > 0; i--) {
    const from = chain[i - 1] ?? ""
    try {
      if (fs.existsSync(from)) fs.renameSync(from, chain[i] ?? "")
    } catch (e) {
      error ??= e
    }
  }
  return error
}

/**
 * Rotates the logs ({@link rotateLogs}), opens a new one with a BOM and
 * writes `header` (R4). The file is closed when the scope closes. A header
 * that cannot be written does not stop the run; nor does a log that cannot
 * be opened (lines then only go to `echo`). Its own troubles go to `echo` in
 * `language`.
 */
export const openRunLog = (
  paths: WorkPaths,
  header: ReadonlyArray<string>,
  echo: LogEcho = () => {},
  language: Language = "ja"
): Effect.Effect<RunLog, never, Scope.Scope> =>
  // Sync `node:fs` (STYLE 14): a line or a file's block per write, several per file of a run;
  // an append through the platform's FileSystem took 135–300 µs against 10–16 µs (journal_store.ts).
  Effect.acquireRelease(
    Effect.sync(() => {
      const text = messages(language)
      const notRotated = rotateLogs(paths)
      if (notRotated !== undefined) echo(text.logNotKept(String(notRotated)), "warn", "run")
      let fd: number | undefined
      try {
        fd = fs.openSync(paths.log, "w")
        fs.writeSync(fd, "\uFEFF")
      } catch (e) {
        echo(text.logNotOpened(String(e)), "warn", "run")
        fd = undefined
      }
      return { fd, text }
    }),
    (state) => Effect.sync(() => {
      if (state.fd !== undefined) fs.closeSync(state.fd)
      state.fd = undefined
    })
  ).pipe(
    Effect.map((state) => {
      const mark = (level: LogLevel) => (level === "info" ? "" : `${state.text.logMark(level)} `)
      let failed = false
      const raw = (text: string) => {
        if (state.fd === undefined) return
        try {
          fs.writeSync(state.fd, text)
        } catch (e) {
          if (!failed) echo(state.text.logNotWritten(String(e)), "warn", "run")
          failed = true
        }
      }
      const write = (line: string, level: LogLevel = "info", kind: LogLineKind = "run") =>
        Effect.sync(() => {
          raw(mark(level) + line + "\n")
          echo(line, level, kind)
        })
      const block = (n: number, total: number, title: string, lines: ReadonlyArray<string>, level: LogLevel = "info", kind: LogLineKind = "file") =>
        Effect.sync(() => {
          const head = `[${n}/${total}] ${title}`
          raw([mark(level) + head, ...lines.map((l) => `    ${l}`)].join("\n") + "\n")
          echo(head, level, kind)
          for (const l of lines) echo(`    ${l}`, level, kind)
        })
      Effect.runSync(Effect.forEach(header, (l) => write(l)))
      return { write, block } satisfies RunLog
    })
  )
