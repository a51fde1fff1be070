/**
 * oneByteSource (issue 20): a bundle's text with no character past U+00FF,
 * meaning the same program. Each row's source is evaluated as it stands and
 * rewritten; both must give the same value.
 */
import * as vm from "node:vm"
import { describe, expect, it } from "vitest"
import { oneByteSource } from "./one_byte_source.cjs"

const rows: ReadonlyArray<readonly [string, string]> = [
  ["a string", `"見積番号"`],
  ["a regular expression's class", `/[:：]/.test("区分：A")`],
  ["a range of kana", `"かキ".replace(/[ぁ-ゖ]/g, "_")`],
  ["an identity escape of a CJK character", String.raw`/\：/.test("a：b")`],
  ["a backslash before it, escaped itself", String.raw`"\\：".length`],
  ["an astral character in a regular expression, u flag", `/^[😀]$/u.test("😀")`],
  ["an astral character, no u flag", `/😀/.test("a😀")`],
  ["a comment", `/** 午後 */ 1 + 1`],
  ["a template", "`${1}円`"],
  ["Latin-1 left as it is", `"µ±é"`]
]

describe("oneByteSource()", () => {
  it.each(rows)("%s", (_label, source) => {
    const rewritten = oneByteSource(source)
    expect(rewritten).not.toMatch(/[^\u0000-\u00ff]/)
    expect(vm.runInNewContext(rewritten)).toEqual(vm.runInNewContext(source))
  })

  it("writes the escape it promises, and leaves one-byte text alone", () => {
    expect(oneByteSource(`/[:：]/`)).toBe(String.raw`/[:\uff1a]/`)
    expect(oneByteSource(String.raw`/\：/`)).toBe(String.raw`/\uff1a/`)
    expect(oneByteSource(`"µ±é" // ok`)).toBe(`"µ±é" // ok`)
  })
})
