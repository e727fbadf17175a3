/**
 * The service the client's tests call: its origin, AGENT_MANAGER_URL, which the `client` project's
 * global set-up (test/global-setup/agent-manager-service.ts at the repository root) sets after
 * starting `serve --sandbox`, or which names a running service of your own. Each test file uses
 * agent names of its own, so files can share one service.
 */
export function serviceUrl(): string {
  const url = process.env.AGENT_MANAGER_URL;
  if (!url) {
    throw new Error('AGENT_MANAGER_URL is not set: run these tests from the repository root '
      + '(npx vitest run --project client), whose set-up starts the service, or point it at a running one');
  }
  return url;
}
