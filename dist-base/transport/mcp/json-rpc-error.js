/** A JSON-RPC error object without a request id (the transport level has none). */
export function jsonRpcError(code, message) {
    return { jsonrpc: '2.0', error: { code, message }, id: null };
}
//# sourceMappingURL=json-rpc-error.js.map