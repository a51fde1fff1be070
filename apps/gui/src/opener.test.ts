import { describe, expect, it } from "vitest"
import { openerCommand } from "./opener.ts"

describe("openerCommand()", () => {
  const url = "http://127.0.0.1:1234/?token=abc"
  it("uses the platform's opener", () => {
    expect(openerCommand(url, "darwin", {})).toEqual({ command: "open", args: [url] })
    expect(openerCommand(url, "win32", {})).toEqual({ command: "rundll32", args: ["url.dll,FileProtocolHandler", url] })
  })
  it("does not try on Linux without a desktop session", () => {
    expect(openerCommand(url, "linux", { PATH: "/usr/bin:/bin" })).toBeUndefined()
  })
  it("does not try when xdg-open is missing", () => {
    expect(openerCommand(url, "linux", { DISPLAY: ":0", PATH: "/nonexistent" })).toBeUndefined()
  })
})
