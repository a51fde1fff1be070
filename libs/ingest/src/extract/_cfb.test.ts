import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { cfbDamageOf, openCompoundFile } from "./_cfb.ts"
import { corpusFile } from "../_test_corpus.ts"
import { writeCfb } from "./_test_containers.ts"
import { ExtractError } from "./extract_error.ts"

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff)

/** The error `f` throws, or a failure of the test when it throws none. */
function thrown(f: () => unknown): ExtractError {
  try {
    f()
  } catch (e) {
    if (e instanceof ExtractError) return e
    throw e
  }
  throw new Error("nothing thrown")
}

describe("openCompoundFile()", () => {
  it("reads each stream by its path, case-insensitively, and undefined for an absent one", () => {
    const workbook = bytes(9000, 1)
    const other = bytes(5000, 2)
    const file = openCompoundFile(writeCfb([["Workbook", workbook], ["Other", other]]))
    expect(file.entries.map((e) => [e.path, e.type])).toEqual([["Workbook", "stream"], ["Other", "stream"]])
    // writeCfb pads a stream to whole sectors: the stream is what was written, then zeros.
    expect(file.readStream("WORKBOOK")?.subarray(0, 9000)).toEqual(workbook)
    expect(file.readStream("other")?.subarray(0, 5000)).toEqual(other)
    expect(file.readStream("Book")).toBeUndefined()
    expect(file.streamSource("workbook")?.read(4000, 4010)).toEqual(workbook.subarray(4000, 4010))
  })

  it("reads from disk by positioned reads: a 1 GiB sparse file opens and its stream is read", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sagasu-cfb-"))
    try {
      const file = path.join(dir, "sparse.xls")
      const body = bytes(4096, 3)
      fs.writeFileSync(file, writeCfb([["Workbook", body]]))
      fs.truncateSync(file, 1024 ** 3)
      const before = process.memoryUsage().rss
      const cfb = openCompoundFile(file)
      expect(cfb.readStream("Workbook")).toEqual(body)
      cfb.close()
      // Reading the whole file would take 1 GiB more.
      expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 ** 2)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it("fails too-large for a stream past maxStreamBytes, before reading it", () => {
    const file = openCompoundFile(writeCfb([["Workbook", bytes(8192, 4)]]), { maxStreamBytes: 8191 })
    expect(thrown(() => file.readStream("Workbook")).reason).toBe("too-large")
  })

  it("fails corrupt (broken) for a sector chain that loops (oleloop.xls)", () => {
    const error = thrown(() => {
      const file = openCompoundFile(corpusFile("phpspreadsheet/oleloop.xls"))
      for (const entry of file.entries) file.readStream(entry.path)
    })
    expect([error.reason, cfbDamageOf(error)]).toEqual(["corrupt", "broken"])
  })

  it("fails corrupt (truncated) for a stream whose sectors are past the end of a file cut short", () => {
    const whole = writeCfb([["Workbook", bytes(8192, 5)]])
    const file = openCompoundFile(whole.subarray(0, whole.length - 4096))
    const error = thrown(() => file.readStream("Workbook"))
    expect([error.reason, cfbDamageOf(error)]).toEqual(["corrupt", "truncated"])
  })

  it("fails corrupt (truncated) for a file shorter than its header", () => {
    const error = thrown(() => openCompoundFile(writeCfb([]).subarray(0, 300)))
    expect([error.reason, cfbDamageOf(error)]).toEqual(["corrupt", "truncated"])
  })

  it("lists storages and the streams in them by path (the mini stream of small streams included)", () => {
    const file = openCompoundFile(corpusFile("poi/clusterfuzz-testcase-minimized-POIHSSFFuzzer-5816431116615680.xls"))
    const paths = file.entries.map((e) => e.path)
    expect(paths).toContain("MBD0435D8BE/Workbook")
    expect(file.entries.find((e) => e.path === "MBD0435D8BE")?.type).toBe("storage")
    // \u0001CompObj is 106 bytes, in the mini stream; it begins with its byte-order mark 0xFFFE.
    const compObj = file.readStream("mbd0435d8be/\u0001compobj")
    expect(compObj?.length).toBe(106)
    expect([compObj?.[2], compObj?.[3]]).toEqual([0xfe, 0xff])
  })
})
