import { z } from 'zod';
import { AT_LEAST_ONE_FIELD_MESSAGE, atLeastOneField, catalogName, formBoolean, hexColor } from './catalog-fields';

/**
 * Kanban columns and lanes (spec sections 2 and 3): request bodies shared with the React client,
 * and answers. Both are ordered by `position` (0..n-1); new ones go last and drag and drop sends
 * the whole new order to PUT /kanban/reorder or PUT /lanes/reorder (ReorderSchema).
 */

const kanbanFields = {
  name: catalogName,
  color: hexColor.optional(),
  active: formBoolean.optional(),
};

/** POST /kanban body. */
export const CreateKanbanSchema = z.object(kanbanFields);
/** PUT /kanban/{kanbanId} body: any subset of the fields. */
export const UpdateKanbanSchema = z.object(kanbanFields).partial().refine(atLeastOneField, { error: AT_LEAST_ONE_FIELD_MESSAGE });

const laneFields = {
  name: catalogName,
  color: hexColor.optional(),
};

/** POST /lanes body. */
export const CreateLaneSchema = z.object(laneFields);
/** PUT /lanes/{laneId} body: any subset of the fields. */
export const UpdateLaneSchema = z.object(laneFields).partial().refine(atLeastOneField, { error: AT_LEAST_ONE_FIELD_MESSAGE });

export type CreateKanbanInput = z.infer<typeof CreateKanbanSchema>;
export type UpdateKanbanInput = z.infer<typeof UpdateKanbanSchema>;
export type CreateLaneInput = z.infer<typeof CreateLaneSchema>;
export type UpdateLaneInput = z.infer<typeof UpdateLaneSchema>;

export interface Kanban {
  id: number;
  name: string;
  color: string;
  position: number;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Lane {
  id: number;
  name: string;
  color: string;
  position: number;
  createdAt: string;
  updatedAt: string;
}
