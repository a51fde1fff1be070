/**
 * Text of a PowerPoint 95 presentation (PowerPoint 7 for Windows: .ppt,
 * .pps, .pot) from its `PowerPoint Document` stream, without Office (SPEC
 * W3: a format with a plain reader goes to the plain workers; it went to
 * LibreOffice before, ≈1.5 s and ≈440 MB for a start).
 *
 * The format is not documented; what is read here was found in the files
 * and agrees with libmwaw's reading of it (`PowerPoint7Parser`, which is
 * what LibreOffice reads these files with). The stream is a tree of
 * records, like PowerPoint 97's but with 16-byte headers: u16 type, three
 * 16-bit values (the second 0xFFFF for most containers — not all: a string
 * atom may carry it too, so containers are known here by their type), u32
 * body length, a byte naming the record's kind within its type, three more
 * bytes. The root (type 3) holds the Document (1000), which holds the
 * Environment (1010: fonts, pictures, the field list 2027) and lists
 * (2000) whose kind says what they hold: 10 the slides in order, 11 the
 * masters. A slide (1006) holds its atom (1007: the slide's id, the high
 * bit set for a master), its notes page (1008) and its drawing (3000): rectangles
 * (3008), placeholders (3010) and groups (3001 → a list 2000 → shapes),
 * a shape's text in 4001 → 4002 (or 4068, a hyperlinked text) → 4064 →
 * the data record 2030 of kind 53 (8-bit text in the presentation's
 * code page, `\r` ending a paragraph, 0x0B a line break), its field runs
 * a 2030 of kind 49 inside a 2028 (24 bytes a run: u32 characters, i32
 * field id at 20, −1 for none; a field id names a format in the field list:
 * 16 the slide number, 1–13 dates and times, 0/14/15 title, header, footer).
 *
 * The lines follow the pptx path (`_presentation.ts`) exactly: one line per
 * paragraph, `loc` the slide number (`3`) or `3 notes`, empty paragraphs
 * left out; a line break is a space, a slide-number field shows the slide's
 * number, other fields (dates, headers, footers, computed when shown)
 * nothing. Masters are left out, as the pptx path leaves out its layouts. A
 * slide without a slide atom (or with id 0) is no slide, as libmwaw has it,
 * so the numbers stay LibreOffice's.
 *
 * Hostile input (W3): every length is checked against its container and the
 * stream; nesting is bounded; a slide is read whole only up to 64 MiB;
 * the text is held against the {@link LineBudget} before it is decoded.
 * A stream this reader does not know (no root record, no Document) fails
 * `needs-office`, so LibreOffice still gets it (R14); a record that runs
 * past its container, or nesting past the bound, `corrupt`.
 *
 * @module
 */
import type { BodyLine } from "@sagasu/domain"
import { byteDecoder } from "./_codepage.ts"
import type { LineBudget } from "./_limits.ts"
import type { ZipSource } from "./_zip.ts"
import { ExtractError } from "./extract_error.ts"

/**
 * Adds the paragraphs of an old PowerPoint text (PowerPoint 95 and 4.0:
 * `\r` ends a paragraph) to `out`, each taken from `budget` for `where`;
 * blank ones left out, as the pptx path leaves them out. A line break (0x0B)
 * is a space, as the pptx path reads `<a:br/>`; 0x11 is the Mac's command
 * key, as libmwaw shows it; other control characters but the tab go.
 */
export function addParagraphs(decoded: string, budget: LineBudget, where: string, out: Array<string>): void {
  const paragraphs = decoded
    .replace(/\v/g, " ")
    .replace(/\u0011/g, "\u2318")
    .replace(/[\u0000-\u0008\u000a\u000c\u000e-\u0010\u0012-\u001f]/g, "")
    .split("\r")
  for (const p of paragraphs) {
    if (p.trim() === "") continue
    budget.take(where, p.length)
    out.push(p)
  }
}

/** What the reader needs: the `PowerPoint Document` stream and the code page of its 8-bit text. */
export interface PowerPoint95Streams {
  /** The `PowerPoint Document` stream, read by positioned reads. */
  readonly document: ZipSource
  /** The Windows code page of the 8-bit text (the summary information's through `eightBitCodePage`, else 1252). */
  readonly codePage: number
}

