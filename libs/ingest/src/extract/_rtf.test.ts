/**
 * The RTF reader (W3, issue 20) on documents written here the way Word,
 * WordPad and LibreOffice write them: code pages, Unicode with its
 * fallback, places (headers, notes, comments), what is left out, the
 * properties, and hostile input. Read a byte at a time in pieces, so each
 * document is also read cut at every position.
 */
import { describe, expect, it } from "@effect/vitest"
import type { BodyLine } from "@sagasu/domain"
import { Effect, Either } from "effect"
import { extractBuffer } from "../extract.ts"
import { LineBudget } from "./_limits.ts"
import { RtfReader } from "./_rtf.ts"

/** Bytes of `text` where `\xHH` may stand for any byte (the test writes Shift_JIS as escapes itself). */
const bytesOf = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff)

const rows = (lines: ReadonlyArray<BodyLine>) => lines.map((l) => `${l.loc}|${l.text}`)

const extract = (rtf: string) => extractBuffer(bytesOf(rtf), "memo.rtf")

// 見積番号 in Shift_JIS: 8c a9 90 cf 94 d4 8d 86; 社外秘: 8e d0 8a 4f 94 e9; 見積書: 8c a9 90 cf 8f 91.
const japanese = String.raw`{\rtf1\ansi\ansicpg932\deff0{\fonttbl{\f0\fnil\fcharset128 \'82\'6c\'82\'72 \'96\'be\'92\'a9;}{\f1\fswiss\fcharset0 Arial;}}
{\info{\title \'8c\'a9\'90\'cf\'8f\'91}{\author Yamada}{\operator Sato}{\creatim\yr2024\mo1\dy1}{\doccomm memo}}
{\header \pard \'8e\'d0\'8a\'4f\'94\'e9\par}
\pard\f0 \'8c\'a9\'90\'cf\'94\'d4\'8d\'86 A-1234\par
\par
{\f1 Hello {\b bold} world\tab x\line y\~z \'93quoted\'94\par}
{\field{\*\fldinst HYPERLINK "http://x"}{\fldrslt link text}}\par
Note here{\super\chftn}{\footnote \pard {\super\chftn} Footnote text\par second}after\par
End{\footnote\ftnalt \pard endnote text}\par
Said{\*\atnid Y}{\*\atnauthor Yamada}\chatn{\*\annotation{\*\atnref 0}\pard comment text}\par
\trowd\cellx1000\cellx2000 \intbl A1\cell B1\cell\row
\uc1\u35211?\u31309?\par
{\uc2\u35211\'8c\'a9\u31309\'90\'cf}\par
{\*\bkmkstart b}kept {\*\unknown skipped}text{\pict\wmetafile8 0102\bin4 {}}x}\par
{\pntext 1.}{\listtext 2.}listed\par
\'83g\'83\'5c\par
}`

describe("RTF documents", () => {
  it.effect("give the body by paragraph, then headers, notes and comments, and the info group as properties", () =>
    Effect.gen(function* () {
      const out = yield* extract(japanese)
      expect(out.parts.map((p) => [p.name, p.locator, p.state])).toEqual([
        ["document", "paragraph", "visible"],
        ["properties", "property", "visible"]
      ])
      expect(rows(out.parts[0]?.lines ?? [])).toEqual([
        "1|見積番号 A-1234",
        "3|Hello bold world x y\u00a0z \u201cquoted\u201d",
        "4|link text",
        "5|Note hereafter",
        "6|End",
        "7|Said",
        "8|A1",
        "9|B1",
        "10|見積",
        "11|見積",
        "12|kept text",
        "13|listed",
        "14|トソ",
        "header|社外秘",
        "footnote:1| Footnote text",
        "footnote:1|second",
        "endnote:1|endnote text",
        "comment:0|comment text"
      ])
      expect(rows(out.parts[1]?.lines ?? [])).toEqual(["title|見積書", "author|Yamada", "description|memo", "lastModifiedBy|Sato"])
    }))

  it("reads the same cut into pieces at every position", () => {
    const whole = bytesOf(japanese)
    const read = (cut: number) => {
      const reader = new RtfReader(new LineBudget(10_000))
      reader.write(whole.subarray(0, cut))
      reader.write(whole.subarray(cut))
      reader.end()
      return JSON.stringify([reader.body, reader.headers, reader.footnotes, reader.endnotes, reader.comments, [...reader.properties]])
    }
    const expected = read(whole.length)
    const differing: Array<number> = []
    for (let cut = 1; cut < whole.length; cut++) if (read(cut) !== expected) differing.push(cut)
    expect(differing).toEqual([])
  })

  it.effect("a file cut short keeps what it holds; stray braces are passed over", () =>
    Effect.gen(function* () {
      const out = yield* extract(String.raw`{\rtf1\ansi }} one\par {two`)
      expect(rows(out.parts[0]?.lines ?? [])).toEqual(["1| one", "2|two"])
    }))

  it.effect("groups nested past the limit are too-large, and a long \\bin is passed over without being read as text", () =>
    Effect.gen(function* () {
      const deep = yield* Effect.either(extract(`{\\rtf1 ${"{".repeat(5000)}x`))
      expect(Either.isLeft(deep) ? deep.left.reason : "read").toBe("too-large")
      const binary = yield* extract(String.raw`{\rtf1 a{\*\blipuid x}{\pict\bin8 }}}}{{{{}b\par}`)
      expect(rows(binary.parts[0]?.lines ?? [])).toEqual(["1|ab"])
    }))
})
