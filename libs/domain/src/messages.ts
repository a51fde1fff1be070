/**
 * The product's messages in Japanese (default) and English, by key (SPEC
 * preamble: the Japanese strings are the seed's, verbatim).
 *
 * @module
 */
import type { Language } from "./settings.ts"

interface Catalogue {
  readonly lockHeld: string
  readonly noTargetsNeeded: string
  readonly cloudOnlyLeft: string
  readonly sourceVanished: string
  readonly completed: (ok: number, failed: number) => string
  readonly stopped: (ok: number, failed: number) => string
  readonly noEnabledIndex: string
  readonly targetFolderMissing: (name: string, path: string) => string
  readonly workFolderNotReady: (path: string, why: string) => string
  readonly failedFilesHeading: string
  readonly onlyNameSkipped: (name: string, reason: "unknown" | "disabled") => string
  readonly noneOfOnlyNames: string
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
}

const ja: Catalogue = {
  lockHeld: "ほかのインデックス作成が実行中です。インデックス作成が終わってから実行してください。",
  noTargetsNeeded: "取り込みが必要なファイルはありません。",
  cloudOnlyLeft: "クラウドにだけあるファイルは、ダウンロードせずに残しました",
  sourceVanished: "元のファイルが無くなったため、取り込まずに一覧から除きます。",
  completed: (ok, failed) => `インデックス作成が完了しました。（成功: ${ok} 件 / 失敗: ${failed} 件）`,
  stopped: (ok, failed) => `インデックス作成を中止しました。（成功: ${ok} 件 / 失敗: ${failed} 件）`,
  noEnabledIndex: "チェックの付いたインデックスがありません。sagasu add NAME PATH で追加してください。",
  targetFolderMissing: (name, path) => `インデックス「${name}」のフォルダが見つかりません: ${path}`,
  workFolderNotReady: (path, why) => `作業フォルダを使えません（${path}）: ${why}`,
  failedFilesHeading: "失敗したファイルと原因:",
  onlyNameSkipped: (name, reason) =>
    reason === "unknown" ? `インデックス「${name}」は設定にありません。飛ばします。` : `インデックス「${name}」はチェックが付いていません。飛ばします。`,
  noneOfOnlyNames: "選んだインデックスはどれも更新できません。",
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
  cloudSkippedIn: (name, count) => `インデックス「${name}」: クラウドにだけあるファイル ${count} 件をダウンロードせずに残しました`
}

const en: Catalogue = {
  lockHeld: "Another indexing run is in progress. Run this again after it has finished.",
  noTargetsNeeded: "No files need to be ingested.",
  cloudOnlyLeft: "Files that exist only in the cloud were left without downloading them",
  sourceVanished: "The source file is gone, so it is removed from the list without ingesting it.",
  completed: (ok, failed) => `Indexing completed. (succeeded: ${ok} / failed: ${failed})`,
  stopped: (ok, failed) => `Indexing was stopped. (succeeded: ${ok} / failed: ${failed})`,
  noEnabledIndex: "No index is enabled. Add one with: sagasu add NAME PATH",
  targetFolderMissing: (name, path) => `The folder of index "${name}" was not found: ${path}`,
  workFolderNotReady: (path, why) => `The work folder cannot be used (${path}): ${why}`,
  failedFilesHeading: "Files that failed, with the reason:",
  onlyNameSkipped: (name, reason) =>
    reason === "unknown" ? `The index "${name}" is not in the settings; skipped.` : `The index "${name}" is not enabled; skipped.`,
  noneOfOnlyNames: "None of the chosen indexes can be updated.",
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
  cloudSkippedIn: (name, count) => `Index "${name}": ${count} cloud-only file(s) left without downloading`
}

/** The message catalogue of a language. */
export function messages(language: Language): Catalogue {
  return language === "en" ? en : ja
}
