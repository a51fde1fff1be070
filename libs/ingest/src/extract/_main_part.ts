/**
 * What a zip package holds: its main part and whether that is a workbook, a
 * document or a presentation, decided by content (the main part's root
 * element), not by the file's extension (trait `extension-mismatch`).
 *
 * @module
 */
import { Effect } from "effect"
import { fileFormatOf, type AppKind } from "@sagasu/domain"
import { ExtractError } from "./extract_error.ts"
import { openDocumentKindOf } from "./_open_document.ts"
import type { OpcPackage } from "./_opc.ts"
import { ns } from "./_xml.ts"

/** The main part of a package and the kind of document its root element declares. */
export interface MainPart {
  readonly part: string
  readonly kind: AppKind
  /**
   * `binary` for a workbook of BIFF12 records (xlsb), `opendocument` for an
   * OpenDocument package (ods, odt, odp: `part` is `content.xml`, read by
   * `_open_document.ts`), `xml` otherwise.
   */
  readonly encoding: "xml" | "binary" | "opendocument"
}

/** Where a package without `_rels/.rels` customarily keeps its main part, per application. */
const customaryMainParts: ReadonlyArray<readonly [AppKind, string]> = [
  ["spreadsheet", "xl/workbook.xml"],
  ["document", "word/document.xml"],
  ["presentation", "ppt/presentation.xml"]
]

const fail = (reason: ExtractError["reason"], detail: string) => Effect.fail(new ExtractError({ reason, detail }))

/**
 * The main part is the target of the package's `officeDocument`
 * relationship. A package without relationships falls back to the customary
 * part names (the extension's application first). A binary main part
 * (`xl/workbook.bin`) is an xlsb workbook. An OpenDocument spreadsheet, text
 * or presentation is one by its `mimetype` entry, any other OpenDocument
 * kind `needs-office`; a zip that is no Office package is `not-office`.
 */
export const findMainPart = Effect.fn("Extract.findMainPart")(function* (pkg: OpcPackage, fileName: string) {
  const office = (yield* pkg.relationships("")).find((r) => r.type === "officeDocument" && !r.external)
  let part: string
  if (office !== undefined) {
    if (!pkg.has(office.target)) return yield* fail("corrupt", `main part ${office.target} named in _rels/.rels is missing`)
    part = office.target
  } else {
    if (pkg.has("mimetype")) {
      const mimetype = new TextDecoder().decode(yield* pkg.bytes("mimetype"))
      if (mimetype.startsWith("application/vnd.oasis.opendocument")) {
        // W3: a spreadsheet, text or presentation is read without Office; any other kind goes to it.
        const kind = openDocumentKindOf(mimetype)
        if (kind === undefined) return yield* Effect.fail(new ExtractError({ reason: "needs-office", detail: `OpenDocument file (${mimetype.trim()})`, openDocument: true }))
        return { part: "content.xml", kind, encoding: "opendocument" } satisfies MainPart
      }
    }
    const claimed = fileFormatOf(fileName)?.app
    const candidates = [...customaryMainParts].sort(([a], [b]) => Number(b === claimed) - Number(a === claimed))
    const found = candidates.find(([, name]) => pkg.has(name))
    if (found === undefined) {
      // Parts in an Office application's folder (xl/, word/, ppt/) make a damaged package, not some other zip (missing-bits.xlsx).
      return yield* pkg.has("[Content_Types].xml") || pkg.has("_rels/.rels") || pkg.hasFolder(["xl", "word", "ppt"])
        ? fail("corrupt", "an Office package without its main part (no workbook, document or presentation part)")
        : fail("not-office", "a zip archive that is not an Office package")
    }
    part = found[1]
  }
  if (/\.bin$/i.test(part)) return { part, kind: "spreadsheet", encoding: "binary" } satisfies MainPart

  const root = yield* pkg.rootElement(part)
  const kind: AppKind | undefined =
    root.local === "workbook" && ns.spreadsheet.has(root.uri)
      ? "spreadsheet"
      : root.local === "document" && ns.word.has(root.uri)
        ? "document"
        : root.local === "presentation" && ns.presentation.has(root.uri)
          ? "presentation"
          : undefined
  if (kind === undefined) {
    return yield* fail("not-office", `main part ${part} is <${root.name}> in ${root.uri || "no namespace"}, not a workbook, document or presentation`)
  }
  return { part, kind, encoding: "xml" } satisfies MainPart
})
