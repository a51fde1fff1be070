import { describe, expect, it } from "vitest"
import { fileFormatOf } from "./app_kind.ts"

describe("fileFormatOf() (R13: the file's application)", () => {
  it.each([
    ["見積書.xlsx", "spreadsheet", "plain"],
    ["macro.XLSM", "spreadsheet", "plain"],
    // W3: legacy Excel goes to the plain workers first (rerouted to the owner when they cannot read it, R14).
    ["old.xls", "spreadsheet", "plain"],
    ["TEMPLATE.XLT", "spreadsheet", "plain"],
    ["binary.xlsb", "spreadsheet", "plain"],
    // W3 (issue 20): OpenDocument packages too; flat OpenDocument XML stays with Office.
    ["calc.ods", "spreadsheet", "plain"],
    // OpenDocument templates, read as their documents are (found by the hostile-file trial: not indexed at all).
    ["見積.ots", "spreadsheet", "plain"],
    ["議事録.OTT", "document", "plain"],
    ["説明会.otp", "presentation", "plain"],
    ["flat.fods", "spreadsheet", "office"],
    ["議事録.docx", "document", "plain"],
    ["legacy.DOC", "document", "plain"],
    ["template.dot", "document", "plain"],
    ["memo.rtf", "document", "plain"],
    ["writer.odt", "document", "plain"],
    ["flat.fodt", "document", "office"],
    ["deck.pptx", "presentation", "plain"],
    ["show.ppsx", "presentation", "plain"],
    ["old.ppt", "presentation", "plain"],
    ["show.PPS", "presentation", "plain"],
    ["design.pot", "presentation", "plain"],
    ["impress.odp", "presentation", "plain"],
    ["flat.fodp", "presentation", "office"]
  ])("%s → %s / %s", (name, app, reader) => {
    expect(fileFormatOf(name)).toMatchObject({ app, reader })
  })

  it.each(["notes.txt", "image.png", "README", ".xlsx", "trailing.", "archive.xlsx.zip"])(
    "%s is not an Office document",
    (name) => {
      expect(fileFormatOf(name)).toBeUndefined()
    }
  )
})
