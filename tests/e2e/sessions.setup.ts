import { test as setup } from '@playwright/test';
import { loginThroughUi, storageStatePath } from './e2e-support';

/** UI logins whose browser storage later specs reuse, instead of logging in for every test. */
for (const profile of ['admin'] as const) {
  setup(`sign in as ${profile}`, async ({ page }) => {
    await loginThroughUi(page, profile);
    await page.context().storageState({ path: storageStatePath(profile) });
  });
}
