import { z } from 'zod';
import {
  AT_LEAST_ONE_FIELD_MESSAGE,
  CATALOG_TEXT_MAX,
  atLeastOneField,
  catalogName,
  formBoolean,
  hexColor,
} from './catalog-fields';
import { BusinessHoursSchema, type BusinessHoursDay } from './tenant-settings';

/** Queues (filas), spec sections 3 and 8: request bodies shared with the React client, and answers. */

const queueFields = {
  name: catalogName,
  color: hexColor.optional(),
  /** Sent to the contact when a ticket enters the queue; empty or null means none. */
  greetingMessage: z
    .string({ error: 'deve ser um texto' })
    .trim()
    .max(CATALOG_TEXT_MAX, { error: `no máximo ${CATALOG_TEXT_MAX} caracteres` })
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v)),
  active: formBoolean.optional(),
  /** The queue's own week (the 7 days); null: the tenant's business hours apply. */
  businessHours: BusinessHoursSchema.nullable().optional(),
};

/** POST /queue body. */
export const CreateQueueSchema = z.object(queueFields);
/** PUT /queue/{queueId} body: any subset of the fields. */
export const UpdateQueueSchema = z.object(queueFields).partial().refine(atLeastOneField, { error: AT_LEAST_ONE_FIELD_MESSAGE });

export type CreateQueueInput = z.infer<typeof CreateQueueSchema>;
export type UpdateQueueInput = z.infer<typeof UpdateQueueSchema>;

export interface Queue {
  id: number;
  name: string;
  color: string;
  greetingMessage: string | null;
  active: boolean;
  businessHours: BusinessHoursDay[] | null;
  createdAt: string;
  updatedAt: string;
}
