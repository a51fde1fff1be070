/**
 * Text of a PowerPoint 4.0 presentation for Windows (.ppt, .pps, .pot)
 * from its `PP40` stream, without Office (SPEC W3: a format with a plain
 * reader goes to the plain workers; it went to LibreOffice before).
 *
 * The format is not documented; what is read here was found in the files
 * and agrees with libmwaw's reading of it (`PowerPoint3Parser`, which is
 * what LibreOffice reads these files with). The stream begins with
 * `ED DE AD 0B` (0x0BADDEED little-endian), a version (4), and the offset
 * of a zone table: u16 count at byte 12, the document info's zone at byte
 * 22, then 8 bytes a zone (u32 length, its two high bits flags; u32
 * offset). Everything else is a zone, named by its index. The document
 * info (146 bytes) names the document root (u32 at 34), the root (22
 * bytes) the slide list (u32 at 6); the slide list is 16-byte entries
 * after a 16-byte header (u16 count at 0), each naming a slide's zone (u32
 * at 12). A slide (34 bytes) names its content and its notes page's (u32
 * at 8 and 12); a content zone (38 bytes) names its text zone (u32 at 0)
 * and its frames (u32 at 4), and which frames are the title and the body
 * (i16 at 14 and 16, −1 for none). Frames are 32 bytes: the type in the low
 * three bits of byte 0 (4 a group, whose first and last child frames are
 * u32 at 24 and 28), bit 0 of byte 2 set when the frame holds text. The
 * text zone is a 14-byte header, then one text after another: 58 bytes
 * (the text's length u32 at 54), the 8-bit text (padded to an even
 * length; `\r` ends a paragraph, 0x0B is a line break), then runs of
 * fonts and of paragraphs, each a 12-byte header (count u32 at 8, size u16
 * at 6) and its runs. The text frames take the texts in frame order, the
 * title and the body the last ones; a frame's text is shown where the
 * frame stands, a group's children where the group does.
 *
 * The lines follow the pptx path (`_presentation.ts`): one line per
 * paragraph, `loc` the slide number (`3`; slides are numbered by their
 * place in the slide list) or `3 notes` (every text of the notes page, as
 * libmwaw hands it to LibreOffice), empty paragraphs left out, a line break
 * a space. Masters are left out.
 *
 * Hostile input (W3): every zone is checked against the stream and every
 * text against its zone; group nesting and the frames shown per slide are
 * bounded; the text is held against the {@link LineBudget} before it is
 * decoded; the bytes read, decoded and shown over the whole file are
 * bounded (four times the stream plus 64 MiB), so zones named over and
 * over fail `corrupt` rather than take hours. A variant this reader does not know (PowerPoint 3, a Macintosh
 * file) fails `needs-office`, so LibreOffice still gets it (R14); a zone or
 * text that runs past its container, `corrupt`.
 *
 * @module
 */
import type { BodyLine } from "@sagasu/domain"
import { byteDecoder } from "./_codepage.ts"
import type { LineBudget } from "./_limits.ts"
import { addParagraphs } from "./_powerpoint95.ts"
import type { ZipSource } from "./_zip.ts"
import { ExtractError } from "./extract_error.ts"

/** What the reader needs: the `PP40` stream and the code page of its 8-bit text. */
export interface PowerPoint4Streams {
  /** The `PP40` stream, read by positioned reads. */
  readonly pp40: ZipSource
  /** The Windows code page of the 8-bit text (the summary information's through `eightBitCodePage`, else 1252). */
  readonly codePage: number
}

const corrupt = (detail: string) => new ExtractError({ reason: "corrupt", detail: `PowerPoint 4.0 presentation: ${detail}` })
const needsOffice = (detail: string) => new ExtractError({ reason: "needs-office", detail: `PowerPoint 4.0 presentation: ${detail}`, app: "presentation" })

