/**
 * Byte-level writers of Word 97–2003, PowerPoint 97–2003, PowerPoint 95
 * and PowerPoint 4.0 streams, for tests only: just the structures
 * `_word97.ts`, `_powerpoint97.ts`, `_powerpoint95.ts` and `_powerpoint4.ts`
 * read (a FIB, a piece table and the story PLCs; Current User, the edit
 * chain, the persist directory, the slide list, slides with shapes and
 * notes; PowerPoint 95's record tree of 16-byte headers; PowerPoint 4.0's
 * zone table, slides, frames and text zones), so that every feature and
 * every kind of damage can be written on purpose. {@link writeDoc},
 * {@link writePpt}, {@link writePpt95} and {@link writePpt40} wrap them in
 * an OLE2 container.
 *
 * @module
 */
import { u16, u32, writeCfb } from "./_test_containers.ts"

/** MS-DOC 2.4.1 exceptions, reversed: the byte a compressed piece stores for these characters. */
const compressedBytes: ReadonlyMap<number, number> = new Map([
  [0x201a, 0x82], [0x0192, 0x83], [0x201e, 0x84], [0x2026, 0x85], [0x2020, 0x86], [0x2021, 0x87], [0x02c6, 0x88],
  [0x2030, 0x89], [0x0160, 0x8a], [0x2039, 0x8b], [0x0152, 0x8c], [0x2018, 0x91], [0x2019, 0x92], [0x201c, 0x93],
  [0x201d, 0x94], [0x2022, 0x95], [0x2013, 0x96], [0x2014, 0x97], [0x02dc, 0x98], [0x2122, 0x99], [0x0161, 0x9a],
  [0x203a, 0x9b], [0x0153, 0x9c], [0x0178, 0x9f]
])

/** A PLC of the CPs where each of `parts` starts in its story, then the story's end and one past it (the mark Word adds). */
function storyPlc(parts: ReadonlyArray<{ readonly length: number }>): Buffer {
  const cps: Array<number> = []
  let cp = 0
  for (const p of parts) {
    cps.push(cp)
    cp += p.length
  }
  cps.push(cp, cp + 1)
  return Buffer.concat(cps.map(u32))
}

/** The stories of a test document, each ending with its own paragraph marks (`\r`) as Word writes them. */
export interface DocStories {
  readonly text: string
  /** Footnotes, one string each (each ends with `\r`). */
  readonly footnotes?: ReadonlyArray<string>
  /** Header stories after the 6 separator stories: even header, odd header, even footer, odd footer, first header, first footer. */
  readonly headers?: ReadonlyArray<string>
  readonly comments?: ReadonlyArray<string>
  readonly endnotes?: ReadonlyArray<string>
  readonly textboxes?: string
}

/** Options of {@link docStreams}. */
export interface DocOptions {
  /** Split the text into pieces of this many characters, alternating 8-bit and UTF-16 where the characters allow. */
  readonly pieceChars?: number
  /** Every piece 8-bit ("compressed"); the text must then be cp1252-representable. */
  readonly compressed?: boolean
  readonly encrypted?: boolean
  /** FIB nFib (Word 97: 0xC1; Word 95: 104). */
  readonly nFib?: number
  /** `0Table` instead of `1Table`. */
  readonly table0?: boolean
  /** Paragraph marks (by CP) that end a table row: their PAPX carries sprmPFTtp, in the FKP or, with `hugePapx`, in the Data stream. */
  readonly rowEnds?: ReadonlyArray<number>
  readonly hugePapx?: boolean
}

/** The streams of a test .doc, and where its parts lie (so a test can damage them). */
export interface DocStreams {
  readonly wordDocument: Uint8Array
  readonly table: Uint8Array
  readonly tableName: "0Table" | "1Table"
  /** The Data stream (for `hugePapx`), empty otherwise. */
  readonly data: Uint8Array
  /** Byte offset of the CLX in the table stream and of the text in the WordDocument stream. */
  readonly clxAt: number
  readonly textAt: number
}

const fibPairs = 93
const fibSize = 0x22 + 28 + 2 + 88 + 2 + fibPairs * 8 + 2

