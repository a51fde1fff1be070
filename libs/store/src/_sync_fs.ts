/**
 * The platform's error for a failed `node:fs` sync call, as the
 * `@effect/platform` FileSystem would give it (same reason, method, path and
 * description), for the few hot paths that call `node:fs` directly (STYLE
 * 14): callers see one error type whichever way a file was written.
 *
 * @module
 */
import { SystemError, type SystemErrorReason } from "@effect/platform/Error"

const reasons: Readonly<Record<string, SystemErrorReason>> = {
  ENOENT: "NotFound",
  EACCES: "PermissionDenied",
  EPERM: "PermissionDenied",
  EEXIST: "AlreadyExists",
  EISDIR: "BadResource",
  ENOTDIR: "BadResource",
  ELOOP: "BadResource",
  EBUSY: "Busy"
}

/** `e` (thrown by a `node:fs` call of `method` on `path`) as a SystemError. */
export function systemError(method: string, path: string, e: unknown): SystemError {
  const err = e as NodeJS.ErrnoException
  return new SystemError({
    reason: reasons[err?.code ?? ""] ?? "Unknown",
    module: "FileSystem",
    method,
    pathOrDescriptor: path,
    ...(err?.syscall !== undefined ? { syscall: err.syscall } : {}),
    description: err instanceof Error ? err.message : String(e),
    cause: e
  })
}
