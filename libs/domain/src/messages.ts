/**
 * The product's messages in Japanese (default) and English, by key (SPEC
 * preamble: the Japanese strings are the seed's, verbatim).
 *
 * @module
 */
import type { AppKind } from "./app_kind.ts"
import type { CrawlSkipReason } from "./crawl_skip.ts"
import type { Failure, FailureReason } from "./failure_reason.ts"
import type { FolderRelation, IndexRefusal } from "./index_admin.ts"
import type { FileNote } from "./ingest_result.ts"
import type { Progress } from "./progress.ts"
import { formatDuration } from "./progress_line.ts"
import type { Language, Settings, TargetFolder } from "./settings.ts"
import type { TargetCounts } from "./target_list.ts"
import type { TeamUrlRefusal } from "./team.ts"

/** Why a work folder cannot be used (the store's WorkFolderError reasons, R2). */
export type WorkFolderProblem = "missing" | "not-a-folder" | "not-writable" | "not-initialised" | "unknown-layout"

/** Why `setting.config` cannot be used (the store's SettingsError reasons). */
export type SettingsProblem = "missing" | "unreadable" | "invalid-json" | "invalid"

/**
 * What became of one file, the first line of its block in the log (R4, R13,
 * R14): `done`; `stopped` (a stop reached it: it stays pending); `folderGone`
 * (its target folder went: not recorded, pending); `notRecorded` (the work
 * folder could not take it, R18: pending); `failed` with its failure;
 * `sourceVanished` (gone before it was handed over, R13); `rerouted` to the
 * Office owner of `app` (W3).
 */
export type FileLogOutcome =
  | { readonly _tag: "done" | "stopped" | "folderGone" | "sourceVanished" }
  | { readonly _tag: "notRecorded" | "failed"; readonly failure: Failure }
  | { readonly _tag: "rerouted"; readonly app: AppKind }

/** What the log header says of the machine (R4): OS type, release and architecture, Node's version, CPUs, the run's pid. */
export interface LogEnvironment {
  readonly os: string
  readonly node: string
  readonly cpus: number
  readonly pid: number
}

/** What a finished 2-gram update reports for the log (R16; the store's GramUpdateSummary). */
export interface GramUpdateCounts {
  readonly indexed: number
  readonly prebuilt: number
  readonly removed: number
  readonly merges: number
  readonly segments: number
}

