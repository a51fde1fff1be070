/**
 * `@sagasu/gui`: the seed's screen as a local web page (SPEC §6, issue 7).
 * `sagasu gui` starts an HTTP server on 127.0.0.1 in the same process as the
 * indexing runs it starts (through the channel), prints the page's address
 * with a per-start token, and opens it in the desktop's browser.
 *
 * @example
 * ```ts
 * import { guiCommand } from "@sagasu/gui"
 * yield* guiCommand("/home/me/.local/share/sagasu", { port: Option.none(), open: true })
 * ```
 *
 * @module
 */
export * from "./api.ts"
export * from "./gui_command.ts"
export * from "./guard.ts"
export * from "./opener.ts"
export * from "./server.ts"
