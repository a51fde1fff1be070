import { describe, expect, it } from "vitest"
import { checkSearchArgs, dayStartMs, indexOptionMissingValue, narrowingOptionsText, nonDigitSearchInteger, searchArgsInOrder, searchOptionMissingValue, unknownSearchOption } from "./search_options.ts"

// Issue 14: a wrong --type or --index is a mistake (exit 1, the valid choices named), not "nothing found".
describe("checkSearchArgs() (issue 14: filters that tell mistakes apart)", () => {
  const base = { limit: 20, offset: 0, type: [] as ReadonlyArray<string>, index: [] }

  it("takes the groups, the legacy kinds and any case or leading dot; a repeated --index once", () => {
    expect(checkSearchArgs({ ...base, type: ["xls"] }, [])).toEqual({ _tag: "Ok", options: { limit: 20, offset: 0, type: ["xls"] } })
    expect(checkSearchArgs({ ...base, type: [".DOC"] }, [])).toMatchObject({ _tag: "Ok", options: { type: ["doc"] } })
    expect(checkSearchArgs({ ...base, type: ["legacy"] }, [])).toMatchObject({ _tag: "Ok", options: { type: ["xls", "xlt", "xlsb", "doc", "dot", "ppt", "pps", "pot"] } })
    expect(checkSearchArgs({ ...base, index: ["共有", "ｻﾝﾌﾟﾙ", "共有"] }, ["共有", "サンプル"])).toMatchObject({ _tag: "Ok", options: { index: ["共有", "ｻﾝﾌﾟﾙ"] } })
  })

  it("names the valid choices of a wrong --type or --index, Japanese first, English second", () => {
    const type = checkSearchArgs({ ...base, type: ["foo"] }, [])
    expect(type._tag).toBe("Usage")
    const [ja, en] = type._tag === "Usage" ? type.message.split("\n") : []
    expect(ja).toMatch(/^--type "foo" という種類はありません。使えるのは excel、word、powerpoint、legacy か、拡張子 doc、.*xlsb.*です。$/)
    expect(en).toMatch(/^Unknown --type "foo": use one of excel, word, powerpoint, legacy or an extension: doc, .*xlsb.*\.$/)
    expect(checkSearchArgs({ ...base, index: ["共有", "nope"] }, ["共有", "経理"])).toEqual({
      _tag: "Usage",
      message: "インデックス「nope」はありません。登録されているのは「共有」「経理」です。\nNo index \"nope\": the registered indexes are \"共有\", \"経理\"."
    })
    expect(checkSearchArgs({ ...base, index: ["x"] }, [])).toMatchObject({ _tag: "Usage", message: expect.stringContaining("sagasu add NAME PATH") })
  })

  it("a repeated --type passes a file of any of them; a wrong one among them is the mistake", () => {
    expect(checkSearchArgs({ ...base, type: ["xlsx", "docx", "XLSX"] }, [])).toMatchObject({ _tag: "Ok", options: { type: ["xlsx", "docx"] } })
    expect(checkSearchArgs({ ...base, type: ["word", "doc"] }, [])).toMatchObject({ _tag: "Ok", options: { type: ["docx", "docm", "dotx", "dotm", "doc", "dot", "odt", "ott", "fodt", "rtf"] } })
    const wrong = checkSearchArgs({ ...base, type: ["xlsx", "foo"] }, [])
    expect(wrong._tag === "Usage" ? wrong.message : "").toContain('--type "foo"')
  })

  it("names the options that narrowed a search, as given, for the nothing-found message", () => {
    expect(narrowingOptionsText(base)).toBe("")
    expect(narrowingOptionsText({ ...base, type: ["xlsx", "word"], index: ["共有"], folder: "見積/2024", since: "2030-01-01", sort: "modified" })).toBe(
      "--type xlsx --type word --index 共有 --folder 見積/2024 --since 2030-01-01"
    )
  })

  it("a --limit or --offset not written in digits is found before @effect/cli reads it as a number", () => {
    expect(nonDigitSearchInteger(["見積", "--limit", "0x10"])).toEqual(["--limit", "0x10"])
    expect(nonDigitSearchInteger(["--offset=1e2", "見積"])).toEqual(["--offset", "1e2"])
    expect(nonDigitSearchInteger(["--limit", " 3", "見積"])).toEqual(["--limit", " 3"])
    expect(nonDigitSearchInteger(["--limit", "30", "--offset=0", "見積"])).toBeUndefined()
    expect(nonDigitSearchInteger(["見積", "--", "--limit", "x"])).toBeUndefined()
  })

  it("refuses a --limit below 1 and an --offset below 0", () => {
    expect(checkSearchArgs({ ...base, limit: 0 }, [])._tag).toBe("Usage")
    expect(checkSearchArgs({ ...base, offset: -1 }, [])._tag).toBe("Usage")
    expect(checkSearchArgs({ ...base, offset: 40 }, [])._tag).toBe("Ok")
  })

  it("issue 14: --sort, --folder, --since and --until become the store's order and filters; a wrong one is a mistake", () => {
    expect(checkSearchArgs({ ...base, sort: "modified", folder: "\\見積\\2024\\", since: "2024-04-01", until: "2024/6/30" }, [])).toEqual({
      _tag: "Ok",
      options: { limit: 20, offset: 0, sort: "modified", folder: "見積/2024", modifiedFrom: new Date(2024, 3, 1).getTime(), modifiedTo: new Date(2024, 6, 1).getTime() }
    })
    expect(checkSearchArgs({ ...base, sort: "relevance", folder: "/" }, [])).toEqual({ _tag: "Ok", options: { limit: 20, offset: 0 } })
    expect(checkSearchArgs({ ...base, sort: "date" }, [])).toEqual({
      _tag: "Usage",
      message: "--sort には relevance（関連度順）か modified（新しい順）を指定してください（指定: date）。\n--sort must be relevance or modified (got date)."
    })
    expect(checkSearchArgs({ ...base, since: "2024-02-30" }, [])).toMatchObject({ _tag: "Usage", message: expect.stringMatching(/^--since には 2024-04-01 や 2024\/4\/1 のような日付/) })
    expect(checkSearchArgs({ ...base, until: "yesterday" }, [])).toMatchObject({ _tag: "Usage", message: expect.stringMatching(/^--until には/) })
  })

  it.each([
    ["2024-04-01", new Date(2024, 3, 1).getTime()],
    ["2024/4/1", new Date(2024, 3, 1).getTime()],
    ["2024年4月1日", new Date(2024, 3, 1).getTime()],
    ["2024-02-29", new Date(2024, 1, 29).getTime()],
    ["2023-02-29", undefined],
    ["2024-4", undefined],
    ["", undefined]
  ] as const)("dayStartMs(%j) = %j", (text, ms) => {
    expect(dayStartMs(text)).toBe(ms)
  })

  it.each([
    [["テスト", "--limt", "5"], "--limt"],
    [["--bogus", "テスト"], "--bogus"],
    [["テスト", "--limit", "5", "--json", "--index=共有", "--log-level", "info"], undefined],
    [["見積", "-テンプレート"], undefined],
    [["--", "--limt", "テスト"], undefined],
    [["テスト", "--"], undefined]
  ] as const)("unknownSearchOption(%j) = %j (issue 14: a mistyped option is not a word of the query)", (args, found) => {
    expect(unknownSearchOption(args)).toBe(found)
  })

  it.each([
    [["見積", "--limit"], "--limit"],
    [["見積", "--limit", "--json"], "--limit"],
    [["--type", "--files", "見積"], "--type"],
    [["見積", "--limit", "5", "--index", "共有", "--json"], undefined],
    [["見積", "--limit=5", "--since=2024-04-01"], undefined],
    [["見積", "--json", "--files", "--context"], undefined],
    [["見積", "--index", "-テンプレート"], undefined],
    [["--", "見積", "--limit"], undefined]
  ] as const)("searchOptionMissingValue(%j) = %j (an option left without its value is not a word of the query)", (args, found) => {
    expect(searchOptionMissingValue(args)).toBe(found)
  })
})

