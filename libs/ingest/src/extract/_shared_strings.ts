/**
 * The shared string table of a workbook (`sharedStrings.xml`): cells of type
 * `s` hold an index into it.
 *
 * @module
 */
import type { LineBudget } from "./_limits.ts"
import { RichStringReader } from "./_rich_string.ts"
import { isElement, ns, type XmlTag, type XmlVisitor } from "./_xml.ts"

/**
 * Reads sharedStrings.xml into {@link strings}, one entry per `<si>`,
 * readings excluded. The part streams; only the strings are kept, counted
 * against the file's text budget (a 200 MB part of formatting runs keeps
 * only its few characters of text; one of 200 MB of text fails `too-large`).
 */
export class SharedStringsReader implements XmlVisitor {
  readonly strings: Array<string> = []
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
