/**
 * The text of a Word `w:altChunk`: a part in another format that Word
 * imports where the chunk stands when it opens the file (issue 15 item 10).
 * Generators (CKEditor exports, SharePoint, the OpenXML SDK's document merge)
 * write whole bodies this way, so a reader that skips chunks finds nothing.
 *
 * What a chunk holds is decided by its bytes: a zip is a WordprocessingML
 * package (read by the caller's document reader), MIME headers are MHTML (its
 * HTML or text part), markup is HTML or XHTML (parsed by htmlparser2, a real
 * HTML parser: implied end tags, entities, scripts and styles), anything else
 * is plain text, taken as it is, line by line. RTF chunks are not read.
 *
 * @module
 */
import { Effect } from "effect"
import { Parser } from "htmlparser2"
import { TextDecoder } from "node:util"
import { ExtractError } from "./extract_error.ts"
import type { LineBudget } from "./_limits.ts"

/** Elements whose content is not text a reader sees. */
const hiddenElements: ReadonlySet<string> = new Set(["head", "script", "style", "template", "noscript", "title", "object", "svg", "math"])

/** Elements that start and end a paragraph (Word makes a paragraph of each, a table cell included). */
const blockElements: ReadonlySet<string> = new Set([
  "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "dt", "dd", "td", "th", "tr", "table", "thead", "tbody", "tfoot",
  "caption", "blockquote", "pre", "address", "section", "article", "header", "footer", "nav", "aside", "main", "ul", "ol",
  "dl", "figure", "figcaption", "form", "fieldset", "legend", "hr", "body", "html", "center"
])

/**
 * The paragraphs of an HTML document as a browser would lay them out: block
 * elements and table cells break paragraphs, `<br>` is a space (as `w:br` is
 * in a Word paragraph), runs of white space are one space, `<pre>` keeps its
 * lines. Entities and numeric character references are decoded.
 */
export function htmlParagraphs(html: string): Array<string> {
  const paragraphs: Array<string> = []
  let current = ""
  let hidden = 0
  let pre = 0
  const flush = () => {
    const text = current.replace(/\s+/g, " ").trim()
    // A paragraph of nothing but zero-width spaces (editors write them as fillers) shows nothing.
    if (text.replace(/[\u200b\u200c\u200d\u2060\ufeff]/g, "") !== "") paragraphs.push(text)
    current = ""
  }
  const parser = new Parser(
    {
      onopentag(name) {
        if (hiddenElements.has(name)) hidden++
        else if (name === "br") current += " "
        else if (blockElements.has(name)) flush()
        if (name === "pre") pre++
      },
      ontext(text) {
        if (hidden > 0) return
        if (pre === 0) {
          current += text
          return
        }
        const lines = text.split(/\r?\n/)
        lines.forEach((line, i) => {
          if (i > 0) flush()
          current += line
        })
      },
      onclosetag(name) {
        if (hiddenElements.has(name)) hidden = Math.max(0, hidden - 1)
        else if (blockElements.has(name)) flush()
        if (name === "pre") pre = Math.max(0, pre - 1)
      }
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true }
  )
  parser.write(html)
  parser.end()
  flush()
  return paragraphs
}

/** A decoder for `label`, or UTF-8 when the label is unknown. */
function decoderOf(label: string | undefined): TextDecoder {
  try {
    if (label !== undefined && label !== "") return new TextDecoder(label.trim().toLowerCase())
  } catch {
    // an unknown charset name: UTF-8 is what every recent writer uses
  }
  return new TextDecoder("utf-8")
}

/** The byte order mark's encoding, if the bytes start with one. */
function bomOf(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8"
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le"
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be"
  return undefined
}

/** HTML bytes as text: by byte order mark, then a `<meta charset>` / `http-equiv` declaration, then `fallback`. */
function decodeHtml(bytes: Uint8Array, fallback: string | undefined): string {
  const bom = bomOf(bytes)
  if (bom !== undefined) return decoderOf(bom).decode(bytes)
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 4096))
  const declared = /<meta[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)/i.exec(head)?.[1] ?? /<\?xml[^>]*encoding\s*=\s*["']([A-Za-z0-9._-]+)/i.exec(head)?.[1]
  return decoderOf(declared ?? fallback).decode(bytes)
}

/** Text without a declared encoding: a byte order mark, else UTF-8 when it is valid, else Shift_JIS (what a Japanese PC writes). */
function decodePlain(bytes: Uint8Array, charset: string | undefined): string {
  const bom = bomOf(bytes)
  if (bom !== undefined) return decoderOf(bom).decode(bytes)
  if (charset !== undefined) return decoderOf(charset).decode(bytes)
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
  } catch {
    return decoderOf("shift_jis").decode(bytes)
  }
}

const plainParagraphs = (text: string): Array<string> =>
  text
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line !== "")

const latin1 = new TextDecoder("latin1")

