/**
 * What the commander does with one result (R14, the seed's boxes 「結果を 1 つ
 * 受け取る」 and 「ログを書き、結果を取り込み一覧に追記」): {@link decideOnResult}
 * refined by what only the run knows — whether the target folder is still
 * there (R13), whether the work folder's disk is full (R18) and whether the
 * body-index path of a done file fits the system's limit (C2).
 *
 * @module
 */
import type { AppKind } from "./app_kind.ts"
import type { Failure } from "./failure_reason.ts"
import { type IngestResult, decideOnResult } from "./ingest_result.ts"
import { messages } from "./messages.ts"
import type { Language } from "./settings.ts"

/**
 * `Reroute` (hand it to the owner of `app`; it stays in flight), `KeepPending`
 * (stopped: not a failure, its current row appended, nothing more handed
 * over), `TargetLost` (its target folder went: nothing more handed over, it
 * stays pending, the run ends naming the folder, R13), `WorkFolderFailed`
 * (the work folder could not take its files: the run's error, worded by
 * {@link describeWorkFolderError}, R18; it stays pending), `Done` (`empty` when it showed no text at all: its log
 * block is a warning), `Failed` (its row holds `failure`; `removeBody` when the
 * text of an earlier version must leave the body index — a path too long
 * has none).
 */
export type ResultStep =
  | { readonly _tag: "Reroute"; readonly app: AppKind }
  | { readonly _tag: "KeepPending" }
  | { readonly _tag: "TargetLost" }
  | { readonly _tag: "WorkFolderFailed"; readonly failure: Failure }
  | { readonly _tag: "Done"; readonly empty: boolean }
  | { readonly _tag: "Failed"; readonly failure: Failure; readonly removeBody: boolean }

/** Options of {@link decideResult}; the questions about the disk are asked only when needed. */
export interface DecideResultOptions {
  readonly stopRequested: boolean
  /** The file was already with an Office owner: a second reroute is a failure, not a loop. */
  readonly fromOwner: boolean
  /** The file's target folder is no longer a folder (asked only of a failed file, R13). */
  readonly targetGone: () => boolean
  /** The longest body-index path, in bytes, the done file's TSVs would have; `undefined` when it cannot be told. */
  readonly bodyPathBytes: () => number | undefined
  /** The system's limit for a path, in bytes (C2). */
  readonly maxPathBytes: number
}

/** Decides what to do with one result (R13, R14, R18, C2); see {@link ResultStep}. */
export function decideResult(result: IngestResult, options: DecideResultOptions): ResultStep {
  const decision = decideOnResult(result, {
    stopRequested: options.stopRequested,
    fromOwner: options.fromOwner,
    targetGone: result.status === "failed" && options.targetGone()
  })
  switch (decision._tag) {
    case "Reroute":
    case "KeepPending":
    case "TargetLost":
      return decision
    case "WorkFolderFailed":
      return { _tag: "WorkFolderFailed", failure: decision.failure }
    case "Record": {
      if (decision.status === "failed") return { _tag: "Failed", failure: decision.failure, removeBody: true }
      // C2: a folder whose body-index path the system cannot hold would fail its publish (and
      // every later run's): the file fails here instead, before a done row could claim it.
      const bytes = options.bodyPathBytes()
      if (bytes !== undefined && bytes > options.maxPathBytes) {
        return { _tag: "Failed", failure: pathTooLongFailure(bytes, options.maxPathBytes), removeBody: false }
      }
      return { _tag: "Done", empty: result.status === "done" && result.lines === 0 }
    }
  }
}

/** The failure of a done file whose body-index path would be `bytes` long, past `max` (C2). */
export function pathTooLongFailure(bytes: number, max: number): Failure {
  return {
    reason: "path-too-long",
    detail: `its body-index path would be ${bytes} bytes, more than this system allows (${max}); ` +
      "move the work folder to a shorter path or the file to a less deep folder"
  }
}

/**
 * An I/O error's detail (the system's text, not one of ours) as the run's error (R18): a full disk (ENOSPC,
 * EDQUOT) says so in words a person can act on (`workFolderFull` of the
 * catalogue in `language`), the system's detail after; anything else is the
 * detail as it is.
 */
export function describeWorkFolderError(detail: string, language: Language): string {
  return /ENOSPC|EDQUOT|no space left/i.test(detail) ? messages(language).workFolderFull(detail) : detail
}
