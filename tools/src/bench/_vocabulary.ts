/**
 * The words the benchmark corpora share (the search corpus, bench_corpus.ts,
 * and the ingest tree, ingest_tree.ts): people, business phrases and
 * departments of a Japanese office, with a few English ones, and the seeded
 * picks over them. Each corpus keeps its own companies and products.
 *
 * @module
 */

/** A seeded generator of numbers in [0, 1) (the domain's `seededRandom`). */
export type Rand = () => number

/** One of `list`, drawn by `rand`. */
export const pick = <A>(rand: Rand, list: ReadonlyArray<A>): A => list[Math.floor(rand() * list.length)] as A

/** An integer in [0, n), drawn by `rand`. */
export const int = (rand: Rand, n: number): number => Math.floor(rand() * n)

/** A document code as `AB-01234`, drawn by `rand`. */
export const code = (rand: Rand): string =>
  `${String.fromCharCode(65 + int(rand, 26))}${String.fromCharCode(65 + int(rand, 26))}-${String(int(rand, 100000)).padStart(5, "0")}`

/** Names of people, Japanese and a few English. */
export const people = [
  "山田太郎", "佐藤花子", "鈴木一郎", "高橋美咲", "田中健太", "伊藤由美", "渡辺翔", "中村さくら", "小林直樹", "加藤愛",
  "吉田拓也", "山本恵", "松本大輔", "井上真理", "木村誠", "林優子", "清水亮", "斎藤みなみ", "John Smith", "Emily Clark"
]

/** Sentences of business mail and minutes, Japanese and a few English. */
export const phrases = [
  "下記のとおりお見積り申し上げます", "ご検討のほどよろしくお願いいたします", "納品書を送付いたします", "請求書を発行しました",
  "次回の打ち合わせは来週を予定しています", "仕様変更について確認が必要です", "在庫の確認をお願いします", "契約更新の時期が近づいています",
  "支払期限は月末です", "送料は当社負担とします", "議事録を共有します", "予算の見直しを行います", "品質管理部門と協議の上決定",
  "先月比で売上が増加しました", "問い合わせ窓口を一本化する", "年度末の棚卸しを実施", "Please find the attached quotation",
  "The meeting was moved to Friday", "Payment terms are net 30 days", "Shipping is included in the price"
]

/** Departments. */
export const departments = ["営業部", "総務部", "経理部", "開発部", "購買部", "品質管理部", "人事部", "Sales", "Finance"]
