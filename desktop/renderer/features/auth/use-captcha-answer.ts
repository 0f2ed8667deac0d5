import { useCallback, useRef } from 'react';
import { solveCaptcha, type CaptchaAnswer } from '@shared/captcha';
import { sha256 } from '@shared/sha256';
import { useGetCaptchaMutation } from '../../api/auth.api';

interface Prepared {
  answer: CaptchaAnswer;
  expiresAt: number;
}

/** A prepared answer this close to its expiry is replaced: the login must reach the server in time. */
const EXPIRY_MARGIN_MS = 10_000;

/**
 * The server side of the slider captcha (shared/captcha.ts): when the slider is completed,
 * `prepare` fetches a challenge and solves it in the background, so the proof of work is
 * usually done before the person presses "Entrar"; `take` hands the answer over (once: the
 * server accepts each challenge once), fetching and solving a new one when none is ready or the
 * prepared one is about to expire. A failed fetch rejects with RTK Query's error shape.
 */
export function useCaptchaAnswer() {
  const [getCaptcha] = useGetCaptchaMutation();
  const pending = useRef<Promise<Prepared> | null>(null);

  const fetchAndSolve = useCallback(async (): Promise<Prepared> => {
    const challenge = await getCaptcha().unwrap();
    return { answer: await solveCaptcha(challenge, sha256), expiresAt: Date.parse(challenge.expiresAt) };
  }, [getCaptcha]);

  const prepare = useCallback(() => {
    const attempt = fetchAndSolve();
    // A failure here is retried by take(); nothing to report yet.
    attempt.catch(() => undefined);
    pending.current = attempt;
  }, [fetchAndSolve]);

  const discard = useCallback(() => {
    pending.current = null;
  }, []);

  const take = useCallback(async (): Promise<CaptchaAnswer> => {
    const attempt = pending.current;
    pending.current = null;
    const prepared = attempt ? await attempt.catch(() => null) : null;
    if (prepared && prepared.expiresAt - Date.now() > EXPIRY_MARGIN_MS) return prepared.answer;
    return (await fetchAndSolve()).answer;
  }, [fetchAndSolve]);

  return { prepare, discard, take };
}
