/**
 * The shared string table of a workbook (`sharedStrings.xml`): cells of type
 * `s` hold an index into it.
 *
 * @module
 */
import { Effect } from "effect"
import type { SharedStrings } from "./_cell_text.ts"
import type { LineBudget } from "./_limits.ts"
import type { OpcPackage } from "./_opc.ts"
import { decodeXString, RichStringReader } from "./_rich_string.ts"
import { ElementScanner, fallback, PartScan, type ScanContext, type ScanOutcome } from "./_scan_xml.ts"
import { corruptPart, isElement, ns, XmlStream, type XmlTag, type XmlVisitor } from "./_xml.ts"
import type { ExtractError } from "./extract_error.ts"

/** Characters per block of a {@link StringPool}. */
const blockChars = 1 << 16

/** Strings packed into blocks of about 64 Ki characters, each found by its start offset (4 bytes a string). */
class StringPool {
  /** Every string is Latin-1: its blocks are made one byte a character. */
  private readonly latin1: boolean
  private readonly blocks: Array<string> = []
  /** The ordinal of the first string of each block. */
  private readonly firsts: Array<number> = []
  /** Each string's start within its block. */
  private starts = new Uint32Array(1024)
  private count = 0
  /** Strings before this ordinal are in blocks; the rest wait in {@link pending}. */
  private packed = 0
  private pending: Array<string> = []
  private pendingChars = 0

  constructor(latin1: boolean) {
    this.latin1 = latin1
  }

  push(text: string): void {
    if (this.count === this.starts.length) this.starts = grown(this.starts)
    this.starts[this.count++] = this.pendingChars
    this.pending.push(text)
    this.pendingChars += text.length
    if (this.pendingChars >= blockChars) this.pack()
  }

  /** Packs the strings still pending into a block: one flat copy, after which the slices and their chunks can go. */
  pack(): void {
    if (this.pending.length === 0) return
    const block = this.pending.join("")
    // A slice of a two-byte chunk stays two-byte whatever it holds, and so does their join: re-encode.
    this.blocks.push(this.latin1 ? Buffer.from(block, "latin1").toString("latin1") : block)
    this.firsts.push(this.packed)
    this.packed = this.count
    this.pending = []
    this.pendingChars = 0
  }

  /** The string of ordinal `n`, which must be below the count. */
  get(n: number): string {
    if (n >= this.packed) return this.pending[n - this.packed] ?? ""
    let lo = 0
    let hi = this.firsts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if ((this.firsts[mid] ?? 0) <= n) lo = mid
      else hi = mid - 1
    }
    const block = this.blocks[lo] ?? ""
    const next = this.firsts[lo + 1] ?? this.packed
    return block.slice(this.starts[n] ?? 0, n + 1 < next ? (this.starts[n + 1] ?? 0) : block.length)
  }
}

const grown = (a: Uint32Array<ArrayBuffer>): Uint32Array<ArrayBuffer> => {
  const b = new Uint32Array(a.length * 2)
  b.set(a)
  return b
}

