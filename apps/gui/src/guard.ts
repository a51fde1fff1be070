/**
 * Who may drive the GUI server (ARCHITECTURE.md, mechanisms table "GUI
 * server"; SPEC §6): only the local user's own page. The server binds
 * 127.0.0.1; every request must name that address (or `localhost`) and the
 * server's port in `Host` (a DNS-rebinding page names its own host there); a
 * request that carries an `Origin` must come from the same address (CSRF);
 * every `/api/` request must carry the per-start token in `X-Sagasu-Token`.
 *
 * @module
 */
import { randomBytes, timingSafeEqual } from "node:crypto"

/**
 * Why a request was refused; `undefined` from {@link checkRequest} means it may pass.
 * `duplicate-host` is a malformed request (400, RFC 9112 §3.2): a proxy or a
 * page could put the right Host first and another after it.
 */
export type Refusal = "duplicate-host" | "host" | "origin" | "token"

/** What {@link checkRequest} looks at: lower-case header names, as Node gives them. */
export interface RequestFacts {
  readonly host: string | undefined
  /** How many `Host` header lines the request has (Node keeps only the first in `host`); default 1. */
  readonly hostLines?: number
  readonly origin: string | undefined
  readonly token: string | undefined
  /** The request targets `/api/…` (the page and its script need no token: they hold no data). */
  readonly api: boolean
}

/** A fresh random token (128 bits, URL-safe): one per server start. */
export function makeToken(): string {
  return randomBytes(16).toString("base64url")
}

/** The `Host` values the server answers to: the loopback address and `localhost`, with its port. */
export function allowedHosts(port: number): ReadonlyArray<string> {
  return [`127.0.0.1:${port}`, `localhost:${port}`]
}

/**
 * Checks one request against the server's `port` and `token`. The Host check
 * comes first so that a rebinding page learns nothing, not even whether its
 * token was right.
 */
export function checkRequest(facts: RequestFacts, port: number, token: string): Refusal | undefined {
  const hosts = allowedHosts(port)
  if ((facts.hostLines ?? 1) > 1) return "duplicate-host"
  if (facts.host === undefined || !hosts.includes(facts.host.toLowerCase())) return "host"
  if (facts.origin !== undefined && !hosts.some((h) => facts.origin!.toLowerCase() === `http://${h}`)) return "origin"
  if (facts.api && !sameToken(facts.token, token)) return "token"
  return undefined
}

// Constant-time comparison, so the token cannot be guessed byte by byte from timings.
function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false
  const a = Buffer.from(given)
  const b = Buffer.from(token)
  return a.length === b.length && timingSafeEqual(a, b)
}
