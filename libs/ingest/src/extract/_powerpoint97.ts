/**
 * Text of a PowerPoint 97–2003 presentation (.ppt, .pps, .pot; MS-PPT) from
 * its streams, without Office (SPEC W3). The `Current User` stream points at
 * the last edit of the `PowerPoint Document` stream; its UserEditAtom chain
 * gives the persist directory (object id → offset, newest edit first), which
 * finds the DocumentContainer and every slide. Slides come in the order of
 * the slide list (SlideListWithTextContainer), each slide's text in the
 * order of its shapes (OfficeArt shapes' ClientTextbox: the text itself, or
 * a reference to the slide list's text of a placeholder), then its notes
 * page. Masters are left out, as the pptx path leaves out its layouts.
 *
 * The lines follow the pptx path (`_presentation.ts`) exactly: one line per
 * paragraph, `loc` the slide number (`3`) or `3 notes`; hidden slides go to
 * a second part `hidden slides` with state `hidden`; a notes page's slide
 * image and slide number are left out.
 *
 * Encrypted presentations (an encrypted CurrentUserAtom, or a UserEditAtom
 * naming a CryptSession10Container) fail `encrypted`; a stream without a
 * PowerPoint 97 CurrentUserAtom `needs-office` (PowerPoint 95 never comes
 * here: `_legacy_text.ts` tells it by its first records and hands it to
 * `_powerpoint95.ts`); a structure no
 * reader gets past (an edit chain or persist directory outside the stream, a
 * loop) `corrupt`.
 *
 * @module
 */
import type { BodyLine } from "@sagasu/domain"
import { ExtractError } from "./extract_error.ts"
import type { LineBudget } from "./_limits.ts"
import type { ZipSource } from "./_zip.ts"

/** The streams of a .ppt the reader needs. */
export interface PowerPoint97Streams {
  readonly currentUser: Uint8Array | undefined
  /** The `PowerPoint Document` stream, read by positioned reads. */
  readonly document: ZipSource
}

const corrupt = (detail: string) => new ExtractError({ reason: "corrupt", detail: `PowerPoint presentation: ${detail}` })
const needsOffice = (detail: string) => new ExtractError({ reason: "needs-office", detail: `PowerPoint presentation: ${detail}`, app: "presentation" })
const encrypted = (detail: string) => new ExtractError({ reason: "encrypted", detail: `legacy PowerPoint presentation ${detail}` })

/** Record types (MS-PPT 2.13.24, MS-ODRAW). */
const rt = {
  document: 0x03e8,
  slide: 0x03ee,
  slideAtom: 0x03ef,
  notes: 0x03f0,
  slidePersistAtom: 0x03f3,
  slideShowSlideInfoAtom: 0x03f9,
  drawing: 0x040c,
  placeholderAtom: 0x0bc3,
  outlineTextRefAtom: 0x0f9e,
  textHeaderAtom: 0x0f9f,
  textCharsAtom: 0x0fa0,
  textBytesAtom: 0x0fa8,
  slideNumberMCAtom: 0x0fd8,
  dateTimeMCAtom: 0x0ff7,
  genericDateMCAtom: 0x0ff8,
  headerMCAtom: 0x0ff9,
  footerMCAtom: 0x0ffa,
  rtfDateTimeMCAtom: 0x1015,
  slideListWithText: 0x0ff0,
  userEditAtom: 0x0ff5,
  currentUserAtom: 0x0ff6,
  persistDirectoryAtom: 0x1772,
  spContainer: 0xf004,
  clientTextbox: 0xf00d,
  clientData: 0xf011
} as const

/** Placeholders of a notes page that are not what the speaker wrote: the slide image and the slide number (BUG-17). */
const notesPlaceholdersSkipped: ReadonlySet<number> = new Set([0x05, 0x08, 0x0b])

