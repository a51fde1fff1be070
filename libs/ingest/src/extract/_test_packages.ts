/**
 * Small OOXML packages built in memory for the extractor's tests, after the
 * recipes of shared/cases/cases.md: each test writes the XML that matters to
 * it, these helpers add the package plumbing (content types, relationships,
 * the workbook, document and presentation parts) in the form Office writes.
 * The generators in tools/ (trees, samples, hostile files) and the GUI's
 * test samples use the same plumbing through `@sagasu/ingest/testing`.
 * Used by tests and tools only.
 *
 * @module
 */
import JSZip from "jszip"

/** Namespace declarations the test XML uses. */
export const xmlns = {
  sml: "http://schemas.openxmlformats.org/spreadsheetml/2006/main",
  r: "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
  w: "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
  p: "http://schemas.openxmlformats.org/presentationml/2006/main",
  a: "http://schemas.openxmlformats.org/drawingml/2006/main",
  mc: "http://schemas.openxmlformats.org/markup-compatibility/2006",
  rels: "http://schemas.openxmlformats.org/package/2006/relationships"
} as const

/** The XML declaration Office writes at the head of each part (standalone, then a line break). */
export const officeXmlHead = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n`

const relType = (type: string) => `http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}`

/** A `.rels` part: `[id, type (the last segment of Office's relationship type, e.g. `worksheet`), target]` per relationship. */
export function relationships(rels: ReadonlyArray<readonly [id: string, type: string, target: string]>): string {
  const items = rels.map(([id, type, target]) => `<Relationship Id="${id}" Type="${relType(type)}" Target="${target}"/>`)
  return `${officeXmlHead}<Relationships xmlns="${xmlns.rels}">${items.join("")}</Relationships>`
}

/**
 * A `[Content_Types].xml` part as Office writes it: the defaults for
 * `.rels` and `.xml`, then `defaults` (`[extension, content type]`, e.g. a
 * picture's `["jpeg", "image/jpeg"]`), then `overrides` (`[part name,
 * content type]`, e.g. `["/xl/workbook.xml", …]`).
 */
export function contentTypes(
  overrides: ReadonlyArray<readonly [partName: string, contentType: string]> = [],
  defaults: ReadonlyArray<readonly [extension: string, contentType: string]> = []
): string {
  const all = [["rels", "application/vnd.openxmlformats-package.relationships+xml"], ["xml", "application/xml"], ...defaults]
  return (
    `${officeXmlHead}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
    all.map(([extension, type]) => `<Default Extension="${extension}" ContentType="${type}"/>`).join("") +
    overrides.map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`).join("") +
    `</Types>`
  )
}

/** The time every entry of {@link zipOf} carries, so that the same files give the same bytes. */
export const packageTime = new Date(Date.UTC(2024, 0, 1))

/** Zips `files` in the given order (entry order matters to some readers: BUG-01), deflated, dated {@link packageTime}. */
export async function zipOf(files: Readonly<Record<string, string | Uint8Array>>): Promise<Uint8Array> {
  const zip = new JSZip()
  for (const [name, content] of Object.entries(files)) zip.file(name, content, { date: packageTime })
  return zip.generateAsync({ type: "uint8array", compression: "DEFLATE" })
}

/** Text with `&`, `<`, `>` and `"` escaped, for an element's text or an attribute's value. */
export const escapeXml = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

/** A worksheet part around `sheetData` content (and whatever follows it, e.g. `<mergeCells>`). */
export const worksheet = (sheetData: string, after = "") =>
  `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${xmlns.sml}" xmlns:r="${xmlns.r}"><sheetData>${sheetData}</sheetData>${after}</worksheet>`

/** A shared-string table of the given `<si>` items. */
export const sharedStrings = (items: ReadonlyArray<string>) =>
  `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${xmlns.sml}" count="${items.length}" uniqueCount="${items.length}">${items.join("")}</sst>`

/** A styles part whose `cellXfs` use the given number format ids, with optional custom formats `[id, code]`. */
export const styles = (formatIds: ReadonlyArray<number>, custom: ReadonlyArray<readonly [number, string]> = []) =>
  `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="${xmlns.sml}">` +
  (custom.length > 0
    ? `<numFmts count="${custom.length}">${custom.map(([id, code]) => `<numFmt numFmtId="${id}" formatCode="${code.replace(/"/g, "&quot;")}"/>`).join("")}</numFmts>`
    : "") +
  `<cellStyleXfs count="1"><xf numFmtId="0"/></cellStyleXfs>` +
  `<cellXfs count="${formatIds.length}">${formatIds.map((id) => `<xf numFmtId="${id}" applyNumberFormat="1"/>`).join("")}</cellXfs></styleSheet>`

