/**
 * The command line of a benchmark script: `--name value` options and
 * `--name` flags, read the same way by every script in `bench/`.
 *
 * @module
 */

/** The value after `--<name>` in `argv` (default: this process's arguments), or `fallback` when absent. */
export function opt(name: string, fallback: string, argv: ReadonlyArray<string> = process.argv.slice(2)): string {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? (argv[i + 1] ?? fallback) : fallback
}

/** Whether `--<name>` is in `argv` (default: this process's arguments). */
export function flag(name: string, argv: ReadonlyArray<string> = process.argv.slice(2)): boolean {
  return argv.includes(`--${name}`)
}
