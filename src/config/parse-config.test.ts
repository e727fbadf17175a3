import { describe, expect, it } from 'vitest';
import type { AppConfig } from './app-config.js';
import { parseConfig, type ParseResult } from './parse-config.js';
import type { SandboxCommandConfig } from './sandbox-cluster-config.js';

type Env = Record<string, string | undefined>;

function serve(args: string[], env: Env = {}): AppConfig {
  const r = parseConfig(['serve', ...args], env);
  if (r.kind !== 'serve') throw new Error(`expected serve, got ${JSON.stringify(r)}`);
  return r.config;
}

function sandbox(args: string[], env: Env = {}): SandboxCommandConfig {
  const r = parseConfig(['sandbox', ...args], env);
  if (r.kind !== 'sandbox') throw new Error(`expected sandbox, got ${JSON.stringify(r)}`);
  return r.config;
}

function error(argv: string[], env: Env = {}): string {
  const r: ParseResult = parseConfig(argv, env);
  if (r.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(r)}`);
  return r.message;
}

const DEX = ['--enable-oauth', '--oauth-base-url=https://am.example.com', '--dex-issuer-url=https://dex.example.com',
  '--dex-client-id=am', '--dex-client-secret=s3cret'];

describe('parseConfig: command dispatch', () => {
  it.each([
    [[], { kind: 'help', topic: 'root' }],
    [['--help'], { kind: 'help', topic: 'root' }],
    [['-h'], { kind: 'help', topic: 'root' }],
    [['help'], { kind: 'help', topic: 'root' }],
    [['help', 'serve'], { kind: 'help', topic: 'serve' }],
    [['help', 'sandbox'], { kind: 'help', topic: 'sandbox' }],
    [['--help', 'serve'], { kind: 'help', topic: 'serve' }],
    [['serve', '--help'], { kind: 'help', topic: 'serve' }],
    [['serve', '-h'], { kind: 'help', topic: 'serve' }],
    [['serve', '--agent-chart-refresh=banana', '--help'], { kind: 'help', topic: 'serve' }],
    [['sandbox', '-h'], { kind: 'help', topic: 'sandbox' }],
    [['version', '--help'], { kind: 'help', topic: 'version' }],
    [['--version'], { kind: 'version', format: 'line' }],
    [['-v', '--version'], { kind: 'version', format: 'line' }],
    [['version'], { kind: 'version', format: 'full' }],
  ] as const)('reads %j as %j', (argv, expected) => {
    expect(parseConfig(argv, {})).toEqual(expected);
  });

  it.each([
    [['bogus'], 'unknown command "bogus" for "agent-manager" (want serve, sandbox, migrate, version)'],
    [['--bogus', 'serve'], 'unknown flag: --bogus (see agent-manager --help)'],
    [['help', 'bogus'], 'unknown help topic "bogus": want serve, sandbox, migrate, version'],
    [['serve', '--bogus'], 'unknown flag: --bogus (see agent-manager serve --help)'],
    [['serve', '-x'], "unknown shorthand flag: 'x' in -x (see agent-manager serve --help)"],
    [['serve', '--listen'], 'flag needs an argument: --listen'],
    [['serve', 'extra'], 'agent-manager serve takes no arguments, got "extra"; flags start with --'],
    [['serve', '--in-cluster', 'false'], 'agent-manager serve takes no arguments, got "false"; flags start with --'],
    [['serve', '--no-in-cluster=true'], '--no-in-cluster takes no value, got "true"'],
    [['serve', '--no-listen'], 'unknown flag: --no-listen (see agent-manager serve --help)'],
    [['version', '--listen=:1'], 'unknown flag: --listen (see agent-manager version --help)'],
    [['version', 'x'], 'agent-manager version takes no arguments, got "x"; flags start with --'],
    [['--verbose=maybe', 'serve'], '--verbose "maybe": not a bool'],
  ])('refuses %j with %j', (argv, message) => {
    expect(error(argv)).toContain(message);
  });

  it('applies the root -v to the command, and a later --verbose=false still wins', () => {
    expect(parseConfig(['-v', 'serve'], {})).toMatchObject({ kind: 'serve', config: { verbose: true } });
    expect(parseConfig(['--verbose', 'sandbox'], {})).toMatchObject({ kind: 'sandbox', config: { verbose: true } });
    expect(parseConfig(['-v', 'serve', '--verbose=false'], {})).toMatchObject({ kind: 'serve', config: { verbose: false } });
  });

  it('is pure: the same input gives the same result and the env object is not touched', () => {
    const env = Object.freeze({ AGENT_MANAGER_LISTEN: ':9000' });
    expect(parseConfig(['serve'], env)).toEqual(parseConfig(['serve'], env));
  });
});

describe('parseConfig: serve defaults', () => {
  it('builds the documented defaults with no flags and no env', () => {
    expect(serve([])).toEqual({
      proxy: { httpProxy: '', httpsProxy: '', noProxy: '' },
      otel: { enabled: false },
      listen: ':8080',
      verbose: false,
      allowedOrigins: [],
      shutdown: { delay: { text: '5s', ms: 5_000 }, timeout: { text: '15s', ms: 15_000 } },
      kube: { kubeconfig: '', context: '', inCluster: false, readCache: true, readCacheClusters: 50, kagentApiVersion: 'auto', kagentV2ApiVersion: 'auto', helmReleaseApiVersion: 'auto', ociRepositoryApiVersion: 'auto' },
      namespaces: { default: 'kagent', managed: ['kagent'] },
      revisionHistoryLimit: 10,
      chart: {
        ociUrl: 'oci://gsoci.azurecr.io/charts/giantswarm/agent', semver: '2.x', refresh: { text: '10m', ms: 600_000 },
        auth: { dockerConfig: '', username: '', password: '', token: '' }, secretRef: '', provider: 'generic',
      },
      compose: {
        helmReleaseInterval: { text: '10m', ms: 600_000 },
        ociRepositoryInterval: { text: '30m', ms: 1_800_000 },
        helmReleaseServiceAccount: '',
      },
      skills: { repositories: [], githubApi: 'https://api.github.com', githubToken: '', cacheTtl: { text: '5m', ms: 300_000 } },
      sessions: { a2aUrl: 'http://kagent-controller.kagent:8083/api/a2a', a2aUrlSet: false },
      gitops: { repository: '', repositories: [], branch: 'main', path: '', githubApiUrl: 'https://api.github.com', appId: '', appPrivateKeyFile: '', githubToken: '' },
      fleet: { targetMusterUrl: '', organizations: [] },
      line2: { harnessName: 'kagent', musterUrl: '', skillsGitAuthSecretName: '' },
      harnessGuards: { egress: {}, musterTokenFile: '' },
      mcp: { enabled: true, path: '/mcp' },
      oauth: { enabled: false },
      metrics: { enabled: true, listen: ':9464' },
      sandbox: { enabled: false, listen: '127.0.0.1:0', kubeconfigOut: '', reconcileDelayMs: 100 },
    });
  });
});

describe('parseConfig: flag, env and default', () => {
  it.each([
    ['listen', 'AGENT_MANAGER_LISTEN', ':9000', ':9100', (c: AppConfig) => c.listen],
    ['kube-context', 'KUBE_CONTEXT', 'env-ctx', 'flag-ctx', (c: AppConfig) => c.kube.context],
    ['kagent-namespace', 'KAGENT_NAMESPACE', 'env-ns', 'flag-ns', (c: AppConfig) => c.namespaces.default],
    ['revision-history-limit', 'AGENT_MANAGER_REVISION_HISTORY_LIMIT', '3', '0', (c: AppConfig) => String(c.revisionHistoryLimit)],
    ['agent-chart-semver', 'AGENT_CHART_SEMVER', '0.x', '~2.1', (c: AppConfig) => c.chart.semver],
    ['mcp-path', 'AGENT_MANAGER_MCP_PATH', '/env', '/flag', (c: AppConfig) => c.mcp.path],
    ['skills-github-token', 'GITHUB_TOKEN', 'env-token', 'flag-token', (c: AppConfig) => c.skills.githubToken],
    ['gitops-github-token', 'GITOPS_GITHUB_TOKEN', 'env-token', 'flag-token', (c: AppConfig) => c.gitops.githubToken],
    ['metrics-listen', 'AGENT_MANAGER_METRICS_LISTEN', ':9500', ':9600', (c: AppConfig) => c.metrics.listen],
    ['sandbox-kubeconfig', 'AGENT_MANAGER_SANDBOX_KUBECONFIG', '/tmp/env', '/tmp/flag', (c: AppConfig) => c.sandbox.kubeconfigOut],
  ])('--%s wins over %s, which wins over the default', (name, env, envValue, flagValue, pick) => {
    expect(pick(serve([], { [env]: envValue }))).toBe(envValue);
    expect(pick(serve([`--${name}=${flagValue}`], { [env]: envValue }))).toBe(flagValue);
    expect(pick(serve([`--${name}`, flagValue], { [env]: envValue }))).toBe(flagValue);
  });

  it('treats an empty env value as unset', () => {
    expect(serve([], { AGENT_MANAGER_LISTEN: '', AGENT_MANAGER_MCP_ENABLED: '', AGENT_CHART_REFRESH: '' })).toMatchObject({
      listen: ':8080', mcp: { enabled: true }, chart: { refresh: { text: '10m' } },
    });
    // An empty env value does not turn metrics off; the empty flag does.
    expect(serve([], { AGENT_MANAGER_METRICS_LISTEN: '' }).metrics).toEqual({ enabled: true, listen: ':9464' });
    expect(serve(['--metrics-listen=']).metrics).toEqual({ enabled: false, listen: '' });
  });

  it('ignores env vars of flags it does not know and of other commands', () => {
    expect(serve([], { SANDBOX_LISTEN: 'garbage', UNRELATED: 'x' }).listen).toBe(':8080');
  });

  it.each([
    [['--in-cluster'], {}, true],
    [['--in-cluster=true'], {}, true],
    [['--in-cluster=false'], { KUBERNETES_IN_CLUSTER: 'true' }, false],
    [['--in-cluster=0'], {}, false],
    [['--in-cluster=T'], {}, true],
    [['--no-in-cluster'], { KUBERNETES_IN_CLUSTER: '1' }, false],
    [[], { KUBERNETES_IN_CLUSTER: 'True' }, true],
    [[], { KUBERNETES_IN_CLUSTER: 'f' }, false],
    [['--in-cluster', '--no-in-cluster'], {}, false],
    [['--no-in-cluster', '--in-cluster'], {}, true],
  ])('reads the bool %j with env %j as %s', (args, env, expected) => {
    expect(serve(args, env).kube.inCluster).toBe(expected);
  });

  it('turns a default-true bool off with --no-<name> or =false', () => {
    expect(serve(['--no-mcp-enabled']).mcp.enabled).toBe(false);
    expect(serve(['--mcp-enabled=false']).mcp.enabled).toBe(false);
    expect(serve([], { AGENT_MANAGER_MCP_ENABLED: 'false' }).mcp.enabled).toBe(false);
  });

  it('keeps a --flag=value that contains = and a value that starts with a dash', () => {
    expect(serve(['--kube-context=a=b']).kube.context).toBe('a=b');
    expect(serve(['--kube-context', '-odd']).kube.context).toBe('-odd');
  });

  it('reads -v as --verbose', () => {
    expect(serve(['-v']).verbose).toBe(true);
    expect(serve([], { AGENT_MANAGER_VERBOSE: '1' }).verbose).toBe(true);
  });
});

describe('parseConfig: lists and namespaces', () => {
  it('puts the default namespace first, then the extras without duplicates', () => {
    expect(serve(['--kagent-namespace=agents', '--managed-namespaces= team-a, agents,,team-b ,team-a']).namespaces)
      .toEqual({ default: 'agents', managed: ['agents', 'team-a', 'team-b'] });
    expect(serve([], { AGENT_MANAGER_MANAGED_NAMESPACES: 'x,y' }).namespaces.managed).toEqual(['kagent', 'x', 'y']);
  });

  it('trims list items and drops empty ones', () => {
    expect(serve(['--skills-repositories', ' https://github.com/a/b ,, https://github.com/c/d,']).skills.repositories)
      .toEqual(['https://github.com/a/b', 'https://github.com/c/d']);
    expect(serve([...DEX, '--oauth-trusted-audiences= a ,,b,']).oauth).toMatchObject({ trustedAudiences: ['a', 'b'] });
  });
});

describe('parseConfig: shutdown (--shutdown-delay, --shutdown-timeout)', () => {
  it('reads the flags, or else their variables', () => {
    expect(serve(['--shutdown-delay=10s', '--shutdown-timeout=1m']).shutdown)
      .toEqual({ delay: { text: '10s', ms: 10_000 }, timeout: { text: '1m', ms: 60_000 } });
    expect(serve([], { AGENT_MANAGER_SHUTDOWN_DELAY: '0', AGENT_MANAGER_SHUTDOWN_TIMEOUT: '500ms' }).shutdown)
      .toEqual({ delay: { text: '0', ms: 0 }, timeout: { text: '500ms', ms: 500 } });
  });

  it('defaults the delay to 0 with --sandbox (no load balancer to wait for), unless one is given', () => {
    expect(serve(['--sandbox']).shutdown.delay).toEqual({ text: '0s', ms: 0 });
    expect(serve(['--sandbox', '--shutdown-delay=2s']).shutdown.delay).toEqual({ text: '2s', ms: 2_000 });
    expect(serve(['--sandbox'], { AGENT_MANAGER_SHUTDOWN_DELAY: '3s' }).shutdown.delay).toEqual({ text: '3s', ms: 3_000 });
    expect(serve([]).shutdown.delay).toEqual({ text: '5s', ms: 5_000 });
  });

  it.each([
    [['--shutdown-delay=-1s'], '--shutdown-delay "-1s": must not be negative (0 stops accepting at once)'],
    [['--shutdown-timeout=0s'], '--shutdown-timeout "0s": must be positive: in-flight requests need time to finish'],
    [['--shutdown-delay=5'], '--shutdown-delay "5": not a duration (want Go syntax such as 10m, 1h30m, 500ms or 0)'],
  ])('refuses %j', (argv, message) => {
    expect(error(['serve', ...argv])).toBe(message);
  });
});

describe('parseConfig: --sandbox-reconcile-delay', () => {
  it('slows the sandbox\'s controllers as asked, from the flag or its variable; 100ms by default', () => {
    expect(serve(['--sandbox']).sandbox.reconcileDelayMs).toBe(100);
    expect(serve(['--sandbox', '--sandbox-reconcile-delay', '5s']).sandbox.reconcileDelayMs).toBe(5_000);
    expect(serve(['--sandbox'], { AGENT_MANAGER_SANDBOX_RECONCILE_DELAY: '1m' }).sandbox.reconcileDelayMs).toBe(60_000);
    expect(serve(['--sandbox', '--sandbox-reconcile-delay=0']).sandbox.reconcileDelayMs).toBe(0);
  });

  it.each([
    [['serve', '--sandbox-reconcile-delay=5s'], {}, '--sandbox-reconcile-delay needs --sandbox: it slows the ' +
      'stand-in controllers of the in-process sandbox, and a real cluster\'s controllers are its own; add --sandbox ' +
      '(npm start does) or drop the flag'],
    [['serve'], { AGENT_MANAGER_SANDBOX_RECONCILE_DELAY: '5s' }, '--sandbox-reconcile-delay ' +
      '(from AGENT_MANAGER_SANDBOX_RECONCILE_DELAY) needs --sandbox: it slows the stand-in controllers of the in-process ' +
      'sandbox, and a real cluster\'s controllers are its own; add --sandbox (npm start does) or drop the flag'],
    [['serve', '--sandbox', '--sandbox-reconcile-delay=-1s'], {},
      '--sandbox-reconcile-delay "-1s": must not be negative (0 reconciles at once)'],
  ])('refuses %j %j', (argv, env, message) => {
    expect(error(argv, env)).toBe(message);
  });
});

describe('parseConfig: the session tools (--kagent-a2a-url)', () => {
  it('defaults to the kagent controller, reads the flag or KAGENT_A2A_URL, and is off when empty', () => {
    expect(serve([]).sessions).toEqual({ a2aUrl: 'http://kagent-controller.kagent:8083/api/a2a', a2aUrlSet: false });
    expect(serve(['--kagent-a2a-url=https://kagent.example/api/a2a']).sessions).toEqual({ a2aUrl: 'https://kagent.example/api/a2a', a2aUrlSet: true });
    expect(serve([], { KAGENT_A2A_URL: 'http://kagent:8083/api/a2a' }).sessions).toEqual({ a2aUrl: 'http://kagent:8083/api/a2a', a2aUrlSet: true });
    expect(serve(['--kagent-a2a-url=']).sessions).toEqual({ a2aUrl: '', a2aUrlSet: true });
  });

  it('refuses a URL that carries credentials, without printing them', () => {
    const message = error(['serve', '--kagent-a2a-url=http://user:secret@kagent:8083/api/a2a']);
    expect(message).toContain('--kagent-a2a-url');
    expect(message).toContain('must not carry credentials');
    expect(message).not.toContain('secret');
  });
});

describe('parseConfig: toolset presets (--toolset-presets)', () => {
  it('is not set by default, and reads the flag or AGENT_MANAGER_TOOLSET_PRESETS as a list without duplicates', () => {
    expect(serve([]).toolsetPresets).toBeUndefined();
    expect(serve(['--toolset-presets=safe-ops,audit,safe-ops']).toolsetPresets).toEqual(['safe-ops', 'audit']);
    expect(serve([], { AGENT_MANAGER_TOOLSET_PRESETS: 'safe-ops, v1.2_x' }).toolsetPresets).toEqual(['safe-ops', 'v1.2_x']);
  });

  it.each([
    ['preset:safe-ops', 'is not a preset name: letters, digits, \'.\', \'_\' and \'-\', starting with a letter or digit (give the name without "preset:")'],
    ['-x', 'is not a preset name: letters, digits, \'.\', \'_\' and \'-\', starting with a letter or digit'],
  ])('stops startup on %j, naming the flag and the item', (item, reason) => {
    expect(error(['serve', `--toolset-presets=ok,${item}`])).toBe(`--toolset-presets ${JSON.stringify(item)}: ${reason}`);
  });
});

describe('parseConfig: browser origins (--allowed-origins)', () => {
  it('reads the flag, or else AGENT_MANAGER_ALLOWED_ORIGINS, as a list of origins', () => {
    expect(serve(['--allowed-origins=https://portal.example.com']).allowedOrigins).toEqual(['https://portal.example.com']);
    expect(serve([], { AGENT_MANAGER_ALLOWED_ORIGINS: 'https://a.example.com, http://b.example.com:8080' }).allowedOrigins)
      .toEqual(['https://a.example.com', 'http://b.example.com:8080']);
    expect(serve(['--allowed-origins=https://flag.example.com'], { AGENT_MANAGER_ALLOWED_ORIGINS: 'https://env.example.com' }).allowedOrigins)
      .toEqual(['https://flag.example.com']);
    expect(serve([], { AGENT_MANAGER_ALLOWED_ORIGINS: '' }).allowedOrigins).toEqual([]);
  });

  it.each([
    ['https://Portal.Example.COM', 'https://portal.example.com'],
    ['https://portal.example.com:443', 'https://portal.example.com'],
    ['http://portal.example.com:80', 'http://portal.example.com'],
    ['https://portal.example.com:8443', 'https://portal.example.com:8443'],
    ['https://portal.example.com/', 'https://portal.example.com'],
    ['http://10.0.0.5:3000', 'http://10.0.0.5:3000'],
    ['https://[2001:db8::1]:8443', 'https://[2001:db8::1]:8443'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
  ])('normalises %s to %s, as a browser writes Origin', (text, origin) => {
    expect(serve([`--allowed-origins=${text}`]).allowedOrigins).toEqual([origin]);
  });

  it('drops empty items and duplicates after normalising', () => {
    expect(serve(['--allowed-origins= https://a.example.com ,,https://A.example.com:443/,https://b.example.com,']).allowedOrigins)
      .toEqual(['https://a.example.com', 'https://b.example.com']);
  });

  it.each([
    ['portal.example.com', 'not an origin'],
    ['*', 'not an origin'],
    ['null', 'not an origin'],
    ['ftp://portal.example.com', 'not an http or https origin'],
    ['https://*.example.com', 'wildcards are not supported: list each origin'],
    ['https://portal.example.com/app', 'an origin has no user info, path, query or fragment'],
    ['https://portal.example.com//', 'an origin has no user info, path, query or fragment'],
    ['https://portal.example.com?x=1', 'an origin has no user info, path, query or fragment'],
    ['https://portal.example.com#top', 'an origin has no user info, path, query or fragment'],
    ['https://user:pw@portal.example.com', 'an origin has no user info, path, query or fragment'],
  ])('refuses %j, naming the flag and the item', (item, reason) => {
    const message = error(['serve', `--allowed-origins=https://ok.example.com,${item}`]);
    expect(message).toBe(`--allowed-origins ${JSON.stringify(item)}: ${reason} (want http(s)://host[:port] such as https://portal.example.com)`);
  });

  it('names the environment variable when the bad value came from it', () => {
    expect(error(['serve'], { AGENT_MANAGER_ALLOWED_ORIGINS: 'https://portal.example.com/app' }))
      .toMatch(/^--allowed-origins \(from AGENT_MANAGER_ALLOWED_ORIGINS\) "https:\/\/portal\.example\.com\/app": an origin has no/);
  });

  it('leaves the OAuth base URL out of the list (the composition root adds its origin)', () => {
    expect(serve([...DEX, '--allowed-origins=https://portal.example.com']).allowedOrigins).toEqual(['https://portal.example.com']);
  });
});

