import { Button, Card, FileInput, FormGroup, H5, InputGroup } from '@blueprintjs/core';
import { useEffect, useMemo, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { SystemColorsSchema } from '@shared/schemas/tenant-settings';
import {
  APP_NAME_MAX,
  BRANDING_IMAGE_ACCEPT,
  BRANDING_IMAGE_MAX_BYTES,
  UpdateBrandingSchema,
  type BrandingMediaKind,
} from '@shared/schemas/white-label';
import { useGetPublicSystemColorsQuery } from '../../api/tenant-settings.api';
import {
  useGetPublicBrandingQuery,
  useRemoveBrandingImageMutation,
  useUpdateBrandingMutation,
  useUpdateSystemColorsMutation,
  useUploadBrandingImageMutation,
} from '../../api/white-label.api';
import { currentApiBaseUrl } from '../../app/config/app-config';
import { showToast } from '../../app/feedback/toaster';
import { PageHeader } from '../../app/layout/page-header';
import { toCssVariables } from '../../app/theme/system-colors';
import { appNameOf, brandingAssetUrl } from './branding.logic';
import { colorEntriesOf, colorsFromEntries, type ColorEntry } from './customize.logic';
import './white-label.css';

/**
 * /customizar: the platform's white-label (super administrator). Colours, application name,
 * logo and favicon, applied to every web and desktop client at run time (no rebuild): open pages
 * follow at once (`branding:update`), others on their next load. A preview shows the result
 * before saving.
 */
export function CustomizePage() {
  const { t } = useTranslation();
  const branding = useGetPublicBrandingQuery();
  const colors = useGetPublicSystemColorsQuery();
  const [updateBranding, savingName] = useUpdateBrandingMutation();
  const [updateColors, savingColors] = useUpdateSystemColorsMutation();
  const [uploadImage, uploading] = useUploadBrandingImageMutation();
  const [removeImage] = useRemoveBrandingImageMutation();

  const [appName, setAppName] = useState('');
  const [entries, setEntries] = useState<ColorEntry[]>([]);
  const [nameError, setNameError] = useState<string | null>(null);
  const [colorsError, setColorsError] = useState<string | null>(null);

  // The form starts from the saved values once: a refetch (after an upload, or a live
  // branding:update) must not wipe what is being typed.
  const [loadedName, setLoadedName] = useState(false);
  const [loadedColors, setLoadedColors] = useState(false);
  useEffect(() => {
    if (!branding.data || loadedName) return;
    setAppName(branding.data.appName ?? '');
    setLoadedName(true);
  }, [branding.data, loadedName]);
  useEffect(() => {
    if (!colors.data || loadedColors) return;
    setEntries(colorEntriesOf(colors.data));
    setLoadedColors(true);
  }, [colors.data, loadedColors]);

  const previewStyle = useMemo(() => toCssVariables(colorsFromEntries(entries)) as CSSProperties, [entries]);
  const base = currentApiBaseUrl();
  const logo = brandingAssetUrl(base, branding.data?.logoUrl ?? null);
  const favicon = brandingAssetUrl(base, branding.data?.faviconUrl ?? null);
  const previewName = appName.trim() || appNameOf(undefined, t('app.name'));

  const save = async () => {
    const name = UpdateBrandingSchema.safeParse({ appName });
    const palette = SystemColorsSchema.safeParse(colorsFromEntries(entries));
    setNameError(name.success ? null : (name.error.issues[0]?.message ?? null));
    setColorsError(palette.success ? null : palette.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    if (!name.success || !palette.success) return;
    // Colours first: the name's save announces branding:update, on which every open page
    // refetches both.
    const savedColors = await updateColors(palette.data);
    if ('error' in savedColors) return;
    const saved = await updateBranding(name.data);
    if (!('error' in saved)) showToast(t('whiteLabel.saved'), 'success');
  };

  const pick = async (kind: BrandingMediaKind, file: File | undefined) => {
    if (!file) return;
    // The server checks the bytes; this only spares an upload that cannot pass.
    if (file.size > BRANDING_IMAGE_MAX_BYTES || /svg/i.test(file.type) || /\.svg$/i.test(file.name)) {
      showToast(t('errors.ERR_UNSUPPORTED_FILE_TYPE'), 'danger');
      return;
    }
    const result = await uploadImage({ kind, file });
    if (!('error' in result)) showToast(t('whiteLabel.uploaded'), 'success');
  };

  const imageField = (kind: BrandingMediaKind, url: string | null) => (
    <FormGroup label={t(`whiteLabel.${kind}`)} helperText={t('whiteLabel.imageHelp')}>
      <div className="white-label-image-row">
        <div className={`white-label-image-box white-label-${kind}`}>
          {url ? <img src={url} alt={t(`whiteLabel.${kind}`)} data-testid={`white-label-${kind}-current`} /> : <span className="crud-muted">{t('whiteLabel.default')}</span>}
        </div>
        <FileInput
          text={t('whiteLabel.choose')}
          buttonText={t('whiteLabel.browse')}
          disabled={uploading.isLoading}
          inputProps={{ accept: BRANDING_IMAGE_ACCEPT, 'data-testid': `white-label-${kind}-input` } as never}
          onInputChange={(event) => {
            const input = event.currentTarget as HTMLInputElement;
            void pick(kind, input.files?.[0]).finally(() => (input.value = ''));
          }}
        />
        {url ? (
          <Button variant="minimal" icon="reset" text={t('whiteLabel.restore')} onClick={() => void removeImage(kind)} data-testid={`white-label-${kind}-remove`} />
        ) : null}
      </div>
    </FormGroup>
  );

  return (
    <div className="crud-page" data-testid="customize-page">
      <PageHeader
        title={t('routes.customizar')}
        description={t('whiteLabel.description')}
        actions={
          <Button intent="primary" icon="floppy-disk" text={t('crud.save')} loading={savingName.isLoading || savingColors.isLoading} onClick={() => void save()} data-testid="white-label-save" />
        }
      />
      <div className="white-label-layout">
        <div className="white-label-settings">
          <Card>
            <H5>{t('whiteLabel.identity')}</H5>
            <FormGroup label={t('whiteLabel.appName')} labelFor="white-label-app-name" helperText={nameError ?? t('whiteLabel.appNameHelp')} intent={nameError ? 'danger' : 'none'}>
              <InputGroup id="white-label-app-name" value={appName} maxLength={APP_NAME_MAX} placeholder={t('app.name')} onChange={(e) => setAppName(e.currentTarget.value)} data-testid="white-label-app-name" />
            </FormGroup>
            {imageField('logo', logo)}
            {imageField('favicon', favicon)}
          </Card>
          <Card>
            <H5>{t('whiteLabel.colors')}</H5>
            <div className="white-label-colors">
              {entries.map((entry, index) => (
                <FormGroup key={entry.name} label={entry.label ?? entry.name} labelFor={`white-label-color-${entry.name}`}>
                  <div className="crud-color-field">
                    <input
                      type="color"
                      className="crud-color-picker"
                      value={/^#[0-9a-f]{6}$/i.test(entry.value) ? entry.value : '#000000'}
                      aria-label={entry.label ?? entry.name}
                      onChange={(e) => setEntries((list) => list.map((x, i) => (i === index ? { ...x, value: e.currentTarget.value } : x)))}
                      data-testid={`white-label-color-${entry.name}-picker`}
                    />
                    <InputGroup
                      id={`white-label-color-${entry.name}`}
                      value={entry.value}
                      onChange={(e) => {
                        const value = e.currentTarget.value.trim();
                        setEntries((list) => list.map((x, i) => (i === index ? { ...x, value } : x)));
                      }}
                      data-testid={`white-label-color-${entry.name}`}
                    />
                  </div>
                </FormGroup>
              ))}
            </div>
            {colorsError ? (
              <p className="white-label-error" role="alert">
                {colorsError}
              </p>
            ) : null}
          </Card>
        </div>
        <Card className="white-label-preview" style={previewStyle} data-testid="white-label-preview">
          <H5>{t('whiteLabel.preview')}</H5>
          <div className="white-label-preview-tab">
            {favicon ? <img src={favicon} alt="" /> : null}
            <span>{previewName}</span>
          </div>
          <div className="white-label-preview-bar">
            {logo ? <img src={logo} alt="" /> : null}
            <strong data-testid="white-label-preview-name">{previewName}</strong>
          </div>
          <div className="white-label-preview-body">
            <button type="button" className="white-label-preview-button">
              {t('whiteLabel.sampleButton')}
            </button>
            <span className="white-label-preview-accent">{t('whiteLabel.sampleText')}</span>
          </div>
        </Card>
      </div>
    </div>
  );
}