const headerToken = 0xe391c05f
const encryptedHeaderToken = 0xf3d1c4df
/** Containers nest this deep at most here (real files: about 6); deeper is damage or an attack. */
const maxDepth = 64
/** Edits in one UserEditAtom chain at most (a file saved incrementally thousands of times is not real). */
const maxEdits = 100_000
/** Top-level records the loop fallback walks at most. */
const maxTopLevelRecords = 1_000_000
/** The largest record read whole (a DocumentContainer, a slide): real ones are kilobytes. */
const maxRecordBytes = 64 * 1024 ** 2

/**
 * A record read from the stream with everything inside it: `bytes` holds
 * the record from its header on, `start`/`end` are its body's bounds in
 * `bytes`; a child shares its container's `bytes`.
 */
interface Rec {
  readonly bytes: Uint8Array
  readonly view: DataView
  readonly type: number
  readonly ver: number
  readonly inst: number
  readonly start: number
  readonly end: number
}

/** The record whose header is at `at` of `bytes`, its body inside `[at, limit)`; throws `corrupt` when it runs past `limit`. */
function recordIn(bytes: Uint8Array, view: DataView, at: number, limit: number, what: string): Rec {
  if (at + 8 > limit) throw corrupt(`${what} at byte ${at} lies outside its container`)
  const verInst = view.getUint16(at, true)
  const length = view.getUint32(at + 4, true)
  if (at + 8 + length > limit) throw corrupt(`${what} at byte ${at} runs ${at + 8 + length - limit} bytes past its container`)
  return { bytes, view, type: view.getUint16(at + 2, true), ver: verInst & 0x0f, inst: verInst >>> 4, start: at + 8, end: at + 8 + length }
}

/** The child records of a container. */
function children(parent: Rec, what: string): Array<Rec> {
  const out: Array<Rec> = []
  for (let at = parent.start; at + 8 <= parent.end; ) {
    const r = recordIn(parent.bytes, parent.view, at, parent.end, what)
    out.push(r)
    at = r.end
  }
  return out
}

/** The header of the record at stream offset `at`: type and length (what the loop fallback walks). */
function headerAt(stream: ZipSource, at: number, what: string): { readonly type: number; readonly length: number } {
  if (at < 0 || at + 8 > stream.size) throw corrupt(`${what} at byte ${at} lies outside the PowerPoint Document stream (${stream.size} bytes)`)
  const head = stream.read(at, at + 8)
  const v = new DataView(head.buffer, head.byteOffset, head.byteLength)
  const length = v.getUint32(4, true)
  if (at + 8 + length > stream.size) throw corrupt(`${what} at byte ${at} runs ${at + 8 + length - stream.size} bytes past the end of the stream`)
  return { type: v.getUint16(2, true), length }
}

/** The whole record at stream offset `at`, read by one positioned read; `too-large` past {@link maxRecordBytes}. */
function readRecord(stream: ZipSource, at: number, what: string): Rec {
  const { length } = headerAt(stream, at, what)
  if (length > maxRecordBytes) throw new ExtractError({ reason: "too-large", detail: `PowerPoint presentation: ${what} has ${length} bytes; the limit is ${maxRecordBytes}` })
  const bytes = stream.read(at, at + 8 + length)
  return recordIn(bytes, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0, bytes.length, what)
}

const utf16 = new TextDecoder("utf-16le")

/** Bytes as the code points U+0000–U+00FF (Latin-1, not windows-1252). */
function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1")
}

/** The characters of a TextCharsAtom (UTF-16LE) or TextBytesAtom (the low bytes of UTF-16 code units). */
function textOf(r: Rec): string {
  const body = r.bytes.subarray(r.start, r.end)
  if (r.type === rt.textCharsAtom) return utf16.decode(body.subarray(0, body.length & ~1))
  // Not TextDecoder("latin1"), which is windows-1252: a TextBytesAtom byte is its own code point.
  return latin1(body)
}

