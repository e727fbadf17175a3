/**
 * The production HTTP app and listener over a service fixture on a loopback port, with the MCP SDK's
 * own client (Client + StreamableHTTPClientTransport) connected to its /mcp: what the MCP
 * suites that drive a real AgentService start before their tests and close after them.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { silentLogger } from '../../src/log/logger.js';
import { startServiceFixture, type FixtureOptions, type ServiceFixture } from '../support/service/fixture.js';
import { createApp } from '../../src/app.js';
import { serveApp } from '../support/transport/serve-app.js';

export interface ServedMcp {
  fixture: ServiceFixture;
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  client: Client;
  close(): Promise<void>;
}

/** Starts the fixture, the app and a connected client named `clientName`. */
export async function serveMcp(clientName: string, options: FixtureOptions = {}): Promise<ServedMcp> {
  const fixture = await startServiceFixture(options);
  const app = createApp({ service: fixture.service, log: silentLogger(), version: 'test' });
  // The production listener: its idle keep-alive outlasts any stall of this process (serve-app.ts).
  const served = await serveApp(app);
  const url = `${served.url}/mcp`;
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    fixture, url, client,
    async close() {
      await client.close();
      await served.close();
      await fixture.close();
    },
  };
}
