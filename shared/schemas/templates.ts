import { z } from 'zod';
import { clientIdSchema } from './messages';

/**
 * WhatsApp message templates (WABA): the send body, and the helpers that count a template's
 * {{n}} placeholders, check the variables against them and render the text the thread shows.
 * Shared so the composer's template dialog validates and previews exactly as the server does.
 */

/** Longest variable text the Cloud API takes in a body parameter. */
export const TEMPLATE_VARIABLE_MAX = 1024;
const PLACEHOLDER = /\{\{\s*(\d+)\s*\}\}/g;

/** A template component as Meta lists it (HEADER, BODY, FOOTER, BUTTONS). */
export interface TemplateComponent {
  type?: string;
  format?: string;
  text?: string;
  buttons?: { type?: string; text?: string; url?: string; [key: string]: unknown }[];
  [key: string]: unknown;
}

/** One part's variable texts (header, body or buttons): each 1-1024 characters after trim, at most 20. */
export const templateVariableListSchema = z
  .array(
    z
      .string({ error: 'deve ser um texto' })
      .trim()
      .min(1, { error: 'é obrigatório' })
      .max(TEMPLATE_VARIABLE_MAX, { error: `até ${TEMPLATE_VARIABLE_MAX} caracteres` }),
    { error: 'deve ser uma lista de textos' },
  )
  .max(20, { error: 'no máximo 20 variáveis' });

/** Header formats whose template needs a media parameter on every send (Meta refuses it without, 132012). */
export const TEMPLATE_HEADER_MEDIA_FORMATS = ['IMAGE', 'VIDEO', 'DOCUMENT'] as const;
export type TemplateHeaderMediaFormat = (typeof TEMPLATE_HEADER_MEDIA_FORMATS)[number];
/** How the preview and the thread show a media header (the customer sees the image, video or document). */
export const TEMPLATE_HEADER_MEDIA_PLACEHOLDER: Record<TemplateHeaderMediaFormat, string> = {
  IMAGE: '[imagem]',
  VIDEO: '[vídeo]',
  DOCUMENT: '[documento]',
};
const TEMPLATE_MEDIA_LINK_MAX = 2048;
const isHttpsUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
};

/**
 * The media of an IMAGE, VIDEO or DOCUMENT header: the public https link Meta downloads it from
 * and, for a document, the file name the customer sees (ignored for images and videos).
 */
export const templateHeaderMediaSchema = z.strictObject(
  {
    link: z
      .string({ error: 'é obrigatório' })
      .trim()
      .min(1, { error: 'é obrigatório' })
      .max(TEMPLATE_MEDIA_LINK_MAX, { error: `até ${TEMPLATE_MEDIA_LINK_MAX} caracteres` })
      .refine((v) => v === '' || isHttpsUrl(v), { error: 'deve ser um link https:// válido' }),
    filename: z.string({ error: 'deve ser um texto' }).trim().max(240, { error: 'até 240 caracteres' }).optional(),
  },
  { error: 'deve ser {link, filename}' },
);
export type TemplateHeaderMedia = z.output<typeof templateHeaderMediaSchema>;

/** POST /messages/{ticketId}/template body. */
export const SendTemplateSchema = z.object({
  name: z.string({ error: 'é obrigatório' }).trim().min(1, { error: 'é obrigatório' }).max(512),
  language: z.string({ error: 'é obrigatório' }).trim().min(1, { error: 'é obrigatório' }).max(15),
  variables: z
    .object({
      header: templateVariableListSchema.optional(),
      body: templateVariableListSchema.optional(),
      buttons: templateVariableListSchema.optional(),
      headerMedia: templateHeaderMediaSchema.optional(),
    })
    .strict()
    .default({}),
  clientId: clientIdSchema.optional(),
});
export type SendTemplateInput = z.output<typeof SendTemplateSchema>;
export type TemplateVariables = SendTemplateInput['variables'];

