/**
 * Table tests of the indexing run's decisions (SPEC §1, §3, §4), one
 * `describe` per decision function.
 */
import { describe, expect, it } from "vitest"
import { closingMessage, failedFilesForTerminal } from "./closing.ts"
import { pickNextDispatch, workerKindOf } from "./dispatch.ts"
import type { AppKind } from "./app_kind.ts"
import type { FailureReason } from "./failure_reason.ts"
import { type IngestResult, decideOnResult } from "./ingest_result.ts"
import { type IngestRow, fileKey } from "./ingest_list.ts"
import type { JournalEntry } from "./journal.ts"
import { recoverFromJournal } from "./journal_recovery.ts"
import { makePlan } from "./plan.ts"
import { initialProgress, nextProgress, progressWriteDue } from "./progress.ts"
import { foldersReadyToPublish, sourceFolderOf } from "./publish_plan.ts"
import { selectIndexes } from "./select_indexes.ts"

const folders = [
  { name: "A", path: "/a", enabled: true },
  { name: "B", path: "/b", enabled: false },
  { name: "C", path: "/c", enabled: true }
]

describe("selectIndexes() (R5)", () => {
  it.each([
    { only: [], tag: "selected", names: ["A", "C"], skipped: [] },
    { only: ["C"], tag: "selected", names: ["C"], skipped: [] },
    { only: ["C", "B", "Z"], tag: "selected", names: ["C"], skipped: [{ name: "B", reason: "disabled" }, { name: "Z", reason: "unknown" }] },
    { only: ["B", "Z"], tag: "noneSelected", names: [], skipped: [{ name: "B", reason: "disabled" }, { name: "Z", reason: "unknown" }] }
  ])("onlyNames $only → $tag $names", ({ only, tag, names, skipped }) => {
    const s = selectIndexes(folders, only)
    expect(s._tag).toBe(tag)
    if (s._tag === "selected") expect(s.selected.map((f) => f.name)).toEqual(names)
    if (s._tag !== "none") expect(s.onlySkipped).toEqual(skipped)
  })

  it("reports none when no index is enabled", () => {
    expect(selectIndexes([{ name: "B", path: "/b", enabled: false }], [])._tag).toBe("none")
  })
})

