import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { captchaPowInput, leadingZeroBits, solveCaptcha } from './captcha';
import { sha256 } from './sha256';

const nodeSha256 = (text: string) => new Uint8Array(createHash('sha256').update(text).digest());

describe('captcha proof of work', () => {
  it('hashes like node:crypto for empty, short, block-boundary, long and non-ASCII input', () => {
    const inputs = ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'a'.repeat(1000), 'c1.1700000000000.14.ab:9z', 'ação ✓'];
    for (const input of inputs) expect(Buffer.from(sha256(input)).toString('hex'), input).toBe(createHash('sha256').update(input).digest('hex'));
  });

  it('counts leading zero bits', () => {
    expect(leadingZeroBits(new Uint8Array([0x80]))).toBe(0);
    expect(leadingZeroBits(new Uint8Array([0x01]))).toBe(7);
    expect(leadingZeroBits(new Uint8Array([0x00, 0x00, 0x10]))).toBe(19);
    expect(leadingZeroBits(new Uint8Array([0, 0]))).toBe(16);
  });

  it('finds a solution meeting the difficulty, the same with the browser digest and node:crypto', async () => {
    const challenge = { token: 'c1.1.12.00ff.sig', difficulty: 12 };
    const answer = await solveCaptcha(challenge, sha256);
    expect(answer).toEqual(await solveCaptcha(challenge, nodeSha256));
    expect(leadingZeroBits(nodeSha256(captchaPowInput(challenge.token, answer.captchaSolution)))).toBeGreaterThanOrEqual(12);
  });
});
