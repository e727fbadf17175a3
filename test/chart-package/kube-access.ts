/**
 * Which Kubernetes API access the production code can ask for, read from the code
 * itself with the TypeScript compiler, so the chart's Role can be checked against it
 * (rbac.int.test.ts) and stays exactly what the code calls as others add calls.
 *
 * The derivation, in three steps:
 *
 * 1. **Adapters.** A class in `src` that implements an interface of a `ports.ts` (or `*-ports.ts`) and
 *    reaches `@kubernetes/client-node` is a Kubernetes adapter. For each of its methods
 *    the client-node calls it makes, following calls into our own functions and
 *    methods, give the method's verbs: a generated API method by its prefix (`read`/`get`
 *    → get, `list`, `create`, `replace` → update, `patch`, `delete`,
 *    `deleteCollection`), `Watch#watch` → watch, an informer or `ListWatch` → list and
 *    watch. A typed API method (`readNamespacedPod`, `createSelfSubjectAccessReview`)
 *    also names its resource; the custom-object methods take it from the call, and so
 *    do our plain-JSON reads over client-node's configuration (`KubeApis.readObject` →
 *    get, `KubeApis.listObjects` → list, in src/kube/api-clients.ts).
 * 2. **Call sites.** Every call in production code of a port method that an adapter
 *    implements is an access. Its resource is the `Gvr` argument, which must be a
 *    member of `ResourceTypes` (`types.helmRelease`): followed through local constants
 *    and through parameters to every call of the enclosing function. A decorator's
 *    call (a method passing its own `Gvr` parameter to the port method of its name)
 *    is covered by the calls of the decorator. A method without a
 *    `Gvr` parameter uses the resources its typed API calls name.
 * 3. **Nothing else.** A client-node API call outside an adapter method is reported,
 *    except API discovery (non-resource URLs every authenticated user may read), since
 *    its access could not be derived.
 *
 * Whatever cannot be derived is reported as a problem naming file and line, never
 * guessed: the test fails until the code says what it touches.
 */
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

/** One kind of request: API group ('' for core), plural resource, verb. */
export interface Access {
  group: string;
  resource: string;
  verb: string;
}

export interface Derived {
  /** Every distinct access, with one place that makes it. */
  accesses: Array<Access & { where: string }>;
  problems: string[];
  /** The port methods found to reach the API, as `Interface.method: verbs`. */
  portMethods: string[];
}

/**
 * Declarations the derivation reads as empty: every dependency's but client-node's and the
 * standard library's, and client-node's generated models (914 of its 1,033 files). Only
 * client-node's API classes, watch and informer can make a call a Kubernetes call; a model
 * only types what a call sends or answers, so the derived access is the same without them
 * (and without Octokit's generated GitHub types, once half of what the program parsed).
 */
const UNREAD = new RegExp([
  String.raw`[\\/]node_modules[\\/](?!@kubernetes[\\/]client-node|typescript[\\/]lib)`,
  String.raw`[\\/]@kubernetes[\\/]client-node[\\/]dist[\\/]gen[\\/]models[\\/]`,
].join('|'));

/** Discovery reads non-resource URLs (`/api`, `/apis/...`), open to every authenticated user. */
const DISCOVERY = new Set(['getAPIVersions', 'getAPIResources', 'getAPIGroup', 'getCode', 'getAPIGroups']);

/** API groups of client-node's generated API classes, by the class name's stem. */
const API_GROUPS: Record<string, string> = {
  Core: '', Apps: 'apps', Authorization: 'authorization.k8s.io', Authentication: 'authentication.k8s.io',
  Batch: 'batch', RbacAuthorization: 'rbac.authorization.k8s.io', Coordination: 'coordination.k8s.io',
  Events: 'events.k8s.io', Networking: 'networking.k8s.io', Policy: 'policy', Apiextensions: 'apiextensions.k8s.io',
};

