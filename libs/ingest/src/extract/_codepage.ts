/**
 * Byte strings of BIFF5 records in the workbook's code page (CODEPAGE
 * record): Shift_JIS (932) for a Japanese Excel 95 file, 1252 for a Western
 * one, and so on, decoded with TextDecoder (full ICU); the few code pages
 * TextDecoder does not know (Mac Central European, DOS) from their tables.
 *
 * @module
 */

/** Code page numbers (Windows code page identifiers) → TextDecoder labels. */
const labels: ReadonlyMap<number, string> = new Map([
  [874, "windows-874"],
  [932, "shift_jis"],
  [936, "gbk"],
  [949, "euc-kr"],
  [950, "big5"],
  [866, "ibm866"],
  [1250, "windows-1250"],
  [1251, "windows-1251"],
  [1252, "windows-1252"],
  [1253, "windows-1253"],
  [1254, "windows-1254"],
  [1255, "windows-1255"],
  [1256, "windows-1256"],
  [1257, "windows-1257"],
  [1258, "windows-1258"],
  [10000, "macintosh"],
  [10007, "x-mac-cyrillic"],
  [20866, "koi8-r"],
  [21866, "koi8-u"],
  [28591, "iso-8859-1"],
  [28592, "iso-8859-2"],
  [65001, "utf-8"],
  // CP_MACCP: Excel for the Mac writes 0x8000 for Mac Roman.
  [32768, "macintosh"],
  [1200, "utf-16le"]
])

/**
 * The upper halves (bytes 0x80–0xFF) of single-byte code pages that TextDecoder lacks, and of
 * windows-1252, which Node 20's TextDecoder decodes as ISO-8859-1 (0x93 as U+0093, not “; 0x80 as
 * U+0080, not €): the WHATWG table, the five undefined bytes as their C1 controls.
 */