interface Catalogue {
  readonly lockHeld: string
  readonly noTargetsNeeded: string
  readonly cloudOnlyLeft: string
  readonly sourceVanished: string
  readonly completed: (ok: number, failed: number) => string
  readonly stopped: (ok: number, failed: number) => string
  /** `work`: the ` --work DIR` the next step repeats (work_option.ts), "" for the default folder or none. */
  readonly noEnabledIndex: (work?: string) => string
  /** `work`: as in {@link Messages.noEnabledIndex}. */
  readonly targetFolderMissing: (name: string, path: string, others: ReadonlyArray<string>, work?: string) => string
  readonly workFolderNotReady: (path: string, why: string) => string
  readonly failedFilesHeading: string
  /** A reason of the terminal's list of failed files (closing.ts failedFilesForTerminal), with its count. */
  readonly failedFilesGroup: (reason: string, count: number) => string
  /** After the terminal's list when files were left out: how many, and where all are shown with their details. */
  readonly failedFilesMore: (more: number, work?: string) => string
  /** After the terminal's list when every file is in it: where the details are. */
  readonly failedFilesDetails: (work?: string) => string
  /** What a failure reason means for a person and what to do about it, one sentence (issue 17). */
  readonly failureReason: (reason: FailureReason) => string
  /** A failed file's failure as a person reads it: the reason's sentence, then the code and detail (CLI, log, closing, GUI). */
  readonly failure: (failure: Failure) => string
  readonly onlyNameSkipped: (name: string, reason: "unknown" | "disabled") => string
  readonly noneOfOnlyNames: string
  // --- issue 16: the ends of a run that ingested nothing, told apart (cancel at the plan, no answer) ---
  readonly planCancelled: string
  readonly planTimedOut: (minutes: number) => string
  /** `work`: as in {@link Messages.workFolderReady}. */
  readonly knownIndexNames: (indexes: ReadonlyArray<{ readonly name: string; readonly enabled: boolean }>, work?: string) => string
  // --- issue 16 (one catalogue): init, the work folder, the settings file, the store's reads, the lock, a folder ---
  /** `work`: the ` --work DIR` the next step repeats (work_option.ts), "" for the default folder. */
  readonly workFolderReady: (path: string, work?: string) => string
  /** `init` on a work folder that is there: kept as it is; the next step while it has no index (`indexes`: how many it has). */
  readonly workFolderAlreadyReady: (path: string, indexes: number, work?: string) => string
  /** `work`: as in {@link Messages.workFolderReady}, for the `sagasu init` it suggests. */
  readonly workFolderUnusable: (problem: WorkFolderProblem, path: string, work?: string) => string
  readonly settingsUnusable: (problem: SettingsProblem, path: string) => string
  readonly storeFileUnreadable: (name: string, detail: string, file: string) => string
  /** A write of the work folder failed (the store's WorkStoreError, R18): a full disk, or not writable. */
  readonly workStoreFailed: (problem: "disk-full" | "not-writable", path: string) => string
  readonly lockNotTaken: (detail: string) => string
  readonly lockHeldShort: string
  readonly folderUnreadable: (index: string, path: string, detail: string) => string
  readonly legacyIndexNotice: string
  readonly oldSystemIndexNotRemoved: (detail: string) => string
  readonly targetFolderLost: (name: string, path: string) => string
  readonly crawling: (name: string, path: string) => string
  readonly targetCounts: (total: number) => string
  readonly waitingForAnswer: string
  readonly publishing: string
  readonly rewritingIngestList: string
  readonly updatingGram: string
  readonly gramFailed: (detail: string) => string
  readonly cloudSkippedIn: (name: string, count: number) => string
  readonly indexRefused: (refusal: IndexRefusal) => string
  /** `work`: as in {@link Messages.workFolderReady}. */
  readonly indexAdded: (name: string, path: string, work?: string) => string
  readonly indexEnabled: (name: string, enabled: boolean) => string
  readonly indexRenamed: (from: string, to: string) => string
  readonly indexRemoved: (name: string, files: number) => string
  readonly indexMoved: (name: string, path: string) => string
  /** `work`: as in {@link Messages.workFolderReady}. */
  readonly noIndexes: (work?: string) => string
  /** An index as `list` and `status` show it: its name, its folder and its counts, as columns ({@link alignColumns}). */
  readonly indexListed: (i: { name: string; path: string; enabled: boolean; done: number; failed: number; pending: number }) => readonly [string, string, string]
  // --- issue 16 (one catalogue): the run's log, indexing_log.txt (R4), every line in the run's language ---
  /** The first line: the version and when the run started ({@link logTimestamp}). */
  /** How a warning's or an error's line is marked in the log file (R4: warnings "yellow"). */
  readonly logMark: (level: "warn" | "error") => string
  readonly logStarted: (version: string, at: string) => string
  /** The last line: when the run ended and how long it took, ms. */
  readonly logEnded: (at: string, ms: number) => string
  readonly logEnvironment: (e: LogEnvironment) => string
  readonly logWorkFolder: (path: string) => string
  /** LibreOffice's version, or (`undefined`) that it is missing and what that means, with the Debian packages to install. */
  readonly logLibreOffice: (version: string | undefined, packages: ReadonlyArray<string>) => string
  /**
   * The settings summary (R4); `cpus` is this machine's CPU count, the plain workers' number when
   * `ingestThreads` is not set (shown with it, so the log says how many workers ran).
   */
  readonly logSettings: (settings: Settings, cpus: number) => string
  readonly logIndex: (index: TargetFolder) => string
  readonly logSkipped: (name: string, reason: CrawlSkipReason, detail: string) => string
  readonly logRecovered: (name: string) => string
  readonly logNotRecovered: (name: string, detail: string) => string
  readonly logRemovedVanished: (name: string) => string
  readonly logCloudOnlyFile: (name: string) => string
  readonly logLeftoverEnded: (pid: number, command: string) => string
  readonly logIndexCounts: (counts: TargetCounts) => string
  /** `取り込み段階: 12.3 秒` / `ingest phase: 12.3 s` (benchmarks read it: tools/src/bench/small_files.ts). */
  readonly logIngestPhase: (ms: number) => string
  readonly logGramUpdated: (counts: GramUpdateCounts | undefined, ms: number) => string
  readonly logFinallyFailed: (detail: string) => string
  /** A file's block title (R4): `name` is `index/path`. */
  readonly logFile: (name: string, outcome: FileLogOutcome) => string
  /** One of a file's lines, as its worker saw it. */
  readonly logNote: (note: FileNote) => string
  readonly logNotKept: (detail: string) => string
  readonly logNotOpened: (detail: string) => string
  readonly logNotWritten: (detail: string) => string
  readonly unexpectedError: (detail: string) => string
  /** R18: the work folder's disk is full (ENOSPC, EDQUOT), with the system's words. */
  readonly workFolderFull: (detail: string) => string
  // --- issue 16 (one catalogue): the CLI's own words (index, status, search, gui) ---
  readonly quietWithVerbose: string
  /** The first Ctrl+C of `sagasu index`. */
  readonly stoppingRun: string
  /** The question under the plan (R10). */
  readonly askStartIngest: string
  /** The plan table's heading and its rows: new, changed, pending, failed last time, failed for the environment, cloud-only, unchanged, vanished. */
  readonly planHeading: string
  readonly planLabels: ReadonlyArray<string>
  readonly runPhase: (phase: Progress["phase"]) => string
  readonly statusNoRun: string
  /** The last run's progress (P3): how it ended (`undefined`: running, or killed), its phase and counts. */
  /**
   * The last run's progress (P3): how it ended (`undefined`: not ended), its phase and counts;
   * `running`: a run holds the work folder's lock now (R3) — without it, a run that did not end was
   * killed.
   */
  /** `at`: when the record was last written, as `statusTime` gives it (an ended run: when it ended; a killed one: its last record). */
  readonly statusLastRun: (p: { readonly exitCode: 0 | 1 | 2 | undefined; readonly running?: boolean; readonly phase: Progress["phase"]; readonly processed: number; readonly remaining: number; readonly failed: number; readonly at?: string }) => string
  /** What a run that has not ended was doing (`current`, a file or a step): now (`running`) or at its last record. */
  readonly statusCurrent: (current: string, running: boolean) => string
  /** Files pending while a run is going on: that run takes them (no command to suggest: it would be refused, R3). */
  readonly statusPendingRunning: string
  /** `work`: the ` --work DIR` the command repeats (work_option.ts), "" for the default folder. */
  readonly statusFailedHint: (work?: string) => string
  /** `work`: as in {@link Messages.statusFailedHint}. */
  readonly statusPendingHint: (work?: string) => string
  readonly statusNoFailed: string
  /** An index's heading in `status --failed` (`path` null: the index is no longer in the settings). */
  readonly statusFailedIndex: (name: string, path: string | null, count: number) => string
  readonly statusFailedFile: (path: string, failure: string, environment: boolean) => string
  readonly guiAddress: (url: string) => string
  readonly guiOpened: (opened: boolean) => string
  /** Said when Ctrl+C ends `sagasu gui` (on its own line after the terminal's ^C). */
  readonly guiStopped: string
  /** After a stopped run (exit 2), on the terminal: how many files are left for the next run. */
  /** `work`: as in {@link Messages.statusFailedHint}. */
  readonly indexResumeHint: (pending: number, work?: string) => string
  /** A run that goes on from a stopped or interrupted one (R8, C1): how many files it takes up again. */
  readonly resumingPending: (pending: number) => string
  /**
   * After `取り込みが必要なファイルはありません。` while `failed` files stay failed for a reason of their
   * own (R9: tried again only when asked): where to see why, and how to try them again. `work`: as in
   * {@link Messages.statusFailedHint}.
   */
  readonly indexRetryFailedHint: (failed: number, work?: string) => string
  readonly guiCannotListen: (port: number, detail: string) => string
  /** `sagasu gui --port` outside 1–65535 (told before the settings are read: in both languages). */
  readonly guiBadPort: string
  readonly searchNone: (query: string) => string
  /** Said after {@link searchNone} when every word of the query began with `-` and was looked for as text (S3, `exclusionsReadAsText`). */
  readonly searchNoneExclusionsAsText: string
  /** Said after {@link searchNone} when options narrowed the search: the options as given (`--type xlsx --folder 見積`). */
  readonly searchNoneFiltered: (filters: string) => string
  readonly searchFileHits: (hits: number) => string
  readonly searchTotals: (hits: number, files: number, exact: boolean) => string
  readonly searchPage: (from: number, to: number) => string
  readonly searchMore: (next: number) => string
  /** `work`: the ` --work DIR` the command repeats (work_option.ts), "" for the default folder. */
  readonly searchScanned: (work?: string) => string
  readonly searchPartial: string
  /** The words before a hit's context (`--context`): a cell's column and row, a slide's title, a paragraph's neighbours. */
  readonly contextLabel: (which: "column" | "row" | "title" | "previous" | "next") => string
  readonly searchWithDefaultSettings: string
  /**
   * Where a hit stands, for a person (`sagasu search`'s text; `--json`'s `location` stays the
   * store's code-like form): a cell `見積書!B3`, a paragraph `¶12`, a slide, a property, a name.
   */
  readonly searchLocation: (locator: "cell" | "paragraph" | "slide" | "property" | "name", part: string, loc: string) => string
  readonly searchBadLimit: (value: string) => string
  readonly searchBadOffset: (value: string) => string
  readonly searchBadType: (value: string, groups: ReadonlyArray<string>, types: ReadonlyArray<string>) => string
  readonly searchUnknownOption: (arg: string) => string
  /** An option of search that takes a value, written without one (`--limit` last, or before another option). */
  readonly searchMissingValue: (option: string) => string
  readonly searchBadSort: (value: string) => string
  readonly searchBadDate: (option: string, value: string) => string
  readonly searchBadIndex: (value: string, names: ReadonlyArray<string>) => string
  // --- command-line usage errors @effect/cli finds (said in both languages: no settings are read yet) ---
  /** A first word that is no command (`sagasu lst`), or an unknown subcommand of `team`. */
  readonly cliUnknownCommand: (word: string, commands: ReadonlyArray<string>, command: string) => string
  /** A command's argument left out (`sagasu search` with no word): `argument` as its help names it, `<WORD>`. */
  readonly cliMissingArgument: (argument: string, command: string) => string
  /** A word or option the command does not take (`sagasu index --onlyy`). */
  readonly cliUnknownArgument: (arg: string, command: string) => string
  /** `--work` without its folder, or with no command after `--work DIR`. */
  readonly cliWorkValue: string
  /** `--work` written more than once. */
  readonly cliWorkTwice: string
  // --- issue 18: the team server ---
  readonly teamNotConfigured: string
  readonly teamUnreachable: (server: string, detail: string) => string
  readonly teamPasswordFileUnreadable: (file: string, detail: string) => string
  readonly teamNoPassword: (server: string, env: string) => string
  readonly teamSchemaNewer: (found: number, known: number) => string
  readonly teamNothingPublished: string
  readonly teamPublishing: (index: string) => string
  readonly teamPublished: (index: string, c: { published: number; removed: number; unchanged: number; generation: number }) => string
  readonly teamPublishFailed: (detail: string) => string
  readonly teamNoSuchIndex: (index: string) => string
  readonly teamGranted: (index: string, role: string, granted: boolean) => string
  readonly teamConnected: (server: string, search: boolean, passwordEnv: string) => string
  readonly teamUrlRefused: (reason: TeamUrlRefusal) => string
}

const relationJa: Record<FolderRelation, string> = { same: "と同じです", inside: "の中にあります", contains: "を含んでいます" }
const relationEn: Record<FolderRelation, string> = { same: "is the folder of", inside: "lies inside the folder of", contains: "contains the folder of" }

const failureReasonJa: Record<FailureReason, string> = {
  "empty-file": "空のファイルです（0 バイト）。保存し直すまで取り込めません。",
  encrypted: "パスワードで保護されています。Office で開いてパスワードを外し、保存し直すと取り込めます。",
  "needs-office": "この形式は Office（LibreOffice）が無いと読めません。",
  "not-office": "Office のファイルではありません（名前の拡張子と中身が違います）。",
  corrupt: "ファイルが壊れています。Office で開いて保存し直すと直ることがあります。",
  "too-large": "大きすぎるため、読むのをやめました。ファイルを分けてください。",
  unreadable: "ファイルを読み取れません。アクセス権と、ほかのプログラムが開いたままでないかを確かめてください。",
  timeout: "時間内に読み終わりませんでした。とても大きいか壊れている可能性があります（設定 fileTimeoutMinutes を増やすと長く待ちます）。",
  "office-missing": "この形式を読む LibreOffice がインストールされていません。インストールしてから、もう一度インデックス作成を実行してください。",
  "office-start-failed": "LibreOffice を起動できませんでした。",
  "conversion-failed": "LibreOffice でも変換できませんでした。Office で開いて保存し直すと取り込めることがあります。",
  "path-too-long": "本文インデックスでのパスがこのシステムの上限を超えます。作業フォルダを短いパスに移すか、ファイルを浅いフォルダに移してください。",
  "work-folder": "作業フォルダに書き込めませんでした（ディスクがいっぱいなど）。空きを作ってからもう一度実行すると、続きから取り込みます。",
  unknown: "別の版が記録した原因です。"
}