/** A WordDocument stream and a table stream holding `stories` (see {@link DocStories}). */
export function docStreams(stories: DocStories, options?: DocOptions): DocStreams {
  const footnotes = stories.footnotes ?? []
  const comments = stories.comments ?? []
  const endnotes = stories.endnotes ?? []
  const headers = stories.headers ?? []
  const headerStories = headers.length > 0 ? ["", "", "", "", "", "", ...headers] : []
  const ftn = footnotes.join("")
  const hdd = headerStories.join("")
  const atn = comments.join("")
  const edn = endnotes.join("")
  const txbx = stories.textboxes ?? ""
  const others = ftn + hdd + atn + edn + txbx
  // Word ends the text with one more paragraph mark when any story follows the main text.
  const all = stories.text + others + (others.length > 0 ? "\r" : "")

  // Pieces: alternate encodings when splitting, so both decoders and their seams are exercised.
  const size = options?.pieceChars ?? Math.max(1, all.length)
  const pieces: Array<{ cp: number; text: string; compressed: boolean }> = []
  for (let cp = 0, i = 0; cp < all.length; cp += size, i++) {
    const text = all.slice(cp, cp + size)
    const representable = [...text].every((c) => (c.codePointAt(0) ?? 0) < 0x100 || compressedBytes.has(c.codePointAt(0) ?? 0))
    pieces.push({ cp, text, compressed: representable && (options?.compressed === true || (options?.pieceChars !== undefined && i % 2 === 0)) })
  }
  const textAt = 1024
  const body: Array<Buffer> = []
  const fcs: Array<number> = []
  let at = textAt
  for (const p of pieces) {
    if (p.compressed) {
      fcs.push(((at * 2) | 0x40000000) >>> 0)
      const b = Buffer.from([...p.text].map((c) => compressedBytes.get(c.codePointAt(0) ?? 0) ?? c.codePointAt(0) ?? 0))
      body.push(b)
      at += b.length
    } else {
      fcs.push(at)
      const b = Buffer.from(p.text, "utf16le")
      body.push(b)
      at += b.length
    }
  }

  // Paragraph properties: one PapxFkp page after the text, a run per row-end mark with sprmPFTtp (MS-DOC 2.9.175).
  const fcOf = (cp: number) => {
    const p = [...pieces].reverse().find((q) => q.cp <= cp)
    if (p === undefined) return textAt
    const i = pieces.indexOf(p)
    return p.compressed ? ((fcs[i] ?? 0) & 0x3fffffff) / 2 + (cp - p.cp) : (fcs[i] ?? 0) + (cp - p.cp) * 2
  }
  const rowEnds = (options?.rowEnds ?? []).map((cp) => [fcOf(cp), fcOf(cp) + (pieces.find((q) => q.cp <= cp && cp < q.cp + q.text.length)?.compressed === true ? 1 : 2)] as const)
  let data = Buffer.alloc(0)
  let fkpPage: Buffer | undefined
  if (rowEnds.length > 0) {
    const bounds = [...new Set([textAt, ...rowEnds.flat(), at])].sort((a, b) => a - b)
    const crun = bounds.length - 1
    const page = Buffer.alloc(512)
    bounds.forEach((fc, i) => page.writeUInt32LE(fc, i * 4))
    // The PAPX of a row end: cb, istd 0, sprmPFTtp 1 (or sprmPHugePapx naming the Data stream's copy).
    const ttp = Buffer.concat([u16(0x2417), Buffer.from([1])])
    const grpprl = options?.hugePapx === true ? Buffer.concat([u16(0x6646), u32(0)]) : ttp
    if (options?.hugePapx === true) data = Buffer.concat([u16(ttp.length), ttp])
    const papx = Buffer.concat([Buffer.from([Math.ceil((grpprl.length + 2 + 1) / 2)]), u16(0), grpprl])
    const papxAt = 400
    papx.copy(page, papxAt)
    for (let i = 0; i < crun; i++) {
      const isRowEnd = rowEnds.some(([a]) => a === bounds[i])
      page[(crun + 1) * 4 + i * 13] = isRowEnd ? papxAt / 2 : 0
    }
    page[511] = crun
    fkpPage = page
  }

  // The table stream: the CLX, then the PLCs of the stories.
  const plcd = Buffer.concat([...pieces.map((p) => u32(p.cp)), u32(all.length), ...fcs.map((fc) => Buffer.concat([u16(0), u32(fc), u16(0)]))])
  const clx = Buffer.concat([Buffer.from([0x02]), u32(plcd.length), plcd])
  const tableParts: Array<Buffer> = [Buffer.alloc(16), clx]
  let tableAt = 16 + clx.length
  const plc = (parts: ReadonlyArray<string>) => {
    if (parts.length === 0) return [0, 0] as const
    const b = storyPlc(parts)
    const fc = tableAt
    tableParts.push(b)
    tableAt += b.length
    return [fc, b.length] as const
  }
  const pairs: Array<readonly [number, number]> = Array.from({ length: fibPairs }, () => [0, 0] as const)
  pairs[33] = [16, clx.length]
  pairs[3] = plc(footnotes)
  pairs[11] = plc(headerStories)
  pairs[5] = plc(comments)
  pairs[47] = plc(endnotes)
  const textEnd = at
  const fkpAt = Math.ceil(textEnd / 512) * 512
  if (fkpPage !== undefined) {
    const bte = Buffer.concat([u32(textAt), u32(textEnd), u32(fkpAt / 512)])
    pairs[13] = [tableAt, bte.length]
    tableParts.push(bte)
    tableAt += bte.length
  }
  const table = Buffer.concat(tableParts)

  const fib = Buffer.alloc(fibSize)
  fib.writeUInt16LE(0xa5ec, 0)
  fib.writeUInt16LE(options?.nFib ?? 0xc1, 2)
  fib.writeUInt16LE(0x0004 | (options?.table0 === true ? 0 : 0x0200) | (options?.encrypted === true ? 0x0100 : 0), 0x0a)
  fib.writeUInt16LE(14, 0x20)
  const lwAt = 0x22 + 28 + 2
  fib.writeUInt16LE(22, 0x22 + 28)
  const lengths = [stories.text.length, ftn.length, hdd.length, 0, atn.length, edn.length, txbx.length, 0]
  lengths.forEach((n, i) => fib.writeInt32LE(n, lwAt + (3 + i) * 4))
  const pairsAt = lwAt + 88 + 2
  fib.writeUInt16LE(fibPairs, lwAt + 88)
  pairs.forEach(([fc, lcb], i) => {
    fib.writeUInt32LE(fc >>> 0, pairsAt + i * 8)
    fib.writeUInt32LE(lcb >>> 0, pairsAt + i * 8 + 4)
  })
  const withText = Buffer.concat([fib, Buffer.alloc(textAt - fib.length), ...body])
  const wordDocument = fkpPage === undefined ? withText : Buffer.concat([withText, Buffer.alloc(fkpAt - withText.length), fkpPage])
  return {
    wordDocument: new Uint8Array(wordDocument),
    table: new Uint8Array(table),
    tableName: options?.table0 === true ? "0Table" : "1Table",
    data: new Uint8Array(data),
    clxAt: 16,
    textAt
  }
}

