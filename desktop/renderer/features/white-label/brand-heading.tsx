import './white-label.css';
import { useTranslation } from 'react-i18next';
import { useGetPublicBrandingQuery } from '../../api/white-label.api';
import { currentApiBaseUrl } from '../../app/config/app-config';
import { appNameOf, brandingAssetUrl } from './branding.logic';

/** The platform's logo (when one is set) and application name: the login card and the top bar. */
export function BrandHeading({ className, as: Tag = 'span' }: { className?: string; as?: 'span' | 'h2' }) {
  const { t } = useTranslation();
  const { data: branding } = useGetPublicBrandingQuery();
  const name = appNameOf(branding, t('app.name'));
  const logo = brandingAssetUrl(currentApiBaseUrl(), branding?.logoUrl ?? null);
  return (
    <Tag className={className ? `brand-heading ${className}` : 'brand-heading'} data-testid="brand-heading">
      {logo ? <img className="brand-heading-logo" src={logo} alt="" data-testid="brand-logo" /> : null}
      <span data-testid="brand-name">{name}</span>
    </Tag>
  );
}
