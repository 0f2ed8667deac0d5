/**
 * Files the server streams to authenticated calls (exports, templates). A plain link cannot
 * carry the bearer token, so the file is fetched through the base query, held as a Blob and
 * handed to the browser as an object URL.
 */

/**
 * The file name of a Content-Disposition header: RFC 5987 `filename*=UTF-8''...` first (names
 * with accents), then `filename="..."`; null when absent (a cross-origin answer hides the
 * header unless the server exposes it).
 */
export function fileNameFromContentDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*([\w-]+)'[^']*'([^;]+)/i.exec(header);
  if (extended) {
    try {
      return sanitizeFileName(decodeURIComponent(extended[2].trim().replace(/^"|"$/g, '')));
    } catch {
      // A malformed escape: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  const name = plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]?.trim()) : null;
  return name ? sanitizeFileName(name) : null;
}

/** No folders and no control characters in a name the server (or anyone) suggests. */
function sanitizeFileName(name: string): string | null {
  const clean = name
    .replace(/[\\/]/g, '_')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim();
  return clean === '' || clean === '.' || clean === '..' ? null : clean;
}

/** Offers the Blob as a download named `fileName` (the browser's or Electron's save flow). */
export function saveBlobAs(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked after the click has been handed over; revoking at once can cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Reads a file answer as a Blob, and an error answer as JSON (for the error toast). */
export async function blobOrErrorBody(response: Response): Promise<unknown> {
  if (response.ok) return response.blob();
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