/** A .doc file (OLE2) holding `stories`. */
export function writeDoc(stories: DocStories, options?: DocOptions): Uint8Array {
  const s = docStreams(stories, options)
  return writeCfb([
    ["WordDocument", s.wordDocument],
    [s.tableName, s.table],
    ...(s.data.length > 0 ? [["Data", s.data] as const] : [])
  ])
}

/** The stories of a Word 6/95 or Word 2 test file, as bytes in its code page, each ending with its paragraph marks (0x0D). */
export interface OldDocStories {
  /** The main text, as pieces: one piece each, stored in the file in reverse order (a file saved in pieces); one piece and no piece table for a file saved whole. */
  readonly text: ReadonlyArray<Uint8Array>
  readonly footnotes?: ReadonlyArray<Uint8Array>
  /** The header story's stories (headers and footers of each section). */
  readonly headers?: ReadonlyArray<Uint8Array>
}

/** Options of {@link writeOldDoc}. */
export interface OldDocOptions {
  /** Word 6/95 (an OLE2 file with a WordDocument stream) or Word for Windows 2.0 (the FIB at byte 0 of the file). */
  readonly version: 6 | 2
  /** The FIB's `lid` (default 0x0409, English). */
  readonly lid?: number
  /** The FIB's `chse` (256: a Macintosh file). */
  readonly chse?: number
  readonly encrypted?: boolean
  /** fcMac past the end of the stream. */
  readonly textPastEnd?: boolean
  /** Word 6: a font table (pair 15) of fonts with these character sets (`chs`: 204 RUSSIAN, 238 EASTEUROPE, …). */
  readonly fontCharsets?: ReadonlyArray<number>
}

/**
 * A Word 6/95 (.doc in OLE2) or Word 2 (bare) file: the FIB as wvWare's
 * `wvGetFIB6` / `wvGetFIB2` read it (8-byte pairs from 0x58 in Word 6, 6-byte
 * in Word 2; the piece table is pair 33, footnotes 3, headers 11), the text
 * from byte 0x200, then the PLCs and the CLX in the same stream.
 */
export function writeOldDoc(stories: OldDocStories, options: OldDocOptions): Uint8Array {
  const stream = oldWordDocument(stories, options)
  return options.version === 6 ? writeCfb([["WordDocument", stream]]) : stream
}

