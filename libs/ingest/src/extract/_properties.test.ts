// S4 (issue 14): document properties are searched like the text, as the part `properties`, last.
import { describe, expect, it } from "@effect/vitest"
import { propertiesPartName } from "@sagasu/domain"
import { Effect } from "effect"
import { extractBuffer } from "../extract.ts"
import { propertySetStrings } from "./_properties.ts"
import { documentFiles, zipOf } from "./_test_packages.ts"

const core = `<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>四半期  報告</dc:title><dc:creator>山田 太郎</dc:creator><cp:keywords>予算</cp:keywords><cp:lastModifiedBy></cp:lastModifiedBy></cp:coreProperties>`
const app = `<?xml version="1.0" encoding="UTF-8"?><Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Company>東京商事</Company><Pages>1</Pages></Properties>`
const body = `<w:p><w:r><w:t>本文</w:t></w:r></w:p>`

const extract = (files: Record<string, string>) =>
  Effect.flatMap(Effect.promise(() => zipOf(files)), (bytes) => extractBuffer(bytes, "報告.docx"))

describe("document properties (S4, issue 14)", () => {
  it.effect("an OOXML package's core and app properties come last as the part properties; empty ones and counts are left out", () =>
    Effect.gen(function* () {
      const { parts } = yield* extract({ ...documentFiles(body), "docProps/core.xml": core, "docProps/app.xml": app })
      expect(parts.map((p) => p.name)).toEqual(["document", propertiesPartName])
      expect(parts[1]?.locator).toBe("property")
      expect(parts[1]?.lines).toEqual([
        { loc: "title", text: "四半期 報告" },
        { loc: "author", text: "山田 太郎" },
        { loc: "keywords", text: "予算" },
        { loc: "company", text: "東京商事" }
      ])
    }))

  it.effect("a damaged or missing property part gives no properties; the text is read as before", () =>
    Effect.gen(function* () {
      const damaged = yield* extract({ ...documentFiles(body), "docProps/core.xml": "<cp:coreProperties><dc:title>x" })
      expect(damaged.parts.map((p) => p.name)).toEqual(["document"])
      expect(damaged.parts[0]?.lines.map((l) => l.text)).toEqual(["本文"])
      const none = yield* extract(documentFiles(body))
      expect(none.parts.map((p) => p.name)).toEqual(["document"])
    }))

  it("propertySetStrings() reads VT_LPSTR in the set's code page and VT_LPWSTR; a truncated stream gives what was read", () => {
    // One property set: code page 932 (id 1), title VT_LPSTR (id 2), author VT_LPWSTR (id 4).
    const title = new Uint8Array([0x8c, 0xa9, 0x90, 0xcf, 0x00]) // 見積 in Shift_JIS, NUL-terminated
    const author = "山田"
    const entries: Array<[number, Uint8Array]> = [
      [1, new Uint8Array([0x02, 0, 0, 0, 0xa4, 0x03, 0, 0])],
      [2, concat(u16u32(0x1e, title.length), title, pad(title.length))],
      [4, concat(u16u32(0x1f, author.length), utf16(author))]
    ]
    const headerSize = 8 + entries.length * 8
    let offset = headerSize
    const table: Array<number> = []
    for (const [id, bytes] of entries) {
      table.push(id, offset)
      offset += bytes.length
    }
    const set = concat(le32(offset, entries.length), le32(...table), ...entries.map(([, b]) => b))
    const stream = concat(new Uint8Array([0xfe, 0xff]), new Uint8Array(42), le32(48), set)
    const ids = [[2, "title"], [4, "author"]] as const
    expect([...propertySetStrings(stream, ids)]).toEqual([["title", "見積"], ["author", "山田"]])
    expect([...propertySetStrings(stream.subarray(0, stream.length - 2), ids)]).toEqual([["title", "見積"]])
    expect([...propertySetStrings(new Uint8Array(10), ids)]).toEqual([])
  })
})

function le32(...values: Array<number>): Uint8Array {
  const out = new Uint8Array(values.length * 4)
  const v = new DataView(out.buffer)
  values.forEach((n, i) => v.setUint32(i * 4, n, true))
  return out
}
function u16u32(type: number, size: number): Uint8Array {
  const out = new Uint8Array(8)
  const v = new DataView(out.buffer)
  v.setUint16(0, type, true)
  v.setUint32(4, size, true)
  return out
}
function utf16(text: string): Uint8Array {
  const out = new Uint8Array(text.length * 2)
  const v = new DataView(out.buffer)
  for (let i = 0; i < text.length; i++) v.setUint16(i * 2, text.charCodeAt(i), true)
  return out
}
const pad = (n: number) => new Uint8Array((4 - (n % 4)) % 4)
function concat(...parts: Array<Uint8Array>): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}
