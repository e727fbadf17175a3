/**
 * Go's `%q` for strings (`strconv.Quote`), so that refusals quoting a caller's input read
 * byte for byte like the Go service's: clients and tests compare these texts.
 *
 * The rules, per rune: `"` and `\` are backslash-escaped; a printable rune (Go
 * `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space) stays
 * literal, non-ASCII included; `\a \b \f \n \r \t \v` use their short escapes; any other
 * rune below U+0020 and DEL become `\xNN`, the rest `\uNNNN` or `\UNNNNNNNN` (lower-case hex).
 * So NBSP (U+00A0), NEL (U+0085), BOM (U+FEFF), other spaces, format characters, private
 * use and unassigned code points are escaped.
 *
 * Printability comes from JavaScript's Unicode property escapes, which follow the Unicode
 * version of the Node.js runtime; Go's table may be a version apart for newly assigned code
 * points, which only ever changes whether such a rune is escaped.
 *
 * A lone UTF-16 surrogate cannot reach Go as such: its JSON decoder turns it into U+FFFD,
 * a printable symbol, so it is rendered as a literal U+FFFD here.
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
  const cp = ch.codePointAt(0) as number;
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
