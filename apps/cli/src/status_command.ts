/**
 * `sagasu status`: the last progress and how the last run ended (P3), and
 * the ingest list's counts per index; `--failed` lists the failed files with
 * their reasons, per index, from the ingest list (issue 16: at any time, not
 * only in the log of the run that failed them).
 *
 * @module
 */
import { WorkStore } from "@sagasu/store"
import { type FailureReason, type IngestRow, type Language, type Settings, alignColumns, defaultSettings, failureCause, messages, statusTime } from "@sagasu/domain"
import { Console, Effect, Option } from "effect"
import * as path from "node:path"
import { errorMessage, workHint } from "./work_dir.ts"
import { jsonForTerminal } from "./json_output.ts"
import { forTerminal } from "./terminal_text.ts"

/** A failed file as `status --failed --json` prints it. */
export interface FailedFileEntry {
  /** Relative to the index's folder, `/`-separated. */
  readonly path: string
  /** The file in the index's folder (`null` for an index no longer in the settings). */
  readonly absolutePath: string | null
  /** The reason code (`corrupt`, `encrypted`, `timeout`, …; `null` when the row's reason has none this version knows). */
  readonly reason: Exclude<FailureReason, "unknown"> | null
  /** The rest of the row's reason: what the reader or the Office owner said. */
  readonly detail: string
  /** Whose fault: `file` (retried only with --retry-failed) or `environment` (retried by the next run). */
  readonly cause: string
}

/** One index's failed files (`status --failed --json`: `{ indexes: [...] }`). */
export interface FailedIndexEntry {
  readonly name: string
  /** The index's folder (`null`: the index is no longer in the settings but the ingest list has its rows). */
  readonly path: string | null
  readonly failed: ReadonlyArray<FailedFileEntry>
}

/**
 * The failed rows of the ingest list grouped per index: the registered
 * indexes in the settings' order (those with failures), then any other index
 * the list still names; files in code-point order of their path.
 */
export function failedPerIndex(rows: ReadonlyArray<IngestRow>, settings: Settings): ReadonlyArray<FailedIndexEntry> {
  const failed = rows.filter((r) => r.status === "failed")
  const names = [...new Set([...settings.targetFolders.map((t) => t.name), ...failed.map((r) => r.index)])]
  return names.flatMap((name) => {
    const own = failed.filter((r) => r.index === name).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    if (own.length === 0) return []
    const folder = settings.targetFolders.find((t) => t.name === name)?.path ?? null
    return [{
      name,
      path: folder,
      failed: own.map((r) => {
        // Issue 17: the row's failure is structured (the store decoded it); a row of another version is `unknown`, its text the detail.
        const failure = r.failure ?? { reason: "unknown", detail: "" }
        return {
          path: r.path,
          absolutePath: folder === null ? null : path.join(folder, ...r.path.split("/")),
          reason: failure.reason === "unknown" ? null : failure.reason,
          detail: failure.detail,
          cause: failureCause(failure.reason)
        }
      })
    }]
  })
}

/** The failed files for a person: per index its name, folder and count, then each file and its failure in the catalogue's words. */
export function formatFailed(groups: ReadonlyArray<FailedIndexEntry>, language: Language): string {
  const text = messages(language)
  if (groups.length === 0) return text.statusNoFailed
  return groups.map((g) => [
    text.statusFailedIndex(g.name, g.path, g.failed.length),
    ...g.failed.map((f) => text.statusFailedFile(f.path, text.failure({ reason: f.reason ?? "unknown", detail: f.detail }), f.cause === "environment"))
  ].join("\n")).join("\n")
}

/** Options of {@link statusCommand}. */
export interface StatusCommandOptions {
  /** Print JSON: `{progress, indexes}`, or with `failed` `{indexes: [{name, path, failed: [...]}]}`. */
  readonly json: boolean
  /** List the failed files with their reasons instead of the counts. */
  readonly failed: boolean
}

/** Prints the status of the work folder `work`. */
export const statusCommand = (work: string, options: StatusCommandOptions) =>
  Effect.gen(function* () {
    const json = options.json
    const paths = yield* WorkStore.checkWorkFolder(work)
    const settings = yield* WorkStore.readSettings(paths).pipe(Effect.orElseSucceed(() => defaultSettings))
    const language = settings.language
    const rows = yield* WorkStore.readIngestList(paths)
    if (options.failed) {
      const groups = failedPerIndex(rows, settings)
      yield* Console.log(json ? jsonForTerminal({ indexes: groups }) : forTerminal(formatFailed(groups, language)))
      return
    }
    const progress = yield* WorkStore.readProgress(paths)
    const indexes = settings.targetFolders.map((t) => {
      const own = rows.filter((r) => r.index === t.name)
      return {
        name: t.name, path: t.path, enabled: t.enabled,
        done: own.filter((r) => r.status === "done").length,
        failed: own.filter((r) => r.status === "failed").length,
        pending: own.filter((r) => r.status === "pending").length
      }
    })
    if (json) {
      yield* Console.log(jsonForTerminal({ progress: Option.getOrNull(progress), indexes }))
      return
    }
    const text = messages(language)
    // R3: a run that has not ended is going on when it holds the lock, else it was killed.
    const running = Option.isSome(progress) && progress.value.exitCode === undefined ? yield* WorkStore.isLockHeld(paths) : false
    if (Option.isNone(progress)) {
      yield* Console.log(forTerminal(text.statusNoRun))
    } else {
      const p = progress.value
      // When it ended, or its last record when killed (new-user trial: status did not say when); none while running.
      const written = running ? Option.none<number>() : yield* WorkStore.progressWrittenAt(paths)
      const at = Option.getOrUndefined(Option.map(written, (ms) => statusTime(ms, -new Date(ms).getTimezoneOffset())))
      yield* Console.log(forTerminal(text.statusLastRun({ exitCode: p.exitCode, running, phase: p.phase, processed: p.processed, remaining: p.remaining, failed: p.failed, ...(at === undefined ? {} : { at }) })))
      // A run that did not end: its last file or step, labelled (new-user trial: a bare path after a double Ctrl+C).
      if (p.current !== "") yield* Console.log(forTerminal(`  ${p.exitCode === undefined ? text.statusCurrent(p.current, running) : p.current}`))
    }
    for (const line of alignColumns(indexes.map(text.indexListed))) yield* Console.log(line)
    if (indexes.some((i) => i.failed > 0)) yield* Console.log(forTerminal(text.statusFailedHint(workHint(work))))
    if (indexes.some((i) => i.pending > 0)) yield* Console.log(forTerminal(running ? text.statusPendingRunning : text.statusPendingHint(workHint(work))))
  }).pipe(Effect.catchAll((e) => Console.error(forTerminal(errorMessage(e, work), process.stderr)).pipe(Effect.zipRight(Effect.sync(() => { process.exitCode = 1 })))))
