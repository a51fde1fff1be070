// Fault injection for the chaos campaign (issue 8), loaded into a `sagasu`
// child with `node --require`. Test-only: it changes nothing unless one of
// its variables is set, and nothing in the product loads it.
//
// It wraps the mutating file operations of `node:fs` (sync, callback and
// promise forms) and counts those on paths containing a substring:
//
//   SAGASU_CHAOS_KILL_AT=<substring>:<n>   SIGKILL the process at the n-th one
//                                           (e.g. `/gram/:7` dies inside the
//                                           2-gram update, whose code has no
//                                           crash point of its own)
//   SAGASU_CHAOS_COUNT=<substring>:<file>   append the count to <file> at exit
//   SAGASU_CHAOS_ENOSPC=<substring>:<n>     from the n-th one on, fail with
//                                           ENOSPC (a disk full where no small
//                                           volume can be mounted)
//
// Plain JavaScript because it runs before tsx is registered.
"use strict"
const fs = require("node:fs")
const mod = require("node:module")
const { isMainThread } = require("node:worker_threads")

const parse = (value) => {
  if (value === undefined || value === "") return undefined
  const at = value.lastIndexOf(":")
  return { needle: value.slice(0, at), arg: value.slice(at + 1) }
}
const kill = parse(process.env.SAGASU_CHAOS_KILL_AT)
const count = parse(process.env.SAGASU_CHAOS_COUNT)
const enospc = parse(process.env.SAGASU_CHAOS_ENOSPC)

if (kill !== undefined || count !== undefined || enospc !== undefined) {
  const needles = [kill, count, enospc].filter((x) => x !== undefined).map((x) => x.needle)
  const fdPaths = new Map()
  let seen = 0
  const pathOf = (p) => (typeof p === "number" ? fdPaths.get(p) ?? "" : p instanceof URL ? p.pathname : Buffer.isBuffer(p) ? p.toString() : String(p))

  // Returns an error to throw (ENOSPC) or undefined; kills the process when armed.
  const hit = (p) => {
    const where = pathOf(p)
    if (!needles.some((n) => where.includes(n))) return undefined
    seen++
    if (kill !== undefined && where.includes(kill.needle) && seen === Number(kill.arg)) process.kill(process.pid, "SIGKILL")
    if (enospc !== undefined && where.includes(enospc.needle) && seen >= Number(enospc.arg)) {
      const e = new Error(`ENOSPC: no space left on device, write '${where}'`)
      e.code = "ENOSPC"
      e.errno = -28
      e.syscall = "write"
      e.path = where
      return e
    }
    return undefined
  }
  const writes = (flags) => typeof flags === "string" ? /[wa+]/.test(flags) : typeof flags === "number" ? (flags & 3) !== 0 : false

  const wrapSync = (name, pathArg = 0) => {
    const original = fs[name]
    fs[name] = function (...args) {
      const e = hit(args[pathArg])
      if (e !== undefined) throw e
      return original.apply(this, args)
    }
  }
  const wrapCallback = (name, pathArg = 0) => {
    const original = fs[name]
    fs[name] = function (...args) {
      const e = hit(args[pathArg])
      const cb = args[args.length - 1]
      if (e !== undefined && typeof cb === "function") return process.nextTick(cb, e)
      return original.apply(this, args)
    }
  }
  const wrapPromise = (name, pathArg = 0) => {
    const original = fs.promises[name]
    fs.promises[name] = function (...args) {
      const e = hit(args[pathArg])
      if (e !== undefined) return Promise.reject(e)
      return original.apply(this, args)
    }
  }

  const openSync = fs.openSync
  fs.openSync = function (p, flags, ...rest) {
    if (writes(flags ?? "r")) {
      const e = hit(p)
      if (e !== undefined) throw e
    }
    const fd = openSync.call(this, p, flags, ...rest)
    fdPaths.set(fd, pathOf(p))
    return fd
  }
  const open = fs.open
  fs.open = function (p, flags, ...rest) {
    const cb = rest[rest.length - 1]
    if (typeof flags !== "function" && writes(flags ?? "r")) {
      const e = hit(p)
      if (e !== undefined && typeof cb === "function") return process.nextTick(cb, e)
    }
    if (typeof cb === "function") {
      rest[rest.length - 1] = (err, fd) => {
        if (err === null) fdPaths.set(fd, pathOf(p))
        cb(err, fd)
      }
    }
    return open.call(this, p, flags, ...rest)
  }
  for (const name of ["writeFileSync", "appendFileSync", "renameSync", "mkdirSync", "rmSync", "unlinkSync", "writeSync", "fsyncSync", "copyFileSync"]) wrapSync(name)
  for (const name of ["writeFile", "appendFile", "rename", "mkdir", "rm", "unlink", "write", "fsync", "copyFile"]) wrapCallback(name)
  for (const name of ["writeFile", "appendFile", "rename", "mkdir", "rm", "unlink", "copyFile"]) wrapPromise(name)
  const promiseOpen = fs.promises.open
  fs.promises.open = async function (p, flags, ...rest) {
    if (writes(flags ?? "r")) {
      const e = hit(p)
      if (e !== undefined) throw e
    }
    const handle = await promiseOpen.call(this, p, flags, ...rest)
    const write = handle.write
    handle.write = function (...args) {
      const e = enospc !== undefined ? hit(p) : undefined
      if (e !== undefined) return Promise.reject(e)
      return write.apply(this, args)
    }
    return handle
  }
  mod.syncBuiltinESMExports()

  if (count !== undefined && isMainThread) {
    process.on("exit", () => fs.appendFileSync(count.arg, `${seen}\n`))
  }
}
