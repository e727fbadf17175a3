import { describe, expect, it } from 'vitest';
import { Executor, TemplateError } from './exec.js';
import { parseTemplate } from './parse.js';

/** Render `source` (with its own defines) over `data`. */
function run(source: string, data: unknown = {}): string {
  const parsed = parseTemplate(source, 't.yaml');
  return new Executor(parsed.defines, 't.yaml').render(parsed.nodes, data);
}

describe('the Go-template subset renderer', () => {
  it.each([
    ['plain text and a field', 'a: {{ .x }}', { x: 1 }, 'a: 1'],
    ['a missing map key prints nothing', '[{{ .nope }}]', {}, '[]'],
    ['{{- trims whitespace before, -}} after', 'a  \n  {{- "b" -}}  \n  c', {}, 'abc'],
    ['a comment prints nothing and may trim', 'a\n{{- /* note */}}\nb', {}, 'a\nb'],
    ['if / else if / else', '{{ if .a }}A{{ else if .b }}B{{ else }}C{{ end }}', { b: true }, 'B'],
    ['Go truth: empty list, map and zero are false', '{{ if .l }}1{{ end }}{{ if .m }}2{{ end }}{{ if .z }}3{{ end }}{{ if .s }}4{{ end }}', { l: [], m: {}, z: 0, s: 'x' }, '4'],
    ['with moves the dot and has an else', '{{ with .a }}{{ .b }}{{ else }}none{{ end }}|{{ with .c }}x{{ else }}none{{ end }}', { a: { b: 'B' } }, 'B|none'],
    ['range over a list with index and value', '{{ range $i, $v := .l }}{{ $i }}={{ $v }};{{ end }}', { l: ['a', 'b'] }, '0=a;1=b;'],
    ['range over a map in key order', '{{ range $k, $v := .m }}{{ $k }}{{ $v }}{{ end }}', { m: { b: 2, a: 1 } }, 'a1b2'],
    ['range else on an empty list', '{{ range .l }}x{{ else }}empty{{ end }}', { l: [] }, 'empty'],
    ['$ is the root inside range and with', '{{ range .l }}{{ $.p }}{{ . }}{{ end }}', { l: [1, 2], p: '-' }, '-1-2'],
    ['= assigns the outer variable', '{{ $x := "a" }}{{ if true }}{{ $x = "b" }}{{ end }}{{ $x }}', {}, 'b'],
    [':= inside a block does not leak', '{{ $x := "a" }}{{ if true }}{{ $x := "b" }}{{ end }}{{ $x }}', {}, 'a'],
    ['pipelines pass the value as the last argument', '{{ "x" | printf "%s-%s" "a" }}', {}, 'a-x'],
    ['parenthesised sub-pipelines and a field after them', '{{ (dict "k" "v").k }} {{ default (printf "d") .nope }}', {}, 'v d'],
    ['and / or return an operand and short-circuit', '{{ and 1 0 }} {{ or 0 "" "z" }} {{ or true .nil.field }}', {}, '0 z true'],
    ['include renders a define with its own dot', '{{- define "n" }}<{{ . }}>{{ end -}}{{ include "n" "v" | upper }}', {}, '<V>'],
    ['toYaml sorts keys and nindent indents every line', 'k:{{ toYaml .m | nindent 2 }}', { m: { b: [1], a: 'x' } }, 'k:\n  a: x\n  b:\n  - 1'],
    ['quote uses Go %q', '{{ quote .s }}', { s: 'a"b' }, '"a\\"b"'],
    ['uniq keeps first occurrences in order', '{{ list "b" "a" "b" "c" "a" | uniq | join "," }}', {}, 'b,a,c'],
    ['dig walks maps and falls back', '{{ dig "a" "b" "none" .m }} {{ dig "a" "x" "none" .m }}', { m: { a: { b: 'B' } } }, 'B none'],
    ['trunc then trimAll', '{{ "ab-._cd" | trunc 5 | trimAll "-._" }}', {}, 'ab'],
    ['compact drops empty items', '{{ compact (list "" "a" "") | toJson }}', {}, '["a"]'],
  ])('%s', (_name, source, data, want) => {
    expect(run(source, data)).toBe(want);
  });

  it.each([
    ['a field of nil', '{{ .a.b.c }}', 'nil pointer evaluating interface {}.c'],
    ['fail', '{{ fail "stop here" }}', 'stop here'],
    ['required on an empty string', '{{ required "need x" "" }}', 'need x'],
    ['an unknown function', '{{ lookup "v1" "Secret" "" "" }}', 'function "lookup" not defined'],
    ['an undefined variable', '{{ $nope }}', 'undefined variable: $nope'],
    ['an unknown template', '{{ include "nope" . }}', 'no template "nope"'],
  ])('fails on %s with the reason and the line', (_name, source, reason) => {
    let error: unknown;
    try {
      run(`line one\n${source}`, { a: { b: null } });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(TemplateError);
    expect((error as TemplateError).reason).toContain(reason);
    expect((error as TemplateError).message).toMatch(/^t\.yaml(?: > \S+)?:2: /);
  });

  it.each([
    ['template', '{{ template "x" . }}'],
    ['break', '{{ range .l }}{{ break }}{{ end }}'],
    ['an unclosed if', '{{ if .a }}x'],
  ])('refuses %s, outside the subset', (_name, source) => {
    expect(() => run(source, { l: [1] })).toThrow();
  });
});
