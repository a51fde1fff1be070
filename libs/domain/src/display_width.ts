/**
 * Display width of text on a terminal (issue 16, "Terminal conventions"): an
 * East Asian Wide or Fullwidth character (漢字, かな, 全角英数, most emoji)
 * takes two columns, a combining mark, a format character (ZWJ, variation
 * selectors) or a control character none, everything else one. Ambiguous
 * characters (○, █, Greek, Cyrillic) count one, as xterm, tmux and most
 * terminals count them by default — the reason the progress bar is drawn
 * with ASCII only. Emoji sequences joined by ZWJ count each emoji, so a
 * width is never less than the terminal's, only at most a few columns more.
 *
 * @module
 */

// Unicode EastAsianWidth W and F (Unicode 15), merged into ranges of code points.
const wide: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f], [0x231a, 0x231b], [0x2329, 0x232a], [0x23e9, 0x23ec], [0x23f0, 0x23f0], [0x23f3, 0x23f3],
  [0x25fd, 0x25fe], [0x2614, 0x2615], [0x2648, 0x2653], [0x267f, 0x267f], [0x2693, 0x2693], [0x26a1, 0x26a1],
  [0x26aa, 0x26ab], [0x26bd, 0x26be], [0x26c4, 0x26c5], [0x26ce, 0x26ce], [0x26d4, 0x26d4], [0x26ea, 0x26ea],
  [0x26f2, 0x26f3], [0x26f5, 0x26f5], [0x26fa, 0x26fa], [0x26fd, 0x26fd], [0x2705, 0x2705], [0x270a, 0x270b],
  [0x2728, 0x2728], [0x274c, 0x274c], [0x274e, 0x274e], [0x2753, 0x2755], [0x2757, 0x2757], [0x2795, 0x2797],
  [0x27b0, 0x27b0], [0x27bf, 0x27bf], [0x2b1b, 0x2b1c], [0x2b50, 0x2b50], [0x2b55, 0x2b55],
  [0x2e80, 0x303e], [0x3041, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa000, 0xa4cf], [0xa960, 0xa97f],
  [0xac00, 0xd7a3], [0xf900, 0xfaff], [0xfe10, 0xfe19], [0xfe30, 0xfe6f], [0xff00, 0xff60], [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4], [0x16ff0, 0x16ff1], [0x17000, 0x18cd5], [0x18d00, 0x18d08], [0x1aff0, 0x1b2fb],
  [0x1f004, 0x1f004], [0x1f0cf, 0x1f0cf], [0x1f18e, 0x1f18e], [0x1f191, 0x1f19a], [0x1f200, 0x1f202],
  [0x1f210, 0x1f23b], [0x1f240, 0x1f248], [0x1f250, 0x1f251], [0x1f260, 0x1f265], [0x1f300, 0x1f320],
  [0x1f32d, 0x1f335], [0x1f337, 0x1f37c], [0x1f37e, 0x1f393], [0x1f3a0, 0x1f3ca], [0x1f3cf, 0x1f3d3],
  [0x1f3e0, 0x1f3f0], [0x1f3f4, 0x1f3f4], [0x1f3f8, 0x1f43e], [0x1f440, 0x1f440], [0x1f442, 0x1f4fc],
  [0x1f4ff, 0x1f53d], [0x1f54b, 0x1f54e], [0x1f550, 0x1f567], [0x1f57a, 0x1f57a], [0x1f595, 0x1f596],
  [0x1f5a4, 0x1f5a4], [0x1f5fb, 0x1f64f], [0x1f680, 0x1f6c5], [0x1f6cc, 0x1f6cc], [0x1f6d0, 0x1f6d2],
  [0x1f6d5, 0x1f6d7], [0x1f6dc, 0x1f6df], [0x1f6eb, 0x1f6ec], [0x1f6f4, 0x1f6fc], [0x1f7e0, 0x1f7eb],
  [0x1f7f0, 0x1f7f0], [0x1f90c, 0x1f93a], [0x1f93c, 0x1f945], [0x1f947, 0x1f9ff], [0x1fa70, 0x1fa7c],
  [0x1fa80, 0x1fa88], [0x1fa90, 0x1fabd], [0x1fabf, 0x1fac5], [0x1face, 0x1fadb], [0x1fae0, 0x1fae8],
  [0x1faf0, 0x1faf8], [0x20000, 0x2fffd], [0x30000, 0x3fffd]
]

