import { Callout, Spinner } from '@blueprintjs/core';
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export const isImageDataUrl = (value: string): boolean => /^data:image\/(png|jpeg|gif|webp);base64,/i.test(value);

/**
 * The session's QR code text (what the phone must scan) drawn as an image: the `qrcode` package
 * renders it to a PNG data URL in the browser, nothing leaves the page.
 */
export function ChannelQrImage({ value, size = 264 }: { value: string; size?: number }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let alive = true;
    setFailed(false);
    // Some gateways (Wuzapi) hand over the QR already drawn, as a PNG data URL.
    if (isImageDataUrl(value)) {
      setUrl(value);
      return;
    }
    QRCode.toDataURL(value, { width: size, margin: 1, errorCorrectionLevel: 'M' })
      .then((data) => {
        if (alive) setUrl(data);
      })
      .catch(() => {
        if (alive) setFailed(true);
      });
    return () => {
      alive = false;
    };
  }, [value, size]);

  if (failed)
    return (
      <Callout intent="danger" icon="error">
        {t('channels.qr.renderFailed')}
      </Callout>
    );
  if (!url) return <Spinner size={40} />;
  return (
    <img
      src={url}
      width={size}
      height={size}
      alt={t('channels.qr.alt')}
      className="channel-qr-image"
      data-testid="channel-qr-image"
    />
  );
}
