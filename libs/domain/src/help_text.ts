/**
 * The words of the command line's help (issue 16), in the settings'
 * language: apart from the message catalogue (messages.ts) so that the cold
 * search's bundle, which needs the catalogue's search words, does not carry
 * the help's ≈25 KB (tools/src/cli_samples.test.ts keeps that bundle under
 * 200,000 characters).
 *
 * @module
 */
import type { Language } from "./settings.ts"

/** The commands whose help says what they do: `sagasu --help` lists them up to `team`, `sagasu team --help` the last three. */
export type HelpCommand =
  | "init" | "add" | "list" | "enable" | "disable" | "rename" | "remove" | "move" | "index" | "search" | "status" | "gui" | "publish" | "team"
  | "connect" | "grant" | "revoke"

/**
 * The words of the command line's help (issue 16): `sagasu --help` and each
 * `sagasu COMMAND --help`, option by option. Command names, option names and
 * the example command lines are main.ts's, the same in both languages; an
 * example's entry here is what it does.
 */
export interface HelpText {
  /** @effect/cli's own section headings, under their English names. */
  readonly headings: { readonly usage: string; readonly description: string; readonly arguments: string; readonly options: string; readonly commands: string }
  /** Our sections: a command's examples, index's output, search's query syntax, what publish does, the footer of every help. */
  readonly sections: { readonly examples: string; readonly output: string; readonly querySyntax: string; readonly whatItDoes: string; readonly everyCommand: string }
  /** What Sagasu is: the top-level help's description. */
  readonly sagasu: string
  /** What each command does: its help's first line, and its row in the list of commands. */
  readonly summary: Readonly<Record<HelpCommand, string>>
  /** `--work`, on every command. */
  readonly work: string
  /** The footer of every help: `-h, --help`, `--version`, and where each command's help is. */
  readonly helpOption: string
  readonly versionOption: string
  readonly commandHelp: string
  readonly add: { readonly name: string; readonly folder: string }
  readonly list: { readonly json: string }
  readonly enable: { readonly name: string }
  readonly disable: { readonly name: string }
  readonly rename: { readonly from: string; readonly to: string }
  readonly remove: { readonly name: string }
  readonly move: { readonly name: string; readonly folder: string }
  readonly index: {
    readonly yes: string
    readonly retryFailed: string
    readonly includeCloud: string
    readonly only: string
    readonly verbose: string
    readonly quiet: string
    /** The OUTPUT section's paragraphs. */
    readonly output: ReadonlyArray<string>
    readonly examples: { readonly ask: string; readonly one: string; readonly cron: string; readonly retry: string }
  }
  readonly status: {
    readonly json: string
    readonly failed: string
    readonly examples: { readonly last: string; readonly failed: string; readonly json: string }
  }
  readonly search: {
    readonly words: string
    readonly json: string
    readonly files: string
    readonly context: string
    readonly limit: string
    readonly offset: string
    readonly index: string
    readonly type: string
    readonly sort: string
    readonly folder: string
    readonly since: string
    readonly until: string
    readonly server: string
    /** The QUERY SYNTAX section's paragraphs (S3). */
    readonly syntax: ReadonlyArray<string>
    readonly examples: {
      readonly word: string
      readonly both: string
      readonly exclude: string
      readonly dash: string
      readonly phrase: string
      readonly page: string
      readonly folder: string
      readonly context: string
      readonly server: string
    }
  }
  readonly gui: { readonly port: string; readonly noOpen: string }
  readonly publish: {
    readonly only: string
    /** The WHAT IT DOES section's paragraphs. */
    readonly steps: ReadonlyArray<string>
    readonly examples: { readonly all: string; readonly one: string }
  }
  /** `team connect`, `team grant` and `team revoke`. */
  readonly team: {
    readonly index: string
    readonly role: string
    readonly url: string
    readonly search: string
    readonly passwordEnv: string
    readonly passwordFile: string
  }
}

