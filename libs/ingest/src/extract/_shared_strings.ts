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

/** Characters per block of a {@link SharedStringTable}. */
const blockChars = 1 << 16

/**
 * The strings of a shared-string table packed into blocks of about 64 Ki
 * characters, each string found by its start offset (4 bytes a string).
 * Why: the parser hands out text as slices of the chunk it is reading, and a
 * slice kept alive keeps its whole chunk alive — a table of 1.7 million
 * short strings held that way costs about 190 MB of heap for 26 million
 * characters; one string per item, copied, still about 90 MB; packed, about
 * 2 bytes a character (issue 9: one 100 MB workbook under 300 MB).
 */
export class SharedStringTable implements SharedStrings {
  private readonly blocks: Array<string> = []
  /** The index of the first string of each block. */
  private readonly firsts: Array<number> = []
  /** Each string's start within its block. */
  private starts = new Uint32Array(1024)
  private count = 0
  /** Strings before this index are in blocks; the rest wait in {@link pending}. */
  private packed = 0
  private pending: Array<string> = []
  private pendingChars = 0

  /** Number of strings. */
  get length(): number {
    return this.count
  }

  /** Appends a string (index {@link length} before the call). */
  push(text: string): void {
    if (this.count === this.starts.length) {
      const grown = new Uint32Array(this.starts.length * 2)
      grown.set(this.starts)
      this.starts = grown
    }
    this.starts[this.count++] = this.pendingChars
    this.pending.push(text)
    this.pendingChars += text.length
    if (this.pendingChars >= blockChars) this.pack()
  }

  /** Packs the strings still pending into a block: one flat copy, after which the slices and their chunks can go. */
  pack(): void {
    if (this.pending.length === 0) return
    this.blocks.push(this.pending.join(""))
    this.firsts.push(this.packed)
    this.packed = this.count
    this.pending = []
    this.pendingChars = 0
  }

  get(index: number): string | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return undefined
    if (index >= this.packed) return this.pending[index - this.packed]
    let lo = 0
    let hi = this.firsts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if ((this.firsts[mid] ?? 0) <= index) lo = mid
      else hi = mid - 1
    }
    const block = this.blocks[lo] ?? ""
    const next = this.firsts[lo + 1] ?? this.packed
    return block.slice(this.starts[index] ?? 0, index + 1 < next ? (this.starts[index + 1] ?? 0) : block.length)
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
