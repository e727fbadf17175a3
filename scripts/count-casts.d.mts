// Types of scripts/count-casts.mjs for test/layout/casts.test.ts.
export interface Assertion { kind: 'as' | '!'; line: number; commented: boolean; file?: string }
export function assertionsOf(path: string, text?: string): Assertion[];
export interface TreeCounts { as: number; nonNull: number; uncommented: Assertion[] }
export function countCasts(root: string, trees?: string[]): Record<string, TreeCounts>;
