/**
 * The console's first reads can leave before main has opened the account's cache (start-up offline:
 * the queries fire while `cache.begin` is still on its way). The cache's answers wait for the first
 * begin to settle, at most a few seconds, instead of failing with ERR_DESKTOP_NO_ACCOUNT.
 */
let settle: () => void = () => undefined;
const firstBegin = new Promise<void>((resolve) => {
  settle = resolve;
});

/** The first account call settled (opened, refused, or there was no session to open). */
export const markAccountSettled = (): void => settle();

export function accountSettled(timeoutMs = 5000): Promise<void> {
  return Promise.race([firstBegin, new Promise<void>((resolve) => setTimeout(resolve, timeoutMs))]);
}
