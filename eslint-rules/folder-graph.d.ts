// Types of eslint-rules/folder-graph.js for the tests that use it (test/layout/sibling-folders.test.ts).
/** folder → (folder it imports → one file import that makes the edge). */
export type FolderGraph = Map<string, Map<string, string>>;
export function runtimeSpecifiers(text: string): string[];
export function siblingEdge(from: string, to: string): [string, string] | undefined;
export function folderGraph(roots: string[]): FolderGraph;
export function pathBetween(graph: FolderGraph, start: string, goal: string): string[] | undefined;