/** How many variables each part of a template takes: {{1}}..{{n}} of header and body, one per dynamic button. */
export interface TemplatePlaceholders {
  header: number;
  body: number;
  /** Indexes (0-based, Meta's `index`) of the buttons whose URL has a {{1}}. */
  buttons: number[];
  /** The header's media format when it is an image, video or document (a link is then required), else null. */
  headerMedia: TemplateHeaderMediaFormat | null;
}

const highest = (text: string | undefined): number => {
  const numbers = [...(text ?? '').matchAll(PLACEHOLDER)].map((m) => Number(m[1]));
  return numbers.length ? Math.max(...numbers) : 0;
};
const componentOf = (components: readonly TemplateComponent[], type: string) =>
  components.find((c) => String(c.type ?? '').toUpperCase() === type);
const headerFormatOf = (components: readonly TemplateComponent[]): string | null => {
  const header = componentOf(components, 'HEADER');
  return header ? String(header.format ?? 'TEXT').toUpperCase() : null;
};
/** The header's media format (IMAGE, VIDEO, DOCUMENT) or null (no header, a text or location header). */
export function templateHeaderMediaFormat(components: readonly TemplateComponent[]): TemplateHeaderMediaFormat | null {
  const format = headerFormatOf(components);
  return (TEMPLATE_HEADER_MEDIA_FORMATS as readonly string[]).includes(format ?? '')
    ? (format as TemplateHeaderMediaFormat)
    : null;
}
const HEADER_MEDIA_MISSING: Record<TemplateHeaderMediaFormat, string> = {
  IMAGE: 'o modelo tem uma imagem no cabeçalho: informe o link https:// da imagem',
  VIDEO: 'o modelo tem um vídeo no cabeçalho: informe o link https:// do vídeo',
  DOCUMENT: 'o modelo tem um documento no cabeçalho: informe o link https:// do documento',
};

export function templatePlaceholders(components: readonly TemplateComponent[]): TemplatePlaceholders {
  const header = componentOf(components, 'HEADER');
  const buttons = componentOf(components, 'BUTTONS')?.buttons ?? [];
  return {
    header: header && headerFormatOf(components) === 'TEXT' ? highest(header.text) : 0,
    body: highest(componentOf(components, 'BODY')?.text),
    buttons: buttons.flatMap((b, i) => (highest(b.url) > 0 ? [i] : [])),
    headerMedia: templateHeaderMediaFormat(components),
  };
}

/**
 * The variables that do not fit the template, as validation fields (`variables.body`,
 * `variables.body.2`, `variables.headerMedia`...): a missing or extra text, a media header
 * without its link, or a link for a template whose header is not media.
 */
export function templateVariableIssues(
  components: readonly TemplateComponent[],
  variables: TemplateVariables,
): { path: string; message: string }[] {
  const wanted = templatePlaceholders(components);
  const issues: { path: string; message: string }[] = [];
  const check = (part: 'header' | 'body' | 'buttons', count: number) => {
    const given = variables[part] ?? [];
    if (given.length === count) return;
    if (given.length > count) {
      issues.push({
        path: `variables.${part}`,
        message: count === 0 ? 'o modelo não tem variáveis aqui' : `o modelo tem ${count} variável(is); foram enviadas ${given.length}`,
      });
      return;
    }
    for (let i = given.length; i < count; i++) issues.push({ path: `variables.${part}.${i}`, message: 'é obrigatório' });
  };
  check('header', wanted.header);
  check('body', wanted.body);
  check('buttons', wanted.buttons.length);
  if (wanted.headerMedia && !variables.headerMedia?.link) {
    issues.push({ path: 'variables.headerMedia', message: HEADER_MEDIA_MISSING[wanted.headerMedia] });
  } else if (!wanted.headerMedia && variables.headerMedia) {
    issues.push({
      path: 'variables.headerMedia',
      message: 'o cabeçalho do modelo não é imagem, vídeo nem documento: não envie mídia',
    });
  }
  return issues;
}