const signature = 0x0baddeed
/** Sizes of the zones of version 4 that are read. */
const size = { docInfo: 146, root: 22, slide: 34, content: 38, frame: 32, slideListEntry: 16, textHeader: 14, textPrefix: 58, runHeader: 12 } as const
/** The largest zone read whole (a text zone, a frame list): real ones are kilobytes. */
const maxZoneBytes = 64 * 1024 ** 2
/** Groups nest this deep at most here; deeper is damage or an attack. */
const maxDepth = 64
/** Frames shown for one slide at most (a frame in several overlapping groups is shown once per group, as libmwaw does). */
const maxFramesShown = 100_000
/** Frames, and texts, of one slide at most (real slides: tens): a 64 MiB zone of them would be millions of objects. */
const maxFrames = 65_536
/**
 * Bytes of zones read, of texts decoded and of frames shown (32 each) over
 * the whole file, at most this many times the stream's size, plus
 * {@link minWork}: a real file reads each zone and shows each text about
 * once, but a slide list naming one slide 60,000 times, or groups that
 * overlap around a blank text (blank lines take nothing from the budget),
 * would make a 5 MB file hours of work.
 */
const workPerByte = 4
const minWork = 64 * 1024 ** 2

/** A zone read whole. */
interface Zone {
  readonly id: number
  readonly bytes: Uint8Array
  readonly view: DataView
}

/** A frame of a slide: its type, and the text it shows (an index into the slide's texts) or the children it groups. */
interface Frame {
  readonly type: number
  readonly text: number | undefined
  readonly main: boolean
  readonly children: readonly [number, number] | undefined
}

/**
 * Reads the text of a PowerPoint 4.0 presentation (see the module) slide by
 * slide: the header and the zone table at once, then for each slide its
 * few small zones, its frames and its text zone by positioned reads, so
 * memory stays about one slide (never the pictures). Yields one line per
 * paragraph, slides in the slide list's order, each slide's notes after
 * it. Throws an {@link ExtractError} (at once or while iterated):
 * `needs-office` (PowerPoint 3, a Macintosh file, another signature),
 * `corrupt` (a zone past the stream or the zone table, a text past its
 * zone, groups nested past 64 levels), `too-large` (a zone past 64 MiB, or
 * `budget`'s limits).
 */