const zeroWidth = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]$/u

/** The columns one code point takes: 0, 1 or 2. */
export function codePointWidth(codePoint: number): 0 | 1 | 2 {
  if (codePoint >= 0x20 && codePoint < 0x7f) return 1
  // Before the wide ranges: the combining sound marks U+3099/309A are Wide and Mn, and join their kana.
  if (zeroWidth.test(String.fromCodePoint(codePoint))) return 0
  let lo = 0
  let hi = wide.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const range = wide[mid]
    if (range === undefined) break
    if (codePoint < range[0]) hi = mid - 1
    else if (codePoint > range[1]) lo = mid + 1
    else return 2
  }
  return 1
}

/** The columns `text` takes on a terminal (issue 16): wide characters 2, marks and controls 0. */
export function displayWidth(text: string): number {
  let columns = 0
  for (const c of text) columns += codePointWidth(c.codePointAt(0) ?? 0)
  return columns
}

/**
 * Rows of cells as lines of aligned columns for a terminal: every column but
 * the last padded with spaces to its widest cell ({@link displayWidth}, so a
 * Japanese name lines up with a Latin one), columns `gap` spaces apart. The
 * last column is not padded (no trailing spaces).
 */
export function alignColumns(rows: ReadonlyArray<ReadonlyArray<string>>, gap = 2): Array<string> {
  const widths: Array<number> = []
  for (const row of rows) row.forEach((cell, c) => (widths[c] = Math.max(widths[c] ?? 0, displayWidth(cell))))
  return rows.map((row) =>
    row.map((cell, c) => (c === row.length - 1 ? cell : cell + " ".repeat((widths[c] ?? 0) - displayWidth(cell) + gap))).join("")
  )
}

/** Options of {@link truncateToWidth}. */
export interface TruncateToWidthOptions {
  /** Which end is cut: `"end"` keeps the start (default), `"start"` keeps the end (a path's file name). */
  readonly cut?: "end" | "start"
  /** Put in place of what was cut (default none); its width counts within `columns`. */
  readonly ellipsis?: string
}

/**
 * `text` cut to at most `columns` display columns, never inside a code point
 * nor between a character and its combining marks. Text that fits comes back
 * as it is; otherwise `ellipsis` stands where the text was cut (left out when
 * even it does not fit).
 */
export function truncateToWidth(text: string, columns: number, options: TruncateToWidthOptions = {}): string {
  if (displayWidth(text) <= columns) return text
  const ellipsis = options.ellipsis ?? ""
  const room = displayWidth(ellipsis) <= columns ? columns - displayWidth(ellipsis) : columns
  const mark = room === columns ? "" : ellipsis
  const chars = [...text]
  if (options.cut === "start") {
    // From the end: a kept character carries the marks that follow it, so walk clusters backwards.
    let used = 0
    let start = chars.length
    let i = chars.length - 1
    while (i >= 0) {
      let base = i
      while (base > 0 && codePointWidth(chars[base]?.codePointAt(0) ?? 0) === 0) base--
      let w = 0
      for (let k = base; k <= i; k++) w += codePointWidth(chars[k]?.codePointAt(0) ?? 0)
      if (used + w > room) break
      used += w
      start = base
      i = base - 1
    }
    return mark + chars.slice(start).join("")
  }
  let used = 0
  let end = 0
  for (let i = 0; i < chars.length; i++) {
    const w = codePointWidth(chars[i]?.codePointAt(0) ?? 0)
    if (w > 0 && used + w > room) break
    used += w
    end = i + 1
  }
  return chars.slice(0, end).join("") + mark
}

// Characters a line cut at the width does not start with (Japanese line-breaking rules, in brief).
const closers = new Set(["、", "。", "，", "．", "）", "」", "』", "】", "〕", "・", "ー", ")", ",", "."])

/** The indent of a line {@link wrapToWidth} continues (display columns). */
export const wrapIndent = "  "