describe('parseConfig: durations', () => {
  it.each([
    ['10m', { text: '10m', ms: 600_000 }],
    ['1h30m', { text: '1h30m', ms: 5_400_000 }],
    ['500ms', { text: '500ms', ms: 500 }],
    ['0', { text: '10m', ms: 600_000 }],
    ['-5m', { text: '10m', ms: 600_000 }],
  ])('reads --agent-chart-refresh=%s as %j (zero or less means 10m)', (text, expected) => {
    expect(serve([`--agent-chart-refresh=${text}`]).chart.refresh).toEqual(expected);
  });

  it('keeps the interval text Flux will carry', () => {
    expect(serve(['--helmrelease-interval=1h30m', '--ocirepository-interval=90s']).compose).toMatchObject({
      helmReleaseInterval: { text: '1h30m', ms: 5_400_000 },
      ociRepositoryInterval: { text: '90s', ms: 90_000 },
    });
  });

  it('allows a zero skills cache TTL', () => {
    expect(serve(['--skills-cache-ttl=0']).skills.cacheTtl).toEqual({ text: '0', ms: 0 });
  });

  it.each(['0', '-1m', '10us', '1d'])('refuses the Flux interval %j', (text) => {
    expect(error(['serve', `--helmrelease-interval=${text}`])).toMatch(/^--helmrelease-interval ".*": /);
  });
});