const helpJa: HelpText = {
  headings: { usage: "使い方", description: "説明", arguments: "引数", options: "オプション", commands: "コマンド" },
  sections: { examples: "例", output: "出力", querySyntax: "検索の書き方", whatItDoes: "動作", everyCommand: "共通のオプション" },
  sagasu: "Excel・Word・PowerPoint のファイルを全文検索します",
  summary: {
    init: "作業フォルダを作ります（何度実行しても同じです）",
    add: "フォルダをインデックスとして登録します（ほかのインデックスのフォルダと同じ、その中にある、またはそれを含むフォルダは登録できません）",
    list: "インデックスを一覧します: 名前、フォルダ、有効かどうか、ファイル数（済 / 失敗 / 未取り込み）",
    enable: "インデックスを有効にします（sagasu index でまた更新します）",
    disable: "インデックスを無効にします（sagasu index で更新しません。検索には出ます）",
    rename: "インデックスの名前を変えます。取り込んだ本文はそのまま残ります（インデックス作成の実行中はできません）",
    remove: "インデックスと取り込んだ本文を削除します（元のファイルはそのまま）",
    move: "インデックスのフォルダを変えます（次の sagasu index では、変わったファイルだけを取り込みます）",
    index: "有効なインデックスのインデックス作成を実行します: クロールし、計画を表示して確認してから取り込みます",
    search: "すべての言葉を含むファイルを探します（空白で区切ると AND。ファイルのどこにあってもよく、ファイル名やプロパティも探します）",
    status: "前回のインデックス作成の結果と、インデックスごとの件数を表示します",
    gui: "画面をローカルの Web ページとして開きます（127.0.0.1 のみ）",
    publish: "本文インデックスをチームサーバー（setting.config の teamServer）に公開します。sagasu index も実行の終わりに公開します",
    team: "チームサーバー: 作業フォルダをつなぎ（connect）、どのインデックスを誰が検索できるかを許可・取り消します（grant、revoke。行レベルセキュリティ。公開するロールで実行します）",
    connect: "setting.config にチームサーバー（teamServer）を設定します: sagasu index と sagasu publish の公開先、--search を付けると検索先です",
    grant: "データベースのロール（とそのメンバー）が、チームサーバーのインデックスを検索できるようにします",
    revoke: "データベースのロールが、チームサーバーのインデックスを検索できないようにします"
  },
  work: "作業フォルダ（既定: $SAGASU_WORK、無ければユーザーごとのデータフォルダ）",
  helpOption: "コマンドのヘルプを表示します",
  versionOption: "sagasu の版を表示します",
  commandHelp: "sagasu COMMAND --help で、そのコマンドのオプションと例を表示します。",
  add: { name: "インデックスの名前（例: 共有）", folder: "インデックスにするフォルダ" },
  list: { json: "{name, path, enabled, done, failed, pending} の JSON 配列を出力します" },
  enable: { name: "有効にするインデックス" },
  disable: { name: "無効にするインデックス" },
  rename: { from: "インデックスの今の名前", to: "新しい名前" },
  remove: { name: "削除するインデックス" },
  move: { name: "インデックス", folder: "新しいフォルダ" },
  index: {
    yes: "取り込む前に確認しません",
    retryFailed: "前回失敗したファイルも取り込みます",
    includeCloud: "クラウドにだけあるファイルも取り込みます（ダウンロードします）",
    only: "このインデックスだけを更新します（繰り返し指定できます）",
    verbose: "ファイルごとに 1 行出力します（ログと同じ行）",
    quiet: "進み具合を出力しません。出力するのは計画（確認するとき）、警告、エラーと、実行がどう終わったかだけです",
    output: [
      "端末では、進み具合を 1 行に書き直しながら表示します（段階、バー、ファイル数、経過時間、ファイル/秒、残り時間、処理中のファイル）。" +
        "パイプやリダイレクトでは、ファイルの 1 割ごとと 1 分ごとに進み具合を 1 行ずつ出力します。エラーは標準エラー出力に出します。",
      "--verbose を付けるとファイルごとに 1 行（indexing_log.txt と同じ行）を加え、--quiet を付けると進み具合を出力しません。"
    ],
    examples: {
      ask: "確認のうえ、新規・変更のファイルを取り込みます",
      one: "確認せずに、1 つのインデックスだけを更新します",
      cron: "cron 向け: 終わりのメッセージと警告・エラーだけ",
      retry: "ファイル自体の原因で失敗したものも再試行します"
    }
  },
  status: {
    json: "JSON で出力します",
    failed: "失敗したファイルと原因を、インデックスごとに一覧します（取り込み一覧から）",
    examples: { last: "前回の実行と、インデックスごとの件数", failed: "インデックスごとに、失敗したファイルと原因", json: "同じ内容をスクリプト向けに" }
  },
  search: {
    words: "探す言葉。すべてを含むファイルが見つかります（1 つの引数でも、複数の引数でも）。先頭に - を付けた言葉は除外、" +
      "\"…\" で囲んだ語句はひと続きで探し、「」と閉じていない \" は文字です。オプションは言葉の前でも後でも書けます",
    json: "ファイルの JSON 配列を出力します（ファイルごとに、ヒットした場所付き）",
    files: "1 ファイル 1 行で出力します: インデックスとパス",
    context: "ヒットした場所を前後とともに表示します: セルは列と行の見出し、段落は前後の段落、スライドはタイトル（--json では場所ごとの context オブジェクト）",
    limit: "1 ページのファイル数",
    offset: "飛ばすファイル数（次のページ）",
    index: "このインデックスだけ（繰り返し指定できます）",
    type: "この種類のファイルだけ: excel、word、powerpoint、legacy か、拡張子（xlsx、xls、docx、doc、pptx、ppt など）。繰り返すと、どれかの種類のファイル",
    sort: "relevance（関連度順、既定）か modified（新しい順）",
    folder: "インデックスのこのフォルダの中にあるファイルだけ（見積/2024 など）",
    since: "この日以降に更新されたファイルだけ（2024-04-01 など）",
    until: "この日までに更新されたファイルだけ（2024-06-30 など）",
    server: "このパソコンのインデックスではなく、setting.config のチームサーバー（teamServer）を検索します（teamServer.search が true なら既定）",
    syntax: [
      "空白（半角でも全角でも）で区切った言葉が、すべて同じファイルのどこかにあるファイルを探します。",
      "先頭に - を付けた言葉は、それを含むファイルを除きます。-- の後に書いたものは、すべて言葉として探します。",
      "\"…\" で囲んだ語句は、1 つのセル、段落、スライドの行の中にひと続きで書かれたものを探します。",
      "「」『』は囲みではなく、ふつうの文字です。対になっていない \" や、言葉の中の \" も文字です。",
      "ひらがなとカタカナ、全角と半角、大文字と小文字は区別しません（がいど で ｶﾞｲﾄﾞ も見つかります）。",
      "数値と日付は、表示どおりにも入力どおりにも見つかります（¥123,350 は 123350 で、2009年9月4日 は 2009/9/4 や 2009-09-04 で）。",
      "ファイル名、フォルダのパス、シート名、スライドのタイトル、文書のプロパティも、本文と同じように探します。"
    ],
    examples: {
      word: "見積番号を含むファイル",
      both: "両方の言葉を含むファイル",
      exclude: "見積を含み、テンプレートを含まないファイル",
      dash: "除外から始め、オプションは後に",
      phrase: "1 つのセルにそのとおり書かれた語句",
      page: "2 ページ目を 1 ファイル 1 行で",
      folder: "1 つのフォルダの 4 月以降のファイルを、新しい順に",
      context: "セルごとに、列と行の見出しを付けて",
      server: "チームサーバーのインデックスを検索"
    }
  },
  gui: { port: "ポート番号（既定: 空いているもの）", noOpen: "ブラウザを開きません" },
  publish: {
    only: "このインデックスだけを公開します（繰り返し指定できます）",
    steps: [
      "サーバーの表を作るか更新してから、インデックスごとに、前回サーバーに送った後に新しくなったファイルと変わったファイルを送り" +
        "（1 ファイル 1 トランザクション）、無くなったファイルを除いて、検索する側を新しい状態に一度に切り替えます。",
      "1 つのインデックスを公開できるのは一度に 1 台です。ほかのパソコンが公開している間は、インデックス作成の鍵のメッセージで断ります。" +
        "途中で切れた公開は、次の公開が仕上げます。",
      "パスワードは $SAGASU_TEAM_PASSWORD（teamServer.passwordEnv）、teamServer.passwordFile、$PGPASSWORD か ~/.pgpass から読みます。ログには書きません。"
    ],
    examples: { all: "登録したすべてのインデックスを公開します", one: "1 つのインデックスを公開します" }
  },
  team: {
    index: "チームサーバーでのインデックスの名前",
    role: "データベースのロール（人のログイン名か、グループのロール）",
    url: "postgres://ユーザー@ホスト[:ポート]/データベース（パスワードは書きません）",
    search: "sagasu search と画面の検索で、チームサーバーを検索します（チームのメンバーのパソコン）",
    passwordEnv: "パスワードを入れた環境変数（既定: SAGASU_TEAM_PASSWORD）",
    passwordFile: "1 行目がパスワードのファイル"
  }
}

