import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { attribute, feed, ns, parseXml, rootElementOf, type XmlTag, type XmlVisitor } from "./_xml.ts"

const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
const R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

async function* bytesOf(text: string) {
  yield Buffer.from(text, "utf8")
}

/** Each opened element as `{uri}local`, with what `read` takes from it; or the parse's error. */
async function parse(xml: string, read: (tag: XmlTag) => unknown = () => undefined) {
  const seen: Array<[string, unknown]> = []
  const visitor: XmlVisitor = {
    open: (tag) => void seen.push([`{${tag.uri}}${tag.local}`, read(tag)]),
    close: () => undefined,
    text: () => undefined
  }
  const result = await Effect.runPromise(Effect.either(parseXml(bytesOf(xml), "part.xml", visitor)))
  return Either.isLeft(result) ? { error: result.left.detail } : { seen }
}

describe("namespaces of a part's elements and attributes (BUG-03; issue 20: resolved here, not by saxes)", () => {
  it("an element's prefix is resolved against the declarations in scope, its own and its ancestors'", async () => {
    const xml = `<x:document xmlns:x="${W}"><body xmlns="${W}"><p/></body><y:p xmlns:y="${W}"/><x:p/></x:document>`
    expect(await parse(xml)).toEqual({
      seen: [[`{${W}}document`, undefined], [`{${W}}body`, undefined], [`{${W}}p`, undefined], [`{${W}}p`, undefined], [`{${W}}p`, undefined]]
    })
  })

  it("a declaration ends with its element", async () => {
    expect(await parse(`<a><b xmlns:q="${W}"><q:c/></b><q:c/></a>`)).toEqual({ error: 'part.xml: unbound namespace prefix: "q".' })
  })

  it("an attribute is read by its vocabulary whatever its prefix, or unqualified by its local name", async () => {
    const xml = `<w:document xmlns:w="${W}" xmlns:r="${R}" xmlns:rel="${R}"><w:p w:val="1" val="2" rel:id="rId7"/><w:p val="3"/></w:document>`
    const read = (tag: XmlTag) => [attribute(tag, "val"), attribute(tag, "val", ns.word), attribute(tag, "id", ns.relationshipRef)]
    expect(await parse(xml, read)).toEqual({
      seen: [
        [`{${W}}document`, [undefined, undefined, undefined]],
        [`{${W}}p`, ["2", "1", "rId7"]],
        [`{${W}}p`, ["3", "3", undefined]]
      ]
    })
  })

  it("an unqualified attribute is in no namespace: the default namespace does not apply to it", async () => {
    const xml = `<document xmlns="${W}"><p val="1"/></document>`
    expect(await parse(xml, (tag) => [attribute(tag, "val"), attribute(tag, "val", ns.word)])).toEqual({
      seen: [[`{${W}}document`, [undefined, undefined]], [`{${W}}p`, ["1", "1"]]]
    })
  })

  it.each([
    [`<a q:b="1"/>`, 'unbound namespace prefix: "q".'],
    [`<q:a/>`, 'unbound namespace prefix: "q".'],
    [`<a xmlns:q=""/>`, "invalid attempt to undefine prefix in XML 1.0"],
    [`<a xmlns:xml="urn:x"/>`, "xml prefix must be bound to http://www.w3.org/XML/1998/namespace."],
    [`<a xmlns="http://www.w3.org/2000/xmlns/"/>`, "the default namespace may not be set to http://www.w3.org/2000/xmlns/."],
    [`<a xmlns:q="http://www.w3.org/XML/1998/namespace"/>`, "may not assign the xml namespace to another prefix."],
    [`<xmlns:a/>`, 'tags may not have "xmlns" as prefix.'],
    [`<a xmlns:xmlns="http://www.w3.org/2000/xmlns/"/>`, 'may not assign a prefix (even "xmlns") to the URI http://www.w3.org/2000/xmlns/.'],
    [`<a:b:c xmlns:a="${W}"/>`, "malformed name: a:b:c."],
    [`<a xmlns:q="${W}" q:b="1" q:c:d="2"/>`, "malformed name: q:c:d."],
    [`<a v="1" v="2"/>`, "duplicate attribute: v."]
  ])("refuses %s as saxes's namespace mode did", async (xml, message) => {
    expect(await parse(xml)).toEqual({ error: `part.xml: ${message}` })
  })
})

describe("reading a part only as far as needed (issue 20: the main part's root element, once per file)", () => {
  /** A part in `pieces`, noting how many the reader took and whether it was released. */
  const source = (pieces: ReadonlyArray<string>) => {
    const seen = { taken: 0, released: false }
    const bytes = {
      [Symbol.asyncIterator]: () => ({
        next: async () => (seen.taken < pieces.length ? { done: false, value: Buffer.from(pieces[seen.taken++] ?? "", "utf8") } : { done: true, value: undefined }),
        return: async () => {
          seen.released = true
          return { done: true, value: undefined }
        }
      })
    } as AsyncIterable<Uint8Array>
    return { bytes, seen }
  }
  const pieces = [`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<x:workbook xmlns:x="${W}">${" ".repeat(300)}`, "<x:sheets>", "</x:sheets></x:workbook>"]

  it("a writer that says it has read enough takes no more pieces, and the part is released", async () => {
    const { bytes, seen } = source(pieces)
    const written: Array<string> = []
    await Effect.runPromise(feed(bytes, "part.xml", (text) => written.push(text) > 0))
    expect({ written: written.length, taken: seen.taken, released: seen.released }).toEqual({ written: 1, taken: 1, released: true })
  })

  it("the root element is read from the first piece, without a failure; a part without one is corrupt", async () => {
    const { bytes, seen } = source(pieces)
    const root = await Effect.runPromise(rootElementOf(bytes, "xl/workbook.xml"))
    expect({ uri: root.uri, local: root.local, taken: seen.taken, released: seen.released }).toEqual({ uri: W, local: "workbook", taken: 1, released: true })
    const empty = await Effect.runPromise(Effect.either(rootElementOf(source(["<?xml version=\"1.0\"?>"]).bytes, "xl/workbook.xml")))
    expect(Either.isLeft(empty) && empty.left.detail).toBe("xl/workbook.xml: no root element")
  })
})