/** Set bits of a 32-bit word. */
const bitCount = (w: number): number => {
  w -= (w >>> 1) & 0x55555555
  w = (w & 0x33333333) + ((w >>> 2) & 0x33333333)
  return (((w + (w >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24
}

/** Any character beyond Latin-1 (the string then takes 2 bytes a character). */
const wide = /[^\u0000-\u00ff]/

/**
 * The shared-string table, packed. Why: the parser hands out text as slices
 * of the chunk it is reading, and a slice kept alive keeps its whole chunk
 * alive — the 1.7 million strings of the 93 MB benchmark workbook (26
 * million characters) held that way cost 187 MB of heap; copied one by one,
 * about 90 MB. Here the strings are packed into blocks with a 4-byte offset
 * each, Latin-1 strings (codes, numbers kept as text) apart from the others
 * so that their blocks take 1 byte a character: 44 MB (issue 9). A bit per
 * string, with a running count every 32 strings, says in which pool it is.
 */
export class SharedStringTable implements SharedStrings {
  private readonly narrow = new StringPool(true)
  private readonly broad = new StringPool(false)
  /** Bit `i` set: string `i` is in {@link broad}. */
  private inBroad = new Uint32Array(64)
  /** Strings in {@link broad} before each word of {@link inBroad}. */
  private broadBefore = new Uint32Array(64)
  private broadCount = 0
  private count = 0

  /** Number of strings. */
  get length(): number {
    return this.count
  }

  /** Appends a string (index {@link length} before the call). */
  push(text: string): void {
    const word = this.count >>> 5
    if (word === this.inBroad.length) {
      this.inBroad = grown(this.inBroad)
      this.broadBefore = grown(this.broadBefore)
    }
    if ((this.count & 31) === 0) this.broadBefore[word] = this.broadCount
    if (wide.test(text)) {
      this.inBroad[word] = (this.inBroad[word] ?? 0) | (1 << (this.count & 31))
      this.broadCount++
      this.broad.push(text)
    } else {
      this.narrow.push(text)
    }
    this.count++
  }

  /** Packs what is pending (after the last string: what remains costs its parser chunks until then). */
  pack(): void {
    this.narrow.pack()
    this.broad.pack()
  }

  get(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return undefined
    const word = index >>> 5
    const bit = index & 31
    const bits = this.inBroad[word] ?? 0
    const broadBefore = (this.broadBefore[word] ?? 0) + bitCount(bit === 0 ? 0 : bits & (0xffffffff >>> (32 - bit)))
    return (bits >>> bit) & 1 ? this.broad.get(broadBefore) : this.narrow.get(index - broadBefore)
  }
}

/**
 * Reads sharedStrings.xml into {@link strings}, one entry per `<si>`,
 * readings excluded. The part streams; only the strings are kept, packed,
 * counted against the file's text budget (a 200 MB part of formatting runs
 * keeps only its few characters of text; one of 200 MB of text fails
 * `too-large`).
 */
export class SharedStringsReader implements XmlVisitor {
  readonly strings = new SharedStringTable()
  private readonly item = new RichStringReader()
  private inItem = false
  private readonly budget: LineBudget
  /** Characters this reader has taken from the budget (given back when its reading is dropped). */
  held = 0

  constructor(budget: LineBudget) {
    this.budget = budget
  }

  /** Appends one item's text (decoded), counted against the budget. */
  add(text: string): void {
    // Each item also costs its slot: an empty item counts as a few characters, so millions of them still add up.
    this.budget.hold("shared strings", text.length + 8)
    this.held += text.length + 8
    this.strings.push(text)
  }

  open(tag: XmlTag): void {
    if (isElement(tag, ns.spreadsheet, "si")) this.inItem = true
    else if (this.inItem) this.item.open(tag)
  }

  close(tag: XmlTag): void {
    if (isElement(tag, ns.spreadsheet, "si")) {
      this.inItem = false
      this.add(this.item.take())
    } else if (this.inItem) {
      this.item.close(tag)
    }
  }

  text(text: string): void {
    if (this.inItem) this.item.text(text)
  }
}

/** Where an element of the table stands: the table itself, or an item (`si`) and whatever is inside it. */
const Level = { Table: 0, Item: 1 } as const

/**
 * The fast path for the shared-string table (issue 20): the inside of `sst`
 * read by an {@link ElementScanner}, each `si` given to the reader as the
 * saxes path gives it ({@link RichStringReader}'s rules: the `t` runs
 * joined, the readings `rPh` left out, `_xHHHH_` decoded). Anything but `si`
 * in the table, an `si` inside an item, or an element of another prefix
 * gives the part back to saxes.
 */
class SharedStringsScanner extends ElementScanner {
  private readonly reader: SharedStringsReader
  private readonly qSi: string
  private item = ""

  constructor(scan: ScanContext, reader: SharedStringsReader) {
    super(scan, "sst")
    this.reader = reader
    this.qSi = this.qualify("si")
  }

  protected collects(level: number): boolean {
    return level === Level.Item && this.textDepth > 0
  }

  protected route(text: string): void {
    this.item += text
  }

  protected element(buf: string, from: number, to: number, selfClosing: boolean): void {
    const name = buf.slice(from, to)
    if (this.top() === Level.Table) {
      if (name !== this.qSi) return this.unexpected(name, "sst")
      this.startRich()
      this.item = ""
    } else {
      if (!this.ownPrefix(name)) return this.unexpected(name, "a string item")
      if (name === this.qSi) fallback("an si inside an si")
      this.richOpen(name)
    }
    this.enter(name, Level.Item, selfClosing)
  }

  protected closeElement(name: string, level: number): void {
    if (level !== Level.Item) return
    if (this.top() === Level.Table) {
      // The item itself.
      this.reader.add(decodeXString(this.item))
      this.item = ""
    } else {
      this.richClose(name)
    }
  }
}

/** The shared-string table of `part` read by saxes alone (what the fast path must equal). */
export const readSharedStringsSaxes = (pkg: OpcPackage, part: string, budget: LineBudget): Effect.Effect<SharedStringTable, ExtractError> =>
  Effect.suspend(() => {
    const reader = new SharedStringsReader(budget)
    return Effect.as(pkg.readXml(part, reader), reader.strings)
  }).pipe(Effect.tap((strings) => strings.pack()))

/**
 * Reads a sharedStrings.xml part whose text `write` is given piece by piece:
 * `sst`'s inside through the fast scanner into `reader`, the rest through
 * saxes into the same reader. After a fallback the caller drops the reader
 * (giving back what it {@link SharedStringsReader.held}) and reads the part
 * again with saxes.
 */
export class SharedStringsScan extends PartScan {
  constructor(reader: SharedStringsReader, part: string, maxDepth: number) {
    super(new XmlStream(part, reader, maxDepth), "sst", 1, (scan) => new SharedStringsScanner(scan, reader), maxDepth)
  }
}

/** How the fast path read a shared-string table (tests and profiles). */
export type SharedStringsReading = (part: string, outcome: ScanOutcome) => void

/**
 * The shared-string table of `part` (sharedStrings.xml), packed: the inside
 * of `sst` through the fast scanner, the rest of the part through saxes;
 * when the scanner gives the part back, what it read is dropped (its
 * characters given back to `budget`) and saxes reads the part again from
 * its start, so the table is always the saxes path's. `observe` is told how
 * it went. Fails as reading the part with saxes fails (`corrupt`,
 * `too-large`).
 */
export const readSharedStrings = (
  pkg: OpcPackage,
  part: string,
  budget: LineBudget,
  observe?: SharedStringsReading
): Effect.Effect<SharedStringTable, ExtractError> =>
  Effect.suspend(() => {
    const reader = new SharedStringsReader(budget)
    const scan = new SharedStringsScan(reader, part, pkg.maxDepth)
    return pkg.readText(part, (text) => scan.write(text)).pipe(
      Effect.flatMap(() => Effect.try({ try: () => scan.finish(), catch: (e) => corruptPart(part, e) })),
      Effect.flatMap(() => {
        observe?.(part, scan.outcome)
        if (scan.outcome._tag === "fallback") {
          budget.release(reader.held)
          return readSharedStringsSaxes(pkg, part, budget)
        }
        reader.strings.pack()
        return Effect.succeed(reader.strings)
      })
    )
  })
