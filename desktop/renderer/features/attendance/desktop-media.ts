import type { DesktopApi } from '@shared/desktop-api';

/** A message's file route, as `Message.mediaUrl` names it. */
const MESSAGE_MEDIA_PATH = /^\/messages\/media\/([1-9]\d{0,15})$/;

/**
 * Inside the desktop app a message's file comes through main's media cache (encrypted, within a
 * size budget, shown offline too) instead of the network. Null when that does not apply: the web
 * app (no bridge), a bridge without the media cache, or another route (quick-reply files): the
 * caller fetches as before. Kept tiny: it is in the console's chunk, web app included.
 */
export async function desktopMediaBlob(path: string, desktop: Pick<DesktopApi, 'media'> | undefined): Promise<Blob | null> {
  const media = desktop?.media;
  const id = media ? MESSAGE_MEDIA_PATH.exec(path)?.[1] : undefined;
  if (!media || !id) return null;
  const file = await media.get(Number(id));
  return new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.mimeType });
}
