/** Request schemas of the contacts routes; declared in shared/ so the React client validates the same way. */
export {
  BlockChatbotSchema,
  BlockContactSchema,
  ContactExportSchema,
  ContactImportFieldsSchema,
  ContactImportTemplateQuerySchema,
  ContactListQuerySchema,
  ContactTagsSchema,
  ContactWalletsSchema,
  CreateContactSchema,
  UpdateContactSchema,
} from '@shared/schemas/contacts';
export type {
  ContactExportInput,
  ContactFilters,
  ContactListQuery,
  CreateContactInput,
  UpdateContactInput,
} from '@shared/schemas/contacts';
