/**
 * The shared string table of a workbook (`sharedStrings.xml`): cells of type
 * `s` hold an index into it.
 *
 * @module
 */
import type { SharedStrings } from "./_cell_text.ts"
import type { LineBudget } from "./_limits.ts"
import { RichStringReader } from "./_rich_string.ts"
import { isElement, ns, type XmlTag, type XmlVisitor } from "./_xml.ts"

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

  constructor(budget: LineBudget) {
    this.budget = budget
  }

  open(tag: XmlTag): void {
    if (isElement(tag, ns.spreadsheet, "si")) this.inItem = true
    else if (this.inItem) this.item.open(tag)
  }

  close(tag: XmlTag): void {
    if (isElement(tag, ns.spreadsheet, "si")) {
      this.inItem = false
      const text = this.item.take()
      // Each item also costs its slot: an empty item counts as a few characters, so millions of them still add up.
      this.budget.hold("shared strings", text.length + 8)
      this.strings.push(text)
    } else if (this.inItem) {
      this.item.close(tag)
    }
  }

  text(text: string): void {
    if (this.inItem) this.item.text(text)
  }
}
