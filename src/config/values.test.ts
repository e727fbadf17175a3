import { describe, expect, it } from 'vitest';
import { checkHttpUrl, checkOciUrl, parseGoBool, parseGoDuration, parseListenAddress, splitList, ValueError } from './values.js';

describe('parseGoBool', () => {
  it.each(['1', 't', 'T', 'TRUE', 'true', 'True'])('reads %j as true', (text) => {
    expect(parseGoBool(text)).toBe(true);
  });
  it.each(['0', 'f', 'F', 'FALSE', 'false', 'False'])('reads %j as false', (text) => {
    expect(parseGoBool(text)).toBe(false);
  });
  it.each(['', 'yes', 'no', 'on', 'tRUE', ' true', '2'])('refuses %j', (text) => {
    expect(() => parseGoBool(text)).toThrow(ValueError);
  });
});

describe('parseGoDuration', () => {
  it.each([
    ['0', 0],
    ['-0', 0],
    ['+0', 0],
    ['10m', 600_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['2s', 2_000],
    ['1.5h', 5_400_000],
    ['.5s', 500],
    ['1.s', 1_000],
    ['1h1m1s1ms', 3_661_001],
    ['-1m', -60_000],
    ['+5m', 300_000],
    ['1500us', 1.5],
    ['1500µs', 1.5],
    ['1500μs', 1.5],
    ['2000000ns', 2],
  ])('reads %j as %d ms', (text, ms) => {
    expect(parseGoDuration(text)).toEqual({ text, ms });
  });
  it.each(['', 'banana', '10', '1h30', '10 m', ' 10m', '1d', '.s', '-', '+', 'm', '1.2.3s', '10M', '3000000h'])('refuses %j', (text) => {
    expect(() => parseGoDuration(text)).toThrow(ValueError);
  });
});

describe('parseListenAddress', () => {
  it.each([
    [':8080', undefined, 8080],
    ['127.0.0.1:0', '127.0.0.1', 0],
    ['0.0.0.0:9464', '0.0.0.0', 9464],
    ['localhost:8080', 'localhost', 8080],
    ['[::1]:8080', '::1', 8080],
    ['[::]:65535', '::', 65535],
  ])('reads %j as host %j port %d', (text, host, port) => {
    expect(parseListenAddress(text)).toEqual({ host, port });
  });
  it.each(['', '8080', ':', ':http', ':65536', '::1:8080', '[::1:8080', 'host name:80', 'a/b:80', '[127.0.0.1]:80'])('refuses %j', (text) => {
    expect(() => parseListenAddress(text)).toThrow(ValueError);
  });
});

describe('splitList', () => {
  it.each([
    ['', []],
    ['a', ['a']],
    [' a , b ,, c,', ['a', 'b', 'c']],
    [',,,', []],
  ])('splits %j into %j', (text, items) => {
    expect(splitList(text)).toEqual(items);
  });
});

describe('checkHttpUrl', () => {
  it.each(['https://api.github.com', 'http://127.0.0.1:5556/dex', 'https://github.com/o/r'])('accepts %j', (text) => {
    expect(checkHttpUrl(text)).toBe(text);
  });
  it.each(['github.com/o/r', 'ftp://example.com', 'not a url', 'file:///etc/passwd', '/relative'])('refuses %j', (text) => {
    expect(() => checkHttpUrl(text)).toThrow(ValueError);
  });
});

describe('checkOciUrl', () => {
  it.each([
    'oci://gsoci.azurecr.io/charts/giantswarm/agent',
    'oci://127.0.0.1:5000/agent',
    'oci://registry/a/b/c',
  ])('accepts %j', (text) => {
    expect(checkOciUrl(text)).toBe(text);
  });
  it.each([
    '',
    'gsoci.azurecr.io/charts/agent',
    'https://gsoci.azurecr.io/charts/agent',
    'oci://',
    'oci://registry',
    'oci://registry/',
    'oci:///charts/agent',
    'oci://registry/charts//agent',
    'oci://registry/charts/agent/',
    'oci://registry/charts/agent:0.5.2',
    'oci://registry/charts/agent@sha256:abc',
  ])('refuses %j with the text clients match on', (text) => {
    expect(() => checkOciUrl(text)).toThrow(`chart URL ${JSON.stringify(text)} must look like oci://<registry>/<repository>`);
  });
});
