/**
 * The MCP sessions of the muster double: each session is its own MCP SDK server with the one
 * `filter_tools` meta-tool, on a streamable-HTTP transport found again by its `Mcp-Session-Id`;
 * a closed transport leaves the table. Which person calls is the transport's auth info.
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { MetaToolAnswer } from './filter-tools.js';

/** Answers a meta-tool call by the person `subject`. */
export type MetaToolHandler = (subject: string, tool: string, args: Record<string, unknown>) => MetaToolAnswer;

const FILTER_TOOLS_SCHEMA = {
  type: 'object',
  properties: {
    pattern: { type: 'string', description: 'Glob on the exposed tool name' },
    toolset: { type: 'array', items: { type: 'string' }, description: 'Inline toolset selectors' },
    include_presets: { type: 'boolean' },
    limit: { type: 'integer', minimum: 1 },
    offset: { type: 'integer', minimum: 0 },
  },
} as const;

/** The open sessions, by id. */
export class MusterSessions {
  private readonly byId = new Map<string, StreamableHTTPServerTransport>();

  constructor(private readonly answer: MetaToolHandler) {}

  /** The transport of an open session. */
  get(id: string): StreamableHTTPServerTransport | undefined {
    return this.byId.get(id);
  }

  /** A new session's transport, ready for its initialize request. */
  async open(): Promise<StreamableHTTPServerTransport> {
    const server = new Server({ name: 'muster', version: 'sandbox' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: 'filter_tools', description:
      'Filter the tools available to you, optionally within a toolset', inputSchema: FILTER_TOOLS_SCHEMA }] }));
    server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
      const result = this.answer(extra.authInfo?.clientId ?? '', request.params.name, request.params.arguments ?? {});
      return { content: [{ type: 'text', text: result.text }], ...(result.isError ? { isError: true } : {}) };
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.byId.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) this.byId.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  }

  /** End every open session. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.byId.values()].map((t) => t.close()));
  }
}