/** The WordDocument stream of {@link writeOldDoc} (for Word 2, the whole file). */
export function oldWordDocument(stories: OldDocStories, options: OldDocOptions): Uint8Array {
  const footnotes = stories.footnotes ?? []
  const headers = stories.headers ?? []
  const ftn = Buffer.concat(footnotes)
  const hdd = Buffer.concat(headers)
  const text = Buffer.concat(stories.text)
  const others = Buffer.concat([ftn, hdd])
  const all = Buffer.concat([text, others, others.length > 0 ? Buffer.from([0x0d]) : Buffer.alloc(0)])
  const textAt = 0x200
  const complex = stories.text.length > 1
  // Complex: the main text's pieces stored last first, then the other stories as one more piece.
  const pieces = complex ? [...stories.text, Buffer.concat([others, others.length > 0 ? Buffer.from([0x0d]) : Buffer.alloc(0)])].filter((p) => p.length > 0) : [all]
  const stored = complex ? [...pieces].reverse() : pieces
  const body = Buffer.concat(stored)
  const fcOf = (i: number) => textAt + stored.slice(0, stored.indexOf(pieces[i] as Buffer)).reduce((n, p) => n + p.length, 0)
  const tail: Array<Buffer> = []
  let at = textAt + body.length
  const put = (b: Buffer) => {
    const fc = at
    tail.push(b)
    at += b.length
    return [fc, b.length] as const
  }
  const plc = (parts: ReadonlyArray<Uint8Array>) => (parts.length === 0 ? ([0, 0] as const) : put(storyPlc(parts)))
  const pairs = new Map<number, readonly [number, number]>()
  pairs.set(3, plc(footnotes))
  pairs.set(11, plc(headers))
  if (options.fontCharsets !== undefined) {
    // STTBF of FFN: its byte count, then each font: cbFfnM1, flags, wWeight, chs, ixchSzAlt, the name and its NUL.
    const ffns = options.fontCharsets.map((chs, i) => {
      const name = Buffer.from(`Font ${i}\0`, "latin1")
      return Buffer.concat([Buffer.from([5 + name.length, 0x22]), u16(400), Buffer.from([chs, 0]), name])
    })
    const all = Buffer.concat(ffns)
    pairs.set(15, put(Buffer.concat([u16(all.length + 2), all])))
  }
  if (complex) {
    let cp = 0
    const cps = pieces.map((p) => {
      const start = cp
      cp += p.length
      return start
    })
    const plcd = Buffer.concat([...cps.map(u32), u32(cp), ...pieces.map((_, i) => Buffer.concat([u16(0), u32(fcOf(i)), u16(0)]))])
    pairs.set(33, put(Buffer.concat([Buffer.from([0x02]), u32(plcd.length), plcd])))
  }
  const fib = Buffer.alloc(textAt)
  fib.writeUInt16LE(options.version === 6 ? 0xa5dc : 0xa5db, 0)
  fib.writeUInt16LE(options.version === 6 ? 104 : 45, 2)
  fib.writeUInt16LE(options.lid ?? 0x0409, 0x06)
  fib.writeUInt16LE((complex ? 0x0004 : 0) | (options.encrypted === true ? 0x0100 : 0), 0x0a)
  fib.writeUInt16LE(options.chse ?? 0, 0x14)
  fib.writeUInt32LE(textAt, 0x18)
  fib.writeUInt32LE(textAt + all.length + (options.textPastEnd === true ? 1 << 20 : 0), 0x1c)
  fib.writeInt32LE(text.length, 0x34)
  fib.writeInt32LE(ftn.length, 0x38)
  fib.writeInt32LE(hdd.length, 0x3c)
  for (const [i, [fc, lcb]] of pairs) {
    if (options.version === 6) {
      fib.writeUInt32LE(fc, 0x58 + i * 8)
      fib.writeUInt32LE(lcb, 0x58 + i * 8 + 4)
    } else {
      fib.writeUInt32LE(fc, 0x58 + i * 6)
      fib.writeUInt16LE(lcb, 0x58 + i * 6 + 4)
    }
  }
  return new Uint8Array(Buffer.concat([fib, body, ...tail]))
}

/** One slide of a test presentation. */
export interface PptSlide {
  /** Placeholder texts kept in the slide list, each shown through an OutlineTextRefAtom of a shape. */
  readonly placeholders?: ReadonlyArray<string>
  /** Texts of the slide's own text boxes (in drawing order, after the placeholders); `bytes` writes a TextBytesAtom. */
  readonly shapes?: ReadonlyArray<string | { readonly text: string; readonly bytes?: boolean; readonly slideNumberAt?: number }>
  readonly notes?: string
  readonly hidden?: boolean
}

/** Options of {@link pptStreams}. */
export interface PptOptions {
  readonly encrypted?: boolean
  /** The last edit's offsetLastEdit points at itself (a loop, as in 57272_corrupted_usereditatom.ppt). */
  readonly editLoop?: boolean
}

/** The streams of a test .ppt, and where its records lie. */
export interface PptStreams {
  readonly currentUser: Uint8Array
  readonly document: Uint8Array
  readonly userEditAt: number
  readonly persistDirectoryAt: number
}

const record = (type: number, body: Uint8Array, options?: { readonly ver?: number; readonly inst?: number }) =>
  Buffer.concat([u16(((options?.inst ?? 0) << 4) | (options?.ver ?? 0)), u16(type), u32(body.length), body])
const container = (type: number, children: ReadonlyArray<Uint8Array>, inst = 0) => record(type, Buffer.concat(children), { ver: 0x0f, inst })
const chars = (text: string) => record(0x0fa0, Buffer.from(text, "utf16le"))
const textBytes = (text: string) => record(0x0fa8, Buffer.from(text, "latin1"))
const textHeader = (type: number) => record(0x0f9f, u32(type))

/** A shape (OfficeArtSpContainer) with a ClientTextbox holding `content`, and a placeholder type when given. */
const shape = (content: ReadonlyArray<Uint8Array>, placeholder?: number) =>
  container(0xf004, [
    ...(placeholder === undefined ? [] : [container(0xf011, [record(0x0bc3, Buffer.from([0, 0, 0, 0, placeholder, 0, 0, 0]))])]),
    container(0xf00d, content)
  ])
const drawing = (shapes: ReadonlyArray<Uint8Array>) => container(0x040c, [container(0xf002, [container(0xf003, shapes)])])

