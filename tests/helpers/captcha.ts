import { createHash } from 'node:crypto';
import { solveCaptcha, type CaptchaAnswer, type CaptchaChallenge } from '../../shared/captcha';

/** node:crypto's SHA-256, for the shared solver (the browser uses WebCrypto). */
export const nodeSha256 = (text: string): Uint8Array => createHash('sha256').update(text).digest();

/**
 * Solves the login captcha through the real flow: a fresh challenge from GET /auth/captcha,
 * then the proof of work. Every test or benchmark that logs in sends these fields.
 */
export async function captchaAnswer(baseUrl: string, headers: Record<string, string> = {}): Promise<CaptchaAnswer> {
  const res = await fetch(`${baseUrl}/auth/captcha`, { headers });
  if (res.status !== 200) throw new Error(`GET /auth/captcha answered ${res.status}`);
  return solveCaptcha((await res.json()) as CaptchaChallenge, nodeSha256);
}

/** The body of a login with a solved captcha. */
export async function loginBody(baseUrl: string, credentials: { email: string; password: string }): Promise<Record<string, string>> {
  return { email: credentials.email, password: credentials.password, ...(await captchaAnswer(baseUrl)) };
}
