import { describe, expect, it } from "vitest"
import { decideConfirmation, defaultPlanAnswer } from "./plan.ts"

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