export function readPowerPoint4(streams: PowerPoint4Streams, budget: LineBudget): Iterator<BodyLine, void, undefined> {
  const stream = streams.pp40
  const decoder = byteDecoder(streams.codePage)
  if (stream.size < 24) throw needsOffice(`a PP40 stream of ${stream.size} bytes`)
  const head = stream.read(0, 24)
  const hv = new DataView(head.buffer, head.byteOffset, head.byteLength)
  if (hv.getUint32(0, false) === signature) throw needsOffice("a Macintosh file (big-endian), which this reader does not read")
  if (hv.getUint32(0, true) !== signature) throw needsOffice(`signature 0x${hv.getUint32(0, true).toString(16)} (PowerPoint 3 and 4 write 0x0baddeed)`)
  const version = hv.getInt32(4, true)
  if (version !== 4) throw needsOffice(`version ${version} (this reader reads version 4, PowerPoint 4.0)`)
  const tableAt = hv.getUint32(8, true)
  const zoneCount = hv.getUint16(12, true)
  const docInfoId = hv.getUint16(22, true)
  if (tableAt < 24 || tableAt + zoneCount * 8 > stream.size) throw corrupt(`the zone table (${zoneCount} zones at byte ${tableAt}) runs past the stream (${stream.size} bytes)`)
  const table = stream.read(tableAt, tableAt + zoneCount * 8)
  const tv = new DataView(table.buffer, table.byteOffset, table.byteLength)
  const maxWork = minWork + workPerByte * stream.size
  let work = 0
  /** Counts `bytes` of work; `corrupt` past {@link maxWork}. */
  const spend = (bytes: number, what: string): void => {
    work += bytes
    if (work > maxWork) throw corrupt(`more than ${maxWork} bytes of zones read, texts decoded and frames shown (at ${what}): zones named over and over`)
  }

  /** Zone `id` read whole, undefined when the table gives it no bytes; `corrupt` past the table or the stream. */
  const zone = (id: number, what: string): Zone | undefined => {
    if (id >= zoneCount) throw corrupt(`${what} names zone ${id}, past the zone table (${zoneCount} zones)`)
    const length = tv.getUint32(id * 8, true) & 0x3fffffff
    const begin = tv.getUint32(id * 8 + 4, true)
    if (length === 0) return undefined
    if (begin + length > stream.size) throw corrupt(`${what} (zone ${id}, ${length} bytes at byte ${begin}) runs ${begin + length - stream.size} bytes past the stream`)
    if (length > maxZoneBytes) throw new ExtractError({ reason: "too-large", detail: `PowerPoint 4.0 presentation: ${what} (zone ${id}) has ${length} bytes; the limit is ${maxZoneBytes}` })
    spend(length, what)
    const bytes = stream.read(begin, begin + length)
    return { id, bytes, view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength) }
  }
  /** Zone `id` when it has exactly `bytes` bytes (libmwaw reads no other), else undefined. */
  const sized = (id: number, bytes: number, what: string): Zone | undefined => {
    const z = id === 0 ? undefined : zone(id, what)
    return z !== undefined && z.bytes.length === bytes ? z : undefined
  }

  const docInfo = zone(docInfoId, "the document info")
  if (docInfo === undefined || docInfo.bytes.length !== size.docInfo) throw corrupt(`the document info (zone ${docInfoId}) has ${docInfo?.bytes.length ?? 0} bytes, not ${size.docInfo}`)
  const rootId = docInfo.view.getUint32(34, true)
  const root = sized(rootId, size.root, "the document root")
  if (root === undefined) throw corrupt(`no document root of ${size.root} bytes (zone ${rootId})`)
  const listId = root.view.getUint32(6, true)
  const list = listId === 0 ? undefined : zone(listId, "the slide list")
  if (list === undefined || list.bytes.length % size.slideListEntry !== 0) throw corrupt(`no slide list of 16-byte entries (zone ${listId})`)
  const slideList = list.view
  const slideCount = Math.min(slideList.getUint16(0, true), list.bytes.length / size.slideListEntry - 1)

  /** The texts of a text zone, in order, each with the bytes of its text; `corrupt` when one runs past the zone. */
  const textsOf = (texts: Zone): Array<Uint8Array> => {
    const out: Array<Uint8Array> = []
    const { bytes, view, id } = texts
    const end = bytes.length
    if (end < size.textHeader) return out
    for (let at = size.textHeader; at + size.textPrefix < end; ) {
      if (out.length >= maxFrames) throw corrupt(`more than ${maxFrames} texts in zone ${id}`)
      const length = view.getUint32(at + 54, true)
      const textAt = at + size.textPrefix
      if (textAt + length > end) throw corrupt(`text ${out.length + 1} of zone ${id} (${length} bytes at byte ${textAt}) runs past its zone (${end} bytes)`)
      out.push(bytes.subarray(textAt, textAt + length))
      at = textAt + length + (length & 1)
      // The runs of fonts, then of paragraphs: a 12-byte header (size at 6, count at 8) and the runs.
      for (const runs of ["font", "paragraph"]) {
        if (at + size.runHeader > end) throw corrupt(`the ${runs} runs of text ${out.length} of zone ${id} lie past its zone`)
        const runSize = view.getUint16(at + 6, true)
        const count = view.getUint32(at + 8, true)
        if (at + size.runHeader + runSize * count > end) throw corrupt(`the ${runs} runs of text ${out.length} of zone ${id} (${count} of ${runSize} bytes) run past its zone`)
        at += size.runHeader + runSize * count
      }
    }
    return out
  }

  /** The paragraphs of `text` for `where`, each taken from the budget, added to `out`. */
  const paragraphs = (text: Uint8Array, where: string, out: Array<string>): void => {
    // Held before it is decoded: a text of a hundred million bytes is refused here, not after.
    spend(text.length, where)
    budget.hold(where, text.length)
    const decoded = decoder.decode(text)
    budget.release(text.length)
    addParagraphs(decoded, budget, where, out)
  }

  /** A content zone's frames and texts. */
  const contentOf = (id: number, what: string): { readonly frames: ReadonlyArray<Frame>; readonly texts: ReadonlyArray<Uint8Array> } | undefined => {
    const content = sized(id, size.content, what)
    if (content === undefined) return undefined
    const textId = content.view.getUint32(0, true)
    const framesId = content.view.getUint32(4, true)
    const title = content.view.getInt16(14, true)
    const body = content.view.getInt16(16, true)
    const textZone = textId === 0 ? undefined : zone(textId, `the text of ${what}`)
    const texts = textZone === undefined ? [] : textsOf(textZone)
    const framesZone = framesId === 0 ? undefined : zone(framesId, `the frames of ${what}`)
    const frames: Array<Frame> = []
    if (framesZone !== undefined && framesZone.bytes.length % size.frame === 0) {
      const count = framesZone.bytes.length / size.frame
      if (count > maxFrames) throw corrupt(`${count} frames in zone ${framesZone.id} (${what}); at most ${maxFrames} are read`)
      let next = 0
      let mains = 0
      const raw: Array<{ type: number; text: number | undefined; main: boolean; children: readonly [number, number] | undefined }> = []
      for (let i = 0; i < count; i++) {
        const at = i * size.frame
        const v = framesZone.view
        const type = v.getUint16(at, true) & 7
        let text: number | undefined
        let main = false
        if ((v.getUint8(at + 2) & 0x01) !== 0) {
          // The title takes main text 0, the body main text 1 (0 when there is no title); other frames the texts in order.
          let mainId = -1
          if (i === title) mainId = 0
          if (i === body) mainId = title === -1 ? 0 : 1
          if (mainId !== -1) {
            text = mainId
            main = true
            mains++
          } else text = next++
        }
        const first = v.getUint32(at + 24, true)
        const last = v.getUint32(at + 28, true)
        const children = type === 4 && first <= last && last < count ? ([first, last] as const) : undefined
        raw.push({ type, text, main, children })
      }
      // The title and the body show the last texts of the zone.
      for (const f of raw) frames.push({ ...f, text: f.text !== undefined && f.main ? f.text + texts.length - mains : f.text })
    }
    return { frames, texts }
  }

  /** The paragraphs the frames of a slide show, in drawing order (libmwaw's: each frame once, a group's children where it stands). */
  const slideText = (frames: ReadonlyArray<Frame>, texts: ReadonlyArray<Uint8Array>, where: string, out: Array<string>): void => {
    const sent = new Set<number>()
    const onPath = new Set<number>()
    let shown = 0
    const show = (i: number, depth: number): void => {
      if (depth > maxDepth) throw corrupt(`groups of frames nested deeper than ${maxDepth} levels (${where})`)
      if (++shown > maxFramesShown) throw corrupt(`more than ${maxFramesShown} frames shown (${where}): groups that overlap`)
      spend(size.frame, where)
      sent.add(i)
      const frame = frames[i]
      if (frame === undefined) return
      if (frame.text !== undefined) {
        const text = texts[frame.text]
        if (text !== undefined) paragraphs(text, where, out)
        return
      }
      if (frame.children === undefined) return
      const [first, last] = frame.children
      // A group whose children hold a frame on the path to it is broken: none of them is shown.
      for (const p of onPath) if (first <= p && p <= last) return
      for (let c = first; c <= last; c++) {
        if (onPath.has(c)) continue
        onPath.add(c)
        show(c, depth + 1)
        onPath.delete(c)
      }
    }
    for (let i = 0; i < frames.length; i++) {
      if (sent.has(i)) continue
      onPath.add(i)
      show(i, 1)
      onPath.delete(i)
    }
  }

  return lines()
  function* lines(): Generator<BodyLine, void, undefined> {
    for (let index = 0; index < slideCount; index++) {
      const n = index + 1
      const where = `slide ${n}`
      const slideId = slideList.getUint32((index + 1) * size.slideListEntry + 12, true)
      const slide = sized(slideId, size.slide, where)
      if (slide === undefined) continue
      const own: Array<string> = []
      const content = contentOf(slide.view.getUint32(8, true), where)
      if (content !== undefined) slideText(content.frames, content.texts, where, own)
      // The notes page: all its texts, in order, when one holds any.
      const notes: Array<string> = []
      const notesId = slide.view.getUint32(12, true)
      const notesContent = notesId === 0 ? undefined : contentOf(notesId, `the notes of slide ${n}`)
      if (notesContent !== undefined && notesContent.texts.some((t) => t.length > 0)) for (const t of notesContent.texts) paragraphs(t, where, notes)
      for (const text of own) yield { loc: String(n), text }
      for (const text of notes) yield { loc: `${n} notes`, text }
    }
  }
}