const tables: ReadonlyMap<number, string> = new Map([
  // Windows Western, generated from Python's cp1252 codec
  [1252, "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178\u00a0\u00a1\u00a2\u00a3\u00a4\u00a5\u00a6\u00a7\u00a8\u00a9\u00aa\u00ab\u00ac\u00ad\u00ae\u00af\u00b0\u00b1\u00b2\u00b3\u00b4\u00b5\u00b6\u00b7\u00b8\u00b9\u00ba\u00bb\u00bc\u00bd\u00be\u00bf\u00c0\u00c1\u00c2\u00c3\u00c4\u00c5\u00c6\u00c7\u00c8\u00c9\u00ca\u00cb\u00cc\u00cd\u00ce\u00cf\u00d0\u00d1\u00d2\u00d3\u00d4\u00d5\u00d6\u00d7\u00d8\u00d9\u00da\u00db\u00dc\u00dd\u00de\u00df\u00e0\u00e1\u00e2\u00e3\u00e4\u00e5\u00e6\u00e7\u00e8\u00e9\u00ea\u00eb\u00ec\u00ed\u00ee\u00ef\u00f0\u00f1\u00f2\u00f3\u00f4\u00f5\u00f6\u00f7\u00f8\u00f9\u00fa\u00fb\u00fc\u00fd\u00fe\u00ff"],
  // Mac Central European, generated from Python's mac_latin2 codec
  [10029, "\u00c4\u0100\u0101\u00c9\u0104\u00d6\u00dc\u00e1\u0105\u010c\u00e4\u010d\u0106\u0107\u00e9\u0179\u017a\u010e\u00ed\u010f\u0112\u0113\u0116\u00f3\u0117\u00f4\u00f6\u00f5\u00fa\u011a\u011b\u00fc\u2020\u00b0\u0118\u00a3\u00a7\u2022\u00b6\u00df\u00ae\u00a9\u2122\u0119\u00a8\u2260\u0123\u012e\u012f\u012a\u2264\u2265\u012b\u0136\u2202\u2211\u0142\u013b\u013c\u013d\u013e\u0139\u013a\u0145\u0146\u0143\u00ac\u221a\u0144\u0147\u2206\u00ab\u00bb\u2026\u00a0\u0148\u0150\u00d5\u0151\u014c\u2013\u2014\u201c\u201d\u2018\u2019\u00f7\u25ca\u014d\u0154\u0155\u0158\u2039\u203a\u0159\u0156\u0157\u0160\u201a\u201e\u0161\u015a\u015b\u00c1\u0164\u0165\u00cd\u017d\u017e\u016a\u00d3\u00d4\u016b\u016e\u00da\u016f\u0170\u0171\u0172\u0173\u00dd\u00fd\u0137\u017b\u0141\u017c\u0122\u02c7"],
  // DOS US, generated from Python's cp437 codec
  [437, "\u00c7\u00fc\u00e9\u00e2\u00e4\u00e0\u00e5\u00e7\u00ea\u00eb\u00e8\u00ef\u00ee\u00ec\u00c4\u00c5\u00c9\u00e6\u00c6\u00f4\u00f6\u00f2\u00fb\u00f9\u00ff\u00d6\u00dc\u00a2\u00a3\u00a5\u20a7\u0192\u00e1\u00ed\u00f3\u00fa\u00f1\u00d1\u00aa\u00ba\u00bf\u2310\u00ac\u00bd\u00bc\u00a1\u00ab\u00bb\u2591\u2592\u2593\u2502\u2524\u2561\u2562\u2556\u2555\u2563\u2551\u2557\u255d\u255c\u255b\u2510\u2514\u2534\u252c\u251c\u2500\u253c\u255e\u255f\u255a\u2554\u2569\u2566\u2560\u2550\u256c\u2567\u2568\u2564\u2565\u2559\u2558\u2552\u2553\u256b\u256a\u2518\u250c\u2588\u2584\u258c\u2590\u2580\u03b1\u00df\u0393\u03c0\u03a3\u03c3\u00b5\u03c4\u03a6\u0398\u03a9\u03b4\u221e\u03c6\u03b5\u2229\u2261\u00b1\u2265\u2264\u2320\u2321\u00f7\u2248\u00b0\u2219\u00b7\u221a\u207f\u00b2\u25a0\u00a0"],
  // DOS Latin 1, generated from Python's cp850 codec
  [850, "\u00c7\u00fc\u00e9\u00e2\u00e4\u00e0\u00e5\u00e7\u00ea\u00eb\u00e8\u00ef\u00ee\u00ec\u00c4\u00c5\u00c9\u00e6\u00c6\u00f4\u00f6\u00f2\u00fb\u00f9\u00ff\u00d6\u00dc\u00f8\u00a3\u00d8\u00d7\u0192\u00e1\u00ed\u00f3\u00fa\u00f1\u00d1\u00aa\u00ba\u00bf\u00ae\u00ac\u00bd\u00bc\u00a1\u00ab\u00bb\u2591\u2592\u2593\u2502\u2524\u00c1\u00c2\u00c0\u00a9\u2563\u2551\u2557\u255d\u00a2\u00a5\u2510\u2514\u2534\u252c\u251c\u2500\u253c\u00e3\u00c3\u255a\u2554\u2569\u2566\u2560\u2550\u256c\u00a4\u00f0\u00d0\u00ca\u00cb\u00c8\u0131\u00cd\u00ce\u00cf\u2518\u250c\u2588\u2584\u00a6\u00cc\u2580\u00d3\u00df\u00d4\u00d2\u00f5\u00d5\u00b5\u00fe\u00de\u00da\u00db\u00d9\u00fd\u00dd\u00af\u00b4\u00ad\u00b1\u2017\u00be\u00b6\u00a7\u00f7\u00b8\u00b0\u00a8\u00b7\u00b9\u00b3\u00b2\u25a0\u00a0"],
  // DOS Latin 2, generated from Python's cp852 codec
  [852, "\u00c7\u00fc\u00e9\u00e2\u00e4\u016f\u0107\u00e7\u0142\u00eb\u0150\u0151\u00ee\u0179\u00c4\u0106\u00c9\u0139\u013a\u00f4\u00f6\u013d\u013e\u015a\u015b\u00d6\u00dc\u0164\u0165\u0141\u00d7\u010d\u00e1\u00ed\u00f3\u00fa\u0104\u0105\u017d\u017e\u0118\u0119\u00ac\u017a\u010c\u015f\u00ab\u00bb\u2591\u2592\u2593\u2502\u2524\u00c1\u00c2\u011a\u015e\u2563\u2551\u2557\u255d\u017b\u017c\u2510\u2514\u2534\u252c\u251c\u2500\u253c\u0102\u0103\u255a\u2554\u2569\u2566\u2560\u2550\u256c\u00a4\u0111\u0110\u010e\u00cb\u010f\u0147\u00cd\u00ce\u011b\u2518\u250c\u2588\u2584\u0162\u016e\u2580\u00d3\u00df\u00d4\u0143\u0144\u0148\u0160\u0161\u0154\u00da\u0155\u0170\u00fd\u00dd\u0163\u00b4\u00ad\u02dd\u02db\u02c7\u02d8\u00a7\u00f7\u00b8\u00b0\u00a8\u02d9\u0171\u0158\u0159\u25a0\u00a0"]
])

/** Decodes the byte strings of one code page. */
export interface ByteDecoder {
  readonly codePage: number
  /** False when the code page is unknown and decoded as windows-1252. */
  readonly known: boolean
  decode(bytes: Uint8Array): string
}

const isAscii = (bytes: Uint8Array): boolean => {
  for (let i = 0; i < bytes.length; i++) if ((bytes[i] ?? 0) >= 0x80) return false
  return true
}

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1")

/**
 * The code page of 8-bit text that a file names `codePage`: 1200 (UTF-16)
 * and 65001 (UTF-8) cannot be the page of bytes read one by one (a damaged
 * record, or a summary written in Unicode), and read as Western (1252), as
 * Office does; any other page is itself.
 */
