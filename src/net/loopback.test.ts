import { describe, expect, it } from 'vitest';
import { isLoopbackAddress } from './loopback.js';

describe('isLoopbackAddress', () => {
  it.each(['127.0.0.1', '127.10.0.3', '::1', '::ffff:127.0.0.1'])('takes %s for loopback', (address) => {
    expect(isLoopbackAddress(address)).toBe(true);
  });

  it.each(['0.0.0.0', '::', '10.0.0.7', '::ffff:10.0.0.7', 'fe80::1', 'localhost', ''])('takes %s for an address others can reach', (address) => {
    expect(isLoopbackAddress(address)).toBe(false);
  });
});