const failureReasonEn: Record<FailureReason, string> = {
  "empty-file": "The file is empty (zero bytes); nothing to index until it is saved again.",
  encrypted: "The file is password-protected; open it in Office, remove the password and save it again to index it.",
  "needs-office": "This format can be read only through Office (LibreOffice).",
  "not-office": "The content is not an Office document, whatever its name says.",
  corrupt: "The file is damaged; open it in Office and save it again (Office often repairs it).",
  "too-large": "The file is too large; reading it was abandoned. Split it.",
  unreadable: "The file cannot be read; check its permissions and that no other program keeps it locked.",
  timeout: "Reading took too long; the file may be very large or damaged (raise fileTimeoutMinutes to give it more time).",
  "office-missing": "LibreOffice, which reads this format, is not installed; install it and run the indexing again.",
  "office-start-failed": "LibreOffice could not be started.",
  "conversion-failed": "LibreOffice could not convert the file either; open it in Office and save it again to index it.",
  "path-too-long": "Its path in the body index passes this system's limit; move the work folder to a shorter path or the file to a less deep folder.",
  "work-folder": "The work folder could not be written (a full disk, …); free some space and run again: it continues where it stopped.",
  unknown: "A reason recorded by another version."
}

/**
 * What follows a failure's sentence: its code and detail (`corrupt: bad zip`),
 * what was seen, for a person or a bug report; a row of another version
 * (`unknown`) its text.
 */
export function failureDetail(f: Failure): string {
  return f.reason === "unknown" ? f.detail : f.detail === "" ? f.reason : `${f.reason}: ${f.detail}`
}

const skipReasonJa: Record<CrawlSkipReason, string> = {
  "owner-file": "Office が開いている間だけある作業用のファイルです",
  temporary: "一時ファイルです",
  hidden: "隠しファイル（隠しフォルダ）です",
  "link-outside": "インデックスのフォルダの外を指すリンクです",
  loop: "たどると同じフォルダに戻るリンクです",
  "not-a-file": "通常のファイルではありません（パイプ、デバイスなど）",
  unreadable: "読み取れません",
  "invalid-name": "名前が UTF-8 ではありません（別の文字コードで付いた名前です）"
}

const skipReasonEn: Record<CrawlSkipReason, string> = {
  "owner-file": "a file Office keeps while a document is open",
  temporary: "a temporary file",
  hidden: "a hidden file or folder",
  "link-outside": "a link to outside the index's folder",
  loop: "a link back to a folder already crawled",
  "not-a-file": "not a regular file (a pipe, a device, …)",
  unreadable: "it cannot be read",
  "invalid-name": "its name is not UTF-8 (a name in another encoding)"
}

// Document properties by their names in the files (S4).
const propertyJa: Record<string, string> = {
  title: "タイトル", subject: "件名", author: "作成者", keywords: "キーワード", description: "コメント", category: "分類",
  company: "会社", manager: "管理者", lastModifiedBy: "最終更新者"
}

const appJa: Record<AppKind, string> = { spreadsheet: "表計算", document: "文書", presentation: "プレゼンテーション" }

/** The words of an extraction's places that are not a number or a cell (`header`, `footnote:3`, `A1 comment`, …), in Japanese. */
const placeJa: Record<string, string> = {
  header: "ヘッダー", footer: "フッター", footnote: "脚注", endnote: "文末脚注", comment: "コメント", textbox: "テキストボックス",
  chart: "グラフ", drawing: "図形", shape: "図形", link: "リンク"
}

/** A place in a document that is no paragraph number (`header`, `footnote:3`, `comment:0`, `textbox`): `ヘッダー`, `脚注 3`, `コメント`. */
function paragraphPlaceJa(loc: string): string {
  const [word = "", n] = loc.split(":")
  const name = placeJa[word]
  if (name === undefined) return loc
  return n !== undefined && n !== "" && word !== "comment" ? `${name} ${n}` : name
}

/** A place in a sheet: `B3`, `B3（コメント）` for `B3 comment`, `（ヘッダー）` for `header`, after the sheet's name. */
function cellPlaceJa(part: string, loc: string): string {
  const m = /^([A-Z]+\d+)(?: ([a-z]+))?$/.exec(loc)
  if (m !== null) return m[2] === undefined ? `${part}!${m[1]}` : `${part}!${m[1]}（${placeJa[m[2]] ?? m[2]}）`
  const name = placeJa[loc]
  return name === undefined ? `${part}!${loc}` : `${part}（${name}）`
}

// A code with what was seen: `unreadable: EACCES …`, or the bare code.
const codeAndDetail = (code: string, detail: string) => (detail === "" ? code : `${code}: ${detail}`)

/**
 * A moment for the log (R4): local time with its offset from UTC,
 * `2026-12-01 21:40:12 +09:00`; `utcOffsetMinutes` is east of UTC (the
 * negation of `Date#getTimezoneOffset`).
 */
export function logTimestamp(ms: number, utcOffsetMinutes: number): string {
  const seconds = Math.floor(ms / 1000) + utcOffsetMinutes * 60
  const days = Math.floor(seconds / 86_400)
  const inDay = seconds - days * 86_400
  // The civil date of a day count since 1970-01-01 (H. Hinnant's days_from_civil, inverted): pure arithmetic.
  const z = days + 719_468
  const era = Math.floor(z / 146_097)
  const doe = z - era * 146_097
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365)
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0)
  const two = (n: number) => String(n).padStart(2, "0")
  const abs = Math.abs(utcOffsetMinutes)
  return `${year}-${two(month)}-${two(day)} ${two(Math.floor(inDay / 3600))}:${two(Math.floor((inDay % 3600) / 60))}:${two(inDay % 60)} ` +
    `${utcOffsetMinutes < 0 ? "-" : "+"}${two(Math.floor(abs / 60))}:${two(abs % 60)}`
}

/**
 * A moment as `status` shows it (R3): local date and time to the minute,
 * `2026-12-01 21:40` ({@link logTimestamp} without seconds and offset).
 */
export function statusTime(ms: number, utcOffsetMinutes: number): string {
  return logTimestamp(ms, utcOffsetMinutes).slice(0, 16)
}

// An example value of a search option that takes one (the message of a value left out).
const missingValueExample = (option: string): string =>
  ({ "--limit": "20", "--offset": "20", "--type": "excel", "--sort": "modified", "--since": "2024-04-01", "--until": "2024-04-01", "--folder": "見積/2024", "--only": "共有" } as Record<string, string>)[option] ?? "…"