export const eightBitCodePage = (codePage: number): number => (codePage === 1200 || codePage === 65001 ? 1252 : codePage)

/**
 * The decoder of code page `codePage` (367 = US-ASCII, 1200 = UTF-16). An
 * unknown code page decodes as windows-1252, which is what Excel assumes for
 * a file without a CODEPAGE record.
 */
export function byteDecoder(codePage: number): ByteDecoder {
  const known = tables.has(codePage) || labels.has(codePage) || codePage === 367
  const table = tables.get(codePage) ?? (codePage === 367 || !known ? tables.get(1252) : undefined)
  if (table !== undefined) {
    return {
      codePage,
      known,
      decode: (bytes) => {
        if (isAscii(bytes)) return latin1(bytes)
        let out = ""
        for (let i = 0; i < bytes.length; i++) {
          const b = bytes[i] ?? 0
          out += b < 0x80 ? String.fromCharCode(b) : (table[b - 0x80] ?? "\ufffd")
        }
        return out
      }
    }
  }
  // Known here: an unknown page took windows-1252's table above.
  const decoder = new TextDecoder(labels.get(codePage) ?? "utf-8")
  return {
    codePage,
    known: true,
    // ASCII, the common case, needs no decoder (UTF-16 is never ASCII bytes of one a character).
    decode: (bytes) => (codePage !== 1200 && isAscii(bytes) ? latin1(bytes) : decoder.decode(bytes))
  }
}

/**
 * The Windows code page of a language identifier (LCID, e.g. a Word 6/95
 * FIB's `lid`): 932 for Japanese (0x0411), 936 / 950 for Simplified /
 * Traditional Chinese, 949 for Korean, the Cyrillic, Central European,
 * Greek, Turkish, Hebrew, Arabic, Baltic, Thai and Vietnamese pages for
 * their languages, 1252 for every other language (Western). Used where a
 * format stores 8-bit text in the code page of the Windows that wrote it.
 */
export function codePageOfLanguage(lid: number): number {
  const primary = lid & 0x3ff
  if (primary === 0x04) return [0x0804, 0x1004].includes(lid) ? 936 : 950
  // Croatian and Serbian in Latin letters; Serbian in Cyrillic (0x0C1A).
  if (primary === 0x1a) return lid === 0x0c1a ? 1251 : 1250
  return languageCodePages.get(primary) ?? 1252
}

/** Primary language ids (the low 10 bits of an LCID) whose Windows code page is not 1252. */
const languageCodePages: ReadonlyMap<number, number> = new Map([
  [0x11, 932], // Japanese
  [0x12, 949], // Korean
  [0x1e, 874], // Thai
  [0x2a, 1258], // Vietnamese
  [0x08, 1253], // Greek
  [0x1f, 1254], // Turkish
  [0x0d, 1255], // Hebrew
  [0x01, 1256], [0x29, 1256], [0x20, 1256], // Arabic, Farsi, Urdu
  [0x25, 1257], [0x26, 1257], [0x27, 1257], // Estonian, Latvian, Lithuanian
  [0x19, 1251], [0x22, 1251], [0x23, 1251], [0x02, 1251], [0x2f, 1251], [0x3f, 1251], [0x40, 1251], [0x44, 1251], [0x50, 1251], // Russian, Ukrainian, Belarusian, Bulgarian, Macedonian, Kazakh, Kyrgyz, Tatar, Mongolian
  [0x05, 1250], [0x15, 1250], [0x0e, 1250], [0x1b, 1250], [0x24, 1250], [0x18, 1250], [0x1c, 1250] // Czech, Polish, Hungarian, Slovak, Slovenian, Romanian, Albanian
])

/** Is `byte` the first of a double-byte character in code page `codePage` (932, 936, 949, 950)? False for every single-byte page. */
export function isLeadByte(codePage: number, byte: number): boolean {
  if (codePage === 932) return (byte >= 0x81 && byte <= 0x9f) || (byte >= 0xe0 && byte <= 0xfc)
  if (codePage === 936 || codePage === 949 || codePage === 950) return byte >= 0x81 && byte <= 0xfe
  return false
}

/**
 * A font's character set (Windows `CHARSET`: RTF's `\fcharset`, a Word FFN's
 * `chs`) → its Windows code page: 128 (SHIFTJIS) is 932, 204 (RUSSIAN) 1251,
 * 238 (EASTEUROPE) 1250, and so on; 0 (ANSI) is 1252. DEFAULT (1), SYMBOL (2)
 * and OEM (255) name no page here.
 */
export const charsetPages: ReadonlyMap<number, number> = new Map([
  [0, 1252], [128, 932], [129, 949], [130, 1361], [134, 936], [136, 950], [161, 1253], [162, 1254], [163, 1258],
  [177, 1255], [178, 1256], [186, 1257], [204, 1251], [222, 874], [238, 1250], [77, 10000]
])
