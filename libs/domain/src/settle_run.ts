/**
 * The end of a run (R1, R16, R17, R18; the seed's boxes 「gram 索引を合わせる」,
 * 「クロール対象フォルダが見つからなくなった？」 and 「インデックス作成が完了しました／
 * 中止しました」): whether the 2-gram index is brought in line, the exit code
 * and the message, in the seed's order.
 *
 * @module
 */
import { type ExitCode, type FailedFile, closingMessage } from "./closing.ts"
import { messages } from "./messages.ts"
import type { Language } from "./settings.ts"

/**
 * Why a run ended at the confirmation (R8, R10; issue 16: each says so in
 * its own words): `stopped` (a stop during the crawl or while the plan was
 * shown), `declined` (the person answered no / ［キャンセル］), `timedOut`
 * (no answer within `minutes`).
 */
export type CancelReason =
  | { readonly _tag: "stopped" }
  | { readonly _tag: "declined" }
  | { readonly _tag: "timedOut"; readonly minutes: number }

/**
 * How the main part of a run ended: `Error` (a run-level failure, R18),
 * `Cancelled` (stop during the crawl, cancel or no answer at the
 * confirmation, R8, R10; `why` says which), `NoTargets` (R12, with its message), `Ingested`
 * (R13–R15: stopped or not, the errors that ended it, the counts).
 */
export type RunOutcome =
  | { readonly _tag: "Error"; readonly message: string }
  | { readonly _tag: "Cancelled"; readonly why: CancelReason }
  | { readonly _tag: "NoTargets"; readonly message: string }
  | {
    readonly _tag: "Ingested"
    readonly stopped: boolean
    /** The message of the lost target folder (R13). */
    readonly folderLost: string | undefined
    /** The message of a work folder that could not take a file (R18). */
    readonly workFolderError: string | undefined
    /** The message of a finally step that failed (R15, R18). */
    readonly finallyError: string | undefined
    readonly done: number
    readonly failed: ReadonlyArray<FailedFile>
  }

/**
 * The settlement: `updateGram` (R16: bring the 2-gram index in line before
 * the closing), the exit code (R1), the message and the failed files;
 * `report` says where the message goes — `error` (`channel.error`, exit 1)
 * or `closing` (the log and `channel.closing`, exit 0 or 2).
 */
export interface RunSettlement {
  readonly updateGram: boolean
  readonly code: ExitCode
  readonly message: string
  readonly failed: ReadonlyArray<FailedFile>
  readonly report: "error" | "closing"
}

/**
 * Settles a run (R16, R17): the 2-gram index is brought in line after a run
 * with no targets and after one that ingested and was neither stopped nor
 * ended by an error; then a lost folder, a full work folder and a failed
 * finally step, in that order, are exit 1 with their message; else the
 * closing message with the counts, exit 0 — or 2 when stopped or cancelled.
 */
export function settleRun(language: Language, outcome: RunOutcome): RunSettlement {
  switch (outcome._tag) {
    case "Error":
      return { updateGram: false, code: 1, message: outcome.message, failed: [], report: "error" }
    case "Cancelled": {
      const text = messages(language)
      const why = outcome.why
      const message = why._tag === "declined"
        ? text.planCancelled
        : why._tag === "timedOut"
          ? text.planTimedOut(Math.max(1, Math.round(why.minutes)))
          : closingMessage(language, { stopped: true, ok: 0, failed: [] })
      return { updateGram: false, code: 2, message, failed: [], report: "closing" }
    }
    case "NoTargets":
      return { updateGram: true, code: 0, message: outcome.message, failed: [], report: "closing" } // R12
    case "Ingested": {
      const error = outcome.folderLost ?? outcome.workFolderError ?? outcome.finallyError
      if (error !== undefined) return { updateGram: false, code: 1, message: error, failed: outcome.failed, report: "error" }
      const message = closingMessage(language, { stopped: outcome.stopped, ok: outcome.done, failed: outcome.failed })
      return { updateGram: !outcome.stopped, code: outcome.stopped ? 2 : 0, message, failed: outcome.failed, report: "closing" }
    }
  }
}
