import { describe, expect, it } from "vitest"
import type { IngestRow } from "./ingest_list.ts"
import { decideConfirmation, defaultPlanAnswer, makePlan, planTargetCount } from "./plan.ts"
import { type CrawledFile, computeTargetList } from "./target_list.ts"

describe("planTargetCount() (R9, R10: what a yes would ingest)", () => {
  const file = (index: string, path: string, size = 100, cloudOnly = false): CrawledFile => ({ index, path, size, mtimeMs: 1000, cloudOnly })
  const row = (index: string, path: string, status: IngestRow["status"], reason: "corrupt" | "unreadable" = "corrupt"): IngestRow => ({
    index, path, size: 100, mtimeMs: 1000, status, ...(status === "failed" ? { failure: { reason, detail: "x" } } : {})
  })
  // Two indexes with one file of each kind: new, changed, pending, failed for the file, failed for
  // the environment, cloud-only, unchanged; and one file gone.
  const crawl = ["A", "B"].flatMap((i) => [
    file(i, "new.xlsx"), file(i, "changed.xlsx", 200), file(i, "pending.xlsx"), file(i, "failed.xlsx"), file(i, "env.xlsx"),
    file(i, "cloud.xlsx", 100, true), file(i, "same.xlsx")
  ])
  const previous = ["A", "B"].flatMap((i) => [
    row(i, "changed.xlsx", "done"), row(i, "pending.xlsx", "pending"), row(i, "failed.xlsx", "failed"),
    row(i, "env.xlsx", "failed", "unreadable"), row(i, "same.xlsx", "done"), row(i, "gone.xlsx", "done")
  ])
  const decide = (retryFailed: boolean, includeCloud: boolean) =>
    computeTargetList(crawl, previous, { crawledIndexes: ["A", "B"], retryFailed, includeCloud })
  const plan = makePlan(decide(false, false).counts)

  it.each([
    [false, false, 8],
    [true, false, 10],
    [false, true, 10],
    [true, true, 12]
  ])("retryFailed %s, includeCloud %s → %i, as computeTargetList decides", (retryFailed, includeCloud, expected) => {
    expect(planTargetCount(plan, { retryFailed, includeCloud })).toBe(expected)
    expect(decide(retryFailed, includeCloud).targets).toHaveLength(expected)
  })

  it("is 0 for a plan of unchanged, failed and vanished files only, unless the answer retries or downloads", () => {
    const quiet = makePlan([{ index: "A", new: 0, changed: 0, pending: 0, failedLastTime: 26, failedByEnvironment: 0, retry: 0, unchanged: 240, vanished: 3, cloudSkipped: 2 }])
    expect(planTargetCount(quiet, { retryFailed: false, includeCloud: false })).toBe(0)
    expect(planTargetCount(quiet, { retryFailed: true, includeCloud: false })).toBe(26)
    expect(planTargetCount(quiet, { retryFailed: false, includeCloud: true })).toBe(2)
  })
})

describe("defaultPlanAnswer() (R9, R10)", () => {
  it.each([
    { retryFailed: false, includeCloud: undefined, cloudFiles: "skip", answer: { retryFailed: false, includeCloud: false } },
    { retryFailed: false, includeCloud: undefined, cloudFiles: "download", answer: { retryFailed: false, includeCloud: true } },
    { retryFailed: true, includeCloud: true, cloudFiles: "skip", answer: { retryFailed: true, includeCloud: true } },
    // The front end's word wins over the setting, both ways.
    { retryFailed: false, includeCloud: false, cloudFiles: "download", answer: { retryFailed: false, includeCloud: false } }
  ] as const)("retryFailed $retryFailed, includeCloud $includeCloud, cloudFiles $cloudFiles → $answer", ({ answer, ...options }) => {
    expect(defaultPlanAnswer(options)).toEqual(answer)
  })
})

describe("decideConfirmation() (R8, R10)", () => {
  const said = { retryFailed: true, includeCloud: undefined, cloudFiles: "download" } as const
  it.each([
    { stoppedDuringCrawl: true, confirmTargets: true, decision: { _tag: "Cancel" } },
    { stoppedDuringCrawl: true, confirmTargets: false, decision: { _tag: "Cancel" } },
    { stoppedDuringCrawl: false, confirmTargets: true, decision: { _tag: "Ask" } },
    { stoppedDuringCrawl: false, confirmTargets: false, decision: { _tag: "Answer", answer: { retryFailed: true, includeCloud: true } } }
  ])("stopped during the crawl $stoppedDuringCrawl, confirm $confirmTargets → $decision._tag", ({ decision, ...options }) => {
    expect(decideConfirmation({ ...said, ...options })).toEqual(decision)
  })
})
