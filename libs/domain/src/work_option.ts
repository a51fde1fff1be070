/**
 * The ` --work DIR` a next-step hint repeats (`次は sagasu index --work DIR で
 * 取り込みます。`), so that the command it suggests runs on the work folder the
 * user named: "" when `work` is the default work folder (both resolved
 * paths). A folder with anything but letters, digits and `_ . / : @ % + = , -`
 * is quoted for the platform's shell (POSIX: single quotes, a `'` as `'\''`;
 * Windows: double quotes).
 *
 * @module
 */

/** ` --work DIR` for a hint, or "" when `work` equals `defaultWork`. */
export function workOptionHint(work: string, defaultWork: string, platform: string = "linux"): string {
  if (work === defaultWork) return ""
  return ` --work ${quoteForShell(work, platform)}`
}

/** `text` as one word of the platform's shell (see {@link workOptionHint}). */
export function quoteForShell(text: string, platform: string = "linux"): string {
  if (/^[\p{L}\p{N}_./:@%+=,\\-]+$/u.test(text) && (platform === "win32" || !text.includes("\\"))) return text
  if (platform === "win32") return `"${text}"`
  return `'${text.replaceAll("'", "'\\''")}'`
}
