import { AnchorButton, Button } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentApiBaseUrl } from '../../app/config/app-config';
import { appStorage } from '../../app/session/app-storage';
import { desktopMediaBlob } from './desktop-media';

/**
 * The private media route needs the bearer token, so files are fetched as blobs. In the desktop
 * app a message's file comes from main's media cache (offline too).
 */
export async function fetchAuthenticatedBlob(path: string): Promise<Blob> {
  const cached = await desktopMediaBlob(path, window.desktop);
  if (cached) return cached;
  const token = appStorage.readToken();
  const response = await fetch(currentApiBaseUrl() + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.blob();
}

export function AuthenticatedImage({ path, alt }: { path: string; alt: string }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let objectUrl: string | null = null;
    let alive = true;
    fetchAuthenticatedBlob(path)
      .then((blob) => {
        if (!alive) return;
        objectUrl = URL.createObjectURL(blob);
        setUrl(objectUrl);
      })
      .catch(() => alive && setFailed(true));
    return () => {
      alive = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [path]);
  if (failed) return <span className="bp6-text-muted">{t('attendance.mediaUnavailable')}</span>;
  if (!url) return <span className="message-media-placeholder" />;
  return (
    <AnchorButton variant="minimal" className="message-image-link" href={url} target="_blank" rel="noreferrer">
      <img className="message-image" src={url} alt={alt} data-testid="message-image" />
    </AnchorButton>
  );
}

export function DownloadLink({ path, name }: { path: string; name: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const blob = await fetchAuthenticatedBlob(path);
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button icon="download" variant="minimal" loading={busy} onClick={download} data-testid="message-download">
      {name || t('attendance.download')}
    </Button>
  );
}