const corrupt = (detail: string) => new ExtractError({ reason: "corrupt", detail: `PowerPoint 95 presentation: ${detail}` })
const needsOffice = (detail: string) => new ExtractError({ reason: "needs-office", detail: `PowerPoint 95 presentation: ${detail}`, app: "presentation" })

/** Record types (libmwaw's PowerPoint7Parser names them). */
const rt = {
  root: 3,
  document: 1000,
  slide: 1006,
  slideAtom: 1007,
  notes: 1008,
  environment: 1010,
  list: 2000,
  identifier: 2017,
  fieldList: 2027,
  textRuns: 2028,
  textData: 2030,
  drawing: 3000,
  group: 3001,
  rectangle: 3008,
  placeholder: 3010,
  textProperties: 4001,
  textMasterProperties: 4002,
  fieldDefinition: 4056,
  textZone: 4064,
  hyperlinkText: 4068
} as const

/** The kind byte of a list (2000) and of a text data record (2030). */
const kind = { slides: 10, text: 53, fieldRuns: 49 } as const

/** The field format of a slide number (the field list's 4056 record); 1–13 are dates and times. */
const slideNumberFormat = 16

const headerBytes = 16
/** Containers nest this deep at most here (real files: about 10); deeper is damage or an attack. */
const maxDepth = 64
/** Record headers read one by one from the stream (the root's, the Document's, the lists') at most. */
const maxStreamRecords = 1_000_000
/** The largest record read whole (a slide, the field list): real ones are kilobytes. */
const maxRecordBytes = 64 * 1024 ** 2
/** Field runs of one text at most (a run is 24 bytes; real texts have a few). */
const maxFieldRuns = 100_000
/** Records listed while one slide is read, at most (real slides: a few hundred): a 64 MiB slide of empty records would be 4 million objects. */
const maxSlideRecords = 200_000

/** A record: its type, kind byte and body bounds (in the stream, or in the bytes of the record read whole that holds it). */
interface Rec {
  readonly type: number
  readonly kind: number
  readonly start: number
  readonly end: number
}

/** A record read whole (a slide, the field list): its bytes, itself as a {@link Rec} within them, and the records it may still list. */
interface Held {
  readonly bytes: Uint8Array
  readonly view: DataView
  readonly record: Rec
  readonly allowance: RecordAllowance
}

/** The header at `at` of `view`, its body inside `[at, limit)`; throws `corrupt` when it lies or runs past `limit`. */
function recordIn(view: DataView, at: number, limit: number, what: string, base = 0): Rec {
  if (at + headerBytes > limit) throw corrupt(`${what} at byte ${base + at} lies outside its container`)
  const length = view.getUint32(at + 8, true)
  const end = at + headerBytes + length
  if (end > limit) throw corrupt(`${what} at byte ${base + at} runs ${end - limit} bytes past its container`)
  return { type: view.getUint16(at, true), kind: view.getUint8(at + 12), start: at + headerBytes, end }
}

/** How many more records may be listed while the current slide (or the field list) is read. */
interface RecordAllowance {
  left: number
}

/** The children of `parent`, a record inside `view` (a record read whole), each taken from `allowance` (`corrupt` when it runs out). */
function children(view: DataView, parent: Rec, what: string, allowance: RecordAllowance): Array<Rec> {
  const out: Array<Rec> = []
  for (let at = parent.start; at + headerBytes <= parent.end; ) {
    if (--allowance.left < 0) throw corrupt(`more than ${maxSlideRecords} records in one slide (${what})`)
    const r = recordIn(view, at, parent.end, what)
    out.push(r)
    at = r.end
  }
  return out
}

/**
 * Is `document` a PowerPoint 95 `PowerPoint Document` stream: a root record
 * (type 3) whose first child is the Document (1000), both with 16-byte
 * headers? A PowerPoint 97 stream begins with an 8-byte header whose first
 * two bytes are a version and instance, never this shape.
 */
export function isPowerPoint95(document: ZipSource): boolean {
  if (document.size < 2 * headerBytes) return false
  const head = document.read(0, 2 * headerBytes)
  if (head.length < 2 * headerBytes) return false
  const v = new DataView(head.buffer, head.byteOffset, head.byteLength)
  return v.getUint16(0, true) === rt.root && v.getUint16(2, true) === 0 && v.getUint16(16, true) === rt.document && v.getUint16(18, true) === 0
}

