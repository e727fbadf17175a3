/**
 * Vitest global set-up of the `client` project (packages/client's tests): the service those
 * tests are a client of, `serve --sandbox` started once in this process on a loopback port 0
 * (test/support/start-serve.ts), its origin passed to the workers as AGENT_MANAGER_URL. The
 * package imports nothing of the product, so it gets the service here. An AGENT_MANAGER_URL
 * set already names a running service to test against instead; nothing is started then.
 */
import { deadRegistryFlag, serveConfig, startServe } from '../support/start-serve.js';

export const SERVICE_URL_ENV = 'AGENT_MANAGER_URL';

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env[SERVICE_URL_ENV]) return undefined;
  const running = await startServe(serveConfig(['--sandbox', '--listen=127.0.0.1:0', '--metrics-listen=', await deadRegistryFlag()]));
  process.env[SERVICE_URL_ENV] = running.base;
  return async () => {
    delete process.env[SERVICE_URL_ENV];
    await running.close();
  };
}
