/**
 * Test-only writers of BIFF8/BIFF5 workbook streams, record by record, to
 * build legacy workbooks whose every byte a test chooses: shared strings
 * split across CONTINUE records, cached formula results, notes, links, code
 * pages. Wrapped in an OLE2 container by `writeCfb`.
 *
 * @module
 */
import { u16 as le16, u32 as le32, writeCfb } from "./_test_containers.ts"

/** One record: type, then its body. */
export const record = (type: number, ...body: ReadonlyArray<Uint8Array | ReadonlyArray<number>>): Uint8Array => {
  const data = Buffer.concat(body.map((b) => Buffer.from(b)))
  const head = Buffer.alloc(4)
  head.writeUInt16LE(type, 0)
  head.writeUInt16LE(data.length, 2)
  return new Uint8Array(Buffer.concat([head, data]))
}

/** `_test_containers.ts`'s `u16` and `u32`, under the names the BIFF tests use. */
export { le16, le32 }
export const f64le = (n: number): Uint8Array => {
  const b = Buffer.alloc(8)
  b.writeDoubleLE(n)
  return b
}

/** Whether a string needs two bytes a character in BIFF8. */
const isWide = (s: string): boolean => /[^\u0000-\u00ff]/.test(s)

/** The characters of a BIFF8 string, one byte each when they all fit (compressed), else UTF-16. */
export const chars = (s: string, wide = isWide(s)): Uint8Array => new Uint8Array(Buffer.from(s, wide ? "utf16le" : "latin1"))

/** XLUnicodeString: 16-bit count, flags, characters. */
export const xlString = (s: string): Uint8Array => new Uint8Array(Buffer.concat([le16(s.length), Buffer.from([isWide(s) ? 1 : 0]), chars(s)]))
/** ShortXLUnicodeString: 8-bit count, flags, characters. */
export const shortXlString = (s: string): Uint8Array => new Uint8Array(Buffer.concat([Buffer.from([s.length, isWide(s) ? 1 : 0]), chars(s)]))

export const rt = {
  bof: 0x0809,
  eof: 0x000a,
  boundSheet: 0x0085,
  sst: 0x00fc,
  continue: 0x003c,
  labelSst: 0x00fd,
  label: 0x0204,
  number: 0x0203,
  rk: 0x027e,
  mulRk: 0x00bd,
  boolErr: 0x0205,
  formula: 0x0006,
  string: 0x0207,
  format: 0x041e,
  xf: 0x00e0,
  dateMode: 0x0022,
  codePage: 0x0042,
  mergedCells: 0x00e5,
  note: 0x001c,
  obj: 0x005d,
  txo: 0x01b6,
  msoDrawing: 0x00ec,
  hlink: 0x01b8,
  header: 0x0014,
  filePass: 0x002f,
  rString: 0x00d6
} as const

