/**
 * The words of the GUI page, Japanese (default) and English by the same keys
 * (SPEC preamble). Messages of the indexing run itself come from the domain's
 * catalogue through the channel; these are the page's own labels and the
 * server's answers to edits. Shared by the page script and the server.
 *
 * @module
 */

/** A count with thousands separators (1,476), as business documents write it. */
export const count = (n: number): string => n.toLocaleString("en-US")

/** A file's modified date as a person reads it (`2024-03-01`, local time); `""` when not known. */
export function dateText(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return ""
  const d = new Date(ms)
  const two = (n: number) => String(n).padStart(2, "0")
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`
}

/** A size as a person reads it: `812 B`, `12 KB`, `3.4 MB`; `""` when not known. */
export function sizeText(bytes: number | null): string {
  if (bytes === null || !Number.isFinite(bytes)) return ""
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** The words of an extraction's places that are no number or cell (`header`, `footnote:3`, `B3 comment`, …), in Japanese. */
const placeWordsJa: Record<string, string> = {
  header: "ヘッダー", footer: "フッター", footnote: "脚注", endnote: "文末脚注", comment: "コメント", textbox: "テキストボックス",
  chart: "グラフ", drawing: "図形", shape: "図形", link: "リンク"
}

/** A cell's place (`B3`, `B3 comment`) or a sheet's (`footer`): the cell and what of it, else the place's word. */
const cellPlace = (cell: string, words: Record<string, string>, cellWord: string, wrap: (w: string) => string): string => {
  const m = /^([A-Z]+\d+)(?: ([a-z]+))?$/.exec(cell)
  if (m === null) return words[cell] ?? cell
  return `${cellWord} ${m[1]}${m[2] === undefined ? "" : wrap(words[m[2]] ?? m[2])}`
}

/** The page's languages (the setting `language`). */
export type UiLanguage = "ja" | "en"

const ja = {
  title: "Sagasu（さがす）",
  tagline: "Excel・Word・PowerPoint の中身を探します",
  language: "表示言語",
  searchHeading: "検索",
  searchPlaceholder: "探す言葉（スペースで区切ると AND）",
  searchButton: "検索",
  allIndexes: "すべてのインデックス",
  allTypes: "すべての種類",
  typeExcel: "Excel",
  typeWord: "Word",
  typePowerPoint: "PowerPoint",
  typeLegacy: "古い形式（xls・xlsb・doc・ppt）",
  sortRelevance: "関連度順",
  sortModified: "新しい順",
  searching: "検索しています…",
  noHits: "見つかりませんでした。",
  noHitsExclusionsAsText: "見つかりませんでした。- で始まる語だけのときは、その文字列そのものを探します。除外するには、探す語の後に並べてください（例: 見積 -山田）。",
  totals: (hits: number, files: number, exact: boolean, from: number, to: number) =>
    `${count(hits)} 件${exact ? "" : "以上"}（${count(files)} ファイル${exact ? "" : "以上"}）: ${count(from)}〜${count(to)} ファイル目`,
  fileHits: (n: number) => `${count(n)} 件`,
  ctxColumn: "列",
  ctxRow: "行",
  ctxPrevious: "前",
  ctxNext: "次",
  ctxTitle: "タイトル",
  prevPage: "← 前へ",
  nextPage: "次へ →",
  errType: (value: string, groups: ReadonlyArray<string>) => `「${value}」という種類はありません。使えるのは ${groups.join("、")} か、拡張子です。`,
  scanNotice: "検索用の索引がまだ無いため、本文を順に調べました（時間がかかることがあります）。",
  teamNotice: "チームサーバーを検索しました。",
  partialNotice: "検索に時間がかかったため途中で打ち切りました。ここまでに見つかった結果です。",
  copyPath: "パスをコピー",
  copied: "コピーしました",
  open: "開く",
  openFolder: "フォルダを開く",
  openTitle: "このファイルを、関連付けられたアプリで開きます",
  openFolderTitle: "このファイルのあるフォルダを開きます",
  opened: "開いています…",
  errOpenIndex: (name: string) => `インデックス「${name}」はありません（名前が変わったか、削除されました）。もう一度検索してください。`,
  errOpenOutside: (p: string) => `「${p}」はインデックスのフォルダの外を指しているため開けません。`,
  errOpenFolder: (folder: string) => `インデックスのフォルダ ${folder} が見つかりません。移動したときは、インデックスの表でフォルダを変更してください。`,
  errOpenMissing: (p: string) => `${p} が見つかりません。移動したか削除されたようです。`,
  errOpenFailed: (detail: string) => `開けませんでした: ${detail}`,
  errOpenNoDesktop: "このPCにはファイルを開くデスクトップがありません（画面の無い環境で動いています）。",
  // --- issue 16: the page's remaining words ---
  errOpenNoOpener: (command: string) => `ファイルを開くコマンド ${command} がこのPCにありません（Linux では xdg-utils を入れると開けます）。［パスをコピー］で場所を写してください。`,
  errNoResult: "まだ終わったインデックス作成はありません。",
  filterIndexLabel: "インデックスで絞り込む",
  filterTypeLabel: "ファイルの種類で絞り込む",
  filterSortLabel: "並べ方",
  noHitsFiltered: "絞り込みの中では見つかりませんでした。絞り込みを外すと、ほかのインデックスや種類からも探します。",
  clearFilter: "絞り込みを外す",
  removeHeading: "インデックスの削除",
  removeConfirm: "削除する",
  removeCancel: "やめる",
  sheetCell: (sheet: string, cell: string): readonly [string, string] => [`シート「${sheet}」`, cellPlace(cell, placeWordsJa, "セル", (w) => `（${w}）`)],
  paragraph: "段落",
  /** A place in a document that is no paragraph number: `ヘッダー`, `脚注 3`, `コメント`. */
  place: (loc: string): string => {
    const [word = "", n] = loc.split(":")
    // Comments are not numbered for the reader; a note's number follows its name (脚注 3).
    if (word === "comment") return "コメント"
    const name = placeWordsJa[word]
    if (name === undefined) return loc
    return n !== undefined && n !== "" ? `${name} ${n}` : name
  },
  fileName: "ファイル名",
  sheetName: (sheet: string) => `シート名「${sheet}」`,
  propertyOf: (name: string) => `文書のプロパティ（${({ title: "タイトル", subject: "件名", author: "作成者", keywords: "キーワード", description: "コメント", category: "分類", company: "会社", manager: "管理者", lastModifiedBy: "最終更新者" } as Record<string, string>)[name] ?? name}）`,
  elsewhereProgress: "別の場所での実行",
  slide: "スライド",
  notes: "（ノート）",
  indexesHeading: "インデックス",
  colSelect: "選択",
  colEnabled: "有効",
  colName: "名前",
  colFolder: "フォルダ",
  colDone: "取り込み済み",
  colFailed: "失敗",
  colPending: "未取り込み",
  colActions: "操作",
  enabledTitle: "チェックを外すと、更新しません",
  selectTitle: "［選んだインデックスだけ更新］の対象にします",
  noIndexes: "インデックスがありません。下の欄から、探したいフォルダを追加してください。",
  rename: "名前を変更",
  remove: "削除",
  save: "保存",
  cancelEdit: "やめる",
  confirmRemove: (name: string) =>
    `インデックス「${name}」を削除しますか？\n取り込んだ内容は検索できなくなります（元のフォルダのファイルは消えません）。`,
  addHeading: "インデックスを追加",
  addName: "名前",
  addFolder: "フォルダのパス",
  addNamePlaceholder: "例: 共有",
  addFolderPlaceholder: "例: /home/yamada/共有/営業",
  addButton: "追加",
  updateAll: "すべて更新",
  updateSelected: "選んだインデックスだけ更新",
  resume: "続きから再開",
  resumeHint: (n: number) => `前回中断したため、未取り込みのファイルが ${count(n)} 件あります。`,
  runningHere: "インデックス作成中です。終わるまで更新はできません。",
  runningElsewhere: "別の場所（コマンドや別の画面）でインデックス作成が進んでいます。終わるまで、ここからは更新できません。",
  confirmHeading: "取り込みの確認",
  confirmLead: "次のファイルを取り込みます。よろしいですか？",
  planIndex: "インデックス",
  planNew: "新規",
  planChanged: "変更",
  planPending: "未取り込み",
  planFailed: "前回失敗",
  planFailedEnvironment: "前回失敗・環境（再試行）",
  planCloud: "クラウドのみ",
  planUnchanged: "変更なし",
  planVanished: "削除",
  planTotal: (n: number) => `取り込み予定: ${count(n)} 件`,
  retryFailed: "前回失敗したファイルも取り込む",
  includeCloud: "クラウドにだけあるファイルもダウンロードして取り込む",
  start: "更新を開始",
  cancel: "キャンセル",
  progressHeading: "インデックス作成",
  phase: { crawl: "クロール", confirm: "確認", ingest: "取り込み", finalize: "仕上げ" } as Record<string, string>,
  processed: "処理済み",
  remaining: "残り",
  failed: "失敗",
  countUnit: "件",
  now: "いま",
  stop: "中止",
  stopping: "中止しています…",
  closeResult: "閉じる",
  failedListHeading: "失敗したファイルと原因",
  onlySkippedHeading: "更新しなかったインデックス",
  onlySkippedReason: { unknown: "設定にありません", disabled: "チェックが付いていません" } as Record<string, string>,
  cloudSkippedHeading: (n: number) => `クラウドにだけあるため、ダウンロードせずに残したファイル（${count(n)} 件）`,
  andMore: (n: number) => `ほか ${count(n)} 件`,
  lastRun: "前回のインデックス作成",
  lastRunEnded: { 0: "完了", 1: "エラー", 2: "中止" } as Record<number, string>,
  lastRunUnknown: "途中で終わりました（強制終了など）",
  logHeading: "ログ（indexing_log.txt の末尾）",
  logEmpty: "まだログはありません。",
  reload: "最新にする",
  // The server's answers (edits, runs).
  errBusy: "インデックス作成中は変更できません。終わってからもう一度どうぞ。",
  errSettings: "設定ファイルを読めません。",
  errSearch: "検索できませんでした。",
  errNetwork: "Sagasu に接続できません。コマンドの画面で sagasu gui が動いているか確かめてください。",
  errRefused: "この画面のアドレスが古くなっています。sagasu gui が表示したアドレスを開き直してください。"
}

type UiText = typeof ja

const en: UiText = {
  title: "Sagasu",
  tagline: "Finds text inside Excel, Word and PowerPoint files",
  language: "Language",
  searchHeading: "Search",
  searchPlaceholder: "Words to find (space = AND)",
  searchButton: "Search",
  allIndexes: "All indexes",
  allTypes: "All types",
  typeExcel: "Excel",
  typeWord: "Word",
  typePowerPoint: "PowerPoint",
  searching: "Searching…",
  noHits: "Nothing found.",
  noHitsExclusionsAsText: "Nothing found. A query of words that all begin with - looks for them as text; to exclude a word, put it after a word to find (say, invoice -Smith).",
  typeLegacy: "Older and binary formats (xls, xlsb, doc, ppt)",
  sortRelevance: "Best first",
  sortModified: "Newest first",
  totals: (hits, files, exact, from, to) =>
    `${count(hits)}${exact ? "" : "+"} hits (${count(files)}${exact ? "" : "+"} files): files ${count(from)}–${count(to)}`,
  fileHits: (n) => `${count(n)} hit${n === 1 ? "" : "s"}`,
  ctxColumn: "column",
  ctxRow: "row",
  ctxPrevious: "before",
  ctxNext: "after",
  ctxTitle: "title",
  prevPage: "← Previous",
  nextPage: "Next →",
  errType: (value, groups) => `There is no file type "${value}": use one of ${groups.join(", ")} or an extension.`,
  scanNotice: "There is no search index yet, so the text was scanned (this can be slow).",
  teamNotice: "Searched the team server.",
  partialNotice: "The search took too long and stopped: these are the hits found so far.",
  copyPath: "Copy path",
  copied: "Copied",
  open: "Open",
  openFolder: "Open folder",
  openTitle: "Open this file in its application",
  openFolderTitle: "Open the folder holding this file",
  opened: "Opening…",
  errOpenIndex: (name) => `There is no index "${name}" (it was renamed or removed). Search again.`,
  errOpenOutside: (p) => `"${p}" points outside the index's folder and cannot be opened.`,
  errOpenFolder: (folder) => `The index's folder ${folder} is not found. If it moved, change its folder in the indexes table.`,
  errOpenMissing: (p) => `${p} is not found: it was moved or deleted.`,
  errOpenFailed: (detail) => `Could not open it: ${detail}`,
  errOpenNoDesktop: "This PC has no desktop to open files on (it runs without a screen).",
  // --- issue 16: the page's remaining words ---
  errOpenNoOpener: (command) => `The command ${command} that opens files is not on this PC (on Linux, install xdg-utils). Use "Copy path" instead.`,
  errNoResult: "No indexing run has ended yet.",
  filterIndexLabel: "Filter by index",
  filterTypeLabel: "Filter by file type",
  filterSortLabel: "Order",
  noHitsFiltered: "Nothing found within the filter. Clear the filter to search every index and type.",
  clearFilter: "Clear the filter",
  removeHeading: "Remove an index",
  removeConfirm: "Remove",
  removeCancel: "Cancel",
  sheetCell: (sheet, cell) => [`Sheet “${sheet}”`, cellPlace(cell, {}, "cell", (w) => ` ${w}`)],
  paragraph: "Paragraph",
  place: (loc) => loc.replace(/^(footnote|endnote):/, "$1 ").replace(/^comment:\d*$/, "comment"),
  fileName: "File name",
  sheetName: (sheet) => `Sheet name "${sheet}"`,
  propertyOf: (name) => `Document property (${name})`,
  elsewhereProgress: "The run elsewhere",
  slide: "Slide",
  notes: " (notes)",
  indexesHeading: "Indexes",
  colSelect: "Pick",
  colEnabled: "Enabled",
  colName: "Name",
  colFolder: "Folder",
  colDone: "Ingested",
  colFailed: "Failed",
  colPending: "Pending",
  colActions: "",
  enabledTitle: "Unchecked indexes are not updated",
  selectTitle: "Include in “Update selected”",
  noIndexes: "No index yet. Add a folder to search below.",
  rename: "Rename",
  remove: "Remove",
  save: "Save",
  cancelEdit: "Cancel",
  confirmRemove: (name) => `Remove the index "${name}"?\nIts text will no longer be found (the files in the folder stay).`,
  addHeading: "Add an index",
  addName: "Name",
  addFolder: "Folder path",
  addNamePlaceholder: "e.g. shared",
  addFolderPlaceholder: "e.g. /home/me/shared/sales",
  addButton: "Add",
  updateAll: "Update all",
  updateSelected: "Update selected",
  resume: "Resume",
  resumeHint: (n) => `The last run was interrupted; ${count(n)} file(s) are pending.`,
  runningHere: "Indexing is running. Updating is possible again when it ends.",
  runningElsewhere: "An indexing run started elsewhere (the command line or another window) is going on; updates from here wait until it ends.",
  confirmHeading: "Confirm",
  confirmLead: "These files will be ingested. Go ahead?",
  planIndex: "Index",
  planNew: "New",
  planChanged: "Changed",
  planPending: "Pending",
  planFailed: "Failed last time",
  planFailedEnvironment: "Failed last time, environment (retried)",
  planCloud: "Cloud-only",
  planUnchanged: "Unchanged",
  planVanished: "Vanished",
  planTotal: (n) => `To ingest: ${count(n)}`,
  retryFailed: "Also ingest files that failed last time",
  includeCloud: "Also download and ingest files that exist only in the cloud",
  start: "Start",
  cancel: "Cancel",
  progressHeading: "Indexing",
  phase: { crawl: "Crawl", confirm: "Confirm", ingest: "Ingest", finalize: "Finalize" },
  processed: "Processed",
  remaining: "Remaining",
  failed: "Failed",
  countUnit: "",
  now: "Now",
  stop: "Stop",
  stopping: "Stopping…",
  closeResult: "Close",
  failedListHeading: "Files that failed, with the reason",
  onlySkippedHeading: "Indexes not updated",
  onlySkippedReason: { unknown: "not in the settings", disabled: "not enabled" },
  cloudSkippedHeading: (n) => `Left in the cloud without downloading (${n})`,
  andMore: (n) => `and ${n} more`,
  lastRun: "Last indexing run",
  lastRunEnded: { 0: "completed", 1: "error", 2: "stopped" },
  lastRunUnknown: "ended midway (killed?)",
  logHeading: "Log (end of indexing_log.txt)",
  logEmpty: "No log yet.",
  reload: "Refresh",
  errBusy: "Indexes cannot be changed while indexing runs. Try again when it ends.",
  errSettings: "The settings file cannot be read.",
  errSearch: "The search failed.",
  errNetwork: "Cannot reach Sagasu. Check that sagasu gui is still running.",
  errRefused: "This page's address is out of date. Open the address sagasu gui printed again."
}

/** The page's words in `language`. */
export function uiText(language: UiLanguage): UiText {
  return language === "en" ? en : ja
}

