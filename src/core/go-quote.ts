/**
 * Go's `%q` for strings (`strconv.Quote`), so refusals quoting a caller's input read byte for byte as
 * clients already compare them: `"` and `\` escaped, printable runes (Go's `unicode.IsPrint`) literal,
 * short escapes for `\a \b \f \n \r \t \v`, other controls `\xNN`, the rest `\uNNNN`/`\UNNNNNNNN`.
 * Printability comes from Node's Unicode tables, which may be a version apart from Go's for new code
 * points; a lone surrogate is shown as U+FFFD, which Go's JSON decoder would have made of it.
 */

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  0x07: '\\a',
  0x08: '\\b',
  0x0c: '\\f',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
  0x0b: '\\v',
};

const REPLACEMENT = '\ufffd';

/** `s` quoted exactly as Go's `strconv.Quote` (and so `fmt`'s `%q`) renders it. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    out += quoteRune(ch);
  }
  return out + '"';
}

function quoteRune(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp >= 0xd800 && cp <= 0xdfff) return REPLACEMENT;
  if (ch === '"' || ch === '\\') return '\\' + ch;
  if (PRINTABLE.test(ch)) return ch;
  const short = SHORT_ESCAPES[cp];
  if (short !== undefined) return short;
  if (cp < 0x20 || cp === 0x7f) return '\\x' + hex(cp, 2);
  if (cp < 0x10000) return '\\u' + hex(cp, 4);
  return '\\U' + hex(cp, 8);
}

function hex(cp: number, width: number): string {
  return cp.toString(16).padStart(width, '0');
}
