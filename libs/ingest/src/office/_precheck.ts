/**
 * What to do with a file before LibreOffice sees it: the plain extractor's
 * verdict on the bytes decides. LibreOffice exits 0 and writes nothing for a
 * password-protected file (BUG-27), so encryption is found here, from the
 * bytes, and fails at once without starting Office.
 *
 * @module
 */
import { Effect } from "effect"
import JSZip from "jszip"
import type { Extraction } from "@sagasu/domain"
import { ExtractError, extractBuffer, type ExtractFileOptions } from "../extract.ts"

/** The verdict on a source file. */
export type Precheck =
  /** The plain extractor read it (a file rerouted for a reason that no longer holds): no Office needed. */
  | { readonly _tag: "plain"; readonly extraction: Extraction }
  /** A failure Office cannot change: encrypted, empty, unreadable, too large, binary non-Office content. */
  | { readonly _tag: "fail"; readonly error: ExtractError }
  /**
   * Office may read it. `verdict` is the plain extractor's reason, kept for the
   * case where LibreOffice cannot read it either: a file that was `not-office`
   * or `corrupt` for the plain reader stays so when Office fails too.
   */
  | { readonly _tag: "convert"; readonly verdict: "needs-office" | "not-office" | "corrupt"; readonly detail: string }

/** Text-like content (no NUL byte near the top): HTML or CSV saved as .xls, SYLK, RTF — LibreOffice reads these. */
function looksLikeText(bytes: Uint8Array): boolean {
  return !bytes.subarray(0, 4096).includes(0)
}

/**
 * A password-protected OpenDocument file is a zip whose manifest carries
 * `manifest:encryption-data`; the plain extractor only says it is one
 * (`ExtractError.openDocument`), and LibreOffice would silently write nothing.
 */
const odfIsEncrypted = (bytes: Uint8Array): Effect.Effect<boolean> =>
  Effect.tryPromise(async () => {
    const zip = await JSZip.loadAsync(bytes)
    const manifest = zip.file("META-INF/manifest.xml")
    if (manifest === null) return false
    return /encryption-data/.test(await manifest.async("string"))
  }).pipe(Effect.orElseSucceed(() => false))

/** Decides, from the bytes of `fileName`, whether Office is needed, useless, or unnecessary. */
export const precheck = (bytes: Uint8Array, fileName: string, options?: ExtractFileOptions): Effect.Effect<Precheck> =>
  extractBuffer(bytes, fileName, options).pipe(
    Effect.map((extraction): Precheck => ({ _tag: "plain", extraction })),
    Effect.catchAll((error) =>
      Effect.gen(function* () {
        switch (error.reason) {
          case "needs-office":
            if (error.openDocument === true && (yield* odfIsEncrypted(bytes))) {
              const encrypted = new ExtractError({ reason: "encrypted", detail: "OpenDocument file with encryption data in its manifest" })
              return { _tag: "fail", error: encrypted } satisfies Precheck
            }
            return { _tag: "convert", verdict: "needs-office", detail: error.detail } satisfies Precheck
          case "corrupt":
            return { _tag: "convert", verdict: "corrupt", detail: error.detail } satisfies Precheck
          case "not-office":
            return looksLikeText(bytes)
              ? ({ _tag: "convert", verdict: "not-office", detail: error.detail } satisfies Precheck)
              : ({ _tag: "fail", error } satisfies Precheck)
          default:
            return { _tag: "fail", error } satisfies Precheck
        }
      })
    )
  )