describe("workerKindOf() and pickNextDispatch() (R13)", () => {
  it.each([
    ["a/見積.xlsx", "plain"], ["old.xls", "plain"], ["b.xlsb", "plain"], ["calc.ods", "plain"], ["calc.fods", "spreadsheet"], ["x.docx", "plain"], ["y.DOC", "plain"],
    ["z.ppt", "plain"], ["w.rtf", "plain"], ["w.fodt", "document"], ["v.odp", "plain"], ["v.fodp", "presentation"]
  ])("%s goes to %s", (path, kind) => {
    expect(workerKindOf(path)).toBe(kind)
  })

  // `plain` idle plain workers (or one busy one, when 0), and the owners' free slots.
  const free = (plain: number, spreadsheet = 0, document = 0, presentation = 0) => ({
    plain: plain === 0 ? [{ files: 1, bytes: 20_000 }] : Array.from({ length: plain }, () => ({ files: 0, bytes: 0 })),
    owners: { spreadsheet, document, presentation }
  })
  it.each([
    { queue: ["plain", "plain"], slots: free(1), pick: { at: 0, worker: 1 } },
    { queue: ["spreadsheet", "plain"], slots: free(1, 0), pick: { at: 1, worker: 1 } },
    { queue: ["spreadsheet", "plain"], slots: free(0, 1), pick: { at: 0, worker: 0 } },
    { queue: ["document", "document"], slots: free(2, 1, 0), pick: undefined },
    { queue: [], slots: free(4), pick: undefined }
  ] as const)("$queue with $slots → $pick", ({ queue, slots, pick }) => {
    expect(pickNextDispatch(queue.map((kind) => ({ kind })), slots)).toEqual(pick)
  })

  it("looks no further than the 200-file window", () => {
    const queue = [...Array(200).fill({ kind: "spreadsheet" }), { kind: "plain" }]
    expect(pickNextDispatch(queue, free(1, 0))).toBeUndefined()
    expect(pickNextDispatch(queue.slice(1), free(1, 0))).toEqual({ at: 199, worker: 1 })
  })

  // Issue 20: a big file handed over last kept one worker and the 2-gram thread busy alone at the run's end.
  it("takes the first in order while more than the window waits, the largest once the window holds every target left", () => {
    const sized = (sizes: ReadonlyArray<number>) => sizes.map((size) => ({ kind: "plain" as const, size }))
    const big = [10, 20, 9_000_000, 30]
    // 201 targets left: a file past the window may still come in, so order rules.
    expect(pickNextDispatch(sized([...big, ...Array(197).fill(5)]), free(1))).toEqual({ at: 0, worker: 1 })
    // 200 left: the largest.
    expect(pickNextDispatch(sized([...big, ...Array(196).fill(5)]), free(1))).toEqual({ at: 2, worker: 1 })
    expect(pickNextDispatch(sized(big), free(1), { window: 3 })).toEqual({ at: 0, worker: 1 })
    expect(pickNextDispatch(sized(big.slice(1)), free(2), { window: 3 })).toEqual({ at: 1, worker: 1 })
    // Among equals, the first; unknown sizes count as 0.
    expect(pickNextDispatch(sized([7, 40, 40]), free(1))).toEqual({ at: 1, worker: 1 })
    expect(pickNextDispatch([{ kind: "plain" }, { kind: "plain", size: 0 }], free(1))).toEqual({ at: 0, worker: 1 })
    // Only among the files a worker can take now: the larger Office file waits for its owner.
    const mixed = [{ kind: "plain", size: 10 }, { kind: "document", size: 5_000 }, { kind: "plain", size: 300 }] as const
    expect(pickNextDispatch(mixed, free(1, 0, 0))).toEqual({ at: 2, worker: 1 })
    expect(pickNextDispatch(mixed, free(1, 0, 1))).toEqual({ at: 1, worker: 0 })
    expect(pickNextDispatch(mixed, free(0, 0, 0))).toBeUndefined()
  })

  it("C1: a file in flight at a kill goes after every other that can go, however large", () => {
    const queue = [{ kind: "plain", size: 10 }, { kind: "plain", size: 9_000_000, last: true }, { kind: "plain", size: 20 }] as const
    expect(pickNextDispatch(queue, free(1))).toEqual({ at: 2, worker: 1 })
    expect(pickNextDispatch(queue.slice(1, 2), free(1))).toEqual({ at: 0, worker: 1 })
    // Before the window holds every target left, order alone rules (C1's files stand at the list's end).
    expect(pickNextDispatch(queue, free(1), { window: 2 })).toEqual({ at: 0, worker: 1 })
  })

  // Issue 20: files queued ahead of a plain worker, so it never waits for the commander between two small files.
  const owners = { spreadsheet: 0, document: 0, presentation: 0 }
  const load = (files: number, bytes: number) => ({ files, bytes })
  it.each([
    { label: "no queue (the default): a busy worker takes nothing", plain: [load(1, 20_000)], queueFiles: undefined, pick: undefined },
    { label: "a worker reading a small file takes one more", plain: [load(1, 20_000)], queueFiles: 3, pick: { at: 0, worker: 1 } },
    { label: "…and one more", plain: [load(2, 40_000)], queueFiles: 3, pick: { at: 0, worker: 1 } },
    { label: "a worker holding three files takes no fourth", plain: [load(3, 60_000)], queueFiles: 3, pick: undefined },
    { label: "nothing is queued behind a big file", plain: [load(1, 30_000_000)], queueFiles: 3, pick: undefined },
    { label: "…the other worker takes it", plain: [load(1, 30_000_000), load(1, 20_000)], queueFiles: 3, pick: { at: 0, worker: 2 } },
    { label: "at 2 MB held a worker still takes one", plain: [load(1, 2_000_000)], queueFiles: 3, pick: { at: 0, worker: 1 } },
    { label: "an idle worker before a busy one", plain: [load(1, 20_000), load(0, 0)], queueFiles: 3, pick: { at: 0, worker: 2 } },
    { label: "the fewest files first", plain: [load(2, 30_000), load(1, 900_000)], queueFiles: 3, pick: { at: 0, worker: 2 } },
    { label: "then the fewest bytes", plain: [load(1, 30_000), load(1, 20_000)], queueFiles: 3, pick: { at: 0, worker: 2 } },
    { label: "then the lowest number", plain: [load(1, 20_000), load(1, 20_000)], queueFiles: 3, pick: { at: 0, worker: 1 } }
  ] as const)("$label", ({ plain, queueFiles, pick }) => {
    const options = queueFiles === undefined ? {} : { queueFiles }
    expect(pickNextDispatch([{ kind: "plain" }, { kind: "plain" }], { plain, owners }, options)).toEqual(pick)
  })

  it("a full plain queue does not hold back an Office file behind it in the window", () => {
    const queue = [{ kind: "plain" }, { kind: "document" }, { kind: "plain" }] as const
    expect(pickNextDispatch(queue, { plain: [load(3, 60_000)], owners: { ...owners, document: 1 } }, { queueFiles: 3 })).toEqual({ at: 1, worker: 0 })
  })
})