/**
 * A line cut into lines of at most `columns` display columns for a
 * terminal (issue 16: the terminal itself broke the log's long lines inside
 * a word, `office` / `RecycleAfter`, `前回失` / `敗`), the lines after the
 * first indented as the line is plus {@link wrapIndent}. Each cut falls, in
 * this order, at the first of these that fits:
 *
 * 1. after the last `、`, `，`, `,` or `。`;
 * 2. before the last `（` or `「` that leaves the line a third full (the
 *    new-user trial saw `…だった 197` / `件も取り込みます）。`);
 * 3. at the last space before a suggested command that leaves the line a
 *    third full;
 * 4. after the last `: ` that leaves the line a third full (a file's path
 *    and what became of it: `…/no_excel.xlsx:` / `Office のファイル…`);
 * 5. at the last space that leaves the line half full (a space at a cut is
 *    left out) — in a line with wide characters, not a space inside a
 *    command (`sagasu` and the words after it: `sagasu status --failed
 *    --work W`, `sagasu index --only 書類 --work W`) nor one between a
 *    number and a wide character (`197 件`, `プロセス番号 6743`) or a
 *    size's unit (`14 KB`) — a name ending in a digit is no number
 *    (`--work /tmp/w2 で…`);
 * 6. after the last `-`, `_` or `/` inside a run of ASCII that leaves the
 *    line half full (a long file name);
 * 7. at the width (never inside a code point, before a combining mark, nor
 *    before a closing `、。）」`).
 *
 * A line that fits comes back alone, as it is; so does every line when
 * `columns` leaves too little room past the indent. `line` holds no line
 * feed ({@link wrapTextToWidth} takes text of several lines).
 */
export function wrapToWidth(line: string, columns: number): Array<string> {
  const indent = (/^ */.exec(line)?.[0] ?? "") + wrapIndent
  if (displayWidth(line) <= columns || columns <= indent.length + 1) return [line]
  // Japanese text: a command stays whole, a number goes with its unit.
  const wideLine = [...line].some((c) => codePointWidth(c.codePointAt(0) ?? 0) === 2)
  const ascii = (c: string | undefined) => c !== undefined && c > " " && c <= "~"
  const wide = (c: string | undefined) => c !== undefined && codePointWidth(c.codePointAt(0) ?? 0) === 2
  const out: Array<string> = []
  let rest = [...line]
  // The places of `rest` inside a command: from `sagasu ` over its ASCII words and over a word of other
  // characters that an ASCII word follows (an index's name, `新しいフォルダ`: `sagasu move 消えた 新しいフォルダ
  // --work W`), to the first other character (`で取り込みます`, `）`, `、`).
  const inCommand = (cps: ReadonlyArray<string>): Array<boolean> => {
    const marks = new Array<boolean>(cps.length).fill(false)
    if (!wideLine) return marks
    for (let i = 0; i + 7 <= cps.length; i++) {
      if (cps.slice(i, i + 7).join("") !== "sagasu " || ascii(cps[i - 1])) continue
      let j = i
      for (;;) {
        while (j < cps.length && (ascii(cps[j]) || cps[j] === " ")) marks[j++] = true
        if (j >= cps.length || cps[j - 1] !== " ") break
        // Words of other characters, then an ASCII word: arguments; else the text after the command.
        let end = j
        for (;;) {
          while (end < cps.length && cps[end] !== " ") end++
          if (cps[end] !== " " || cps[end + 1] === undefined || cps[end + 1] === " ") end = -1
          else if (!ascii(cps[end + 1])) end++
          if (end < 0 || ascii(cps[end + 1])) break
        }
        if (end < 0) break
        while (j < end) marks[j++] = true
      }
      // A space before the text that follows is no part of it.
      while (j > i && cps[j - 1] === " ") marks[--j] = false
      i = j
    }
    return marks
  }
  let prefix = ""
  for (;;) {
    const room = columns - prefix.length
    // Spaces the piece starts with (the line's own indent) are no place to cut.
    let lead = 0
    while (rest[lead] === " ") lead++
    let used = 0
    let fit = 0
    let afterComma = -1
    let beforeOpen = -1
    let openAt = 0
    let afterColon = -1
    let colonAt = 0
    let space = -1
    let spaceAt = 0
    let beforeCommand = -1
    let commandAt = 0
    let afterPunct = -1
    let punctAt = 0
    const command = inCommand(rest)
    for (let i = 0; i < rest.length; i++) {
      const c = rest[i] ?? ""
      const w = codePointWidth(c.codePointAt(0) ?? 0)
      if (w > 0 && used + w > room) break
      const numberAndUnit = wideLine && c === " " && ((numberEndsAt(rest, i - 1) && (wide(rest[i + 1]) || sizeUnitAt(rest, i + 1))) || (wide(rest[i - 1]) && numberStartsAt(rest, i + 1)))
      if (c === " " && i > lead && !command[i] && !numberAndUnit) {
        space = i
        spaceAt = used
        if (command[i + 1] === true) {
          beforeCommand = i
          commandAt = used
        }
      }
      if ((c === "（" || c === "「") && i > lead) {
        beforeOpen = i
        openAt = used
      }
      used += w
      fit = i + 1
      if (c === "、" || c === "，" || c === "," || c === "。") afterComma = i + 1
      if (c === ":" && rest[i + 1] === " " && i + 1 > lead) {
        afterColon = i + 1
        colonAt = used
      }
      if ((c === "-" || c === "_" || c === "/") && ascii(rest[i - 1]) && ascii(rest[i + 1]) && !command[i]) {
        afterPunct = i + 1
        punctAt = used
      }
    }
    if (fit >= rest.length) {
      out.push(prefix + rest.join(""))
      return out
    }
    let breakAt = fit
    let skip = 0
    if (afterComma > 0) {
      breakAt = afterComma
      skip = rest[afterComma] === " " ? 1 : 0
    } else if (beforeOpen > 0 && openAt * 3 >= room) {
      breakAt = beforeOpen
    } else if (beforeCommand > 0 && commandAt * 3 >= room) {
      breakAt = beforeCommand
      skip = 1
    } else if (afterColon > 0 && colonAt * 3 >= room) {
      breakAt = afterColon
      skip = 1
    } else if (space > 0 && spaceAt * 2 >= room) {
      breakAt = space
      skip = 1
    } else if (afterPunct > 0 && punctAt * 2 >= room) {
      breakAt = afterPunct
    } else if (closers.has(rest[fit] ?? "") && fit > lead + 1) breakAt = fit - 1
    // A space where the width fell goes with the cut.
    if (skip === 0 && rest[breakAt] === " ") skip = 1
    out.push(prefix + rest.slice(0, breakAt).join(""))
    rest = rest.slice(breakAt + skip)
    prefix = indent
    if (rest.length === 0) return out
  }
}

