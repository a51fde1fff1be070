/**
 * The product's messages in Japanese (default) and English, by key (SPEC
 * preamble: the Japanese strings are the seed's, verbatim).
 *
 * @module
 */
import type { Failure, FailureReason } from "./failure_reason.ts"
import type { FolderRelation, IndexRefusal } from "./index_admin.ts"
import type { Language } from "./settings.ts"
import type { TeamUrlRefusal } from "./team.ts"

/** Why a work folder cannot be used (the store's WorkFolderError reasons, R2). */
export type WorkFolderProblem = "missing" | "not-a-folder" | "not-writable" | "not-initialised" | "unknown-layout"

/** Why `setting.config` cannot be used (the store's SettingsError reasons). */
export type SettingsProblem = "missing" | "unreadable" | "invalid-json" | "invalid"

interface Catalogue {
  readonly lockHeld: string
  readonly noTargetsNeeded: string
  readonly cloudOnlyLeft: string
  readonly sourceVanished: string
  readonly completed: (ok: number, failed: number) => string
  readonly stopped: (ok: number, failed: number) => string
  readonly noEnabledIndex: string
  readonly targetFolderMissing: (name: string, path: string, others: ReadonlyArray<string>) => string
  readonly workFolderNotReady: (path: string, why: string) => string
  readonly failedFilesHeading: string
  /** What a failure reason means for a person and what to do about it, one sentence (issue 17). */
  readonly failureReason: (reason: FailureReason) => string
  /** A failed file's failure as a person reads it: the reason's sentence, then the code and detail (CLI, log, closing, GUI). */
  readonly failure: (failure: Failure) => string
  readonly onlyNameSkipped: (name: string, reason: "unknown" | "disabled") => string
  readonly noneOfOnlyNames: string
  // --- issue 16: the ends of a run that ingested nothing, told apart (cancel at the plan, no answer) ---
  readonly planCancelled: string
  readonly planTimedOut: (minutes: number) => string
  readonly knownIndexNames: (indexes: ReadonlyArray<{ readonly name: string; readonly enabled: boolean }>) => string
  // --- issue 16 (one catalogue): init, the work folder, the settings file, the store's reads, the lock, a folder ---
  readonly workFolderReady: (path: string) => string
  readonly workFolderUnusable: (problem: WorkFolderProblem, path: string) => string
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
  readonly indexAdded: (name: string, path: string) => string
  readonly indexEnabled: (name: string, enabled: boolean) => string
  readonly indexRenamed: (from: string, to: string) => string
  readonly indexRemoved: (name: string, files: number) => string
  readonly indexMoved: (name: string, path: string) => string
  readonly noIndexes: string
  readonly indexListed: (i: { name: string; path: string; enabled: boolean; done: number; failed: number; pending: number }) => string
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

const ja: Catalogue = {
  lockHeld: "ほかのインデックス作成が実行中です。インデックス作成が終わってから実行してください。",
  noTargetsNeeded: "取り込みが必要なファイルはありません。",
  cloudOnlyLeft: "クラウドにだけあるファイルは、ダウンロードせずに残しました",
  sourceVanished: "元のファイルが無くなったため、取り込まずに一覧から除きます。",
  completed: (ok, failed) => `インデックス作成が完了しました。（成功: ${ok} 件 / 失敗: ${failed} 件）`,
  stopped: (ok, failed) => `インデックス作成を中止しました。（成功: ${ok} 件 / 失敗: ${failed} 件）`,
  noEnabledIndex: "チェックの付いたインデックスがありません。sagasu add NAME PATH で追加してください。",
  targetFolderMissing: (name, path, others) =>
    `インデックス「${name}」のフォルダが見つかりません: ${path}\n` +
    `フォルダを使えるようにしてからもう一度実行するか、` +
    (others.length > 0 ? `ほかのインデックスだけを更新するなら sagasu index ${others.map((o) => `--only ${quoteArg(o)}`).join(" ")}、` : "") +
    `このインデックスを外すなら sagasu disable ${quoteArg(name)}（フォルダが移ったなら sagasu move ${quoteArg(name)} 新しいフォルダ）を実行してください。`,
  workFolderNotReady: (path, why) => `作業フォルダを使えません（${path}）: ${why}`,
  failedFilesHeading: "失敗したファイルと原因:",
  failureReason: (reason) => failureReasonJa[reason],
  failure: (f) => (failureDetail(f) === "" ? failureReasonJa[f.reason] : `${failureReasonJa[f.reason]}（${failureDetail(f)}）`),
  onlyNameSkipped: (name, reason) =>
    reason === "unknown" ? `インデックス「${name}」は設定にありません。飛ばします。` : `インデックス「${name}」はチェックが付いていません。飛ばします。`,
  noneOfOnlyNames: "選んだインデックスはどれも更新できません。",
  // --- issue 16: the ends of a run that ingested nothing ---
  planCancelled: "取り込みの確認で［キャンセル］したため、インデックス作成をやめました。ファイルは 1 件も取り込んでいません。",
  planTimedOut: (minutes) => `取り込みの確認に ${minutes} 分返事が無かったため、インデックス作成をやめました。ファイルは 1 件も取り込んでいません。`,
  knownIndexNames: (indexes) =>
    indexes.length === 0
      ? "インデックスはまだありません。sagasu add NAME PATH で追加してください。"
      : `登録されているインデックス: ${indexes.map((i) => `${i.name}${i.enabled ? "" : "（無効）"}`).join("、")}（sagasu list で一覧できます）`,
  workFolderReady: (path) => `作業フォルダを用意しました: ${path}\n次は sagasu add 名前 フォルダ でインデックスを追加します。`,
  workFolderUnusable: (problem, path) =>
    `作業フォルダを使えません（${path}）: ` + {
      "missing": "フォルダがありません。sagasu init で作ってください",
      "not-a-folder": "フォルダではなくファイルです",
      "not-writable": "フォルダに書き込めません",
      "not-initialised": "Sagasu の作業フォルダではありません。先に sagasu init を実行してください",
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
      case "FolderOverlap":
        return `フォルダ ${r.path} はインデックス「${r.other}」のフォルダ（${r.otherPath}）${relationJa[r.relation]}。` +
          `同じファイルが二重に取り込まれ、検索結果にも二度出るため、登録できません。`
    }
  },
  indexAdded: (name, path) => `インデックス「${name}」を追加しました: ${path}\n次は sagasu index で取り込みます。`,
  indexEnabled: (name, enabled) =>
    enabled ? `インデックス「${name}」を有効にしました（sagasu index で更新します）。` : `インデックス「${name}」を無効にしました（sagasu index で更新しません。検索には出ます）。`,
  indexRenamed: (from, to) => `インデックス「${from}」の名前を「${to}」に変えました。`,
  indexRemoved: (name, files) => `インデックス「${name}」を削除しました（取り込み一覧の ${files} ファイルとその本文を索引から除きました。元のファイルはそのままです）。`,
  indexMoved: (name, path) => `インデックス「${name}」のフォルダを変えました: ${path}\n次の sagasu index で、変わったファイルだけ取り込み直します。`,
  noIndexes: "インデックスはまだありません。sagasu add NAME PATH で追加してください。",
  indexListed: (i) => `${i.name}${i.enabled ? "" : "（無効）"}  ${i.path}  済 ${i.done} / 失敗 ${i.failed} / 未取り込み ${i.pending}`,
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
      : "接続先は postgres://ユーザー@ホスト/データベース の形で書いてください。"
}

