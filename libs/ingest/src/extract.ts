/**
 * Text extraction of one Office file without Office (SPEC W2): workbooks,
 * documents and presentations in OOXML form become an {@link Extraction} —
 * one body part per sheet, or one for a document or a presentation. Anything
 * else fails with an {@link ExtractError} whose reason says why: legacy and
 * OpenDocument formats go to the Office owner (`needs-office`, W3),
 * password-protected files are `encrypted`, and so on.
 *
 * The format is found from the bytes, never from the name (BUG-14).
 *
 * @module
 */
import { basename } from "node:path"
import { Effect } from "effect"
import type { Extraction } from "@sagasu/domain"
import { extractDocument } from "./extract/_document.ts"
import { defaultLimits, LineBudget, type ExtractLimits } from "./extract/_limits.ts"
import { findMainPart } from "./extract/_main_part.ts"
import { readSnapshot } from "./extract/_read_file.ts"
import { inspectOle2 } from "./extract/_ole2.ts"
import { OpcPackage } from "./extract/_opc.ts"
import { extractPresentation } from "./extract/_presentation.ts"
import { sniffContainer } from "./extract/_sniff.ts"
import { extractWorkbook } from "./extract/_workbook.ts"
import { ZipArchive } from "./extract/_zip.ts"
import { ExtractError } from "./extract/extract_error.ts"

export { ExtractError } from "./extract/extract_error.ts"

/**
 * Limits of one extraction; a file that reaches one fails with `too-large`
 * (BUG-10, BUG-26). Every field is optional.
 */
export interface ExtractFileOptions {
  /**
   * Most bytes inflated from the zip for this file, over all parts read,
   * checked against each part's declared size before inflating and counted
   * again while inflating. Parts stream, so this bounds time, not memory.
   * Default 4 GiB.
   */
  readonly maxInflatedBytes?: number
  /** Highest declared compression ratio (inflated ÷ compressed) of a part of 1 MiB or more. Default 1000. */
  readonly maxCompressionRatio?: number
  /** Most lines (cells, paragraphs) of text for this file. Default 5,000,000. */
  readonly maxLines?: number
  /**
   * Most characters of text held for this file: the shared-string table plus
   * every line. This is what bounds memory (a 200 MB sharedStrings part is
   * streamed; only its text is kept). Default 128 Mi characters.
   */
  readonly maxTextChars?: number
  /** Deepest XML element nesting in a part. Default 1000. */
  readonly maxXmlDepth?: number
  /** Largest file {@link extractFile} reads (it is read whole). Default 1 GiB. */
  readonly maxFileBytes?: number
}

const limitsOf = (options: ExtractFileOptions | undefined): ExtractLimits => ({
  maxInflatedBytes: options?.maxInflatedBytes ?? defaultLimits.maxInflatedBytes,
  maxRatio: options?.maxCompressionRatio ?? defaultLimits.maxRatio,
  maxLines: options?.maxLines ?? defaultLimits.maxLines,
  maxTextChars: options?.maxTextChars ?? defaultLimits.maxTextChars,
  maxXmlDepth: options?.maxXmlDepth ?? defaultLimits.maxXmlDepth,
  maxFileBytes: options?.maxFileBytes ?? defaultLimits.maxFileBytes
})

const fail = (reason: ExtractError["reason"], detail: string) => Effect.fail(new ExtractError({ reason, detail }))

const extractPackage = Effect.fn("Extract.package")(function* (bytes: Uint8Array, fileName: string, limits: ExtractLimits) {
  const zip = yield* Effect.try({
    try: () => new ZipArchive(bytes, { maxInflatedBytes: limits.maxInflatedBytes, maxRatio: limits.maxRatio }),
    catch: (e) => (e instanceof ExtractError ? e : new ExtractError({ reason: "corrupt", detail: String(e) }))
  })
  const pkg = new OpcPackage(zip, { maxXmlDepth: limits.maxXmlDepth })
  const main = yield* findMainPart(pkg, fileName)
  const budget = new LineBudget(limits.maxLines, limits.maxTextChars)
  switch (main.kind) {
    case "spreadsheet":
      return yield* extractWorkbook(pkg, main.part, budget)
    case "document":
      return yield* extractDocument(pkg, main.part, budget)
    case "presentation":
      return yield* extractPresentation(pkg, main.part, budget)
  }
})

/**
 * Extracts the text of a file already in memory. `fileName` only breaks ties
 * for a package without relationships; the content decides everything else.
 * Fails with {@link ExtractError}: `empty-file`, `encrypted`, `needs-office`,
 * `not-office`, `corrupt`, `too-large`. Never dies: an unexpected exception
 * becomes `corrupt` with its message.
 */
export const extractBuffer: (
  bytes: Uint8Array,
  fileName: string,
  options?: ExtractFileOptions
) => Effect.Effect<Extraction, ExtractError> = Effect.fn("Extract.extractBuffer")(
  function* (bytes: Uint8Array, fileName: string, options?: ExtractFileOptions) {
    const container = sniffContainer(bytes)
    switch (container._tag) {
      case "empty":
        return yield* fail("empty-file", "zero bytes")
      case "ole2": {
        const verdict = inspectOle2(bytes)
        return yield* fail(verdict._tag === "legacy" ? "needs-office" : verdict._tag, verdict.detail)
      }
      case "legacy":
        return yield* fail("needs-office", container.detail)
      case "other":
        return yield* fail("not-office", container.detail)
      case "zip":
        return yield* extractPackage(bytes, fileName, limitsOf(options))
    }
  },
  Effect.catchAllDefect((defect) =>
    fail("corrupt", `unexpected failure: ${defect instanceof Error ? defect.message : String(defect)}`)
  )
)

/**
 * Reads the file at `path` and extracts its text: `{parts}` with one part
 * per sheet (`locator: "cell"`, lines `{loc: "A1", text}`), or one part
 * `document` (`"paragraph"`: `"12"`, `"header"`, `"footnote:3"`, …) or
 * `slides` (`"slide"`: `"3"`, `"3 notes"`). Fails with {@link ExtractError};
 * `unreadable` when the file cannot be read or changes while it is read,
 * `too-large` over `maxFileBytes`.
 */
export const extractFile: (path: string, options?: ExtractFileOptions) => Effect.Effect<Extraction, ExtractError> =
  Effect.fn("Extract.extractFile")(function* (path: string, options?: ExtractFileOptions) {
    const bytes = yield* Effect.tryPromise({
      try: () => readSnapshot(path, options?.maxFileBytes ?? defaultLimits.maxFileBytes),
      catch: (e) =>
        e instanceof ExtractError ? e : new ExtractError({ reason: "unreadable", detail: e instanceof Error ? e.message : String(e) })
    })
    return yield* extractBuffer(bytes, basename(path), options)
  })
