/**
 * Excel number format codes, compiled once per workbook style and applied to
 * a cell's number: the text a person sees in the cell (issue 3: "numbers and
 * dates as Excel displays them"). Sections (`pos;neg;zero;text`) and
 * conditions, digit placeholders `0 # ?`, grouping and scaling commas,
 * percent, exponents, fractions, quoted and escaped literals, `General`,
 * currency and locale tags (`[$¥-411]`, `[$-ja-JP]`), `[DBNum1-3]` kanji
 * numerals (decimals digit by digit), a text section alone shown around
 * the number (`@"様"`), and every date/time token including the Japanese and
 * Chinese ones: `aaa` weekdays, `午前/午後` and `上午/下午`, and the 和暦 era
 * `g gg ggg` with era years `e ee` (明治 … 令和; `[$-ja-JP-x-gannen]` shows
 * 元年). The table in `_format_code.test.ts` holds the display Excel's
 * documentation gives for each rule.
 *
 * Colours, padding (`_x`, `*x`) and alignment do not change the text and are
 * dropped; trailing alignment spaces are trimmed.
 *
 * @module
 */
import { dateKindOfCode, formatGeneralNumber, type DateKind } from "./_number_format.ts"

type Token =
  | { readonly t: "lit"; readonly v: string }
  | { readonly t: "date"; readonly v: string }
  | { readonly t: "num"; readonly v: string }
  | { readonly t: "text" }
  | { readonly t: "general" }

interface Condition {
  readonly op: string
  readonly value: number
}

/** The locales whose month and weekday names differ from English: `[$-411]` Japanese, `[$-804]` Chinese. */
type Locale = "ja" | "zh" | undefined

interface Section {
  readonly tokens: ReadonlyArray<Token>
  readonly condition: Condition | undefined
  readonly date: boolean
  readonly locale: Locale
  readonly gannen: boolean
  readonly dbnum: number
}

/** A compiled format code; {@link formatNumber} applies it. */
export interface NumberFormat {
  readonly code: string
  readonly sections: ReadonlyArray<Section>
  /**
   * The sections numbers use (positive, negative, zero): every section but a
   * last one holding `@`, which is the text section (`0;@"様"`: numbers use
   * `0`). Empty when the code is a text section alone (`@"様"`).
   */
  readonly numeric: ReadonlyArray<Section>
  /** The section strings use: the last section when it holds `@` (or the fourth). */
  readonly text: Section | undefined
  /** How the first section shows a date or time; `undefined` for a number format. */
  readonly kind: DateKind | undefined
}

/** Splits a code at `;` outside quotes, escapes and brackets. */
function splitSections(code: string): Array<string> {
  const out: Array<string> = []
  let current = ""
  for (let i = 0; i < code.length; i++) {
    const c = code[i] ?? ""
    if (c === '"') {
      const end = code.indexOf('"', i + 1)
      const stop = end < 0 ? code.length : end
      current += code.slice(i, stop + 1)
      i = stop
    } else if (c === "\\" || c === "_" || c === "*") {
      current += code.slice(i, i + 2)
      i++
    } else if (c === "[") {
      const end = code.indexOf("]", i + 1)
      const stop = end < 0 ? code.length : end
      current += code.slice(i, stop + 1)
      i = stop
    } else if (c === ";") {
      out.push(current)
      current = ""
    } else {
      current += c
    }
  }
  out.push(current)
  return out
}

/** What a Japanese PC shows for the system long date and time formats `[$-F800]` / `[$-F400]`. */
const systemLongDate = 'yyyy"年"m"月"d"日"'
const systemTime = "h:mm:ss"

const dateLetters = /[ymdhsegb]/i

