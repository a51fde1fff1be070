import { describe, expect, it } from "@effect/vitest"
import { globalOptionsAfterCommand, localUsageError } from "./usage_errors.ts"

describe("globalOptionsAfterCommand()", () => {
  it.each([
    [["--work", "/w", "add", "共有", "/mnt/共有"], ["add", "--work", "/w", "共有", "/mnt/共有"]],
    [["--work=/w", "search", "見積"], ["search", "--work=/w", "見積"]],
    [["--work", "/w", "team", "connect", "postgres://u@h/d"], ["team", "connect", "--work", "/w", "postgres://u@h/d"]],
    [["--work", "/w", "team", "--help"], ["team", "--work", "/w", "--help"]],
    // Left as they are: nothing to move, or no command after it.
    [["add", "--work", "/w", "共有", "/p"], ["add", "--work", "/w", "共有", "/p"]],
    [["--work", "/w"], ["--work", "/w"]],
    [["--work", "/w", "--help"], ["--work", "/w", "--help"]],
    [["--work"], ["--work"]]
  ] as const)("%j -> %j", (args, expected) => {
    expect(globalOptionsAfterCommand(args)).toEqual(expected)
  })
})

describe("localUsageError(): @effect/cli's English usage errors in Japanese, then English", () => {
  // @effect/cli's sentences as it prints them (0.x, ARCHITECTURE.md's versions).
  const commands = "'init', 'add', 'list', 'index', 'search'"
  it.each([
    [
      `Invalid subcommand for sagasu - use one of ${commands}`,
      ["lst"],
      "「lst」というコマンドは sagasu にありません。使えるのは init、add、list、index、search です（sagasu --help）。\n" +
        'Unknown command "lst" for sagasu; the commands are init, add, list, index, search (see sagasu --help).'
    ],
    [
      `Invalid subcommand for sagasu - use one of ${commands}, 'team'`,
      ["team", "conect", "postgres://u@h/d"],
      "「conect」というコマンドは sagasu team にありません。使えるのは connect、grant、revoke です（sagasu team --help）。\n" +
        'Unknown command "conect" for sagasu team; the commands are connect, grant, revoke (see sagasu team --help).'
    ],
    [
      "Missing argument <WORD>\n",
      ["search"],
      "<WORD> を指定してください（sagasu search --help）。\nMissing argument <WORD> (see sagasu search --help)."
    ],
    [
      "Received unknown argument: '--onlyy'",
      ["index", "--onlyy", "x"],
      "「--onlyy」は sagasu index の引数にもオプションにもありません（sagasu index --help）。\n" +
        "--onlyy is neither an argument nor an option of sagasu index (see sagasu index --help)."
    ]
  ] as const)("%j", (text, args, expected) => {
    expect(localUsageError(text, args, { team: ["connect", "grant", "revoke"] })).toBe(expected)
  })

  it("leaves a sentence it does not know to @effect/cli", () => {
    expect(localUsageError("Expected to find option: '--port'", ["gui"])).toBeUndefined()
  })
})
