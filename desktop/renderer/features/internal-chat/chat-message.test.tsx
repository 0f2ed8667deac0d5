import type { i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { createI18n } from '../../i18n/i18n';
import { ChatMessageRow, isImage, receiptOf, type ChatMessageActions } from './chat-message';
import { VIEWER, chatMessage } from './chat-test-data';
import { typingText } from './conversation-view';

let i18n: I18n;
beforeAll(async () => {
  i18n = await createI18n('pt-br', [initReactI18next]);
});
const render = (element: ReactElement) =>
  renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter>{element}</MemoryRouter>
    </I18nextProvider>,
  );
const noop: ChatMessageActions = {
  onReply: () => undefined,
  onEdit: () => undefined,
  onDelete: () => undefined,
  onJump: () => undefined,
};

describe('a chat message', () => {
  it('gives the viewer\u2019s messages their receipt: ✓ sent, ✓✓ read (one-to-one), read by N (room); none for others or deleted', () => {
    expect(receiptOf(chatMessage(1), VIEWER)).toEqual({ kind: 'sent' });
    expect(receiptOf(chatMessage(1, { read: true, readCount: 1 }), VIEWER)).toEqual({ kind: 'read' });
    expect(receiptOf(chatMessage(1, { kind: 'team', toId: 7 }), VIEWER)).toEqual({ kind: 'sent' });
    expect(receiptOf(chatMessage(1, { kind: 'team', toId: 7, readCount: 3 }), VIEWER)).toEqual({ kind: 'readBy', count: 3 });
    expect(receiptOf(chatMessage(1, { fromUserId: 2 }), VIEWER)).toBeNull();
    expect(receiptOf(chatMessage(1, { deletedAt: 'x' }), VIEWER)).toBeNull();
  });

  it('shows the author in rooms, the edited mark, the quote, the ticket link and "lida por N"', () => {
    const html = render(
      <ChatMessageRow
        message={chatMessage(3, {
          kind: 'team',
          toId: 7,
          body: 'Veja o atendimento',
          editedAt: '2026-01-01T12:10:00Z',
          ticketId: 42,
          readCount: 2,
          replyTo: { id: 1, body: 'Qual cliente?', fromUserName: 'Ana', deleted: false },
        })}
        viewerId={VIEWER}
        showAuthor
        highlighted={false}
        actions={noop}
      />,
    );
    expect(html).toContain('Veja o atendimento');
    expect(html).toContain('data-testid="chat-message-edited">editada<');
    expect(html).toContain('Qual cliente?');
    expect(html).toContain('href="/atendimento/42"');
    expect(html).toContain('Atendimento #42');
    expect(html).toContain('lida por 2');
    // Own messages can be edited and deleted.
    expect(html).toContain('data-testid="chat-message-edit"');
    expect(html).toContain('data-testid="chat-message-delete"');
  });

  it('shows a deleted message as "Mensagem apagada" without its actions, and others\u2019 messages with their author', () => {
    const html = render(
      <ChatMessageRow
        message={chatMessage(4, {
          fromUserId: 2,
          fromUserName: 'Ana',
          kind: 'team',
          toId: 7,
          body: '',
          deletedAt: '2026-01-01T12:10:00Z',
        })}
        viewerId={VIEWER}
        showAuthor
        highlighted={false}
        actions={noop}
      />,
    );
    expect(html).toContain('Mensagem apagada');
    expect(html).toContain('data-testid="chat-message-author">Ana<');
    expect(html).not.toContain('chat-message-edit');
    expect(html).not.toContain('chat-message-reply');
    const theirs = render(
      <ChatMessageRow
        message={chatMessage(5, { fromUserId: 2 })}
        viewerId={VIEWER}
        showAuthor={false}
        highlighted={false}
        actions={noop}
      />,
    );
    expect(theirs).toContain('chat-message-reply');
    expect(theirs).not.toContain('chat-message-edit');
  });

  it('treats image files as previews and other files as downloads', () => {
    expect(isImage({ mimeType: 'image/png', mediaName: 'a' })).toBe(true);
    expect(isImage({ mimeType: null, mediaName: 'foto.JPG' })).toBe(true);
    expect(isImage({ mimeType: 'application/pdf', mediaName: 'a.pdf' })).toBe(false);
  });

  it('says who is typing', () => {
    const t = i18n.t.bind(i18n) as unknown as Parameters<typeof typingText>[1];
    expect(typingText([], t)).toBeNull();
    expect(typingText(['Ana'], t)).toBe('Ana está digitando...');
    expect(typingText(['Ana', 'Bruno', 'Caio'], t)).toBe('Ana, Bruno e Caio estão digitando...');
  });
});