const ja: Catalogue = {
  lockHeld: "ほかのインデックス作成が実行中です。インデックス作成が終わってから実行してください。",
  noTargetsNeeded: "取り込みが必要なファイルはありません。",
  cloudOnlyLeft: "クラウドにだけあるファイルは、ダウンロードせずに残しました",
  sourceVanished: "元のファイルが無くなったため、取り込まずに一覧から除きます。",
  completed: (ok, failed) => `インデックス作成が完了しました。（成功: ${ok} 件 / 失敗: ${failed} 件）`,
  stopped: (ok, failed) => `インデックス作成を中止しました。（成功: ${ok} 件 / 失敗: ${failed} 件）`,
  noEnabledIndex: (work = "") => `チェックの付いたインデックスがありません。sagasu add 名前 フォルダ${work} で追加してください。`,
  targetFolderMissing: (name, path, others, work = "") =>
    `インデックス「${name}」のフォルダが見つかりません: ${path}\n` +
    `フォルダを使えるようにしてからもう一度実行するか、` +
    (others.length > 0 ? `ほかのインデックスだけを更新するなら sagasu index ${others.map((o) => `--only ${quoteArg(o)}`).join(" ")}${work}、` : "") +
    `このインデックスを外すなら sagasu disable ${quoteArg(name)}${work}（フォルダが移ったなら sagasu move ${quoteArg(name)} 新しいフォルダ${work}）を実行してください。`,
  workFolderNotReady: (path, why) => `作業フォルダを使えません（${path}）: ${why}`,
  failedFilesHeading: "失敗したファイルと原因:",
  failedFilesGroup: (reason, count) => `${reason}（${count} 件）`,
  failedFilesMore: (more, work = "") => `ほか ${more} 件。すべてのファイルと詳しい原因は sagasu status --failed${work} で表示します。`,
  failedFilesDetails: (work = "") => `詳しい原因は sagasu status --failed${work} で表示します。`,
  failureReason: (reason) => failureReasonJa[reason],
  failure: (f) => (failureDetail(f) === "" ? failureReasonJa[f.reason] : `${failureReasonJa[f.reason]}（${failureDetail(f)}）`),
  onlyNameSkipped: (name, reason) =>
    reason === "unknown" ? `インデックス「${name}」は設定にありません。飛ばします。` : `インデックス「${name}」はチェックが付いていません。飛ばします。`,
  noneOfOnlyNames: "選んだインデックスはどれも更新できません。",
  // --- issue 16: the ends of a run that ingested nothing ---
  planCancelled: "取り込みの確認で取り消したため、インデックス作成をやめました。ファイルは 1 件も取り込んでいません。",
  planTimedOut: (minutes) => `取り込みの確認に ${minutes} 分返事が無かったため、インデックス作成をやめました。ファイルは 1 件も取り込んでいません。`,
  knownIndexNames: (indexes, work = "") =>
    indexes.length === 0
      ? ja.noIndexes(work)
      : `登録されているインデックス: ${indexes.map((i) => `${i.name}${i.enabled ? "" : "（無効）"}`).join("、")}（sagasu list${work} で一覧できます）`,
  workFolderReady: (path, work = "") => `作業フォルダを用意しました: ${path}\n次は sagasu add 名前 フォルダ${work} でインデックスを追加します。`,
  workFolderAlreadyReady: (path, indexes, work = "") =>
    `作業フォルダはもう用意されています（設定とインデックスはそのままです）: ${path}` +
    (indexes === 0 ? `\n次は sagasu add 名前 フォルダ${work} でインデックスを追加します。` : `\nインデックスは ${indexes} 個あります（sagasu list${work} で一覧できます）。`),
  workFolderUnusable: (problem, path, work = "") =>
    `作業フォルダを使えません（${path}）: ` + {
      "missing": `フォルダがありません。sagasu init${work} で作ってください`,
      "not-a-folder": "フォルダではなくファイルです",
      "not-writable": "フォルダに書き込めません",
      "not-initialised": `Sagasu の作業フォルダではありません。先に sagasu init${work} を実行してください`,
      "unknown-layout": "別の版の Sagasu が作ったフォルダです"
    }[problem],
  settingsUnusable: (problem, path) =>
    `設定ファイル ${path} ` + {
      "missing": "がありません。sagasu init で作ってください",
      "unreadable": "を読めません",
      "invalid-json": "は JSON として読めません。直すか、消して sagasu init で作り直してください",
      "invalid": "の設定に誤りがあります。直してください"
    }[problem],
  storeFileUnreadable: (name, detail, file) =>
    `作業フォルダのファイル ${name} を読めませんでした（${detail}）。何も変更・削除していません。ディスクとファイルの権限を確かめてから、もう一度実行してください（${file}）`,
  workStoreFailed: (problem, path) =>
    problem === "disk-full"
      ? `作業フォルダのディスクがいっぱいです（${path}）。空きを作ってから、もう一度インデックス作成を始めてください。止まったところから続きます`
      : `作業フォルダに書き込めませんでした（${path}）。ディスクとフォルダの権限を確かめてから、もう一度実行してください`,
  lockNotTaken: (detail) => `インデックス作成の鍵（二重起動を防ぐしくみ）を取れませんでした: ${detail}`,
  lockHeldShort: "ほかのインデックス作成が鍵を持っています",
  folderUnreadable: (index, path, detail) => `インデックス「${index}」のフォルダを読めません（${path}）: ${detail}`,
  legacyIndexNotice: "前の版のインデックスは使えません。インデックスを作り直します。",
  oldSystemIndexNotRemoved: (detail) => `前の版の検索用ファイルを消せませんでした: ${detail}`,
  targetFolderLost: (name, path) => `インデックス「${name}」のフォルダが見つからなくなりました: ${path}。フォルダを使えるようにしてから、もう一度インデックス作成を始めると続きから取り込みます。`,
  crawling: (name, path) => `クロール中: ${name}（${path}）`,
  targetCounts: (total) => `取り込み対象: ${total} 件`,
  waitingForAnswer: "取り込みの確認を待っています",
  publishing: "本文インデックスに書き出しています",
  rewritingIngestList: "取り込み一覧を書き直しています",
  updatingGram: "gram 索引を合わせています",
  gramFailed: (detail) => `gram 索引を更新できませんでした（次回に作り直します）: ${detail}`,
  cloudSkippedIn: (name, count) => `インデックス「${name}」: クラウドにだけあるファイル ${count} 件をダウンロードせずに残しました`,
  indexRefused: (r) => {
    switch (r._tag) {
      case "NameEmpty": return "名前を入力してください。"
      case "NameSpaces": return "名前の前後に空白は使えません。"
      case "NameTooLong": return "名前は 100 文字までにしてください。"
      case "NameChars": return `名前に \\ / : * ? " < > | と制御文字は使えません（「.」「..」も名前にできません）: ${r.name}`
      case "NameTaken": return `「${r.name}」という名前のインデックスはもうあります。`
      case "NoSuchIndex": return `「${r.name}」という名前のインデックスはありません。`
      case "FolderEmpty": return "フォルダのパスを入力してください。"
      case "FolderRelative": return `フォルダは「/」（Windows は「C:\\」など）から始まる完全なパスで入力してください: ${r.path}`
      case "FolderMissing": return `フォルダが見つかりません: ${r.path}`
      case "NotAFolder": return `フォルダではなくファイルです: ${r.path}（インデックスにはフォルダを登録します）`
      case "FolderOverlap":
        return `フォルダ ${r.path} はインデックス「${r.other}」のフォルダ（${r.otherPath}）${relationJa[r.relation]}。` +
          `同じファイルが二重に取り込まれ、検索結果にも二度出るため、登録できません。`
    }
  },
  indexAdded: (name, path, work = "") => `インデックス「${name}」を追加しました: ${path}\n次は sagasu index${work} で取り込みます。`,
  indexEnabled: (name, enabled) =>
    enabled ? `インデックス「${name}」を有効にしました（sagasu index で更新します）。` : `インデックス「${name}」を無効にしました（sagasu index で更新しません。検索には出ます）。`,
  indexRenamed: (from, to) => `インデックス「${from}」の名前を「${to}」に変えました。`,
  indexRemoved: (name, files) => `インデックス「${name}」を削除しました（取り込み一覧の ${files} ファイルとその本文を索引から除きました。元のファイルはそのままです）。`,
  indexMoved: (name, path) => `インデックス「${name}」のフォルダを変えました: ${path}\n次の sagasu index で、変わったファイルだけ取り込み直します。`,
  noIndexes: (work = "") => `インデックスはまだありません。sagasu add 名前 フォルダ${work} で追加してください。`,
  indexListed: (i) => [`${i.name}${i.enabled ? "" : "（無効）"}`, i.path, `済 ${i.done} / 失敗 ${i.failed} / 未取り込み ${i.pending}`],
  logMark: (level) => (level === "warn" ? "[警告]" : "[エラー]"),
  logStarted: (version, at) => `Sagasu ${version} — インデックス作成の開始: ${at}`,
  logEnded: (at, ms) => `インデックス作成の終了: ${at}（所要 ${formatDuration(ms)}）`,
  logEnvironment: (e) => `環境: ${e.os}、Node.js ${e.node}、CPU ${e.cpus} 個、プロセス番号 ${e.pid}`,
  logWorkFolder: (path) => `作業フォルダ: ${path}`,
  logLibreOffice: (version, packages) =>
    version !== undefined
      ? `LibreOffice の版: ${version}`
      : "LibreOffice が見つかりません。LibreOffice で読む形式（fods・fodt・fodp、Office 2003 XML、PowerPoint 3 以前の ppt など）のファイルは失敗します。" +
        `Debian/Ubuntu では sudo apt-get install --no-install-recommends ${packages.join(" ")} でインストールし、もう一度インデックス作成を実行してください。`,
  logSettings: (s, cpus) =>
    `設定: ingestThreads ${s.ingestThreads ?? `${cpus}（CPU の数）`}、cloudFiles ${s.cloudFiles}、fileTimeoutMinutes ${s.fileTimeoutMinutes}、` +
    `officeRecycleAfter ${s.officeRecycleAfter}、language ${s.language}`,
  logIndex: (t) => `インデックス「${t.name}」: ${t.path}${t.enabled ? "" : "（無効）"}`,
  logSkipped: (name, reason, detail) => `飛ばしました: ${name} — ${skipReasonJa[reason]}（${codeAndDetail(reason, detail)}）`,
  logRecovered: (name) => `復旧しました: ${name}（中断した前回の実行が用意した本文を書き出しました）`,
  logNotRecovered: (name, detail) => `復旧できませんでした: ${name} はもう一度取り込みます（${detail}）`,
  logRemovedVanished: (name) => `一覧から除きました: ${name}（元のファイルが無くなりました）`,
  logCloudOnlyFile: (name) => `  クラウドのみ: ${name}`,
  logLeftoverEnded: (pid, command) => `中断した実行が残したプロセスを終了しました: ${pid} ${command}`,
  logIndexCounts: (c) =>
    `インデックス「${c.index}」: 新規 ${c.new}、変更 ${c.changed}、未取り込み ${c.pending}、再試行 ${c.retry}、変更なし ${c.unchanged}、` +
    `前回失敗 ${c.failedLastTime}、前回失敗・環境（再試行） ${c.failedByEnvironment}、削除 ${c.vanished}`,
  logIngestPhase: (ms) => `取り込み段階: ${(ms / 1000).toFixed(1)} 秒（振り分け、結果の記録、書き出し、後片付け）`,
  logGramUpdated: (c, ms) =>
    c === undefined
      ? `gram 索引を更新しました: ${(ms / 1000).toFixed(1)} 秒`
      : `gram 索引を更新しました: ${c.indexed} ファイル（うち取り込み中に ${c.prebuilt}）、削除 ${c.removed}、マージ ${c.merges} 回、` +
        `セグメント ${c.segments}、${(ms / 1000).toFixed(1)} 秒`,
  logFinallyFailed: (detail) => `最後の後片付け（書き出しと取り込み一覧の書き直し）に失敗しました: ${detail}`,
  logFile: (name, o) => {
    switch (o._tag) {
      case "done": return `${name}: 取り込みました`
      case "stopped": return `${name}: 中止したため、未取り込みのまま残します`
      case "folderGone": return `${name}: フォルダが無くなったため記録せず、未取り込みのまま残します`
      case "sourceVanished": return `${name}: ${ja.sourceVanished}`
      case "notRecorded": return `${name}: 記録できず、未取り込みのまま残します — ${ja.failure(o.failure)}`
      case "failed": return `${name}: 失敗 — ${ja.failure(o.failure)}`
      case "rerouted": return `${name}: Office が無いと読めない内容のため、${appJa[o.app]}の担当（LibreOffice）に回しました`
    }
  },
  logNote: (n) => {
    switch (n._tag) {
      case "Read": return `${n.parts} パート、${n.lines} 行、${n.ms} ms`
      case "NoText": return "注意: 文字が見つかりません。エラーなく読めましたが、Sagasu が読む文字が何もありません"
      case "ReadWithoutOffice": return "Office を使わずに読みました（変換の要らない内容でした）"
      case "Converted":
        return (n.started === undefined ? "" : `LibreOffice を起動しました（プロセス ${n.started.process}、${n.started.ms} ms）。`) +
          `${n.ext} に変換しました（${n.ms} ms、このプロセスで ${n.fileOfProcess} 件目）`
      case "OfficeNoText": return `注意: LibreOffice でも文字を読めませんでした（${n.detail}）`
    }
  },
  logNotKept: (detail) => `前回のログを残せませんでした: ${detail}`,
  logNotOpened: (detail) => `ログファイルを開けませんでした: ${detail}`,
  logNotWritten: (detail) => `ログファイルに書き込めませんでした: ${detail}`,
  unexpectedError: (detail) => `予期しないエラーです: ${detail}`,
  workFolderFull: (detail) => `作業フォルダのディスクがいっぱいです。空きを作ってから、もう一度インデックス作成を始めると続きから取り込みます。（${detail}）`,
  quietWithVerbose: "--quiet と --verbose は一緒に使えません。",
  stoppingRun: "中止しています…（もう一度 Ctrl+C で今すぐ終了）",
  askStartIngest: "取り込みを始めますか？ [y/N] ",
  planHeading: "インデックス",
  planLabels: ["新規", "変更", "未取り込み", "前回失敗", "前回失敗・環境（再試行）", "クラウドのみ", "変更なし", "削除"],
  runPhase: (phase) => ({ crawl: "クロール", confirm: "確認", ingest: "取り込み", finalize: "仕上げ" })[phase],
  statusNoRun: "まだインデックス作成をしていません。",
  // The phase only of a run that did not end (where it was); an ended run's last phase read as if it were still in it.
  statusLastRun: (p) =>
    (p.exitCode === undefined && p.running === true
      ? `インデックス作成: 実行中 — ${ja.runPhase(p.phase)}、`
      : `前回のインデックス作成: ${p.exitCode === undefined ? `${p.running === false ? "強制終了" : "実行中（または強制終了）"}${p.at === undefined ? "" : `（最後の記録 ${p.at}）`} — ${ja.runPhase(p.phase)}、` : `${{ 0: "完了", 1: "エラー", 2: "中止" }[p.exitCode]}${p.at === undefined ? "" : `（${p.at} に終了）`} — `}`) +
    `処理済み ${p.processed}、残り ${p.remaining}、失敗 ${p.failed}`,
  statusCurrent: (current, running) => `${running ? "いま" : "最後の記録"}: ${current}`,
  statusPendingRunning: "未取り込みのファイルは、実行中のインデックス作成が取り込みます。",
  statusFailedHint: (work = "") => `失敗したファイルと原因は sagasu status --failed${work} で表示します。`,
  statusPendingHint: (work = "") => `未取り込みのファイルがあります。sagasu index${work} で続きから再開します。`,
  statusNoFailed: "失敗したファイルはありません。",
  statusFailedIndex: (name, path, count) => `${name}  ${path ?? "（設定にないインデックス）"}  失敗 ${count}`,
  statusFailedFile: (path, failure, environment) => `  ${path}: ${failure}${environment ? "（環境の問題: 次のインデックス作成で再試行）" : ""}`,
  guiAddress: (url) => `Sagasu の画面: ${url}`,
  guiOpened: (opened) => `${opened ? "ブラウザで開きました。" : "このアドレスをブラウザで開いてください。"}終わるときは Ctrl+C を押します。`,
  guiStopped: "Sagasu の画面を終了しました。",
  indexResumeHint: (pending, work = "") => `未取り込みの ${pending} 件は、次の sagasu index${work} で続きから取り込みます。`,
  resumingPending: (pending) => `前回中止・中断した実行の続きです（そのとき未取り込みだった ${pending} 件も取り込みます）。`,
  indexRetryFailedHint: (failed, work = "") =>
    `前回失敗した ${failed} 件は取り込み直していません（原因は sagasu status --failed${work}）。直したら sagasu index --retry-failed${work} で取り込み直します。`,
  guiCannotListen: (port, detail) => `画面のサーバーを 127.0.0.1:${port} で始められませんでした（ほかのプログラムが使っていませんか。--port で変えられます）: ${detail}`,
  guiBadPort: "--port には 1 から 65535 までの数を指定してください。",
  searchNone: (q) => `「${q}」は見つかりませんでした。`,
  searchNoneExclusionsAsText: "- で始まる語だけのときは、その文字列そのものを探します。除外するには、探す語の後に並べてください（例: 見積 -山田）。",
  searchNoneFiltered: (filters) => `絞り込み（${filters}）の中を探しました。外すと、すべてのファイルから探します。`,
  searchFileHits: (n) => `${n} 件`,
  searchTotals: (hits, files, exact) => `${hits} 件${exact ? "" : "以上"}（${files} ファイル${exact ? "" : "以上"}）`,
  searchPage: (from, to) => `: ${from}〜${to} ファイル目`,
  searchMore: (next) => `（続きは --offset ${next}）`,
  searchScanned: (work = "") => `検索用の索引がまだ無いため、本文インデックスを順に調べました（sagasu index${work} で作られます）。`,
  searchPartial: "検索に時間がかかったため途中で打ち切りました。ここまでに見つかった結果です。",
  contextLabel: (which) => ({ column: "列", row: "行", title: "タイトル", previous: "前", next: "次" })[which],
  searchWithDefaultSettings: "（設定ファイルを直すまで、既定の設定で検索します）",
  searchLocation: (locator, part, loc) => {
    switch (locator) {
      case "cell": return cellPlaceJa(part, loc)
      case "paragraph": return /^\d+$/.test(loc) ? `¶${loc}` : paragraphPlaceJa(loc)
      case "slide": {
        const [n, notes] = loc.split(" ")
        return `スライド ${n ?? loc}${notes === "notes" ? "（ノート）" : ""}`
      }
      case "property": return `プロパティ: ${propertyJa[loc] ?? loc}`
      case "name": return loc === "sheet" ? `シート名: ${part}` : "ファイル名"
    }
  },
  searchBadLimit: (value) => `--limit には 1 以上の整数を指定してください（指定: ${value}）。`,
  searchBadOffset: (value) => `--offset には 0 以上の整数を指定してください（指定: ${value}）。`,
  searchBadType: (value, groups, types) => `--type "${value}" という種類はありません。使えるのは ${groups.join("、")} か、拡張子 ${types.join("、")} です。`,
  searchMissingValue: (option) => `${option} の後に値がありません（例: ${option} ${missingValueExample(option)}）。`,
  cliUnknownCommand: (word, commands, command) =>
    `「${word}」というコマンドは ${command} にありません。使えるのは ${commands.join("、")} です（${command} --help）。`,
  cliMissingArgument: (argument, command) => `${argument} を指定してください（${command} --help）。`,
  cliUnknownArgument: (arg, command) => `「${arg}」は ${command} の引数にもオプションにもありません（${command} --help）。`,
  cliWorkValue: "--work の後に作業フォルダを、その後にコマンドを書きます（例: sagasu --work ~/sagasu list）。",
  cliWorkTwice: "--work は一度だけ書きます（作業フォルダは一つです）。",
  searchUnknownOption: (arg) =>
    `${arg} という search のオプションはありません（sagasu search --help）。- で始まる言葉を探すときは、-- の後に書きます（sagasu search -- ${arg} …）。`,
  searchBadSort: (value) => `--sort には relevance（関連度順）か modified（新しい順）を指定してください（指定: ${value}）。`,
  searchBadDate: (option, value) => `${option} には 2024-04-01 や 2024/4/1 のような日付を指定してください（指定: ${value}）。`,
  searchBadIndex: (value, names) =>
    names.length === 0
      ? `インデックス「${value}」はありません。まだインデックスが登録されていません（sagasu add 名前 フォルダ）。`
      : `インデックス「${value}」はありません。登録されているのは${names.map((n) => `「${n}」`).join("")}です。`,
  teamNotConfigured: "チームサーバーが設定されていません。setting.config に teamServer（接続先の url）を書いてください。",
  teamUnreachable: (server, detail) => `チームサーバー（${server}）を使えません: ${detail}`,
  teamPasswordFileUnreadable: (file, detail) => `チームサーバーのパスワードのファイル ${file} を読めません: ${detail}`,
  teamNoPassword: (server, env) =>
    `チームサーバー（${server}）がパスワードを求めていますが、見つかりません。環境変数 ${env} に入れるか、setting.config の teamServer.passwordFile にパスワードのファイルを書いてください。`,
  teamSchemaNewer: (found, known) =>
    `チームサーバーのデータは新しい版の Sagasu が作ったものです（形式 ${found}、この版が読めるのは ${known} まで）。Sagasu を新しくしてください。`,
  teamNothingPublished: "チームサーバーにはまだ何も公開されていません。インデックスを作るパソコンで sagasu publish を実行してください。",
  teamPublishing: (index) => `チームサーバーに公開しています: ${index}`,
  teamPublished: (index, c) =>
    `チームサーバーに公開しました: インデックス「${index}」 公開 ${c.published} 件 / 削除 ${c.removed} 件 / 変更なし ${c.unchanged} 件（世代 ${c.generation}）`,
  teamPublishFailed: (detail) => `チームサーバーに公開できませんでした（次のインデックス作成か sagasu publish で続きから公開します）: ${detail}`,
  teamNoSuchIndex: (index) => `チームサーバーに「${index}」という名前のインデックスはありません。先に sagasu publish で公開してください。`,
  teamGranted: (index, role, granted) =>
    granted ? `インデックス「${index}」をロール ${role} が検索できるようにしました。` : `ロール ${role} はインデックス「${index}」を検索できなくなりました。`,
  teamConnected: (server, search, passwordEnv) =>
    `チームサーバーを設定しました: ${server}\n` +
    (search ? "sagasu search と画面の検索は、このチームサーバーを検索します。" : "sagasu index の終わりと sagasu publish で、このチームサーバーに公開します。") +
    `パスワードは環境変数 ${passwordEnv}（または teamServer.passwordFile、PGPASSWORD、~/.pgpass）から読みます。`,
  teamUrlRefused: (reason) =>
    reason === "password-in-url"
      ? "接続先にパスワードを書かないでください（setting.config に残ります）。パスワードは環境変数 SAGASU_TEAM_PASSWORD か --password-file のファイルで渡します。"
      : "接続先は postgres://ユーザー@ホスト/データベース の形で書いてください。",
}

