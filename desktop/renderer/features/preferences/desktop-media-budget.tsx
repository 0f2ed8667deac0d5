import { Button, HTMLSelect, Popover, ProgressBar, Tooltip } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DESKTOP_LIMITS, type DesktopMediaApi, type DesktopMediaUsage } from '@shared/desktop-api';

const MB = 1024 * 1024;

/** The budgets offered (issue #15: "media cached within a size budget, LRU, configurable"). */
export const MEDIA_BUDGET_CHOICES: readonly number[] = [50, 100, 200, 500, 1024, 2048, 5120]
  .map((n) => n * MB)
  .filter((bytes) => bytes >= DESKTOP_LIMITS.mediaBudgetMinBytes && bytes <= DESKTOP_LIMITS.mediaBudgetMaxBytes);

/** 52428800 -> "50 MB", 1073741824 -> "1 GB", 1536 -> "0,0 MB" (the locale's decimal mark). */
export function formatBytes(bytes: number, locale: string): string {
  const gb = bytes / (1024 * MB);
  const format = (value: number, digits: number) =>
    new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(value);
  return gb >= 1 ? `${format(gb, 1)} GB` : `${format(bytes / MB, 1)} MB`;
}

/** The choices, with the current budget among them when it is not one of the offered ones. */
export function budgetOptions(current: number | null): number[] {
  const all = new Set(MEDIA_BUDGET_CHOICES);
  if (current !== null) all.add(current);
  return [...all].sort((a, b) => a - b);
}

/**
 * The desktop console's media cache: how much it holds and its size budget, which the agent
 * chooses here (kept by the main process for the next start). Only in the desktop app: the web
 * app has no local cache, so nothing renders there.
 */
export function DesktopMediaBudget({ media = typeof window === 'undefined' ? undefined : window.desktop?.media }: { media?: DesktopMediaApi }) {
  const { t, i18n } = useTranslation();
  const [usage, setUsage] = useState<DesktopMediaUsage | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (!media) return null;
  const locale = i18n.resolvedLanguage ?? 'pt-br';
  const load = () =>
    media
      .usage()
      .then((u) => {
        setUsage(u);
        setError(null);
      })
      .catch(() => setError(t('preferences.mediaCache.unavailable')));
  const choose = (bytes: number) =>
    media
      .setBudget(bytes)
      .then((u) => {
        setUsage(u);
        setError(null);
      })
      .catch(() => setError(t('preferences.mediaCache.unavailable')));

  return (
    <Popover
      placement="bottom-end"
      onOpening={() => void load()}
      content={
        <div className="desktop-media-budget" data-testid="desktop-media-budget">
          <h4>{t('preferences.mediaCache.title')}</h4>
          {error ? <p data-testid="desktop-media-error">{error}</p> : null}
          {usage ? (
            <>
              <p data-testid="desktop-media-usage">
                {t('preferences.mediaCache.usage', {
                  used: formatBytes(usage.bytes, locale),
                  budget: formatBytes(usage.budgetBytes, locale),
                  count: usage.items,
                })}
              </p>
              <ProgressBar animate={false} stripes={false} value={usage.budgetBytes > 0 ? usage.bytes / usage.budgetBytes : 0} />
              <label>
                {t('preferences.mediaCache.budget')}{' '}
                <HTMLSelect
                  data-testid="desktop-media-budget-select"
                  value={usage.budgetBytes}
                  onChange={(event) => void choose(Number(event.currentTarget.value))}
                  options={budgetOptions(usage.budgetBytes).map((bytes) => ({ value: bytes, label: formatBytes(bytes, locale) }))}
                />
              </label>
              <p className="bp6-text-muted">{t('preferences.mediaCache.hint')}</p>
            </>
          ) : null}
        </div>
      }
    >
      <Tooltip content={t('preferences.mediaCache.title')} placement="bottom">
        <Button variant="minimal" icon="database" aria-label={t('preferences.mediaCache.title')} data-testid="desktop-media-button" />
      </Tooltip>
    </Popover>
  );
}