const en: Catalogue = {
  lockHeld: "Another indexing run is in progress. Run this again after it has finished.",
  noTargetsNeeded: "No files need to be ingested.",
  cloudOnlyLeft: "Files that exist only in the cloud were left without downloading them",
  sourceVanished: "The source file is gone, so it is removed from the list without ingesting it.",
  completed: (ok, failed) => `Indexing completed. (succeeded: ${ok} / failed: ${failed})`,
  stopped: (ok, failed) => `Indexing was stopped. (succeeded: ${ok} / failed: ${failed})`,
  noEnabledIndex: "No index is enabled. Add one with: sagasu add NAME PATH",
  targetFolderMissing: (name, path, others) =>
    `The folder of index "${name}" was not found: ${path}\n` +
    `Make it available and run again, ` +
    (others.length > 0 ? `update only the other indexes with sagasu index ${others.map((o) => `--only ${quoteArg(o)}`).join(" ")}, ` : "") +
    `or leave this index out with sagasu disable ${quoteArg(name)} (if the folder moved: sagasu move ${quoteArg(name)} NEW-FOLDER).`,
  workFolderNotReady: (path, why) => `The work folder cannot be used (${path}): ${why}`,
  failedFilesHeading: "Files that failed, with the reason:",
  failureReason: (reason) => failureReasonEn[reason],
  failure: (f) => (failureDetail(f) === "" ? failureReasonEn[f.reason] : `${failureReasonEn[f.reason]} (${failureDetail(f)})`),
  onlyNameSkipped: (name, reason) =>
    reason === "unknown" ? `The index "${name}" is not in the settings; skipped.` : `The index "${name}" is not enabled; skipped.`,
  noneOfOnlyNames: "None of the chosen indexes can be updated.",
  // --- issue 16: the ends of a run that ingested nothing ---
  planCancelled: "Indexing was cancelled at the confirmation; no file was ingested.",
  planTimedOut: (minutes) => `The confirmation had no answer for ${minutes} minute(s), so indexing was cancelled; no file was ingested.`,
  knownIndexNames: (indexes) =>
    indexes.length === 0
      ? "There are no indexes yet. Add one with: sagasu add NAME PATH"
      : `The indexes: ${indexes.map((i) => `${i.name}${i.enabled ? "" : " (disabled)"}`).join(", ")} (sagasu list shows them)`,
  workFolderReady: (path) => `Work folder ready: ${path}\nNext: sagasu add NAME PATH`,
  workFolderUnusable: (problem, path) =>
    `The work folder cannot be used (${path}): ` + {
      "missing": "the folder does not exist; create it with `sagasu init`",
      "not-a-folder": "the path is a file, not a folder",
      "not-writable": "the folder cannot be written",
      "not-initialised": "it is not a Sagasu work folder; run `sagasu init` first",
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
      case "FolderOverlap":
        return `The folder ${r.path} ${relationEn[r.relation]} index "${r.other}" (${r.otherPath}); ` +
          `its files would be ingested twice and every hit shown twice, so it cannot be registered.`
    }
  },
  indexAdded: (name, path) => `Added index "${name}": ${path}\nNext: sagasu index`,
  indexEnabled: (name, enabled) =>
    enabled ? `Index "${name}" is enabled (sagasu index updates it).` : `Index "${name}" is disabled (sagasu index leaves it; its files are still found).`,
  indexRenamed: (from, to) => `Index "${from}" is now named "${to}".`,
  indexRemoved: (name, files) => `Removed index "${name}" (its ${files} file(s) of the ingest list and their text are out of the index; the files themselves are untouched).`,
  indexMoved: (name, path) => `Index "${name}" now has the folder ${path}\nThe next sagasu index ingests again only what differs.`,
  noIndexes: "There are no indexes yet. Add one with: sagasu add NAME PATH",
  indexListed: (i) => `${i.name}${i.enabled ? "" : " (disabled)"}  ${i.path}  done ${i.done} / failed ${i.failed} / pending ${i.pending}`,
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
      : "Write the connection string as postgres://user@host/database."
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
