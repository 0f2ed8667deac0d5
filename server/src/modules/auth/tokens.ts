import jwt from 'jsonwebtoken';
import type { Profile } from '@shared/profiles';
import { AppError } from '../../core/app-error';

/** Claims of the short-lived access token (HS256). */
export interface AccessClaims {
  sub: string; // user id
  tid: number; // tenant id
  sid: string; // auth session id
  profile: Profile;
}

export function signAccessToken(secret: string, claims: AccessClaims, ttlSeconds: number): string {
  return jwt.sign(claims, secret, { algorithm: 'HS256', expiresIn: ttlSeconds });
}

/**
 * Verifies an access token. Expired: 403 ERR_SESSION_EXPIRED (the client refreshes once and
 * retries, spec section 4). Anything else wrong: 401 ERR_INVALID_TOKEN (the client logs out).
 */
export function verifyAccessToken(secret: string, token: string): AccessClaims {
  try {
    const decoded = jwt.verify(token, secret, { algorithms: ['HS256'] });
    if (typeof decoded !== 'object' || decoded === null || typeof decoded.sub !== 'string' || typeof decoded.sid !== 'string') {
      throw new AppError('ERR_INVALID_TOKEN');
    }
    return decoded as unknown as AccessClaims;
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof jwt.TokenExpiredError) throw new AppError('ERR_SESSION_EXPIRED');
    throw new AppError('ERR_INVALID_TOKEN');
  }
}
