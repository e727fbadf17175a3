/** A JSON-RPC error object without a request id (the transport level has none). */
export function jsonRpcError(code: number,
  message: string): { jsonrpc: '2.0'; error: { code: number; message: string }; id: null } {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}
