import type { i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n/i18n';
import { PresenceDot, presenceOfUser } from './presence-dot';

let pt: I18n;
let en: I18n;
beforeAll(async () => {
  pt = await createI18n('pt-br', [initReactI18next]);
  en = await createI18n('en-us', [initReactI18next]);
});
const render = (element: ReactElement, i18n = pt) => renderToStaticMarkup(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>);
const dotOf = (html: string) => /<span[^>]*data-testid="presence-dot"[^>]*>/.exec(html)?.[0] ?? '';

describe('PresenceDot', () => {
  it('shows each presence with its colour class and its name (tooltip and screen readers)', () => {
    const cases = [
      ['online', 'Online', 'Online'],
      ['away', 'Ausente', 'Away'],
      ['offline', 'Offline', 'Offline'],
    ] as const;
    for (const [presence, portuguese, english] of cases) {
      const dot = dotOf(render(<PresenceDot presence={presence} />));
      expect(dot).toContain(`data-presence="${presence}"`);
      expect(dot).toContain(`class="app-presence-dot is-${presence}"`);
      expect(dot).toContain(`aria-label="${portuguese}"`);
      expect(dotOf(render(<PresenceDot presence={presence} />, en))).toContain(`aria-label="${english}"`);
    }
  });

  it('shows offline when the presence is unknown', () => {
    expect(dotOf(render(<PresenceDot presence={null} />))).toContain('data-presence="offline"');
  });

  it("takes a user's presence, or the online flag of lists without one", () => {
    expect(presenceOfUser({ presence: 'away', isOnline: true })).toBe('away');
    expect(presenceOfUser({ isOnline: true })).toBe('online');
    expect(presenceOfUser({ isOnline: false })).toBe('offline');
    expect(presenceOfUser({})).toBe('offline');
  });
});
