import { describe, expect, it } from "vitest"
import { uiText } from "./ui_text.ts"

// Kana, kanji and the full-width forms: a Japanese text has at least one of them.
const japanese = /[\u3040-\u30ff\u3400-\u9fff\uff01-\uff60]/
// The product names, the same in both languages.
const names = new Set(["typeExcel", "typeWord", "typePowerPoint"])

// Every text of the page by its key path (`phase.crawl`); a function by its source, so any signature is checked.
const leaves = (value: unknown, key = ""): Array<readonly [string, string]> =>
  typeof value === "object" && value !== null
    ? Object.entries(value).flatMap(([k, v]) => leaves(v, key === "" ? k : `${key}.${k}`))
    : [[key, typeof value === "function" ? value.toString() : String(value)]]

describe("the page's words (issue 16: every label Japanese, English when chosen)", () => {
  const ja = leaves(uiText("ja"))
  const en = new Map(leaves(uiText("en")))

  it.each(ja.filter(([key]) => !names.has(key)))("%s has a Japanese text", (key, text) => {
    expect(text, key).toMatch(japanese)
  })

  it("every Japanese key has an English one", () => {
    expect(ja.map(([key]) => key).filter((key) => !en.has(key))).toEqual([])
    expect([...en.keys()].filter((key) => !ja.some(([k]) => k === key))).toEqual([])
  })
})
