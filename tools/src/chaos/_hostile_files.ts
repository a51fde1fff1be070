/**
 * The hostile set of the chaos campaign: malformed and malicious Office files
 * and hostile names, each with what it must end as — `done` with the text
 * it holds, or `failed` with a specific reason, or skipped by the crawl with
 * a reason in the log. Deterministic for a seed.
 *
 * @module
 */
import { FailureReason, seededRandom } from "@sagasu/domain"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import {
  bug14Encrypted,
  bug14LegacyWorkbook,
  deflateRepeated,
  docStreams,
  documentFiles,
  pptStreams,
  type RawZipEntry,
  relationships,
  sharedStrings,
  slide,
  slideFiles,
  textShape,
  workbookFiles,
  worksheet,
  writeCfb,
  writeDoc,
  writePpt,
  writeZip,
  xmlns,
  zipOf
} from "@sagasu/ingest/testing"

/** What a hostile file must end as. */
export type Expectation =
  /** `done`, and the body index holds every text. */
  | { readonly _tag: "done"; readonly texts: ReadonlyArray<string> }
  /** `failed` with one of these reasons (`*` = any specific reason). */
  | { readonly _tag: "failed"; readonly reasons: ReadonlyArray<string> }
  /** Either `done` with the texts, or `failed` with a specific reason (the format allows both readings). */
  | { readonly _tag: "either"; readonly texts: ReadonlyArray<string> }
  /** Not a target: the crawl skips it, saying why in the log (or it is a cloud-only placeholder). */
  | { readonly _tag: "skipped"; readonly logPattern: RegExp }

/** One hostile entry: its path relative to the tree (`/`-separated), its kind, what it must end as. */
export interface HostileFile {
  readonly path: string
  readonly kind: string
  readonly expect: Expectation
}

/**
 * Reasons a failed row may carry: the domain's closed list (the extractor's, the Office
 * owners', the commander's), less `work-folder`, which is never recorded (R18), and `unknown`
 * (a row of another version), which says nothing specific.
 */
export const specificReasons: ReadonlyArray<FailureReason> = FailureReason.literals.filter((r) => r !== "work-folder" && r !== "unknown")

const done = (...texts: Array<string>): Expectation => ({ _tag: "done", texts })
const failed = (...reasons: Array<string>): Expectation => ({ _tag: "failed", reasons })
const either = (...texts: Array<string>): Expectation => ({ _tag: "either", texts })

