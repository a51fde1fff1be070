/**
 * The HTTP API of the GUI server (issue 7): request bodies as Schemas,
 * decoded at the edge (STYLE rule 9), and the shapes of the answers, which
 * the page script imports as types.
 *
 * | method and path | body / query | answer |
 * |---|---|---|
 * | `GET /api/indexes` | | {@link IndexesView} |
 * | `POST /api/indexes` | {@link IndexEdit} | {@link IndexesView} or `{error}` (400) |
 * | `POST /api/language` | {@link LanguageBody} | `{ok}` |
 * | `POST /api/run` | {@link RunBody} | {@link RunView} or `{error}` (409) |
 * | `GET /api/progress` | | {@link RunView} (polled once a second, P2: counts and a version only) |
 * | `GET /api/run-result` | | {@link RunResult} (when the version changed), or `{error}` (404) |
 * | `POST /api/plan-answer` | {@link PlanAnswerBody} | `{ok}` |
 * | `POST /api/stop` | | `{ok}` |
 * | `GET /api/search` | {@link SearchParams} | {@link SearchView} |
 * | `GET /api/log` | | {@link LogView} |
 * | `POST /api/open` | {@link OpenBody} | `{ok}`, or `{error}` (400 outside the index's folder, 404 unknown index or missing file, 500 the opener did not start, 503 no desktop or no opener on this machine) |
 *
 * @module
 */
import type { HitContext, Plan, Progress } from "@sagasu/domain"
import type { IndexListing } from "@sagasu/store"
import { Schema } from "effect"

/** An edit of the indexes table (the store's index management, issue 16: `setting.config`, and the data for rename and remove). */
export const IndexEdit = Schema.Union(
  Schema.TaggedStruct("add", { name: Schema.String, path: Schema.String }),
  Schema.TaggedStruct("rename", { from: Schema.String, to: Schema.String }),
  Schema.TaggedStruct("remove", { name: Schema.String }),
  Schema.TaggedStruct("enable", { name: Schema.String, enabled: Schema.Boolean }),
  Schema.TaggedStruct("move", { name: Schema.String, path: Schema.String })
)
export type IndexEdit = typeof IndexEdit.Type

/** Switches the page (and the run's messages) between Japanese and English. */
export const LanguageBody = Schema.Struct({ language: Schema.Literal("ja", "en") })

/** Starts an indexing run: `onlyNames` empty = every enabled index (R5). */
export const RunBody = Schema.Struct({ onlyNames: Schema.Array(Schema.String) })

/** The answer to the plan (R10): `null` cancels. */
export const PlanAnswerBody = Schema.Struct({
  answer: Schema.NullOr(Schema.Struct({ retryFailed: Schema.Boolean, includeCloud: Schema.Boolean }))
})

/**
 * Opens a hit's file, or with `folder` its folder (issue 16, S5): `index`
 * and `path` as the search gave them (FileView), `path` relative to the
 * index's folder. The server resolves and checks it (open_target.ts).
 */
export const OpenBody = Schema.Struct({ index: Schema.String, path: Schema.String, folder: Schema.Boolean })

/** Files on a page of `GET /api/search` when `limit` is not given (S5). */
export const defaultPageFiles = 20

/**
 * The query string of `GET /api/search` (S5): `type` a group or an
 * extension (search_query.ts `fileTypeGroups`, checked by the server),
 * `limit` files on the page, `offset` files skipped before it, `sort`
 * relevance (default) or newest first.
 */
export const SearchParams = Schema.Struct({
  q: Schema.String,
  index: Schema.optional(Schema.String),
  type: Schema.optional(Schema.String),
  limit: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 200))),
  offset: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.between(0, 1_000_000))),
  sort: Schema.optional(Schema.Literal("relevance", "modified"))
})
export type SearchParams = typeof SearchParams.Type

/** One row of the indexes table: the store's listing of an index (the setting and the ingest list's counts). */
export type IndexRow = IndexListing

/** `GET /api/indexes`. `settingsError` when `setting.config` cannot be read. */
export interface IndexesView {
  readonly language: "ja" | "en"
  readonly indexes: ReadonlyArray<IndexRow>
  readonly settingsError: string | null
}

/** The plan (R10) as the page shows it. */
export type PlanView = Plan

/** Progress as P1 defines it. */
export type ProgressView = Progress

