/**
 * Why the crawl passed over an entry (R8, §5), for the crawl in
 * `@sagasu/ingest` and the log's words (`messages(language).logSkipped`).
 *
 * @module
 */

/**
 * An Office owner/lock file (`~$…`, LibreOffice's `.~lock.*#`), a temporary
 * file (`*.tmp`, e.g. Word's `~WRL1234.tmp`), a hidden entry (name starting
 * with `.`), a link leaving the target folder, a link loop, an entry that is
 * not a regular file (FIFO, socket, device), an entry that could not be
 * read, or a name that is not valid UTF-8 (`invalid-name`, issue 15: bytes of
 * another encoding, e.g. Shift_JIS from a share mounted without
 * `iocharset=utf8`; its path would come out with U+FFFD in it and could not
 * be opened, so it is reported as what it is instead of as `ENOENT`).
 */
export type CrawlSkipReason = "owner-file" | "temporary" | "hidden" | "link-outside" | "loop" | "not-a-file" | "unreadable" | "invalid-name"
