import { CATALOG_TEXT_MAX } from '@shared/schemas/catalog-fields';
import { QUICK_MESSAGE_KEY_MAX, QUICK_MESSAGE_KEY_PATTERN, QUICK_MESSAGE_MEDIA_MAX_BYTES } from '@shared/schemas/quick-messages';

/**
 * The rules of the quick-message form (shared/schemas/quick-messages.ts and the server's
 * "message or file" and "voice needs audio" checks), as failure codes the form translates.
 */
export type QuickMessageField = 'key' | 'message' | 'file' | 'sendAsVoice';

export type QuickMessageFailure =
  'required' | 'keyTooLong' | 'keyPattern' | 'messageTooLong' | 'messageOrFile' | 'fileTooLarge' | 'voiceNeedsAudio';

export interface QuickMessageDraft {
  key: string;
  message: string;
  sendAsVoice: boolean;
  /** A file chosen in this form, if any. */
  file: { size: number; type: string } | null;
  /** The type of the file already stored (editing), unless the form removes it. */
  keptMediaType: string | null;
}

const isAudio = (type: string | null | undefined): boolean => Boolean(type?.startsWith('audio/'));

export function validateQuickMessage(draft: QuickMessageDraft): Partial<Record<QuickMessageField, QuickMessageFailure>> {
  const failures: Partial<Record<QuickMessageField, QuickMessageFailure>> = {};
  const key = draft.key.trim();
  if (key === '') failures.key = 'required';
  else if (key.length > QUICK_MESSAGE_KEY_MAX) failures.key = 'keyTooLong';
  else if (!QUICK_MESSAGE_KEY_PATTERN.test(key)) failures.key = 'keyPattern';

  const mediaType = draft.file ? draft.file.type : draft.keptMediaType;
  if (draft.message.trim().length > CATALOG_TEXT_MAX) failures.message = 'messageTooLong';
  else if (draft.message.trim() === '' && !mediaType) failures.message = 'messageOrFile';

  if (draft.file && draft.file.size > QUICK_MESSAGE_MEDIA_MAX_BYTES) failures.file = 'fileTooLarge';
  if (draft.sendAsVoice && !isAudio(mediaType)) failures.sendAsVoice = 'voiceNeedsAudio';
  return failures;
}

/**
 * The text with `token` typed at the cursor (replacing a selection), and where the cursor goes:
 * right after the token, so several variables can be clicked in a row.
 */
export function insertAtCursor(
  text: string,
  selectionStart: number,
  selectionEnd: number,
  token: string,
): { text: string; cursor: number } {
  const start = Math.max(0, Math.min(selectionStart, text.length));
  const end = Math.max(start, Math.min(selectionEnd, text.length));
  return { text: text.slice(0, start) + token + text.slice(end), cursor: start + token.length };
}

/** A file size for people: "820 KB", "3,4 MB". */
export function formatFileSize(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`;
}