/**
 * A run started from this page (the channel, read once a second): counts
 * only (issue 16). How it ended — the closing message and its lists — is
 * {@link RunResult}, fetched when `resultVersion` changes.
 */
export interface RunState {
  readonly id: number
  readonly onlyNames: ReadonlyArray<string>
  readonly stopRequested: boolean
  readonly progress: ProgressView
  readonly plan: PlanView | null
  /** Set last (R1): the run has ended. */
  readonly exitCode: 0 | 1 | 2 | null
  /** `null` while the run goes on; then the version of its {@link RunResult}, new for every run that ends. */
  readonly resultVersion: number | null
}

/** `GET /api/run-result`: how the last run of this server ended (R17), or `{error}` (404) before any has. */
export interface RunResult {
  /** The {@link RunState.resultVersion} it belongs to. */
  readonly version: number
  readonly id: number
  readonly exitCode: 0 | 1 | 2
  readonly message: string | null
  readonly error: string | null
  /**
   * The failed files: the failure's `reason` code, the catalogue's `sentence` for it in both languages
   * (the page shows the one it speaks) and the `detail` shown under it (issue 17: made by the
   * domain's message catalogue, never read back from text).
   */
  readonly failed: ReadonlyArray<{
    readonly index: string
    readonly path: string
    readonly reason: string
    readonly sentence: { readonly ja: string; readonly en: string }
    readonly detail: string
  }>
  readonly onlySkipped: ReadonlyArray<{ readonly name: string; readonly reason: "unknown" | "disabled" }>
  readonly cloudSkipped: ReadonlyArray<{ readonly index: string; readonly path: string }>
}

/** `GET /api/progress`: the run of this server (if any) and the last progress on disk (P3). */
export interface RunView {
  readonly run: RunState | null
  readonly last: ProgressView | null
  /** No run of this server is going on, but another process holds the work folder's lock (R3): a run started elsewhere. */
  readonly elsewhere: boolean
}

/** One piece of a snippet: hit pieces are highlighted. */
export interface SnippetPart {
  readonly text: string
  readonly hit: boolean
}

/** One located hit of a file as the page shows it (a cell, a paragraph, a slide line, a property, a name). */
export interface HitView {
  readonly index: string
  readonly path: string
  readonly part: string
  /** `name`: the file's path or a sheet's name (S4). */
  readonly locator: "cell" | "paragraph" | "slide" | "property" | "name"
  readonly loc: string
  readonly location: string
  readonly snippet: ReadonlyArray<SnippetPart>
  /** Its context (S5): a cell's column and row headings, a paragraph's neighbours, a slide's title; `null` when there is none. */
  readonly context: HitContext | null
}

/** One file of a search as the page shows it (S5): each file once, with its best locations. */
export interface FileView {
  readonly index: string
  /** Relative to the index's folder, `/`-separated. */
  readonly path: string
  /** The full path on this PC (the index folder joined with `path`), for copying. */
  readonly fullPath: string
  /** Its hits (names, cells, paragraphs, slide lines, properties holding a word). */
  readonly hits: number
  /** The source file's modified time (ms since the epoch) when it was read, if known. */
  readonly modifiedMs: number | null
  /** Its size in bytes when it was read, if known. */
  readonly size: number | null
  /** Its best hits, names first, each word where it stands. */
  readonly locations: ReadonlyArray<HitView>
}

/** `GET /api/search`: one page of files and the totals over the whole result (S5). */
export interface SearchView {
  readonly files: ReadonlyArray<FileView>
  /** Files skipped before this page. */
  readonly offset: number
  /** Hits and files over the whole result; `exact: false` when counting stopped (lower bounds). */
  readonly totals: { readonly hits: number; readonly files: number; readonly exact: boolean }
  /** There are files after this page. */
  readonly more: boolean
  readonly engine: "gram" | "scan" | "team"
  readonly problem: string
  /** The search stopped at its time budget: the files found so far (S2). */
  readonly partial: boolean
  /** A newer query cut this one short. */
  readonly superseded: boolean
  /** Every word of the query began with `-` and was looked for as text (S3, the domain's `exclusionsReadAsText`): a page with nothing says how to exclude. */
  readonly exclusionsAsText: boolean
}

/** `GET /api/log`. */
export interface LogView {
  readonly text: string
  readonly truncated: boolean
}
