/**
 * Table tests of index management's decisions (issue 16): folder overlap
 * (equal, inside, containing, neighbours with a common prefix, trailing
 * separators, case per platform), name checks, and each edit's outcome.
 */
import { Either } from "effect"
import { describe, expect, it } from "vitest"
import {
  type IndexEdit,
  type IndexEditContext,
  type PathStyle,
  IndexRefusal,
  checkIndexName,
  decideIndexEdit,
  findFolderOverlap,
  folderRelation,
  folderSegments
} from "./index_admin.ts"
import { messages } from "./messages.ts"

describe("folderRelation() (issue 16: a folder equal to, inside or containing another)", () => {
  it.each<[string, string, PathStyle, string | undefined]>([
    ["/a/b", "/a/b", "posix", "same"],
    ["/a/b/", "/a/b", "posix", "same"],
    ["/a/b", "/a/b///", "posix", "same"],
    ["/a/./b", "/a/b", "posix", "same"],
    ["/a/c/../b", "/a/b", "posix", "same"],
    ["/a/b/c", "/a/b", "posix", "inside"],
    ["/a/b/c/d", "/a/b/", "posix", "inside"],
    ["/a", "/a/b", "posix", "contains"],
    ["/", "/a/b", "posix", "contains"],
    ["/a/bc", "/a/b", "posix", undefined],
    ["/a/b", "/a/bc", "posix", undefined],
    ["/a/b-2", "/a/b", "posix", undefined],
    ["/x/b", "/a/b", "posix", undefined],
    // Case: Linux folders differ by case; macOS and Windows do not.
    ["/A/B", "/a/b", "posix", undefined],
    ["/A/B", "/a/b", "darwin", "same"],
    ["/A/B/c", "/a/b", "darwin", "inside"],
    ["C:\\Share\\営業", "c:\\share\\営業", "win32", "same"],
    ["C:\\Share\\営業\\", "C:/Share/営業", "win32", "same"],
    ["C:\\Share\\営業\\2024", "C:\\share", "win32", "inside"],
    ["C:\\Share", "C:\\Share\\営業", "win32", "contains"],
    ["C:\\Share\\営業2", "C:\\Share\\営業", "win32", undefined],
    ["D:\\Share", "C:\\Share", "win32", undefined],
    ["\\\\server\\share\\a", "\\\\SERVER\\share", "win32", "inside"],
    ["\\\\server\\share", "C:\\share", "win32", undefined],
    // Japanese names: NFD (as macOS hands them) is the same folder there, another on Linux.
    ["/共有/ガイド", "/共有/ガイド".normalize("NFD"), "darwin", "same"],
    ["/共有/ガイド", "/共有/ガイド".normalize("NFD"), "posix", undefined]
  ])("%s vs %s (%s) → %s", (candidate, other, style, expected) => {
    expect(folderRelation(candidate, other, style)).toBe(expected)
  })

  it("never goes above the root, a drive or a share", () => {
    expect(folderSegments("/../a", "posix")).toEqual(["a"])
    expect(folderSegments("C:\\..\\a", "win32")).toEqual(["c:", "a"])
    expect(folderSegments("\\\\srv\\share\\..\\a", "win32")).toEqual(["\\\\", "srv", "share", "a"])
  })
})

describe("findFolderOverlap()", () => {
  const others = [
    { name: "共有", path: "/mnt/share/営業" },
    { name: "報告書", path: "/home/me/報告書", realPath: "/data/報告書" }
  ]
  it.each([
    [{ path: "/mnt/share/営業/" }, { index: "共有", path: "/mnt/share/営業", relation: "same" }],
    [{ path: "/mnt/share" }, { index: "共有", path: "/mnt/share/営業", relation: "contains" }],
    [{ path: "/mnt/share/営業部" }, undefined],
    // A link to a registered folder is that folder: compared by the real paths too.
    [{ path: "/home/me/link", realPath: "/data/報告書/2024" }, { index: "報告書", path: "/home/me/報告書", relation: "inside" }],
    [{ path: "/data/報告書" }, { index: "報告書", path: "/home/me/報告書", relation: "same" }],
    [{ path: "/data/報告書2", realPath: "/data/報告書2" }, undefined]
  ])("%j → %j", (candidate, expected) => {
    expect(findFolderOverlap(candidate, others, "posix")).toEqual(expected)
  })
})