/** A Current User stream and a PowerPoint Document stream holding `slides`. */
export function pptStreams(slides: ReadonlyArray<PptSlide>, options?: PptOptions): PptStreams {
  // Persist ids: 1 the document, then each slide, then each notes page.
  const slideId = (i: number) => 256 + i
  const notesId = (i: number) => 0x1000 + i
  const slidePersist = (i: number) => 2 + i
  const notesPersist = (i: number) => 2 + slides.length + i
  const persistAtom = (persistId: number, id: number) => record(0x03f3, Buffer.concat([u32(persistId), u32(0), u32(0), u32(id), u32(0)]))

  const slideList = container(
    0x0ff0,
    slides.flatMap((s, i) => [persistAtom(slidePersist(i), slideId(i)), ...(s.placeholders ?? []).flatMap((t, k) => [textHeader(k === 0 ? 0 : 1), chars(t)])]),
    0
  )
  const notesList = container(
    0x0ff0,
    slides.flatMap((s, i) => (s.notes === undefined ? [] : [persistAtom(notesPersist(i), notesId(i))])),
    2
  )
  const objects: Array<readonly [persistId: number, bytes: Uint8Array]> = [[1, container(0x03e8, [record(0x03e9, Buffer.alloc(40), { ver: 1 }), slideList, notesList])]]
  slides.forEach((s, i) => {
    const slideAtom = record(0x03ef, Buffer.concat([u32(0), Buffer.alloc(8), u32(0), u32(s.notes === undefined ? 0 : notesId(i)), u16(0), u16(0)]), { ver: 2 })
    const info = s.hidden === true ? [record(0x03f9, Buffer.concat([u32(0), u32(0), Buffer.from([0, 0]), u16(0x04), Buffer.alloc(4)]))] : []
    const shapes = [
      ...(s.placeholders ?? []).map((_, k) => shape([record(0x0f9e, u32(k))], k === 0 ? 0x0d : 0x0e)),
      ...(s.shapes ?? []).map((t) => {
        const own = typeof t === "string" ? { text: t } : t
        return shape([
          textHeader(4),
          own.bytes === true ? textBytes(own.text) : chars(own.text),
          ...(own.slideNumberAt === undefined ? [] : [record(0x0fd8, u32(own.slideNumberAt))])
        ])
      })
    ]
    objects.push([slidePersist(i), container(0x03ee, [slideAtom, ...info, drawing(shapes)])])
    if (s.notes !== undefined) {
      const notesShapes = [
        shape([], 0x0b),
        shape([textHeader(2), chars(s.notes)], 0x0c),
        shape([textHeader(4), chars("*"), record(0x0fd8, u32(0))], 0x08)
      ]
      objects.push([notesPersist(i), container(0x03f0, [record(0x03f1, Buffer.alloc(8), { ver: 1 }), drawing(notesShapes)])])
    }
  })

  const parts: Array<Uint8Array> = []
  const offsets = new Map<number, number>()
  let at = 0
  for (const [id, bytes] of objects) {
    offsets.set(id, at)
    parts.push(bytes)
    at += bytes.length
  }
  const ids = [...offsets.keys()].sort((a, b) => a - b)
  const directory = record(0x1772, Buffer.concat([u32(((ids.length << 20) | (ids[0] ?? 1)) >>> 0), ...ids.map((id) => u32(offsets.get(id) ?? 0))]))
  const persistDirectoryAt = at
  parts.push(directory)
  at += directory.length
  const userEditAt = at
  const userEdit = record(
    0x0ff5,
    Buffer.concat([u32(slideId(0)), u16(0), Buffer.from([0, 3]), u32(options?.editLoop === true ? userEditAt : 0), u32(persistDirectoryAt), u32(1), u32(ids.length + 1), u16(1), u16(0), ...(options?.encrypted === true ? [u32(99)] : [])])
  )
  parts.push(userEdit)
  const document = Buffer.concat(parts)
  const currentUser = record(
    0x0ff6,
    Buffer.concat([u32(0x14), u32(options?.encrypted === true ? 0xf3d1c4df : 0xe391c05f), u32(userEditAt), u16(0), u16(0x03f4), Buffer.from([3, 0]), u16(0), u32(8)])
  )
  return { currentUser: new Uint8Array(currentUser), document: new Uint8Array(document), userEditAt, persistDirectoryAt }
}

/** A .ppt file (OLE2) holding `slides`. */
export function writePpt(slides: ReadonlyArray<PptSlide>, options?: PptOptions): Uint8Array {
  const s = pptStreams(slides, options)
  return writeCfb([
    ["PowerPoint Document", s.document],
    ["Current User", s.currentUser]
  ])
}

/** A shape of a test PowerPoint 95 slide: its 8-bit text, and where it stands. */
export interface Ppt95Shape {
  readonly text: string
  /** A rectangle (3008) rather than a placeholder (3010). */
  readonly rectangle?: boolean
  /** Inside a group (3001 → a list 2000 of kind 15), `grouped` levels deep. */
  readonly grouped?: number
  /** The text sits in a hyperlinked text record (4068) instead of the usual 4002. */
  readonly hyperlink?: boolean
  /** Character positions of fields: a slide number (format 16) or a date (format 1); the text holds a `*` there. */
  readonly fields?: ReadonlyArray<{ readonly at: number; readonly format: 1 | 16 }>
}

/** One slide of a test PowerPoint 95 presentation. */
export interface Ppt95Slide {
  /** The slide's shapes in drawing order; a string is a placeholder's text. */
  readonly shapes?: ReadonlyArray<string | Ppt95Shape>
  /** The text of the notes page's body placeholder. */
  readonly notes?: string
  /** The slide atom's id (default 256 + the slide's index): 0 (no slide) or one with the high bit (a master) is left out. */
  readonly id?: number
  /** No slide atom at all. */
  readonly noAtom?: boolean
}

/** Options of {@link ppt95Document}. */
export interface Ppt95Options {
  /** The text's bytes (default Latin-1, one byte a character). */
  readonly encode?: (text: string) => Uint8Array
  /** Texts of a master's placeholders: a master list (kind 11) the reader must leave out. */
  readonly master?: ReadonlyArray<string>
}