describe('parseConfig: values that do not parse are errors naming the flag and the value', () => {
  it.each([
    [['--agent-chart-refresh=banana'], '--agent-chart-refresh "banana": not a duration'],
    [['--agent-chart-refresh='], '--agent-chart-refresh "": not a duration'],
    [['--skills-cache-ttl=5'], '--skills-cache-ttl "5": not a duration'],
    [['--helmrelease-interval=soon'], '--helmrelease-interval "soon": not a duration'],
    [['--ocirepository-interval=0'], '--ocirepository-interval "0": Flux needs a positive interval'],
    [['--in-cluster=yes'], '--in-cluster "yes": not a bool'],
    [['--mcp-enabled=on'], '--mcp-enabled "on": not a bool'],
    [['--verbose='], '--verbose "": not a bool'],
    [['--skills-github-api=api.github.com'], '--skills-github-api "api.github.com": not a URL'],
    [['--dex-issuer-url=ftp://dex'], '--dex-issuer-url "ftp://dex": not an http or https URL'],
    [['--skills-repositories=https://github.com/a/b,github.com/c/d'], '--skills-repositories "github.com/c/d": not a URL'],
    [['--listen=8080'], '--listen "8080": not a listen address'],
    [['--metrics-listen=:99999'], '--metrics-listen ":99999": not a listen address'],
    [['--sandbox-listen=localhost'], '--sandbox-listen "localhost": not a listen address'],
    [['--mcp-path=mcp'], '--mcp-path "mcp": must start with /'],
    [['--kagent-namespace='], '--kagent-namespace "": must name a namespace'],
    [['--flux-helmrelease-api-version=foo/v2'], '--flux-helmrelease-api-version "foo/v2": want auto, a version such as v1 or v2, or helm.toolkit.fluxcd.io/<version>'],
    [['--agent-chart-oci-url=https://x/y'], '--agent-chart-oci-url: chart URL "https://x/y" must look like oci://<registry>/<repository>'],
    [['--agent-chart-semver=>>1'], '--agent-chart-semver: chart semver range ">>1": '],
    [['--agent-chart-semver='], '--agent-chart-semver: chart semver range "": '],
    [['--agent-chart-semver=x.x.x'], '--agent-chart-semver: chart semver range "x.x.x": semver range "x.x.x" admits ' +
      'chart majors 0, 1, 2, 3, …; a range must follow one chart line (0.x or 2.x)'],
    [['--agent-chart-semver=1.x'], 'follows chart 1.x, which agent-manager does not serve; use 0.x or 2.x'],
    [['--harness-name=Claude'], '--harness-name "Claude" is not a Harness name'],
    [['--muster-url=muster:8090'], '--muster-url "muster:8090" must be an http(s) URL'],
    [['--revision-history-limit=-1'], '--revision-history-limit "-1": not a count (want a whole number such as 0 or 10)'],
    [['--revision-history-limit=ten'], '--revision-history-limit "ten": not a count'],
  ])('refuses %j with %j', (args, message) => {
    expect(error(['serve', ...args])).toContain(message);
  });

  it.each([
    ['AGENT_CHART_REFRESH', 'banana', '--agent-chart-refresh (from AGENT_CHART_REFRESH) "banana": not a duration'],
    ['KUBERNETES_IN_CLUSTER', 'yes', '--in-cluster (from KUBERNETES_IN_CLUSTER) "yes": not a bool'],
    ['AGENT_MANAGER_MCP_ENABLED', 'nope', '--mcp-enabled (from AGENT_MANAGER_MCP_ENABLED) "nope": not a bool'],
    ['AGENT_MANAGER_SKILLS_GITHUB_API', 'nope', '--skills-github-api (from AGENT_MANAGER_SKILLS_GITHUB_API) "nope": not a URL'],
    ['AGENT_CHART_OCI_URL', 'x', '--agent-chart-oci-url (from AGENT_CHART_OCI_URL): chart URL "x" must look like oci://<registry>/<repository>'],
    ['AGENT_CHART_SEMVER', '~>', '--agent-chart-semver (from AGENT_CHART_SEMVER): chart semver range "~>": '],
  ])('refuses %s=%j naming the flag, the variable and the value', (env, value, message) => {
    expect(error(['serve'], { [env]: value })).toContain(message);
  });

  it('lets a valid flag override a bad env value', () => {
    expect(serve(['--agent-chart-refresh=1m'], { AGENT_CHART_REFRESH: 'banana' }).chart.refresh.text).toBe('1m');
  });
});