/**
 * Reads the text of a PowerPoint 95 presentation (see the module) slide by
 * slide: the root's, the Document's and the slide list's records are walked
 * by their headers (16-byte positioned reads), the field list and each
 * slide read whole, one at a time, so memory stays about one slide (never
 * the pictures of the Environment). Yields one line per paragraph, slides
 * in the slide list's order, each slide's notes after it. Throws an
 * {@link ExtractError} (at once or while iterated): `needs-office` (a stream
 * of another shape), `corrupt` (a record past its container or the stream,
 * nesting past 64 levels, more than a million records), `too-large` (a
 * record past 64 MiB, or `budget`'s limits).
 */
export function readPowerPoint95(streams: PowerPoint95Streams, budget: LineBudget): Iterator<BodyLine, void, undefined> {
  const stream = streams.document
  const decoder = byteDecoder(streams.codePage)
  let headersRead = 0

  /** The header of the record at stream offset `at`, its body inside `[at, limit)`. */
  const headerAt = (at: number, limit: number, what: string): Rec => {
    if (++headersRead > maxStreamRecords) throw corrupt(`more than ${maxStreamRecords} records`)
    if (at + headerBytes > limit) throw corrupt(`${what} at byte ${at} lies outside its container`)
    const head = stream.read(at, at + headerBytes)
    if (head.length < headerBytes) throw corrupt(`${what} at byte ${at} lies past the end of the stream (${stream.size} bytes)`)
    const r = recordIn(new DataView(head.buffer, head.byteOffset, head.byteLength), 0, limit - at, what, at)
    return { type: r.type, kind: r.kind, start: at + headerBytes, end: at + r.end }
  }
  /** The records inside `parent`, by their headers. */
  function* headersIn(parent: Rec, what: string): Generator<Rec, void, undefined> {
    for (let at = parent.start; at + headerBytes <= parent.end; ) {
      const r = headerAt(at, parent.end, what)
      yield r
      at = r.end
    }
  }
  /** The record `r` read whole by one positioned read; `too-large` past {@link maxRecordBytes}. */
  const hold = (r: Rec, what: string): Held => {
    const length = r.end - r.start
    if (length > maxRecordBytes) throw new ExtractError({ reason: "too-large", detail: `PowerPoint 95 presentation: ${what} has ${length} bytes; the limit is ${maxRecordBytes}` })
    const bytes = stream.read(r.start - headerBytes, r.end)
    if (bytes.length < r.end - r.start + headerBytes) throw corrupt(`${what} at byte ${r.start - headerBytes} runs past the end of the stream`)
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    return { bytes, view, record: { type: r.type, kind: r.kind, start: headerBytes, end: bytes.length }, allowance: { left: maxSlideRecords } }
  }

  if (!isPowerPoint95(stream)) throw needsOffice("the PowerPoint Document stream does not begin with a root and a Document record")
  const root = headerAt(0, stream.size, "the root record")
  let document: Rec | undefined
  for (const r of headersIn(root, "a record of the root")) {
    if (r.type === rt.document) {
      document = r
      break
    }
  }
  if (document === undefined) throw needsOffice("no Document record in the root")

  // The field list (field id → format) lies in the Environment, before the slides.
  const fieldFormats = new Map<number, number>()
  const slideLists: Array<Rec> = []
  for (const r of headersIn(document, "a record of the Document")) {
    if (r.type === rt.list && r.kind === kind.slides) slideLists.push(r)
    else if (r.type === rt.environment) {
      for (const e of headersIn(r, "a record of the Environment")) {
        if (e.type !== rt.fieldList) continue
        // A format (4056, two bytes) then the identifier (2017) whose kind byte is the field's id.
        let format: number | undefined
        const list = hold(e, "the field list")
        for (const f of children(list.view, list.record, "a record of the field list", list.allowance)) {
          if (f.type === rt.fieldDefinition && f.end - f.start >= 2) format = list.view.getUint16(f.start, true)
          else if (f.type === rt.identifier && format !== undefined) {
            if (!fieldFormats.has(f.kind)) fieldFormats.set(f.kind, format)
            format = undefined
          }
        }
      }
    }
  }

  /** Adds the paragraphs of a text (2030 of kind 53) with its field runs, in `slide`, for slide `n`, to `out`, each taken from the budget. */
  const paragraphsOf = (slide: Held, text: Rec, runs: Rec | undefined, n: number, where: string, out: Array<string>): void => {
    const bytes = slide.bytes.subarray(text.start, text.end)
    // Held before it is decoded: a text of a hundred million bytes is refused here, not after.
    budget.hold(where, bytes.length)
    let decoded = ""
    let from = 0
    if (runs !== undefined) {
      let at = 0
      let count = 0
      for (let p = runs.start; p + 24 <= runs.end && at < bytes.length; p += 24) {
        if (++count > maxFieldRuns) throw corrupt(`more than ${maxFieldRuns} field runs in a text`)
        const field = slide.view.getInt32(p + 20, true)
        const format = field === -1 ? undefined : fieldFormats.get(field)
        // The field's character (a `*`) is the field, whatever it is (libmwaw reads it so).
        if (format !== undefined) {
          decoded += decoder.decode(bytes.subarray(from, at)) + (format === slideNumberFormat ? String(n) : "")
          from = at + 1
        }
        at += slide.view.getUint32(p, true)
      }
    }
    decoded += decoder.decode(bytes.subarray(from))
    budget.release(bytes.length)
    addParagraphs(decoded, budget, where, out)
  }

  /** Adds the paragraphs of a text zone (4064) to `out`: its data record of kind 53 and the field runs beside it, in a 2028 or not. */
  const zoneText = (slide: Held, zone: Rec, n: number, where: string, out: Array<string>): void => {
    let text: Rec | undefined
    let runs: Rec | undefined
    const take = (r: Rec) => {
      if (r.type !== rt.textData) return
      if (r.kind === kind.text) text ??= r
      else if (r.kind === kind.fieldRuns) runs ??= r
    }
    for (const r of children(slide.view, zone, "a record of a text", slide.allowance)) {
      if (r.type === rt.textRuns) for (const c of children(slide.view, r, "a record of a text's runs", slide.allowance)) take(c)
      else take(r)
    }
    if (text !== undefined) paragraphsOf(slide, text, runs, n, where, out)
  }

  /** Adds the paragraphs of the shapes in `container` (a slide, a notes page, a drawing, a group) to `out`, in drawing order. */
  const shapesText = (slide: Held, container: Rec, n: number, where: string, depth: number, out: Array<string>): void => {
    if (depth > maxDepth) throw corrupt(`drawing containers nested deeper than ${maxDepth} levels`)
    const { view, allowance } = slide
    for (const r of children(view, container, "a record of a drawing", allowance)) {
      if (r.type === rt.drawing || r.type === rt.group || r.type === rt.list) shapesText(slide, r, n, where, depth + 1, out)
      else if (r.type === rt.rectangle || r.type === rt.placeholder) {
        for (const t of children(view, r, "a record of a shape", allowance)) {
          if (t.type !== rt.textProperties) continue
          for (const m of children(view, t, "a record of a shape's text", allowance)) {
            if (m.type !== rt.textMasterProperties && m.type !== rt.hyperlinkText) continue
            for (const z of children(view, m, "a record of a shape's text", allowance)) if (z.type === rt.textZone) zoneText(slide, z, n, where, out)
          }
        }
      }
    }
  }

  return lines()
  function* lines(): Generator<BodyLine, void, undefined> {
    let n = 0
    for (const list of slideLists) {
      for (const r of headersIn(list, "a record of the slide list")) {
        if (r.type !== rt.slide) continue
        const slide = hold(r, `slide ${n + 1}`)
        const records = children(slide.view, slide.record, "a record of a slide", slide.allowance)
        const atom = records.find((c) => c.type === rt.slideAtom && c.end - c.start >= 8)
        const id = atom === undefined ? 0 : slide.view.getUint32(atom.start, true)
        // A master in the slide list, or a slide without its atom, is no slide (libmwaw, and so LibreOffice, skip it).
        if (id === 0 || (id & 0x80000000) !== 0) continue
        n++
        const where = `slide ${n}`
        const own: Array<string> = []
        const notes: Array<string> = []
        shapesText(slide, slide.record, n, where, 1, own)
        for (const c of records) if (c.type === rt.notes) shapesText(slide, c, n, where, 2, notes)
        for (const text of own) yield { loc: String(n), text }
        for (const text of notes) yield { loc: `${n} notes`, text }
      }
    }
  }
}
