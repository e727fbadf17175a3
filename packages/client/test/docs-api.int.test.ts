/**
 * docs/api.md stays true: its curl commands run with the real curl (bash, AGENT_MANAGER set to
 * the service) and each answer is checked against the block the page shows after it (a JSON
 * answer contains the fields shown; a stream starts with a status of the agent and ends with the
 * event shown); its TypeScript blocks run in order as one script against this package, and what
 * they print is the `// …` lines the page shows. The set-up block (`npm start`) is not run.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import * as clientModule from '../src/index.js';
import { serviceUrl } from './service.js';

const page = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

interface Block { lang: string; body: string }
const blocks: Block[] = [...page.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, body: m[2]! }));

/** Each curl block and the answer block that follows it. */
const curlSteps = blocks.flatMap((block, i) => (block.lang === 'sh' && !block.body.includes('npm start')
  ? [{ command: block.body, answer: blocks[i + 1]! }] : []));
const scripts = blocks.filter((block) => block.lang === 'ts');

const END = '\n--- end of step ---\n';

/** Runs the commands in order in one bash (a variable set by one is seen by the next): each one's output. */
function bash(commands: string[]): Promise<string[]> {
  const script = ['set -euo pipefail', ...commands.map((c) => `${c}\nprintf '${END.replace(/\n/g, '\\n')}'`)].join('\n');
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', script], { env: { ...process.env, AGENT_MANAGER: serviceUrl() } },
      (err, stdout, stderr) => (err ? reject(new Error(`${stdout}\n${stderr}`)) : resolve(stdout.split(END).slice(0, -1))));
  });
}

/** The page's agent gone again, whatever a failed step left behind. */
async function forget(): Promise<void> {
  const client = clientModule.createAgentManagerClient({ baseUrl: serviceUrl() });
  const path = { namespace: 'kagent', name: 'pr-reviewer' };
  await client.DELETE('/api/v1/agents/{namespace}/{name}', { params: { path } });
  await client.GET('/api/v1/agents/{namespace}/{name}/wait', { params: { path, query: { until: 'deleted', timeoutSeconds: 30 } } });
}

interface SseEvent { id?: string; event?: string; data?: unknown }
function events(text: string): SseEvent[] {
  return text.trim().split(/\n\n+/).map((block) => Object.fromEntries(block.split('\n').map((line) => {
    const cut = line.indexOf(': ');
    const [field, value] = [line.slice(0, cut), line.slice(cut + 2)];
    return [field, field === 'data' ? JSON.parse(value) : value];
  })) as SseEvent);
}

function checkAnswer(answer: Block, out: string): void {
  if (answer.lang === 'json') {
    expect(JSON.parse(out)).toMatchObject(JSON.parse(answer.body));
    return;
  }
  expect(answer.lang).toBe('text');
  const shown = events(answer.body);
  const got = events(out);
  expect(got[0]!.event).toBe('status');
  const first = shown[0]!.data as { name: string; namespace: string };
  expect(got[0]!.data).toMatchObject({ name: first.name, namespace: first.namespace });
  expect(got.at(-1)).toEqual(shown.at(-1));
}

describe('docs/api.md', () => {
  afterEach(forget);

  it('shows the walkthrough in curl and in the client', () => {
    expect(curlSteps.length).toBeGreaterThanOrEqual(9);
    expect(scripts.length).toBeGreaterThanOrEqual(5);
  });

  it('every curl command answers what the page shows, in order', async () => {
    const outputs = await bash(curlSteps.map((step) => step.command));
    expect(outputs).toHaveLength(curlSteps.length);
    for (const [i, step] of curlSteps.entries()) {
      const out = outputs[i]!;
      try {
        checkAnswer(step.answer, out);
      } catch (err) {
        throw new Error(`${step.command}\nanswered\n${out}\n${(err as Error).message}`, { cause: err });
      }
    }
  });

  it('the client code runs as written and prints what the page shows', async () => {
    const source = scripts.map((s) => s.body).join('\n');
    const imported = /^import \{([^}]*)\} from '@agent-manager\/client';$/m.exec(source);
    expect(imported).not.toBeNull();
    const names = imported![1]!.split(',').map((n) => n.trim());
    const printed: string[] = [];
    const console = { log: (...args: unknown[]) => printed.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')) };
    const body = source.replace(imported![0], '');
    type Script = (...values: unknown[]) => Promise<void>;
    const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => Script;
    const saved = process.env.AGENT_MANAGER;
    process.env.AGENT_MANAGER = serviceUrl();
    try {
      await new AsyncFunction(...names, 'console', body)(...names.map((n) => (clientModule as Record<string, unknown>)[n]), console);
    } finally {
      if (saved === undefined) delete process.env.AGENT_MANAGER;
      else process.env.AGENT_MANAGER = saved;
    }
    const shown = [...source.matchAll(/^\/\/ (.*)$/gm)].map((m) => m[1]);
    expect(printed).toEqual(shown);
  });
});
