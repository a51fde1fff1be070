import { describe, expect, it } from "vitest"
import { FailureReason, failureCause, failureCauseOf, failureReasonOf } from "./failure_reason.ts"

// Issue 15: whose fault each failure is — the file's (retried only when asked), the environment's
// (retried by the next run), the work folder's (the run's error, R18; the file stays pending).
describe("failureCause()", () => {
  const table = {
    "empty-file": "file",
    encrypted: "file",
    "needs-office": "file",
    "not-office": "file",
    corrupt: "file",
    "too-large": "file",
    "conversion-failed": "file",
    "path-too-long": "file",
    timeout: "file",
    unreadable: "environment",
    "office-missing": "environment",
    "office-start-failed": "environment",
    "work-folder": "work-folder"
  } as const
  it("covers every reason a worker or the commander gives", () => {
    expect(Object.keys(table).sort()).toEqual([...FailureReason.literals].sort())
  })
  it.each(Object.entries(table))("%s → %s", (reason, cause) => {
    expect(failureCause(reason as FailureReason)).toBe(cause)
  })
})

describe("failureReasonOf() / failureCauseOf(): a row's reason text", () => {
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
    expect(failureReasonOf(text)).toBe(reason)
    expect(failureCauseOf(text)).toBe(cause)
  })
})
