import { MESSAGE_VARIABLES } from '@shared/message-variables';
import { describe, expect, it } from 'vitest';
import { buildResources } from '../../i18n/i18n';
import { quickMessageRequestBody } from '../../api/quick-messages.api';
import { formatFileSize, insertAtCursor, validateQuickMessage, type QuickMessageDraft } from './quick-message-form.logic';

const draft = (change: Partial<QuickMessageDraft>): QuickMessageDraft => ({
  key: 'oi',
  message: 'Olá!',
  sendAsVoice: false,
  file: null,
  keptMediaType: null,
  ...change,
});

describe('validateQuickMessage', () => {
  it('accepts a key with text', () => {
    expect(validateQuickMessage(draft({}))).toEqual({});
  });

  it('checks the key as the shared schema does', () => {
    expect(validateQuickMessage(draft({ key: '  ' }))).toEqual({ key: 'required' });
    expect(validateQuickMessage(draft({ key: 'bom dia' }))).toEqual({ key: 'keyPattern' });
    expect(validateQuickMessage(draft({ key: '/oi' }))).toEqual({ key: 'keyPattern' });
    expect(validateQuickMessage(draft({ key: 'k'.repeat(51) }))).toEqual({ key: 'keyTooLong' });
  });

  it('needs a message or a file (new or kept)', () => {
    expect(validateQuickMessage(draft({ message: ' ' }))).toEqual({ message: 'messageOrFile' });
    expect(validateQuickMessage(draft({ message: '', file: { size: 10, type: 'image/png' } }))).toEqual({});
    expect(validateQuickMessage(draft({ message: '', keptMediaType: 'application/pdf' }))).toEqual({});
    expect(validateQuickMessage(draft({ message: 'x'.repeat(4097) }))).toEqual({ message: 'messageTooLong' });
  });

  it('limits the file to 16 MB and a voice note to audio', () => {
    expect(validateQuickMessage(draft({ file: { size: 16 * 1024 * 1024 + 1, type: 'video/mp4' } }))).toEqual({
      file: 'fileTooLarge',
    });
    expect(validateQuickMessage(draft({ sendAsVoice: true }))).toEqual({ sendAsVoice: 'voiceNeedsAudio' });
    expect(validateQuickMessage(draft({ sendAsVoice: true, file: { size: 10, type: 'image/png' } }))).toEqual({
      sendAsVoice: 'voiceNeedsAudio',
    });
    expect(validateQuickMessage(draft({ sendAsVoice: true, file: { size: 10, type: 'audio/ogg' } }))).toEqual({});
    expect(validateQuickMessage(draft({ sendAsVoice: true, keptMediaType: 'audio/mpeg' }))).toEqual({});
  });
});

describe('insertAtCursor', () => {
  it('types the token at the cursor and puts the cursor after it', () => {
    expect(insertAtCursor('Olá , tudo bem?', 4, 4, '{{name}}')).toEqual({ text: 'Olá {{name}}, tudo bem?', cursor: 12 });
  });

  it('replaces a selection, and clamps a cursor past the end', () => {
    expect(insertAtCursor('Olá FULANO', 4, 10, '{{firstName}}')).toEqual({ text: 'Olá {{firstName}}', cursor: 17 });
    expect(insertAtCursor('Oi', 99, 99, '!')).toEqual({ text: 'Oi!', cursor: 3 });
  });
});

describe('formatFileSize', () => {
  it('reads like people write sizes', () => {
    expect(formatFileSize(512, 'pt-BR')).toBe('512 B');
    expect(formatFileSize(16 * 1024 * 1024, 'pt-BR')).toBe('16 MB');
    expect(formatFileSize(3.4 * 1024 * 1024, 'pt-BR')).toBe('3,4 MB');
  });
});

describe('quickMessageRequestBody', () => {
  it('sends JSON without a file and drops an unset removeMedia', () => {
    expect(
      quickMessageRequestBody({ key: 'oi', message: 'Olá', sendAsVoice: false, active: true, file: null, removeMedia: false }),
    ).toEqual({
      key: 'oi',
      message: 'Olá',
      sendAsVoice: false,
      active: true,
    });
  });

  it('sends multipart with the file in `medias` when a file goes along', () => {
    const file = new File(['%PDF'], 'precos.pdf', { type: 'application/pdf' });
    const body = quickMessageRequestBody({ key: 'oi', message: '', sendAsVoice: false, active: true, file });
    expect(body).toBeInstanceOf(FormData);
    const form = body as FormData;
    expect(form.get('key')).toBe('oi');
    expect(form.get('active')).toBe('true');
    expect((form.get('medias') as File).name).toBe('precos.pdf');
  });
});

describe('message variables help', () => {
  it('explains every variable of shared/message-variables in pt-br and en-us', async () => {
    const resources = await buildResources();
    for (const locale of ['pt-br', 'en-us']) {
      const tree = resources[locale].translation as { quickMessages: { variables: Record<string, string> } };
      for (const variable of MESSAGE_VARIABLES)
        expect(tree.quickMessages.variables[variable], `${locale} ${variable}`).toBeTruthy();
    }
  });
});