describe("decideOnResult() (R14)", () => {
  const failed = (reason: FailureReason, detail: string): IngestResult => ({ status: "failed", failure: { reason, detail }, log: [] })
  const done = (tsvCount: number): IngestResult => ({ status: "done", tsvCount, log: [] })
  const reroute = (app: AppKind, detail = "x"): IngestResult => ({ status: "reroute", failure: { reason: "needs-office", detail }, app, log: [] })
  const stopped: IngestResult = { status: "stopped", log: [] }
  it.each<{ r: IngestResult; stop: boolean; owner: boolean; d: unknown }>([
    { r: reroute("spreadsheet"), stop: false, owner: false, d: { _tag: "Reroute", app: "spreadsheet" } },
    { r: reroute("spreadsheet"), stop: true, owner: false, d: { _tag: "KeepPending" } },
    { r: reroute("document"), stop: false, owner: true, d: { _tag: "Record", status: "failed", failure: { reason: "needs-office", detail: "x" } } },
    { r: stopped, stop: true, owner: true, d: { _tag: "KeepPending" } },
    { r: done(2), stop: true, owner: false, d: { _tag: "Record", status: "done" } },
    { r: failed("corrupt", "bad zip"), stop: false, owner: false, d: { _tag: "Record", status: "failed", failure: { reason: "corrupt", detail: "bad zip" } } },
    { r: failed("unreadable", "EACCES"), stop: false, owner: false, d: { _tag: "Record", status: "failed", failure: { reason: "unreadable", detail: "EACCES" } } },
    // R18 (issue 15): the work folder could not take the file's files: the run's error, never the file's row.
    { r: failed("work-folder", "no space left"), stop: false, owner: true, d: { _tag: "WorkFolderFailed", failure: { reason: "work-folder", detail: "no space left" } } },
    { r: failed("work-folder", "no space left"), stop: true, owner: false, d: { _tag: "WorkFolderFailed", failure: { reason: "work-folder", detail: "no space left" } } }
  ])("$r.status (stop $stop, from owner $owner) → $d._tag", ({ r, stop, owner, d }) => {
    expect(decideOnResult(r, { stopRequested: stop, fromOwner: owner })).toEqual(d)
  })
  // R13: files queued ahead in a worker are read after their target folder may have gone (the
  // chaos campaign's renamed folder: two files recorded 'failed unreadable'); a full disk stays R18.
  it.each([
    { r: failed("unreadable", "ENOENT: no such file or directory"), gone: true, d: { _tag: "TargetLost" } },
    { r: failed("corrupt", "bad zip"), gone: true, d: { _tag: "TargetLost" } },
    { r: failed("unreadable", "ENOENT: no such file or directory"), gone: false, d: { _tag: "Record", status: "failed", failure: { reason: "unreadable", detail: "ENOENT: no such file or directory" } } },
    { r: failed("work-folder", "no space left"), gone: true, d: { _tag: "WorkFolderFailed", failure: { reason: "work-folder", detail: "no space left" } } },
    { r: done(1), gone: true, d: { _tag: "Record", status: "done" } }
  ])("$r.status with the target folder gone $gone → $d._tag", ({ r, gone, d }) => {
    expect(decideOnResult(r, { stopRequested: false, fromOwner: false, targetGone: gone })).toEqual(d)
  })
})

describe("foldersReadyToPublish() (R14, C2)", () => {
  const staged = [
    { index: "A", path: "x/1.xlsx", staging: "publish/9/w1/1" },
    { index: "A", path: "x/2.xlsx", staging: "publish/9/w2/2" },
    { index: "A", path: "y/3.xlsx", staging: "publish/9/w1/3" },
    { index: "B", path: "x/4.xlsx", staging: "publish/9/w1/4" },
    { index: "A", path: "5.xlsx", staging: "publish/9/w1/5" }
  ]
  it("publishes folders with nothing in flight or undispatched, keeps the rest", () => {
    const plan = foldersReadyToPublish(staged, [{ index: "A", path: "x/9.xlsx" }, { index: "A", path: "6.docx" }])
    expect(plan.publish.map((s) => s.path)).toEqual(["y/3.xlsx", "x/4.xlsx"])
    expect(plan.wait.map((s) => s.path)).toEqual(["x/1.xlsx", "x/2.xlsx", "5.xlsx"])
  })
  it("takes the busy folders as a test of their sourceFolderOf key, with the same answer", () => {
    const busy = new Set([sourceFolderOf("A", "x/9.xlsx"), sourceFolderOf("A", "6.docx")])
    const plan = foldersReadyToPublish(staged, (folder) => busy.has(folder))
    expect(plan.publish.map((s) => s.path)).toEqual(["y/3.xlsx", "x/4.xlsx"])
    expect(plan.wait.map((s) => s.path)).toEqual(["x/1.xlsx", "x/2.xlsx", "5.xlsx"])
  })
  it("publishes everything in the finally step (R15)", () => {
    expect(foldersReadyToPublish(staged, [{ index: "A", path: "x/9.xlsx" }], true).publish).toHaveLength(5)
  })
})

