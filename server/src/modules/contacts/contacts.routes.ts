import Router from '@koa/router';
import { unlink } from 'node:fs/promises';
import { z } from 'zod';
import { AppError } from '../../core/app-error';
import type { AppDeps } from '../../deps';
import { authOf, type AppContext } from '../../http/context';
import { ECHOED_ROW_FIELDS, intParam, validate } from '../../http/validate';
import { requireAuth } from '../auth/require-auth';
import { ContactExportService, type ExportFile } from './contact-export.service';
import { registerContactImportJobs } from './contact-import.job';
import { ContactImportService } from './contact-import.service';
import { ContactSyncService } from './contact-sync.service';
import { ContactSyncSchema } from '@shared/schemas/groups';
import { receiveImportFile } from './contact-import.upload';
import { authorizeContactAction } from './contacts.policy';
import {
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
} from './contacts.schema';
import { ContactsService } from './contacts.service';

const ImportIdParamSchema = z.object({ importId: z.uuid({ error: 'deve ser um id de importação válido' }) });

/** Read-only fields of a ContactDto (and the anchor's contact row) that an editing client sends back. */
const CONTACT_ECHOED = [...ECHOED_ROW_FIELDS, 'profilePicUrl', 'isGroup', 'pushname', 'isUser', 'isWAContact'];

/**
 * Contacts routes (anchor paths of anchor-routes.tsv): auth -> validate -> handler. The fixed
 * paths (/contacts/upload, /contacts/export, ...) are declared before /contacts/:contactId.
 */
export function contactsRoutes(deps: AppDeps): Router {
  const router = new Router();
  const auth = requireAuth(deps.dataSource, deps.config.jwtSecret);
  const contacts = new ContactsService(deps);
  const imports = new ContactImportService(deps);
  const exporter = new ContactExportService(deps);
  const sync = new ContactSyncService(deps);
  registerContactImportJobs(deps, imports);

  const sendFile = (ctx: AppContext, file: ExportFile) => {
    ctx.attachment(file.fileName);
    ctx.type = file.contentType;
    ctx.body = file.body;
  };

  router.get('/contacts', auth, validate(ContactListQuerySchema, 'query'), async (ctx: AppContext) => {
    ctx.body = await contacts.list(authOf(ctx), ctx.input);
  });

  router.post('/contacts', auth, validate(CreateContactSchema), async (ctx: AppContext) => {
    ctx.status = 201;
    ctx.body = await contacts.create(authOf(ctx), ctx.input);
  });

  router.get('/contacts/import-template', auth, validate(ContactImportTemplateQuerySchema, 'query'), async (ctx: AppContext) => {
    sendFile(ctx, exporter.template(ctx.input.format));
  });

  /** Multipart: `file` (.csv or .xlsx) and optional `dateFormat`. Answers 202 {importId}. */
  router.post('/contacts/upload', auth, async (ctx: AppContext) => {
    const caller = authOf(ctx);
    // Checked before the body is read, so a refused caller never writes a file to disk.
    authorizeContactAction(caller, 'import');
    const file = await receiveImportFile(ctx, imports.uploadDir(caller.tenantId));
    const fields = ContactImportFieldsSchema.safeParse((ctx.request as unknown as { body?: unknown }).body ?? {});
    if (!fields.success) {
      await unlink(file.path).catch(() => undefined);
      throw new AppError('ERR_VALIDATION', {
        fields: fields.error.issues.map((i) => ({ path: i.path.join('.') || 'body', message: i.message })),
      });
    }
    try {
      ctx.body = await imports.accept(caller, file, fields.data.dateFormat);
    } catch (err) {
      await unlink(file.path).catch(() => undefined);
      throw err;
    }
    ctx.status = 202;
  });

  router.get('/contacts/upload', auth, async (ctx: AppContext) => {
    ctx.body = await imports.listRecent(authOf(ctx));
  });

  router.get('/contacts/upload/:importId', auth, validate(ImportIdParamSchema, 'params'), async (ctx: AppContext) => {
    ctx.body = await imports.get(authOf(ctx), ctx.input.importId);
  });

  router.post('/contacts/export', auth, validate(ContactExportSchema), async (ctx: AppContext) => {
    sendFile(ctx, exporter.export(authOf(ctx), ctx.input));
  });

  router.post('/contacts/remove-duplicates', auth, async (ctx: AppContext) => {
    ctx.body = await contacts.removeDuplicates(authOf(ctx));
  });

  /** The phone's contacts of the QR channels (contact-sync.service.ts); body optional: {whatsappId}. */
  router.post('/contacts/sync', auth, validate(ContactSyncSchema), async (ctx: AppContext) => {
    ctx.body = await sync.sync(authOf(ctx), ctx.input);
  });

  router.get('/contacts/:contactId', auth, async (ctx: AppContext) => {
    ctx.body = await contacts.get(authOf(ctx), intParam(ctx, 'contactId'));
  });

  // The anchor's contact form sends back the contact it read, read-only fields included.
  router.put('/contacts/:contactId', auth, validate(UpdateContactSchema, 'body', { echoed: CONTACT_ECHOED }), async (ctx: AppContext) => {
    ctx.body = await contacts.update(authOf(ctx), intParam(ctx, 'contactId'), ctx.input);
  });

  router.delete('/contacts/:contactId', auth, async (ctx: AppContext) => {
    await contacts.remove(authOf(ctx), intParam(ctx, 'contactId'));
    ctx.status = 204;
  });

  router.put('/contacts/:contactId/block', auth, validate(BlockContactSchema), async (ctx: AppContext) => {
    ctx.body = await contacts.setBlock(authOf(ctx), intParam(ctx, 'contactId'), 'blockContact', ctx.input.blockContact);
  });

  router.put('/contacts/:contactId/block-chatbot', auth, validate(BlockChatbotSchema), async (ctx: AppContext) => {
    ctx.body = await contacts.setBlock(authOf(ctx), intParam(ctx, 'contactId'), 'blockChatbot', ctx.input.blockChatbot);
  });

  router.put('/contact-tags/:contactId', auth, validate(ContactTagsSchema), async (ctx: AppContext) => {
    ctx.body = await contacts.setTags(authOf(ctx), intParam(ctx, 'contactId'), ctx.input.tags);
  });

  router.put('/contact-wallet/:contactId', auth, validate(ContactWalletsSchema), async (ctx: AppContext) => {
    ctx.body = await contacts.setWallets(authOf(ctx), intParam(ctx, 'contactId'), ctx.input.wallets);
  });

  return router;
}
