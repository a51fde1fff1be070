import { describe, expect, it } from "vitest"
import { OFFS_PAGE_LINES, decodeOffsetsPage, decodePostings, encodeOffsets, encodePostings, isPagedOffsets, maxPostingsBytes, postingStreamStart, varintLength, writeVarint } from "./format.ts"

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

describe("row offsets (.offs), paged (issue 20: disk)", () => {
  const concat = (parts: ReadonlyArray<Uint8Array>) => Buffer.concat(parts.map((p) => Buffer.from(p)))
  const pageOf = (bytes: Buffer, lines: number, page: number) => {
    const pages = bytes.readUInt32LE(bytes.length - 4)
    expect(bytes.readUInt32LE(bytes.length - 8)).toBe(lines)
    const table = bytes.length - 8 - 8 * (pages + 1)
    const from = bytes.readDoubleLE(table + 8 * page)
    const to = bytes.readDoubleLE(table + 8 * page + 8)
    return decodeOffsetsPage(bytes.subarray(from, to), Math.min(OFFS_PAGE_LINES, lines - page * OFFS_PAGE_LINES))
  }

  it.each([
    ["no line", []],
    ["one line", [120]],
    // Rows of one TSV, then a new TSV (lower), the largest offsets, a jump of the whole range both ways.
    ["rows of two TSVs and extremes", [97, 140, 201, 5000, 61, 99, 4_294_967_295, 0, 4_294_967_295, 1]],
    // A new TSV every 500 lines (its rows start again at 64), across page ends.
    ["three pages and a bit", Array.from({ length: 3 * 1024 + 7 }, (_, i) => 64 + (i % 500) * 57)]
  ])("round-trips %s page by page", (_, offsets) => {
    const bytes = concat(encodeOffsets(offsets))
    expect(isPagedOffsets(bytes)).toBe(true)
    const pages = Math.ceil(offsets.length / OFFS_PAGE_LINES)
    expect(bytes.readUInt32LE(bytes.length - 4)).toBe(pages)
    const back: Array<number> = []
    for (let p = 0; p < pages; p++) back.push(...pageOf(bytes, offsets.length, p))
    expect(back).toEqual(offsets)
  })

  it("takes a byte or two a line for rows of ordinary length, not four", () => {
    // 100,000 rows of 30–300 bytes in TSVs of 5,000 rows each.
    const offsets: Array<number> = []
    let at = 0
    for (let i = 0; i < 100_000; i++) {
      if (i % 5000 === 0) at = 64
      offsets.push(at)
      at += 30 + ((i * 7919) % 271)
    }
    const size = concat(encodeOffsets(offsets)).length
    expect(size).toBeLessThan(offsets.length * 2)
    expect(size).toBeGreaterThan(offsets.length)
  })

  it("tells the paged layout from a u32 a line", () => {
    expect(isPagedOffsets(new Uint8Array(new Uint32Array([64, 130]).buffer))).toBe(false)
    expect(isPagedOffsets(new Uint8Array(0))).toBe(false)
  })
})
