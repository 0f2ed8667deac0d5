/**
 * The login captcha's proof of work, shared by the server (verification) and the clients (the
 * React app with WebCrypto, the test helpers with node:crypto). The server issues a signed,
 * single-use, short-lived challenge (`GET /auth/captcha`); once the slider is completed the
 * client finds a `solution` such that SHA-256(`<token>:<solution>`) starts with `difficulty`
 * zero bits, and sends both with the login. A person never notices the work (tens of
 * milliseconds); a script trying passwords in bulk pays it on every attempt.
 */

/** Answer of GET /auth/captcha. */
export interface CaptchaChallenge {
  /** Signed challenge, opaque to the client; valid once, until `expiresAt`. */
  token: string;
  /** Leading zero bits the solution's hash must have. */
  difficulty: number;
  /** ISO date after which the server refuses the token. */
  expiresAt: string;
}

/** The fields a login carries (POST /auth/login/). */
export interface CaptchaAnswer {
  captchaToken: string;
  captchaSolution: string;
}

/** Longest accepted token and solution: bounds the work of a bad request. */
export const CAPTCHA_TOKEN_MAX_LENGTH = 512;
export const CAPTCHA_SOLUTION_MAX_LENGTH = 32;

export const captchaPowInput = (token: string, solution: string): string => `${token}:${solution}`;

/** Number of leading zero bits of a digest. */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

export type Sha256 = (text: string) => Uint8Array | Promise<Uint8Array>;

/** Tries between two yields to the event loop: the page keeps painting while it searches. */
const TRIES_PER_SLICE = 512;

/**
 * Searches solutions 0, 1, 2, ... until one meets the difficulty. `maxTries` bounds the search
 * (2^(difficulty+8) fails with probability e^-256, i.e. never).
 */
export async function solveCaptcha(challenge: Pick<CaptchaChallenge, 'token' | 'difficulty'>, sha256: Sha256): Promise<CaptchaAnswer> {
  const maxTries = 2 ** Math.min(challenge.difficulty + 8, 40);
  for (let n = 0; n < maxTries; n++) {
    if (n > 0 && n % TRIES_PER_SLICE === 0) await new Promise((resolve) => setTimeout(resolve, 0));
    const solution = n.toString(36);
    if (leadingZeroBits(await sha256(captchaPowInput(challenge.token, solution))) >= challenge.difficulty) {
      return { captchaToken: challenge.token, captchaSolution: solution };
    }
  }
  throw new Error('captcha: no solution found');
}
