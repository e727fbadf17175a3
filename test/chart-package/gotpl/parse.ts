/**
 * Parser of the Go text/template subset our Helm chart uses, so the chart can be
 * rendered where no helm binary exists. It knows text, `{{ }}` actions with the `{{-`
 * and `-}}` trim markers, comments, variables (`$x :=`, `$x =`), pipelines with
 * parenthesised sub-pipelines, and the `if`/`else if`/`else`, `range`, `with` and
 * `define` blocks. Anything else (`template`, `block`, `break`, methods with
 * arguments) is refused with an error naming the template and line, so a template
 * that grows past the subset fails loudly instead of rendering wrongly.
 */

/** One operand of a command. */
export type Operand =
  | { kind: 'field'; path: string[] } // `.` is path []
  | { kind: 'var'; name: string; path: string[] } // `$` is name '$'
  | { kind: 'ident'; name: string }
  | { kind: 'literal'; value: unknown }
  | { kind: 'pipe'; pipe: Pipeline; path: string[] };

/** A pipeline: optional variable declaration or assignment, then commands joined by `|`. */
export interface Pipeline {
  decl?: { names: string[]; assign: boolean };
  commands: Operand[][];
}

export type Node =
  | { kind: 'text'; text: string }
  | { kind: 'action'; pipe: Pipeline; line: number }
  | { kind: 'if'; branches: { pipe: Pipeline; body: Node[] }[]; otherwise?: Node[]; line: number }
  | { kind: 'with'; pipe: Pipeline; body: Node[]; otherwise?: Node[]; line: number }
  | { kind: 'range'; pipe: Pipeline; body: Node[]; otherwise?: Node[]; line: number };

/** A parsed file: its top-level nodes and the templates it defines. */
export interface Parsed {
  nodes: Node[];
  defines: Map<string, Node[]>;
}

interface Piece {
  kind: 'text' | 'action';
  text: string;
  line: number;
}

