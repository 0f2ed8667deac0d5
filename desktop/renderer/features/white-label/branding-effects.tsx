import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetPublicBrandingQuery } from '../../api/white-label.api';
import { currentApiBaseUrl } from '../../app/config/app-config';
import { appNameOf, brandingAssetUrl, titleWithName } from './branding.logic';

/** The bundle's own favicon (index.html), put back when the white-label one is removed. */
const DEFAULT_FAVICON = './favicon.svg';

/**
 * Applies the platform's white-label name and favicon to the document at run time: the title
 * and the `<link rel="icon">` follow GET /publicBranding, refetched on `branding:update`.
 */
export function BrandingEffects() {
  const { t } = useTranslation();
  const { data: branding } = useGetPublicBrandingQuery();
  const name = appNameOf(branding, t('app.name'));

  useEffect(() => {
    document.title = titleWithName(document.title, name);
  }, [name]);

  const favicon = brandingAssetUrl(currentApiBaseUrl(), branding?.faviconUrl ?? null);
  useEffect(() => {
    if (!branding) return;
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'icon';
      document.head.appendChild(link);
    }
    if (favicon) link.removeAttribute('type');
    else link.type = 'image/svg+xml';
    link.href = favicon ?? DEFAULT_FAVICON;
  }, [branding, favicon]);

  return null;
}
