/**
 * The port the session operations talk to agents through: the kagent controller's A2A
 * endpoint for one agent. Everything crossing it is A2A's proto3 JSON (tasks, parts,
 * `TASK_STATE_*` names), so the service never sees an SDK type and a fake is plain data.
 * The adapter (src/a2a) maps A2A and HTTP failures to AppErrors.
 */

/** An A2A object in proto3 JSON, as the agent reports it. */
export type A2AJson = Record<string, unknown>;

/** Whom a call acts for towards kagent. */
export interface A2AIdentity {
  /** The caller's id_token, presented as `Authorization: Bearer` (OAuth only; never the ServiceAccount's). */
  readonly token?: string;
  /** The A2A user the caller is (kagent's `X-User-Id`); absent: kagent's default user. */
  readonly user?: string;
}

/** What the agent card says, as far as sessions need it. */
export interface CardFacts {
  readonly name: string;
  readonly streaming: boolean;
  readonly skills: readonly string[];
}

/** One message the service sends. */
export interface OutboundMessage {
  readonly contextId: string;
  readonly text: string;
  readonly metadata?: Record<string, string>;
}

/** How a send reports on itself. */
export interface SendOptions {
  /** Ends the wait for the turn (not the turn): what arrived by then is answered. */
  readonly deadline: AbortSignal;
  /** Each status update of a streaming agent, as the task stands after it. */
  readonly onUpdate?: (task: A2AJson) => void;
}

/** The task as it stood when the send ended, and whether it had reached a final state. */
export interface SendOutcome {
  readonly task: A2AJson;
  readonly updates: number;
}

/** One agent's A2A endpoint, opened for one caller (its card already read). */
export interface A2AConversation {
  readonly url: string;
  readonly card: CardFacts;
  send(message: OutboundMessage, options: SendOptions): Promise<SendOutcome>;
  /** The caller's tasks of the agent, of one context when given, as the agent pages them (at most `limit`). */
  listTasks(contextId: string | undefined, limit: number): Promise<A2AJson[]>;
}

/** The kagent controller's A2A endpoint. */
export interface A2APort {
  /** `<base>/<namespace>/<name>/`: where the agent is spoken to. */
  endpoint(namespace: string, name: string): string;
  /** Reads the agent card (502 naming the URL when the agent is not A2A-reachable). */
  open(namespace: string, name: string, identity: A2AIdentity, signal?: AbortSignal): Promise<A2AConversation>;
}

/** What the service needs to offer sessions; absent: the tools answer 501. */
export interface SessionsDeps {
  readonly a2a: A2APort;
  /** True when requests carry the caller's verified id_token (OAuth), which is then presented to kagent. */
  readonly oauth: boolean;
}
