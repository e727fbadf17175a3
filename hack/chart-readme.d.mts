// Types of chart-readme.mjs for the TypeScript tests that import it.
export declare const START: string;
export declare const END: string;
export interface ValueLeaf {
  path: string;
  value: unknown;
  node: { type?: string | string[]; description?: string } | undefined;
}
export declare function valueLeaves(values: Record<string, unknown>, schema: unknown, prefix?: string): ValueLeaf[];
export declare function valuesTable(valuesText: string, schema: unknown): string;
export declare function withTable(readme: string, table: string): string;