/** Our plain-JSON reads over client-node's configuration (KubeApis), by method: the verb; the resource is the call's
 * Gvr. */
const PLAIN_READS: Record<string, string> = { readObject: 'get', listObjects: 'list' };

const VERB_PREFIXES: Array<[RegExp, string]> = [
  [/^deleteCollection/, 'deletecollection'], [/^(read|get)/, 'get'], [/^list/, 'list'], [/^create/, 'create'],
  [/^replace/, 'update'], [/^patch/, 'patch'], [/^delete/, 'delete'], [/^watch$/, 'watch'],
];

/** A client-node call's verbs, and its resource when the method names one. */
interface ApiCall {
  verbs: string[];
  fixed?: { group: string; resource: string };
  name: string;
}

function plural(kind: string): string {
  const lower = kind.toLowerCase();
  if (/(s|x|ch|sh)$/.test(lower)) return `${lower}es`;
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  return `${lower}s`;
}

/** The modules only the migrate command runs (below src/). */
const MIGRATE_ONLY = new Set(['migrate.ts', 'service/migration/run-migration.ts', 'service/migration/expand.ts',
  'service/migration/wait-contract.ts', 'service/migration/propose-move.ts', 'service/migration/target-source.ts']);

export function deriveKubeAccess(
  root: string, resourceTypes: Record<string, { group: string; resource: string }>,
): Derived {
  const srcDir = join(root, 'src');
  const isProduction = (file: string): boolean => {
    const rel = relative(srcDir, file);
    if (rel.startsWith('..') || file.includes(`${sep}node_modules${sep}`)) return false;
    const parts = rel.split(sep);
    // `agent-manager migrate`'s writes run with the platform engineer's kubeconfig (docs/chart-lines.md "Migrating
    // a namespace"), never with the service's Role: only plan_migration's reads (plan-migration.ts,
    // read-namespace.ts, namespace-plan.ts) are the service's.
    if (MIGRATE_ONLY.has(rel.split(sep).join('/'))) return false;
    return !file.endsWith('.test.ts') && !file.endsWith('.d.ts') && !parts.includes('testing');
  };
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, {
    ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); },
  });
  if (!config) throw new Error('tsconfig.json does not parse');
  const options = { ...config.options, noEmit: true };
  const host = ts.createCompilerHost(options);
  // Nothing here reads a doc comment; not parsing them was a fifth of the parse.
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseNone;
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (file, ...rest) => UNREAD.test(file)
    ? ts.createSourceFile(file, 'export {};', ts.ScriptTarget.Latest) : read(file, ...rest);
  const program = ts.createProgram(config.fileNames.filter(isProduction), options, host);
  const checker = program.getTypeChecker();
  const files = program.getSourceFiles().filter((f) => isProduction(f.fileName));
  const problemSet = new Set<string>();
  const problems = { push: (p: string) => problemSet.add(p) };
  const where = (node: ts.Node): string => {
    const file = node.getSourceFile();
    return `${relative(root, file.fileName)}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  };
  const inClientNode = (fileName: string): boolean => /[\\/]@kubernetes[\\/]client-node[\\/]/.test(fileName);
  const fromClientNode = (decl: ts.Declaration | undefined): boolean =>
    decl !== undefined && inClientNode(decl.getSourceFile().fileName);
  const symbolOf = (node: ts.Node): ts.Symbol | undefined => {
    const s = checker.getSymbolAtLocation(node);
    return s && s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s;
  };

  const calls: ts.CallExpression[] = [];
  const news: ts.NewExpression[] = [];
  for (const file of files) {
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) calls.push(node);
      if (ts.isNewExpression(node)) news.push(node);
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
  const calleeName = (call: ts.CallExpression): ts.Node =>
    ts.isPropertyAccessExpression(call.expression) ? call.expression.name : call.expression;
  /** What a call or `new` names: the method or function called, or the class constructed. */
  const calleeOf = (node: ts.CallExpression | ts.NewExpression): ts.Node =>
    ts.isCallExpression(node) ? calleeName(node) : node.expression;
  // Asking the checker for a call's symbol type-checks its receiver, and doing that for every
  // call of `src` was most of the derivation's time. A call can only be one the steps look for
  // when its callee's name is: calls named otherwise are passed over before the checker is
  // asked (a callee that is not a plain name is always asked about).
  const nameOf = (node: ts.Node): string | undefined =>
    ts.isIdentifier(node) || ts.isPrivateIdentifier(node) ? node.text : undefined;
  const mayBeNamed = (names: ReadonlySet<string>, node: ts.Node): boolean => {
    const name = nameOf(node);
    return name === undefined || names.has(name);
  };
  // Every name client-node declares, the local names its imports are given, and our plain reads.
  const clientNodeNames = new Set<string>(Object.keys(PLAIN_READS));
  const collect = (node: ts.Node): void => {
    const name = (node as { name?: ts.Node }).name;
    if (name && ts.isIdentifier(name)) clientNodeNames.add(name.text);
    ts.forEachChild(node, collect);
  };
  for (const file of program.getSourceFiles()) {
    if (inClientNode(file.fileName)) collect(file);
    else if (isProduction(file.fileName)) {
      for (const statement of file.statements) {
        if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)
          && statement.moduleSpecifier.text.startsWith('@kubernetes/client-node')) collect(statement);
      }
    }
  }

  /** A client-node call's verbs and resource; undefined when the call is not an API request. */
  const apiCall = (call: ts.CallExpression | ts.NewExpression): ApiCall | 'discovery' | undefined => {
    const symbol = symbolOf(calleeOf(call));
    const decl = symbol?.declarations?.[0];
    const plainRead = symbol && decl && PLAIN_READS[symbol.getName()] && ts.isInterfaceDeclaration(decl.parent)
      && decl.parent.name.getText() === 'KubeApis' && decl.getSourceFile().fileName.endsWith(`${sep}kube${sep}api-clients.ts`.replaceAll(sep, '/'));
    if (plainRead) return { verbs: [PLAIN_READS[symbol.getName()]!], name: symbol.getName() };
    if (!symbol || !fromClientNode(decl)) return undefined;
    const name = symbol.getName();
    if (ts.isNewExpression(call)) return name === 'ListWatch' ? { verbs: ['list', 'watch'], name } : undefined;
    if (name === 'makeInformer') return { verbs: ['list', 'watch'], name };
    const owner = decl!.parent;
    const className = ts.isClassDeclaration(owner) || ts.isInterfaceDeclaration(owner) ? owner.name?.getText() ?? '' : '';
    if (className === 'Watch' && name === 'watch') return { verbs: ['watch'], name };
    const api = /^(?:Object)?(?:(CustomObjects)|(\w+?)V\d+\w*)Api$/.exec(className);
    if (!api) return undefined;
    if (DISCOVERY.has(name)) return 'discovery';
    const verb = VERB_PREFIXES.find(([re]) => re.test(name))?.[1];
    if (!verb) {
      problems.push(`${where(call)}: cannot tell the verb of ${className}.${name}`);
      return undefined;
    }
    if (api[1]) return { verbs: [verb], name };
    const group = API_GROUPS[api[2]!];
    const kind = /^(?:read|get|list|create|replace|patch|delete|deleteCollection)(?:Namespaced)?(\w+?)(?:ForAllNamespaces|Status|Scale)?$/.exec(name)?.[1];
    if (group === undefined || !kind) {
      problems.push(`${where(call)}: cannot tell the resource of ${className}.${name}`);
      return { verbs: [verb], name };
    }
    return { verbs: [verb], fixed: { group, resource: plural(kind) }, name };
  };

  /** The client-node API calls a function body makes, following our own callees. */
  const reached = new Map<ts.Node, ApiCall[]>();
  const apiCallsOf = (body: ts.Node, seen = new Set<ts.Node>()): ApiCall[] => {
    if (reached.has(body)) return reached.get(body)!;
    if (seen.has(body)) return [];
    seen.add(body);
    const out: ApiCall[] = [];
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const found = apiCall(node);
        if (found && found !== 'discovery') out.push(found);
        if (!found) {
          const target = symbolOf(calleeOf(node))?.declarations?.[0];
          const fnBody = target && (ts.isFunctionDeclaration(target) || ts.isMethodDeclaration(target)
            || ts.isFunctionExpression(target) || ts.isArrowFunction(target))
            ? target.body
            : target && ts.isVariableDeclaration(target) && target.initializer
              && (ts.isArrowFunction(target.initializer) || ts.isFunctionExpression(target.initializer))
              ? target.initializer.body
              : undefined;
          if (fnBody && isProduction(fnBody.getSourceFile().fileName)) out.push(...apiCallsOf(fnBody, seen));
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(body);
    reached.set(body, out);
    return out;
  };

  // 1. Adapters: classes implementing a port interface whose methods reach client-node.
  const portMethods = new Map<ts.Symbol, { label: string; calls: ApiCall[]; gvrParam: boolean }>();
  for (const file of files) {
    for (const statement of file.statements) {
      if (!ts.isClassDeclaration(statement) || !statement.heritageClauses) continue;
      const implemented = statement.heritageClauses.filter((h) => h.token === ts.SyntaxKind.ImplementsKeyword);
      for (const type of implemented.flatMap((h) => h.types)) {
        const port = symbolOf(type.expression);
        const portDecl = port?.declarations?.[0];
        if (!port || !portDecl || !/[\\/](?:[\w-]+-)?ports\.ts$/.test(portDecl.getSourceFile().fileName) || !ts.isInterfaceDeclaration(portDecl)) continue;
        for (const member of portDecl.members) {
          const memberSymbol = member.name && symbolOf(member.name);
          const impl = statement.members.find((m) => m.name?.getText() === member.name?.getText());
          const body =
            impl &&
            (ts.isMethodDeclaration(impl)
              ? impl.body
              : ts.isPropertyDeclaration(impl) && impl.initializer && ts.isArrowFunction(impl.initializer)
                ? impl.initializer.body
                : undefined);
          if (!memberSymbol || !body) continue;
          const found = apiCallsOf(body);
          if (found.length === 0) continue;
          const gvrParam = ts.isMethodSignature(member) && member.parameters.some((p) => p.type?.getText() === 'Gvr');
          const entry = portMethods.get(memberSymbol) ?? { label: `${port.getName()}.${memberSymbol.getName()}`, calls: [], gvrParam };
          entry.calls.push(...found);
          portMethods.set(memberSymbol, entry);
        }
      }
    }
  }

  // 2. Call sites of those port methods, with the resource of each.
  const accesses = new Map<string, Access & { where: string }>();
  const add = (access: Access, at: string) => {
    const key = `${access.group}/${access.resource}:${access.verb}`;
    if (!accesses.has(key)) accesses.set(key, { ...access, where: at });
  };
  const resourceKeys = (expr: ts.Expression, depth = 0): string[] | string => {
    if (depth > 8) return 'the resource is passed through too many functions to follow';
    while (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isNonNullExpression(expr)) {
      expr = expr.expression;
    }
    const symbol = symbolOf(ts.isPropertyAccessExpression(expr) ? expr.name : expr);
    const decl = symbol?.declarations?.[0];
    if (decl && ts.isPropertySignature(decl) && ts.isInterfaceDeclaration(decl.parent) && decl.parent.name.text === 'ResourceTypes') {
      return [symbol!.getName()];
    }
    if (decl && ts.isVariableDeclaration(decl) && decl.initializer) return resourceKeys(decl.initializer, depth + 1);
    if (decl && ts.isParameter(decl) && ts.isFunctionLike(decl.parent)) {
      const index = decl.parent.parameters.indexOf(decl);
      const fn = decl.parent;
      const fnSymbol = fn.name
        ? symbolOf(fn.name)
        : ts.isVariableDeclaration(fn.parent)
          ? symbolOf(fn.parent.name)
          : undefined;
      const sites = calls.filter((c) => fnSymbol && symbolOf(calleeName(c)) === fnSymbol);
      if (sites.length === 0) return `its resource comes from a parameter of a function never called directly (${where(decl)})`;
      const keys: string[] = [];
      for (const site of sites) {
        const arg = site.arguments[index];
        if (!arg) return `no argument for the resource at ${where(site)}`;
        const found = resourceKeys(arg, depth + 1);
        if (typeof found === 'string') return found;
        keys.push(...found);
      }
      return keys;
    }
    return `the resource ${expr.getText()} is not a member of ResourceTypes`;
  };
  // A decorator (a method handing its own Gvr parameter on to the port method of the same
  // name, as the read cache's ports do) makes no access of its own: its callers' cover it.
  const forwardsOwnGvr = (call: ts.CallExpression): boolean => {
    const arg = call.arguments[0];
    const decl = arg && ts.isIdentifier(arg) ? symbolOf(arg)?.declarations?.[0] : undefined;
    if (!decl || !ts.isParameter(decl) || !ts.isMethodDeclaration(decl.parent) || decl.parent.parameters[0] !== decl) {
      return false;
    }
    return decl.parent.name.getText() === calleeName(call).getText();
  };
  const portMethodNames = new Set([...portMethods.keys()].map((m) => m.getName()));
  for (const call of calls) {
    if (!mayBeNamed(portMethodNames, calleeName(call))) continue;
    const symbol = symbolOf(calleeName(call));
    const method = symbol && portMethods.get(symbol);
    if (!method || (method.gvrParam && forwardsOwnGvr(call))) continue;
    const verbs = [...new Set(method.calls.flatMap((c) => c.verbs))];
    if (method.gvrParam) {
      const keys = call.arguments[0] ? resourceKeys(call.arguments[0]) : 'no resource argument';
      if (typeof keys === 'string') {
        problems.push(`${where(call)}: ${method.label}(…): ${keys}; pass a member of ResourceTypes so its access can be derived`);
        continue;
      }
      for (const key of keys) {
        const type = resourceTypes[key];
        if (!type) {
          problems.push(`${where(call)}: ResourceTypes.${key} has no resource type`);
          continue;
        }
        for (const verb of verbs) add({ group: type.group, resource: type.resource, verb }, where(call));
      }
    } else {
      for (const c of method.calls) {
        if (!c.fixed) {
          problems.push(`${where(call)}: ${method.label} calls ${c.name} without a Gvr to tell its resource`);
          continue;
        }
        for (const verb of c.verbs) add({ ...c.fixed, verb }, where(call));
      }
    }
  }

  // 3. Client-node API calls no adapter method makes, directly or through our helpers.
  const covered = (node: ts.Node): boolean => {
    for (let n: ts.Node | undefined = node; n; n = n.parent) if ((reached.get(n)?.length ?? 0) > 0) return true;
    return false;
  };
  for (const node of [...calls, ...news]) {
    if (!mayBeNamed(clientNodeNames, calleeOf(node))) continue;
    const found = apiCall(node);
    if (!found || found === 'discovery' || covered(node)) continue;
    problems.push(`${where(node)}: ${found.name} reaches the Kubernetes API outside a port adapter, so its access cannot be derived`);
  }

  return {
    accesses: [...accesses.values()].sort((a, b) => `${a.group}/${a.resource}:${a.verb}`.localeCompare(`${b.group}/${b.resource}:${b.verb}`)),
    problems: [...problemSet],
    portMethods: [...portMethods.values()].map((m) => `${m.label}: ${[...new Set(m.calls.flatMap((c) => c.verbs))].join(', ')}`).sort(),
  };
}
