import { describe, expect, it } from "vitest"
import { decodePostings, encodePostings, maxPostingsBytes, postingStreamStart, varintLength, writeVarint } from "./format.ts"

describe("posting encoding (varint deltas)", () => {
  it.each([
    [[]],
    [[0]],
    [[5, 6, 7, 200, 20000, 2_000_000, 300_000_000, 4_294_967_295]],
    [Array.from({ length: 128 }, (_, i) => i * 3)],
    [Array.from({ length: 129 }, (_, i) => i * 3)],
    [Array.from({ length: 1000 }, (_, i) => i * i)]
  ])("round-trips %j", (ids) => {
    const tags = ids.map((_, i) => i % 256)
    const bytes = encodePostings(ids, tags)
    expect(bytes.length).toBeLessThanOrEqual(maxPostingsBytes(ids.length))
    expect(decodePostings(bytes, ids.length)).toEqual({ ids, tags })
  })

  it("a long list starts with a skip table: last id and byte length of each full block but the last", () => {
    const ids = Array.from({ length: 300 }, (_, i) => i)
    const bytes = encodePostings(ids)
    // 2 blocks to skip (ids 0–127, 128–255), each 128 × (one-byte delta + tag) = 256 bytes = varint 0x80 0x02.
    expect([...bytes.slice(0, 8)]).toEqual([2, 127, 0x80, 2, 0x80, 1, 0x80, 2])
    expect(postingStreamStart(bytes, 0, ids.length)).toBe(8)
    expect(postingStreamStart(bytes, 0, 128)).toBe(0)
  })

  it.each([[0, 1], [127, 1], [128, 2], [16383, 2], [16384, 3], [2 ** 28, 5], [2 ** 32 - 1, 5]])(
    "varint of %i takes %i bytes",
    (value, length) => {
      const out = new Uint8Array(5)
      expect(writeVarint(out, 0, value)).toBe(length)
      expect(varintLength(value)).toBe(length)
    }
  )
})