/** One sheet of {@link workbookFiles}. */
export interface SheetSpec {
  readonly name: string
  readonly xml: string
  readonly state?: string
}

/**
 * The files of a workbook: sheets at `xl/worksheets/sheetN.xml`, optional
 * shared strings and styles, `workbookPr` attributes (e.g. `date1904="1"`).
 */
export function workbookFiles(spec: {
  readonly sheets: ReadonlyArray<SheetSpec>
  readonly sharedStrings?: string
  readonly styles?: string
  readonly workbookPr?: string
}): Record<string, string> {
  const sheetRels = spec.sheets.map((_, i) => [`rId${i + 1}`, "worksheet", `worksheets/sheet${i + 1}.xml`] as const)
  const extraRels: Array<readonly [string, string, string]> = []
  const files: Record<string, string> = {
    "[Content_Types].xml": contentTypes(),
    "_rels/.rels": relationships([["rId1", "officeDocument", "xl/workbook.xml"]]),
    "xl/workbook.xml":
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${xmlns.sml}" xmlns:r="${xmlns.r}">` +
      `<workbookPr ${spec.workbookPr ?? ""}/><sheets>` +
      spec.sheets
        .map((s, i) => `<sheet name="${s.name}" sheetId="${i + 1}" r:id="rId${i + 1}"${s.state ? ` state="${s.state}"` : ""}/>`)
        .join("") +
      `</sheets></workbook>`
  }
  spec.sheets.forEach((s, i) => (files[`xl/worksheets/sheet${i + 1}.xml`] = s.xml))
  if (spec.sharedStrings !== undefined) {
    files["xl/sharedStrings.xml"] = spec.sharedStrings
    extraRels.push(["rIdS", "sharedStrings", "sharedStrings.xml"])
  }
  if (spec.styles !== undefined) {
    files["xl/styles.xml"] = spec.styles
    extraRels.push(["rIdT", "styles", "styles.xml"])
  }
  files["xl/_rels/workbook.xml.rels"] = relationships([...sheetRels, ...extraRels])
  return files
}

/** The files of a document whose body is `body` (the content of `w:body`), plus companion parts `[id, type, target, xml]`. */
export function documentFiles(
  body: string,
  companions: ReadonlyArray<readonly [id: string, type: string, target: string, xml: string]> = []
): Record<string, string> {
  const files: Record<string, string> = {
    "[Content_Types].xml": contentTypes(),
    "_rels/.rels": relationships([["rId1", "officeDocument", "word/document.xml"]]),
    "word/document.xml": `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${xmlns.w}" xmlns:mc="${xmlns.mc}" xmlns:r="${xmlns.r}"><w:body>${body}</w:body></w:document>`,
    "word/_rels/document.xml.rels": relationships(companions.map(([id, type, target]) => [id, type, target]))
  }
  for (const [, , target, xml] of companions) files[`word/${target}`] = xml
  return files
}

/**
 * The package of a presentation around its slides, given in show order as
 * their part names under `ppt/` (`slides/slide2.xml`): content types (with
 * Office's overrides for the presentation and its slides), the
 * package's and the presentation's relationships (`rId1`… in show order) and
 * the presentation part. The slide parts (and their own parts) are the
 * caller's; `slideFiles` adds `ppt/slides/slideN.xml` for each XML given.
 */
export function presentationFiles(slideParts: ReadonlyArray<string>): Record<string, string> {
  const type = "application/vnd.openxmlformats-officedocument.presentationml"
  return {
    "[Content_Types].xml": contentTypes([
      ["/ppt/presentation.xml", `${type}.presentation.main+xml`],
      ...slideParts.map((part) => [`/ppt/${part}`, `${type}.slide+xml`] as const)
    ]),
    "_rels/.rels": relationships([["rId1", "officeDocument", "ppt/presentation.xml"]]),
    "ppt/presentation.xml":
      `${officeXmlHead}<p:presentation xmlns:p="${xmlns.p}" xmlns:r="${xmlns.r}"><p:sldIdLst>` +
      slideParts.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join("") +
      `</p:sldIdLst></p:presentation>`,
    "ppt/_rels/presentation.xml.rels": relationships(slideParts.map((part, i) => [`rId${i + 1}`, "slide", part] as const))
  }
}

