import { describe, expect, it } from "vitest"
import { failedTasks, failureExcerpt, failureReport } from "./test_all.ts"

// Lines as turbo prints them (task prefix; vitest's colours), cut from a real CI log by hand.
const output = [
  "@sagasu/domain:test:  \x1b[32m✓\x1b[39m src/search_query.test.ts (120 tests) 40ms",
  "@sagasu/domain:test:  Test Files  30 passed (30)",
  "@sagasu/ingest:test:  \x1b[32m✓\x1b[39m src/crawl.test.ts (13 tests) 242ms",
  "@sagasu/ingest:test:    \x1b[31m×\x1b[39m makeOfficeOwner() > hands over 300273ms",
  "@sagasu/gui:test:  ✓ src/app.test.ts (40 tests) 900ms",
  "@sagasu/ingest:test: \x1b[31m⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯\x1b[39m",
  "@sagasu/ingest:test: ",
  "@sagasu/ingest:test:  FAIL  src/office/office_owner.test.ts > makeOfficeOwner() > hands over",
  "@sagasu/gui:test:  Test Files  13 passed (13)",
  "@sagasu/ingest:test: AssertionError: expected [ 27057 ] to deeply equal []",
  "@sagasu/ingest:test:  ❯ src/office/office_owner.test.ts:729:66",
  "@sagasu/ingest:test:  Test Files  1 failed | 35 passed (36)",
  "@sagasu/ingest:test:       Tests  1 failed | 857 passed (858)",
  "@sagasu/cli:typecheck: src/main.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
  "@sagasu/tools:test:  Test Files  15 passed (15)",
  "",
  " Tasks:    12 successful, 14 total",
  "Failed:    @sagasu/ingest#test, @sagasu/cli#typecheck",
  ""
].join("\n")

describe("npm test's closing report of failed tasks", () => {
  it("names the failed tasks from turbo's Failed: line", () => {
    expect(failedTasks(output)).toEqual(["@sagasu/ingest:test", "@sagasu/cli:typecheck"])
    expect(failedTasks(output.replace(/^Failed:.*$/m, ""))).toEqual([])
  })

  it("repeats a failed vitest task's failed tests: the × and FAIL lines, the Failed Tests section to its count", () => {
    expect(failureExcerpt(output, "@sagasu/ingest:test")).toEqual([
      "   × makeOfficeOwner() > hands over 300273ms",
      "⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯",
      "",
      " FAIL  src/office/office_owner.test.ts > makeOfficeOwner() > hands over",
      "AssertionError: expected [ 27057 ] to deeply equal []",
      " ❯ src/office/office_owner.test.ts:729:66",
      " Test Files  1 failed | 35 passed (36)"
    ])
  })

  it("repeats the last lines of a failed task without vitest's sections (a type error)", () => {
    expect(failureExcerpt(output, "@sagasu/cli:typecheck")).toEqual([
      "src/main.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'."
    ])
  })

  it("is empty when no task failed, and otherwise ends the output with every failed task", () => {
    expect(failureReport(output.replace(/^Failed:.*$/m, ""))).toBe("")
    const report = failureReport(output)
    expect(report).toContain("--- @sagasu/ingest:test ---\n   × makeOfficeOwner() > hands over 300273ms\n")
    expect(report).toContain("--- @sagasu/cli:typecheck ---\nsrc/main.ts(3,7): error TS2322")
    expect(report).not.toContain("@sagasu/gui")
  })
})
