import { z } from 'zod';
import { AT_LEAST_ONE_FIELD_MESSAGE, atLeastOneField, catalogName, formBoolean, hexColor } from './catalog-fields';

/** Tags (etiquetas), spec sections 3 and 8: request bodies shared with the React client, and answers. */

const tagFields = {
  name: catalogName,
  color: hexColor.optional(),
  active: formBoolean.optional(),
};

/** POST /tags body. */
export const CreateTagSchema = z.object(tagFields);
/** PUT /tags/{tagId} body: any subset of the fields. */
export const UpdateTagSchema = z.object(tagFields).partial().refine(atLeastOneField, { error: AT_LEAST_ONE_FIELD_MESSAGE });

export type CreateTagInput = z.infer<typeof CreateTagSchema>;
export type UpdateTagInput = z.infer<typeof UpdateTagSchema>;

export interface Tag {
  id: number;
  name: string;
  color: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}
