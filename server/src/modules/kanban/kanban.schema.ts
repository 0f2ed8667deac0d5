/** Request bodies of the kanban column and lane routes; declared in shared/ so the React client validates the same way. */
export { CreateKanbanSchema, UpdateKanbanSchema, CreateLaneSchema, UpdateLaneSchema } from '@shared/schemas/kanban';
export { ReorderSchema } from '@shared/schemas/catalog-fields';
export type { CreateKanbanInput, UpdateKanbanInput, CreateLaneInput, UpdateLaneInput } from '@shared/schemas/kanban';
