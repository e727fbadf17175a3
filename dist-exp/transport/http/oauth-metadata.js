/**
 * OAuth 2.0 Protected Resource Metadata (RFC 9728), where MCP clients and muster learn whom to sign in
 * with. We run no authorization server, so the identity provider is named as the one. Two open
 * documents: `/.well-known/oauth-protected-resource` for `/api/v1`, and the same path followed by the
 * MCP path for the MCP endpoint (RFC 9728 §3.1), each with the `resource` it was derived from (§3.3).
 */
import { Router } from 'express';
/** The well-known path prefix of RFC 9728. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';
/** Scopes a client should ask the provider for; Google has no `groups` scope. */
export const DEFAULT_SCOPES = {
    dex: ['openid', 'profile', 'email', 'groups'],
    google: ['openid', 'profile', 'email'],
};
function trimSlash(value) {
    return value.replace(/\/+$/, '');
}
/** The resource identifier of `resourcePath` under the base URL (the base URL itself for ''). */
export function resourceIdentifier(baseUrl, resourcePath = '') {
    return `${trimSlash(baseUrl)}${resourcePath}`;
}
/**
 * The metadata URL of a resource: the well-known path inserted between the origin and
 * the resource's path (RFC 9728 section 3.1). This is what a 401's `resource_metadata` names.
 */
export function protectedResourceMetadataUrl(baseUrl, resourcePath = '') {
    const base = new URL(trimSlash(baseUrl));
    return `${base.origin}${PROTECTED_RESOURCE_PATH}${trimSlash(base.pathname)}${resourcePath}`;
}
/** The document for one resource. */
export function protectedResourceMetadata(options, resourcePath = '') {
    const doc = {
        resource: resourceIdentifier(options.baseUrl, resourcePath),
        authorization_servers: [options.issuer],
        bearer_methods_supported: ['header'],
        resource_name: 'agent-manager',
    };
    if (options.scopesSupported)
        doc.scopes_supported = [...options.scopesSupported];
    return doc;
}
/** The router serving both documents (mount it at the root, outside the bearer guard). */
export function oauthMetadataRouter(options) {
    const router = Router();
    const basePath = trimSlash(new URL(trimSlash(options.baseUrl)).pathname);
    const mcpPath = options.mcpPath ?? '/mcp';
    for (const resourcePath of ['', mcpPath]) {
        const path = `${PROTECTED_RESOURCE_PATH}${basePath}${resourcePath}`;
        const body = protectedResourceMetadata(options, resourcePath);
        router.options(path, (_req, res) => {
            allowAnyOrigin(res);
            res.set('Access-Control-Allow-Methods', 'GET, OPTIONS').set('Access-Control-Allow-Headers', '*').status(204)
                .end();
        });
        router.get(path, (_req, res) => {
            // Browser-based MCP clients read this document cross-origin.
            allowAnyOrigin(res);
            res.set('Cache-Control', 'public, max-age=300').json(body);
        });
    }
    return router;
}
function allowAnyOrigin(res) {
    res.set('Access-Control-Allow-Origin', '*');
}
//# sourceMappingURL=oauth-metadata.js.map