/** A presentation of the given slide parts' XML, in order, at `ppt/slides/slide1.xml`… ({@link presentationFiles}). */
export function slideFiles(slides: ReadonlyArray<string>): Record<string, string> {
  const files = presentationFiles(slides.map((_, i) => `slides/slide${i + 1}.xml`))
  slides.forEach((xml, i) => (files[`ppt/slides/slide${i + 1}.xml`] = xml))
  return files
}

/** A slide (or notes page, with `root` = `notes`) holding the given shapes (`p:sp` elements). */
export const slide = (shapes: string, root = "sld", attributes = "") =>
  `<?xml version="1.0" encoding="UTF-8"?><p:${root} xmlns:p="${xmlns.p}" xmlns:a="${xmlns.a}" xmlns:r="${xmlns.r}"${attributes}><p:cSld><p:spTree>${shapes}</p:spTree></p:cSld></p:${root}>`

/** A text shape with one paragraph per entry of `paragraphs`; `placeholder` is a `p:ph` type. */
export const textShape = (paragraphs: ReadonlyArray<string>, placeholder?: string) =>
  `<p:sp><p:nvSpPr><p:cNvPr id="2" name="t"/><p:cNvSpPr/><p:nvPr>${placeholder ? `<p:ph type="${placeholder}"/>` : ""}</p:nvPr></p:nvSpPr>` +
  `<p:txBody>${paragraphs.map((t) => `<a:p><a:r><a:t>${t}</a:t></a:r></a:p>`).join("")}</p:txBody></p:sp>`

/** A chart part with a rich-text title and one series whose categories are `categories` (cached strings) and values numbers. */
export const chartPart = (title: string, categories: ReadonlyArray<string>) => {
  const c = "http://schemas.openxmlformats.org/drawingml/2006/chart"
  const pts = (values: ReadonlyArray<string>) => values.map((v, i) => `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>`).join("")
  return (
    `<?xml version="1.0" encoding="UTF-8"?><c:chartSpace xmlns:c="${c}" xmlns:a="${xmlns.a}"><c:chart>` +
    `<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>${title}</a:t></a:r></a:p></c:rich></c:tx></c:title><c:plotArea><c:barChart>` +
    `<c:ser><c:idx val="0"/><c:cat><c:strRef><c:f>S!$A$1:$A$${categories.length}</c:f><c:strCache><c:ptCount val="${categories.length}"/>${pts(categories)}</c:strCache></c:strRef></c:cat>` +
    `<c:val><c:numRef><c:numCache>${pts(categories.map((_, i) => String(i * 100)))}</c:numCache></c:numRef></c:val></c:ser>` +
    `<c:ser><c:idx val="1"/><c:cat><c:strRef><c:strCache>${pts(categories)}</c:strCache></c:strRef></c:cat></c:ser>` +
    `</c:barChart></c:plotArea></c:chart></c:chartSpace>`
  )
}

/**
 * A worksheet drawing: one text box anchored at `box` (0-based `[col, row]`)
 * holding `text`, and one chart anchored at `chart` pointing at `rId1`.
 */
export const sheetDrawing = (box: readonly [number, number], text: string, chart: readonly [number, number]) => {
  const xdr = "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing"
  const from = ([col, row]: readonly [number, number]) => `<xdr:from><xdr:col>${col}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${row}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>`
  return (
    `<?xml version="1.0" encoding="UTF-8"?><xdr:wsDr xmlns:xdr="${xdr}" xmlns:a="${xmlns.a}" xmlns:r="${xmlns.r}">` +
    `<xdr:twoCellAnchor>${from(box)}<xdr:to><xdr:col>9</xdr:col><xdr:row>9</xdr:row></xdr:to><xdr:sp><xdr:nvSpPr><xdr:cNvPr id="2" name="テキスト ボックス 1"/><xdr:cNvSpPr txBox="1"/></xdr:nvSpPr>` +
    `<xdr:txBody><a:bodyPr/><a:p><a:r><a:t>${text}</a:t></a:r></a:p><a:p><a:endParaRPr/></a:p></xdr:txBody></xdr:sp><xdr:clientData/></xdr:twoCellAnchor>` +
    `<xdr:twoCellAnchor>${from(chart)}<xdr:to><xdr:col>9</xdr:col><xdr:row>9</xdr:row></xdr:to><xdr:graphicFrame><xdr:nvGraphicFramePr><xdr:cNvPr id="3" name="グラフ 1"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>` +
    `<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rId1"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor>` +
    `</xdr:wsDr>`
  )
}
