/**
 * kagent's A2A endpoint as the sandbox serves it: every Ready Agent speaks A2A (JSON-RPC, streaming) at
 * `<url>/<namespace>/<name>/` with its card at `.well-known/agent-card.json` (`<url>` is `…/api/a2a`, as
 * kagent's controller serves it); any other agent is kagent's plain-text 404 `Agent <ns>/<name> not found`.
 * Built on the A2A SDK's server side; the caller is the user kagent's unsecured authenticator takes
 * (`?user_id=`, else `X-User-Id`, else `admin@kagent.dev`), and each user's tasks stay apart.
 * Every request is recorded (method, path, Authorization, X-User-Id) so tests see what a client sent.
 */
import { createServer, type Server } from 'node:http';
import { AGENT_CARD_PATH, type AgentCard } from '@a2a-js/sdk';
import type { ServerCallContext} from '@a2a-js/sdk/server';
import { DefaultRequestHandler, InMemoryTaskStore, type User } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler } from '@a2a-js/sdk/server/express';
import express, { type Request, type Router } from 'express';
import { readMeta, type JsonObject } from '../api/json.js';
import type { SandboxStore } from '../ops/sandbox-store.js';
import { listenTcp } from '../tcp-listen.js';
import { agentFacts, servedAgent } from './agent-facts.js';
import { HeldTurns, responder } from './responder.js';

/** The path prefix kagent's controller serves A2A under. */
export const A2A_PATH = '/api/a2a';

/** The user kagent takes when a request names none. */
export const DEFAULT_A2A_USER = 'admin@kagent.dev';

/** One request the endpoint received. */
export interface A2ARequestRecord {
  readonly method: string;
  readonly path: string;
  readonly authorization?: string;
  readonly userId?: string;
}

/** A running A2A endpoint. */
export interface A2AEndpoint {
  /** `http://127.0.0.1:<port>/api/a2a` */
  readonly url: string;
  /** The requests received, oldest first (the last 1,000). */
  readonly requests: A2ARequestRecord[];
  close(): Promise<void>;
}

const MAX_RECORDS = 1_000;

class NamedUser implements User {
  constructor(private readonly name: string) {}
  get isAuthenticated(): boolean {
    return true;
  }

  get userName(): string {
    return this.name;
  }
}

const userOf = (req: Request): string => {
  const query = typeof req.query.user_id === 'string' ? req.query.user_id : '';
  return query || req.get('x-user-id') || DEFAULT_A2A_USER;
};

/** One agent's A2A handler, kept while the Agent keeps its uid. */
interface AgentHandler {
  readonly uid: string;
  readonly router: Router;
}

function agentRouter(store: SandboxStore, base: string, namespace: string, name: string, held: HeldTurns): Router {
  const facts = () => {
    const agent = servedAgent(store, namespace, name);
    return agent ? agentFacts(store, agent) : undefined;
  };
  const url = `${base}/${namespace}/${name}/`;
  const known = facts();
  const card: AgentCard = {
    name: known?.displayName ?? name,
    description: `The kagent agent ${namespace}/${name} (sandbox)`,
    version: '1.0.0',
    supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    provider: undefined, documentationUrl: undefined, iconUrl: undefined,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {}, securityRequirements: [], defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'converse', name: 'Converse', description: 'Answers messages from the agent\'s configuration',
      tags: ['sandbox'], examples: ['which tools do you have?'], inputModes: [], outputModes: [],
      securityRequirements: [] }],
    signatures: [],
  };
  const tasks = new InMemoryTaskStore();
  const firstTurn = async (context: {
    contextId: string;
    taskId: string;
    context: ServerCallContext;
  }): Promise<boolean> => {
    const listed = await tasks.list(
      { tenant: '', contextId: context.contextId, status: 0, pageToken: '', statusTimestampAfter: undefined },
      context.context,
    );
    return listed.tasks.every((t) => t.id === context.taskId);
  };
  const handler = new DefaultRequestHandler(card, tasks, responder(facts, firstTurn, held));
  const router = express.Router();
  // The card names the agent as it is now (a display name can change while the uid stays).
  router.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: async () =>
    ({ ...card, name: facts()?.displayName ?? name }) }));
  router.use(jsonRpcHandler({ requestHandler: handler, userBuilder: async (req) => new NamedUser(userOf(req)) }));
  return router;
}

/** Serve A2A for the store's Ready agents on `host:port` (port 0 picks one). */
export async function startA2AEndpoint(store: SandboxStore, host: string, port: number): Promise<A2AEndpoint> {
  const requests: A2ARequestRecord[] = [];
  const handlers = new Map<string, AgentHandler>();
  const held = new HeldTurns();
  const app = express();
  let base = '';
  app.use((req, _res, next) => {
    requests.push({ method: req.method, path: req.path, authorization: req.get('authorization'),
      userId: req.get('x-user-id') });
    if (requests.length > MAX_RECORDS) requests.shift();
    next();
  });
  app.use(`${A2A_PATH}/:namespace/:name`, (req, res, next) => {
    // Both are set: the route's pattern has them.
    const { namespace = '', name = '' } = req.params;
    const agent: JsonObject | undefined = servedAgent(store, namespace, name);
    if (!agent) {
      handlers.delete(`${namespace}/${name}`);
      res.status(404).type('text/plain').send(`Agent ${namespace}/${name} not found\n`);
      return;
    }
    const uid = String(readMeta(agent).uid);
    let entry = handlers.get(`${namespace}/${name}`);
    if (entry?.uid !== uid) {
      entry = { uid, router: agentRouter(store, base, namespace, name, held) };
      handlers.set(`${namespace}/${name}`, entry);
    }
    entry.router(req, res, next);
  });
  app.use((_req, res) => {
    res.status(404).type('text/plain').send('404 page not found\n');
  });
  const server: Server = createServer(app);
  const address = await listenTcp(server, port, host);
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  base = `http://${hostPart}:${address.port}${A2A_PATH}`;
  return {
    url: base, requests,
    close: () => new Promise<void>((resolve) => {
      held.releaseAll();
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
