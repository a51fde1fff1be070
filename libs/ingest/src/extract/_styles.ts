/**
 * The part of a workbook's styles that decides cell text: the number format
 * of each cell format (`cellXfs`), custom codes from `numFmts`, built-in ids
 * from Excel's own table (BUG-07: Japanese ids the file does not define).
 *
 * @module
 */
import { compileFormat, type NumberFormat } from "./_format_code.ts"
import { builtInFormatCode } from "./_number_format.ts"
import { attribute, isElement, ns, type XmlTag, type XmlVisitor } from "./_xml.ts"

/** Reads styles.xml; {@link formats} once the part is parsed. */
export class StylesReader implements XmlVisitor {
  private readonly codes = new Map<number, string>()
  private readonly formatIds: Array<number> = []
  private inNumFmts = false
  private inCellXfs = false

  open(tag: XmlTag): void {
    if (!ns.spreadsheet.has(tag.uri)) return
    if (tag.local === "numFmts") {
      this.inNumFmts = true
    } else if (this.inNumFmts && tag.local === "numFmt") {
      // Only the workbook's own list: `dxf` entries (conditional formats) repeat numFmt elements of their own.
      const id = Number(attribute(tag, "numFmtId"))
      const code = attribute(tag, "formatCode")
      if (Number.isInteger(id) && code !== undefined) this.codes.set(id, code)
    } else if (tag.local === "cellXfs") {
      this.inCellXfs = true
    } else if (this.inCellXfs && tag.local === "xf") {
      // `cellStyleXfs` has `xf` children too; only the `cellXfs` list is what a cell's `s` indexes.
      this.formatIds.push(Number(attribute(tag, "numFmtId") ?? 0))
    }
  }

  close(tag: XmlTag): void {
    if (isElement(tag, ns.spreadsheet, "numFmts")) this.inNumFmts = false
    else if (isElement(tag, ns.spreadsheet, "cellXfs")) this.inCellXfs = false
  }

  text(): void {}

  /** The number format of each cell format, by `cellXfs` index; `undefined` for General and unknown ids. */
  formats(): ReadonlyArray<NumberFormat | undefined> {
    return this.formatIds.map((id) => {
      const code = this.codes.get(id) ?? builtInFormatCode(id)
      return code === undefined || /^general$/i.test(code) ? undefined : compileFormat(code)
    })
  }
}
