/**
 * The help fitted to a terminal (issue 16: `sagasu --help` came padded to
 * ≈200 columns by @effect/cli, which aligns every command's description
 * after the longest usage line): pure functions over the help text that
 * @effect/cli renders, widths in display columns (Japanese takes two).
 *
 * @module
 */
import { displayWidth } from "@sagasu/domain"

const ansi = /\x1b\[[0-9;]*m/g

/** The widest a help line may be for a terminal of `columns` (the last column left free: no terminal wraps it). */
export const helpWidth = (columns: number | undefined) => Math.max(40, Math.min(columns ?? 80, 80) - 1)

/**
 * `text` cut at spaces into lines of at most `width` display columns (the
 * spaces of the part that fits are kept as they are: an alignment stays);
 * each line after the first starts with `indent`. A word wider than the
 * line stands alone on its line.
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
    // The last space (past the line's own leading spaces) where the line still fits.
    const lead = /^ */.exec(line)?.[0].length ?? 0
    let cut = -1
    let used = 0
    for (let i = 0; i < line.length && used <= width; i++) {
      // A space where what comes before it (`used` columns) fits.
      if (line[i] === " " && i > lead && line[i - 1] !== " ") cut = i
      used += displayWidth(line[i] ?? "")
    }
    if (cut < 0) cut = line.indexOf(" ", lead)
    if (cut < 0) {
      lines.push(line)
      return lines
    }
    lines.push(line.slice(0, cut).trimEnd())
    rest = line.slice(cut).trimStart()
    prefix = indent
  }
}

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

// A section heading of @effect/cli's help: capitals on a line of their own (styles around them on a terminal).
const heading = /^(?:\x1b\[[0-9;]*m)*[A-Z][A-Z ]+(?:\x1b\[[0-9;]*m)*$/

/**
 * The help `text` fitted to `width` display columns: the COMMANDS section of
 * the top-level help replaced by `commands` (`name`, what it does: one row
 * each, wrapped under its description), and every other line wider than
 * `width` cut at spaces — its continuation indented like the line, a usage
 * line's (`$ sagasu …`) four more. A line cut this way loses its terminal
 * styles.
 */
export function fitHelp(text: string, width: number, commands: ReadonlyArray<readonly [string, string]> = []): string {
  const lines = text.split("\n")
  const at = lines.findIndex((l) => l.replace(ansi, "") === "COMMANDS")
  if (at >= 0 && commands.length > 0) {
    const end = lines.findIndex((l, i) => i > at && heading.test(l))
    const column = Math.max(...commands.map(([name]) => displayWidth(name)))
    const rows = commands.flatMap(([name, what]) =>
      wrapWords(`  ${name}${" ".repeat(column - displayWidth(name))}  ${what}`, width, " ".repeat(column + 4))
    )
    lines.splice(at + 1, (end < 0 ? lines.length : end) - at - 1, "", ...rows, "")
  }
  return lines
    .flatMap((line) => {
      const bare = line.replace(ansi, "")
      if (displayWidth(bare) <= width) return [line]
      const indent = /^\s*/.exec(bare)?.[0] ?? ""
      return wrapWords(bare.trimEnd(), width, bare.slice(indent.length).startsWith("$ ") ? `${indent}    ` : indent)
    })
    .join("\n")
}
