/**
 * The cloud-only rule on Windows (SPEC §5, issue 19), over `fs.Stats` as
 * Node reports them there. Node's `lstat` carries no file attributes, so a
 * OneDrive placeholder (FILE_ATTRIBUTE_RECALL_ON_DATA_ACCESS, _OFFLINE) is
 * not seen by its attributes; and `blocks` (from the allocation size) is 0
 * also for a small file NTFS keeps inside its MFT record, so blocks alone
 * would take such a file for a placeholder (README "Untested on Windows").
 */
import type { Stats } from "node:fs"
import { describe, expect, it } from "vitest"
import { posixCloudOnlyRule, windowsCloudOnlyRule } from "./cloud_only.ts"

// A 24 KB workbook on NTFS, and a 600-byte file resident in its MFT record (no clusters allocated).
const ntfs: Pick<Stats, "size" | "blocks"> = { size: 24_576, blocks: 48 }
const resident: Pick<Stats, "size" | "blocks"> = { size: 600, blocks: 0 }

describe("windowsCloudOnlyRule (issue 19)", () => {
  it("goes by placeholder names only, never by blocks", () => {
    expect(windowsCloudOnlyRule(ntfs, "見積書.xlsx")).toBe(false)
    expect(windowsCloudOnlyRule(resident, "見積書.xlsx")).toBe(false)
    expect(windowsCloudOnlyRule(resident, "メモ.txt.cloud")).toBe(true)
    expect(windowsCloudOnlyRule(resident, "メモ.TXT.CLOUDF")).toBe(true)
    expect(windowsCloudOnlyRule(ntfs, "報告書.docx.icloud")).toBe(true)
    // The POSIX rule would take the resident file for a sparse placeholder.
    expect(posixCloudOnlyRule(resident, "見積書.xlsx")).toBe(true)
  })
})
