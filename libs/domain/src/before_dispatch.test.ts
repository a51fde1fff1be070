import { describe, expect, it } from "vitest"
import { decideBeforeDispatch, dispatchHalted, stoppedAtOnce } from "./before_dispatch.ts"

describe("dispatchHalted() (R13, R14, R18)", () => {
  it.each([
    { stopped: false, folderLost: false, workFolderFailed: false, halted: false },
    { stopped: true, folderLost: false, workFolderFailed: false, halted: true },
    { stopped: false, folderLost: true, workFolderFailed: false, halted: true },
    { stopped: false, folderLost: false, workFolderFailed: true, halted: true },
    { stopped: true, folderLost: true, workFolderFailed: true, halted: true }
  ])("stopped $stopped, folder lost $folderLost, work folder failed $workFolderFailed → $halted", ({ halted, ...state }) => {
    expect(dispatchHalted(state)).toBe(halted)
  })
})

describe("decideBeforeDispatch() (R13)", () => {
  it.each([
    { source: true, folder: true, decision: "Submit", asked: ["source"] },
    { source: true, folder: false, decision: "Submit", asked: ["source"] },
    { source: false, folder: true, decision: "SourceGone", asked: ["source", "folder"] },
    { source: false, folder: false, decision: "FolderLost", asked: ["source", "folder"] }
  ])("source is a file $source, folder there $folder → $decision", ({ source, folder, decision, asked }) => {
    const questions: Array<string> = []
    const d = decideBeforeDispatch({
      sourceIsFile: () => (questions.push("source"), source),
      folderIsThere: () => (questions.push("folder"), folder)
    })
    expect(d._tag).toBe(decision)
    // The folder is looked at only for a source that is not there (one stat per file otherwise).
    expect(questions).toEqual(asked)
  })
})

describe("stoppedAtOnce() (W5)", () => {
  it.each([
    ["plain", false], ["spreadsheet", true], ["document", true], ["presentation", true]
  ] as const)("%s → %s", (kind, atOnce) => {
    expect(stoppedAtOnce(kind)).toBe(atOnce)
  })
})
