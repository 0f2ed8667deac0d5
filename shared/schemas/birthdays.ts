import { z } from 'zod';
import { CATALOG_TEXT_MAX } from './catalog-fields';
import { withoutBrackets } from './period';

/**
 * Birthday and farewell (closing) messages of each channel (issue #14, screens /aniversarios and
 * /fechamento) and the list of upcoming birthdays. The server validates with these schemas and
 * the React forms reuse them.
 */

export const BIRTHDAY_HOUR_MESSAGE = 'deve ser uma hora cheia de 0 a 23';
/** How far ahead the upcoming list looks by default, and at most (a whole year). */
export const UPCOMING_BIRTHDAYS_DAYS_DEFAULT = 30;
export const UPCOMING_BIRTHDAYS_DAYS_MAX = 366;
export const UPCOMING_BIRTHDAYS_PAGE_SIZE_DEFAULT = 20;
export const UPCOMING_BIRTHDAYS_PAGE_SIZE_MAX = 100;

/** An optional message: trimmed, empty means none (null). */
const automaticMessage = z
  .string({ error: 'deve ser um texto' })
  .trim()
  .max(CATALOG_TEXT_MAX, { error: `no máximo ${CATALOG_TEXT_MAX} caracteres` })
  .nullable()
  .transform((v) => (v ? v : null));

/**
 * Whole hours (spec section 9). Forms hold the hour as text ('' = none); the API takes a number
 * or null.
 */
const birthdayHour = z.preprocess(
  (v) => (v === '' ? null : typeof v === 'string' && /^\s*\d{1,2}\s*$/.test(v) ? Number(v) : v),
  z
    .number({ error: BIRTHDAY_HOUR_MESSAGE })
    .int({ error: BIRTHDAY_HOUR_MESSAGE })
    .min(0, { error: BIRTHDAY_HOUR_MESSAGE })
    .max(23, { error: BIRTHDAY_HOUR_MESSAGE })
    .nullable(),
);

/** PUT /whatsapp/{whatsappId}/birthday: the channel's birthday message and the hour it goes out. */
export const ChannelBirthdaySchema = z.object({ birthdayMessage: automaticMessage, birthdayHour }).superRefine((v, ctx) => {
  if (v.birthdayMessage && v.birthdayHour === null) {
    ctx.addIssue({ code: 'custom', path: ['birthdayHour'], message: 'Hora do envio é obrigatório' });
  }
});
export type ChannelBirthdayInput = z.output<typeof ChannelBirthdaySchema>;

/** PUT /whatsapp/{whatsappId}/farewell: the message sent when a ticket of the channel is resolved. */
export const ChannelFarewellSchema = z.object({ farewellMessage: automaticMessage });
export type ChannelFarewellInput = z.output<typeof ChannelFarewellSchema>;

const pageNumber = z.coerce
  .number({ error: 'deve ser um número de página' })
  .int({ error: 'deve ser um número de página' })
  .min(1, { error: 'deve ser um número de página' })
  .max(100_000, { error: 'no máximo 100000' })
  .default(1);

/** GET /birthdays/upcoming query. */
export const UpcomingBirthdaysQuerySchema = z.preprocess(
  withoutBrackets,
  z.object({
    days: z.coerce
      .number({ error: `deve ser um número de dias de 1 a ${UPCOMING_BIRTHDAYS_DAYS_MAX}` })
      .int({ error: `deve ser um número de dias de 1 a ${UPCOMING_BIRTHDAYS_DAYS_MAX}` })
      .min(1, { error: `deve ser um número de dias de 1 a ${UPCOMING_BIRTHDAYS_DAYS_MAX}` })
      .max(UPCOMING_BIRTHDAYS_DAYS_MAX, { error: `deve ser um número de dias de 1 a ${UPCOMING_BIRTHDAYS_DAYS_MAX}` })
      .default(UPCOMING_BIRTHDAYS_DAYS_DEFAULT),
    pageNumber,
    pageSize: z.coerce
      .number({ error: `deve ser um tamanho de página de 1 a ${UPCOMING_BIRTHDAYS_PAGE_SIZE_MAX}` })
      .int({ error: `deve ser um tamanho de página de 1 a ${UPCOMING_BIRTHDAYS_PAGE_SIZE_MAX}` })
      .min(1, { error: `deve ser um tamanho de página de 1 a ${UPCOMING_BIRTHDAYS_PAGE_SIZE_MAX}` })
      .max(UPCOMING_BIRTHDAYS_PAGE_SIZE_MAX, {
        error: `deve ser um tamanho de página de 1 a ${UPCOMING_BIRTHDAYS_PAGE_SIZE_MAX}`,
      })
      .default(UPCOMING_BIRTHDAYS_PAGE_SIZE_DEFAULT),
  }),
);
export type UpcomingBirthdaysQuery = z.output<typeof UpcomingBirthdaysQuerySchema>;

/** One contact of the upcoming list. */
export interface UpcomingBirthday {
  contactId: number;
  name: string;
  number: string | null;
  /** yyyy-MM-dd as stored. */
  birthday: string;
  /** yyyy-MM-dd: the next day it is celebrated (today included; 29/02 on 28/02 in other years). */
  nextBirthday: string;
  daysUntil: number;
  /** The age the contact turns on nextBirthday. */
  turning: number;
  /** The channel that greets the contact (see docs/api.md) and its hour, null when none has a birthday message. */
  channelId: number | null;
  channelName: string | null;
  birthdayHour: number | null;
  /** Already greeted in the year of nextBirthday (once per contact per year). */
  greeted: boolean;
}

export interface UpcomingBirthdaysAnswer {
  /** yyyy-MM-dd, today in the tenant's time zone. */
  today: string;
  timeZone: string;
  days: number;
  contacts: UpcomingBirthday[];
  count: number;
  hasMore: boolean;
  pageNumber: number;
  pageSize: number;
}