const helpEn: HelpText = {
  headings: { usage: "USAGE", description: "DESCRIPTION", arguments: "ARGUMENTS", options: "OPTIONS", commands: "COMMANDS" },
  sections: { examples: "EXAMPLES", output: "OUTPUT", querySyntax: "QUERY SYNTAX", whatItDoes: "WHAT IT DOES", everyCommand: "EVERY COMMAND" },
  sagasu: "Full-text search for Excel, Word and PowerPoint files",
  summary: {
    init: "create a work folder (idempotent)",
    add: "register a folder as an index (refused when it is, lies inside or contains another index's folder)",
    list: "list the indexes: name, folder, enabled, files done / failed / pending",
    enable: "let sagasu index update the index again",
    disable: "leave the index out of sagasu index (its files are still found)",
    rename: "rename an index; its ingested files keep their text (refused while an indexing run is going on)",
    remove: "remove an index and its ingested text (the files themselves are untouched)",
    move: "change the folder of an index (the next sagasu index ingests only what differs)",
    index: "run an indexing run over the enabled indexes: crawl, show the plan, ask, ingest",
    search: "find files holding every word (space = AND, anywhere in the file, names and properties too)",
    status: "show how the last indexing run ended and the counts per index",
    gui: "serve the screen on a local web page (127.0.0.1 only)",
    publish: "publish the body index to the team server (teamServer in setting.config); sagasu index does it at the end of each run",
    team: "the team server: connect a work folder to it; grant or revoke who may search which index (row-level security; run as the publishing role)",
    connect: "set the team server in setting.config (teamServer): where sagasu index and sagasu publish publish, or with --search where searches go",
    grant: "let a database role (and its members) search an index on the team server",
    revoke: "no longer let a database role search an index on the team server"
  },
  work: "the work folder (default: $SAGASU_WORK or the per-user data folder)",
  helpOption: "show the help of the command",
  versionOption: "show the version of sagasu",
  commandHelp: "sagasu COMMAND --help shows the command's options and examples.",
  add: { name: "the index name, e.g. 共有", folder: "the folder to index" },
  list: { json: "print a JSON array of {name, path, enabled, done, failed, pending}" },
  enable: { name: "the index to enable" },
  disable: { name: "the index to disable" },
  rename: { from: "the index's name", to: "its new name" },
  remove: { name: "the index to remove" },
  move: { name: "the index", folder: "its new folder" },
  index: {
    yes: "do not ask before ingesting",
    retryFailed: "also ingest files that failed last time",
    includeCloud: "also ingest cloud-only files (downloads them)",
    only: "update only this index (repeatable)",
    verbose: "print one line per file (as the log has them)",
    quiet: "print no progress: only the plan (when asking), warnings, errors and how the run ended",
    output: [
      "On a terminal one progress line redrawn in place (phase, bar, files, elapsed time, files/s, time left, the file); " +
        "piped or redirected a plain progress line at each tenth of the files and once a minute; errors on stderr.",
      "--verbose adds one line per file (as indexing_log.txt has them), --quiet prints no progress."
    ],
    examples: {
      ask: "ask, then ingest new and changed files",
      one: "update one index without asking",
      cron: "for cron: the closing message, warnings and errors only",
      retry: "also retry files that failed for a reason of their own"
    }
  },
  status: {
    json: "print JSON",
    failed: "list the failed files with their reasons, per index (from the ingest list)",
    examples: { last: "the last run and the counts per index", failed: "every failed file and why, per index", json: "the same for scripts" }
  },
  search: {
    words: "words that must all be in the file (one or several arguments); -word excludes, \"…\" keeps a phrase, " +
      "「」 and an unclosed \" are text; options may come before or after the words",
    json: "print a JSON array of files, each with its locations",
    files: "print one line per file: index and path",
    context: "show each location in its context: a cell's column and row headings, a paragraph's neighbours, a slide's title (--json: a context object per location)",
    limit: "files on a page",
    offset: "files to skip (the next page)",
    index: "only this index (repeatable)",
    type: "only this file type: excel, word, powerpoint, legacy, or an extension (xlsx, xls, docx, doc, pptx, ppt, …); repeated, a file of any of them",
    sort: "relevance (default) or modified (newest first)",
    folder: "only files inside this folder of their index (見積/2024)",
    since: "only files modified on or after this day (2024-04-01)",
    until: "only files modified on or before this day (2024-06-30)",
    server: "search the team server of setting.config (teamServer) instead of this computer's index (the default when teamServer.search is true)",
    syntax: [
      "words separated by spaces (ASCII or full-width) must all occur in the same file, anywhere in it",
      "-word excludes the files that contain it; everything after a bare -- is a word",
      "\"…\" keeps a phrase together within one cell, paragraph or slide line",
      "「」『』 are ordinary text, never quotes; an unbalanced or inner \" is text too",
      "hiragana and katakana, full-width and half-width, upper and lower case are the same (がいど finds ｶﾞｲﾄﾞ)",
      "numbers and dates are found as shown and as typed (¥123,350 by 123350, 2009年9月4日 by 2009/9/4 or 2009-09-04)",
      "file names, folder paths, sheet names, slide titles and document properties are searched like the text"
    ],
    examples: {
      word: "files holding 見積番号",
      both: "both words in the same file",
      exclude: "見積 but not テンプレート",
      dash: "an excluded word first, an option after the words",
      phrase: "the phrase as it stands in one cell",
      page: "the second page, one line per file",
      folder: "newest first, one folder, since April",
      context: "each cell with its column and row headings",
      server: "search the team's index on the team server"
    }
  },
  gui: { port: "the port (default: any free one)", noOpen: "do not open the browser" },
  publish: {
    only: "publish only this index (repeatable)",
    steps: [
      "creates or updates the server's tables, then per index: sends the files that are new or changed since the server last got them " +
        "(each in one transaction), removes the files that are gone, and switches readers to the new state at once",
      "one publisher per index: while another machine publishes an index, it is refused with the message of the indexing lock; " +
        "a publish cut short is finished by the next one",
      "the password comes from $SAGASU_TEAM_PASSWORD (teamServer.passwordEnv), teamServer.passwordFile, $PGPASSWORD or ~/.pgpass; it is never written to the log"
    ],
    examples: { all: "publish every registered index", one: "publish one index" }
  },
  team: {
    index: "the index name on the team server",
    role: "a database role (a person's login or a group role)",
    url: "postgres://user@host[:port]/database, without the password",
    search: "sagasu search and the GUI search the team server (a team member's machine)",
    passwordEnv: "the environment variable holding the password (default SAGASU_TEAM_PASSWORD)",
    passwordFile: "a file whose first line is the password"
  }
}

/** The help's words in `language` (main.ts reads the language only when a help is printed: help_request.ts). */
export function helpText(language: Language): HelpText {
  return language === "en" ? helpEn : helpJa
}
