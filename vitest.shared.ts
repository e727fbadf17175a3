import { fileURLToPath } from 'node:url';

// Tests run the sandbox package from its TypeScript source, so a suite never needs the
// package built first (node itself, for `npm start`, loads its compiled dist/).
const source = (file: string) => fileURLToPath(new URL(`./packages/kube-sandbox/src/${file}`, import.meta.url));
export const sandboxSourceAlias = [
  { find: /^@agent-manager\/kube-sandbox$/, replacement: source('index.ts') },
  { find: /^@agent-manager\/kube-sandbox\/cli$/, replacement: source('cli.ts') },
];