/** A PowerPoint 95 record: u16 type, three 16-bit values (the second 0xFFFF for a container), u32 length, the kind byte, three bytes. */
export const ppt95Record = (type: number, body: Uint8Array, options?: { readonly kind?: number; readonly container?: boolean }) =>
  Buffer.concat([u16(type), u16(0), u16(options?.container === true ? 0xffff : 0), u16(0), u32(body.length), Buffer.from([options?.kind ?? 0, 0, 0, 0]), body])
export const ppt95Container = (type: number, children: ReadonlyArray<Uint8Array>, kind = 0) => ppt95Record(type, Buffer.concat(children), { kind, container: true })

/** Field ids of the test field list: 3 a slide number (format 16), 4 a date (format 1). */
const field95 = { 16: 3, 1: 4 } as const

/** A shape holding `shape`'s text: placeholder or rectangle, text properties (4001) → 4002 or 4068 → text zone 4064. */
function shape95(shape: Ppt95Shape, encode: (text: string) => Uint8Array): Buffer {
  const bytes = encode(shape.text)
  // Field runs (2030 of kind 49): 24 bytes each, characters then the field id at 20 (−1 for none).
  const runs: Array<Buffer> = []
  let at = 0
  const run = (count: number, field: number) => runs.push(Buffer.concat([u32(count), u16(0xfe1), Buffer.alloc(10), Buffer.alloc(4), u32(field)]))
  for (const f of [...(shape.fields ?? [])].sort((a, b) => a.at - b.at)) {
    if (f.at > at) run(f.at - at, -1)
    run(1, field95[f.format])
    at = f.at + 1
  }
  if (bytes.length > at) run(bytes.length - at, -1)
  const zone = ppt95Container(4064, [ppt95Record(2030, bytes, { kind: 53 }), ppt95Container(2028, [ppt95Record(2030, Buffer.concat(runs), { kind: 49 })], 49)])
  const text = ppt95Container(4001, [ppt95Record(4000, Buffer.alloc(16)), ppt95Container(shape.hyperlink === true ? 4068 : 4002, [ppt95Record(4003, Buffer.alloc(36)), ppt95Record(4021, u32(0)), zone])])
  const own = shape.rectangle === true
    ? ppt95Container(3008, [ppt95Record(3009, Buffer.alloc(40)), ppt95Record(3005, Buffer.alloc(56), { kind: 1 }), text], 19)
    : ppt95Container(3010, [ppt95Record(3011, Buffer.alloc(8)), ppt95Record(3009, Buffer.alloc(40)), ppt95Record(3005, Buffer.alloc(56), { kind: 1 }), text], 19)
  let out = own
  for (let i = 0; i < (shape.grouped ?? 0); i++) out = ppt95Container(3001, [ppt95Record(3002, Buffer.alloc(8)), ppt95Container(2000, [ppt95Record(2001, u32(1)), out], 15)])
  return out
}

/**
 * A PowerPoint 95 `PowerPoint Document` stream holding `slides`: the root
 * (3) → the Document (1000) → its atom, the Environment (1010) with the
 * field list, the slide list (2000 of kind 10) and, when asked, a master
 * list (kind 11) whose texts must not be read.
 */
export function ppt95Document(slides: ReadonlyArray<Ppt95Slide>, options?: Ppt95Options): Uint8Array {
  const encode = options?.encode ?? ((t: string) => Buffer.from(t, "latin1"))
  const fields = ppt95Container(2027, [ppt95Record(4056, u16(16)), ppt95Record(2017, new Uint8Array(), { kind: field95[16] }), ppt95Record(4056, u16(1)), ppt95Record(2017, new Uint8Array(), { kind: field95[1] })], 18)
  const environment = ppt95Container(1010, [fields, ppt95Container(2006, [], 23)], 21)
  const drawing = (shapes: ReadonlyArray<string | Ppt95Shape>) => ppt95Container(3000, shapes.map((s) => shape95(typeof s === "string" ? { text: s } : s, encode)), 20)
  const slideRecords = slides.map((s, i) => {
    const id = s.id ?? 256 + i
    const atom = s.noAtom === true ? [] : [ppt95Record(1007, Buffer.concat([u32(id), u32(0x80000004)]))]
    const notes = s.notes === undefined ? [] : [ppt95Container(1008, [ppt95Record(1009, u32(id)), drawing([{ text: "" }, s.notes])], 37)]
    // The background rectangle (kind 28) before the drawing, as PowerPoint 95 writes it.
    const background = ppt95Container(3008, [ppt95Record(3009, Buffer.alloc(40)), ppt95Record(3005, Buffer.alloc(56), { kind: 1 })], 28)
    return ppt95Container(1006, [...atom, ppt95Record(1005, Buffer.alloc(24), { kind: 1 }), ...notes, background, drawing(s.shapes ?? [])], 16)
  })
  const slideList = ppt95Container(2000, [ppt95Record(2001, u32(slides.length)), ...slideRecords], 10)
  const masters = options?.master === undefined
    ? []
    : [ppt95Container(2000, [ppt95Record(2001, u32(1)), ppt95Container(1016, [ppt95Record(1007, Buffer.concat([u32(0x80000004), u32(0)])), drawing(options.master)], 16)], 11)]
  const document = ppt95Container(1000, [ppt95Record(1001, Buffer.alloc(44), { container: false }), environment, slideList, ...masters])
  return new Uint8Array(ppt95Container(3, [document]))
}