describe("searchArgsInOrder() (S3: a first word that starts with - and options after it)", () => {
  it.each([
    // The new-user report: the exclusion first swallowed --json and --work as words.
    [["-hello", "world", "--json", "--work", "W"], ["--json", "--work", "W", "--", "-hello", "world"]],
    [["見積", "-テンプレート", "--limit", "5", "--index=共有"], ["--limit", "5", "--index", "共有", "--", "見積", "-テンプレート"]],
    // An option given twice counts once, its last value (as on the cold path); --index and --type keep each value.
    [["見積", "--limit", "2", "--json", "--limit=5", "--json"], ["--limit", "5", "--json", "--", "見積"]],
    [["--work", "A", "見積", "--work", "B", "--index", "共有", "--index=経理"], ["--work", "B", "--index", "共有", "--index", "経理", "--", "見積"]],
    // --type likewise keeps each: a file of any of them passes.
    [["見積", "--type", "xlsx", "--type=docx"], ["--type", "xlsx", "--type", "docx", "--", "見積"]],
    // Help and version first, where they are answered (`見積 --json --help` printed the help before).
    [["見積", "--json", "--help"], ["--help", "--json", "--", "見積"]],
    // After a bare --, everything is a word, as the README says.
    [["--files", "--", "-対象外", "--json"], ["--files", "--", "-対象外", "--json"]],
    // A mistyped option stays an option (its message), an option without its value keeps its place before the words.
    [["見積", "--limt", "5"], ["--limt", "--", "見積", "5"]],
    [["見積", "--limit", "--json"], ["--limit", "--json", "--", "見積"]],
    [["--limit", "-5", "見積"], ["--limit", "-5", "--", "見積"]],
    [["-h"], ["-h"]],
    [["--help", "見積"], ["--help", "--", "見積"]],
    [["-", "見積"], ["--", "-", "見積"]]
  ] as const)("searchArgsInOrder(%j) = %j", (args, ordered) => {
    expect(searchArgsInOrder(args)).toEqual(ordered)
  })

  it("leaves the checks of mistakes as they were", () => {
    expect(unknownSearchOption(searchArgsInOrder(["-x", "見積", "--limt"]))).toBe("--limt")
    expect(searchOptionMissingValue(searchArgsInOrder(["-x", "見積", "--limit"]))).toBe("--limit")
  })
})

describe("indexOptionMissingValue() (sagasu index --only without a name)", () => {
  it.each([
    [["--yes", "--only"], "--only"],
    [["--only", "--yes"], "--only"],
    [["--only", "共有", "--yes"], undefined],
    [["--only=共有"], undefined],
    [["--yes", "--quiet"], undefined]
  ] as const)("%j -> %j", (args, found) => {
    expect(indexOptionMissingValue(args)).toBe(found)
  })
})
