/**
 * The CLI's `--json` text (search, status, list).
 *
 * @module
 */

/**
 * `value` as indented JSON that a terminal shows as text: JSON escapes
 * C0 controls but writes DEL and the C1 controls (U+0080–U+009F, U+009B is
 * a terminal's CSI) as they are; here they are `\u` escapes too, which
 * parse to the same strings. For every `--json` output of the CLI.
 */
export function jsonForTerminal(value: unknown): string {
  const json = JSON.stringify(value, null, 2)
  return /[\u007f-\u009f]/.test(json) ? json.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) : json
}
