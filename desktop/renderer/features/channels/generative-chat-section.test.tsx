import { GENERATIVE_CHAT_REQUIRED_MESSAGE, GenerativeChatSchema, type ChannelDto, type GenerativeChatInput } from '@shared/schemas/channels';
import type { i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { createFormControl } from 'react-hook-form';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../i18n/i18n';
import { zodFormOptions } from '../../app/forms/use-zod-form';
import {
  generativeChatBody,
  generativeChatErrors,
  initialGenerativeChatValues,
  type GenerativeChatValues,
} from './channel-form.logic';
import { GenerativeChatSection } from './generative-chat-section';

/**
 * The "Chat generativo (IA)" section of the channel edit dialog (issue #14): react-hook-form's
 * real engine with the shared schema the server validates with, the section rendered to markup,
 * and the PUT body it adds.
 */

let i18n: I18n;
beforeAll(async () => {
  i18n = await createI18n('pt-br', [initReactI18next]);
});
const render = (element: ReactElement) => renderToStaticMarkup(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>);
const textOf = (html: string, testId: string) => new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html)?.[1] ?? null;

const channel = (generativeChat: ChannelDto['generativeChat']): ChannelDto =>
  ({ id: 7, name: 'Atendimento', type: 'waba', generativeChat }) as ChannelDto;

const formOf = (values: GenerativeChatValues) =>
  createFormControl<GenerativeChatValues, unknown, GenerativeChatInput>(
    zodFormOptions<GenerativeChatValues, GenerativeChatInput>(GenerativeChatSchema, values),
  );

async function submit(form: ReturnType<typeof formOf>) {
  const valid = vi.fn();
  const invalid = vi.fn();
  await form.handleSubmit(valid, invalid)();
  return { valid, invalid, parsed: valid.mock.calls[0]?.[0] as GenerativeChatInput | undefined };
}

describe('generative chat section', () => {
  it('starts from the stored settings with the key field empty (the server never sends it)', () => {
    expect(initialGenerativeChatValues(channel(null))).toEqual({ enabled: false, baseUrl: '', model: '', apiKey: '', clearApiKey: false });
    expect(initialGenerativeChatValues(channel({ enabled: true, baseUrl: 'https://ai.example.com/v1', model: 'gpt', hasApiKey: true }))).toEqual({
      enabled: true,
      baseUrl: 'https://ai.example.com/v1',
      model: 'gpt',
      apiKey: '',
      clearApiKey: false,
    });
  });

  it('refuses an enabled section without URL and model, and a non-http URL, with the schema’s messages under the fields', async () => {
    const ch = channel(null);
    const form = formOf({ ...initialGenerativeChatValues(ch), enabled: true });
    const { valid } = await submit(form);
    expect(valid).not.toHaveBeenCalled();
    expect(form.getFieldState('baseUrl').error?.message).toBe(GENERATIVE_CHAT_REQUIRED_MESSAGE);
    expect(form.getFieldState('model').error?.message).toBe(GENERATIVE_CHAT_REQUIRED_MESSAGE);
    const html = render(<GenerativeChatSection form={form} channel={ch} />);
    expect(textOf(html, 'channel-generative-model-error')).toBe('Modelo é obrigatório quando o chat generativo está ativo');
    expect(html).toContain('Chat generativo (IA)');

    const ftp = formOf({ ...initialGenerativeChatValues(ch), enabled: true, baseUrl: 'ftp://ai.example.com', model: 'gpt' });
    await submit(ftp);
    expect(ftp.getFieldState('baseUrl').error?.message).toBe('deve ser um endereço http(s)');
  });

  it('adds to the PUT only what changed; the key only when typed; an empty key keeps the stored one', async () => {
    const stored = channel({ enabled: true, baseUrl: 'https://ai.example.com/v1', model: 'gpt', hasApiKey: true });
    const untouched = await submit(formOf(initialGenerativeChatValues(stored)));
    expect(generativeChatBody(stored, untouched.parsed!)).toBeUndefined();

    const newModel = await submit(formOf({ ...initialGenerativeChatValues(stored), model: ' gpt-4o ', baseUrl: 'https://ai.example.com/v1/' }));
    expect(generativeChatBody(stored, newModel.parsed!)).toEqual({ enabled: true, baseUrl: 'https://ai.example.com/v1', model: 'gpt-4o' });

    const newKey = await submit(formOf({ ...initialGenerativeChatValues(stored), apiKey: ' sk-new ' }));
    expect(generativeChatBody(stored, newKey.parsed!)).toEqual({ enabled: true, baseUrl: 'https://ai.example.com/v1', model: 'gpt', apiKey: 'sk-new' });

    const cleared = await submit(formOf({ ...initialGenerativeChatValues(stored), clearApiKey: true }));
    expect(generativeChatBody(stored, cleared.parsed!)).toEqual({ enabled: true, baseUrl: 'https://ai.example.com/v1', model: 'gpt', clearApiKey: true });

    // Nothing stored and left off: nothing to send.
    const none = channel(null);
    expect(generativeChatBody(none, (await submit(formOf(initialGenerativeChatValues(none)))).parsed!)).toBeUndefined();
    const off = await submit(formOf({ ...initialGenerativeChatValues(stored), enabled: false }));
    expect(generativeChatBody(stored, off.parsed!)).toEqual({ enabled: false, baseUrl: 'https://ai.example.com/v1', model: 'gpt' });
  });

  it('says a key is stored without showing it, offers to remove it, and warns once removal is chosen', () => {
    const stored = channel({ enabled: true, baseUrl: 'https://ai.example.com/v1', model: 'gpt', hasApiKey: true });
    const html = render(<GenerativeChatSection form={formOf(initialGenerativeChatValues(stored))} channel={stored} />);
    expect(html).toMatch(/type="password"[^>]*data-testid="channel-generative-api-key"|data-testid="channel-generative-api-key"[^>]*type="password"/);
    expect(html).toContain('data-testid="channel-generative-clear-key"');
    expect(html).toContain('deixe em branco para manter');
    const clearing = render(
      <GenerativeChatSection form={formOf({ ...initialGenerativeChatValues(stored), clearApiKey: true })} channel={stored} />,
    );
    expect(clearing).toContain('data-testid="channel-generative-undo-clear"');
    expect(clearing).toContain('A chave armazenada será removida ao salvar.');
    const without = render(<GenerativeChatSection form={formOf(initialGenerativeChatValues(channel(null)))} channel={channel(null)} />);
    expect(without).not.toContain('channel-generative-clear-key');
  });

  it('puts the server’s field messages on the section’s fields', () => {
    expect(generativeChatErrors({ 'generativeChat.model': 'é obrigatório', name: 'x', 'generativeChat.baseUrl': 'url' })).toEqual({
      model: 'é obrigatório',
      baseUrl: 'url',
    });
  });
});