/** A text of a shape or of the slide list, with the positions (UTF-16 units) of its fields: the slide number, or a date, header or footer. */
interface ShapeText {
  readonly text: string
  readonly fields: ReadonlyArray<{ readonly at: number; readonly slideNumber: boolean }>
}

/** Fields that stand in a text as a `*`: the slide number, and dates, headers and footers whose text the file does not hold. */
const fieldAtoms: ReadonlySet<number> = new Set([rt.slideNumberMCAtom, rt.dateTimeMCAtom, rt.genericDateMCAtom, rt.headerMCAtom, rt.footerMCAtom, rt.rtfDateTimeMCAtom])

/**
 * The paragraphs of a text: `\r` ends one, a vertical tab (line break) is a
 * space, other control characters are not text; a slide-number field shows
 * the slide's number, other fields (dates, headers, footers, computed when
 * shown) nothing.
 */
function paragraphsOf(text: ShapeText, slide: number): Array<string> {
  let t = text.text
  if (text.fields.length > 0) {
    const units = t.split("")
    for (const f of text.fields) if (units[f.at] === "*") units[f.at] = f.slideNumber ? String(slide) : ""
    t = units.join("")
  }
  return t
    .replace(/\v/g, " ")
    .replace(/[\u0000-\u0008\u000e-\u001f]/g, "")
    .split(/\r\n?|\n/)
    .filter((p) => p.trim() !== "")
}

/** A line of a presentation, and whether its slide is hidden (its own part, as in the pptx path). */
export interface PowerPoint97Line {
  readonly hidden: boolean
  readonly line: BodyLine
}

/**
 * Reads the text of a .ppt from its streams (see the module), slide by
 * slide: only the records on the way to a slide's text are read, each by a
 * positioned read of the stream, so memory stays about one slide (never the
 * embedded objects beside it). The edits, the persist directory and the
 * slide list are read at once, the slides as the lines are pulled. Throws an
 * {@link ExtractError} (at once or while iterated): `encrypted`,
 * `needs-office`, `corrupt`, `too-large` (a record past 64 MiB, or
 * `budget`'s limits).
 */
