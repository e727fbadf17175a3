/**
 * The resource-server half of OAuth: a forwarded IdP id_token becomes the verified caller (we run no
 * authorization server). Trust boundary: accepted only as a compact JWS of at most 16 KiB with an
 * RS/PS/ES algorithm and key id, signed by a key of the issuer's JWKS (found by OIDC discovery, refetched
 * on an unknown kid at most once per cooldown), with `iss` exact, a trusted `aud`, and `exp`/`nbf`/`iat`
 * within 30 s leeway. A refusal is `unauthenticated` with a safe description; an unreachable provider is
 * `backend_error` (502), which signing in again cannot fix (docs/security.md "What is verified").
 */
import { createRemoteJWKSet, customFetch, errors, jwtVerify } from 'jose';
import { backendError, invalid, isAppError, unauthenticated } from '../core/errors.js';
import { callerFromClaims } from './claims.js';
import { createIdpFetch, IdpFetchError, readCaFile } from './idp-fetch.js';
import { ALLOWED_ALGORITHMS, audienceMismatch, audiencesOf, CLOCK_TOLERANCE_SECONDS, precheckToken, safeText, } from './jwt-precheck.js';
import { discoverIssuer } from './oidc-discovery.js';
/** Google's issuer; its id_tokens name it with or without the scheme. */
export const GOOGLE_ISSUER = 'https://accounts.google.com';
/** Build the verifier from configuration; throws `invalid_request` for unusable configuration. */
export function createTokenVerifier(config, deps = {}) {
    return new OidcTokenVerifier(config, deps);
}
/** A TokenVerifier for one OIDC issuer (Dex or Google). */
export class OidcTokenVerifier {
    config;
    deps;
    issuer;
    trustedAudiences;
    acceptedIssuers;
    fetchImpl;
    now;
    discovery;
    discoveryFailedAt = 0;
    constructor(config, deps = {}) {
        this.config = config;
        this.deps = deps;
        this.issuer = issuerOf(config);
        this.acceptedIssuers = acceptedIssuers(config.provider, this.issuer);
        const audiences = config.trustedAudiences.length > 0 ? config.trustedAudiences : config.clientId ? [config.clientId] : [];
        if (audiences.length === 0) {
            throw invalid('oauth: no trusted audience: set --oauth-trusted-audiences (or the OAuth client id)');
        }
        if (audiences.some((a) => a.trim() === ''))
            throw invalid('oauth: trusted audiences must not be empty strings');
        this.trustedAudiences = [...new Set(audiences)];
        const caPem = config.caFile ? readCaFile(config.caFile) : undefined;
        this.fetchImpl = deps.fetch ?? createIdpFetch({ caPem, allowPrivate: config.allowPrivateUrls, proxy: deps.proxy });
        this.now = deps.now ?? Date.now;
    }
    /** Fetch the discovery document and key set now (start-up warm-up); rejects with an AppError. */
    async discover() {
        try {
            const { jwks } = await this.discovered();
            await jwks.reload();
        }
        catch (err) {
            throw toVerifierError(err, undefined);
        }
    }
    async verify(bearer) {
        const token = precheckToken(bearer, this.trustedAudiences);
        try {
            const { jwks } = await this.discovered();
            const { payload } = await this.verifyWith(bearer, jwks);
            this.checkIssuedAt(payload);
            return callerFromClaims(payload);
        }
        catch (err) {
            throw toVerifierError(err, token, this);
        }
    }
    async verifyWith(bearer, jwks) {
        const options = {
            algorithms: [...ALLOWED_ALGORITHMS],
            issuer: this.acceptedIssuers,
            audience: [...this.trustedAudiences],
            clockTolerance: CLOCK_TOLERANCE_SECONDS,
            requiredClaims: ['exp', 'sub'],
            currentDate: new Date(this.now()),
        };
        try {
            return await jwtVerify(bearer, jwks, options);
        }
        catch (err) {
            // Several keys share the kid (a rotation in progress): try each, as mcp-oauth does.
            if (!(err instanceof errors.JWKSMultipleMatchingKeys))
                throw err;
            let last = err;
            for await (const key of err) {
                try {
                    return await jwtVerify(bearer, key, options);
                }
                catch (inner) {
                    last = inner;
                    if (!(inner instanceof errors.JWSSignatureVerificationFailed))
                        break;
                }
            }
            throw last;
        }
    }
    checkIssuedAt(payload) {
        const nowSeconds = Math.floor(this.now() / 1000);
        if (typeof payload.iat === 'number' && payload.iat > nowSeconds + CLOCK_TOLERANCE_SECONDS) {
            throw unauthenticated(`token was issued in the future (iat ${isoTime(payload.iat)}); check the clocks of the identity provider ` +
                `and of this server`);
        }
    }
    /** Discovery once, shared by concurrent requests; a failure is remembered briefly, then retried. */
    discovered() {
        const retryMs = this.deps.discoveryRetryMs ?? 5_000;
        if (this.discovery && this.discoveryFailedAt > 0 && this.now() - this.discoveryFailedAt >= retryMs) {
            this.discovery = undefined;
        }
        if (!this.discovery) {
            this.discoveryFailedAt = 0;
            this.discovery = discoverIssuer(this.issuer, this.fetchImpl, this.config.allowPrivateUrls).then((discovered) => ({
                discovered,
                jwks: createRemoteJWKSet(discovered.jwksUri, {
                    cooldownDuration: this.deps.jwksCooldownMs ?? 60_000,
                    cacheMaxAge: this.deps.jwksMaxAgeMs ?? 3_600_000,
                    timeoutDuration: 5_000,
                    [customFetch]: (url, init) => this.fetchImpl(url, init),
                }),
            }), (err) => {
                this.discoveryFailedAt = this.now();
                throw err;
            });
        }
        return this.discovery;
    }
}
/** The configured issuer, with the config errors the flags would give. */
function issuerOf(config) {
    if (config.provider === 'google')
        return config.issuerUrl || GOOGLE_ISSUER;
    if (config.provider !== 'dex')
        throw invalid(`oauth: provider "${String(config.provider)}": want dex or google`);
    if (!config.issuerUrl)
        throw invalid('oauth: dex issuer URL is required (--dex-issuer-url)');
    if (!URL.canParse(config.issuerUrl))
        throw invalid(`oauth: dex issuer URL is not a URL: ${config.issuerUrl}`);
    return config.issuerUrl;
}
/** Google's id_tokens carry `iss` with or without the scheme (Google's own documentation). */
export function acceptedIssuers(provider, issuer) {
    if (provider === 'google' && issuer === GOOGLE_ISSUER)
        return [GOOGLE_ISSUER, 'accounts.google.com'];
    return [issuer];
}
/** Translate a jose or fetch failure into the error the caller (or the operator) sees. */
function toVerifierError(err, token, verifier) {
    if (isAppError(err))
        return err;
    const kid = token ? safeText(token.header.kid) : '';
    if (err instanceof errors.JWTExpired) {
        const exp = err.payload.exp;
        return unauthenticated(`token expired${typeof exp === 'number' ? ` at ${isoTime(exp)}` : ''}; sign in again ` +
            `for a fresh token`);
    }
    if (err instanceof errors.JWTClaimValidationFailed)
        return claimError(err, verifier);
    if (err instanceof errors.JWSSignatureVerificationFailed)
        return unauthenticated('token signature is invalid');
    if (err instanceof errors.JWKSNoMatchingKey) {
        return unauthenticated(`token key id "${kid}" is not in the identity provider's key set (JWKS), even ` +
            `after refetching it`);
    }
    if (err instanceof errors.JOSEAlgNotAllowed) {
        return unauthenticated(`token algorithm is not allowed (want one of ${ALLOWED_ALGORITHMS.join(', ')})`);
    }
    if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) {
        return unauthenticated(`token is not a valid JWT: ${err.message}`);
    }
    if (err instanceof errors.JOSENotSupported || err instanceof errors.JWKInvalid) {
        return unauthenticated(`token cannot be verified with the identity provider's key "${kid}": ${err.message}`);
    }
    if (err instanceof IdpFetchError || err instanceof errors.JOSEError) {
        return backendError(`cannot verify tokens: the identity provider's keys are not available: ${err.message}`, err);
    }
    return backendError(`cannot verify tokens: ${err instanceof Error ? err.message : String(err)}`, err);
}
function claimError(err, verifier) {
    const { claim, reason, payload } = err;
    if (reason === 'missing') {
        const why = claim === 'exp' ? 'id_tokens without an expiry are refused' : 'the identity provider must set it';
        return unauthenticated(`token has no ${claim} claim; ${why}`);
    }
    switch (claim) {
        case 'nbf':
            return unauthenticated(`token is not valid yet (nbf ${isoTime(Number(payload.nbf))}); check the clocks`);
        case 'iss':
            return unauthenticated(`token issuer "${safeText(String(payload.iss))}" is not the trusted issuer "${verifier?.issuer ?? ''}"`);
        case 'aud':
            return unauthenticated(audienceMismatch(audiencesOf(payload.aud), verifier?.trustedAudiences ?? []));
        default:
            return unauthenticated(`token claim ${claim} is invalid: ${err.message}`);
    }
}
function isoTime(seconds) {
    return Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : String(seconds);
}
//# sourceMappingURL=token-verifier.js.map