/** Splits a MIME entity into its headers (lower-case names, folded lines joined) and its body bytes. */
function mimeEntity(bytes: Uint8Array): { headers: Map<string, string>; body: Uint8Array } {
  const text = latin1.decode(bytes)
  const end = /\r?\n\r?\n/.exec(text)
  const headerText = end === null ? text : text.slice(0, end.index)
  const bodyStart = end === null ? text.length : end.index + end[0].length
  const headers = new Map<string, string>()
  for (const line of headerText.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":")
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  return { headers, body: bytes.subarray(bodyStart) }
}

/** A parameter of a header value (`charset`, `boundary`), unquoted. */
const parameter = (value: string | undefined, name: string): string | undefined =>
  value === undefined ? undefined : (new RegExp(`${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, "i").exec(value) ?? []).slice(1).find((v) => v !== undefined)

/** A MIME body decoded from its transfer encoding. */
function transferDecoded(body: Uint8Array, encoding: string | undefined): Uint8Array {
  const kind = (encoding ?? "").toLowerCase()
  if (kind === "base64") return Buffer.from(latin1.decode(body).replace(/[^A-Za-z0-9+/=]/g, ""), "base64")
  if (kind === "quoted-printable") {
    const text = latin1.decode(body).replace(/=\r?\n/g, "")
    const out: Array<number> = []
    for (let i = 0; i < text.length; i++) {
      const hex = text[i] === "=" ? text.slice(i + 1, i + 3) : ""
      if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
        out.push(parseInt(hex, 16))
        i += 2
      } else {
        out.push(text.charCodeAt(i) & 0xff)
      }
    }
    return Uint8Array.from(out)
  }
  return body
}

/** The paragraphs of an MHTML document (`message/rfc822`, Word's "single file web page"): its first HTML part, else its first text part. */
function mhtParagraphs(bytes: Uint8Array, depth = 0): Array<string> {
  const { headers, body } = mimeEntity(bytes)
  const type = (headers.get("content-type") ?? "text/plain").toLowerCase()
  const boundary = parameter(headers.get("content-type"), "boundary")
  if (type.startsWith("multipart/") && boundary !== undefined && depth < 4) {
    const text = latin1.decode(body)
    const pieces = text.split(`--${boundary}`).slice(1)
    const parts = pieces.filter((p) => !p.startsWith("--")).map((p) => Buffer.from(p.replace(/^\r?\n/, ""), "latin1"))
    const entities = parts.map((p) => ({ bytes: p, ...mimeEntity(p) }))
    const pick = entities.find((e) => /^text\/html|^application\/xhtml/i.test(e.headers.get("content-type") ?? "")) ??
      entities.find((e) => /^(text\/plain|multipart\/)/i.test(e.headers.get("content-type") ?? "text/plain"))
    return pick === undefined ? [] : mhtParagraphs(pick.bytes, depth + 1)
  }
  const charset = parameter(headers.get("content-type"), "charset")
  const decoded = transferDecoded(body, headers.get("content-transfer-encoding"))
  if (/^text\/html|^application\/xhtml/.test(type)) return htmlParagraphs(decodeHtml(decoded, charset))
  if (type.startsWith("text/")) return plainParagraphs(decodePlain(decoded, charset))
  return []
}

/** What a chunk's bytes are. */
export type ChunkKind = "package" | "mht" | "html" | "rtf" | "text"

/** Sniffs a chunk: a zip, MIME headers, `{\rtf`, markup, or text. */
export function chunkKindOf(bytes: Uint8Array): ChunkKind {
  if (bytes[0] === 0x50 && bytes[1] === 0x4b) return "package"
  const head = decodePlain(bytes.subarray(0, 2048), undefined).replace(/^\uFEFF/, "").trimStart()
  if (/^\{\\rtf/.test(head)) return "rtf"
  if (/^(mime-version|content-type|from|date|subject|message-id|content-location)\s*:/i.test(head)) return "mht"
  if (/^<(!doctype\s+html|html|\?xml|head|body|!--|p|div|table|span|h[1-6])\b/i.test(head)) return "html"
  return "text"
}

/**
 * The paragraphs of an altChunk part's bytes, each counted against `budget`.
 * A nested package is read by `readPackage` (the document reader, which
 * knows its own depth); an RTF chunk gives nothing.
 */
export const chunkParagraphs = <E>(
  bytes: Uint8Array,
  partName: string,
  budget: LineBudget,
  readPackage: (bytes: Uint8Array) => Effect.Effect<ReadonlyArray<string>, E>
): Effect.Effect<ReadonlyArray<string>, E | ExtractError> => {
  const kind = chunkKindOf(bytes)
  if (kind === "package") return readPackage(bytes)
  return Effect.try({
    try: () => {
      const paragraphs =
        kind === "mht"
          ? mhtParagraphs(bytes)
          : kind === "html"
            ? htmlParagraphs(decodeHtml(bytes, undefined))
            : kind === "text"
              ? plainParagraphs(decodePlain(bytes, undefined))
              : []
      for (const p of paragraphs) budget.take(partName, p.length)
      return paragraphs
    },
    catch: (e) => (e instanceof ExtractError ? e : new ExtractError({ reason: "corrupt", detail: `${partName}: ${e instanceof Error ? e.message : String(e)}` }))
  })
}
