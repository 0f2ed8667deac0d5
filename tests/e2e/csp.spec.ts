import { expect, test, type Page } from '@playwright/test';
import { flattenShellRoutes, PUBLIC_ROUTES } from '../../desktop/renderer/app/routing/route-table';
import { ACCOUNTS, loginThroughUi, type SeededProfile } from './e2e-support';

/**
 * Every built screen under the server's Content-Security-Policy (issue #11): each route of the
 * route table is opened as every seeded profile (a route a profile may not open redirects,
 * which is also a screen that must load cleanly), and the page must raise no
 * `securitypolicyviolation` event and POST no report to /csp-report.
 */
const VIOLATIONS = '__cspViolations';

/** Records violations from the first script on, before the app's own code runs. */
async function watchViolations(page: Page): Promise<{ reports: string[] }> {
  await page.addInitScript((key) => {
    const list: string[] = [];
    (window as unknown as Record<string, string[]>)[key] = list;
    document.addEventListener('securitypolicyviolation', (event) =>
      list.push(`${event.effectiveDirective} blocked ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`),
    );
  }, VIOLATIONS);
  const reports: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/csp-report') reports.push(request.postData() ?? '');
  });
  return { reports };
}

const violationsOf = (page: Page) => page.evaluate((key) => (window as unknown as Record<string, string[]>)[key] ?? [], VIOLATIONS);

/** Concrete paths: `:id` params become 1, optional ones drop out. */
const SHELL_PATHS = flattenShellRoutes().map(({ path }) =>
  path
    .split('/')
    .filter((segment) => !(segment.startsWith(':') && segment.endsWith('?')))
    .map((segment) => (segment.startsWith(':') ? '1' : segment))
    .join('/'),
);

test.describe('Content-Security-Policy', () => {
  test('the web app is served with the strict policy and the framing headers', async ({ page }) => {
    const response = (await page.goto('/'))!;
    const headers = response.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self';");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
  });

  test('the public screens raise no violation', async ({ page }) => {
    const { reports } = await watchViolations(page);
    for (const path of [PUBLIC_ROUTES.login, PUBLIC_ROUTES.signup, PUBLIC_ROUTES.reset.replace(':token', 'some-token')]) {
      await page.goto(`/#${path}`);
      await page.waitForLoadState('load');
    }
    await expect(page.getByTestId('reset-page')).toBeVisible();
    expect(await violationsOf(page)).toEqual([]);
    expect(reports).toEqual([]);
  });

  for (const profile of Object.keys(ACCOUNTS) as SeededProfile[]) {
    test(`every shell screen raises no violation as ${profile}`, async ({ page }) => {
      test.setTimeout(120_000);
      const { reports } = await watchViolations(page);
      await loginThroughUi(page, profile);
      for (const path of SHELL_PATHS) {
        await page.goto(`/#${path}`);
        // The path is named so a failure says which screen did not load (once in CI, under load).
        await expect(page.getByTestId('app-menu'), `the shell at ${path}`).toBeVisible({ timeout: 15_000 });
        // Let the screen's first requests, images and lazy chunks load.
        await page.waitForTimeout(150);
      }
      expect(await violationsOf(page), `${SHELL_PATHS.length} screens`).toEqual([]);
      expect(reports).toEqual([]);
    });
  }

  test('a violation would be seen: an injected inline script is blocked and reported', async ({ page }) => {
    const { reports } = await watchViolations(page);
    await page.goto('/#/login');
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.body.append(script);
    });
    await expect.poll(() => violationsOf(page)).toEqual([expect.stringMatching(/^script-src(-elem)? blocked inline/)]);
    expect(await page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined();
    await expect.poll(() => reports.length).toBeGreaterThan(0);
  });
});
