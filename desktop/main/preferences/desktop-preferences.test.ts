import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDesktopPreferences, saveDesktopPreferences } from './desktop-preferences';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const fileIn = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'atende-prefs-'));
  dirs.push(dir);
  return path.join(dir, 'preferences.json');
};

describe('desktop preferences', () => {
  it('keeps do not disturb across restarts, in an owner-only file', async () => {
    const file = fileIn();
    expect(await loadDesktopPreferences(file)).toEqual({ doNotDisturb: false, mediaBudgetBytes: null });
    await saveDesktopPreferences(file, { doNotDisturb: true, mediaBudgetBytes: null });
    expect(await loadDesktopPreferences(file)).toEqual({ doNotDisturb: true, mediaBudgetBytes: null });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('reads a broken or foreign file as the defaults', async () => {
    const file = fileIn();
    writeFileSync(file, '{not json');
    expect(await loadDesktopPreferences(file)).toEqual({ doNotDisturb: false, mediaBudgetBytes: null });
    writeFileSync(file, JSON.stringify({ doNotDisturb: 'yes', other: 1, mediaBudgetBytes: '500MB' }));
    expect(await loadDesktopPreferences(file)).toEqual({ doNotDisturb: false, mediaBudgetBytes: null });
  });

  it('keeps the media budget the agent chose across restarts, and ignores one out of range', async () => {
    const file = fileIn();
    await saveDesktopPreferences(file, { doNotDisturb: false, mediaBudgetBytes: 500 * 1024 * 1024 });
    expect(await loadDesktopPreferences(file)).toEqual({ doNotDisturb: false, mediaBudgetBytes: 500 * 1024 * 1024 });
    writeFileSync(file, JSON.stringify({ doNotDisturb: true, mediaBudgetBytes: 1024 }));
    expect(await loadDesktopPreferences(file)).toEqual({ doNotDisturb: true, mediaBudgetBytes: null });
  });
});