describe("checkIndexName() (the settings' IndexName rule)", () => {
  it.each([
    ["共有", Either.right("共有")],
    ["営業 2024", Either.right("営業 2024")],
    ["", Either.left(IndexRefusal.NameEmpty())],
    [" 共有", Either.left(IndexRefusal.NameSpaces())],
    ["x".repeat(101), Either.left(IndexRefusal.NameTooLong())],
    ["営業/共有", Either.left(IndexRefusal.NameChars({ name: "営業/共有" }))],
    ["..", Either.left(IndexRefusal.NameChars({ name: ".." }))],
    ["a:b", Either.left(IndexRefusal.NameChars({ name: "a:b" }))]
  ])("%j", (name, expected) => {
    expect(checkIndexName(name)).toEqual(expected)
  })
})

describe("decideIndexEdit() (issue 16)", () => {
  const folders = [
    { name: "共有", path: "/mnt/share/営業", enabled: true },
    { name: "報告書", path: "/home/me/報告書", enabled: false }
  ]
  const context: IndexEditContext = { style: "posix", folder: { isFolder: true } }
  const decide = (edit: IndexEdit, c: IndexEditContext = context) => decideIndexEdit(folders, edit, c)

  it.each<[IndexEdit, IndexRefusal]>([
    [{ _tag: "add", name: "共有", path: "/srv/x" }, IndexRefusal.NameTaken({ name: "共有" })],
    [{ _tag: "add", name: "a/b", path: "/srv/x" }, IndexRefusal.NameChars({ name: "a/b" })],
    [{ _tag: "add", name: "x", path: "" }, IndexRefusal.FolderEmpty()],
    [{ _tag: "add", name: "x", path: "srv/x" }, IndexRefusal.FolderRelative({ path: "srv/x" })],
    [{ _tag: "add", name: "x", path: "/mnt/share/営業" }, IndexRefusal.FolderOverlap({ path: "/mnt/share/営業", other: "共有", otherPath: "/mnt/share/営業", relation: "same" })],
    [{ _tag: "add", name: "x", path: "/mnt/share/営業/2024" }, IndexRefusal.FolderOverlap({ path: "/mnt/share/営業/2024", other: "共有", otherPath: "/mnt/share/営業", relation: "inside" })],
    [{ _tag: "add", name: "x", path: "/home" }, IndexRefusal.FolderOverlap({ path: "/home", other: "報告書", otherPath: "/home/me/報告書", relation: "contains" })],
    [{ _tag: "enable", name: "無い", enabled: true }, IndexRefusal.NoSuchIndex({ name: "無い" })],
    [{ _tag: "rename", from: "無い", to: "x" }, IndexRefusal.NoSuchIndex({ name: "無い" })],
    [{ _tag: "rename", from: "共有", to: "報告書" }, IndexRefusal.NameTaken({ name: "報告書" })],
    [{ _tag: "rename", from: "共有", to: "" }, IndexRefusal.NameEmpty()],
    [{ _tag: "remove", name: "無い" }, IndexRefusal.NoSuchIndex({ name: "無い" })],
    [{ _tag: "move", name: "無い", path: "/srv" }, IndexRefusal.NoSuchIndex({ name: "無い" })],
    [{ _tag: "move", name: "共有", path: "/home/me" }, IndexRefusal.FolderOverlap({ path: "/home/me", other: "報告書", otherPath: "/home/me/報告書", relation: "contains" })]
  ])("refuses %j", (edit, refusal) => {
    expect(decide(edit)).toEqual(Either.left(refusal))
  })

  it("refuses a path that is not a folder, after the name and overlap-free path checks", () => {
    expect(decide({ _tag: "add", name: "x", path: "/srv/none" }, { style: "posix", folder: { isFolder: false } }))
      .toEqual(Either.left(IndexRefusal.FolderMissing({ path: "/srv/none" })))
    // A file is said to be one (a new user typed a document's path).
    expect(decide({ _tag: "add", name: "x", path: "/srv/見積.xlsx" }, { style: "posix", folder: { isFolder: false, isFile: true } }))
      .toEqual(Either.left(IndexRefusal.NotAFolder({ path: "/srv/見積.xlsx" })))
    expect(messages("ja").indexRefused(IndexRefusal.NotAFolder({ path: "/srv/見積.xlsx" }))).toBe("フォルダではなくファイルです: /srv/見積.xlsx（インデックスにはフォルダを登録します）")
  })

  it("refuses by the real path: a link to a registered folder", () => {
    const c: IndexEditContext = { style: "posix", folder: { isFolder: true, realPath: "/data/報告書/2024" }, realPaths: new Map([["報告書", "/data/報告書"]]) }
    expect(decide({ _tag: "add", name: "x", path: "/home/me/link" }, c)).toEqual(
      Either.left(IndexRefusal.FolderOverlap({ path: "/home/me/link", other: "報告書", otherPath: "/home/me/報告書", relation: "inside" }))
    )
  })

  it.each<[IndexEdit, unknown]>([
    [{ _tag: "add", name: "営業2", path: "/mnt/share/営業2" }, { _tag: "settings", targetFolders: [...folders, { name: "営業2", path: "/mnt/share/営業2", enabled: true }] }],
    [{ _tag: "enable", name: "報告書", enabled: true }, { _tag: "settings", targetFolders: [folders[0], { ...folders[1], enabled: true }] }],
    [{ _tag: "enable", name: "共有", enabled: true }, { _tag: "none" }],
    [{ _tag: "enable", name: "共有", enabled: false }, { _tag: "settings", targetFolders: [{ ...folders[0], enabled: false }, folders[1]] }],
    [{ _tag: "rename", from: "共有", to: "営業" }, { _tag: "rename", from: "共有", to: "営業", targetFolders: [{ ...folders[0], name: "営業" }, folders[1]] }],
    [{ _tag: "rename", from: "共有", to: "共有" }, { _tag: "none" }],
    [{ _tag: "remove", name: "共有" }, { _tag: "remove", name: "共有", targetFolders: [folders[1]] }],
    // Moving an index into its own old folder (or out of it) is no overlap: only the others count.
    [{ _tag: "move", name: "共有", path: "/mnt/share/営業/2024" }, { _tag: "settings", targetFolders: [{ ...folders[0], path: "/mnt/share/営業/2024" }, folders[1]] }],
    [{ _tag: "move", name: "共有", path: "/mnt/share" }, { _tag: "settings", targetFolders: [{ ...folders[0], path: "/mnt/share" }, folders[1]] }],
    [{ _tag: "move", name: "共有", path: "/mnt/share/営業" }, { _tag: "none" }]
  ])("decides %j", (edit, expected) => {
    expect(decide(edit)).toEqual(Either.right(expected))
  })
})

