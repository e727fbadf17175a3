/**
 * Running the composition root (`runServe`) in a test: a loopback port nothing listens
 * on (for a chart registry or an API server that is down), and `startServe`, which parses
 * `serve` arguments, starts the service and hands back its addresses and a stop.
 */
import { createServer, type AddressInfo } from 'node:net';
import { parseConfig, type AppConfig } from '../../src/config/index.js';
import { silentLogger, type Logger } from '../../src/log/logger.js';
import { runServe, type ServeOptions } from '../../src/serve.js';

/** A port nothing listens on: bound once, then released. */
export async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `--agent-chart-oci-url` of a registry that is down, so the embedded schema answers. */
export async function deadRegistryFlag(): Promise<string> {
  return `--agent-chart-oci-url=oci://127.0.0.1:${await deadPort()}/charts/agent`;
}

/**
 * `serve` arguments parsed into the config, or a thrown error naming what did not parse.
 * Unless the arguments say otherwise, the shutdown delay is 0: a test's stop has no
 * load balancer to wait for, and the delay would only add to every test's teardown.
 */
export function serveConfig(args: readonly string[], env: Record<string, string> = {}): AppConfig {
  const delay = args.some((a) => a.startsWith('--shutdown-delay')) || 'AGENT_MANAGER_SHUTDOWN_DELAY' in env ? [] : ['--shutdown-delay=0s'];
  const parsed = parseConfig(['serve', ...delay, ...args], env);
  if (parsed.kind !== 'serve') throw new Error(`serve arguments do not parse: ${JSON.stringify(parsed)}`);
  return parsed.config;
}

/** A running service. */
export interface RunningServe {
  /** `http://127.0.0.1:<port>` of the main listener. */
  base: string;
  /** The metrics listener's base URL, when metrics are on. */
  metrics?: string;
  /** Stop it and wait until it has shut down. */
  close(): Promise<void>;
}

/**
 * Start `runServe(config)` and resolve once it listens (reject when start-up fails); `githubPacing`
 * as runServe takes it.
 */
export async function startServe(
  config: AppConfig, log: Logger = silentLogger(), options: Pick<ServeOptions, 'githubPacing'> = {},
): Promise<RunningServe> {
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => { stop = resolve; });
  let running!: Promise<void>;
  const addresses = await new Promise<{ base: string; metrics?: string }>((resolve, reject) => {
    running = runServe(config, log, {
      ...options,
      stop: stopped,
      onListening: (main, metrics) => resolve({
        base: `http://127.0.0.1:${main.port}`,
        metrics: metrics && `http://127.0.0.1:${metrics.port}`,
      }),
    });
    running.catch(reject);
  });
  return { ...addresses, close: async () => { stop(); await running; } };
}
