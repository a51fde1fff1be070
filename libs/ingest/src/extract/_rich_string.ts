/**
 * The text of a SpreadsheetML string item (`<si>` in sharedStrings.xml,
 * `<is>` of an inline-string cell): plain `<t>` or rich-text runs `<r><t>`,
 * joined in order (BUG-02), with the phonetic guide runs `<rPh>` left out
 * (BUG-09: 東京, never 東京トウキョウ) and `_xHHHH_` escapes decoded.
 *
 * @module
 */
import { isElement, ns, type XmlTag } from "./_xml.ts"

/**
 * Decodes the `_xHHHH_` escapes of an ST_Xstring in one pass, so that the
 * escaped underscore `_x005F_` followed by `x000D_` reads as the literal
 * text `_x000D_` and is not decoded a second time (trait `xstring-escapes`).
 */
export function decodeXString(text: string): string {
  if (!text.includes("_x")) return text
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
}

/**
 * Collects the text of one string item from the events inside it. Feed it
 * every event between the item's start and end tags, then {@link take}.
 */
export class RichStringReader {
  private phoneticDepth = 0
  private textDepth = 0
  private buffer = ""

  open(tag: XmlTag): void {
    if (isElement(tag, ns.spreadsheet, "rPh")) this.phoneticDepth++
    else if (this.phoneticDepth === 0 && isElement(tag, ns.spreadsheet, "t")) this.textDepth++
  }

  close(tag: XmlTag): void {
    if (isElement(tag, ns.spreadsheet, "rPh")) this.phoneticDepth--
    else if (this.phoneticDepth === 0 && isElement(tag, ns.spreadsheet, "t")) this.textDepth--
  }

  text(text: string): void {
    if (this.textDepth > 0) this.buffer += text
  }

  /** The item's text, decoded; the reader is empty afterwards. */
  take(): string {
    const text = decodeXString(this.buffer)
    this.buffer = ""
    return text
  }
}
