/**
 * `sagasu status`: the last progress and how the last run ended (P3), and
 * the ingest list's counts per index.
 *
 * @module
 */
import { type Language, defaultSettings } from "@sagasu/domain"
import { checkWorkFolder, readIngestList, readProgress, readSettings } from "@sagasu/store"
import { Console, Effect, Option } from "effect"

const phaseName: Record<Language, Record<string, string>> = {
  ja: { crawl: "クロール", confirm: "確認", ingest: "取り込み", finalize: "仕上げ" },
  en: { crawl: "crawl", confirm: "confirm", ingest: "ingest", finalize: "finalize" }
}

/** Prints the status of the work folder `work`; `json` prints `{progress, indexes}` instead. */
export const statusCommand = (work: string, json: boolean) =>
  Effect.gen(function* () {
    const paths = yield* checkWorkFolder(work)
    const settings = yield* readSettings(paths).pipe(Effect.orElseSucceed(() => defaultSettings))
    const language = settings.language
    const progress = yield* readProgress(paths)
    const rows = yield* readIngestList(paths)
    const indexes = settings.targetFolders.map((t) => {
      const own = rows.filter((r) => r.index === t.name)
      return {
        name: t.name, path: t.path, enabled: t.enabled,
        done: own.filter((r) => r.status === "done").length,
        failed: own.filter((r) => r.status === "failed").length,
        pending: own.filter((r) => r.status === "pending").length
      }
    })
    if (json) {
      yield* Console.log(JSON.stringify({ progress: Option.getOrNull(progress), indexes }, null, 2))
      return
    }
    const ja = language === "ja"
    if (Option.isNone(progress)) {
      yield* Console.log(ja ? "まだインデックス作成をしていません。" : "No indexing run yet.")
    } else {
      const p = progress.value
      const ended = p.exitCode === undefined
        ? (ja ? "実行中（または強制終了）" : "running (or killed)")
        : { 0: ja ? "完了" : "completed", 1: ja ? "エラー" : "error", 2: ja ? "中止" : "stopped" }[p.exitCode]
      yield* Console.log(`${ja ? "前回のインデックス作成" : "Last indexing run"}: ${ended} — ${phaseName[language][p.phase]}, ` +
        `${ja ? "処理済み" : "processed"} ${p.processed}, ${ja ? "残り" : "remaining"} ${p.remaining}, ${ja ? "失敗" : "failed"} ${p.failed}`)
      if (p.current !== "") yield* Console.log(`  ${p.current}`)
    }
    for (const i of indexes) {
      yield* Console.log(`${i.name}${i.enabled ? "" : ja ? "（無効）" : " (disabled)"}  ${i.path}  ` +
        `${ja ? "済" : "done"} ${i.done} / ${ja ? "失敗" : "failed"} ${i.failed} / ${ja ? "未取り込み" : "pending"} ${i.pending}`)
    }
    if (indexes.some((i) => i.pending > 0)) {
      yield* Console.log(ja ? "未取り込みのファイルがあります。sagasu index で続きから再開します。" : "Some files are pending; sagasu index resumes where it stopped.")
    }
  }).pipe(Effect.catchAll((e) => Console.error(e.message).pipe(Effect.zipRight(Effect.sync(() => { process.exitCode = 1 })))))