describe('parseConfig: API versions', () => {
  it.each([
    ['v2', 'helm.toolkit.fluxcd.io/v2'],
    ['helm.toolkit.fluxcd.io/v2beta2', 'helm.toolkit.fluxcd.io/v2beta2'],
    ['auto', 'auto'],
  ])('reads --flux-helmrelease-api-version=%s as %s', (text, expected) => {
    expect(serve([`--flux-helmrelease-api-version=${text}`]).kube.helmReleaseApiVersion).toBe(expected);
  });

  it('prefixes a bare OCIRepository version with its group', () => {
    expect(serve(['--flux-ocirepository-api-version=v1beta2']).kube.ociRepositoryApiVersion).toBe('source.toolkit.fluxcd.io/v1beta2');
  });

  it.each([['v1alpha2', 'v1alpha2'], ['kagent.dev/v1alpha2', 'v1alpha2'], ['auto', 'auto']])(
    'reads --kagent-api-version=%s as %s', (text, expected) => {
      expect(serve([`--kagent-api-version=${text}`]).kube.kagentApiVersion).toBe(expected);
    },
  );
});

describe('parseConfig: OAuth rules', () => {
  it.each([
    [['--downstream-oauth'], '--downstream-oauth needs --enable-oauth: without OAuth there is no caller token to present to the Kubernetes API'],
    [['--enable-oauth'], 'oauth: base URL is required'],
    [['--enable-oauth', '--oauth-base-url=http://am.example.com'], 'oauth: base URL must use https (http is allowed for loopback only): http://am.example.com'],
    [['--enable-oauth', '--oauth-base-url=http://10.0.0.1:8080'], 'oauth: base URL must use https (http is allowed for loopback only): http://10.0.0.1:8080'],
    [['--enable-oauth', '--oauth-base-url=ftp://am.example.com'], 'oauth: base URL scheme must be http or https: ftp://am.example.com'],
    [['--enable-oauth', '--oauth-base-url=am.example.com'], 'oauth: base URL scheme must be http or https: am.example.com'],
    [['--enable-oauth', '--oauth-base-url=https://am.example.com'], 'oauth: dex issuer URL is required'],
    [['--enable-oauth', '--oauth-base-url=https://am', '--dex-client-id=a'], 'oauth: dex issuer URL is required'],
    [['--enable-oauth', '--oauth-base-url=https://am', '--dex-issuer-url=https://dex'],
      'oauth: dex client ID is required when --oauth-trusted-audiences is empty: it is the audience bearer tokens must carry'],
    [['--enable-oauth', '--oauth-base-url=https://am', '--oauth-provider=google'],
      'oauth: google client ID is required when --oauth-trusted-audiences is empty: it is the audience bearer tokens must carry'],
    [['--enable-oauth', '--oauth-base-url=https://am', '--oauth-provider=github'], 'oauth: provider "github": want dex or google'],
  ])('refuses %j with the exact text', (args, message) => {
    expect(error(['serve', ...args])).toBe(message);
  });

  it.each(['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080', 'https://am.example.com'])(
    'accepts the base URL %s', (url) => {
      expect(serve([...DEX, `--oauth-base-url=${url}`]).oauth).toMatchObject({ enabled: true, baseUrl: url });
    },
  );

  it('asks for no client secret: dex needs its issuer and client ID, google its client ID, a set secret is ignored', () => {
    expect(serve(['--enable-oauth', '--oauth-base-url=https://am', '--dex-issuer-url=https://dex', '--dex-client-id=am']).oauth)
      .toMatchObject({ enabled: true, provider: { name: 'dex', issuerUrl: 'https://dex', clientId: 'am' } });
    expect(serve(['--enable-oauth', '--oauth-base-url=https://am', '--oauth-provider=google', '--google-client-id=g']).oauth)
      .toMatchObject({ enabled: true, provider: { name: 'google', clientId: 'g' } });
    const withSecret = serve(['--enable-oauth', '--oauth-base-url=https://am', '--dex-issuer-url=https://dex', '--dex-client-id=am'], { DEX_CLIENT_SECRET: 'unused' });
    expect(JSON.stringify(withSecret)).not.toContain('unused');
  });

  it('needs no client ID either when --oauth-trusted-audiences names the audiences', () => {
    expect(serve(['--enable-oauth', '--oauth-base-url=https://am', '--dex-issuer-url=https://dex', '--oauth-trusted-audiences=platform']).oauth)
      .toMatchObject({ provider: { name: 'dex', clientId: '' }, trustedAudiences: ['platform'] });
  });

  it.each([
    [['--allow-public-client-registration'], {}, '--allow-public-client-registration was removed: '],
    [['--allow-public-client-registration=false'], {}, '--allow-public-client-registration was removed: '],
    [['--no-allow-public-client-registration'], {}, '--allow-public-client-registration was removed: '],
    [[], { AGENT_MANAGER_OAUTH_ALLOW_PUBLIC_REGISTRATION: 'true' }, '--allow-public-client-registration (from AGENT_MANAGER_OAUTH_ALLOW_PUBLIC_REGISTRATION) was removed: '],
  ])('refuses the removed --allow-public-client-registration (%j %j), saying why', (args, env, start) => {
    const message = error(['serve', ...args], env);
    expect(message.startsWith(start)).toBe(true);
    expect(message).toContain('offers no client registration endpoint (MCP clients register with the identity provider); drop the flag');
  });

  it('starts with the removed switch turned off in the environment', () => {
    expect(serve([], { AGENT_MANAGER_OAUTH_ALLOW_PUBLIC_REGISTRATION: 'false' }).oauth).toEqual({ enabled: false });
  });

  it('builds the dex provider slice, from flags and env', () => {
    expect(serve(['--enable-oauth', '--downstream-oauth', '--dex-ca-file=/ca.pem', '--allow-private-oauth-urls', '--sso-allow-private-ips',
      '--oauth-trusted-audiences=platform,kubernetes'], {
      AGENT_MANAGER_OAUTH_BASE_URL: 'https://am.example.com', DEX_ISSUER_URL: 'https://dex.example.com',
      DEX_CLIENT_ID: 'am', DEX_CLIENT_SECRET: 's3cret',
    }).oauth).toEqual({
      enabled: true,
      baseUrl: 'https://am.example.com',
      provider: { name: 'dex', issuerUrl: 'https://dex.example.com', clientId: 'am', caFile: '/ca.pem', allowPrivateUrls: true },
      trustedAudiences: ['platform', 'kubernetes'],
      ssoAllowPrivateIps: true,
      downstream: true,
    });
  });

  it('builds the google provider slice', () => {
    expect(serve(['--enable-oauth', '--oauth-base-url=https://am', '--oauth-provider=google'], {
      GOOGLE_CLIENT_ID: 'g', GOOGLE_CLIENT_SECRET: 'gs',
    }).oauth).toEqual({ enabled: true, baseUrl: 'https://am', provider: { name: 'google', clientId: 'g' }, trustedAudiences: [], ssoAllowPrivateIps: false, downstream: false });
  });

  it('keeps the read cache off under downstream OAuth unless it is asked for, and on otherwise unless turned off', () => {
    const dex = ['--enable-oauth', '--oauth-base-url=https://am', '--dex-issuer-url=https://dex.example.com', '--dex-client-id=am', '--dex-client-secret=s'];
    expect(serve(dex).kube.readCache).toBe(true);
    expect(serve([...dex, '--downstream-oauth']).kube.readCache).toBe(false);
    expect(serve([...dex, '--downstream-oauth', '--read-cache']).kube.readCache).toBe(true);
    expect(serve([...dex, '--downstream-oauth'], { AGENT_MANAGER_READ_CACHE: 'true' }).kube.readCache).toBe(true);
    expect(serve(['--read-cache=false']).kube.readCache).toBe(false);
    expect(serve(['--no-read-cache']).kube.readCache).toBe(false);
  });

  it('ignores the OAuth settings while OAuth is off', () => {
    expect(serve(['--oauth-provider=github', '--oauth-base-url=http://x']).oauth).toEqual({ enabled: false });
  });
});

