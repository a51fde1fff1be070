/**
 * How the `sagasu` command starts Node, read from the first line of its bin
 * script (`#!/usr/bin/env -S VAR=value … node --option …`), so that a
 * benchmark that runs `node <bin>` to time it, profile it or pick the Node
 * that runs it still runs it as a user's `sagasu` does: with the same
 * variables and Node options (the first line's memory settings,
 * ARCHITECTURE.md "Memory of a run").
 *
 * @module
 */
import * as fs from "node:fs"

/** The variables and Node options the bin's first line sets. */
export interface Launch {
  /** Variables set before Node starts (`MALLOC_ARENA_MAX` → `"2"`). */
  readonly env: Readonly<Record<string, string>>
  /** Node's own options, in order, before the script. */
  readonly nodeArgs: ReadonlyArray<string>
}

/**
 * The launch of a `#!` line: `#!/usr/bin/env -S A=1 node --x` → `{ env: { A: "1" }, nodeArgs: ["--x"] }`;
 * `#!/usr/bin/env node` → nothing set. Fails on a line that does not start Node.
 */
export function parseLaunchLine(line: string): Launch {
  const words = line.replace(/^#!\s*/, "").trim().split(/\s+/)
  const rest = words[0] === "/usr/bin/env" ? words.slice(words[1] === "-S" ? 2 : 1) : words
  const env: Record<string, string> = {}
  let i = 0
  for (; i < rest.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[i]!); i++) {
    const word = rest[i]!
    env[word.slice(0, word.indexOf("="))] = word.slice(word.indexOf("=") + 1)
  }
  if (!/(^|\/)node$/.test(rest[i] ?? "")) throw new Error(`not a line that starts Node: ${line}`)
  return { env, nodeArgs: rest.slice(i + 1) }
}

/** The launch of the bin script at `bin` (its first line). */
export function sagasuLaunch(bin: string): Launch {
  const text = fs.readFileSync(bin, "utf8")
  return parseLaunchLine(text.slice(0, text.indexOf("\n")))
}

/**
 * `sagasu <args>` run with this process's Node (`process.execPath`), the
 * bin's variables and Node options, then `extraNodeArgs` (a profiler's),
 * over `env` (default: this process's variables).
 */
export function sagasuCommand(
  bin: string,
  args: ReadonlyArray<string>,
  opts: { extraNodeArgs?: ReadonlyArray<string>; env?: NodeJS.ProcessEnv } = {}
): { command: string; args: Array<string>; env: NodeJS.ProcessEnv } {
  const launch = sagasuLaunch(bin)
  return {
    command: process.execPath,
    args: [...launch.nodeArgs, ...(opts.extraNodeArgs ?? []), bin, ...args],
    env: { ...(opts.env ?? process.env), ...launch.env }
  }
}
