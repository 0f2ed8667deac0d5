import { describe, expect, it } from 'vitest';
import {
  BulkSendSchema,
  bulkTemplateLineVariables,
  fillLineVariables,
  highestLineVariable,
  isAudioUrlAccepted,
  parseBulkDestinations,
} from './bulk-sends';
import { normalizeTemplateVariables } from './campaigns';

describe('bulk send destinations and rules (spec section 5)', () => {
  it('reads number,var1,var2 lines, reporting bad ones with their line and reason', () => {
    const parsed = parseBulkDestinations('5511987650001,Ana,#1\n\nxyz,a\n5511987650002\n+55 11 98765-0001,B,#2\n5511987650003,C', {
      withVariables: true,
      variablesNeeded: 2,
    });
    expect(parsed.destinations).toEqual([{ line: 1, number: '5511987650001', variables: ['Ana', '#1'] }]);
    expect(parsed.invalid.map((l) => [l.line, l.reason])).toEqual([
      [3, 'número inválido'],
      [4, 'a linha deve ter o formato numero,var1,var2'],
      [5, 'número repetido (linha 1)'],
      [6, 'faltam variáveis: a mensagem usa {{2}} e a linha tem 1'],
    ]);
    expect(highestLineVariable('Oi {{1}}, {{3}} e {{name}}')).toBe(3);
    expect(fillLineVariables('Oi {{1}}, {{ 2 }} {{3}} {{name}}', ['Ana', 'X'])).toBe('Oi Ana, X {{3}} {{name}}');
  });

  it('audio must be .ogg; max seconds greater than min', () => {
    expect(isAudioUrlAccepted('https://x.example/a.ogg')).toBe(true);
    expect(isAudioUrlAccepted('https://x.example/a.mp3')).toBe(false);
    expect(isAudioUrlAccepted('https://x.example/a', 'audio')).toBe(false);
    expect(isAudioUrlAccepted('https://x.example/a.pdf')).toBe(true);
    const base = { kind: 'texto', channelId: 1, destinations: '5511987650001', message: 'Oi' };
    expect(BulkSendSchema.safeParse({ ...base, minDelay: 3, maxDelay: 4 }).success).toBe(true);
    const same = BulkSendSchema.safeParse({ ...base, minDelay: 4, maxDelay: 4 });
    expect(same.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['maxDelay', 'O tempo máximo deve ser maior que o mínimo']]);
  });
});

describe('template variables of bulk sends and campaigns', () => {
  const parse = (templateVariables: unknown) =>
    BulkSendSchema.safeParse({ kind: 'template', channelId: 1, destinations: '5511987650001', templateName: 'x', templateLanguage: 'pt_BR', templateVariables });
  it('takes {header, body, buttons}, the older body-only list and either as JSON text (multipart); missing is none', () => {
    const parts = { header: ['H'], body: ['a', 'b'], buttons: ['R'] };
    expect(parse(parts).data?.templateVariables).toEqual(parts);
    expect(parse(['a', 'b']).data?.templateVariables).toEqual({ header: [], body: ['a', 'b'], buttons: [] });
    expect(parse(JSON.stringify(parts)).data?.templateVariables).toEqual(parts);
    expect(parse('["a"]').data?.templateVariables).toEqual({ header: [], body: ['a'], buttons: [] });
    expect(parse(undefined).data?.templateVariables).toEqual({ header: [], body: [], buttons: [] });
    expect(parse('').data?.templateVariables).toEqual({ header: [], body: [], buttons: [] });
    const refused = (v: unknown) => parse(v).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(refused({ buttons: [' '] })).toEqual(['templateVariables.buttons.0: é obrigatório']);
    // A media header's link: https only, kept as sent (multipart JSON text too).
    const media = { body: ['a'], headerMedia: { link: 'https://cdn.example/oferta.png' } };
    expect(parse(JSON.stringify(media)).data?.templateVariables).toEqual({ header: [], buttons: [], ...media });
    expect(refused({ headerMedia: { link: 'http://cdn.example/oferta.png' } })).toEqual([
      'templateVariables.headerMedia.link: deve ser um link https:// válido',
    ]);
    expect(refused('not json')).toEqual([
      'templateVariables: deve ser {header, body, buttons, headerMedia} (listas de textos e o link da mídia) ou uma lista de textos',
    ]);
  });

  it('reads stored variables in either form; a template-variavel line needs the body\'s values or the highest {{n}} of header and buttons', () => {
    expect(normalizeTemplateVariables(['a'])).toEqual({ header: [], body: ['a'], buttons: [] });
    expect(normalizeTemplateVariables({ header: ['h'], body: ['b'] })).toEqual({ header: ['h'], body: ['b'], buttons: [] });
    expect(normalizeTemplateVariables(null)).toEqual({ header: [], body: [], buttons: [] });
    expect(normalizeTemplateVariables({ body: [], headerMedia: { link: 'https://x.example/b.pdf', filename: 'b.pdf' } })).toEqual(
      {
        header: [],
        body: [],
        buttons: [],
        headerMedia: { link: 'https://x.example/b.pdf', filename: 'b.pdf' },
      },
    );
    expect(bulkTemplateLineVariables(2, { header: ['Loja'], buttons: ['{{3}}'] })).toBe(3);
    expect(bulkTemplateLineVariables(2, { header: ['{{1}}'] })).toBe(2);
    expect(bulkTemplateLineVariables(0, {})).toBe(0);
  });
});