const en: Catalogue = {
  lockHeld: "Another indexing run is in progress. Run this again after it has finished.",
  noTargetsNeeded: "No files need to be ingested.",
  cloudOnlyLeft: "Files that exist only in the cloud were left without downloading them",
  sourceVanished: "The source file is gone, so it is removed from the list without ingesting it.",
  completed: (ok, failed) => `Indexing completed. (succeeded: ${ok} / failed: ${failed})`,
  stopped: (ok, failed) => `Indexing was stopped. (succeeded: ${ok} / failed: ${failed})`,
  noEnabledIndex: (work = "") => `No index is enabled. Add one with: sagasu add NAME PATH${work}`,
  targetFolderMissing: (name, path, others, work = "") =>
    `The folder of index "${name}" was not found: ${path}\n` +
    `Make it available and run again, ` +
    (others.length > 0 ? `update only the other indexes with sagasu index ${others.map((o) => `--only ${quoteArg(o)}`).join(" ")}${work}, ` : "") +
    `or leave this index out with sagasu disable ${quoteArg(name)}${work} (if the folder moved: sagasu move ${quoteArg(name)} NEW-FOLDER${work}).`,
  workFolderNotReady: (path, why) => `The work folder cannot be used (${path}): ${why}`,
  failedFilesHeading: "Files that failed, with the reason:",
  failedFilesGroup: (reason, count) => `${reason} (${count})`,
  failedFilesMore: (more, work = "") => `…and ${more} more; sagasu status --failed${work} shows every file with the details.`,
  failedFilesDetails: (work = "") => `sagasu status --failed${work} shows the details.`,
  failureReason: (reason) => failureReasonEn[reason],
  failure: (f) => (failureDetail(f) === "" ? failureReasonEn[f.reason] : `${failureReasonEn[f.reason]} (${failureDetail(f)})`),
  onlyNameSkipped: (name, reason) =>
    reason === "unknown" ? `The index "${name}" is not in the settings; skipped.` : `The index "${name}" is not enabled; skipped.`,
  noneOfOnlyNames: "None of the chosen indexes can be updated.",
  // --- issue 16: the ends of a run that ingested nothing ---
  planCancelled: "Indexing was cancelled at the confirmation; no file was ingested.",
  planTimedOut: (minutes) => `The confirmation had no answer for ${minutes} minute(s), so indexing was cancelled; no file was ingested.`,
  knownIndexNames: (indexes, work = "") =>
    indexes.length === 0
      ? en.noIndexes(work)
      : `The indexes: ${indexes.map((i) => `${i.name}${i.enabled ? "" : " (disabled)"}`).join(", ")} (sagasu list${work} shows them)`,
  workFolderReady: (path, work = "") => `Work folder ready: ${path}\nNext: sagasu add NAME PATH${work}`,
  workFolderAlreadyReady: (path, indexes, work = "") =>
    `The work folder is there already (its settings and indexes are kept): ${path}` +
    (indexes === 0 ? `\nNext: sagasu add NAME PATH${work}` : `\nIt has ${indexes} index(es) (sagasu list${work} lists them).`),
  workFolderUnusable: (problem, path, work = "") =>
    `The work folder cannot be used (${path}): ` + {
      "missing": `the folder does not exist; create it with \`sagasu init${work}\``,
      "not-a-folder": "the path is a file, not a folder",
      "not-writable": "the folder cannot be written",
      "not-initialised": `it is not a Sagasu work folder; run \`sagasu init${work}\` first`,
      "unknown-layout": "it was made by another version of Sagasu"
    }[problem],
  settingsUnusable: (problem, path) =>
    `Settings file ${path}: ` + {
      "missing": "the file does not exist; run `sagasu init`",
      "unreadable": "the file cannot be read",
      "invalid-json": "the file is not valid JSON; fix it or delete it and run `sagasu init`",
      "invalid": "some settings are wrong; fix them"
    }[problem],
  storeFileUnreadable: (name, detail, file) =>
    `The work folder's file ${name} could not be read (${detail}); nothing was changed or deleted: check the disk and the file's permissions, then start again (${file})`,
  workStoreFailed: (problem, path) =>
    problem === "disk-full"
      ? `The disk of the work folder is full (${path}): free some space and start indexing again; it continues where it stopped`
      : `The work folder could not be written (${path}): check the disk and the folder's permissions, then start again`,
  lockNotTaken: (detail) => `the lock could not be taken: ${detail}`,
  lockHeldShort: "another indexing run holds the lock",
  folderUnreadable: (index, path, detail) => `The folder of index "${index}" cannot be read (${path}): ${detail}`,
  legacyIndexNotice: "The index of an older version cannot be used; it will be built again.",
  oldSystemIndexNotRemoved: (detail) => `The search files of the previous version could not be removed: ${detail}`,
  targetFolderLost: (name, path) => `The folder of index "${name}" disappeared: ${path}. Make it available again and start indexing; it continues where it stopped.`,
  crawling: (name, path) => `Crawling: ${name} (${path})`,
  targetCounts: (total) => `Files to ingest: ${total}`,
  waitingForAnswer: "Waiting for the go-ahead",
  publishing: "Publishing to the body index",
  rewritingIngestList: "Rewriting the ingest list",
  updatingGram: "Updating the 2-gram index",
  gramFailed: (detail) => `The 2-gram index could not be updated (the next run rebuilds it): ${detail}`,
  cloudSkippedIn: (name, count) => `Index "${name}": ${count} cloud-only file(s) left without downloading`,
  indexRefused: (r) => {
    switch (r._tag) {
      case "NameEmpty": return "Enter a name."
      case "NameSpaces": return "A name must not start or end with spaces."
      case "NameTooLong": return "A name must be at most 100 characters."
      case "NameChars": return `A name must not contain \\ / : * ? " < > | or control characters, nor be "." or "..": ${r.name}`
      case "NameTaken": return `There is already an index named "${r.name}".`
      case "NoSuchIndex": return `There is no index named "${r.name}".`
      case "FolderEmpty": return "Enter the folder's path."
      case "FolderRelative": return `Enter the folder's full path (starting with / or a drive such as C:\\): ${r.path}`
      case "FolderMissing": return `The folder was not found: ${r.path}`
      case "NotAFolder": return `This is a file, not a folder: ${r.path} (an index is a folder)`
      case "FolderOverlap":
        return `The folder ${r.path} ${relationEn[r.relation]} index "${r.other}" (${r.otherPath}); ` +
          `its files would be ingested twice and every hit shown twice, so it cannot be registered.`
    }
  },
  indexAdded: (name, path, work = "") => `Added index "${name}": ${path}\nNext: sagasu index${work}`,
  indexEnabled: (name, enabled) =>
    enabled ? `Index "${name}" is enabled (sagasu index updates it).` : `Index "${name}" is disabled (sagasu index leaves it; its files are still found).`,
  indexRenamed: (from, to) => `Index "${from}" is now named "${to}".`,
  indexRemoved: (name, files) => `Removed index "${name}" (its ${files} file(s) of the ingest list and their text are out of the index; the files themselves are untouched).`,
  indexMoved: (name, path) => `Index "${name}" now has the folder ${path}\nThe next sagasu index ingests again only what differs.`,
  noIndexes: (work = "") => `There are no indexes yet. Add one with: sagasu add NAME PATH${work}`,
  indexListed: (i) => [`${i.name}${i.enabled ? "" : " (disabled)"}`, i.path, `done ${i.done} / failed ${i.failed} / pending ${i.pending}`],
  logMark: (level) => (level === "warn" ? "[WARN]" : "[ERROR]"),
  logStarted: (version, at) => `Sagasu ${version} — indexing run started ${at}`,
  logEnded: (at, ms) => `Indexing run ended ${at} (took ${formatDuration(ms)})`,
  logEnvironment: (e) => `OS: ${e.os}, Node.js ${e.node}, ${e.cpus} CPU(s), pid ${e.pid}`,
  logWorkFolder: (path) => `Work folder: ${path}`,
  logLibreOffice: (version, packages) =>
    version !== undefined
      ? `LibreOffice: ${version}`
      : "LibreOffice: not found — files that need it (fods/fodt/fodp, Office 2003 XML, PowerPoint 3 and older ppt, …) fail. " +
        `Install it (Debian/Ubuntu: sudo apt-get install --no-install-recommends ${packages.join(" ")}) and run the indexing again.`,
  logSettings: (s, cpus) =>
    `Settings: ingestThreads ${s.ingestThreads ?? `${cpus} (CPU count)`}, cloudFiles ${s.cloudFiles}, fileTimeoutMinutes ${s.fileTimeoutMinutes}, ` +
    `officeRecycleAfter ${s.officeRecycleAfter}, language ${s.language}`,
  logIndex: (t) => `Index ${t.name}: ${t.path}${t.enabled ? "" : " (disabled)"}`,
  logSkipped: (name, reason, detail) => `skipped: ${name} — ${skipReasonEn[reason]} (${codeAndDetail(reason, detail)})`,
  logRecovered: (name) => `recovered: ${name} (published the TSVs staged by an interrupted run)`,
  logNotRecovered: (name, detail) => `not recovered: ${name} is ingested again (${detail})`,
  logRemovedVanished: (name) => `removed: ${name} (the source file is gone)`,
  logCloudOnlyFile: (name) => `  cloud-only: ${name}`,
  logLeftoverEnded: (pid, command) => `ended a process an interrupted run left: ${pid} ${command}`,
  logIndexCounts: (c) =>
    `${c.index}: new ${c.new}, changed ${c.changed}, pending ${c.pending}, retry ${c.retry}, unchanged ${c.unchanged}, ` +
    `failed last time ${c.failedLastTime}, failed last time for the environment (retried) ${c.failedByEnvironment}, vanished ${c.vanished}`,
  logIngestPhase: (ms) => `ingest phase: ${(ms / 1000).toFixed(1)} s (dispatch, results, publish and the finally step)`,
  logGramUpdated: (c, ms) =>
    c === undefined
      ? `2-gram index updated: ${(ms / 1000).toFixed(1)} s`
      : `2-gram index updated: ${c.indexed} file(s) indexed (${c.prebuilt} while ingesting), ${c.removed} removed, ` +
        `${c.merges} merge(s), ${c.segments} segment(s), ${(ms / 1000).toFixed(1)} s`,
  logFinallyFailed: (detail) => `The finally step (publishing, rewriting the ingest list) failed: ${detail}`,
  logFile: (name, o) => {
    switch (o._tag) {
      case "done": return `${name}: done`
      case "stopped": return `${name}: stopped (stays pending)`
      case "folderGone": return `${name}: not recorded (stays pending): its folder is gone`
      case "sourceVanished": return `${name}: ${en.sourceVanished}`
      case "notRecorded": return `${name}: not recorded (stays pending) — ${en.failure(o.failure)}`
      case "failed": return `${name}: failed — ${en.failure(o.failure)}`
      case "rerouted": return `${name}: reading it needs Office; handed to the ${o.app} owner`
    }
  },
  logNote: (n) => {
    switch (n._tag) {
      case "Read": return `${n.parts} part(s), ${n.lines} line(s), ${n.ms} ms`
      case "NoText": return "warning: no text found in it: it was read without error, but nothing in it is text Sagasu reads"
      case "ReadWithoutOffice": return "read without Office: the content needs no conversion"
      case "Converted":
        return (n.started === undefined ? "" : `LibreOffice started (process ${n.started.process}, ${n.started.ms} ms); `) +
          `converted to ${n.ext} in ${n.ms} ms (file ${n.fileOfProcess} of this process)`
      case "OfficeNoText": return `warning: LibreOffice read no text from it (${n.detail})`
    }
  },
  logNotKept: (detail) => `the previous log could not be kept: ${detail}`,
  logNotOpened: (detail) => `the log file could not be opened: ${detail}`,
  logNotWritten: (detail) => `the log file could not be written: ${detail}`,
  unexpectedError: (detail) => `Unexpected error: ${detail}`,
  workFolderFull: (detail) => `The disk of the work folder is full: free some space and start indexing again; it continues where it stopped. (${detail})`,
  quietWithVerbose: "--quiet and --verbose cannot be used together.",
  stoppingRun: "Stopping… (Ctrl+C again to quit at once)",
  askStartIngest: "Start ingesting? [y/N] ",
  planHeading: "index",
  planLabels: ["new", "changed", "pending", "failed last time", "failed last time, environment (retried)", "cloud-only", "unchanged", "vanished"],
  runPhase: (phase) => phase,
  statusNoRun: "No indexing run yet.",
  statusLastRun: (p) =>
    (p.exitCode === undefined && p.running === true
      ? `Indexing run: running — ${en.runPhase(p.phase)}, `
      : `Last indexing run: ${p.exitCode === undefined ? `${p.running === false ? "killed" : "running (or killed)"}${p.at === undefined ? "" : ` (last recorded ${p.at})`} — ${en.runPhase(p.phase)}, ` : `${{ 0: "completed", 1: "error", 2: "stopped" }[p.exitCode]}${p.at === undefined ? "" : ` (ended ${p.at})`} — `}`) +
    `processed ${p.processed}, remaining ${p.remaining}, failed ${p.failed}`,
  statusCurrent: (current, running) => `${running ? "now" : "last recorded"}: ${current}`,
  statusPendingRunning: "The pending files are taken up by the run going on now.",
  statusFailedHint: (work = "") => `sagasu status --failed${work} lists the failed files and why.`,
  statusPendingHint: (work = "") => `Some files are pending; sagasu index${work} resumes where it stopped.`,
  statusNoFailed: "No file failed.",
  statusFailedIndex: (name, path, count) => `${name}  ${path ?? "(not in the settings)"}  failed ${count}`,
  statusFailedFile: (path, failure, environment) => `  ${path}: ${failure}${environment ? " (the environment's: retried by the next run)" : ""}`,
  guiAddress: (url) => `Sagasu: ${url}`,
  guiOpened: (opened) => `${opened ? "Opened in the browser." : "Open this address in a browser."} Press Ctrl+C to quit.`,
  guiStopped: "The Sagasu page has stopped.",
  indexResumeHint: (pending, work = "") => `The ${pending} files not ingested yet are taken up by the next sagasu index${work}.`,
  resumingPending: (pending) => `This run goes on from a stopped or interrupted one (the ${pending} files it left pending are ingested too).`,
  indexRetryFailedHint: (failed, work = "") =>
    `The ${failed} files that failed last time were not tried again (why: sagasu status --failed${work}); once mended, sagasu index --retry-failed${work} tries them again.`,
  guiCannotListen: (port, detail) => `The GUI server could not listen on 127.0.0.1:${port} (is another program using it? --port picks another): ${detail}`,
  guiBadPort: "--port must be a number from 1 to 65535.",
  searchNone: (q) => `No hits for "${q}".`,
  searchNoneExclusionsAsText: "A query of words that all begin with - looks for them as text; to exclude a word, put it after a word to find (say, invoice -Smith).",
  searchNoneFiltered: (filters) => `Searched only within ${filters}; without them, every file is searched.`,
  searchFileHits: (n) => `${n} ${n === 1 ? "hit" : "hits"}`,
  searchTotals: (hits, files, exact) => `${hits}${exact ? "" : "+"} ${hits === 1 && exact ? "hit" : "hits"} (${files}${exact ? "" : "+"} ${files === 1 && exact ? "file" : "files"})`,
  searchPage: (from, to) => `: files ${from}–${to}`,
  searchMore: (next) => ` (more: --offset ${next})`,
  searchScanned: (work = "") => `The search index is not built yet; the body index was scanned (run \`sagasu index${work}\`).`,
  searchPartial: "The search took too long and stopped: these are the hits found so far.",
  contextLabel: (which) => ({ column: "column", row: "row", title: "title", previous: "before", next: "after" })[which],
  searchWithDefaultSettings: "(searching with the default settings until it is fixed)",
  searchLocation: (locator, part, loc) => {
    switch (locator) {
      case "cell": return /^[A-Z]+\d+( |$)/.test(loc) ? `${part}!${loc}` : `${part} (${loc})`
      case "paragraph": return /^\d+$/.test(loc) ? `¶${loc}` : loc.replace(/^(footnote|endnote):/, "$1 ").replace(/^comment:\d*$/, "comment")
      case "slide": return `slide ${loc}`
      case "property": return `property:${loc}`
      case "name": return loc === "sheet" ? `sheet:${part}` : "name"
    }
  },
  searchBadLimit: (value) => `--limit must be a whole number of 1 or more (got ${value}).`,
  searchBadOffset: (value) => `--offset must be a whole number of 0 or more (got ${value}).`,
  searchBadType: (value, groups, types) => `Unknown --type "${value}": use one of ${groups.join(", ")} or an extension: ${types.join(", ")}.`,
  searchMissingValue: (option) => `${option} needs a value (e.g. ${option} ${missingValueExample(option)}).`,
  cliUnknownCommand: (word, commands, command) =>
    `Unknown command "${word}" for ${command}; the commands are ${commands.join(", ")} (see ${command} --help).`,
  cliMissingArgument: (argument, command) => `Missing argument ${argument} (see ${command} --help).`,
  cliUnknownArgument: (arg, command) => `${arg} is neither an argument nor an option of ${command} (see ${command} --help).`,
  cliWorkValue: "--work takes the work folder, then the command (e.g. sagasu --work ~/sagasu list).",
  cliWorkTwice: "--work is given more than once (there is one work folder).",
  searchUnknownOption: (arg) => `Unknown option ${arg} for search (see sagasu search --help); a word starting with - goes after -- (sagasu search -- ${arg} …).`,
  searchBadSort: (value) => `--sort must be relevance or modified (got ${value}).`,
  searchBadDate: (option, value) => `${option} must be a date such as 2024-04-01 or 2024/4/1 (got ${value}).`,
  searchBadIndex: (value, names) =>
    names.length === 0
      ? `No index "${value}": no index is registered yet (sagasu add NAME PATH).`
      : `No index "${value}": the registered indexes are ${names.map((n) => `"${n}"`).join(", ")}.`,
  teamNotConfigured: "No team server is set. Write teamServer (its url) in setting.config.",
  teamUnreachable: (server, detail) => `The team server (${server}) cannot be used: ${detail}`,
  teamPasswordFileUnreadable: (file, detail) => `The team server's password file ${file} cannot be read: ${detail}`,
  teamNoPassword: (server, env) =>
    `The team server (${server}) asks for a password and none was found. Put it in the environment variable ${env}, or name a file holding it in teamServer.passwordFile of setting.config.`,
  teamSchemaNewer: (found, known) =>
    `The team server's data was made by a newer Sagasu (format ${found}; this version reads up to ${known}). Update Sagasu.`,
  teamNothingPublished: "Nothing has been published to the team server yet. Run sagasu publish on the indexing machine.",
  teamPublishing: (index) => `Publishing to the team server: ${index}`,
  teamPublished: (index, c) =>
    `Published to the team server: index ${index}: ${c.published} published / ${c.removed} removed / ${c.unchanged} unchanged (generation ${c.generation})`,
  teamPublishFailed: (detail) => `Publishing to the team server failed (the next indexing run or sagasu publish goes on from there): ${detail}`,
  teamNoSuchIndex: (index) => `The team server has no index named ${index}. Publish it first with sagasu publish.`,
  teamGranted: (index, role, granted) =>
    granted ? `Role ${role} can now search the index ${index}.` : `Role ${role} can no longer search the index ${index}.`,
  teamConnected: (server, search, passwordEnv) =>
    `The team server is set: ${server}\n` +
    (search ? "sagasu search and the GUI search this team server. " : "sagasu index (at its end) and sagasu publish publish to this team server. ") +
    `The password is read from the environment variable ${passwordEnv} (or teamServer.passwordFile, PGPASSWORD, ~/.pgpass).`,
  teamUrlRefused: (reason) =>
    reason === "password-in-url"
      ? "Do not write the password in the connection string (it would stay in setting.config). Give it in the environment variable SAGASU_TEAM_PASSWORD or a file named by --password-file."
      : "Write the connection string as postgres://user@host/database.",
}

// A name as a shell argument: quoted when it holds anything but plain characters.
const quoteArg = (s: string) => (/^[\p{L}\p{N}_.@%+=,-]+$/u.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`)

/** The message catalogue of a language. */
export function messages(language: Language): Catalogue {
  return language === "en" ? en : ja
}

/** The catalogue's shape: every key has a Japanese and an English text (messages.test.ts walks them). */
export type MessageCatalogue = Catalogue

/**
 * A message in Japanese, then on the next line in English (issue 16): for
 * errors raised where no language setting can be read yet (the work folder,
 * the settings file itself, the store's reads, the lock).
 */
export function inBothLanguages(pick: (text: Catalogue) => string): string {
  return `${pick(ja)}\n${pick(en)}`
}
