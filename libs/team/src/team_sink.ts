/**
 * The port the body index is published through (issue 18): a *sink* takes
 * one index at a time under its writer lock, replaces or removes whole
 * source files, and flips the index's generation so readers move from one
 * consistent state to the next. One implementation now, PostgreSQL
 * (pg_sink.ts); an OpenSearch sink would take the same calls (a file's
 * lines as documents, a generation as an index behind an alias swapped at
 * the flip).
 *
 * @module
 */
import type { BodyLine, Locator } from "@sagasu/domain"
import { Context, type Effect, type Scope } from "effect"
import type { TeamError } from "./team_error.ts"

/** One part of a published file: its TSV's name (`2_見積書.tsv`), locator and lines, as the body index holds them. */
export interface TeamPart {
  readonly file: string
  readonly locator: Locator
  readonly lines: ReadonlyArray<BodyLine>
}

/** A source file as it is published: its body-index folder read whole. */
export interface TeamFile {
  /** Relative to the index folder, `/`-separated, as on disk. */
  readonly path: string
  /** The body-index folder's fingerprint (the store's `BodyFolder.fingerprint`): what tells versions apart. */
  readonly fingerprint: string
  /** The source file's size and modified time (ms) when it was read; `undefined` when its folder does not say. */
  readonly size: number | undefined
  readonly mtimeMs: number | undefined
  /** When its body-index folder was published (ms): the date a file without `mtimeMs` sorts by. */
  readonly publishedMs: number
  readonly parts: ReadonlyArray<TeamPart>
}

/** Writing one index, under its writer lock (one writer per index across machines). */
export interface TeamIndexWriter {
  readonly index: string
  /** The generation readers see now; this writer writes at the next one. */
  readonly visibleGeneration: number
  /** Each source file's body-folder fingerprint as the server holds it at the pending generation. */
  readonly fingerprints: Effect.Effect<ReadonlyMap<string, string>, TeamError>
  /** Replaces the file's rows in one transaction: readers of the next generation see the new version whole, or the old one. */
  readonly publish: (file: TeamFile) => Effect.Effect<void, TeamError>
  /** Removes these files in one transaction (from the next generation on). */
  readonly remove: (paths: ReadonlyArray<string>) => Effect.Effect<void, TeamError>
  /**
   * Makes everything written visible at once (the generation flip) when
   * anything was, then deletes the versions no reader sees any more; the
   * generation readers see after it.
   */
  readonly flip: Effect.Effect<number, TeamError>
}

/** The sink: opens an index for writing (its writer lock taken, released with the scope; fails `held` when another publisher has it). */
export interface TeamSinkShape {
  readonly openIndex: (index: string) => Effect.Effect<TeamIndexWriter, TeamError, Scope.Scope>
}

/** The sink service (a port: PostgreSQL's is `pgSinkLayer`). */
export class TeamSink extends Context.Tag("@sagasu/team/TeamSink")<TeamSink, TeamSinkShape>() {}
