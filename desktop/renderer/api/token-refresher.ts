/**
 * After a 403 ERR_SESSION_EXPIRED the client asks once for a new token (spec section 4). When
 * several calls fail together they share that one refresh instead of racing: the server rotates
 * the refresh token, so a second concurrent refresh would present an already-used one.
 */
export function createTokenRefresher(refresh: (staleToken: string | null) => Promise<string | null>) {
  let inFlight: Promise<string | null> | null = null;
  return {
    /** `staleToken`: the token the failed call carried, so a token renewed meanwhile is reused. */
    refresh(staleToken: string | null = null): Promise<string | null> {
      if (!inFlight) {
        inFlight = refresh(staleToken)
          .catch(() => null)
          .finally(() => {
            inFlight = null;
          });
      }
      return inFlight;
    },
  };
}