/** Split a template into text and action pieces, applying the trim markers. */
function split(source: string, name: string): Piece[] {
  const pieces: Piece[] = [];
  let pos = 0;
  let trimNext = false;
  const lineAt = (i: number) => source.slice(0, i).split('\n').length;
  while (pos < source.length) {
    const open = source.indexOf('{{', pos);
    let text = source.slice(pos, open === -1 ? source.length : open);
    if (trimNext) text = text.replace(/^\s+/, '');
    if (open === -1) {
      if (text) pieces.push({ kind: 'text', text, line: lineAt(pos) });
      break;
    }
    const trimLeft = /^\{\{- /.test(source.slice(open, open + 4)) || source.slice(open, open + 4) === '{{-\n';
    if (trimLeft) text = text.replace(/\s+$/, '');
    if (text) pieces.push({ kind: 'text', text, line: lineAt(pos) });
    let start = open + (trimLeft ? 3 : 2);
    const commentStart = source.slice(start).match(/^\s*\/\*/);
    let close: number;
    if (commentStart) {
      const end = source.indexOf('*/', start);
      if (end === -1) throw new Error(`${name}:${lineAt(open)}: unclosed comment`);
      close = source.indexOf('}}', end);
    } else {
      close = findClose(source, start);
    }
    if (close === -1) throw new Error(`${name}:${lineAt(open)}: unclosed action`);
    const trimRight = source.slice(close - 2, close) === ' -' || source.slice(close - 2, close) === '\n-';
    const body = source.slice(start, trimRight ? close - 1 : close);
    if (!commentStart) pieces.push({ kind: 'action', text: body.trim(), line: lineAt(open) });
    start = close + 2;
    pos = start;
    trimNext = trimRight;
  }
  return pieces;
}

/** The `}}` closing an action, skipping string literals. */
function findClose(source: string, from: number): number {
  for (let i = from; i < source.length; i++) {
    const c = source[i];
    if (c === '"') {
      for (i++; i < source.length && source[i] !== '"'; i++) if (source[i] === '\\') i++;
    } else if (c === '`') {
      i = source.indexOf('`', i + 1);
      if (i === -1) return -1;
    } else if (c === '}' && source[i + 1] === '}') {
      return i;
    }
  }
  return -1;
}

/** A token of an action; `sp` says whether whitespace came before it (`(x).F` vs `(x) .F`). */
type Token = { t: 'str' | 'num' | 'word' | 'field' | 'var' | 'punct'; v: string; sp: boolean };

function lex(text: string, where: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s*(?:("(?:[^"\\]|\\.)*")|(`[^`]*`)|(-?\d+(?:\.\d+)?)|(\$[A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)|(\.(?:[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)?)|([A-Za-z_][A-Za-z0-9_]*)|(:=|[()|=,]))/y;
  let m: RegExpExecArray | null;
  let last = 0;
  while ((m = re.exec(text)) !== null) {
    const sp = /^\s/.test(m[0]);
    last = re.lastIndex;
    if (m[1] !== undefined) tokens.push({ t: 'str', v: JSON.parse(m[1]) as string, sp });
    else if (m[2] !== undefined) tokens.push({ t: 'str', v: m[2].slice(1, -1), sp });
    else if (m[3] !== undefined) tokens.push({ t: 'num', v: m[3], sp });
    else if (m[4] !== undefined) tokens.push({ t: 'var', v: m[4], sp });
    else if (m[5] !== undefined) tokens.push({ t: 'field', v: m[5], sp });
    else if (m[6] !== undefined) tokens.push({ t: 'word', v: m[6], sp });
    else tokens.push({ t: 'punct', v: m[7]!, sp });
    if (re.lastIndex === text.length) break;
  }
  if (text.slice(last).trim() !== '') throw new Error(`${where}: cannot read ${JSON.stringify(text.slice(last))}`);
  return tokens;
}

class PipeParser {
  private i = 0;
  constructor(private readonly tokens: Token[], private readonly where: string) {}

  done(): boolean {
    return this.i >= this.tokens.length;
  }

  peek(): Token | undefined {
    return this.tokens[this.i];
  }

  next(): Token {
    const token = this.tokens[this.i++];
    if (!token) throw new Error(`${this.where}: unexpected end of action`);
    return token;
  }

  /** `$a, $b :=` / `$a :=` / `$a =` if present. */
  decl(allowTwo: boolean): Pipeline['decl'] {
    const t = this.tokens;
    const j = this.i;
    if (t[j]?.t === 'var' && t[j + 1]?.v === ',' && allowTwo && t[j + 2]?.t === 'var' && t[j + 3]?.v === ':=') {
      this.i += 4;
      return { names: [t[j]!.v, t[j + 2]!.v], assign: false };
    }
    if (t[j]?.t === 'var' && (t[j + 1]?.v === ':=' || t[j + 1]?.v === '=')) {
      this.i += 2;
      return { names: [t[j]!.v], assign: t[j + 1]!.v === '=' };
    }
    return undefined;
  }

  pipeline(allowTwo = false): Pipeline {
    const decl = this.decl(allowTwo);
    const commands: Operand[][] = [[]];
    while (!this.done() && this.peek()!.v !== ')') {
      const token = this.next();
      if (token.t === 'punct' && token.v === '|') {
        commands.push([]);
        continue;
      }
      commands[commands.length - 1]!.push(this.operand(token));
    }
    if (commands.some((c) => c.length === 0)) throw new Error(`${this.where}: empty command in pipeline`);
    return { decl, commands };
  }

  private operand(token: Token): Operand {
    switch (token.t) {
      case 'str': return { kind: 'literal', value: token.v };
      case 'num': return { kind: 'literal', value: Number(token.v) };
      case 'field': return { kind: 'field', path: token.v === '.' ? [] : token.v.slice(1).split('.') };
      case 'var': {
        const [name, ...path] = token.v.split('.');
        return { kind: 'var', name: name!, path };
      }
      case 'word':
        if (token.v === 'true' || token.v === 'false') return { kind: 'literal', value: token.v === 'true' };
        if (token.v === 'nil') return { kind: 'literal', value: null };
        return { kind: 'ident', name: token.v };
      case 'punct':
        if (token.v === '(') {
          const pipe = this.pipeline();
          if (this.next().v !== ')') throw new Error(`${this.where}: missing )`);
          const after = this.peek();
          let path: string[] = [];
          if (after?.t === 'field' && !after.sp && after.v !== '.') path = this.next().v.slice(1).split('.');
          return { kind: 'pipe', pipe, path };
        }
        throw new Error(`${this.where}: unexpected ${token.v}`);
    }
  }
}

function parsePipeline(text: string, where: string, allowTwo = false): Pipeline {
  const parser = new PipeParser(lex(text, where), where);
  const pipe = parser.pipeline(allowTwo);
  if (!parser.done()) throw new Error(`${where}: unexpected ${parser.peek()!.v}`);
  return pipe;
}

const UNSUPPORTED = /^(template|block|break|continue|else with)\b/;

/** Parse one template file. `name` appears in error messages. */
export function parseTemplate(source: string, name: string): Parsed {
  const pieces = split(source, name);
  const defines = new Map<string, Node[]>();
  let i = 0;

  // Parse nodes until one of `stops` (an action keyword) is met; returns it.
  function nodes(stops: readonly string[]): { body: Node[]; stop?: Piece } {
    const body: Node[] = [];
    while (i < pieces.length) {
      const piece = pieces[i++]!;
      const where = `${name}:${piece.line}`;
      if (piece.kind === 'text') {
        body.push({ kind: 'text', text: piece.text });
        continue;
      }
      const word = piece.text.split(/\s+/)[0]!;
      if (UNSUPPORTED.test(piece.text)) throw new Error(`${where}: "${word}" is outside the supported template subset`);
      if (stops.includes(word)) return { body, stop: piece };
      if (word === 'if') body.push(ifNode(piece, where));
      else if (word === 'with' || word === 'range') body.push(blockNode(word, piece, where));
      else if (word === 'define') {
        const defName = JSON.parse(piece.text.slice('define'.length).trim()) as string;
        const inner = nodes(['end']);
        if (!inner.stop) throw new Error(`${where}: define ${defName} has no end`);
        defines.set(defName, inner.body);
      } else if (word === 'end' || word === 'else') {
        throw new Error(`${where}: unexpected ${word}`);
      } else {
        body.push({ kind: 'action', pipe: parsePipeline(piece.text, where), line: piece.line });
      }
    }
    return { body };
  }

  function ifNode(first: Piece, where: string): Node {
    const branches: { pipe: Pipeline; body: Node[] }[] = [];
    let condition = first.text.slice(2).trim();
    for (;;) {
      const inner = nodes(['else', 'end']);
      if (!inner.stop) throw new Error(`${where}: if has no end`);
      branches.push({ pipe: parsePipeline(condition, where), body: inner.body });
      if (inner.stop.text === 'end') return { kind: 'if', branches, line: first.line };
      const rest = inner.stop.text.slice(4).trim();
      if (rest.startsWith('if ')) {
        condition = rest.slice(3).trim();
        continue;
      }
      const tail = nodes(['end']);
      if (!tail.stop) throw new Error(`${where}: if has no end`);
      return { kind: 'if', branches, otherwise: tail.body, line: first.line };
    }
  }

  function blockNode(word: 'with' | 'range', first: Piece, where: string): Node {
    const pipe = parsePipeline(first.text.slice(word.length).trim(), where, word === 'range');
    const inner = nodes(['else', 'end']);
    if (!inner.stop) throw new Error(`${where}: ${word} has no end`);
    let otherwise: Node[] | undefined;
    if (inner.stop.text !== 'end') {
      if (inner.stop.text !== 'else') throw new Error(`${where}: only a plain else may follow ${word}`);
      const tail = nodes(['end']);
      if (!tail.stop) throw new Error(`${where}: ${word} has no end`);
      otherwise = tail.body;
    }
    return { kind: word, pipe, body: inner.body, otherwise, line: first.line };
  }

  const top = nodes([]);
  return { nodes: top.body, defines };
}
