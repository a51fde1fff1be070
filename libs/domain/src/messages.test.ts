import { describe, expect, it } from "vitest"
import { inBothLanguages, messages } from "./messages.ts"

// Kana, kanji and the full-width forms: a Japanese text has at least one of them.
const japanese = /[\u3040-\u30ff\u3400-\u9fff\uff01-\uff60]/

// A function's text is checked in its source (any signature, including the structured ones of other
// sections); a string as it is.
const textOf = (value: unknown): string => (typeof value === "function" ? value.toString() : String(value))

describe("the message catalogue (issue 16: one catalogue, Japanese first)", () => {
  const ja = messages("ja") as unknown as Record<string, unknown>
  const en = messages("en") as unknown as Record<string, unknown>

  // failureReason looks its sentence up in a table: failure_reason.test.ts walks every reason of it.
  const tables = new Set(["failureReason"])

  it.each(Object.keys(ja).filter((k) => !tables.has(k)))("%s has a Japanese text", (key) => {
    expect(textOf(ja[key]), key).toMatch(japanese)
  })

  it("every key has an English text of the same kind, and no English key is missing in Japanese", () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(ja).sort())
    for (const key of Object.keys(ja)) {
      expect(typeof en[key], key).toBe(typeof ja[key])
      expect(textOf(en[key]), key).not.toBe(textOf(ja[key]))
    }
  })

  it("inBothLanguages() gives the Japanese line first, then the English one", () => {
    expect(inBothLanguages((t) => t.workFolderUnusable("missing", "/srv/作業"))).toBe(
      "作業フォルダを使えません（/srv/作業）: フォルダがありません。sagasu init で作ってください\n" +
        "The work folder cannot be used (/srv/作業): the folder does not exist; create it with `sagasu init`"
    )
  })

  it("init says the work folder is ready and what comes next, in each language", () => {
    expect(messages("ja").workFolderReady("/srv/作業")).toBe("作業フォルダを用意しました: /srv/作業\n次は sagasu add 名前 フォルダ でインデックスを追加します。")
    expect(messages("en").workFolderReady("/srv/work")).toBe("Work folder ready: /srv/work\nNext: sagasu add NAME PATH")
  })
})
