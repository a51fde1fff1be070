/**
 * The page's words for where a hit stands (new-user trial): a document's
 * header, footer and notes, and a sheet's comments, shapes and footer, in the
 * page's language — not the extraction's own words (`header`, `B3 comment`).
 */
import { describe, expect, it } from "vitest"
import { uiText } from "./page/ui_text.ts"

describe("the GUI's place labels", () => {
  it("a document's places that are no paragraph number, in Japanese and in English", () => {
    const places = ["header", "footer", "footnote:3", "endnote:2", "comment:0", "textbox", "chart", "something else"]
    expect(places.map((loc) => uiText("ja").place(loc))).toEqual(["ヘッダー", "フッター", "脚注 3", "文末脚注 2", "コメント", "テキストボックス", "グラフ", "something else"])
    expect(places.map((loc) => uiText("en").place(loc))).toEqual(["header", "footer", "footnote 3", "endnote 2", "comment", "textbox", "chart", "something else"])
  })

  it("a sheet's places: the cell and what of it, or the sheet's header, footer or drawing", () => {
    const cells = ["B3", "B3 comment", "D5 shape", "A1 link", "footer", "drawing"]
    expect(cells.map((loc) => uiText("ja").sheetCell("見積書", loc)[1])).toEqual(["セル B3", "セル B3（コメント）", "セル D5（図形）", "セル A1（リンク）", "フッター", "図形"])
    expect(cells.map((loc) => uiText("en").sheetCell("見積書", loc)[1])).toEqual(["cell B3", "cell B3 comment", "cell D5 shape", "cell A1 link", "footer", "drawing"])
    expect(uiText("ja").sheetCell("見積書", "B3")[0]).toBe("シート「見積書」")
  })
})
