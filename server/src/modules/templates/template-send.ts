import {
  renderTemplate,
  templatePlaceholders,
  type TemplateHeaderMediaFormat,
  templateVariableIssues,
  type TemplateVariables,
} from '@shared/schemas/templates';
import type { TemplateSend } from '../../channels/channel-adapter';
import { AppError } from '../../core/app-error';
import type { Queryable } from '../../core/tenant-catalog';
import type { OutboundDraft } from '../messages/message-store';
import { findStoredTemplate } from './template-store';

/** What an outbound template message keeps in its dataJson (enough to send it again). */
export interface TemplateMessageData {
  name: string;
  language: string;
  variables: { header: string[]; body: string[]; buttons: string[] };
  /** The media of an IMAGE, VIDEO or DOCUMENT header (filename: documents only); absent otherwise. */
  headerMedia?: { format: TemplateHeaderMediaFormat; link: string; filename?: string };
  /** Template index of each URL button variable, in the order of `variables.buttons`. */
  buttonIndexes: number[];
}

/**
 * The outbound row of a template send: the channel's stored template (by name and language)
 * with its variables checked against its placeholders (ERR_VALIDATION naming each field), the
 * body the thread shows (the rendered text) and the send facts in dataJson.template. Every
 * template send goes through here: the composer's (MessageSendService.sendTemplate) and, later,
 * campaigns and bulk sends; OutboundDelivery sends such a row with adapter.sendTemplate.
 */
export async function templateDraft(
  db: Queryable,
  channel: { tenantId: number; id: number },
  input: { name: string; language: string; variables: TemplateVariables; clientId: string },
  extra: Pick<OutboundDraft, 'lastError'> = {},
): Promise<OutboundDraft> {
  const stored = await findStoredTemplate(db, channel.tenantId, channel.id, input.name, input.language);
  if (!stored) {
    throw new AppError('ERR_VALIDATION', {
      fields: [{ path: 'name', message: 'modelo não encontrado nesta conexão (nome e idioma); sincronize os modelos' }],
    });
  }
  const issues = templateVariableIssues(stored.components, input.variables);
  if (issues.length > 0) throw new AppError('ERR_VALIDATION', { fields: issues });
  const placeholders = templatePlaceholders(stored.components);
  const media = placeholders.headerMedia && input.variables.headerMedia;
  const template: TemplateMessageData = {
    name: stored.name,
    language: stored.language,
    variables: {
      header: input.variables.header ?? [],
      body: input.variables.body ?? [],
      buttons: input.variables.buttons ?? [],
    },
    ...(placeholders.headerMedia && media
      ? {
          headerMedia: {
            format: placeholders.headerMedia,
            link: media.link,
            ...(placeholders.headerMedia === 'DOCUMENT' && media.filename ? { filename: media.filename } : {}),
          },
        }
      : {}),
    buttonIndexes: placeholders.buttons,
  };
  return {
    body: renderTemplate(stored.components, input.variables) || stored.name,
    mediaType: 'template',
    clientId: input.clientId,
    isPrivate: false,
    status: 'pending',
    dataJson: { template },
    lastError: extra.lastError ?? null,
  };
}

/** The adapter's send of a stored template message, or null when the row is not one. */
export function templateSendOf(data: { template?: unknown } | null | undefined): TemplateSend | null {
  const t = data?.template as TemplateMessageData | undefined;
  if (!t || typeof t.name !== 'string') return null;
  return {
    name: t.name,
    language: t.language,
    variables: t.variables?.body ?? [],
    header: t.variables?.header ?? [],
    buttons: (t.variables?.buttons ?? []).map((text, i) => ({ index: t.buttonIndexes?.[i] ?? i, text })),
    ...(t.headerMedia ? { headerMedia: t.headerMedia } : {}),
  };
}
