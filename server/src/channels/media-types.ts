import path from 'node:path';

export type OutboundMediaKind = 'image' | 'audio' | 'video' | 'document';

/**
 * How a file goes out on WhatsApp: the Cloud API shows JPEG/PNG as images, MP4/3GPP as videos,
 * its audio formats as audio; everything else (and other image formats, which it refuses as
 * images) goes as a document, which any client can open.
 */
export function outboundMediaKind(mimeType: string): OutboundMediaKind {
  const type = mimeType.toLowerCase().split(';')[0].trim();
  if (type === 'image/jpeg' || type === 'image/png') return 'image';
  if (type === 'video/mp4' || type === 'video/3gpp') return 'video';
  if (['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg', 'audio/opus'].includes(type)) return 'audio';
  return 'document';
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/webp': '.webp',
  'image/gif': '.gif',
  'audio/ogg': '.ogg',
  'audio/opus': '.opus',
  'audio/mpeg': '.mp3',
  'audio/mp4': '.m4a',
  'audio/aac': '.aac',
  'audio/amr': '.amr',
  'video/mp4': '.mp4',
  'video/3gpp': '.3gp',
  'application/pdf': '.pdf',
  'text/plain': '.txt',
  'application/zip': '.zip',
  'application/msword': '.doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': '.docx',
  'application/vnd.ms-excel': '.xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': '.xlsx',
  'application/vnd.ms-powerpoint': '.ppt',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': '.pptx',
};

/** A file name for stored media: the sender's name when it has one, else one from the type. */
export function mediaFileName(mimeType: string | undefined, fileName: string | undefined, fallbackBase: string): string {
  if (fileName && path.extname(fileName)) return fileName;
  const type = (mimeType ?? '').toLowerCase().split(';')[0].trim();
  return `${fileName || fallbackBase}${EXTENSIONS[type] ?? ''}`;
}