/** The variables of every part of a template send, each part present (the media header's only when the template has one). */
export interface TemplateVariableValues {
  header: string[];
  body: string[];
  buttons: string[];
  headerMedia?: TemplateHeaderMedia;
}

/**
 * `current` fitted to the template's placeholders: each part as long as the template asks, the
 * values typed so far kept by position, the missing ones ''. What a form holds when a template is
 * chosen (or changed).
 */
export function sizeTemplateVariables(
  components: readonly TemplateComponent[],
  current: Partial<TemplateVariableValues> = {},
): TemplateVariableValues {
  const wanted = templatePlaceholders(components);
  const fit = (values: readonly string[] | undefined, count: number) => Array.from({ length: count }, (_, i) => values?.[i] ?? '');
  return {
    header: fit(current.header, wanted.header),
    body: fit(current.body, wanted.body),
    buttons: fit(current.buttons, wanted.buttons.length),
    ...(wanted.headerMedia
      ? {
          headerMedia: {
            link: current.headerMedia?.link ?? '',
            ...(wanted.headerMedia === 'DOCUMENT' ? { filename: current.headerMedia?.filename ?? '' } : {}),
          },
        }
      : {}),
  };
}

/** The buttons of a template as the customer sees them: each URL with its {{1}} filled (in the order of the dynamic buttons). */
export function renderTemplateButtons(
  components: readonly TemplateComponent[],
  variables: TemplateVariables,
): { text: string; url: string | null }[] {
  const buttons = componentOf(components, 'BUTTONS')?.buttons ?? [];
  let dynamic = 0;
  return buttons.map((b) => {
    if (!b.url) return { text: b.text ?? '', url: null };
    const value = highest(b.url) > 0 ? variables.buttons?.[dynamic++] : undefined;
    return { text: b.text ?? '', url: value ? b.url.replace(PLACEHOLDER, () => value) : b.url };
  });
}

/**
 * The template as the customer reads it (header, body, footer), variables filled; an unfilled
 * one stays {{n}}. A media header is its placeholder ('[imagem]', '[vídeo]', '[documento]').
 */
export function renderTemplate(components: readonly TemplateComponent[], variables: TemplateVariables): string {
  const fill = (text: string | undefined, values: readonly string[] = []) =>
    (text ?? '').replace(PLACEHOLDER, (whole, n: string) => values[Number(n) - 1] ?? whole);
  const header = componentOf(components, 'HEADER');
  const media = templateHeaderMediaFormat(components);
  const parts = [
    media
      ? TEMPLATE_HEADER_MEDIA_PLACEHOLDER[media]
      : header && headerFormatOf(components) === 'TEXT'
        ? fill(header.text, variables.header)
        : '',
    fill(componentOf(components, 'BODY')?.text, variables.body),
    componentOf(components, 'FOOTER')?.text ?? '',
  ];
  return parts.filter((p) => p.trim()).join('\n\n');
}

/** GET /whatsapp/{whatsappId}/templates item: a stored template of the channel. */
export interface StoredTemplateDto {
  /** Meta's template id. */
  id: string;
  name: string;
  language: string;
  status: string;
  category: string | null;
  /** Number of body variables ({{1}}, {{2}} ...). */
  bodyVariables: number;
  variables: { header: number; body: number; buttons: number; headerMedia: TemplateHeaderMediaFormat | null };
  components: TemplateComponent[];
  syncedAt: string;
}

/** POST /whatsapp/{whatsappId}/templates/sync answer. */
export interface TemplateSyncResult {
  templates: StoredTemplateDto[];
  counts: { total: number; created: number; updated: number; removed: number };
}

/** GET /tickets/{ticketId}/messaging-window answer. */
export interface MessagingWindowDto {
  channelType: string | null;
  /** Free-form messages are allowed (always true outside WABA). */
  windowOpen: boolean;
  /** When the customer's last message was (WABA only; null if never). */
  lastInboundAt: string | null;
  /** When the 24-hour window closes (WABA, open window only). */
  closesAt: string | null;
}
