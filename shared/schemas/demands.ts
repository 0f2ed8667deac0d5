import { z } from 'zod';
import { AT_LEAST_ONE_FIELD_MESSAGE, atLeastOneField, catalogName, formBoolean } from './catalog-fields';

/** Demands (motivos: the reason a ticket was opened), spec section 3: request bodies and answers. */

const demandFields = {
  name: catalogName,
  active: formBoolean.optional(),
};

/** POST /demands body. */
export const CreateDemandSchema = z.object(demandFields);
/** PUT /demands/{demandId} body: any subset of the fields. */
export const UpdateDemandSchema = z.object(demandFields).partial().refine(atLeastOneField, { error: AT_LEAST_ONE_FIELD_MESSAGE });

export type CreateDemandInput = z.infer<typeof CreateDemandSchema>;
export type UpdateDemandInput = z.infer<typeof UpdateDemandSchema>;

export interface Demand {
  id: number;
  name: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}
