/**
 * The channel (受け渡しの口, ARCHITECTURE.md "The channel"): the only thing an
 * indexing run and its front end (CLI, GUI, tests) share. The front end sets
 * `stop`, answers the plan and reads `progress`; the run writes everything
 * else and sets `exitCode` as its very last act (R1).
 *
 * @module
 */
import type { ExitCode, FailedFile, OnlySkipped, Plan, PlanAnswer, Progress } from "@sagasu/domain"
import { initialProgress } from "@sagasu/domain"
import type { LogEcho } from "@sagasu/store"
import { Deferred, Effect, Option, Ref, SubscriptionRef } from "effect"

/** A cloud-only file left without downloading it (R9). */
export interface CloudSkippedFile {
  readonly index: string
  readonly path: string
}

/** How the run ended, for the end screen (R17): the closing message and the failed files. */
export interface Closing {
  readonly message: string
  readonly failed: ReadonlyArray<FailedFile>
}

/** The channel of one indexing run. */
export interface IndexerChannel {
  /** Set by the front end to stop the run (W5); the run never clears it. */
  readonly stop: SubscriptionRef.SubscriptionRef<boolean>
  /** Ask for confirmation of the plan before ingesting (R10). */
  readonly confirmTargets: boolean
  /** Index names to update; empty = every enabled index (R5). */
  readonly onlyNames: ReadonlyArray<string>
  /** Without confirmation: also retry failed files / ingest cloud-only files (R9). */
  readonly retryFailed: boolean
  readonly includeCloud: boolean | undefined
  /** The plan while the run waits for an answer (R10); `None` otherwise. */
  readonly plan: SubscriptionRef.SubscriptionRef<Option.Option<Plan>>
  /** Completed by the front end: the answer, or `null` to cancel (R10). */
  readonly answer: Deferred.Deferred<PlanAnswer | null>
  readonly progress: SubscriptionRef.SubscriptionRef<Progress>
  readonly cloudSkipped: Ref.Ref<ReadonlyArray<CloudSkippedFile>>
  readonly onlySkipped: Ref.Ref<ReadonlyArray<OnlySkipped>>
  /** The error message of a run that ended with exit code 1. */
  readonly error: Ref.Ref<Option.Option<string>>
  readonly closing: Ref.Ref<Option.Option<Closing>>
  /** Set last (R1): a reader treats a set exit code as "finished". */
  readonly exitCode: Deferred.Deferred<ExitCode>
  /** Receives every log line as written (headless runs print the log, R4). */
  readonly echo: LogEcho
}

/** Options of {@link makeChannel}. */
export interface MakeChannelOptions {
  readonly confirmTargets?: boolean
  readonly onlyNames?: ReadonlyArray<string>
  readonly retryFailed?: boolean
  /** `undefined` = follow the setting `cloudFiles`. */
  readonly includeCloud?: boolean
  readonly echo?: LogEcho
}

/** Makes the channel of one run: every front end and the tests use this one implementation. */
export const makeChannel = (options: MakeChannelOptions = {}): Effect.Effect<IndexerChannel> =>
  Effect.gen(function* () {
    return {
      stop: yield* SubscriptionRef.make(false),
      confirmTargets: options.confirmTargets ?? false,
      onlyNames: options.onlyNames ?? [],
      retryFailed: options.retryFailed ?? false,
      includeCloud: options.includeCloud,
      plan: yield* SubscriptionRef.make(Option.none<Plan>()),
      answer: yield* Deferred.make<PlanAnswer | null>(),
      progress: yield* SubscriptionRef.make(initialProgress),
      cloudSkipped: yield* Ref.make<ReadonlyArray<CloudSkippedFile>>([]),
      onlySkipped: yield* Ref.make<ReadonlyArray<OnlySkipped>>([]),
      error: yield* Ref.make(Option.none<string>()),
      closing: yield* Ref.make(Option.none<Closing>()),
      exitCode: yield* Deferred.make<ExitCode>(),
      echo: options.echo ?? (() => {})
    }
  })

/** Asks the run to stop (W5): what the GUI's ［中止］ and the first Ctrl+C do. */
export const requestStop = (channel: IndexerChannel): Effect.Effect<void> => SubscriptionRef.set(channel.stop, true)
