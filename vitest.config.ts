import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@shared': path.resolve(import.meta.dirname, 'shared') } },
  test: {
    include: ['shared/**/*.test.ts', 'server/**/*.test.ts', 'desktop/**/*.test.{ts,tsx}', 'tests/api/**/*.test.ts', 'migrations/**/*.test.ts'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 90_000,
    env: { BCRYPT_ROUNDS: '4', NODE_ENV: 'test' },
  },
});