/**
 * A summary information stream (MS-OLEPS) naming `codePage` (property 1)
 * and, when given, a title (property 2, VT_LPSTR in that code page's bytes
 * `title`).
 */
export function summaryInformation(codePage: number, title?: Uint8Array): Uint8Array {
  const properties: Array<readonly [number, Buffer]> = [[1, Buffer.concat([u16(2), u16(0), u16(codePage), u16(0)])]]
  if (title !== undefined) {
    const body = Buffer.concat([Buffer.from(title), Buffer.from([0])])
    properties.push([2, Buffer.concat([u32(0x1e), u32(body.length), body, Buffer.alloc((4 - (body.length % 4)) % 4)])])
  }
  const tableBytes = 8 + properties.length * 8
  const offsets: Array<number> = []
  let at = tableBytes
  for (const [, value] of properties) {
    offsets.push(at)
    at += value.length
  }
  const set = Buffer.concat([u32(at), u32(properties.length), ...properties.flatMap(([id], i) => [u32(id), u32(offsets[i] ?? 0)]), ...properties.map(([, v]) => v)])
  // FMTID_SummaryInformation {F29F85E0-4FF9-1068-AB91-08002B27B3D9}
  const fmtid = Buffer.from("e0859ff2f94f6810ab9108002b27b3d9", "hex")
  return new Uint8Array(Buffer.concat([u16(0xfffe), u16(0), u32(0x00020005), Buffer.alloc(16), u32(1), fmtid, u32(48), set]))
}

/** A PowerPoint 95 .ppt file (OLE2): its document stream, the 15-byte Current User stream PowerPoint 95 writes, and a summary naming `codePage`. */
export function writePpt95(slides: ReadonlyArray<Ppt95Slide>, options?: Ppt95Options & { readonly codePage?: number }): Uint8Array {
  return writeCfb([
    ["PowerPoint Document", ppt95Document(slides, options)],
    ["Current User", new Uint8Array(Buffer.from("\u0009\u0000\u0000\u0000Editor\u0000\u0000\u0000\u0000\u0000", "latin1"))],
    ["\u0005SummaryInformation", summaryInformation(options?.codePage ?? 1252)]
  ])
}

/** A frame of a test PowerPoint 4.0 slide: a text (the title's, the body's, or another), a group of frames, or a shape without text. */
export type Ppt40Frame =
  | { readonly text: string; readonly role?: "title" | "body" }
  | { readonly group: readonly [first: number, last: number] }
  | { readonly shape: true }

/** One slide of a test PowerPoint 4.0 presentation. */
export interface Ppt40Slide {
  /** The slide's frames in drawing order. */
  readonly frames?: ReadonlyArray<Ppt40Frame>
  /** The texts of its notes page. */
  readonly notes?: ReadonlyArray<string>
}

/** Options of {@link pp40Stream}. */
export interface Ppt40Options {
  /** The text's bytes (default Latin-1). */
  readonly encode?: (text: string) => Uint8Array
  /** The texts of the master (the document info's third zone), which the reader must leave out. */
  readonly master?: ReadonlyArray<string>
  /** The version at byte 4 (default 4). */
  readonly version?: number
  /** Write the signature big-endian, as a Macintosh file has it. */
  readonly mac?: boolean
}

/** A PowerPoint 4.0 stream and where its zones lie (zone id → [offset, length]), for tests that damage them. */
export interface Ppt40Stream {
  readonly pp40: Uint8Array
  readonly zones: ReadonlyMap<number, readonly [offset: number, length: number]>
  /** The byte where the zone table begins. */
  readonly tableAt: number
  /** Zone ids of each slide's text zone, in slide order. */
  readonly textZones: ReadonlyArray<number>
  /** Zone ids of each slide's frames, in slide order. */
  readonly frameZones: ReadonlyArray<number>
}

const i16 = (n: number) => {
  const b = Buffer.alloc(2)
  b.writeInt16LE(n)
  return b
}

/** A text zone: the 14-byte header, then each text with its 58-byte prefix, its bytes (padded to even) and one font and one paragraph run. */
function pp40Texts(texts: ReadonlyArray<Uint8Array>): Buffer {
  return Buffer.concat([
    Buffer.alloc(14),
    ...texts.flatMap((t) => {
      const prefix = Buffer.alloc(58)
      prefix.writeUInt32LE(t.length, 54)
      return [
        prefix,
        Buffer.from(t),
        Buffer.alloc(t.length & 1),
        Buffer.concat([i16(0xc), u32(t.length), u16(16), u32(1), u32(t.length), Buffer.alloc(12)]),
        Buffer.concat([i16(0x18), u32(t.length), u16(28), u32(1), u32(t.length), Buffer.alloc(24)])
      ]
    })
  ])
}