export const bof = (dt: number, version = 0x0600): Uint8Array =>
  record(rt.bof, le16(version), le16(dt), version === 0x0600 ? [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : [0, 0, 0, 0])
export const eof = (): Uint8Array => record(rt.eof)

/** A cell record's head: row, column (0-based), XF index. */
const cellHead = (row: number, col: number, xf: number) => new Uint8Array(Buffer.concat([le16(row), le16(col), le16(xf)]))

export const labelSst = (row: number, col: number, index: number, xf = 15) => record(rt.labelSst, cellHead(row, col, xf), le32(index))
export const number = (row: number, col: number, value: number, xf = 15) => record(rt.number, cellHead(row, col, xf), f64le(value))
export const rk = (row: number, col: number, value: number, xf = 15) => record(rt.rk, cellHead(row, col, xf), le32(rkOf(value)))
export const label = (row: number, col: number, text: string, xf = 15) => record(rt.label, cellHead(row, col, xf), xlString(text))
export const boolErr = (row: number, col: number, value: number, isError: boolean, xf = 15) => record(rt.boolErr, cellHead(row, col, xf), [value, isError ? 1 : 0])

/** An RK value for an integer that fits 30 bits (×100 for two decimals). */
export function rkOf(value: number): number {
  if (Number.isInteger(value)) return ((value << 2) | 0x02) >>> 0
  const hundred = Math.round(value * 100)
  if (Math.abs(hundred - value * 100) < 1e-9) return ((hundred << 2) | 0x03) >>> 0
  throw new Error(`rkOf: ${value} is not an RK integer`)
}

export const mulRk = (row: number, first: number, values: ReadonlyArray<number>, xf = 15) =>
  record(rt.mulRk, le16(row), le16(first), ...values.flatMap((v) => [le16(xf), le32(rkOf(v))]), le16(first + values.length - 1))

/** A formula's cached result: a number, or a string (a STRING record follows), a boolean, an error. */
export type FormulaResult = number | { readonly string: string } | { readonly bool: boolean } | { readonly error: number }

/** The 8 bytes of a cached formula result (a number, or its kind in the first byte and 0xFFFF last), as BIFF2 to BIFF8 store it. */
export const formulaResultBytes = (result: FormulaResult): Uint8Array =>
  typeof result === "number"
    ? f64le(result)
    : "string" in result
      ? new Uint8Array([0, 0, 0, 0, 0, 0, 0xff, 0xff])
      : "bool" in result
        ? new Uint8Array([1, 0, result.bool ? 1 : 0, 0, 0, 0, 0xff, 0xff])
        : new Uint8Array([2, 0, result.error, 0, 0, 0, 0xff, 0xff])

/** A FORMULA record with a cached result: a number, or `{string}` (a STRING record follows), `{bool}`, `{error}`. */
export function formula(row: number, col: number, result: FormulaResult, xf = 15): Uint8Array {
  const value = formulaResultBytes(result)
  // flags, chn, then a formula of one token (ptgInt 1).
  const cell = record(rt.formula, cellHead(row, col, xf), value, le16(0), le32(0), le16(3), [0x1e, 1, 0])
  return typeof result === "object" && "string" in result ? new Uint8Array(Buffer.concat([cell, record(rt.string, xlString(result.string))])) : cell
}

/**
 * An SST record over `strings`, split into an SST and CONTINUE records at
 * the byte offsets `splits` of the body (a split inside a string's
 * characters starts the next record with a flag byte, as Excel writes it).
 * Each string is `[text, options]`: `wide` forces two-byte characters of its
 * first part, `wideAfterSplit` those after a split, `runs` adds formatting
 * runs, `phonetic` a phonetic block of that many bytes.
 */
export function sst(
  strings: ReadonlyArray<string | { readonly text: string; readonly runs?: number; readonly phonetic?: number }>,
  splitAt: ReadonlyArray<{ readonly string: number; readonly char: number; readonly wideAfter?: boolean }> = []
): Uint8Array {
  const records: Array<Uint8Array> = []
  let body: Array<Uint8Array> = [le32(strings.length), le32(strings.length)]
  const flush = () => {
    records.push(record(records.length === 0 ? rt.sst : rt.continue, ...body))
    body = []
  }
  strings.forEach((item, i) => {
    const { text, runs = 0, phonetic = 0 } = typeof item === "string" ? { text: item } : item
    const split = splitAt.find((s) => s.string === i)
    const firstPart = split === undefined ? text : text.slice(0, split.char)
    const flags = (isWide(firstPart) ? 1 : 0) | (runs > 0 ? 0x08 : 0) | (phonetic > 0 ? 0x04 : 0)
    body.push(le16(text.length), new Uint8Array([flags]))
    if (runs > 0) body.push(le16(runs))
    if (phonetic > 0) body.push(le32(phonetic))
    body.push(chars(firstPart, isWide(firstPart)))
    if (split !== undefined) {
      flush()
      const rest = text.slice(split.char)
      const wide = split.wideAfter ?? isWide(rest)
      body.push(new Uint8Array([wide ? 1 : 0]), chars(rest, wide))
    }
    for (let r = 0; r < runs; r++) body.push(le16(r), le16(0))
    // A phonetic block of ASCII junk, never text.
    if (phonetic > 0) body.push(new Uint8Array(Buffer.alloc(phonetic, 0x58)))
  })
  flush()
  return new Uint8Array(Buffer.concat(records))
}

export const xf = (formatId: number) => record(rt.xf, le16(0), le16(formatId), le16(0x0001), new Uint8Array(14))
export const format = (id: number, code: string) => record(rt.format, le16(id), xlString(code))

/** A sheet of a workbook: its name, visibility (0, 1, 2), and its records between BOF and EOF. */
export interface TestSheet {
  readonly name: string
  readonly state?: number
  readonly kind?: number
  readonly records: ReadonlyArray<Uint8Array>
}

/** What a test workbook's globals hold beside its sheets. */
export interface TestGlobals {
  /** Records after BOF and CODEPAGE (DATEMODE, FORMAT, FILEPASS …). */
  readonly before?: ReadonlyArray<Uint8Array>
  /** Number format ids of XFs 16, 17, … (after 16 default XFs of General). */
  readonly xfs?: ReadonlyArray<number>
  /** Records after the BOUNDSHEETs (SST …). */
  readonly after?: ReadonlyArray<Uint8Array>
  /** BIFF version word of every BOF (0x0600 BIFF8, 0x0500 BIFF5). */
  readonly version?: number
  readonly codePage?: number
}

/** A workbook stream: globals, BOUNDSHEETs pointing at each sheet, then each sheet's BOF, records and EOF. */
export function biff8Workbook(sheets: ReadonlyArray<TestSheet>, globals: TestGlobals = {}): Uint8Array {
  const version = globals.version ?? 0x0600
  const head = [
    bof(0x0005, version),
    record(rt.codePage, le16(globals.codePage ?? 1200)),
    ...(globals.before ?? []),
    ...Array.from({ length: 16 }, () => xf(0)),
    ...(globals.xfs ?? []).map(xf)
  ]
  const bodies = sheets.map((s) => new Uint8Array(Buffer.concat([bof(s.kind === 2 ? 0x0020 : 0x0010, version), ...s.records, eof()])))
  const name = (s: TestSheet) => (version === 0x0600 ? shortXlString(s.name) : new Uint8Array([s.name.length, ...Buffer.from(s.name, "latin1")]))
  const after = globals.after ?? []
  let offset = [...head, ...after].reduce((n, r) => n + r.length, 0) + sheets.reduce((n, s) => n + 4 + 6 + name(s).length, 0) + 4
  const boundSheets = sheets.map((s, i) => {
    const r = record(rt.boundSheet, le32(offset), [s.state ?? 0, s.kind ?? 0], name(s))
    offset += bodies[i]?.length ?? 0
    return r
  })
  return new Uint8Array(Buffer.concat([...head, ...boundSheets, ...after, eof(), ...bodies]))
}

/** A .xls file: `stream` as the `Workbook` stream of an OLE2 container. */
export const xlsFile = (stream: Uint8Array, name = "Workbook"): Uint8Array => writeCfb([[name, stream]])