describe("recoverFromJournal() (R7, C1, C3)", () => {
  const row = (path: string, status: IngestRow["status"]): IngestRow => ({ index: "A", path, size: 1, mtimeMs: 1, status })
  it("publishes started-but-unpublished files and marks the pending ones in flight", () => {
    const entries: Array<JournalEntry> = [
      { _tag: "start", index: "A", path: "1.xlsx", staging: "publish/7/w1/1" },
      { _tag: "start", index: "A", path: "2.xlsx", staging: "publish/7/w2/2" },
      { _tag: "published", index: "A", path: "1.xlsx" },
      { _tag: "start", index: "A", path: "3.xlsx", staging: "publish/7/w1/3" },
      { _tag: "start", index: "A", path: "4.xlsx", staging: "publish/7/w2/4" }
    ]
    const r = recoverFromJournal(entries, [row("1.xlsx", "done"), row("2.xlsx", "done"), row("3.xlsx", "pending"), row("4.xlsx", "failed")])
    expect(r.publish.map((s) => s.path)).toEqual(["2.xlsx", "3.xlsx", "4.xlsx"])
    expect([...r.inFlight]).toEqual([fileKey("A", "3.xlsx")])
    expect(r.ended).toBe(false)
  })
  it("a rerouted file's last start wins; a clean journal ends with end", () => {
    const r = recoverFromJournal([
      { _tag: "start", index: "A", path: "x.xls", staging: "publish/7/w1/1" },
      { _tag: "start", index: "A", path: "x.xls", staging: "publish/7/o-spreadsheet/1" },
      { _tag: "published", index: "A", path: "x.xls" },
      { _tag: "end" }
    ], [])
    expect(r).toEqual({ publish: [], inFlight: new Set(), ended: true })
  })
})

describe("progressWriteDue() (P2)", () => {
  it.each([
    { event: { _tag: "dispatched", current: "A/a.xlsx" }, since: undefined, due: "now" },
    { event: { _tag: "result", failed: false, current: "A/a.xlsx" }, since: 30, due: "later" },
    { event: { _tag: "dispatched", current: "A/b.xlsx" }, since: 99.9, due: "later" },
    { event: { _tag: "result", failed: true, current: "A/b.xlsx" }, since: 100, due: "now" },
    { event: { _tag: "result", failed: false, current: "A/c.xlsx" }, since: 2500, due: "now" },
    // A phase change, the finalize step's steps and the end never wait.
    { event: { _tag: "phase", phase: "finalize", current: "書き出し中" }, since: 1, due: "now" },
    { event: { _tag: "current", current: "取り込み一覧の書き直し" }, since: 1, due: "now" },
    { event: { _tag: "ended", exitCode: 2, current: "中止しました" }, since: 0, due: "now" }
  ] as const)("$event._tag $since ms after the last write: $due", ({ event, since, due }) => {
    expect(progressWriteDue(event, since)).toBe(due)
  })
})

describe("makePlan() (R10)", () => {
  it("shows one entry per selected index with cloud-only and failed-last-time columns", () => {
    expect(makePlan([{ index: "A", new: 3, changed: 1, pending: 2, failedLastTime: 4, failedByEnvironment: 6, retry: 0, unchanged: 9, vanished: 1, cloudSkipped: 5 }])).toEqual({
      entries: [{ index: "A", new: 3, changed: 1, pending: 2, failedLastTime: 4, failedByEnvironment: 6, cloudOnly: 5, unchanged: 9, vanished: 1 }]
    })
  })
})