describe('parseConfig: sandbox command', () => {
  it('builds the documented defaults', () => {
    expect(sandbox([])).toEqual({
      listen: '127.0.0.1:0', kubeconfigOut: '', seed: true, authorization: 'rbac', controllers: true, reconcileDelayMs: 100, oidc: undefined, verbose: false,
      workloadClusters: 0, organization: 'acme',
    });
  });

  it('reads the workload clusters of a fleet and their organization, from flags or env', () => {
    expect(sandbox(['--workload-clusters', '3', '--organization=initech'])).toMatchObject({ workloadClusters: 3, organization: 'initech' });
    expect(sandbox([], { SANDBOX_WORKLOAD_CLUSTERS: '2', SANDBOX_ORGANIZATION: 'globex' })).toMatchObject({ workloadClusters: 2, organization: 'globex' });
  });

  it('reads every flag, and --no-seed / --no-controllers', () => {
    expect(sandbox(['--listen=127.0.0.1:6443', '--kubeconfig-out', '/tmp/kc', '--no-seed', '--no-controllers', '--authorization=always-allow',
      '--oidc-issuer-url=https://issuer.example', '--oidc-client-id=kube', '--oidc-username-claim=email', '--oidc-groups-claim=groups',
      '--oidc-username-prefix=oidc:', '--oidc-ca-file=/ca.pem', '--reconcile-delay=1s', '-v'])).toEqual({
      listen: '127.0.0.1:6443', kubeconfigOut: '/tmp/kc', seed: false, authorization: 'always-allow', controllers: false, reconcileDelayMs: 1000,
      oidc: { issuerUrl: 'https://issuer.example', clientId: 'kube', usernameClaim: 'email', usernamePrefix: 'oidc:', groupsClaim: 'groups', caFile: '/ca.pem' },
      verbose: true, workloadClusters: 0, organization: 'acme',
    });
  });

  it('reads its own env vars, and flags win', () => {
    expect(sandbox([], { SANDBOX_LISTEN: '127.0.0.1:7000', SANDBOX_KUBECONFIG_OUT: '/kc', SANDBOX_SEED: 'false' }))
      .toMatchObject({ listen: '127.0.0.1:7000', kubeconfigOut: '/kc', seed: false });
    expect(sandbox(['--seed', '--listen=127.0.0.1:7001'], { SANDBOX_LISTEN: '127.0.0.1:7000', SANDBOX_SEED: 'false' }))
      .toMatchObject({ listen: '127.0.0.1:7001', seed: true });
  });

  it.each([
    [['--authorization=abac'], '--authorization "abac": want rbac or always-allow'],
    [['--seed=maybe'], '--seed "maybe": not a bool'],
    [['--listen=nowhere'], '--listen "nowhere": not a listen address'],
    [['--oidc-issuer-url=issuer'], '--oidc-issuer-url "issuer": not a URL'],
    [['--oidc-issuer-url=https://i'], '--oidc-issuer-url and --oidc-client-id go together'],
    [['--oidc-client-id=kube'], '--oidc-issuer-url and --oidc-client-id go together'],
    [['--oidc-ca-file=/ca.pem'], '--oidc-ca-file needs --oidc-issuer-url'],
    [['--reconcile-delay=soon'], '--reconcile-delay "soon": not a duration'],
    [['--oidc-username-prefix=oidc:'], '--oidc-username-prefix needs --oidc-issuer-url'],
    [['--oidc-issuer-url=https://i', '--oidc-client-id=k', '--oidc-username-claim= '], '--oidc-username-claim must name a claim'],
    [['--downstream-oauth'], 'unknown flag: --downstream-oauth (see agent-manager sandbox --help)'],
    [['--workload-clusters=-1'], '--workload-clusters "-1"'],
    [['--workload-clusters=51'], '--workload-clusters 51: the sandbox runs at most 50 workload clusters'],
    [['--organization=ACME'], '--organization "ACME" must be a DNS-1123 label'],
  ])('refuses %j with %j', (args, message) => {
    expect(error(['sandbox', ...args])).toContain(message);
  });
});

describe('parseConfig: commit mode\'s repositories, branch and path', () => {
  it('takes --gitops-repositories from the flag or AGENT_MANAGER_GITOPS_REPOSITORIES', () => {
    expect(serve(['--gitops-repositories=acme/fleet, acme/labs']).gitops.repositories).toEqual(['acme/fleet', 'acme/labs']);
    expect(serve([], { AGENT_MANAGER_GITOPS_REPOSITORIES: 'acme/tenants' }).gitops.repositories).toEqual(['acme/tenants']);
  });

  it.each([
    [['--gitops-repositories=acme/fleet,acme/.git'], 'gitops-repositories', 'a repository is owner/name'],
    [['--gitops-repository=-acme/fleet'], 'gitops-repository', 'a repository is owner/name'],
    [['--gitops-branch=feature..x'], 'gitops-branch', 'does not contain ".."'],
    [['--gitops-path=clusters/.git/hooks'], 'gitops-path', 'no ".git" segment'],
  ])('refuses %j naming the flag and the rule', (args, flag, rule) => {
    const message = error(['serve', ...args]);
    expect(message).toContain(`--${flag}`);
    expect(message).toContain(rule);
  });
});
