/**
 * The A2A port over the kagent controller's endpoint (`<base>/<namespace>/<name>/`, kagent
 * serving `/api/a2a/{namespace}/{name}` on its controller's HTTP port), with the A2A SDK's
 * own client. Each call reads the agent card first (name, skills, streaming) through the
 * caller's fetch (identity-fetch.ts), then talks JSON-RPC to the configured endpoint: the
 * URL the card advertises is not followed, so a card cannot send the caller's token
 * elsewhere, and kagent's advertised base URL (its own loopback default) does not matter.
 */
import { AGENT_CARD_PATH, type AgentCard } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import type { A2AConversation, A2AIdentity, A2APort, CardFacts } from '../service/sessions/session-port.js';
import { a2aError } from './a2a-errors.js';
import { SdkConversation } from './conversation.js';
import { identityFetch } from './identity-fetch.js';

export interface KagentA2AOptions {
  /** `--kagent-a2a-url`: the controller's A2A base, e.g. `http://kagent-controller.kagent:8083/api/a2a`. */
  readonly baseUrl: string;
  /** The outbound fetch (proxy, metrics with peer `kagent`, spans). */
  readonly fetch: typeof fetch;
}

const cardFacts = (card: AgentCard): CardFacts => ({
  name: card.name, streaming: card.capabilities?.streaming === true, skills: card.skills.map((s) => s.name || s.id),
});

export class KagentA2A implements A2APort {
  private readonly base: string;

  constructor(private readonly options: KagentA2AOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  endpoint(namespace: string, name: string): string {
    return `${this.base}/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/`;
  }

  async open(namespace: string, name: string, identity: A2AIdentity, signal?: AbortSignal): Promise<A2AConversation> {
    const url = this.endpoint(namespace, name);
    const what = `${namespace}/${name}`;
    const callerFetch = identityFetch(signal ? withSignal(this.options.fetch, signal) : this.options.fetch, identity);
    let card: AgentCard;
    try {
      card = await new DefaultAgentCardResolver({ fetchImpl: callerFetch }).resolve(url, AGENT_CARD_PATH);
    } catch (err) {
      throw a2aError(err, what, url);
    }
    const jsonRpc = card.supportedInterfaces.find((i) => i.protocolBinding === 'JSONRPC');
    const pinned: AgentCard = {
      ...card,
      supportedInterfaces: [{ url, protocolBinding: 'JSONRPC', tenant: jsonRpc?.tenant ?? '',
        protocolVersion: jsonRpc?.protocolVersion || '1.0' }],
    };
    const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl: callerFetch })] });
    const client = await factory.createFromAgentCard(pinned).catch((err: unknown) => {
      throw a2aError(err, what, url);
    });
    return new SdkConversation(url, cardFacts(card), client, what);
  }
}

/** `fetchFn` whose requests also end when `signal` aborts (the caller went away). */
function withSignal(fetchFn: typeof fetch, signal: AbortSignal): typeof fetch {
  const bounded: typeof fetch = (input, init) =>
    fetchFn(input, {
      ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal,
    });
  return bounded;
}
