/**
 * The help fitted to a terminal (issue 16: `sagasu --help` came padded to
 * ≈200 columns by @effect/cli, which aligns every command's description
 * after the longest usage line): pure functions over the help text that
 * @effect/cli renders, widths in display columns (Japanese takes two).
 *
 * @module
 */
import { codePointWidth, displayWidth } from "@sagasu/domain"

const ansi = /\x1b\[[0-9;]*m/g

/** The widest a help line may be for a terminal of `columns` (the last column left free: no terminal wraps it). */
export const helpWidth = (columns: number | undefined) => Math.max(40, Math.min(columns ?? 80, 80) - 1)

// Japanese line breaking (JIS X 4051's kinsoku, the common subset): no line starts with a closing
// bracket, a comma or stop, a small kana or the long-vowel mark, and none ends with an opening bracket.
const noLineStart = new Set([..."、。，．・：；？！）」』】〕〉》］｝〟’”ゝゞヽヾーぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々〜…‥", ...")]},.:;!?%"])
const noLineEnd = new Set([..."（「『【〔〈《［｛〝‘“", ..."([{"])

/**
 * `text` cut into lines of at most `width` display columns: at a space (the
 * spaces of the part that fits are kept as they are: an alignment stays), or
 * between two characters one of which is wide — Japanese has no spaces
 * between its words — except before a closing bracket or a stop and after
 * an opening bracket (kinsoku); an ASCII word is never cut. Each line after
 * the first starts with `indent`. A word wider than the line stands alone on
 * its line.
 */
export function wrapWords(text: string, width: number, indent: string): ReadonlyArray<string> {
  const lines: Array<string> = []
  let rest = text
  let prefix = ""
  for (;;) {
    const line = prefix + rest
    if (displayWidth(line) <= width) {
      lines.push(line)
      return lines
    }
    // The last break (past the line's own leading spaces) where what comes before it still fits; else the first.
    const lead = /^ */.exec(line)?.[0].length ?? 0
    let cut = -1
    let first = -1
    let used = 0
    let previous = ""
    let at = 0
    for (const c of line) {
      const w = codePointWidth(c.codePointAt(0) ?? 0)
      if (at > lead && breaksBefore(previous, c, w)) {
        if (used <= width) cut = at
        else if (first < 0) first = at
      }
      if (used > width && first >= 0) break
      used += w
      at += c.length
      previous = c
    }
    if (cut < 0) cut = first
    if (cut < 0) {
      lines.push(line)
      return lines
    }
    lines.push(line.slice(0, cut).trimEnd())
    rest = line.slice(cut).trimStart()
    prefix = indent
  }
}

// May a line break between `previous` and `c` (`w` columns)? At the first of a run of spaces, or beside a
// wide character — not between a letter or digit and the Japanese written against it (2009年9月4日,
// 設定はsetting.configに), unless a stop or a bracket stands between them (、teamServer, PASSWORD（).
function breaksBefore(previous: string, c: string, w: number): boolean {
  if (previous === " ") return false
  if (c === " ") return true
  const before = codePointWidth(previous.codePointAt(0) ?? 0)
  if (w === 0 || (before !== 2 && w !== 2)) return false
  if (noLineStart.has(c) || noLineEnd.has(previous)) return false
  return (!asciiWord.test(previous) && !asciiWord.test(c)) || noLineStart.has(previous) || noLineEnd.has(c)
}

const asciiWord = /^[A-Za-z0-9]$/

/**
 * Examples as `command  what it does`, the second column aligned in display
 * columns; a command too wide for the column (more than `maxColumn`, or the
 * row past `width`) has what it does on the next line, indented four.
 */
export function exampleRows(rows: ReadonlyArray<readonly [string, string]>, width: number, maxColumn = 40): ReadonlyArray<string> {
  const narrow = rows.filter(([c, what]) => what !== "" && displayWidth(c) <= maxColumn)
  const column = Math.max(0, ...narrow.map(([c]) => displayWidth(c)))
  return rows.flatMap(([c, what]) => {
    if (what === "") return [c]
    const aligned = `${c}${" ".repeat(Math.max(0, column - displayWidth(c)))}  `
    if (displayWidth(c) <= column && displayWidth(aligned + what) <= width) return [aligned + what]
    if (displayWidth(c) <= column) return wrapWords(aligned + what, width, " ".repeat(column + 2))
    return [c, ...wrapWords(`    ${what}`, width, "    ")]
  })
}

/** Options of {@link fitHelp}. */
export interface FitHelpOptions {
  /** The rows of the COMMANDS section (`name`, what it does), for the help that has one. */
  readonly commands?: ReadonlyArray<readonly [string, string]>
  /** @effect/cli's section headings in the help's language, by their English names (`USAGE` → `使い方`). */
  readonly headings?: Readonly<Record<string, string>>
}

/**
 * The help `text` fitted to `width` display columns: the COMMANDS section
 * replaced by `commands` (one row each, wrapped under its description; the
 * section ends at the next line that starts at the margin), every other line
 * wider than `width` cut (`wrapWords`) — its continuation indented like the
 * line, a usage line's (`$ sagasu …`) four more and never inside one of its
 * `[options]` —, and the section headings
 * named in `headings` said in the help's language. A line cut this way loses
 * its terminal styles.
 */
export function fitHelp(text: string, width: number, options: FitHelpOptions = {}): string {
  const lines = text.split("\n")
  const commands = options.commands ?? []
  const at = lines.findIndex((l) => l.replace(ansi, "") === "COMMANDS")
  if (at >= 0 && commands.length > 0) {
    const end = lines.findIndex((l, i) => i > at && /^\S/.test(l.replace(ansi, "")))
    const column = Math.max(...commands.map(([name]) => displayWidth(name)))
    const rows = commands.flatMap(([name, what]) =>
      wrapWords(`  ${name}${" ".repeat(column - displayWidth(name))}  ${what}`, width, " ".repeat(column + 4))
    )
    lines.splice(at + 1, (end < 0 ? lines.length : end) - at - 1, "", ...rows, "")
  }
  const headings = options.headings ?? {}
  return lines
    .flatMap((line) => {
      const bare = line.replace(ansi, "")
      const heading = headings[bare]
      if (heading !== undefined) return [line.replace(bare, heading)]
      if (displayWidth(bare) <= width) return [line]
      const indent = /^\s*/.exec(bare)?.[0] ?? ""
      if (!bare.slice(indent.length).startsWith("$ ")) return wrapWords(bare.trimEnd(), width, indent)
      // A usage line is cut between its options, never inside one (`[--folder text]` stays whole).
      const held = bare.trimEnd().replace(/\[[^\]]*\]|<[^>]*>/g, (option) => option.replaceAll(" ", "\u00a0"))
      return wrapWords(held, width, `${indent}    `).map((l) => l.replaceAll("\u00a0", " "))
    })
    .join("\n")
}
