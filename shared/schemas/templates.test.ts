import { describe, expect, it } from 'vitest';
import {
  renderTemplate,
  renderTemplateButtons,
  SendTemplateSchema,
  sizeTemplateVariables,
  templatePlaceholders,
  templateVariableIssues,
  type TemplateComponent,
} from './templates';

const ORDER: TemplateComponent[] = [
  { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}' },
  { type: 'BODY', text: 'Olá {{1}}, seu pedido saiu em {{2}}. {{1}}, obrigado!' },
  { type: 'FOOTER', text: 'Loja' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'QUICK_REPLY', text: 'Sim' },
      { type: 'URL', text: 'Rastrear', url: 'https://x.example/{{1}}' },
    ],
  },
];

describe('template placeholders', () => {
  it('counts the header and body {{n}} (highest n) and the URL buttons with a variable (their index)', () => {
    expect(templatePlaceholders(ORDER)).toEqual({ header: 1, body: 2, buttons: [1], headerMedia: null });
    expect(templatePlaceholders([{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Oi' }])).toEqual({
      header: 0,
      body: 0,
      buttons: [],
      headerMedia: 'IMAGE',
    });
    expect(templatePlaceholders([{ type: 'HEADER', format: 'video' }]).headerMedia).toBe('VIDEO');
    expect(templatePlaceholders([{ type: 'HEADER', format: 'DOCUMENT' }]).headerMedia).toBe('DOCUMENT');
    expect(templatePlaceholders([{ type: 'HEADER', format: 'LOCATION' }]).headerMedia).toBeNull();
  });

  it('names each missing variable and each part with too many', () => {
    expect(templateVariableIssues(ORDER, { header: ['#1'], body: ['Ana', 'SP'], buttons: ['abc'] })).toEqual([]);
    expect(templateVariableIssues(ORDER, { body: ['Ana'] }).map((i) => i.path)).toEqual([
      'variables.header.0',
      'variables.body.1',
      'variables.buttons.0',
    ]);
    expect(
      templateVariableIssues([{ type: 'BODY', text: 'Oi' }], { body: ['x'], buttons: ['y'] }).map((i) => i.path),
    ).toEqual(['variables.body', 'variables.buttons']);
  });

  it('a media header needs its link (named per format at variables.headerMedia); a text header refuses one', () => {
    const image: TemplateComponent[] = [
      { type: 'HEADER', format: 'IMAGE' },
      { type: 'BODY', text: 'Oi {{1}}' },
    ];
    expect(templateVariableIssues(image, { body: ['Ana'], headerMedia: { link: 'https://cdn.example/a.png' } })).toEqual([]);
    expect(templateVariableIssues(image, { body: ['Ana'] })).toEqual([
      { path: 'variables.headerMedia', message: 'o modelo tem uma imagem no cabeçalho: informe o link https:// da imagem' },
    ]);
    expect(templateVariableIssues([{ type: 'HEADER', format: 'DOCUMENT' }], { headerMedia: { link: '' } })).toEqual([
      { path: 'variables.headerMedia', message: 'o modelo tem um documento no cabeçalho: informe o link https:// do documento' },
    ]);
    expect(templateVariableIssues([{ type: 'HEADER', format: 'VIDEO' }], {})[0].message).toBe(
      'o modelo tem um vídeo no cabeçalho: informe o link https:// do vídeo',
    );
    expect(
      templateVariableIssues(ORDER, {
        header: ['#1'],
        body: ['Ana', 'SP'],
        buttons: ['abc'],
        headerMedia: { link: 'https://x.example/a.png' },
      }),
    ).toEqual([
      { path: 'variables.headerMedia', message: 'o cabeçalho do modelo não é imagem, vídeo nem documento: não envie mídia' },
    ]);
  });

  it('the send schema takes a media header as an https link (a document may name its file)', () => {
    const parse = (headerMedia: unknown) =>
      SendTemplateSchema.safeParse({ name: 'a', language: 'pt_BR', variables: { headerMedia } });
    expect(parse({ link: ' https://cdn.example/boleto.pdf ', filename: 'boleto.pdf' }).data?.variables.headerMedia).toEqual({
      link: 'https://cdn.example/boleto.pdf',
      filename: 'boleto.pdf',
    });
    const refused = (headerMedia: unknown) => parse(headerMedia).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(refused({ link: 'http://cdn.example/a.png' })).toEqual([
      'variables.headerMedia.link: deve ser um link https:// válido',
    ]);
    expect(refused({ link: 'javascript:alert(1)' })).toEqual(['variables.headerMedia.link: deve ser um link https:// válido']);
    expect(refused({ link: '  ' })).toEqual(['variables.headerMedia.link: é obrigatório']);
    expect(refused({})).toEqual(['variables.headerMedia.link: é obrigatório']);
    expect(refused('https://cdn.example/a.png')).toEqual(['variables.headerMedia: deve ser {link, filename}']);
    expect(refused({ link: 'https://cdn.example/a.png', caption: 'x' })?.[0]).toMatch(/^variables\.headerMedia/);
  });

  it('renders header, body (every occurrence filled) and footer; an unfilled variable stays as {{n}}', () => {
    expect(renderTemplate(ORDER, { header: ['#1'], body: ['Ana', 'SP'] })).toBe('Pedido #1\n\nOlá Ana, seu pedido saiu em SP. Ana, obrigado!\n\nLoja');
    expect(renderTemplate(ORDER, { body: ['Ana'] })).toBe('Pedido {{1}}\n\nOlá Ana, seu pedido saiu em {{2}}. Ana, obrigado!\n\nLoja');
  });

  it('a media header previews as its placeholder, with or without the link', () => {
    const body = { type: 'BODY', text: 'Oi {{1}}' };
    expect(
      renderTemplate([{ type: 'HEADER', format: 'IMAGE' }, body], {
        body: ['Ana'],
        headerMedia: { link: 'https://x.example/a.png' },
      }),
    ).toBe('[imagem]\n\nOi Ana');
    expect(renderTemplate([{ type: 'HEADER', format: 'VIDEO' }, body], { body: ['Ana'] })).toBe('[vídeo]\n\nOi Ana');
    expect(renderTemplate([{ type: 'HEADER', format: 'DOCUMENT' }, body], {})).toBe('[documento]\n\nOi {{1}}');
  });

  it('the send schema trims, requires name and language and refuses unknown variable parts', () => {
    expect(SendTemplateSchema.parse({ name: ' a ', language: 'pt_BR' })).toEqual({ name: 'a', language: 'pt_BR', variables: {} });
    const bad = SendTemplateSchema.safeParse({ name: '', variables: { footer: [], body: [' '] } });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['name', 'language', 'variables', 'variables.body.0']));
  });

  it('fits a form\'s variables to a template (typed values kept by position) and previews the buttons with their links', () => {
    expect(sizeTemplateVariables(ORDER)).toEqual({ header: [''], body: ['', ''], buttons: [''] });
    expect(sizeTemplateVariables(ORDER, { header: ['#1', 'extra'], body: ['Ana'] })).toEqual({ header: ['#1'], body: ['Ana', ''], buttons: [''] });
    // A media header gets its link (and file name) input; another template drops it.
    const doc: TemplateComponent[] = [
      { type: 'HEADER', format: 'DOCUMENT' },
      { type: 'BODY', text: 'Oi' },
    ];
    expect(sizeTemplateVariables(doc)).toEqual({ header: [], body: [], buttons: [], headerMedia: { link: '', filename: '' } });
    expect(sizeTemplateVariables(doc, { headerMedia: { link: 'https://x.example/b.pdf' } }).headerMedia).toEqual({
      link: 'https://x.example/b.pdf',
      filename: '',
    });
    expect(sizeTemplateVariables(ORDER, { headerMedia: { link: 'https://x.example/b.pdf' } })).not.toHaveProperty('headerMedia');
    expect(
      sizeTemplateVariables([{ type: 'HEADER', format: 'IMAGE' }], {
        headerMedia: { link: 'https://x.example/a.png', filename: 'a' },
      }),
    ).toEqual({
      header: [],
      body: [],
      buttons: [],
      headerMedia: { link: 'https://x.example/a.png' },
    });
    expect(renderTemplateButtons(ORDER, { buttons: ['R-1'] })).toEqual([
      { text: 'Sim', url: null },
      { text: 'Rastrear', url: 'https://x.example/R-1' },
    ]);
    // Unfilled: the link keeps its {{1}}; a value with $ patterns is taken literally.
    expect(renderTemplateButtons(ORDER, {})[1].url).toBe('https://x.example/{{1}}');
    expect(renderTemplateButtons(ORDER, { buttons: ['$&'] })[1].url).toBe('https://x.example/$&');
  });
});
