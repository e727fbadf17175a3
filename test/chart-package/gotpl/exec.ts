/**
 * Executes parsed templates (parse.ts) over plain data with Go text/template rules:
 * a field of a missing map key is empty, a field of nil is an error, `if`/`with`/`range`
 * open a variable scope, `$` is the data a template was invoked with, and `and`/`or`
 * short-circuit. Errors carry the template name and line.
 */
import { FUNCS, printValue, truthy } from './funcs.js';
import type { Node, Operand, Pipeline } from './parse.js';

type Scope = Map<string, unknown>;

/** Renders nodes with the named templates of every parsed file in reach of `include`. */
export class Executor {
  constructor(
    private readonly defines: ReadonlyMap<string, Node[]>,
    private readonly file: string,
  ) {}

  /** Render `nodes` with `data` as both `.` and `$`. */
  render(nodes: Node[], data: unknown): string {
    return this.run(nodes, data, [new Map([['$', data]])]);
  }

  private run(nodes: Node[], dot: unknown, scopes: Scope[]): string {
    let out = '';
    for (const node of nodes) {
      try {
        out += this.node(node, dot, scopes);
      } catch (err) {
        if (err instanceof TemplateError) throw err;
        const line = 'line' in node ? node.line : 0;
        throw new TemplateError(`${this.file}:${line}: ${(err as Error).message}`, (err as Error).message);
      }
    }
    return out;
  }

  private node(node: Node, dot: unknown, scopes: Scope[]): string {
    switch (node.kind) {
      case 'text':
        return node.text;
      case 'action': {
        const value = this.pipeline(node.pipe, dot, scopes);
        return node.pipe.decl ? '' : printValue(value);
      }
      case 'if': {
        for (const branch of node.branches) {
          const inner = [...scopes, new Map()];
          if (truthy(this.pipeline(branch.pipe, dot, inner))) return this.run(branch.body, dot, inner);
        }
        return node.otherwise ? this.run(node.otherwise, dot, [...scopes, new Map()]) : '';
      }
      case 'with': {
        const inner = [...scopes, new Map()];
        const value = this.pipeline(node.pipe, dot, inner);
        if (truthy(value)) return this.run(node.body, value, inner);
        return node.otherwise ? this.run(node.otherwise, dot, [...scopes, new Map()]) : '';
      }
      case 'range': {
        const names = node.pipe.decl?.names ?? [];
        const value = this.pipeline({ commands: node.pipe.commands }, dot, scopes);
        const items: [unknown, unknown][] = Array.isArray(value)
          ? value.map((v, i) => [i, v])
          : value !== null && typeof value === 'object'
            ? Object.keys(value).sort().map((k) => [k, (value as Record<string, unknown>)[k]])
            : [];
        if (value != null && typeof value !== 'object') throw new Error(`range can't iterate over ${printValue(value)}`);
        if (items.length === 0) return node.otherwise ? this.run(node.otherwise, dot, [...scopes, new Map()]) : '';
        let out = '';
        for (const [key, item] of items) {
          const scope: Scope = new Map();
          if (names.length === 1) scope.set(names[0]!, item);
          if (names.length === 2) {
            scope.set(names[0]!, key);
            scope.set(names[1]!, item);
          }
          out += this.run(node.body, item, [...scopes, scope]);
        }
        return out;
      }
    }
  }

  private pipeline(pipe: Pipeline, dot: unknown, scopes: Scope[]): unknown {
    let value: unknown;
    let piped = false;
    for (const command of pipe.commands) {
      value = this.command(command, dot, scopes, piped ? [value] : []);
      piped = true;
    }
    if (pipe.decl) {
      const name = pipe.decl.names[0]!;
      if (pipe.decl.assign) {
        const owner = [...scopes].reverse().find((s) => s.has(name));
        if (!owner) throw new Error(`undefined variable: ${name}`);
        owner.set(name, value);
      } else {
        scopes[scopes.length - 1]!.set(name, value);
      }
    }
    return value;
  }

  private command(command: Operand[], dot: unknown, scopes: Scope[], piped: unknown[]): unknown {
    const [head, ...rest] = command;
    if (head!.kind !== 'ident') {
      if (rest.length > 0 || piped.length > 0) throw new Error('can\'t give arguments to a non-function');
      return this.operand(head!, dot, scopes);
    }
    const name = head!.name;
    const arg = (i: number): unknown => (i < rest.length ? this.operand(rest[i]!, dot, scopes) : piped[0]);
    const count = rest.length + piped.length;
    if (name === 'and' || name === 'or') {
      let last: unknown;
      for (let i = 0; i < count; i++) {
        last = arg(i);
        if (name === 'and' ? !truthy(last) : truthy(last)) return last;
      }
      return last;
    }
    const args = [...rest.map((op) => this.operand(op, dot, scopes)), ...piped];
    if (name === 'include') {
      const body = this.defines.get(args[0] as string);
      if (!body) throw new Error(`no template ${JSON.stringify(args[0])} associated with template`);
      return new Executor(this.defines, `${this.file} > ${String(args[0])}`).render(body, args[1]);
    }
    const fn = FUNCS[name];
    if (!fn) throw new Error(`function "${name}" not defined (outside the supported subset)`);
    return fn(...args);
  }

  private operand(op: Operand, dot: unknown, scopes: Scope[]): unknown {
    switch (op.kind) {
      case 'literal':
        return op.value;
      case 'field':
        return fieldPath(dot, op.path);
      case 'var': {
        const owner = [...scopes].reverse().find((s) => s.has(op.name));
        if (!owner) throw new Error(`undefined variable: ${op.name}`);
        return fieldPath(owner.get(op.name), op.path);
      }
      case 'pipe':
        return fieldPath(this.pipeline(op.pipe, dot, scopes), op.path);
      case 'ident':
        return this.command([op], dot, scopes, []);
    }
  }
}

function fieldPath(value: unknown, path: readonly string[]): unknown {
  let cur = value;
  for (const key of path) {
    if (cur === null || cur === undefined) throw new Error(`nil pointer evaluating interface {}.${key}`);
    if (typeof cur !== 'object' || Array.isArray(cur)) throw new Error(`can't evaluate field ${key} in type ${typeof cur}`);
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** A render failure: `message` has the file and line, `reason` is the template's own text (e.g. a `fail`). */
export class TemplateError extends Error {
  override name = 'TemplateError';
  constructor(message: string, readonly reason: string) {
    super(message);
  }
}
