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

  it.effect("decodes a run in the font of the character class named last, as Word marks Japanese runs (found by the agreement test)", () =>
    Effect.gen(function* () {
      const head = String.raw`{\rtf1\ansi\ansicpg932\deff0{\fonttbl{\f0\froman\fcharset0 Times New Roman;}{\f11\fmodern\fcharset128 MS Mincho;}}`
      const cases: ReadonlyArray<readonly [string, string]> = [
        // こん in Shift_JIS after Word's class fonts: the complex-script \af0 after \rtlch is not the double-byte font.
        [String.raw`\loch\af0\hich\af0\dbch\f11 \'82\'b1\'82\'f1\par`, "こん"],
        [String.raw`\dbch\f11 {\rtlch\fcs1 \af0 \ltrch\fcs0 \'82\'b1\'82\'f1}\par`, "こん"],
        [String.raw`\loch\f0\hich\f0\dbch\af11\loch\f0 abc\dbch\'82\'b1\par`, "abcこ"],
        // Back to the low class: a Western byte in the Western font.
        [String.raw`\dbch\f11 \'82\'b1\loch\f0 \'e9\par`, "こé"]
      ]
      for (const [body, text] of cases) {
        const out = yield* extract(`${head}${body}}`)
        expect(rows(out.parts[0]?.lines ?? []), body).toEqual([`1|${text}`])
      }
      // The properties in the document's code page, whatever font the body set; a starred company read.
      const info = yield* extract(String.raw`${head}{\info{\title \'8c\'e4}{\*\company ACME}}\f0 x\par}`)
      expect(rows(info.parts[1]?.lines ?? [])).toEqual(["title|御", "company|ACME"])
    }))

  it.effect("reads starred notes, leaves deletions and control characters out, shows a ruby field's base, keeps a shape's text where it stands", () =>
    Effect.gen(function* () {
      const out = yield* extract(
        String.raw`{\rtf1\ansi{\*\pgdsctbl{\pgdsc0{\header\pard {\shp{\*\shpinst{\sp{\sn shapeType}{\sv 202}}{\shptxt \pard page 2\par \pard}}}Header\par}}}` +
          String.raw`\pard first{\*\footnote \chftn snoska}\par ` +
          String.raw`\pard {\shp{\*\shpinst{\sp{\sn shapeType}{\sv 202}}{\shptxt \pard box text\par }}}second\par ` +
          String.raw`kept{\deleted gone}{\deleted0  again}\par ` +
          String.raw`{\field{\*\fldinst HYPERLINK "x"}{\fldrslt left out.\u13\'0d}}\par ` +
          String.raw`{\field{\*\fldinst EQ \\o\\ad(\\s\\up 11(\u12383?\u12435?),\u25285?\u24403?)}{\fldrslt {}}}\u27663?\par ` +
          // As LibreOffice writes ruby: switches before \o.
          String.raw`{\field{\*\fldinst { EQ \\* jc2 \\* "Font:x" \\* hps10 \\o\\ad(\\s\\up 11(\uc1 \u12405?),\uc1 \u25285?\u24403?\u32773?)}}{\fldrslt {}}}\par}`
      )
      expect(rows(out.parts[0]?.lines ?? [])).toEqual(["1|first", "2|box text", "2|second", "3|kept again", "4|left out.", "5|担当氏", "6|担当者", "footnote:1|snoska"])
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

  it.effect("a file cut short keeps what it holds; what follows the document's own group is not the document", () =>
    Effect.gen(function* () {
      const out = yield* extract(String.raw`{\rtf1\ansi one\par {two`)
      expect(rows(out.parts[0]?.lines ?? [])).toEqual(["1|one", "2|two"])
      const after = yield* extract(String.raw`{\rtf1\ansi one}} junk\par two`)
      expect(rows(after.parts[0]?.lines ?? [])).toEqual(["1|one"])
    }))

  it.effect("control characters are no text, \\par in a font table or \\info ends no paragraph, \\bin data starts right after its number, \\upr's Unicode title wins", () =>
    Effect.gen(function* () {
      const out = yield* extract(`{\\rtf1\\ansi a\x00b\x1b[31mc\x07d\\'1be\tf {\\info\\par}g{\\fonttbl\\par}h\\par x{\\*\\blipuid y}\\bin3abcQ\\par}`)
      expect(rows(out.parts[0]?.lines ?? [])).toEqual(["1|ab[31mcde f gh", "2|xQ"])
      const title = yield* extract(String.raw`{\rtf1\ansi{\info{\upr{\title ???}{\*\ud{\title \u26376?\u22577?}}}}x\par}`)
      expect(rows(title.parts[1]?.lines ?? [])).toEqual(["title|月報"])
    }))

  it.effect("groups nested past the limit are too-large, and a long \\bin is passed over without being read as text", () =>
    Effect.gen(function* () {
      const deep = yield* Effect.either(extract(`{\\rtf1 ${"{".repeat(5000)}x`))
      expect(Either.isLeft(deep) ? deep.left.reason : "read").toBe("too-large")
      const binary = yield* extract(String.raw`{\rtf1 a{\*\blipuid x}{\pict\bin8 }}}}{{{{}b\par}`)
      expect(rows(binary.parts[0]?.lines ?? [])).toEqual(["1|ab"])
    }))
})