export function readPowerPoint97(streams: PowerPoint97Streams, budget: LineBudget): Iterator<PowerPoint97Line, void, undefined> {
  const stream = streams.document
  const lastEdit = currentEdit(streams.currentUser)

  // The persist directory: the newest edit's entries win.
  const persist = new Map<number, number>()
  const readDirectory = (at: number, override: boolean) => {
    const directory = readRecord(stream, at, "a PersistDirectoryAtom")
    if (directory.type !== rt.persistDirectoryAtom) throw corrupt(`no PersistDirectoryAtom at byte ${at}`)
    const view = directory.view
    for (let p = directory.start; p + 4 <= directory.end; ) {
      const word = view.getUint32(p, true)
      const first = word & 0xfffff
      const count = word >>> 20
      p += 4
      if (p + count * 4 > directory.end) throw corrupt(`a persist directory entry at byte ${at + p - 4} claims ${count} offsets past its atom`)
      for (let i = 0; i < count; i++) if (override || !persist.has(first + i)) persist.set(first + i, view.getUint32(p + i * 4, true))
      p += count * 4
    }
  }
  const seen = new Set<number>()
  let docPersistIdRef: number | undefined
  let looped = false
  for (let at = lastEdit, n = 0; at !== 0; n++) {
    if (seen.has(at) || n >= maxEdits) {
      looped = true
      break
    }
    seen.add(at)
    const edit = readRecord(stream, at, "a UserEditAtom")
    if (edit.type !== rt.userEditAtom || edit.end - edit.start < 0x1c) throw corrupt(`no UserEditAtom at byte ${at} (record type 0x${edit.type.toString(16)})`)
    if (edit.end - edit.start >= 0x20 && n === 0) throw encrypted("(its last edit names a CryptSession10Container)")
    docPersistIdRef ??= edit.view.getUint32(edit.start + 16, true)
    readDirectory(edit.view.getUint32(edit.start + 12, true), false)
    at = edit.view.getUint32(edit.start + 8, true)
  }
  if (looped) {
    // A chain of edits that comes back to itself (the corpus's 57272_corrupted_usereditatom.ppt): edits are
    // appended in order, so the directories read from the start of the stream, later ones winning, give the same map.
    persist.clear()
    for (let at = 0, n = 0; at + 8 <= stream.size; n++) {
      if (n >= maxTopLevelRecords) throw corrupt(`more than ${maxTopLevelRecords} top-level records`)
      const { type, length } = headerAt(stream, at, "a top-level record")
      if (type === rt.persistDirectoryAtom) readDirectory(at, true)
      at += 8 + length
    }
  }

  const object = (id: number, type: number, what: string): Rec | undefined => {
    const offset = persist.get(id)
    if (offset === undefined) return undefined
    if (headerAt(stream, offset, what).type !== type) return undefined
    return readRecord(stream, offset, what)
  }
  const document = object(docPersistIdRef ?? 0, rt.document, "the DocumentContainer")
  if (document === undefined) throw corrupt(`the persist directory does not lead to a DocumentContainer (persist id ${docPersistIdRef})`)

  // The slide list (instance 0) holds the slides in order with their placeholders' text; the notes list (instance 2) the notes pages.
  interface ListedSlide {
    readonly persistId: number
    readonly texts: Array<ShapeText>
  }
  const slides: Array<ListedSlide> = []
  const notesPersist = new Map<number, ListedSlide>()
  for (const list of children(document, "the DocumentContainer's records")) {
    if (list.type !== rt.slideListWithText || (list.inst !== 0 && list.inst !== 2)) continue
    let current: ListedSlide | undefined
    for (const r of children(list, "the slide list's records")) {
      if (r.type === rt.slidePersistAtom && r.end - r.start >= 16) {
        current = { persistId: r.view.getUint32(r.start, true), texts: [] }
        if (list.inst === 0) slides.push(current)
        else notesPersist.set(r.view.getUint32(r.start + 12, true), current)
      } else if ((r.type === rt.textCharsAtom || r.type === rt.textBytesAtom) && current !== undefined) {
        current.texts.push({ text: textOf(r), fields: [] })
      }
    }
  }

  /** The texts of a slide's or notes page's shapes in drawing order; references to the slide list resolve to `listed`. */
  const shapeTexts = (container: Rec, listed: ListedSlide | undefined, skipPlaceholders: ReadonlySet<number>): Array<ShapeText> => {
    const out: Array<ShapeText> = []
    const used = new Set<number>()
    const shape = (sp: Rec, depth: number): void => {
      let placeholder: number | undefined
      const texts: Array<ShapeText> = []
      for (const r of children(sp, "a shape's records")) {
        if (r.type === rt.clientData) {
          for (const c of children(r, "a shape's client data")) {
            if (c.type === rt.placeholderAtom && c.end - c.start >= 5) placeholder = c.bytes[c.start + 4]
          }
        } else if (r.type === rt.clientTextbox) {
          let text: string | undefined
          const fields: Array<{ at: number; slideNumber: boolean }> = []
          for (const c of children(r, "a text box's records")) {
            if (c.type === rt.textCharsAtom || c.type === rt.textBytesAtom) text = textOf(c)
            else if (fieldAtoms.has(c.type) && c.end - c.start >= 4) fields.push({ at: c.view.getInt32(c.start, true), slideNumber: c.type === rt.slideNumberMCAtom })
            else if (c.type === rt.outlineTextRefAtom && c.end - c.start >= 4) {
              const index = c.view.getInt32(c.start, true)
              const ref = listed?.texts[index]
              if (ref !== undefined) {
                used.add(index)
                texts.push(ref)
              }
            }
          }
          if (text !== undefined) {
            // A notes page's slide number, placeholder or not, is no more the speaker's text than in the pptx path.
            if (skipPlaceholders.size > 0 && fields.some((f) => f.slideNumber)) continue
            texts.push({ text, fields })
          }
        } else if (r.ver === 0x0f) {
          walk(r, depth + 1)
        }
      }
      if (placeholder === undefined || !skipPlaceholders.has(placeholder)) out.push(...texts)
    }
    const walk = (c: Rec, depth: number): void => {
      if (depth > maxDepth) throw corrupt(`drawing containers nested deeper than ${maxDepth} levels`)
      for (const r of children(c, "a drawing's records")) {
        if (r.type === rt.spContainer) shape(r, depth + 1)
        else if (r.ver === 0x0f) walk(r, depth + 1)
      }
    }
    for (const r of children(container, "a slide's records")) if (r.type === rt.drawing) walk(r, 1)
    // Placeholder text no shape refers to (a slide whose drawing is missing) still belongs to the slide.
    listed?.texts.forEach((t, i) => {
      if (!used.has(i)) out.push(t)
    })
    return out
  }

  return lines()
  function* lines(): Generator<PowerPoint97Line, void, undefined> {
    for (const [index, listed] of slides.entries()) {
      const n = index + 1
      const slide = object(listed.persistId, rt.slide, `slide ${n}`)
      let isHidden = false
      let notesId = 0
      let texts: ReadonlyArray<ShapeText> = listed.texts
      if (slide !== undefined) {
        for (const r of children(slide, "a slide's records")) {
          if (r.type === rt.slideAtom && r.end - r.start >= 20) notesId = r.view.getUint32(r.start + 16, true)
          else if (r.type === rt.slideShowSlideInfoAtom && r.end - r.start >= 12) isHidden = (r.view.getUint16(r.start + 10, true) & 0x04) !== 0
        }
        texts = shapeTexts(slide, listed, new Set())
      }
      const lines: Array<BodyLine> = []
      const add = (from: ReadonlyArray<ShapeText>, loc: string) => {
        for (const t of from) {
          for (const text of paragraphsOf(t, n)) {
            budget.take(`slide ${n}`, text.length)
            lines.push({ loc, text })
          }
        }
      }
      add(texts, String(n))
      const notesListed = notesId === 0 ? undefined : notesPersist.get(notesId)
      const notes = notesListed === undefined ? undefined : object(notesListed.persistId, rt.notes, `the notes of slide ${n}`)
      if (notes !== undefined) add(shapeTexts(notes, notesListed, notesPlaceholdersSkipped), `${n} notes`)
      for (const line of lines) yield { hidden: isHidden, line }
    }
  }
}

/** The offset of the last edit, from the CurrentUserAtom; throws `encrypted`, or `needs-office` for a stream without one (a damaged file's, or an unknown variant's). */
function currentEdit(stream: Uint8Array | undefined): number {
  if (stream === undefined) throw needsOffice("no Current User stream, and no PowerPoint 95 records")
  if (stream.length < 28) throw needsOffice(`a Current User stream of ${stream.length} bytes, and no PowerPoint 95 records`)
  const v = new DataView(stream.buffer, stream.byteOffset, stream.byteLength)
  if (v.getUint16(2, true) !== rt.currentUserAtom) throw needsOffice("no CurrentUserAtom in the Current User stream, and no PowerPoint 95 records")
  const token = v.getUint32(12, true)
  if (token === encryptedHeaderToken) throw encrypted("with an encrypted CurrentUserAtom")
  if (token !== headerToken) throw needsOffice(`a CurrentUserAtom with header token 0x${token.toString(16)}`)
  const fileVersion = v.getUint16(22, true)
  if (fileVersion !== 0x03f4) throw needsOffice(`document file version 0x${fileVersion.toString(16)} (PowerPoint 97 and later write 0x3f4)`)
  return v.getUint32(16, true)
}
