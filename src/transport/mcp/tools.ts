/**
 * The MCP tools, generated from the operation table alone: name, title, description, four annotations,
 * the JSON Schema of the one zod input schema, which also checks a call's arguments before the
 * operation runs, as on REST, and the output schema of its documented REST answer (output-schemas.ts).
 * Every outcome of a known tool is a tool result, never a JSON-RPC error (`isError` with `"<code>: <message>"`,
 * results.ts); each call is timed and its outcome labelled (the access log line names both too), a
 * `backend_error` logged at error, the caller's mistakes and cancelled calls at debug.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { z } from 'zod';
import { toAppError } from '../../core/errors.js';
import { isJsonObject } from '../../core/json.js';
import type { RequestContext } from '../../identity/caller.js';
import type { Metrics, ToolOutcome } from '../../metrics/app-metrics.js';
import { OPERATIONS, type AnyOperation, type OperationService } from '../operations.js';
import { parseArguments, REMOVED_ARGUMENTS } from './arguments.js';
import { outputSchemaOf } from './output-schemas.js';
import { toToolError, toToolResult } from './results.js';

export interface ToolCatalogOptions {
  service: OperationService;
  metrics?: Metrics;
  /** The operations to offer; default: the whole table. */
  operations?: readonly AnyOperation[];
}

/** The tool definitions of `tools/list` and the `tools/call` dispatch, built once per process. */
export class ToolCatalog {
  /** The `tools/list` entries, in table order. */
  readonly tools: readonly Tool[];
  private readonly byName: ReadonlyMap<string, AnyOperation>;
  private readonly service: OperationService;
  private readonly metrics?: Metrics;

  constructor(options: ToolCatalogOptions) {
    const operations = options.operations ?? OPERATIONS;
    this.service = options.service;
    this.metrics = options.metrics;
    this.tools = operations.map(toolDefinition);
    this.byName = new Map(operations.map((o) => [o.tool, o]));
  }

  /** The operation behind a tool name. */
  operation(name: string): AnyOperation | undefined {
    return this.byName.get(name);
  }

  /** Run one tool call; always resolves with a tool result. `onOutcome` hears how it ended, as the metrics do. */
  async call(
    operation: AnyOperation, args: unknown, ctx: RequestContext, onOutcome?: (outcome: ToolOutcome) => void,
  ): Promise<CallToolResult> {
    const started = process.hrtime.bigint();
    const log: Logger = ctx.log.child({ tool: operation.tool });
    let outcome: ToolOutcome = 'ok';
    try {
      const input = parseArguments(operation.tool, operation.input, args);
      return toToolResult(await operation.run(this.service, { ...ctx, log }, input));
    } catch (err) {
      const error = toAppError(err);
      // Nobody reads the answer of a call its client cancelled or left: not a failure of ours.
      outcome = ctx.signal?.aborted ? 'cancelled' : error.code === 'backend_error' ? 'error' : 'tool_error';
      if (outcome === 'cancelled') log.debug({ code: error.code, message: error.message }, 'tool call cancelled');
      else if (outcome === 'error') log.error({ err: error.message, code: error.code }, 'request failed');
      else log.debug({ code: error.code, message: error.message }, 'tool call refused');
      return toToolError(error);
    } finally {
      this.metrics?.observeTool(operation.tool, outcome, Number(process.hrtime.bigint() - started) / 1e9);
      onOutcome?.(outcome);
    }
  }
}

/** Drops the removed arguments from every `properties` of a JSON Schema (validate_agent nests the spec). */
function withoutRemoved(schema: unknown): void {
  if (!isJsonObject(schema)) return;
  const properties = schema.properties;
  if (isJsonObject(properties)) for (const removed of REMOVED_ARGUMENTS) delete properties[removed];
  for (const value of Object.values(schema)) {
    if (Array.isArray(value)) value.forEach(withoutRemoved);
    else withoutRemoved(value);
  }
}

/**
 * One `tools/list` entry: the operation's name, title, description, four hints, input JSON Schema and
 * output JSON Schema (api/openapi.yaml's success response, output-schemas.ts).
 */
export function toolDefinition(operation: AnyOperation): Tool {
  // draft-07 and input mode, as the SDK's own McpServer renders zod input schemas.
  const inputSchema = z.toJSONSchema(operation.input, { target: 'draft-7', io: 'input' }) as Tool['inputSchema'];
  if (operation.serviceRequired?.length) {
    inputSchema.required = [...(inputSchema.required ?? []), ...operation.serviceRequired];
  }
  // The removed arguments are still accepted, so the service refuses them in its own words,
  // but a client (or model) building arguments from the schema is never offered them.
  withoutRemoved(inputSchema);
  return {
    name: operation.tool,
    title: operation.title,
    description: operation.description,
    inputSchema,
    outputSchema: outputSchemaOf(operation),
    annotations: { title: operation.title, ...operation.annotations },
  };
}
