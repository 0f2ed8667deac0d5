import {
  EditChatMessageSchema,
  INTERNAL_CHAT_ERRORS,
  INTERNAL_CHAT_MESSAGE_MAX_CEILING,
  INTERNAL_CHAT_MESSAGE_MAX_DEFAULT,
  SendChatMessageSchema,
} from '@shared/schemas/internal-chat';
import type { SettingEntry } from '@shared/schemas/settings';

/**
 * The tenant's message limit (setting `internalChatMessageMax`, spec section 9) applied on top of
 * the shared schemas the server validates with, so the composer refuses an over-long text with
 * the server's own sentence before sending it.
 */

export function messageLimitOf(settings: readonly SettingEntry[] | undefined): number {
  const raw = settings?.find((s) => s.key === 'internalChatMessageMax')?.value;
  const n = raw !== undefined && /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  return Number.isInteger(n) && n >= 1 ? Math.min(n, INTERNAL_CHAT_MESSAGE_MAX_CEILING) : INTERNAL_CHAT_MESSAGE_MAX_DEFAULT;
}

/** The server's text for an over-long message, with the limit in it. */
export const tooLongMessage = (max: number): string => INTERNAL_CHAT_ERRORS.tooLong.message.replace('{max}', String(max));

/** The length the server counts: the text as sent (trimmed at the ends by the client). */
export const countedLength = (text: string): number => text.trim().length;

/**
 * The server's own sentence for an over-long text (it names the limit, which the generic text of
 * the error code cannot): the composer shows it under the text when the limit changed meanwhile.
 */
export function tooLongRefusalOf(failure: unknown): string | null {
  const body = (failure as { data?: unknown } | undefined)?.data as { error?: unknown; message?: unknown } | undefined;
  return body?.error === INTERNAL_CHAT_ERRORS.tooLong.code && typeof body.message === 'string' ? body.message : null;
}

/** SendChatMessageSchema with the tenant's limit. */
export const sendSchemaWithin = (max: number) =>
  SendChatMessageSchema.superRefine((value, ctx) => {
    if (countedLength(value.body) > max) ctx.addIssue({ code: 'custom', path: ['body'], message: tooLongMessage(max) });
  });

/** EditChatMessageSchema with the tenant's limit. */
export const editSchemaWithin = (max: number) =>
  EditChatMessageSchema.superRefine((value, ctx) => {
    if (countedLength(value.body) > max) ctx.addIssue({ code: 'custom', path: ['body'], message: tooLongMessage(max) });
  });