describe("closingMessage() (R17)", () => {
  it.each([
    { lang: "ja", stopped: false, ok: 3, failed: [], text: "インデックス作成が完了しました。（成功: 3 件 / 失敗: 0 件）" },
    { lang: "ja", stopped: true, ok: 1, failed: [], text: "インデックス作成を中止しました。（成功: 1 件 / 失敗: 0 件）" },
    {
      lang: "ja", stopped: false, ok: 0, failed: [{ index: "A", path: "x.xls", failure: { reason: "encrypted", detail: "…" } }],
      text: "インデックス作成が完了しました。（成功: 0 件 / 失敗: 1 件）\n失敗したファイルと原因:\n  A/x.xls: パスワードで保護されています。Office で開いてパスワードを外し、保存し直すと取り込めます。（encrypted: …）"
    },
    { lang: "en", stopped: false, ok: 2, failed: [], text: "Indexing completed. (succeeded: 2 / failed: 0)" }
  ] as const)("$lang stopped=$stopped ok=$ok", ({ lang, stopped, ok, failed, text }) => {
    expect(closingMessage(lang, { stopped, ok, failed })).toBe(text)
  })
})

describe("failedFilesForTerminal() (R17 on a terminal: the counts kept in sight)", () => {
  const file = (path: string, reason: FailureReason, detail = "…") => ({ index: "共有", path, failure: { reason, detail } })
  const encrypted = "パスワードで保護されています。Office で開いてパスワードを外し、保存し直すと取り込めます。"
  const corrupt = "ファイルが壊れています。Office で開いて保存し直すと直ることがあります。"

  it("each reason once with its count, its files under it without the detail, then where the details are", () => {
    expect(failedFilesForTerminal("ja", [file("a.xlsx", "corrupt"), file("b.doc", "encrypted"), file("c.pptx", "corrupt")], 10, " --work W")).toEqual([
      "失敗したファイルと原因:",
      `  ${corrupt}（2 件）`,
      "    共有/a.xlsx",
      "    共有/c.pptx",
      `  ${encrypted}（1 件）`,
      "    共有/b.doc",
      "  詳しい原因は sagasu status --failed --work W で表示します。"
    ])
  })

  it("at most `limit` files, each reason a share of what is left, and how many more", () => {
    const many = [...["1", "2", "3", "4", "5", "6"].map((n) => file(`${n}.xls`, "encrypted")), file("x.xlsx", "corrupt"), file("y.xlsx", "corrupt")]
    expect(failedFilesForTerminal("ja", many, 4)).toEqual([
      "失敗したファイルと原因:",
      `  ${encrypted}（6 件）`,
      "    共有/1.xls",
      "    共有/2.xls",
      `  ${corrupt}（2 件）`,
      "    共有/x.xlsx",
      "    共有/y.xlsx",
      "  ほか 4 件。すべてのファイルと詳しい原因は sagasu status --failed で表示します。"
    ])
    // A reason with fewer files than its share leaves the rest to the next.
    expect(failedFilesForTerminal("en", [file("x.xlsx", "corrupt"), ...many.slice(0, 6)], 4).slice(1)).toEqual([
      "  The file is damaged; open it in Office and save it again (Office often repairs it). (1)",
      "    共有/x.xlsx",
      "  The file is password-protected; open it in Office, remove the password and save it again to index it. (6)",
      "    共有/1.xls",
      "    共有/2.xls",
      "    共有/3.xls",
      "  …and 3 more; sagasu status --failed shows every file with the details."
    ])
  })

  it("a reason recorded by another version keeps its detail, which is all it says; nothing failed, no lines", () => {
    expect(failedFilesForTerminal("ja", [file("z.docx", "unknown", "old-reason: 古い版の原因")], 10)[2]).toBe("    共有/z.docx: old-reason: 古い版の原因")
    expect(failedFilesForTerminal("ja", [], 10)).toEqual([])
  })
})

describe("nextProgress() (P1)", () => {
  it("follows a run: crawl → ingest → results → finalize → ended", () => {
    let p = nextProgress(initialProgress, { _tag: "phase", phase: "crawl", current: "crawling A (/a)" })
    expect(p).toEqual({ phase: "crawl", processed: 0, remaining: 0, failed: 0, current: "crawling A (/a)" })
    p = nextProgress(p, { _tag: "phase", phase: "ingest", current: "ingesting", remaining: 3 })
    p = nextProgress(p, { _tag: "dispatched", current: "A/1.xlsx" })
    p = nextProgress(p, { _tag: "result", failed: false, current: "A/1.xlsx: done" })
    p = nextProgress(p, { _tag: "result", failed: true, current: "A/2.xlsx: failed" })
    expect(p).toMatchObject({ phase: "ingest", processed: 2, remaining: 1, failed: 1 })
    p = nextProgress(p, { _tag: "phase", phase: "finalize", current: "rewriting the ingest list" })
    p = nextProgress(p, { _tag: "ended", exitCode: 2, current: "stopped" })
    expect(p).toEqual({ phase: "finalize", processed: 2, remaining: 1, failed: 1, current: "stopped", exitCode: 2 })
  })
})
