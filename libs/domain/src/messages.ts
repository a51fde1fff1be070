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
  failedFilesHeading: "失敗したファイルと原因:"
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
  failedFilesHeading: "Files that failed, with the reason:"
}

/** The message catalogue of a language. */
export function messages(language: Language): Catalogue {
  return language === "en" ? en : ja
}
