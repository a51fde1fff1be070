/**
 * `@sagasu/ingest/testing`: the second door of this lib, for tests and
 * benchmarks only (never imported by production code; tools/src/dependency_rule.ts
 * checks it). It holds the byte-level writers of the inputs the extractor must
 * read or survive — small OOXML packages and their plumbing (content types,
 * relationships, the workbook, document and presentation parts), zip and
 * OLE2 containers, Word 97 and PowerPoint 97 streams, the recipes of
 * `../shared/cases/cases.md` — the watched workers of a run
 * ({@link aroundIngest}), and the LibreOffice process calls the legacy
 * benchmark compares against, so that `tools/` and the apps' tests build
 * their files with the lib's own writers instead of copies or its private
 * files (STYLE.md rule 1, issue 17).
 *
 * @module
 */
export * from "./extract/_cases.ts"
export * from "./extract/_test_containers.ts"
export * from "./extract/_test_legacy.ts"
export * from "./extract/_test_packages.ts"
export { aroundIngest } from "./_test_workers.ts"
export { awaitReady, endOffice, forwardConversion, groupMembers, startOffice } from "./office/_soffice.ts"
