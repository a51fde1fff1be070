import { describe, expect, it } from "vitest"
import { FailureReason, failureCause, formatFailureText, parseFailureText } from "./failure_reason.ts"
import { messages } from "./messages.ts"

// Issue 15: whose fault each failure is — the file's (retried only when asked), the environment's
// (retried by the next run), the work folder's (the run's error, R18; the file stays pending).
describe("failureCause()", () => {
  // The reasons of each cause, written as the issue states them (the code keeps one record per reason).
  const byCause = {
    file: ["empty-file", "encrypted", "needs-office", "not-office", "corrupt", "too-large", "conversion-failed", "path-too-long", "timeout", "unknown"],
    environment: ["unreadable", "office-missing", "office-start-failed"],
    "work-folder": ["work-folder"]
  } as const
  const table = Object.entries(byCause).flatMap(([cause, reasons]) => reasons.map((reason) => [reason, cause] as const))
  it("covers every reason a worker or the commander gives, each once", () => {
    expect(table.map(([reason]) => reason).sort()).toEqual([...FailureReason.literals].sort())
  })
  it.each(table)("%s → %s", (reason, cause) => {
    expect(failureCause(reason as FailureReason)).toBe(cause)
  })
})

describe("FailureFromText: a row's reason text, decoded at the row format's edge (issue 17)", () => {
  it.each([
    ["unreadable: EACCES: permission denied, open '/s/a.xlsx'", "unreadable", "environment"],
    ["office-start-failed: LibreOffice exited during start-up (exit code 1): insufficient free disk space", "office-start-failed", "environment"],
    ["work-folder: the TSVs could not be written to the work folder (ENOSPC)", "work-folder", "work-folder"],
    ["encrypted: OLE2 container with an EncryptedPackage stream", "encrypted", "file"],
    ["timeout: no result after 10m", "timeout", "file"],
    ["corrupt", "corrupt", "file"],
    // An older version's staging failure: unreadable, so retried — it was never the file's fault.
    ["unreadable: the TSVs could not be written to the work folder (ENOSPC)", "unreadable", "environment"],
    ["Corrupt: capitals are another word", undefined, "file"],
    ["a reason without a known head: unreadable", undefined, "file"],
    ["", undefined, "file"]
  ] as const)("%j → %s, %s", (text, reason, cause) => {
    const failure = parseFailureText(text)
    expect(failure.reason).toBe(reason ?? "unknown")
    expect(failureCause(failure.reason)).toBe(cause)
    expect(formatFailureText(failure)).toBe(text)
  })
})

// Issue 17: every reason a person can be shown has its sentence, Japanese first; a reason added
// without one fails here.
describe("the catalogue's failureReason(): a sentence for every FailureReason", () => {
  it.each(FailureReason.literals)("%s", (reason) => {
    const ja = messages("ja").failureReason(reason)
    const en = messages("en").failureReason(reason)
    expect(ja.trim()).not.toBe("")
    expect(ja).toMatch(/[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u)
    expect(en.trim()).not.toBe("")
    expect(ja).not.toBe(en)
  })
  it("failure() puts the code and detail after the sentence; a row of another version shows its text", () => {
    expect(messages("ja").failure({ reason: "corrupt", detail: "bad zip" })).toBe("ファイルが壊れています。Office で開いて保存し直すと直ることがあります。（corrupt: bad zip）")
    expect(messages("en").failure({ reason: "timeout", detail: "" })).toBe(
      "Reading took too long; the file may be very large or damaged (raise fileTimeoutMinutes to give it more time). (timeout)"
    )
    expect(messages("ja").failure({ reason: "unknown", detail: "old text" })).toBe("別の版が記録した原因です。（old text）")
  })
})
