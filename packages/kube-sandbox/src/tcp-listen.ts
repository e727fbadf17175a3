/**
 * Listening on loopback TCP, as the sandbox's servers do (the API server, kagent's A2A endpoint, the
 * muster double): a failure to listen rejects, and the address read back is a TCP one, checked, since
 * Node types `server.address()` for pipes and closed servers too.
 */
import type { AddressInfo } from 'node:net';

interface Listening {
  address(): AddressInfo | string | null;
}

/** The TCP address a listening server reports; an error for a pipe or a server not listening. */
export function tcpAddress(server: Listening): AddressInfo {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the server is not listening on a TCP port');
  return address;
}

interface Listenable extends Listening {
  once(event: 'error', listener: (err: Error) => void): unknown;
  off(event: 'error', listener: (err: Error) => void): unknown;
  listen(port: number, host: string, callback: () => void): unknown;
}

/** Listen on `host:port` (0: a free port); the error listener goes once listening. */
export async function listenTcp(server: Listenable, port: number, host: string): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return tcpAddress(server);
}
