import type { FailureReason } from "@sagasu/domain"
import { describe, expect, it } from "vitest"
import { saysDiskFull, spaceNeededFor, workAreaTooFull, workFolderFailure } from "./work_area_space.ts"

// R18, issue 15: the three failures seen with the work folder's disk full (a tmpfs filled by another
// program), and failures that must stay what they are.
describe("workFolderFailure(): a full disk on the Office path is the work folder's, not the file's", () => {
  const GB = 1024 ** 3
  const at = (free: number | undefined) => ({ workArea: "/w/tmp", sourceBytes: 30_000, freeBytes: () => free })
  it.each([
    { name: "conversion-failed, LibreOffice says Class:Space", reason: "conversion-failed", detail: "LibreOffice wrote no output (exit 0; it said: Error: Please verify input parameters... (SfxBaseModel::impl_store <file:///w/tmp/office/spreadsheet/out/3.xlsx> failed: 0x81a(Error Area:Io Class:Space Code:26)))", free: 40 * GB, full: true },
    { name: "office-start-failed, insufficient free disk space", reason: "office-start-failed", detail: "LibreOffice exited during start-up (exit code 1): The application cannot be started. / User installation could not be completed due to insufficient free disk space.", free: 40 * GB, full: true },
    { name: "the copy into the work area, ENOSPC", reason: "unreadable", detail: "the file could not be copied to the work area: FileSystem.writeFile (/w/tmp/office/document/in/7.doc): ENOSPC: no space left on device, write", free: 40 * GB, full: true },
    { name: "corrupt from a truncated output, 1.4 MB free", reason: "corrupt", detail: "in the xlsx LibreOffice wrote: the zip's central directory is missing", free: 1_400_000, full: true },
    { name: "corrupt, plenty of space", reason: "corrupt", detail: "in the xlsx LibreOffice wrote: the zip's central directory is missing", free: 40 * GB, full: false },
    { name: "conversion-failed, plenty of space", reason: "conversion-failed", detail: "LibreOffice wrote no output (exit 0; it said: no output)", free: 40 * GB, full: false },
    { name: "encrypted, disk full (found from the bytes)", reason: "encrypted", detail: "OLE2 container with an EncryptedPackage stream", free: 0, full: false },
    { name: "empty-file, disk full", reason: "empty-file", detail: "0 bytes", free: 0, full: false },
    { name: "office-missing, disk full", reason: "office-missing", detail: "command \"soffice\" not found", free: 0, full: false },
    { name: "timeout, free space unknown", reason: "timeout", detail: "no result after 10m", free: undefined, full: false }
  ])("$name → work-folder $full", ({ reason, detail, free, full }) => {
    const got = workFolderFailure({ reason: reason as FailureReason, detail }, at(free))
    if (full) {
      expect(got?.reason).toBe("work-folder")
      expect(got?.detail).toMatch(/^no space left on the disk of the work folder for LibreOffice \(/)
      expect(got?.detail).toContain(`it said ${reason}: ${detail}`)
    } else {
      expect(got).toBeUndefined()
    }
  })

  it("needs room for LibreOffice's profile and twice the source", () => {
    expect(spaceNeededFor(0)).toBe(16 * 1024 * 1024)
    expect(spaceNeededFor(10 * 1024 * 1024)).toBe(36 * 1024 * 1024)
    const tight = { workArea: "/w/tmp", sourceBytes: 10 * 1024 * 1024 }
    expect(workFolderFailure({ reason: "corrupt", detail: "x" }, { ...tight, freeBytes: () => 36 * 1024 * 1024 - 1 })).toBeDefined()
    expect(workFolderFailure({ reason: "corrupt", detail: "x" }, { ...tight, freeBytes: () => 36 * 1024 * 1024 })).toBeUndefined()
  })

  it("workAreaTooFull(): LibreOffice is not asked with less room than it needs (it died or hung, not failed)", () => {
    expect(workAreaTooFull("/w/tmp", 0, () => 1_000_000)).toEqual({
      reason: "work-folder",
      detail: `no space left on the disk of the work folder for LibreOffice (1000000 bytes free, it needs about ${16 * 1024 * 1024})`
    })
    expect(workAreaTooFull("/w/tmp", 0, () => 16 * 1024 * 1024)).toBeUndefined()
    expect(workAreaTooFull("/w/tmp", 0, () => undefined)).toBeUndefined()
  })

  it.each([
    ["ENOSPC: no space left on device, write", true],
    ["Error Area:Io Class:Space Code:26", true],
    ["disk full", true],
    ["Error Area:Io Class:Read Code:23", false],
    ["the file is damaged", false]
  ])("saysDiskFull(%j) → %s", (text, says) => {
    expect(saysDiskFull(text)).toBe(says)
  })
})
