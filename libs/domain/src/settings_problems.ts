/**
 * What is wrong with a settings file, one line per problem (SPEC §5
 * `setting.config`; issue 16: never a Schema dump): the JSON path of each
 * wrong field and what it should hold, Japanese then English, and for a file
 * that is not JSON the line and column with a hint for the two mistakes
 * people make by hand — a Windows path's single `\` and a comma after the
 * last item.
 *
 * @module
 */

/** One problem as Effect Schema's ArrayFormatter reports it: the field's path and the message. */
export interface SchemaIssue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

/** A path as JSON readers write it: `targetFolders[0].path`. */
export function jsonPathText(path: ReadonlyArray<PropertyKey>): string {
  let out = ""
  for (const key of path) out += typeof key === "number" ? `[${key}]` : out === "" ? String(key) : `.${String(key)}`
  return out === "" ? "(全体 / the whole file)" : out
}

const expected = /^Expected (.+), actual (.+)$/s

const japaneseFor = (want: ReadonlyArray<string>): string => {
  if (want.length === 1 && want[0] === "string") return "文字列（\"…\"）を書いてください"
  if (want.length === 1 && want[0] === "number") return "数を書いてください"
  if (want.length === 1 && want[0] === "boolean") return "true か false を書いてください"
  if (want.every((w) => w.startsWith("\""))) return `${want.join(" か ")} のどれかを書いてください`
  if (want.length === 1 && /^ReadonlyArray</.test(want[0] ?? "")) return "[ … ] の並び（配列）を書いてください"
  if (want.length === 1 && /Struct|^\{/.test(want[0] ?? "")) return "{ … } の形（オブジェクト）を書いてください"
  return "値の形が違います"
}

// The Schema's own words for a kind of value, as a person reads them.
const englishFor = (want: string): string =>
  /^ReadonlyArray</.test(want) ? "a list [ … ]" : /Struct|^\{/.test(want) ? "an object { … }" : want

/**
 * The lines of the problems `issues` of one settings file: one per field,
 * `targetFolders[0].path: 文字列（"…"）を書いてください（今は 5） / Expected
 * string, actual 5`. The alternatives of one field are joined (`"skip" or
 * "download"`); "Expected undefined" (the field may be left out) is said
 * only when nothing else is said of that field or inside it.
 */
export function settingsProblemLines(issues: ReadonlyArray<SchemaIssue>): ReadonlyArray<string> {
  const byPath = new Map<string, { wants: Array<string>; actual: string | undefined; others: Array<string> }>()
  const order: Array<string> = []
  for (const issue of issues) {
    const key = jsonPathText(issue.path)
    let entry = byPath.get(key)
    if (entry === undefined) {
      entry = { wants: [], actual: undefined, others: [] }
      byPath.set(key, entry)
      order.push(key)
    }
    const m = expected.exec(issue.message)
    if (m !== null) {
      const want = m[1] ?? ""
      if (!entry.wants.includes(want)) entry.wants.push(want)
      entry.actual = m[2]
    } else if (!entry.others.includes(issue.message)) {
      entry.others.push(issue.message)
    }
  }
  const lines: Array<string> = []
  for (const key of order) {
    const entry = byPath.get(key)!
    const said = (k: string) => {
      const e = byPath.get(k)!
      return e.others.length > 0 || e.wants.some((w) => w !== "undefined")
    }
    const deeper = order.some((k) => k !== key && (k.startsWith(`${key}.`) || k.startsWith(`${key}[`)) && said(k))
    const wants = entry.wants.filter((w) => w !== "undefined")
    for (const other of entry.others) lines.push(`${key}: ${other}`)
    if (wants.length > 0) {
      lines.push(`${key}: ${japaneseFor(wants)}（今は ${entry.actual}） / Expected ${wants.map(englishFor).join(" or ")}, actual ${entry.actual}`)
    } else if (entry.wants.includes("undefined") && entry.others.length === 0 && !deeper) {
      lines.push(`${key}: この項目は書けません（今は ${entry.actual}） / Expected no value here, actual ${entry.actual}`)
    }
  }
  return lines
}

/**
 * The line of a settings file that is not JSON: where (line and column of
 * the parser's position) and, for a single `\` (Windows paths) or a comma
 * before `]`/`}`, what to do. `message` is JSON.parse's, `text` the file.
 */
export function settingsSyntaxLine(message: string, text: string): string {
  const at = /at position (\d+)/.exec(message)
  // Node names no position for some unexpected tokens: a `]` or `}` after a comma is found in the text.
  const trailing = /Unexpected token '[\]}]'/.test(message) ? /,\s*[\]}]/.exec(text) : null
  let position = at !== null ? Number(at[1]) : trailing !== null ? trailing.index + trailing[0].length - 1 : undefined
  // A bad escape is reported at the character after the backslash: point at the backslash itself.
  if (position !== undefined && /Bad escaped/.test(message) && text.charAt(position - 1) === "\\") position--
  let where = ""
  if (position !== undefined) {
    const before = text.slice(0, position)
    const line = before.split("\n").length
    const column = position - before.lastIndexOf("\n")
    where = `${line} 行 ${column} 文字目 / line ${line}, column ${column}: `
  }
  const cause = message.replace(/ in JSON at position \d+.*$/s, "").replace(/, ".*" is not valid JSON$/s, "").replace(/\s+\(line \d+ column \d+\)$/, "")
  // Node says "Unexpected end" or points past the last character when the file stops early.
  const atEnd = /at position (\d+)/.exec(message)
  if (/Unexpected end of JSON input/.test(message) || (atEnd !== null && Number(atEnd[1]) >= text.trimEnd().length)) {
    return text.trim() === ""
      ? "ファイルが空です。消して sagasu init で作り直すか、{ } から書いてください / The file is empty: delete it and run sagasu init, or write its settings in { }."
      : "ファイルが途中で終わっています（閉じる } や ] が足りません） / The file ends too early (a closing } or ] is missing)."
  }
  if (/Bad (escaped|control) character|Bad Unicode escape/.test(message)) {
    return `${where}${cause}。Windows のパスの \\ は \\\\ と二つ重ねるか / に変えてください（"C:\\\\Users\\\\…" または "C:/Users/…"） / In JSON a Windows path's \\ is written \\\\ (or use /).`
  }
  if (position !== undefined && /^\s*[\]}]/.test(text.slice(position)) && /,\s*$/.test(text.slice(0, position))) {
    return `${where}${cause}。最後の項目の後ろの「,」を消してください / Remove the comma after the last item.`
  }
  return `${where}${cause}`
}
