import { describe, expect, it } from "@effect/vitest"
import { globalOptionsAfterCommand, searchArgsInOrder } from "./search_options.ts"
import { localUsageError } from "./usage_errors.ts"

describe("globalOptionsAfterCommand()", () => {
  it.each([
    [["--work", "/w", "add", "共有", "/mnt/共有"], ["add", "共有", "/mnt/共有", "--work", "/w"]],
    // A search orders its options itself, the last of a repeated one winning: a --work after the command wins.
    [["--work=/w", "search", "見積"], ["search", "--work=/w", "見積"]],
    [["--work", "/a", "search", "見積", "--work", "/b"], ["search", "--work", "/a", "見積", "--work", "/b"]],
    [["--work", "/w", "team", "connect", "postgres://u@h/d"], ["team", "connect", "postgres://u@h/d", "--work", "/w"]],
    // A --help after another option is not help to @effect/cli: it must stay before --work.
    [["--work", "/w", "list", "--help"], ["list", "--help", "--work", "/w"]],
    [["--work", "/w", "--help"], ["--help", "--work", "/w"]],
    // After `--` everything is a search word.
    [["--work", "/w", "search", "--", "--limit"], ["search", "--work", "/w", "--", "--limit"]],
    // Left as they are: nothing to move, or nothing after it.
    [["add", "--work", "/w", "共有", "/p"], ["add", "--work", "/w", "共有", "/p"]],
    [["--work", "/w"], ["--work", "/w"]],
    [["--work"], ["--work"]]
  ] as const)("%j -> %j", (args, expected) => {
    expect(globalOptionsAfterCommand(args)).toEqual(expected)
  })

  it("a search reads the --work written last, before the command or after it (the README: the last value counts)", () => {
    const searched = (args: ReadonlyArray<string>) => searchArgsInOrder(globalOptionsAfterCommand(args).slice(1))
    expect(searched(["--work", "/a", "search", "見積", "--work", "/b"])).toEqual(["--work", "/b", "--", "見積"])
    expect(searched(["search", "見積", "--work", "/a", "--work", "/b"])).toEqual(["--work", "/b", "--", "見積"])
    expect(searched(["--work=/a", "search", "-x", "見積"])).toEqual(["--work", "/a", "--", "-x", "見積"])
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

  it.each([
    ["Received unknown argument: '--work'", ["list", "--work"], "--work の後に作業フォルダを、その後にコマンドを書きます（例: sagasu --work ~/sagasu list）。"],
    ["Received unknown argument: '--work'", ["list", "--work", "/b", "--work", "/a"], "--work は一度だけ書きます（作業フォルダは一つです）。"],
    [`Invalid subcommand for sagasu - use one of ${commands}`, ["--work", "/w"], "--work の後に作業フォルダを、その後にコマンドを書きます（例: sagasu --work ~/sagasu list）。"],
    [`Invalid subcommand for sagasu - use one of ${commands}`, ["--bogus"], "「--bogus」は sagasu の引数にもオプションにもありません（sagasu --help）。"]
  ] as const)("%j with %j: the first line", (text, args, expected) => {
    expect(localUsageError(text, args)?.split("\n")[0]).toBe(expected)
  })

  it.each([
    [["search", "見積", "--limit", "abc"], "abc", "--limit には 1 以上の整数を指定してください（指定: abc）。\n--limit must be a whole number of 1 or more (got abc)."],
    [["search", "見積", "--offset=1.5"], "1.5", "--offset には 0 以上の整数を指定してください（指定: 1.5）。\n--offset must be a whole number of 0 or more (got 1.5)."],
    [["gui", "--port", "http"], "http", "--port には 1 から 65535 までの数を指定してください。\n--port must be a number from 1 to 65535."]
  ] as const)("a value that is not a whole number for an option of %j is said with the option's own message", (args, value, expected) => {
    expect(localUsageError(`'${value}' is not a integer`, args)).toBe(expected)
  })

  it("leaves a sentence it does not know to @effect/cli", () => {
    expect(localUsageError("Expected to find option: '--port'", ["gui"])).toBeUndefined()
  })
})
