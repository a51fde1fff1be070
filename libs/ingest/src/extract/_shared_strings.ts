/**
 * The shared string table of a workbook (`sharedStrings.xml`): cells of type
 * `s` hold an index into it.
 *
 * @module
 */
import { RichStringReader } from "./_rich_string.ts"
import { isElement, ns, type XmlTag, type XmlVisitor } from "./_xml.ts"

/** Reads sharedStrings.xml into {@link strings}, one entry per `<si>`, readings excluded. */
export class SharedStringsReader implements XmlVisitor {
  readonly strings: Array<string> = []
  private readonly item = new RichStringReader()
  private inItem = false

  open(tag: XmlTag): void {
    if (isElement(tag, ns.spreadsheet, "si")) this.inItem = true
    else if (this.inItem) this.item.open(tag)
  }

  close(tag: XmlTag): void {
    if (isElement(tag, ns.spreadsheet, "si")) {
      this.inItem = false
      this.strings.push(this.item.take())
    } else if (this.inItem) {
      this.item.close(tag)
    }
  }

  text(text: string): void {
    if (this.inItem) this.item.text(text)
  }
}