const cell = (text: string, ref = "A1") => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`
const row1 = (text: string) => `<row r="1">${cell(text)}</row>`

/** A workbook with `text` in A1 (sheet 名前), as a zip. */
const workbook = (text: string, sheetName = "表") => zipOf(workbookFiles({ sheets: [{ name: sheetName, xml: worksheet(row1(text)) }] }))
const document = (text: string) => zipOf(documentFiles(`<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`))
const presentation = (text: string) => zipOf(slideFiles([slide(textShape([text]))]))

/** Raw zip entries of a files record, with some entries replaced. */
const rawEntries = (files: Record<string, string>, replace: Record<string, Omit<RawZipEntry, "name">> = {}): Array<RawZipEntry> =>
  Object.entries(files).map(([name, data]) => ({ name, ...(replace[name] ?? { data }) }))

const laughs = (root: string, inner: string) =>
  `<?xml version="1.0"?><!DOCTYPE ${root} [<!ENTITY a "lollollollollollollol">` +
  Array.from({ length: 9 }, (_, k) => `<!ENTITY ${String.fromCharCode(98 + k)} "${`&${String.fromCharCode(97 + k)};`.repeat(10)}">`).join("") +
  `]>${inner}`

/** Writes the hostile set under `root` and returns it. */
export async function makeHostileTree(root: string, seed: number): Promise<ReadonlyArray<HostileFile>> {
  const rand = seededRandom(seed)
  const out: Array<HostileFile> = []
  const put = (rel: string, bytes: Uint8Array | string, kind: string, expect: Expectation) => {
    const file = path.join(root, ...rel.split("/"))
    fs.mkdirSync(path.dirname(file), { recursive: true })
    fs.writeFileSync(file, bytes)
    out.push({ path: rel, kind, expect })
  }

  // --- Damaged zips: truncated anywhere, CRC, wrong directory. -------------------------------------
  const good = { xlsx: await workbook("切断前の本文"), docx: await document("切断前の本文"), pptx: await presentation("切断前の本文") }
  for (const [ext, bytes, cuts] of [["xlsx", good.xlsx, 40], ["docx", good.docx, 15], ["pptx", good.pptx, 15]] as const) {
    for (let i = 0; i < cuts; i++) {
      const cut = 1 + Math.floor(rand() * (bytes.length - 2))
      put(`zip/truncated/${ext}_${String(i).padStart(2, "0")}_${cut}.${ext}`, bytes.subarray(0, cut), "truncated zip", failed("corrupt", "not-office", "empty-file"))
    }
  }
  const stored = writeZip(Object.entries(workbookFiles({ sheets: [{ name: "S", xml: worksheet(row1("CRCCHECK")) }] })).map(([name, data]) => ({ name, data, stored: true })))
  const badCrc = Buffer.from(stored)
  badCrc[badCrc.indexOf("CRCCHECK") + 1] = 0x58
  put("zip/bad_crc.xlsx", badCrc, "CRC mismatch", failed("corrupt"))
  const past = Buffer.from(good.xlsx)
  const eocd = past.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]))
  past.writeUInt32LE(past.length + 1000, eocd + 16)
  put("zip/directory_past_end.xlsx", past, "central directory past the end", failed("corrupt", "not-office"))
  const garbage = Buffer.from(good.docx)
  const at = garbage.indexOf("word/document.xml") + 30
  for (let i = 0; i < 16; i++) garbage[at + i] = 0xff
  put("zip/damaged_deflate.docx", garbage, "damaged deflate data", either("切断前の本文"))
  put("zip/zip64.xlsx", writeZip(rawEntries(workbookFiles({ sheets: [{ name: "S", xml: worksheet(row1("ZIP64の本文")) }] })), { zip64: true }), "ZIP64 records", done("ZIP64の本文"))
  put("zip/data_descriptor.docx", writeZip(Object.entries(documentFiles(`<w:p><w:r><w:t>記述子の本文</w:t></w:r></w:p>`)).map(([name, data]) => ({ name, data, dataDescriptor: true }))), "data descriptors", done("記述子の本文"))

  // --- Wrong magic: other formats behind Office names. -----------------------------------------
  const magics: Array<readonly [string, Uint8Array]> = [
    ["png", Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 7)])],
    ["pdf", Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n")],
    ["gif", Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;")],
    ["elf", Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(200)])],
    ["text", Buffer.from("これはただのテキストです。\n")],
    ["html", Buffer.from("<html><body>見積書</body></html>")],
    ["random", Buffer.from(Array.from({ length: 4096 }, () => Math.floor(rand() * 256)))],
    ["pk_garbage", Buffer.concat([Buffer.from("PK\x03\x04"), Buffer.from(Array.from({ length: 2000 }, () => Math.floor(rand() * 256)))])],
    ["ole2_garbage", Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.from(Array.from({ length: 3000 }, () => Math.floor(rand() * 256)))])]
  ]
  for (const [what, bytes] of magics) {
    // An OLE2 container goes to LibreOffice, whose import filters may read garbage as (empty) text.
    for (const ext of ["xlsx", "docx", "pptx"]) put(`magic/${what}.${ext}`, bytes, `wrong magic (${what})`, what === "ole2_garbage" ? either() : failed("*"))
  }
  for (const ext of ["xlsx", "docx", "pptx"]) put(`magic/empty.${ext}`, new Uint8Array(), "empty file", failed("empty-file"))
  for (const ext of ["xlsx", "docx", "pptx"]) put(`magic/encrypted.${ext}`, bug14Encrypted(), "encrypted (OLE2 EncryptedPackage)", failed("encrypted"))
  put("magic/not_an_office_zip.xlsx", await zipOf({ "readme.txt": "hello" }), "zip that is no Office package", failed("not-office", "corrupt"))
  put("magic/xls_renamed.xlsx", bug14LegacyWorkbook(), "legacy workbook behind an xlsx name (read as xls, W3)", done("古い形式の本文"))
  put("legacy/garbage.xls", magics[8]?.[1] ?? new Uint8Array(), "OLE2 garbage as xls (Office)", failed("*"))
  put("legacy/garbage.doc", Buffer.from(Array.from({ length: 3000 }, () => Math.floor(rand() * 256))), "random bytes as doc (Office)", failed("*"))
  put("legacy/rtf.doc", Buffer.from("{\\rtf1\\ansi{\\fonttbl\\f0 Arial;}\\f0 RTF no honbun\\par}"), "RTF behind a doc name (Office)", either("RTF no honbun"))

  // --- Word 97 and PowerPoint 97 read by the plain workers (W3, issue 20). ----------------------
  const goodDoc = writeDoc({ text: "旧形式の本文\r二段落目\r", headers: ["", "ヘッダー\r", "", "", "", ""] }, { pieceChars: 4 })
  const goodPpt = writePpt([{ placeholders: ["旧形式の表題"], shapes: ["箱の中"], notes: "発表者メモ" }])
  put("legacy/word97.doc", goodDoc, "Word 97 document (plain reader)", done("旧形式の本文", "二段落目", "ヘッダー"))
  put("legacy/ppt97.ppt", goodPpt, "PowerPoint 97 presentation (plain reader)", done("旧形式の表題", "箱の中", "発表者メモ"))
  for (const [ext, bytes] of [["doc", goodDoc], ["ppt", goodPpt]] as const) {
    for (let i = 0; i < 8; i++) {
      const cut = 1 + Math.floor(rand() * (bytes.length - 2))
      // A cut container is the Office owner's to judge (LibreOffice may still read part of it).
      put(`legacy/truncated/${ext}_${i}_${cut}.${ext}`, bytes.subarray(0, cut), `truncated ${ext}`, either())
    }
  }
  const doc = docStreams({ text: "片の外\r" })
  const docWith = (table: Uint8Array, wordDocument: Uint8Array = doc.wordDocument) => writeCfb([["WordDocument", wordDocument], ["1Table", table]])
  const pieceOutside = Buffer.from(doc.table)
  pieceOutside.writeUInt32LE(0x3fffff00, doc.clxAt + 5 + 8 + 2)
  put("legacy/doc_piece_outside.doc", docWith(pieceOutside), "piece table pointing outside the stream", failed("corrupt"))
  const backwards = Buffer.from(doc.table)
  backwards.writeUInt32LE(0x7fffffff, doc.clxAt + 5)
  put("legacy/doc_piece_backwards.doc", docWith(backwards), "piece whose CPs run backwards", failed("corrupt"))
  const hugeCounts = Buffer.from(doc.wordDocument)
  for (const i of [3, 4, 5, 7, 8, 9, 10]) hugeCounts.writeInt32LE(0x7fffffff, 0x22 + 28 + 2 + i * 4)
  put("legacy/doc_huge_counts.doc", docWith(doc.table, hugeCounts), "story lengths of 2^31-1", done("片の外"))
  const nested = docStreams({ text: "\x13".repeat(20_000) + "\x15".repeat(20_000) + "入れ子の後\r" }, { pieceChars: 40_000 })
  put("legacy/doc_nested_fields.doc", writeCfb([["WordDocument", nested.wordDocument], ["1Table", nested.table]]), "20,000 nested fields", done("入れ子の後"))
  put("legacy/ppt_edit_loop.ppt", writePpt([{ placeholders: ["編集の輪"] }], { editLoop: true }), "UserEditAtom chain that loops", done("編集の輪"))
  const ppt = pptStreams([{ placeholders: ["外を指す"] }])
  const pptDir = Buffer.from(ppt.document)
  pptDir.writeUInt32LE(0x7ffffff0, ppt.userEditAt + 8 + 12)
  put("legacy/ppt_directory_outside.ppt", writeCfb([["PowerPoint Document", pptDir], ["Current User", ppt.currentUser]]), "persist directory outside the stream", failed("corrupt"))
  const pptClaims = Buffer.from(ppt.document)
  pptClaims.writeUInt32LE(((4000 << 20) | 1) >>> 0, ppt.persistDirectoryAt + 8)
  put("legacy/ppt_directory_claims.ppt", writeCfb([["PowerPoint Document", pptClaims], ["Current User", ppt.currentUser]]), "persist directory entry claiming 4,000 offsets", failed("corrupt"))

  // --- Zip bombs. --------------------------------------------------------------------------------
  const sheetBomb = deflateRepeated(`<worksheet xmlns="${xmlns.sml}"><sheetData>`, "\0".repeat(1 << 20), 1024, "</sheetData></worksheet>")
  put("bomb/ratio_1GiB.xlsx", writeZip(rawEntries(workbookFiles({ sheets: [{ name: "S", xml: "" }] }), { "xl/worksheets/sheet1.xml": { deflated: sheetBomb } })), "zip bomb (1 GiB, ratio)", failed("too-large"))
  const docBomb = deflateRepeated(`<w:document xmlns:w="${xmlns.w}"><w:body>`, " ".repeat(1 << 20), 1024, "</w:body></w:document>")
  put("bomb/ratio_1GiB.docx", writeZip(rawEntries(documentFiles(""), { "word/document.xml": { deflated: docBomb } })), "zip bomb (1 GiB, ratio)", failed("too-large"))
  const slideBomb = deflateRepeated(`<p:sld xmlns:p="${xmlns.p}" xmlns:a="${xmlns.a}"><p:cSld><p:spTree>`, "\0".repeat(1 << 20), 1024, "</p:spTree></p:cSld></p:sld>")
  put("bomb/ratio_1GiB.pptx", writeZip(rawEntries(slideFiles([""]), { "ppt/slides/slide1.xml": { deflated: slideBomb } })), "zip bomb (1 GiB, ratio)", failed("too-large"))
  const liar = deflateRepeated(`<worksheet xmlns="${xmlns.sml}"><sheetData>`, "<row/>".repeat(100_000), 200, "</sheetData></worksheet>")
  put("bomb/lying_size.xlsx", writeZip(rawEntries(workbookFiles({ sheets: [{ name: "S", xml: "" }] }), { "xl/worksheets/sheet1.xml": { deflated: { ...liar, size: 1000 } } })), "entry lying about its size", failed("corrupt", "too-large"))
  // 300 sheets that are one compressed part each: ~120 MB of rows in all, under the ratio limit.
  const rowBody = Array.from({ length: 200 }, (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>${i * 7919}</v></c></row>`).join("")
  const manyBig = deflateRepeated(`<worksheet xmlns="${xmlns.sml}"><sheetData>${row1("多すぎる行")}`, rowBody, 30, "</sheetData></worksheet>")
  const many = workbookFiles({ sheets: Array.from({ length: 300 }, (_, i) => ({ name: `S${i}`, xml: "" })) })
  put("bomb/300_sheets.xlsx", writeZip(Object.keys(many).map((name) => (name.startsWith("xl/worksheets/") ? { name, deflated: manyBig } : { name, data: many[name] ?? "" }))), "300 sheets", done("多すぎる行"))
  const entries = Array.from({ length: 20_000 }, (_, i) => ({ name: `junk/${i}.bin`, data: "x", stored: true }))
  put("bomb/20000_entries.xlsx", writeZip([...rawEntries(workbookFiles({ sheets: [{ name: "S", xml: worksheet(row1("二万項目")) }] })), ...entries]), "20,000 zip entries", done("二万項目"))

  // --- Zip paths and relationships that point outside. -------------------------------------------
  const marker = `sagasu-chaos-slip-${seed}`
  put("escape/zip_slip.xlsx", writeZip([...rawEntries(workbookFiles({ sheets: [{ name: "S", xml: worksheet(row1("脱出しない")) }] })), { name: `../../../../../../tmp/${marker}.xml`, data: "<x/>" }, { name: `/tmp/${marker}-abs.xml`, data: "<x/>" }]), "zip-slip entry names", done("脱出しない"))
  const outside = workbookFiles({ sheets: [{ name: "S", xml: worksheet(row1("外を見ない")) }] })
  outside["xl/_rels/workbook.xml.rels"] = relationships([["rId1", "worksheet", "worksheets/sheet1.xml"], ["rId2", "sharedStrings", "../../../../../../etc/passwd"]])
  put("escape/rel_outside.xlsx", await zipOf(outside), "relationship target outside the package", either("外を見ない"))
  const external = documentFiles(`<w:p><w:r><w:t>外部参照なし</w:t></w:r></w:p>`)
  external["word/_rels/document.xml.rels"] = `<?xml version="1.0"?><Relationships xmlns="${xmlns.rels}"><Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="file:///etc/passwd" TargetMode="External"/><Relationship Id="rId8" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" Target="/etc/passwd"/></Relationships>`
  put("escape/rel_external.docx", await zipOf(external), "external and absolute relationship targets", either("外部参照なし"))
  const cycle = workbookFiles({ sheets: [{ name: "S", xml: worksheet(row1("循環")) }] })
  cycle["xl/_rels/workbook.xml.rels"] = relationships([["rId1", "worksheet", "worksheets/sheet1.xml"], ["rId2", "worksheet", "workbook.xml"]])
  put("escape/rel_cycle.xlsx", await zipOf(cycle), "relationship cycle", either("循環"))
  const dup = writeZip([...rawEntries(workbookFiles({ sheets: [{ name: "S", xml: worksheet(row1("重複一")) }] })), { name: "xl/worksheets/sheet1.xml", data: worksheet(row1("重複二")) }])
  put("escape/duplicate_entries.xlsx", dup, "duplicate entry names", either())

  // --- XML attacks. ------------------------------------------------------------------------------
  put("xml/laughs_shared_strings.xlsx", await zipOf(workbookFiles({ sheets: [{ name: "S", xml: worksheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`) }], sharedStrings: laughs("sst", `<sst xmlns="${xmlns.sml}"><si><t>&j;</t></si></sst>`) })), "entity expansion (billion laughs)", failed("corrupt"))
  put("xml/laughs_sheet.xlsx", await zipOf(workbookFiles({ sheets: [{ name: "S", xml: laughs("worksheet", `<worksheet xmlns="${xmlns.sml}"><sheetData>${row1("&j;")}</sheetData></worksheet>`) }] })), "entity expansion (billion laughs)", failed("corrupt"))
  put("xml/laughs_document.docx", await zipOf({ ...documentFiles(""), "word/document.xml": laughs("w:document", `<w:document xmlns:w="${xmlns.w}"><w:body><w:p><w:r><w:t>&j;</w:t></w:r></w:p></w:body></w:document>`) }), "entity expansion (billion laughs)", failed("corrupt"))
  put("xml/laughs_slide.pptx", await zipOf(slideFiles([laughs("p:sld", slide(textShape(["&j;"])).replace(/^<\?xml[^>]*>/, ""))])), "entity expansion (billion laughs)", failed("corrupt"))
  put("xml/laughs_workbook.xlsx", await zipOf({ ...workbookFiles({ sheets: [{ name: "S", xml: worksheet(row1("本体")) }] }), "xl/workbook.xml": laughs("workbook", `<workbook xmlns="${xmlns.sml}" xmlns:r="${xmlns.r}"><sheets><sheet name="&j;" sheetId="1" r:id="rId1"/></sheets></workbook>`) }), "entity expansion (billion laughs)", failed("corrupt"))
  put("xml/laughs_rels.docx", await zipOf({ ...documentFiles(`<w:p><w:r><w:t>関係</w:t></w:r></w:p>`), "_rels/.rels": laughs("Relationships", `<Relationships xmlns="${xmlns.rels}"><Relationship Id="&j;" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`) }), "entity expansion (billion laughs)", failed("corrupt"))
  put("xml/laughs_content_types.xlsx", await zipOf({ ...workbookFiles({ sheets: [{ name: "S", xml: worksheet(row1("型の宣言")) }] }), "[Content_Types].xml": laughs("Types", `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="&j;" ContentType="application/xml"/></Types>`) }), "entity expansion in [Content_Types].xml", either("型の宣言"))
  for (const [name, entity] of [["file", `SYSTEM "file:///etc/passwd"`], ["http", `SYSTEM "http://127.0.0.1:9/x"`], ["parameter", `SYSTEM "file:///etc/hostname"`]] as const) {
    const decl = name === "parameter" ? `<!DOCTYPE d [<!ENTITY % p ${entity}> %p;]>` : `<!DOCTYPE d [<!ENTITY xxe ${entity}>]>`
    put(`xml/xxe_${name}.docx`, await zipOf({ ...documentFiles(""), "word/document.xml": `<?xml version="1.0"?>${decl}<w:document xmlns:w="${xmlns.w}"><w:body><w:p><w:r><w:t>${name === "parameter" ? "x" : "&xxe;"}</w:t></w:r></w:p></w:body></w:document>` }), "external entity", failed("corrupt"))
    put(`xml/xxe_${name}.xlsx`, await zipOf(workbookFiles({ sheets: [{ name: "S", xml: `<?xml version="1.0"?>${decl.replace("d [", "worksheet [")}<worksheet xmlns="${xmlns.sml}"><sheetData>${row1(name === "parameter" ? "x" : "&xxe;")}</sheetData></worksheet>` }] })), "external entity", failed("corrupt"))
  }
  const deep = (open: string, close: string) => deflateRepeated(open, "<x>".repeat(1000), 200, close)
  put("xml/deep_sheet.xlsx", writeZip(rawEntries(workbookFiles({ sheets: [{ name: "S", xml: "" }] }), { "xl/worksheets/sheet1.xml": { deflated: deep(`<worksheet xmlns="${xmlns.sml}"><sheetData>`, "</sheetData></worksheet>") } })), "nesting 200,000 deep", failed("too-large", "corrupt"))
  put("xml/deep_document.docx", writeZip(rawEntries(documentFiles(""), { "word/document.xml": { deflated: deep(`<w:document xmlns:w="${xmlns.w}"><w:body>`, "</w:body></w:document>") } })), "nesting 200,000 deep", failed("too-large", "corrupt"))
  put("xml/deep_slide.pptx", writeZip(rawEntries(slideFiles([""]), { "ppt/slides/slide1.xml": { deflated: deep(`<p:sld xmlns:p="${xmlns.p}"><p:cSld><p:spTree>`, "</p:spTree></p:cSld></p:sld>") } })), "nesting 200,000 deep", failed("too-large", "corrupt"))
  put("xml/deep_shared_strings.xlsx", writeZip(rawEntries(workbookFiles({ sheets: [{ name: "S", xml: worksheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`) }], sharedStrings: "" }), { "xl/sharedStrings.xml": { deflated: deep(`<sst xmlns="${xmlns.sml}"><si><t>`, "</t></si></sst>") } })), "nesting 200,000 deep", failed("too-large", "corrupt"))
  put("xml/unclosed.xlsx", await zipOf(workbookFiles({ sheets: [{ name: "S", xml: `<worksheet xmlns="${xmlns.sml}"><sheetData><row r="1">${cell("閉じない")}` }] })), "unclosed XML", failed("corrupt"))
  put("xml/not_xml.docx", await zipOf({ ...documentFiles(""), "word/document.xml": "\x00\x01\x02 not xml at all" }), "binary instead of XML", failed("corrupt"))

  // --- Huge declared ranges and sizes. -----------------------------------------------------------
  const wide = (text: string, extra: string, after = "") =>
    zipOf(workbookFiles({ sheets: [{ name: "S", xml: `<?xml version="1.0"?><worksheet xmlns="${xmlns.sml}">${extra}<sheetData>${text}</sheetData>${after}</worksheet>` }] }))
  put("range/dimension_whole_sheet.xlsx", await wide(row1("全範囲宣言"), `<dimension ref="A1:XFD1048576"/>`), "dimension A1:XFD1048576", done("全範囲宣言"))
  put("range/merge_whole_sheet.xlsx", await wide(row1("全結合"), "", `<mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells>`), "merged cell over the whole sheet", done("全結合"))
  put("range/cols_all_styled.xlsx", await wide(row1("全列書式"), `<cols><col min="1" max="16384" width="9" style="1" customWidth="1"/></cols>`), "all 16,384 columns styled", done("全列書式"))
  put("range/last_cell.xlsx", await wide(`<row r="1048576" spans="1:16384">${cell("最後のセル", "XFD1048576")}</row>`, ""), "a cell at XFD1048576", done("最後のセル"))
  put("range/huge_counts.xlsx", await zipOf(workbookFiles({ sheets: [{ name: "S", xml: worksheet(`<row r="1"><c r="A1" t="s"><v>0</v></c></row>`) }], sharedStrings: `<sst xmlns="${xmlns.sml}" count="2147483647" uniqueCount="2147483647"><si><t>数を偽る</t></si></sst>` })), "shared-string count 2^31-1", done("数を偽る"))
  put("range/bad_index.xlsx", await zipOf(workbookFiles({ sheets: [{ name: "S", xml: worksheet(`<row r="1">${cell("索引外の隣")}<c r="B1" t="s"><v>99999999</v></c><c r="C1" t="s"><v>-1</v></c></row>`) }], sharedStrings: sharedStrings([]) })), "shared-string index out of range", either("索引外の隣"))
  put("range/bad_refs.xlsx", await wide(`<row r="1">${cell("参照異常", "A0")}${cell("参照異常2", "ZZZZZZZ1")}<c t="inlineStr"><is><t>参照なし</t></is></c></row><row r="-5">${cell("負の行", "A-5")}</row>`, ""), "malformed cell references", either())
  put("range/numbers.xlsx", await wide(`<row r="1"><c r="A1"><v>NaN</v></c><c r="B1"><v>1e309</v></c><c r="C1"><v>-0</v></c><c r="D1"><v>1E+400</v></c>${cell("数の隣", "E1")}</row>`, ""), "NaN, infinities, -0", either("数の隣"))
  put("range/big_cell.xlsx", await wide(row1("巨大セル" + "あ".repeat(3_000_000)), ""), "a 3,000,000-character cell", either("巨大セル"))
  put("range/many_paragraphs.docx", await zipOf(documentFiles(Array.from({ length: 60_000 }, (_, i) => `<w:p><w:r><w:t>段落${i}</w:t></w:r></w:p>`).join(""))), "60,000 paragraphs", done("段落59999"))
  put("range/many_slides.pptx", await zipOf(slideFiles(Array.from({ length: 1000 }, (_, i) => slide(textShape([`スライド${i}`]))))), "1,000 slides", done("スライド999"))

  // --- Text encodings and characters. ------------------------------------------------------------
  const rawSheet = (bytes: Uint8Array) => writeZip(rawEntries(workbookFiles({ sheets: [{ name: "S", xml: "" }] }), { "xl/worksheets/sheet1.xml": { data: bytes } }))
  const sheetXml = (text: string) => `<worksheet xmlns="${xmlns.sml}"><sheetData>${row1(text)}</sheetData></worksheet>`
  put("text/invalid_utf8.xlsx", rawSheet(Buffer.concat([Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${xmlns.sml}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>前`), Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]), Buffer.from("後</t></is></c></row></sheetData></worksheet>")])), "invalid UTF-8 bytes", either("前", "後"))
  put("text/utf16le_bom.xlsx", rawSheet(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<?xml version="1.0" encoding="UTF-16"?>${sheetXml("UTF16の本文")}`, "utf16le")])), "UTF-16LE XML with a BOM", either("UTF16の本文"))
  put("text/utf16be_bom.docx", writeZip(rawEntries(documentFiles(""), { "word/document.xml": { data: Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(`<?xml version="1.0" encoding="UTF-16"?><w:document xmlns:w="${xmlns.w}"><w:body><w:p><w:r><w:t>ビッグエンディアン</w:t></w:r></w:p></w:body></w:document>`, "utf16le").swap16()]) } })), "UTF-16BE XML with a BOM", either("ビッグエンディアン"))
  put("text/utf16_odd_length.xlsx", rawSheet(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(sheetXml("奇数"), "utf16le"), Buffer.from([0x41])])), "UTF-16 with an odd byte count", either("奇数"))
  put("text/lone_surrogate_utf16.xlsx", rawSheet(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<worksheet xmlns="${xmlns.sml}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>孤立`, "utf16le"), Buffer.from([0x00, 0xd8]), Buffer.from(`サロゲート</t></is></c></row></sheetData></worksheet>`, "utf16le")])), "a lone surrogate in UTF-16", either())
  put("text/surrogate_reference.xlsx", await wide(row1("参照&#xD800;&#xDFFF;後"), ""), "surrogate character references", either())
  put("text/control_characters.xlsx", await wide(row1("制御&#x1;&#x1F;文字"), ""), "control-character references (illegal in XML 1.0)", either())
  put("text/shift_jis.xlsx", rawSheet(Buffer.concat([Buffer.from(`<?xml version="1.0" encoding="Shift_JIS"?><worksheet xmlns="${xmlns.sml}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>`), Buffer.from([0x93, 0xfa, 0x96, 0x7b]), Buffer.from("</t></is></c></row></sheetData></worksheet>")])), "Shift_JIS-declared XML", either())
  put("text/tabs_newlines.xlsx", await wide(`<row r="1">${cell("タブ\tと\n改行と\\バックスラッシュ")}</row>`, ""), "tabs, newlines and backslashes in a cell", done("タブ\tと\n改行と\\バックスラッシュ"))
  put("text/bidi_zero_width.docx", await document("見\u200b積\u202e書\ufeff"), "zero-width and bidi controls", done("見\u200b積\u202e書\ufeff"))
  for (const [name, sheet] of [["dotdot", "../../逃げる"], ["slashes", "a/b\\c"], ["con", "CON"], ["emoji", "📊".repeat(31)], ["tab", "タブ\t名"], ["empty", ""]] as const) {
    put(`text/sheet_name_${name}.xlsx`, await workbook(`シート名${name}`, sheet.replace(/&/g, "&amp;")), `hostile sheet name (${name})`, done(`シート名${name}`))
  }

  // --- Names: NFD, emoji, 255 bytes, near PATH_MAX, odd characters, undecodable bytes. -----------
  const nfc = "ガギグゲゴパピプペポ"
  put(`names/${nfc.normalize("NFD")}_NFD.xlsx`, await workbook("NFDの名前"), "NFD name", done("NFDの名前"))
  put(`names/${nfc}_NFD.xlsx`, await workbook("NFCの名前"), "NFC twin of an NFD name", done("NFCの名前"))
  put(`names/${"ポ".normalize("NFD")}ート.docx`, await document("濁点分解"), "NFD name", done("濁点分解"))
  put("names/📊売上😀.xlsx", await workbook("絵文字の名前"), "emoji name", done("絵文字の名前"))
  put("names/👨‍👩‍👧家族🇯🇵.docx", await document("結合絵文字"), "emoji ZWJ sequence and flag in the name", done("結合絵文字"))
  const kana255 = "あ".repeat(83) + "x.xlsx" // 249 + 6 bytes
  put(`names/${kana255}`, await workbook("二五五バイト"), "255-byte name (UTF-8)", done("二五五バイト"))
  put(`names/${"n".repeat(250)}.docx`, await document("ASCII255"), "255-byte name (ASCII)", done("ASCII255"))
  for (const [name, text] of [["改行\nを含む", "名前に改行"], ["タブ\tを含む", "名前にタブ"], ["バック\\スラッシュ", "名前にバックスラッシュ"], [" 前後に空白 ", "名前に空白"], ["#%?*:|<>\"", "名前に記号"], ["点..二つ", "点二つ"], ["CaseTwin", "大文字"], ["casetwin", "小文字"]] as const) {
    put(`names/${name}.xlsx`, await workbook(text), `odd characters in the name (${JSON.stringify(name)})`, done(text))
  }
  put("names/.隠し.xlsx", await workbook("隠し"), "hidden file", { _tag: "skipped", logPattern: /飛ばしました: hostile\/names\/\.隠し\.xlsx — .*（hidden/ })
  put("names/~$所有者.xlsx", await workbook("所有者"), "Office owner file", { _tag: "skipped", logPattern: /飛ばしました: hostile\/names\/~\$所有者\.xlsx — .*（owner-file/ })
  // Near PATH_MAX (4096 bytes with the NUL): one path that fits everywhere, one whose body-index
  // folder (the work folder's path + the relative path) would pass the limit.
  const rootBytes = Buffer.byteLength(path.resolve(root))
  const deepPath = (total: number, name: string) => {
    const segments: Array<string> = []
    let len = 0
    while (len + 251 + Buffer.byteLength(name) < total) {
      segments.push(`${String(segments.length).padStart(2, "0")}${"d".repeat(248)}`)
      len += 251
    }
    return `long/${segments.join("/")}/${"p".repeat(Math.max(1, total - len - Buffer.byteLength(name) - 6))}${name}`
  }
  put(deepPath(3500 - rootBytes, ".xlsx"), await workbook("深いパス"), "path of about 3,500 bytes", done("深いパス"))
  put(deepPath(4085 - rootBytes, ".xlsx"), await workbook("限界のパス"), "absolute path of 4,085 bytes (its body-index path passes PATH_MAX)", either("限界のパス"))
  // Undecodable bytes in names (Linux allows any byte but / and NUL).
  for (const [i, bytes] of [[0, [0xff, 0xfe]], [1, [0xe3, 0x81]]] as const) {
    const name = Buffer.concat([Buffer.from(path.join(root, "names") + "/"), Buffer.from(`bad${i}_`), Buffer.from(bytes), Buffer.from(".xlsx")])
    fs.writeFileSync(name, await workbook(`壊れた名前${i}`))
    out.push({ path: `names/bad${i}_\ufffd.xlsx`, kind: "name with invalid UTF-8 bytes", expect: { _tag: "skipped", logPattern: new RegExp(`飛ばしました: hostile/names/bad${i}_.* — .*（invalid-name: the name is not valid UTF-8`) } })
  }

  // --- Links and special files. ------------------------------------------------------------------
  fs.mkdirSync(path.join(root, "links"), { recursive: true })
  const outsideTarget = path.join(path.dirname(root), "outside.xlsx")
  fs.writeFileSync(outsideTarget, await workbook("外のファイル"))
  fs.symlinkSync(outsideTarget, path.join(root, "links", "to_outside.xlsx"))
  out.push({ path: "links/to_outside.xlsx", kind: "link leaving the target folder", expect: { _tag: "skipped", logPattern: /飛ばしました: hostile\/links\/to_outside\.xlsx — .*（link-outside/ } })
  fs.symlinkSync("/dev/zero", path.join(root, "links", "dev_zero.xlsx"))
  out.push({ path: "links/dev_zero.xlsx", kind: "link to /dev/zero", expect: { _tag: "skipped", logPattern: /飛ばしました: hostile\/links\/dev_zero\.xlsx — .*（link-outside/ } })
  fs.symlinkSync("nowhere.xlsx", path.join(root, "links", "dangling.xlsx"))
  out.push({ path: "links/dangling.xlsx", kind: "dangling link", expect: { _tag: "skipped", logPattern: /飛ばしました: hostile\/links\/dangling\.xlsx — .*（unreadable/ } })
  fs.symlinkSync(".", path.join(root, "links", "loop"))
  out.push({ path: "links/loop", kind: "link loop", expect: { _tag: "skipped", logPattern: /飛ばしました: hostile\/links\/loop — .*（loop/ } })
  put("links/real.xlsx", await workbook("本物"), "file reached also through a hard link", done("本物"))
  fs.linkSync(path.join(root, "links", "real.xlsx"), path.join(root, "links", "hard_link.xlsx"))
  out.push({ path: "links/hard_link.xlsx", kind: "hard link", expect: done("本物") })
  execFileSync("mkfifo", [path.join(root, "links", "fifo.xlsx")])
  out.push({ path: "links/fifo.xlsx", kind: "FIFO", expect: { _tag: "skipped", logPattern: /飛ばしました: hostile\/links\/fifo\.xlsx — .*（not-a-file/ } })
  fs.mkdirSync(path.join(root, "links", "folder.xlsx"))
  put("links/folder.xlsx/inside.docx", await document("拡張子付きフォルダ"), "file inside a folder named like a workbook", done("拡張子付きフォルダ"))
  // A sparse 2 GB file: a cloud placeholder by the POSIX rule (no blocks), never read.
  const sparse = path.join(root, "links", "sparse_2GB.xlsx")
  const fd = fs.openSync(sparse, "w")
  fs.ftruncateSync(fd, 2 * 1024 ** 3)
  fs.closeSync(fd)
  out.push({ path: "links/sparse_2GB.xlsx", kind: "sparse 2 GB file (cloud-only placeholder)", expect: { _tag: "skipped", logPattern: /クラウドのみ: hostile\/links\/sparse_2GB\.xlsx/ } })

  return out
}
