import { describe, expect, it } from "vitest"
import { type RunOutcome, settleRun } from "./settle_run.ts"
import type { FailedFile } from "./closing.ts"

const failed: ReadonlyArray<FailedFile> = [{ index: "A", path: "x.xlsx", failure: { reason: "corrupt", detail: "bad zip" } }]
const ingested = (extra: Partial<Extract<RunOutcome, { _tag: "Ingested" }>> = {}): RunOutcome => ({
  _tag: "Ingested", stopped: false, folderLost: undefined, workFolderError: undefined, finallyError: undefined, done: 3, failed, ...extra
})
const completed = "インデックス作成が完了しました。（成功: 3 件 / 失敗: 0 件）"

describe("settleRun() (R1, R16, R17, R18)", () => {
  it.each([
    { name: "an error", outcome: { _tag: "Error", message: "boom" } as RunOutcome, gram: false, code: 1, report: "error", message: "boom" },
    { name: "stopped at the plan", outcome: { _tag: "Cancelled", why: { _tag: "stopped" } } as RunOutcome, gram: false, code: 2, report: "closing", message: "インデックス作成を中止しました。（成功: 0 件 / 失敗: 0 件）" },
    {
      name: "declined at the plan", outcome: { _tag: "Cancelled", why: { _tag: "declined" } } as RunOutcome, gram: false, code: 2, report: "closing",
      message: "取り込みの確認で取り消したため、インデックス作成をやめました。ファイルは 1 件も取り込んでいません。"
    },
    {
      name: "no answer at the plan", outcome: { _tag: "Cancelled", why: { _tag: "timedOut", minutes: 60 } } as RunOutcome, gram: false, code: 2, report: "closing",
      message: "取り込みの確認に 60 分返事が無かったため、インデックス作成をやめました。ファイルは 1 件も取り込んでいません。"
    },
    { name: "no targets", outcome: { _tag: "NoTargets", message: "取り込みが必要なファイルはありません。" } as RunOutcome, gram: true, code: 0, report: "closing", message: "取り込みが必要なファイルはありません。" },
    { name: "completed", outcome: ingested({ failed: [] }), gram: true, code: 0, report: "closing", message: completed },
    { name: "stopped", outcome: ingested({ stopped: true, failed: [] }), gram: false, code: 2, report: "closing", message: "インデックス作成を中止しました。（成功: 3 件 / 失敗: 0 件）" },
    { name: "folder lost", outcome: ingested({ folderLost: "lost", workFolderError: "full", finallyError: "fin" }), gram: false, code: 1, report: "error", message: "lost" },
    { name: "work folder full", outcome: ingested({ workFolderError: "full", finallyError: "fin" }), gram: false, code: 1, report: "error", message: "full" },
    { name: "finally failed", outcome: ingested({ finallyError: "fin" }), gram: false, code: 1, report: "error", message: "fin" },
    { name: "stopped and folder lost", outcome: ingested({ stopped: true, folderLost: "lost" }), gram: false, code: 1, report: "error", message: "lost" }
  ])("$name → exit $code, gram $gram", ({ outcome, gram, code, report, message }) => {
    const s = settleRun("ja", outcome)
    expect([s.updateGram, s.code, s.report, s.message]).toEqual([gram, code, report, message])
  })

  it("keeps the failed files for the closing (R17)", () => {
    expect(settleRun("en", ingested()).failed).toEqual(failed)
  })
})
