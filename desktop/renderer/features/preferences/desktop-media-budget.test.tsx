import type { i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DESKTOP_LIMITS, type DesktopMediaApi } from '@shared/desktop-api';
import { createI18n } from '../../i18n/i18n';
import { DesktopMediaBudget, MEDIA_BUDGET_CHOICES, budgetOptions, formatBytes } from './desktop-media-budget';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createI18n('pt-br', [initReactI18next]);
});
const render = (element: ReactElement) => renderToStaticMarkup(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>);
const MB = 1024 * 1024;

describe('the desktop media budget control', () => {
  it('offers budgets within the limits the main process accepts, with the current one among them', () => {
    expect(MEDIA_BUDGET_CHOICES.length).toBeGreaterThan(3);
    for (const bytes of MEDIA_BUDGET_CHOICES) {
      expect(bytes).toBeGreaterThanOrEqual(DESKTOP_LIMITS.mediaBudgetMinBytes);
      expect(bytes).toBeLessThanOrEqual(DESKTOP_LIMITS.mediaBudgetMaxBytes);
    }
    expect(MEDIA_BUDGET_CHOICES).toContain(200 * MB); // the default
    expect(budgetOptions(300 * MB)).toContain(300 * MB);
    expect(budgetOptions(300 * MB)).toEqual([...budgetOptions(300 * MB)].sort((a, b) => a - b));
    expect(budgetOptions(200 * MB)).toEqual([...MEDIA_BUDGET_CHOICES]);
  });

  it('writes sizes in MB below a gigabyte and in GB above, with the locale decimal mark', () => {
    expect(formatBytes(50 * MB, 'pt-BR')).toBe('50 MB');
    expect(formatBytes(1.5 * MB, 'pt-BR')).toBe('1,5 MB');
    expect(formatBytes(1.5 * MB, 'en-US')).toBe('1.5 MB');
    expect(formatBytes(2048 * MB, 'pt-BR')).toBe('2 GB');
  });

  it('shows in the desktop app only: nothing in the web app, a button with a Portuguese label in the console', () => {
    expect(render(<DesktopMediaBudget media={undefined} />)).toBe('');
    const media: DesktopMediaApi = { get: vi.fn(), usage: vi.fn(), setBudget: vi.fn() };
    const html = render(<DesktopMediaBudget media={media} />);
    expect(html).toContain('data-testid="desktop-media-button"');
    expect(html).toContain('aria-label="Arquivos guardados neste computador"');
  });
});
