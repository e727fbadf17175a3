/** kagent's header for the A2A user a request acts for. */
export const USER_HEADER = 'X-User-Id';
export function identityFetch(base, identity) {
    const wrapped = (input, init) => {
        const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
        headers.delete('authorization');
        headers.delete(USER_HEADER);
        if (identity.token)
            headers.set('Authorization', `Bearer ${identity.token}`);
        if (identity.user)
            headers.set(USER_HEADER, identity.user);
        return base(input, { ...init, headers, redirect: 'error' });
    };
    return wrapped;
}
//# sourceMappingURL=identity-fetch.js.map