// Whether a number (digits, `,` and `.`, not the end of a name such as `trial-w2`) ends at `i` of `cps`.
const numberEndsAt = (cps: ReadonlyArray<string>, i: number): boolean => {
  const c = cps[i]
  if (c === undefined || c < "0" || c > "9") return false
  let j = i
  while (j >= 0 && /[0-9.,]/.test(cps[j] ?? "")) j--
  const before = cps[j]
  return before === undefined || before === " " || before === "(" || before > "~"
}

// Whether a number begins at `i` of `cps` and is not the start of a name (`2024年` yes, `3rd-party` no).
const numberStartsAt = (cps: ReadonlyArray<string>, i: number): boolean => {
  const c = cps[i]
  if (c === undefined || c < "0" || c > "9") return false
  let j = i
  while (j < cps.length && /[0-9.,]/.test(cps[j] ?? "")) j++
  const after = cps[j]
  return after === undefined || after === " " || after === ")" || after > "~"
}

// Whether a size unit (`KB`, `MB`, `B`, …) stands at `i` of `cps`: `14 KB` stays whole.
const sizeUnitAt = (cps: ReadonlyArray<string>, i: number): boolean => /^[KMGT]?B(?![A-Za-z])/.test(cps.slice(i, i + 3).join(""))

/**
 * Text of one or more lines (a message, a block of the run's log) with each
 * line cut by {@link wrapToWidth} for a terminal of `columns` display
 * columns; blank lines stay blank.
 */
export function wrapTextToWidth(text: string, columns: number): string {
  return text.split("\n").flatMap((line) => wrapToWidth(line, columns)).join("\n")
}
