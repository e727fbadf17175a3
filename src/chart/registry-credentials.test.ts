import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { credentialSource, dockerConfigCredentials } from './registry-credentials.js';

const b64 = (text: string): string => Buffer.from(text).toString('base64');
const config = (auths: Record<string, unknown>): string => JSON.stringify({ auths });

describe('dockerConfigCredentials', () => {
  it('decodes the base64 user:password of the registry entry', () => {
    expect(dockerConfigCredentials(config({ 'gsoci.azurecr.io': { auth: b64('ci:p:ss') } }), 'gsoci.azurecr.io'))
      .toEqual({ kind: 'basic', username: 'ci', password: 'p:ss' });
  });

  it('matches keys by host whatever their scheme and path, as Docker and Flux do', () => {
    const text = config({ 'https://Registry.example.com:5000/v1/': { username: 'u', password: 'p' } });
    expect(dockerConfigCredentials(text, 'registry.example.com:5000')).toEqual({ kind: 'basic', username: 'u', password: 'p' });
  });

  it("takes Docker Hub's index.docker.io entry for registry-1.docker.io", () => {
    expect(dockerConfigCredentials(config({ 'https://index.docker.io/v1/': { auth: b64('a:b') } }), 'registry-1.docker.io'))
      .toMatchObject({ kind: 'basic', username: 'a' });
  });

  it('reads an identity token as a refresh token and a registry token as a bearer token', () => {
    expect(dockerConfigCredentials(config({ r: { username: '00000000-0000-0000-0000-000000000000', identitytoken: 'rt' } }), 'r'))
      .toEqual({ kind: 'identityToken', refreshToken: 'rt' });
    expect(dockerConfigCredentials(config({ r: { registrytoken: 'bt' } }), 'r')).toEqual({ kind: 'bearer', token: 'bt' });
  });

  it('names the registries it has when the chart registry has no entry, never a credential', () => {
    const text = config({ 'ghcr.io': { auth: b64('u:secret-value') } });
    expect(() => dockerConfigCredentials(text, 'gsoci.azurecr.io', '/etc/creds')).toThrow(
      '/etc/creds has no entry for registry gsoci.azurecr.io (it has ghcr.io)');
    try {
      dockerConfigCredentials(config({ r: { auth: b64('no-colon') } }), 'r');
    } catch (err) {
      expect((err as Error).message).not.toContain('no-colon');
    }
  });

  it('refuses text that is not a Docker config', () => {
    expect(() => dockerConfigCredentials('{', 'r')).toThrow('the Docker config is not JSON');
    expect(() => dockerConfigCredentials('{"r":{}}', 'r')).toThrow('has no "auths" object');
    expect(() => dockerConfigCredentials(config({ r: {} }), 'r')).toThrow('the entry for registry r has no auth');
  });
});

describe('credentialSource', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  const none = { dockerConfig: '', username: '', password: '', token: '' };

  it('is anonymous when nothing is configured', () => {
    expect(credentialSource(none, 'r')).toBeUndefined();
  });

  it('hands out the configured user and password, or the token', () => {
    expect(credentialSource({ ...none, username: 'u', password: 'p' }, 'r')?.()).toEqual({ kind: 'basic', username: 'u', password: 'p' });
    expect(credentialSource({ ...none, token: 't' }, 'r')?.()).toEqual({ kind: 'bearer', token: 't' });
  });

  it('follows a rotated Docker config file, keeping the last good entry while the file is broken', () => {
    dir = mkdtempSync(join(tmpdir(), 'registry-creds-'));
    const path = join(dir, '.dockerconfigjson');
    writeFileSync(path, config({ r: { auth: b64('u:one') } }));
    const source = credentialSource({ ...none, dockerConfig: path }, 'r')!;
    expect(source()).toMatchObject({ password: 'one' });
    writeFileSync(path, config({ r: { auth: b64('u:two-longer') } }));
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    expect(source()).toMatchObject({ password: 'two-longer' });
    writeFileSync(path, '{ half-written');
    utimesSync(path, new Date(), new Date(Date.now() + 10_000));
    expect(source()).toMatchObject({ password: 'two-longer' });
  });

  it('stops at once on a Docker config file that cannot be read', () => {
    expect(() => credentialSource({ ...none, dockerConfig: '/nonexistent/config.json' }, 'r')).toThrow('cannot read /nonexistent/config.json: ENOENT');
  });
});
