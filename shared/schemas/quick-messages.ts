import { z } from 'zod';
import { CATALOG_TEXT_MAX, formBoolean } from './catalog-fields';

/**
 * Quick messages (mensagens rápidas, spec section 3 "Quick message: key, message, file,
 * send-as-recorded-audio, active"). Sent as JSON or as multipart/form-data with the optional file
 * in the `medias` field (the anchor clients' field name).
 */

export const QUICK_MESSAGE_KEY_MAX = 50;
export const QUICK_MESSAGE_MEDIA_FIELD = 'medias';
/** WhatsApp's own ceiling for audio, image and video media. */
export const QUICK_MESSAGE_MEDIA_MAX_BYTES = 16 * 1024 * 1024;

/** The key is typed after a leading slash (spec section 5), so it is one word without the slash. */
export const QUICK_MESSAGE_KEY_PATTERN = /^[^\s/]\S*$/u;

const key = z
  .string({ error: 'é obrigatório' })
  .trim()
  .min(1, { error: 'é obrigatório' })
  .max(QUICK_MESSAGE_KEY_MAX, { error: `no máximo ${QUICK_MESSAGE_KEY_MAX} caracteres` })
  .regex(QUICK_MESSAGE_KEY_PATTERN, { error: 'não pode conter espaços nem começar com /' });

const message = z
  .string({ error: 'deve ser um texto' })
  .trim()
  .max(CATALOG_TEXT_MAX, { error: `no máximo ${CATALOG_TEXT_MAX} caracteres` });

/**
 * POST /fastreply body. `message` may be empty only when a file is attached (checked by the
 * server, which sees the file). `sendAsVoice` needs an audio file.
 */
export const CreateQuickMessageSchema = z.object({
  key,
  message: message.optional(),
  sendAsVoice: formBoolean.optional(),
  active: formBoolean.optional(),
});

/**
 * PUT /fastreply/{fastReplyId} body: any subset; a new file replaces the old one, `removeMedia`
 * drops it. A request with neither a field nor a file is refused by the server (the file is not
 * part of this schema).
 */
export const UpdateQuickMessageSchema = z.object({
  key: key.optional(),
  message: message.optional(),
  sendAsVoice: formBoolean.optional(),
  active: formBoolean.optional(),
  removeMedia: formBoolean.optional(),
});

export type CreateQuickMessageInput = z.infer<typeof CreateQuickMessageSchema>;
export type UpdateQuickMessageInput = z.infer<typeof UpdateQuickMessageSchema>;

export interface QuickMessage {
  id: number;
  key: string;
  message: string;
  sendAsVoice: boolean;
  active: boolean;
  /** Who created it. */
  userId: number | null;
  mediaName: string | null;
  mediaType: string | null;
  /** GET this path with the bearer token to download the file; null without a file. */
  mediaUrl: string | null;
  createdAt: string;
  updatedAt: string;
}