function compileSection(raw: string): Section {
  let source = raw
  if (/\[\$-F800\]/i.test(source)) source = `[$-411]${systemLongDate}`
  else if (/\[\$-F400\]/i.test(source)) source = systemTime
  const date = dateKindOfCode(source) !== undefined
  const tokens: Array<Token> = []
  let condition: Condition | undefined
  let locale: Locale
  let gannen = false
  let dbnum = 0
  const lit = (v: string) => {
    const last = tokens.at(-1)
    if (last?.t === "lit") tokens[tokens.length - 1] = { t: "lit", v: last.v + v }
    else tokens.push({ t: "lit", v })
  }
  for (let i = 0; i < source.length; i++) {
    const c = source[i] ?? ""
    const rest = source.slice(i)
    if (c === '"') {
      const end = source.indexOf('"', i + 1)
      const stop = end < 0 ? source.length : end
      lit(source.slice(i + 1, stop))
      i = stop
    } else if (c === "\\") {
      lit(source[i + 1] ?? "")
      i++
    } else if (c === "_") {
      // Padding the width of the next character: a space in text.
      lit(" ")
      i++
    } else if (c === "*") {
      i++
    } else if (c === "[") {
      const end = source.indexOf("]", i + 1)
      const stop = end < 0 ? source.length : end
      const inside = source.slice(i + 1, stop)
      i = stop
      const cond = /^(<=|>=|<>|<|>|=)\s*(-?[\d.]+)$/.exec(inside)
      if (/^(h+|m+|s+)$/i.test(inside)) {
        tokens.push({ t: "date", v: `[${inside.toLowerCase()}]` })
      } else if (inside.startsWith("$")) {
        const [symbol = "", tag = ""] = inside.slice(1).split(/-(.*)/s)
        if (symbol !== "") lit(symbol)
        // The LCID is the low 16 bits of the hex number (`[$-411]`, `[$-ja-JP]`, `[$-30411]`).
        if (/^ja\b/i.test(tag) || /^[0-9a-f]*0?411$/i.test(tag)) locale = "ja"
        else if (/^zh\b/i.test(tag) || /^[0-9a-f]*0?(804|404|c04|1004|1404)$/i.test(tag)) locale = "zh"
        if (/gannen/i.test(tag)) {
          gannen = true
          locale = "ja"
        }
      } else if (/^dbnum\d$/i.test(inside)) {
        dbnum = Number(inside.slice(5))
      } else if (cond !== null) {
        condition = { op: cond[1] ?? "", value: Number(cond[2]) }
      }
      // Colours ([Red], [Color10]) change nothing in the text.
    } else if (/^general/i.test(rest)) {
      tokens.push({ t: "general" })
      i += 6
    } else if (c === "@") {
      tokens.push({ t: "text" })
    } else if (date && /^(am\/pm|a\/p)/i.test(rest)) {
      const v = /^am\/pm/i.test(rest) ? rest.slice(0, 5) : rest.slice(0, 3)
      tokens.push({ t: "date", v })
      i += v.length - 1
    } else if (date && (rest.startsWith("午前/午後") || rest.startsWith("上午/下午"))) {
      // The Japanese and Chinese spellings of AM/PM: markers, not literal text (issue 15 item 9).
      tokens.push({ t: "date", v: rest.slice(0, 5) })
      i += 4
    } else if (date && (dateLetters.test(c) || (/a/i.test(c) && /^aaa/i.test(rest)))) {
      let j = i
      while (j < source.length && (source[j] ?? "").toLowerCase() === c.toLowerCase()) j++
      tokens.push({ t: "date", v: source.slice(i, j).toLowerCase() })
      i = j - 1
    } else if (date && c === "." && /^\.0+/.test(rest) && tokens.some((t) => t.t === "date" && /^s|\[s/.test(t.v))) {
      const v = /^\.0+/.exec(rest)?.[0] ?? "."
      tokens.push({ t: "date", v })
      i += v.length - 1
    } else if (!date && c === "/") {
      // MS-OI29500 2.1.713 d: `/` is the fraction bar only between number symbols; elsewhere it is shown.
      const previous = tokens.at(-1)
      if (previous?.t === "num" && /^[0#?]$/.test(previous.v) && /^[0-9#?]/.test(source[i + 1] ?? "")) tokens.push({ t: "num", v: c })
      else lit(c)
    } else if (!date && /[0#?.,%]/.test(c)) {
      tokens.push({ t: "num", v: c })
    } else if (!date && /[eE]/.test(c) && /^[eE][+-]/.test(rest)) {
      tokens.push({ t: "num", v: `E${rest[1]}` })
      i++
    } else if (!date && /[1-9]/.test(c) && tokens.some((t) => t.t === "num" && t.v === "/")) {
      // A fixed denominator (`# ?/8`).
      tokens.push({ t: "num", v: c })
    } else {
      lit(c)
    }
  }
  return { tokens, condition, date, locale, gannen, dbnum }
}

const cache = new Map<string, NumberFormat>()

/** Compiles a format code (cached: a workbook has few distinct codes). */
export function compileFormat(code: string): NumberFormat {
  let format = cache.get(code)
  if (format === undefined) {
    const sections = splitSections(code).map(compileSection)
    const last = sections.at(-1)
    const textLast = last !== undefined && last.tokens.some((t) => t.t === "text")
    // ECMA-376 §18.8.31 and Excel's guidelines: a text section is always the last one; numbers use those before it, at most three.
    const numeric = (textLast ? sections.slice(0, -1) : sections).slice(0, 3)
    const text = textLast ? last : sections[3]
    format = { code, sections, numeric, text, kind: dateKindOfCode(code) }
    if (cache.size > 10_000) cache.clear()
    cache.set(code, format)
  }
  return format
}

const matches = (c: Condition, v: number): boolean => {
  switch (c.op) {
    case "<":
      return v < c.value
    case "<=":
      return v <= c.value
    case ">":
      return v > c.value
    case ">=":
      return v >= c.value
    case "=":
      return v === c.value
    case "<>":
      return v !== c.value
  }
  return false
}

/** The section a number uses, and whether the minus sign is the section's business (`abs`) or ours. */
function pickSection(format: NumberFormat, value: number): { section: Section; abs: boolean } | undefined {
  const [first, second, third] = format.numeric
  if (first === undefined) return undefined
  if (first.condition !== undefined || second?.condition !== undefined) {
    if (first.condition !== undefined && matches(first.condition, value)) return { section: first, abs: false }
    if (second !== undefined && second.condition !== undefined && matches(second.condition, value)) return { section: second, abs: true }
    if (second !== undefined && second.condition === undefined && first.condition !== undefined && third === undefined) return { section: second, abs: false }
    return third !== undefined ? { section: third, abs: false } : { section: first, abs: false }
  }
  if (value < 0 && second !== undefined) return { section: second, abs: true }
  if (value === 0 && third !== undefined) return { section: third, abs: true }
  return { section: first, abs: false }
}

/** The serial of 9999-12-31, the last date Excel shows (1900 date system). */
const lastDateSerial = 2_958_465

/**
 * The text Excel shows for `value` in a cell of format `format`, or
 * `undefined` where Excel shows `####` (a negative or too large date).
 */
export function formatNumber(value: number, format: NumberFormat, date1904: boolean): string | undefined {
  if (!Number.isFinite(value)) return undefined
  const picked = pickSection(format, value)
  if (picked === undefined) {
    // A code that is a text section alone (`@"様"`): Excel shows the number in its General form where `@` stands, literals kept.
    return format.text === undefined ? formatGeneralNumber(value) : applyText(formatGeneralNumber(value), format.text)
  }
  const { section, abs } = picked
  let text: string | undefined
  if (section.date) {
    text = formatDate(value, section, date1904)
  } else {
    const sign = value < 0 && !abs ? "-" : ""
    const magnitude = Math.abs(value)
    const shape = section.dbnum === 0 && Number.isInteger(magnitude) && magnitude < 1e15 ? integerShapeOf(section) : undefined
    // The common `0` / `#,##0` on an integer: its digits, grouped or not, with nothing to round or place.
    if (shape !== undefined) return sign + (shape === "grouped" ? group(String(magnitude)) : String(magnitude))
    text = formatNumberSection(magnitude, section, sign)
  }
  if (text === undefined) return undefined
  text = text.trim()
  if (section.dbnum > 0) text = toDbNum(text, section.dbnum, !section.date)
  return text
}

/** The text Excel shows for a string cell whose format has a text section (`@"様"`), or the string itself. */
export function formatText(value: string, format: NumberFormat): string {
  const section = format.text
  if (section === undefined || !section.tokens.some((t) => t.t === "text")) return value
  return applyText(value, section)
}

/** A text section applied to `value`: `@` is the value, literals stay, the rest shows nothing. */
function applyText(value: string, section: Section): string {
  return section.tokens
    .map((t) => (t.t === "text" ? value : t.t === "lit" ? t.v : ""))
    .join("")
    .trim()
}

// ---------------------------------------------------------------- numbers

/** `abs` (≥ 0) rounded half away from zero to `digits` decimals, from its 15 significant digits as Excel does. */
function roundDecimal(abs: number, digits: number): { int: string; frac: string } {
  if (abs === 0) return { int: "0", frac: "0".repeat(digits) }
  const [mantissa = "0", exponent = "0"] = abs.toExponential(14).split("e")
  const all = mantissa.replace(".", "")
  let intLength = Number(exponent) + 1
  const keep = intLength + digits
  let kept: string
  if (keep < 0) {
    kept = ""
  } else if (keep >= all.length) {
    kept = all + "0".repeat(keep - all.length)
  } else {
    kept = all.slice(0, keep)
    if ((all[keep] ?? "0") >= "5") {
      const bumped = (BigInt(kept === "" ? "0" : kept) + 1n).toString()
      if (bumped.length > kept.length) intLength++
      kept = bumped.padStart(Math.max(kept.length, 1), "0")
    }
  }
  // kept holds intLength + digits digits (fewer when the value is below the last decimal shown).
  const total = intLength + digits
  kept = total <= 0 ? "" : kept.padStart(total, "0")
  const int = intLength > 0 ? kept.slice(0, intLength).replace(/^0+(?=\d)/, "") : "0"
  const frac = intLength > 0 ? kept.slice(intLength) : ("0".repeat(-intLength) + kept).slice(0, digits).padEnd(digits, "0")
  return { int: int === "" ? "0" : int, frac: frac.padEnd(digits, "0").slice(0, digits) }
}

/** `1234567` → `1,234,567`: commas between groups of three digits from the right (a loop: this runs for most numeric cells). */
function group(digits: string): string {
  const n = digits.length
  if (n <= 3) return digits
  let out = digits.slice(0, ((n - 1) % 3) + 1)
  for (let i = out.length; i < n; i += 3) out += "," + digits.slice(i, i + 3)
  return out
}

const integerShapes = new WeakMap<Section, "plain" | "grouped" | "other">()

/**
 * `plain` for a section that is `0` or `##0`, `grouped` for `#,##0` (any number of `#`
 * before one final `0`, commas only between placeholders), `undefined` for
 * anything else: the shapes that show an integer as its digits.
 */
function integerShapeOf(section: Section): "plain" | "grouped" | undefined {
  let shape = integerShapes.get(section)
  if (shape === undefined) {
    const t = section.tokens
    const last = t.length - 1
    const v = (k: Token | undefined) => (k !== undefined && k.t === "num" ? k.v : undefined)
    const ok = last >= 0 && t.every((k, i) =>
      i === last ? v(k) === "0" : v(k) === "#" || (v(k) === "," && (v(t[i - 1]) === "#" || v(t[i - 1]) === "0"))
    )
    shape = !ok ? "other" : t.some((k) => k.t === "num" && k.v === ",") ? "grouped" : "plain"
    integerShapes.set(section, shape)
  }
  return shape === "other" ? undefined : shape
}

/**
 * What a number section does with any value, worked out once per section
 * (issue 20: `formatNumberSection` ran this token analysis, a dozen array
 * filters and maps, for every numeric cell; V8 optimised and deoptimised it
 * again and again). `general`: the tokens' literals, `undefined` where the
 * General form goes; `literal`: the section's text replaces the number;
 * `fraction`: {@link formatFraction}; `decimal`: placeholders, scaling,
 * grouping, exponent.
 */
type NumberPlan =
  | { readonly kind: "general"; readonly parts: ReadonlyArray<string | undefined> }
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "fraction"; readonly percent: number; readonly tokens: ReadonlyArray<Token> }
  | DecimalPlan

interface DecimalPlan {
  readonly kind: "decimal"
  /** 100 ** the number of `%`. */
  readonly percent: number
  /** Commas that scale by 1000 (after the last placeholder of the integer or decimal part). */
  readonly thousands: number
  readonly grouping: boolean
  /** The integer part's placeholders (`0`, `#`, `?`), left to right. */
  readonly intPhs: ReadonlyArray<string>
  readonly fracPhs: ReadonlyArray<string>
  /** The integer part's tokens as literals (a placeholder `""`), for the interior-literal layout. */
  readonly intLiterals: ReadonlyArray<string>
  /** Whether a literal stands between the integer part's first and last placeholder (`0-00`). */
  readonly interiorLiterals: boolean
  /** The index of the integer part's first placeholder among its tokens, or -1. */
  readonly firstIntPh: number
  /** The integer part's literals before and after its first placeholder (without interior literals). */
  readonly intBefore: string
  readonly intAfter: string
  /** Whether a placeholder token is at each place of the integer part. */
  readonly intIsPh: ReadonlyArray<boolean>
  readonly minZeros: number
  readonly hasZero: boolean
  readonly dot: boolean
  /** The decimal part: a placeholder (`undefined`) or a literal at each place. */
  readonly fracParts: ReadonlyArray<string | undefined>
  /** `undefined` without an exponent; else `E+` or `E-`, its digits and the literals after it. */
  readonly exponent: { readonly plus: boolean; readonly digits: number; readonly after: string } | undefined
}

const numberPlans = new WeakMap<Section, NumberPlan>()

const isPlaceholder = (t: Token) => t.t === "num" && (t.v === "0" || t.v === "#" || t.v === "?")
const literalOf = (t: Token) => (t.t === "lit" ? t.v : t.t === "num" && t.v === "%" ? "%" : "")

function numberPlanOf(section: Section): NumberPlan {
  const cached = numberPlans.get(section)
  if (cached !== undefined) return cached
  const plan = makeNumberPlan(section.tokens)
  numberPlans.set(section, plan)
  return plan
}

function makeNumberPlan(tokens: ReadonlyArray<Token>): NumberPlan {
  const num = tokens.filter((t) => t.t === "num").map((t) => t.v)
  if (tokens.some((t) => t.t === "general") || (num.length === 0 && tokens.some((t) => t.t === "text"))) {
    // `General` (or an `@` standing for the value in a section without placeholders) shows the number's General form there.
    return { kind: "general", parts: tokens.map((t) => (t.t === "general" || t.t === "text" ? undefined : t.t === "lit" ? t.v : "")) }
  }
  // Only literals: the section replaces the number (`"-"` for zero).
  if (num.length === 0) return { kind: "literal", text: tokens.map((t) => (t.t === "lit" ? t.v : "")).join("") }
  const percent = 100 ** num.filter((v) => v === "%").length
  if (num.includes("/")) return { kind: "fraction", percent, tokens }
  const expAt = tokens.findIndex((t) => t.t === "num" && (t.v === "E+" || t.v === "E-"))
  const mantissaTokens = expAt < 0 ? tokens : tokens.slice(0, expAt)
  const dotAt = mantissaTokens.findIndex((t) => t.t === "num" && t.v === ".")
  const intTokens = dotAt < 0 ? mantissaTokens : mantissaTokens.slice(0, dotAt)
  let fracTokens = dotAt < 0 ? [] : mantissaTokens.slice(dotAt + 1)
  let thousands = 0
  // Commas after the last decimal placeholder scale too (`0.0,,` shows 12200000 as 12.2).
  const lastFracPh = fracTokens.reduce((at, t, i) => (isPlaceholder(t) ? i : at), -1)
  if (lastFracPh >= 0) {
    fracTokens = fracTokens.filter((t, i) => {
      if (i <= lastFracPh || t.t !== "num" || t.v !== ",") return true
      thousands++
      return false
    })
  }
  // Commas right after the last integer placeholder scale by 1000; between placeholders they group.
  const lastIntPh = intTokens.reduce((at, t, i) => (isPlaceholder(t) ? i : at), -1)
  let grouping = false
  intTokens.forEach((t, i) => {
    if (t.t !== "num" || t.v !== ",") return
    if (i > lastIntPh) thousands++
    else grouping = true
  })
  const intPhs = intTokens.filter(isPlaceholder).map((t) => (t as { v: string }).v)
  const fracPhs = fracTokens.filter(isPlaceholder).map((t) => (t as { v: string }).v)
  const firstIntPh = intTokens.findIndex(isPlaceholder)
  const intLiterals = intTokens.map(literalOf)
  const exponent = expAt < 0
    ? undefined
    : {
      plus: (tokens[expAt] as { v: string }).v === "E+",
      digits: tokens.slice(expAt + 1).filter(isPlaceholder).length,
      after: tokens.slice(expAt + 1).map(literalOf).join("")
    }
  return {
    kind: "decimal",
    percent,
    thousands,
    grouping,
    intPhs,
    fracPhs,
    intLiterals,
    interiorLiterals: intTokens.slice(firstIntPh, lastIntPh + 1).some((t) => t.t === "lit"),
    firstIntPh,
    intBefore: firstIntPh < 0 ? "" : intLiterals.slice(0, firstIntPh).join(""),
    intAfter: intLiterals.slice(firstIntPh < 0 ? 0 : firstIntPh + 1).join(""),
    intIsPh: intTokens.map(isPlaceholder),
    minZeros: intPhs.length - Math.max(intPhs.indexOf("0"), 0),
    hasZero: intPhs.includes("0"),
    dot: dotAt >= 0,
    fracParts: fracTokens.map((t) => (isPlaceholder(t) ? undefined : literalOf(t))),
    exponent
  }
}

function formatNumberSection(abs: number, section: Section, sign: string): string {
  const plan = numberPlanOf(section)
  if (plan.kind === "general") {
    let out = sign
    for (const part of plan.parts) out += part ?? formatGeneralNumber(abs)
    return out
  }
  if (plan.kind === "literal") return plan.text
  let value = abs * plan.percent
  if (plan.kind === "fraction") return sign + formatFraction(value, plan.tokens)
  for (let i = 0; i < plan.thousands; i++) value /= 1000
  const { intPhs, fracPhs } = plan
  let exponentText = ""
  if (plan.exponent !== undefined) {
    const n = Math.max(intPhs.length, 1)
    let e = value === 0 ? 0 : Math.floor(Math.log10(value))
    e = intPhs.includes("#") && n > 1 ? Math.floor(e / n) * n : e - (n - 1)
    // 10 ** e underflows to 0 below e = -323 (5e-324, a denormal): scale in two steps.
    value = e < -300 ? (value * 1e300) / 10 ** (e + 300) : value / 10 ** e
    exponentText = `E${e < 0 ? "-" : plan.exponent.plus ? "+" : ""}${String(Math.abs(e)).padStart(plan.exponent.digits, "0")}`
  }
  const rounded = roundDecimal(value, fracPhs.length)
  // Integer digits fill placeholders from the right; what is left goes to the leftmost one.
  let intDigits = rounded.int === "0" && !plan.hasZero ? "" : rounded.int
  if (plan.hasZero) intDigits = intDigits.padStart(plan.minZeros, "0")
  let intText: string
  if (!plan.interiorLiterals) {
    const digits = plan.grouping ? group(intDigits) : intDigits
    if (plan.firstIntPh >= 0) {
      let spaces = 0
      for (let i = 0; i < intPhs.length - intDigits.length; i++) if (intPhs[i] === "?") spaces++
      intText = plan.intBefore + " ".repeat(spaces) + digits + plan.intAfter
    } else {
      intText = digits + plan.intAfter
    }
  } else {
    const intOut = plan.intLiterals.slice()
    let rest = intDigits
    let ph = intPhs.length
    for (let i = intOut.length - 1; i >= 0; i--) {
      if (plan.intIsPh[i] !== true) continue
      const p = intPhs[--ph]
      if (rest.length > 0) {
        intOut[i] = rest.slice(-1)
        rest = rest.slice(0, -1)
      } else {
        intOut[i] = p === "0" ? "0" : p === "?" ? " " : ""
      }
      if (i === plan.firstIntPh && rest.length > 0) intOut[i] = rest + (intOut[i] ?? "")
    }
    intText = intOut.join("")
  }
  let fracDigits = rounded.frac
  // Trailing zeros under `#` go, under `?` become spaces.
  for (let i = fracPhs.length - 1; i >= 0 && fracDigits[i] === "0" && fracPhs[i] !== "0"; i--) {
    fracDigits = fracDigits.slice(0, i) + (fracPhs[i] === "?" ? " " : "") + fracDigits.slice(i + 1)
  }
  let fracText = ""
  let k = 0
  for (const part of plan.fracParts) fracText += part ?? fracDigits[k++] ?? ""
  return sign + intText + (plan.dot ? "." : "") + fracText + exponentText + (plan.exponent?.after ?? "")
}

/**
 * `# ?/?`, `?/8`, `#,##0 ??/??`, …: literals, the whole part (when
 * placeholders stand before the numerator, apart from it), literals, the
 * numerator, `/`, the denominator (digits or a fixed number), literals. The
 * whole part is shown like an integer section (grouping, `0` padding); a
 * fraction that rounds to nothing leaves the whole number alone (Excel pads
 * it with spaces, trimmed here), and a value below one with a `#` whole part
 * shows the fraction alone (`=TRIM(TEXT(0.34,"# ?/?"))` is `1/3`).
 */
function formatFraction(value: number, tokens: ReadonlyArray<Token>): string {
  const isPh = (t: Token | undefined) => t !== undefined && t.t === "num" && /^[0#?]$/.test(t.v)
  const slashAt = tokens.findIndex((t) => t.t === "num" && t.v === "/")
  let numeratorAt = slashAt
  while (numeratorAt > 0 && isPh(tokens[numeratorAt - 1])) numeratorAt--
  const before = tokens.slice(0, numeratorAt)
  const firstWhole = before.findIndex(isPh)
  let lastWhole = -1
  before.forEach((t, i) => {
    if (isPh(t)) lastWhole = i
  })
  const hasWhole = firstWhole >= 0
  const literalsOf = (ts: ReadonlyArray<Token>) => ts.map((t) => (t.t === "lit" ? t.v : "")).join("")
  const prefix = literalsOf(hasWhole ? before.slice(0, firstWhole) : before)
  const middle = hasWhole ? literalsOf(before.slice(lastWhole + 1)) : ""
  const wholeTokens = hasWhole ? before.slice(firstWhole, lastWhole + 1) : []
  const after = tokens.slice(slashAt + 1)
  let denominatorEnd = 0
  while (denominatorEnd < after.length && after[denominatorEnd]?.t === "num" && /^[0-9#?]$/.test((after[denominatorEnd] as { v: string }).v)) denominatorEnd++
  const denominatorText = after.slice(0, denominatorEnd).map((t) => (t as { v: string }).v).join("")
  const suffix = literalsOf(after.slice(denominatorEnd))
  const fixed = /^[1-9]\d*$/.test(denominatorText) ? Number(denominatorText) : undefined
  const maxDenominator = 10 ** Math.max(denominatorText.length, 1) - 1

  let whole = hasWhole ? Math.floor(value) : 0
  const fraction = value - whole
  let numerator: number
  let denominator: number
  if (fixed !== undefined) {
    denominator = fixed
    numerator = Math.round(fraction * fixed)
  } else {
    ;[numerator, denominator] = bestFraction(fraction, maxDenominator)
  }
  if (hasWhole && numerator === denominator) {
    whole++
    numerator = 0
  }
  if (numerator === 0 && !hasWhole) return `${prefix}0${suffix}`
  let wholeText = ""
  if (hasWhole) {
    const zeros = wholeTokens.filter((t) => t.t === "num" && t.v === "0").length
    const grouping = wholeTokens.some((t) => t.t === "num" && t.v === ",")
    // A zero whole part shows when the fraction is nothing too, or a `0` placeholder asks for it.
    const digits = whole === 0 && numerator !== 0 && zeros === 0 ? "" : String(whole).padStart(zeros, "0")
    wholeText = grouping ? group(digits) : digits
  }
  if (numerator === 0) return `${prefix}${wholeText}${middle}${suffix}`.replace(/\s+/g, " ")
  const fractionText = `${numerator}/${denominator}`
  return `${prefix}${wholeText}${wholeText === "" ? "" : middle}${fractionText}${suffix}`.replace(/\s+/g, " ")
}

/** The closest fraction to `x` (0 ≤ x < 1) with a denominator of at most `max` (continued fractions). */
function bestFraction(x: number, max: number): [number, number] {
  let [p0, q0, p1, q1] = [0, 1, 1, 0]
  let y = x
  for (let i = 0; i < 64; i++) {
    const a = Math.floor(y)
    const [p2, q2] = [a * p1 + p0, a * q1 + q0]
    if (q2 > max) break
    ;[p0, q0, p1, q1] = [p1, q1, p2, q2]
    if (Math.abs(y - a) < 1e-12) break
    y = 1 / (y - a)
  }
  if (q1 === 0) return [0, 1]
  return [p1, q1]
}

// ---------------------------------------------------------------- dates

/** Japanese eras, newest first: first day, name, one-character name, letter (Excel's table). */
const eras: ReadonlyArray<readonly [start: number, name: string, short: string, letter: string]> = [
  [Date.UTC(2019, 4, 1), "令和", "令", "R"],
  [Date.UTC(1989, 0, 8), "平成", "平", "H"],
  [Date.UTC(1926, 11, 25), "昭和", "昭", "S"],
  [Date.UTC(1912, 6, 30), "大正", "大", "T"],
  [Date.UTC(1868, 8, 8), "明治", "明", "M"]
]

const monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
const dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
const japaneseDays = ["日", "月", "火", "水", "木", "金", "土"]
const chineseDays = ["日", "一", "二", "三", "四", "五", "六"]
const chineseMonths = ["一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二"]

/** `mmm`, `mmmm`, `mmmmm` (the first character of the full name) in a locale. */
function monthName(month: number, width: number, locale: Locale): string {
  const full = locale === "ja" ? `${month}月` : locale === "zh" ? `${chineseMonths[month - 1] ?? ""}月` : (monthNames[month - 1] ?? "")
  if (width >= 5) return full.slice(0, 1)
  if (width === 4) return full
  return locale === "ja" ? String(month) : locale === "zh" ? `${month}月` : full.slice(0, 3)
}

/** `ddd`/`aaa` (short) and `dddd`/`aaaa` (long) weekday names; `aaa` is Japanese unless the locale says otherwise. */
function dayName(weekday: number, long: boolean, locale: Locale): string {
  if (locale === "zh") return long ? `星期${chineseDays[weekday] ?? ""}` : `周${chineseDays[weekday] ?? ""}`
  if (locale === "ja") return long ? `${japaneseDays[weekday] ?? ""}曜日` : (japaneseDays[weekday] ?? "")
  return long ? (dayNames[weekday] ?? "") : (dayNames[weekday]?.slice(0, 3) ?? "")
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0")

/**
 * What a date section's tokens say regardless of the value, worked out once per section (issue 20:
 * the regular expressions and token lists ran for every date cell): the decimals of its seconds, whether it
 * shows a 12-hour clock, and which tokens are minutes.
 */
interface DatePlan {
  readonly decimals: number
  readonly twelve: boolean
  /** At a token's index: `m`/`mm` there are minutes (right after an hour or right before a second). */
  readonly minuteAt: ReadonlyArray<boolean>
}

const datePlans = new WeakMap<Section, DatePlan>()

function datePlanOf(section: Section): DatePlan {
  const cached = datePlans.get(section)
  if (cached !== undefined) return cached
  const tokens = section.tokens
  const subsecond = tokens.find((t) => t.t === "date" && t.v.startsWith("."))
  const dateTokens = tokens.map((t, i) => ({ t, i })).filter(({ t }) => t.t === "date")
  const isMinute = (index: number): boolean => {
    const at = dateTokens.findIndex(({ i }) => i === index)
    const before = dateTokens[at - 1]?.t
    const after = dateTokens[at + 1]?.t
    return (
      (before?.t === "date" && /^(h+|\[h+\])$/.test(before.v)) || (after?.t === "date" && /^(s+|\[s+\])$/.test(after.v))
    )
  }
  const plan: DatePlan = {
    decimals: subsecond?.t === "date" ? subsecond.v.length - 1 : 0,
    twelve: tokens.some((t) => t.t === "date" && /^(am\/pm|a\/p|午前\/午後|上午\/下午)$/i.test(t.v)),
    minuteAt: tokens.map((t, i) => t.t === "date" && isMinute(i))
  }
  datePlans.set(section, plan)
  return plan
}

function formatDate(serial: number, section: Section, date1904: boolean): string | undefined {
  // Past 9999-12-31 (serial 2958465 in either system's reach) Excel shows #### under any date or time format, [h] too.
  if (!Number.isFinite(serial) || serial < 0 || serial >= lastDateSerial + 1) return undefined
  const tokens = section.tokens
  const { decimals, twelve, minuteAt } = datePlanOf(section)
  // Excel rounds to what the format shows: 23:59:59.6 under hh:mm:ss is the next day's 00:00:00.
  const unit = 10 ** decimals
  const ticks = Math.round(serial * 86_400 * unit)
  const totalSeconds = Math.floor(ticks / unit)
  const fraction = ticks - totalSeconds * unit
  const days = Math.floor(totalSeconds / 86_400)
  const secondOfDay = totalSeconds - days * 86_400
  let year: number
  let month: number
  let day: number
  let weekday: number
  let utc: number
  if (!date1904 && days === 60) {
    ;[year, month, day, weekday, utc] = [1900, 2, 29, 3, Date.UTC(1900, 1, 28)]
  } else if (!date1904 && days === 0) {
    // Serial 0 is shown as 1900-01-00.
    ;[year, month, day, weekday, utc] = [1900, 1, 0, 6, Date.UTC(1899, 11, 31)]
  } else {
    const epoch = date1904 ? Date.UTC(1904, 0, 1) : days < 60 ? Date.UTC(1899, 11, 31) : Date.UTC(1899, 11, 30)
    utc = epoch + days * 86_400_000
    const d = new Date(utc)
    ;[year, month, day, weekday] = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCDay()]
  }
  if (year > 9999) return undefined
  const hour = Math.floor(secondOfDay / 3600)
  const minute = Math.floor(secondOfDay / 60) % 60
  const second = secondOfDay % 60
  const era = eras.find(([start]) => utc >= start)
  const eraYear = era === undefined ? year : year - new Date(era[0]).getUTCFullYear() + 1
  const locale = section.locale
  return tokens
    .map((t, index) => {
      if (t.t === "lit") return t.v
      if (t.t !== "date") return ""
      const v = t.v
      switch (v) {
        case "yy":
        case "y":
          return pad(year % 100)
        case "yyy":
        case "yyyy":
          return pad(year, 4)
        case "bb":
        case "b":
          return pad((year + 543) % 100)
        case "bbbb":
          return String(year + 543)
        case "m":
        case "mm":
          return minuteAt[index] === true ? (v === "mm" ? pad(minute) : String(minute)) : v === "mm" ? pad(month) : String(month)
        case "mmm":
        case "mmmm":
        case "mmmmm":
          return monthName(month, v.length, locale)
        case "d":
          return String(day)
        case "dd":
          return pad(day)
        case "ddd":
        case "dddd":
          return dayName(weekday, v === "dddd", locale)
        case "aaa":
        case "aaaa":
          return dayName(weekday, v === "aaaa", locale ?? "ja")
        case "g":
          return era?.[3] ?? ""
        case "gg":
          return era?.[2] ?? ""
        case "ggg":
          return era?.[1] ?? ""
        case "e":
          return section.gannen && eraYear === 1 && era !== undefined ? "元" : String(eraYear)
        case "ee":
          return section.gannen && eraYear === 1 && era !== undefined ? "元" : pad(eraYear)
        case "h":
          return String(twelve ? ((hour + 11) % 12) + 1 : hour)
        case "hh":
          return pad(twelve ? ((hour + 11) % 12) + 1 : hour)
        case "s":
          return String(second)
        case "ss":
          return pad(second)
        case "[h]":
        case "[hh]":
          return pad(Math.floor(totalSeconds / 3600), v.length - 2)
        case "[m]":
        case "[mm]":
          return pad(Math.floor(totalSeconds / 60), v.length - 2)
        case "[s]":
        case "[ss]":
          return pad(totalSeconds, v.length - 2)
        case "午前/午後":
          return hour < 12 ? "午前" : "午後"
        case "上午/下午":
          return hour < 12 ? "上午" : "下午"
      }
      if (v.startsWith(".")) return `.${pad(fraction, decimals)}`
      if (/^am\/pm$/i.test(v)) {
        if (locale === "ja") return hour < 12 ? "午前" : "午後"
        if (locale === "zh") return hour < 12 ? "上午" : "下午"
      }
      // Excel shows the letters as the code writes them: `am/pm` gives `pm`, `Am/Pm` `Pm`, `A/P` `P`.
      if (/^(am\/pm|a\/p)$/i.test(v)) return hour < 12 ? v.slice(0, v.indexOf("/")) : v.slice(v.indexOf("/") + 1)
      // Longer runs of a letter read as its longest form (`yyyyy` is `yyyy`, `ddddd` is `dddd`).
      if (/^y+$/.test(v)) return pad(year, 4)
      if (/^d+$/.test(v)) return dayName(weekday, true, locale)
      if (/^h+$/.test(v)) return pad(twelve ? ((hour + 11) % 12) + 1 : hour)
      if (/^s+$/.test(v)) return pad(second)
      if (/^m+$/.test(v)) return monthName(month, 4, locale)
      if (/^g+$/.test(v)) return era?.[1] ?? ""
      if (/^e+$/.test(v)) return pad(eraYear)
      return ""
    })
    .join("")
}

// ---------------------------------------------------------------- kanji numerals

const kanjiDigits = ["〇", "一", "二", "三", "四", "五", "六", "七", "八", "九"]
const formalDigits = ["〇", "壱", "弐", "参", "四", "伍", "六", "七", "八", "九"]

/** 1234 → 千二百三十四 (`[DBNum1]`), 壱阡弐百参拾四 (`[DBNum2]`). */
function kanjiNumber(digits: string, formal: boolean): string {
  const n = digits.replace(/^0+(?=\d)/, "")
  if (n === "0") return "〇"
  const names = formal ? formalDigits : kanjiDigits
  const small = formal ? ["", "拾", "百", "阡"] : ["", "十", "百", "千"]
  const large = ["", formal ? "萬" : "万", "億", "兆", "京"]
  let out = ""
  const groups = Math.ceil(n.length / 4)
  for (let g = 0; g < groups; g++) {
    const end = n.length - (groups - 1 - g) * 4
    const chunk = n.slice(Math.max(0, end - 4), end)
    let part = ""
    for (let i = 0; i < chunk.length; i++) {
      const d = Number(chunk[i])
      const place = chunk.length - 1 - i
      if (d === 0) continue
      // DBNum1 drops the 一 before 十 百 千 (十五, not 一十五); DBNum2 keeps 壱.
      part += (d === 1 && place > 0 && !formal ? "" : names[d]) + (small[place] ?? "")
    }
    if (part !== "") out += part + (large[groups - 1 - g] ?? "")
  }
  return out
}

/**
 * `[DBNum1]` kanji, `[DBNum2]` formal kanji, `[DBNum3]` full-width digits,
 * applied to every run of digits. In a number (`decimals`), the digits after
 * the decimal point are read one by one, as decimals are read aloud:
 * 1234.56 is 千二百三十四.五六 and 0.05 is 〇.〇五, never .五十六 or .五
 * (issue 15 item 9).
 */
function toDbNum(text: string, kind: number, decimals: boolean): string {
  if (kind === 3) return text.replace(/[0-9]/g, (d) => String.fromCharCode(0xff10 + Number(d)))
  if (kind !== 1 && kind !== 2) return text
  const formal = kind === 2
  const digitwise = (run: string) => run.replace(/[0-9]/g, (d) => (formal ? formalDigits : kanjiDigits)[Number(d)] ?? d)
  if (!decimals) return text.replace(/[0-9]+/g, (run) => kanjiNumber(run, formal))
  return text.replace(/([0-9]*)\.([0-9]+)|[0-9]+/g, (run: string, int: string | undefined, frac: string | undefined) =>
    frac === undefined ? kanjiNumber(run, formal) : `${int === "" || int === undefined ? "" : kanjiNumber(int, formal)}.${digitwise(frac)}`
  )
}
