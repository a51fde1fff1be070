/**
 * The page itself: `page/index.html`, `page/page.css` and `page/app.ts`
 * bundled for the browser with esbuild when the server starts (about 50 ms),
 * kept in memory. A packed install (tools/src/package_build.ts) has no
 * esbuild and no sources: its `page/` holds the script as built at pack
 * time, `app.js`, which is read instead. The server serves exactly these three, by fixed name: no
 * request path ever reaches the file system.
 *
 * @module
 */
import { Data, Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/** The page's files, ready to serve. */
export interface PageAssets {
  readonly html: string
  readonly css: string
  readonly js: string
}

/** The name, in `page/`, of the page's script built at pack time (absent in a clone). */
export const packedPageScript = "app.js"

/** The page could not be built (a broken install). */
export class PageBuildError extends Data.TaggedError("PageBuildError")<{ readonly message: string }> {}

/** Reads the page's HTML and CSS and bundles its script. */
export const buildPageAssets: Effect.Effect<PageAssets, PageBuildError> = Effect.tryPromise({
  try: async () => {
    const dir = fileURLToPath(new URL("./page/", import.meta.url))
    const html = fs.readFileSync(path.join(dir, "index.html"), "utf8")
    const css = fs.readFileSync(path.join(dir, "page.css"), "utf8")
    const packed = path.join(dir, packedPageScript)
    if (fs.existsSync(packed)) return { html, css, js: fs.readFileSync(packed, "utf8") }
    // Imported only here: esbuild is a build tool, not part of a packed install.
    const esbuild = await import("esbuild")
    const result = await esbuild.build({
      entryPoints: [path.join(dir, "app.ts")],
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      target: "es2022",
      charset: "utf8",
      legalComments: "none",
      logLevel: "silent"
    })
    return { html, css, js: result.outputFiles[0]?.text ?? "" }
  },
  catch: (e) => new PageBuildError({ message: `The GUI page could not be built: ${e instanceof Error ? e.message : String(e)}` })
})
