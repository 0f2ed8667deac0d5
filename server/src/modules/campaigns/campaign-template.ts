import { renderMessageVariables } from '@shared/message-variables';
import { fillLineVariables } from '@shared/schemas/bulk-sends';
import type { CampaignTemplateVariables } from '@shared/schemas/campaigns';
import { templateVariableIssues } from '@shared/schemas/templates';
import { AppError } from '../../core/app-error';
import type { Queryable } from '../../core/tenant-catalog';
import { findStoredTemplate, type StoredTemplateRow } from '../templates/template-store';

/** Meta's states of a template that may be sent. */
const SENDABLE = 'APPROVED';

/** Why a stored template may not be chosen, as the form shows it. */
export function templateStateReason(status: string): string | null {
  const s = status.toUpperCase();
  if (s === SENDABLE) return null;
  if (s === 'PAUSED') return 'modelo pausado pela Meta: não pode ser enviado até ser reativado';
  if (s === 'REJECTED') return 'modelo rejeitado pela Meta: escolha um modelo aprovado';
  if (s === 'DISABLED') return 'modelo desativado pela Meta';
  return `modelo ainda não aprovado pela Meta (${status})`;
}

/**
 * The template a campaign or bulk send names, checked on its channel: a WABA channel, a synced
 * template (name and language) that Meta approved, and one text for each of its header, body
 * and URL-button variables and the link of a media (IMAGE, VIDEO, DOCUMENT) header, checked as
 * the composer's template send checks them
 * (templateVariableIssues). `bodyFromLines`: the body is filled by each destination's line
 * (/massa/template-variavel), so only the header and buttons are checked. A template Meta
 * rejected or paused is ERR_TEMPLATE_NOT_APPROVED naming the field; anything else wrong is
 * ERR_VALIDATION naming each part (`templateVariables.header`, `templateVariables.body.1`,
 * `templateVariables.headerMedia` ...).
 */
export async function assertCampaignTemplate(
  db: Queryable,
  tenantId: number,
  channelId: number,
  input: { templateName: string; templateLanguage: string; variables: CampaignTemplateVariables; bodyFromLines?: boolean },
  paths: { name: string; variables: string } = { name: 'templateName', variables: 'templateVariables' },
): Promise<StoredTemplateRow> {
  const [channel] = (await db.query(`SELECT type FROM channels WHERE id = $1 AND "tenantId" = $2`, [channelId, tenantId])) as {
    type: string;
  }[];
  if (!channel) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'channelId', message: 'conexão não encontrada' }] });
  if (channel.type !== 'waba') {
    throw new AppError('ERR_VALIDATION', {
      fields: [{ path: paths.name, message: 'modelos (templates) só podem ser enviados por conexões WABA' }],
    });
  }
  const stored = await findStoredTemplate(db, tenantId, channelId, input.templateName, input.templateLanguage);
  if (!stored) {
    throw new AppError('ERR_VALIDATION', {
      fields: [{ path: paths.name, message: 'modelo não encontrado nesta conexão (nome e idioma); sincronize os modelos' }],
    });
  }
  const state = templateStateReason(stored.status);
  if (state) throw new AppError('ERR_TEMPLATE_NOT_APPROVED', { fields: [{ path: paths.name, message: state }] });
  const fields = templateVariableIssues(stored.components, input.variables)
    .filter((issue) => !(input.bodyFromLines && /^variables\.body(\.|$)/.test(issue.path)))
    .map((issue) => ({ path: issue.path.replace(/^variables/, paths.variables), message: issue.message }));
  if (fields.length > 0) throw new AppError('ERR_VALIDATION', { fields });
  return stored;
}

const PART_NAMES: Record<'header' | 'body' | 'buttons', (index: number) => string> = {
  header: (i) => `A variável {{${i + 1}}} do cabeçalho do modelo`,
  body: (i) => `A variável {{${i + 1}}} do modelo`,
  buttons: (i) => `A variável do botão ${i + 1} do modelo`,
};

/**
 * The values of a template send for one contact: each of the campaign's variable texts (header,
 * body and buttons) with the destination's own values ({{1}} ... of its bulk line) and then the
 * message variables ({{name}} ...) filled; a media header's link is the same for every contact.
 * The first one that comes out empty is named (the Cloud API refuses empty parameters), so the
 * contact fails with a reason instead.
 */
export function templateVariableValues(
  texts: CampaignTemplateVariables,
  lineValues: readonly string[] | null,
  variables: Parameters<typeof renderMessageVariables>[1],
): { values: CampaignTemplateVariables; empty: string | null } {
  const fill = (list: readonly string[]) => list.map((t) => renderMessageVariables(fillLineVariables(t, lineValues), variables).trim());
  const values: CampaignTemplateVariables = {
    header: fill(texts.header),
    body: fill(texts.body),
    buttons: fill(texts.buttons),
    ...(texts.headerMedia ? { headerMedia: texts.headerMedia } : {}),
  };
  for (const part of ['header', 'body', 'buttons'] as const) {
    const index = values[part].findIndex((v) => v === '');
    if (index >= 0) return { values, empty: `${PART_NAMES[part](index)} ficou vazia para este contato.` };
  }
  return { values, empty: null };
}
