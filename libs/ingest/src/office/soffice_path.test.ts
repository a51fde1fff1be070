import { describe, expect, it } from "vitest"
import { findSoffice, sofficeInstallPaths } from "./soffice_path.ts"

// Issue 19: LibreOffice found in its usual install folders.
describe("findSoffice()", () => {
  const winEnv = { Path: "C:\\Windows\\system32;C:\\Windows", ProgramFiles: "C:\\Program Files", "ProgramFiles(x86)": "C:\\Program Files (x86)", ProgramW6432: "C:\\Program Files" }

  it("lists the Windows install folders once each, 64-bit first", () => {
    expect(sofficeInstallPaths("win32", winEnv)).toEqual([
      "C:\\Program Files\\LibreOffice\\program\\soffice.exe",
      "C:\\Program Files (x86)\\LibreOffice\\program\\soffice.exe"
    ])
    expect(sofficeInstallPaths("win32", { ProgramFiles: "D:\\Programme" })[0]).toBe("D:\\Programme\\LibreOffice\\program\\soffice.exe")
    expect(sofficeInstallPaths("linux", {})).toEqual([])
  })

  it("takes soffice on PATH first, then the install folder that exists, else soffice", () => {
    const only = (...files: Array<string>) => (f: string) => files.includes(f)
    expect(findSoffice("win32", winEnv, only("C:\\Program Files (x86)\\LibreOffice\\program\\soffice.exe"))).toBe(
      "C:\\Program Files (x86)\\LibreOffice\\program\\soffice.exe"
    )
    expect(findSoffice("win32", { ...winEnv, Path: `${winEnv.Path};D:\\LibreOffice\\program` }, only("D:\\LibreOffice\\program\\soffice.exe", "C:\\Program Files\\LibreOffice\\program\\soffice.exe"))).toBe("soffice")
    expect(findSoffice("win32", winEnv, only())).toBe("soffice")
    expect(findSoffice("darwin", { PATH: "/usr/bin:/bin" }, only("/Applications/LibreOffice.app/Contents/MacOS/soffice"))).toBe(
      "/Applications/LibreOffice.app/Contents/MacOS/soffice"
    )
    expect(findSoffice("linux", { PATH: "/usr/local/bin:/usr/bin" }, only("/usr/bin/soffice"))).toBe("soffice")
    expect(findSoffice("linux", { PATH: "/usr/bin" }, only())).toBe("soffice")
  })
})