describe("messages: index refusals say which index and how (ja first, en)", () => {
  const overlap = (relation: "same" | "inside" | "contains") =>
    IndexRefusal.FolderOverlap({ path: "/mnt/share/営業/2024", other: "共有", otherPath: "/mnt/share/営業", relation })
  it.each([
    ["same", "フォルダ /mnt/share/営業/2024 はインデックス「共有」のフォルダ（/mnt/share/営業）と同じです。", 'The folder /mnt/share/営業/2024 is the folder of index "共有" (/mnt/share/営業)'],
    ["inside", "フォルダ /mnt/share/営業/2024 はインデックス「共有」のフォルダ（/mnt/share/営業）の中にあります。", 'The folder /mnt/share/営業/2024 lies inside the folder of index "共有" (/mnt/share/営業)'],
    ["contains", "フォルダ /mnt/share/営業/2024 はインデックス「共有」のフォルダ（/mnt/share/営業）を含んでいます。", 'The folder /mnt/share/営業/2024 contains the folder of index "共有" (/mnt/share/営業)']
  ] as const)("%s", (relation, ja, en) => {
    expect(messages("ja").indexRefused(overlap(relation))).toBe(`${ja}同じファイルが二重に取り込まれ、検索結果にも二度出るため、登録できません。`)
    expect(messages("en").indexRefused(overlap(relation))).toBe(`${en}; its files would be ingested twice and every hit shown twice, so it cannot be registered.`)
  })

  it("a missing index folder names the way on: --only the others, disable, move", () => {
    expect(messages("ja").targetFolderMissing("A", "/a", ["B", "営業 2"])).toBe(
      "インデックス「A」のフォルダが見つかりません: /a\n" +
        "フォルダを使えるようにしてからもう一度実行するか、ほかのインデックスだけを更新するなら sagasu index --only B --only '営業 2'、" +
        "このインデックスを外すなら sagasu disable A（フォルダが移ったなら sagasu move A 新しいフォルダ）を実行してください。"
    )
    expect(messages("en").targetFolderMissing("A", "/a", [])).toBe(
      'The folder of index "A" was not found: /a\nMake it available and run again, or leave this index out with sagasu disable A (if the folder moved: sagasu move A NEW-FOLDER).'
    )
  })

  it("with a work folder named, every command it suggests repeats it (new-user trial: README's promise)", () => {
    expect(messages("ja").targetFolderMissing("A", "/a", ["B"], " --work /tmp/w")).toBe(
      "インデックス「A」のフォルダが見つかりません: /a\n" +
        "フォルダを使えるようにしてからもう一度実行するか、ほかのインデックスだけを更新するなら sagasu index --only B --work /tmp/w、" +
        "このインデックスを外すなら sagasu disable A --work /tmp/w（フォルダが移ったなら sagasu move A 新しいフォルダ --work /tmp/w）を実行してください。"
    )
    expect(messages("en").noEnabledIndex(" --work /tmp/w")).toBe("No index is enabled. Add one with: sagasu add NAME PATH --work /tmp/w")
  })
})
