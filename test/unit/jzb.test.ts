import { deflateRawSync, deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeJzb, encodeJzb, fromBase64Url, toBase64Url } from '../../shared/wire/jzb';

/** An inflater independent of fflate: Node's zlib. */
function inflateWithNode(jzb: string): unknown {
  const b64 = jzb.replace(/-/g, '+').replace(/_/g, '/');
  return JSON.parse(inflateSync(Buffer.from(b64, 'base64')).toString('utf8'));
}

describe('wire-protocol jzb', () => {
  const payload = [{ type: 'click', url: 'https://app.example/ü?q=1', props: { text: 'naïve — ✓', n: 1 } }];

  it('is a zlib stream (78 9c) that an independent inflater reads back', () => {
    const jzb = encodeJzb(payload);
    expect(Buffer.from(fromBase64Url(jzb)).subarray(0, 2).toString('hex')).toBe('789c');
    expect(inflateWithNode(jzb)).toEqual(payload);
  });

  it('uses the base64url alphabet without padding', () => {
    for (let n = 0; n < 40; n++) {
      const jzb = encodeJzb({ n, s: 'x'.repeat(n) + '?>~' });
      expect(jzb).toMatch(/^[A-Za-z0-9_-]+$/);
    }
    expect(toBase64Url(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
  });

  it('round-trips through decodeJzb', () => {
    expect(decodeJzb(encodeJzb(payload))).toEqual(payload);
  });

  it('refuses raw deflate, foreign characters and non-JSON with a clear message', () => {
    const raw = deflateRawSync(Buffer.from('[]')).toString('base64url');
    expect(() => decodeJzb(raw)).toThrow(/not a base64url zlib stream/);
    expect(() => decodeJzb('abc+/=')).toThrow(/outside the base64url alphabet/);
    const notJson = toBase64Url(new Uint8Array(deflateSync(Buffer.from('{nope'))));
    expect(() => decodeJzb(notJson)).toThrow(/does not hold JSON/);
  });
});