/**
 * A PowerPoint 4.0 `PP40` stream holding `slides` (Windows, version 4):
 * the header, one zone per structure (zone 0 left empty), the zone table
 * last. A slide's texts are written as PowerPoint writes them: the other
 * text frames' in frame order, then the title's, then the body's.
 */
export function pp40Stream(slides: ReadonlyArray<Ppt40Slide>, options?: Ppt40Options): Ppt40Stream {
  const encode = options?.encode ?? ((t: string) => Buffer.from(t, "latin1"))
  const parts: Array<Buffer> = []
  const zones = new Map<number, readonly [number, number]>()
  let at = 24
  let nextId = 1
  const add = (bytes: Buffer): number => {
    const id = nextId++
    zones.set(id, [at, bytes.length])
    parts.push(bytes)
    at += bytes.length
    return id
  }
  const textZones: Array<number> = []
  const frameZones: Array<number> = []
  /** A content zone (38 bytes) for `frames`, with its text zone and frame list. */
  const content = (frames: ReadonlyArray<Ppt40Frame>, extraTexts: ReadonlyArray<string> = []): number => {
    const others: Array<Uint8Array> = []
    let title: Uint8Array | undefined
    let body: Uint8Array | undefined
    let titleAt = -1
    let bodyAt = -1
    const frameBytes = frames.map((f, i) => {
      const b = Buffer.alloc(32)
      if ("text" in f) {
        b.writeUInt16LE(1, 0)
        b[2] = 0x01
        if (f.role === "title") {
          title = encode(f.text)
          titleAt = i
        } else if (f.role === "body") {
          body = encode(f.text)
          bodyAt = i
        } else others.push(encode(f.text))
      } else if ("group" in f) {
        b.writeUInt16LE(4, 0)
        b.writeUInt32LE(f.group[0], 24)
        b.writeUInt32LE(f.group[1], 28)
      } else b.writeUInt16LE(1, 0)
      return b
    })
    const texts = [...others, ...extraTexts.map(encode), ...(title === undefined ? [] : [title]), ...(body === undefined ? [] : [body])]
    const textId = add(pp40Texts(texts))
    const framesId = add(Buffer.concat(frameBytes))
    textZones.push(textId)
    frameZones.push(framesId)
    const c = Buffer.alloc(38)
    c.writeUInt32LE(textId, 0)
    c.writeUInt32LE(framesId, 4)
    c.writeInt16LE(Math.min(frames.length, 0x7fff), 8)
    c.writeInt16LE(-1, 12)
    c.writeInt16LE(titleAt, 14)
    c.writeInt16LE(bodyAt, 16)
    return add(c)
  }
  const slide = (contentId: number, notesId: number) => {
    const b = Buffer.alloc(34)
    b.writeUInt32LE(0x4f5f0000 + nextId, 0)
    b.writeUInt32LE(contentId, 8)
    b.writeUInt32LE(notesId, 12)
    return add(b)
  }
  const slideIds = slides.map((s) => {
    const c = content(s.frames ?? [])
    const notes = s.notes === undefined ? 0 : content([], s.notes)
    return slide(c, notes)
  })
  const masterId = options?.master === undefined ? 0 : slide(content(options.master.map((text, i) => ({ text, role: i === 0 ? ("title" as const) : ("body" as const) }))), 0)
  const list = Buffer.alloc(16 * (slideIds.length + 1))
  list.writeUInt16LE(slideIds.length, 0)
  list.writeInt32LE(10, 2)
  slideIds.forEach((id, i) => list.writeUInt32LE(id, 16 * (i + 1) + 12))
  const listId = add(list)
  const root = Buffer.alloc(22)
  root.writeUInt32LE(listId, 6)
  root.writeInt16LE(slideIds.length, 12)
  const rootId = add(root)
  const docInfo = Buffer.alloc(146)
  docInfo.writeUInt32LE(rootId, 34)
  docInfo.writeUInt32LE(masterId, 42)
  const docInfoId = add(docInfo)
  const tableAt = at
  const table = Buffer.alloc(nextId * 8)
  for (const [id, [offset, length]] of zones) {
    table.writeUInt32LE(length, id * 8)
    table.writeUInt32LE(offset, id * 8 + 4)
  }
  const header = Buffer.alloc(24)
  if (options?.mac === true) header.writeUInt32BE(0x0baddeed, 0)
  else header.writeUInt32LE(0x0baddeed, 0)
  header.writeInt32LE(options?.version ?? 4, 4)
  header.writeUInt32LE(tableAt, 8)
  header.writeUInt16LE(nextId, 12)
  header.writeUInt16LE(4, 14)
  header.writeUInt32LE(tableAt + table.length, 16)
  header.writeUInt16LE(docInfoId, 22)
  return { pp40: new Uint8Array(Buffer.concat([header, ...parts, table])), zones, tableAt, textZones, frameZones }
}

/** A PowerPoint 4.0 .ppt file (OLE2): its `PP40` stream and a summary naming `codePage`, as pp40only.ppt has them. */
export function writePpt40(slides: ReadonlyArray<Ppt40Slide>, options?: Ppt40Options & { readonly codePage?: number }): Uint8Array {
  return writeCfb([
    ["PP40", pp40Stream(slides, options).pp40],
    ["\u0005SummaryInformation", summaryInformation(options?.codePage ?? 1252)]
  ])
}
