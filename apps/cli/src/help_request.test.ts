import { describe, expect, it } from "vitest"
import { helpRequest } from "./help_request.ts"

describe("helpRequest() (issue 16: the help's language is read only when a help is printed)", () => {
  it.each([
    // A help, and the work folder whose settings say its language.
    [[], true, undefined],
    [["--help"], true, undefined],
    [["-h"], true, undefined],
    [["search", "--help"], true, undefined],
    [["search", "見積", "-h", "--work", "/srv/作業"], true, "/srv/作業"],
    [["index", "--work=/srv/w", "--help"], true, "/srv/w"],
    [["--help", "search"], true, undefined],
    [["team"], true, undefined],
    [["team", "connect", "--help"], true, undefined],
    [["search", "--help=1"], true, undefined],
    // No help: the commands run, nothing more is read (a cold search above all).
    [["search", "見積"], false, undefined],
    [["search", "見積", "--work", "/srv/w"], false, "/srv/w"],
    [["search", "--", "-h"], false, undefined],
    [["search", "--", "--help"], false, undefined],
    [["search", "--work", "--help"], false, "--help"],
    [["team", "--work", "/srv/w"], false, "/srv/w"],
    [["--version"], false, undefined],
    [["index", "--yes"], false, undefined],
    [["status", "--hel"], false, undefined]
  ] as const)("%j: help %s, work folder %s", (args, asked, work) => {
    expect(helpRequest(args)).toEqual({ asked, work })
  })
})
