import { describe, expect, it } from 'vitest';
import { goQuote } from './go-quote.js';

describe('goQuote', () => {
  // Expected values are what Go's strconv.Quote returns for the same string.
  it.each([
    ['empty string', '', '""'],
    ['plain ASCII', 'preset:read-only', '"preset:read-only"'],
    ['ASCII space stays literal', ' preset:x', '" preset:x"'],
    ['double quote is escaped', 'a"b', '"a\\"b"'],
    ['backslash is escaped', 'a\\b', '"a\\\\b"'],
    ['single quote stays literal', "a'b", '"a\'b"'],
    ['tab', 'a\tb', '"a\\tb"'],
    ['newline', 'preset:x\n', '"preset:x\\n"'],
    ['carriage return', 'a\rb', '"a\\rb"'],
    ['bell, backspace, form feed, vertical tab', '\x07\b\f\v', '"\\a\\b\\f\\v"'],
    ['NUL as \\x00', 'a\x00b', '"a\\x00b"'],
    ['escape (0x1b) as \\x1b', '\x1b[0m', '"\\x1b[0m"'],
    ['DEL as \\x7f', '\x7f', '"\\x7f"'],
    ['NEL (U+0085, a C1 control) as \\u0085', 'a\u0085b', '"a\\u0085b"'],
    ['NBSP (U+00A0) as \\u00a0', 'tool:a\u00a0b', '"tool:a\\u00a0b"'],
    ['soft hyphen (U+00AD, format) as \\u00ad', '\u00ad', '"\\u00ad"'],
    ['BOM (U+FEFF) as \\ufeff', '\ufeffpreset:x', '"\\ufeffpreset:x"'],
    ['ideographic space (U+3000) as \\u3000', '\u3000', '"\\u3000"'],
    ['line separator (U+2028) as \\u2028', '\u2028', '"\\u2028"'],
    ['zero-width joiner (U+200D) as \\u200d', '\u200d', '"\\u200d"'],
    ['unassigned U+0378 as \\u0378', '\u0378', '"\\u0378"'],
    ['private use U+E000 as \\ue000', '\ue000', '"\\ue000"'],
    ['supplementary format char U+E0001 as \\U000e0001', '\u{e0001}', '"\\U000e0001"'],
    ['noncharacter U+10FFFF as \\U0010ffff', '\u{10ffff}', '"\\U0010ffff"'],
    ['printable Latin-1 letter stays literal', 'tool:grün', '"tool:grün"'],
    ['CJK stays literal', 'server:日本', '"server:日本"'],
    ['combining mark stays literal', 'e\u0301', '"e\u0301"'],
    ['emoji (a symbol outside the BMP) stays literal', 'tool:😀', '"tool:😀"'],
    ['currency and math symbols stay literal', '€±', '"€±"'],
    ['U+FFFD stays literal', '\ufffd', '"\ufffd"'],
    ['a lone surrogate becomes a literal U+FFFD, as Go sees it after JSON decoding', 'a\ud800b', '"a\ufffdb"'],
  ])('%s', (_name, input, want) => {
    expect(goQuote(input)).toBe(want);
  });
});
