import { describe, expect, it } from "vitest"
import { checkRequest, makeToken } from "./guard.ts"

// ARCHITECTURE.md "GUI server": Host, then Origin, then the token.
describe("checkRequest()", () => {
  const token = "tok"
  const facts = { host: "127.0.0.1:8080", origin: undefined, token: "tok", api: true }
  it.each([
    ["the page's own request", facts, undefined],
    ["localhost with the port", { ...facts, host: "localhost:8080" }, undefined],
    ["Host in capitals", { ...facts, host: "LOCALHOST:8080" }, undefined],
    ["the same origin", { ...facts, origin: "http://127.0.0.1:8080" }, undefined],
    ["no Host", { ...facts, host: undefined }, "host"],
    ["two Host lines, the right one first (issue 15)", { ...facts, hostLines: 2 }, "duplicate-host"],
    ["one Host line said so", { ...facts, hostLines: 1 }, undefined],
    ["a rebinding name", { ...facts, host: "attacker.example:8080" }, "host"],
    ["another port", { ...facts, host: "127.0.0.1:8081" }, "host"],
    ["a foreign origin", { ...facts, origin: "http://attacker.example" }, "origin"],
    ["an opaque origin", { ...facts, origin: "null" }, "origin"],
    ["https on the same port", { ...facts, origin: "https://127.0.0.1:8080" }, "origin"],
    ["no token", { ...facts, token: undefined }, "token"],
    ["a wrong token", { ...facts, token: "tok2" }, "token"],
    ["the page without a token", { ...facts, token: undefined, api: false }, undefined],
    ["the page on a rebinding name", { ...facts, host: "attacker.example:8080", api: false }, "host"]
  ] as const)("%s", (_, f, expected) => {
    expect(checkRequest(f, 8080, token)).toBe(expected)
  })

  it("makes a different 128-bit token each time", () => {
    const a = makeToken()
    expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(makeToken()).not.toBe(a)
  })
})
