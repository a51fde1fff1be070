import { describe, expect, it } from "vitest"
import { defaultPlanAnswer } from "./plan.ts"

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
