import { Button, Callout, HTMLSelect, InputGroup, Menu, MenuItem, Popover, Spinner, Tag, TextArea } from '@blueprintjs/core';
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RATING_LABELS, RATING_MAX, RATING_MIN } from '@shared/limits';
import {
  useGetContactQuery,
  useSetContactTagsMutation,
  useSetContactWalletsMutation,
  useUpdateContactMutation,
  type ContactWriteBody,
} from '../../../api/contacts.api';
import { describeError } from '../../../api/error-mapper';
import { useListKanbansQuery } from '../../../api/kanban.api';
import { useListTagsQuery } from '../../../api/tags.api';
import {
  useAddTicketNoteMutation,
  useDeleteTicketNoteMutation,
  useGetAttendanceUsersQuery,
  useGetTicketLogsQuery,
  useGetTicketNotesQuery,
  useGetTicketQuery,
  useRateTicketMutation,
  useUpdateTicketMutation,
  type Ticket,
} from '../../../api/tickets.api';
import { useAppSelector } from '../../../app/store-hooks';
import { birthdayToInput } from '../../contacts/birthday-entry';
import { formatContactNumber, formatTaxId } from '../../contacts/contact-display';
import { formatDay, formatTime } from '../message-display';
import { canShowAll } from '../ticket-filters';
import { INLINE_FIELDS, inlineFieldBody, type InlineField } from './contact-panel-logic';
import '../console-panel.css';

const dateTime = (iso: string) => `${formatDay(new Date(iso))} ${formatTime(new Date(iso))}`;

/**
 * The panel beside the chat (spec section 2): contact details edited inline, tags, wallet, the
 * ticket's kanban column, notes, evaluation, protocol and logs.
 */
export function ContactPanel({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const { data: ticket } = useGetTicketQuery(ticketId);
  const contactId = ticket?.contactId ?? 0;
  const { data: contact, isLoading, error } = useGetContactQuery(contactId, { skip: !contactId, refetchOnMountOrArgChange: true });
  if (!ticket) return null;
  return (
    <aside className="console-contact-panel" data-testid="contact-panel">
      <PanelSection title={t('consolePanel.panel.contact')} testId="panel-contact">
        {isLoading ? (
          <Spinner size={20} />
        ) : error || !contact ? (
          <Callout intent="danger" compact>
            {error ? describeError(error, t) : t('attendance.openError')}
          </Callout>
        ) : (
          <>
            <div className="console-contact-head">
              <span className="ticket-row-avatar" aria-hidden>
                {contact.name.slice(0, 1).toUpperCase()}
              </span>
              <div>
                <strong data-testid="panel-contact-name">{contact.name}</strong>
                <div className="bp6-text-muted">{formatContactNumber(contact.number)}</div>
              </div>
            </div>
            {INLINE_FIELDS.map((field) => (
              <InlineEdit key={field} contactId={contact.id} field={field} value={displayValue(field, contact[field])} raw={contact[field]} />
            ))}
          </>
        )}
      </PanelSection>
      {contact && (
        <PanelSection title={t('consolePanel.panel.tags')} testId="panel-tags">
          <ContactTags contactId={contact.id} tags={contact.tags} />
        </PanelSection>
      )}
      {contact && (
        <PanelSection title={t('consolePanel.panel.wallet')} testId="panel-wallet">
          <ContactWallet contactId={contact.id} wallets={contact.wallets} />
        </PanelSection>
      )}
      <PanelSection title={t('consolePanel.panel.ticket')} testId="panel-ticket">
        <dl className="console-facts">
          <dt>{t('consolePanel.panel.protocol')}</dt>
          <dd data-testid="panel-protocol">{ticket.protocol ?? ticket.id}</dd>
          <dt>{t('consolePanel.panel.status')}</dt>
          <dd>{t(`attendance.status.${ticket.status}`)}</dd>
          {ticket.startedAt && (
            <>
              <dt>{t('consolePanel.panel.startedAt')}</dt>
              <dd>{dateTime(ticket.startedAt)}</dd>
            </>
          )}
          {ticket.whatsapp && (
            <>
              <dt>{t('consolePanel.panel.channel')}</dt>
              <dd>{ticket.whatsapp.name}</dd>
            </>
          )}
        </dl>
        <TicketKanban ticket={ticket} />
      </PanelSection>
      <PanelSection title={t('consolePanel.panel.rating')} testId="panel-rating-section">
        <TicketRatingView ticket={ticket} />
      </PanelSection>
      <PanelSection title={t('consolePanel.panel.notes')} testId="panel-notes">
        <TicketNotes ticketId={ticket.id} />
      </PanelSection>
      <PanelSection title={t('consolePanel.panel.logs')} testId="panel-logs">
        <TicketLogs ticketId={ticket.id} />
      </PanelSection>
    </aside>
  );
}

function displayValue(field: InlineField, value: string | null): string {
  if (!value) return '';
  if (field === 'number') return formatContactNumber(value);
  if (field === 'cpfCnpj') return formatTaxId(value);
  if (field === 'birthday') return birthdayToInput(value);
  return value;
}

function PanelSection({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <section className="console-panel-section" data-testid={testId}>
      <h4 className="console-panel-title">{title}</h4>
      {children}
    </section>
  );
}

/** One contact field: click to edit, Enter or the tick saves only that field, Escape cancels. */
function InlineEdit({ contactId, field, value, raw }: { contactId: number; field: InlineField; value: string; raw: string | null }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const [update, { isLoading }] = useUpdateContactMutation();
  const save = async () => {
    const body: ContactWriteBody | null = inlineFieldBody(field, draft, raw);
    if (!body) {
      setEditing(false);
      return;
    }
    const result = await update({ id: contactId, body });
    if ('error' in result) {
      const data = (result.error as { data?: { fields?: { message?: string }[] } }).data;
      setError(data?.fields?.[0]?.message ?? describeError(result.error, t));
    } else {
      setError(null);
      setEditing(false);
    }
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter') void save();
    if (e.key === 'Escape') {
      setEditing(false);
      setError(null);
    }
  };
  return (
    <div className="console-inline-field" data-testid={`panel-field-${field}`}>
      <span className="console-inline-label">{t(`consolePanel.fields.${field}`)}</span>
      {editing ? (
        <>
          <InputGroup
            autoFocus
            size="small"
            value={draft}
            placeholder={field === 'birthday' ? 'dd/mm/aaaa' : undefined}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onKey}
            intent={error ? 'danger' : 'none'}
            data-testid={`panel-input-${field}`}
            rightElement={<Button size="small" variant="minimal" icon="tick" loading={isLoading} onClick={() => void save()} aria-label={t('consolePanel.save')} data-testid={`panel-save-${field}`} />}
          />
          {error && (
            <span className="console-field-error" data-testid={`panel-error-${field}`}>
              {error}
            </span>
          )}
        </>
      ) : (
        <button
          type="button"
          className="console-inline-value"
          onClick={() => {
            setDraft(value);
            setEditing(true);
          }}
          data-testid={`panel-value-${field}`}
          title={t('consolePanel.edit')}
        >
          {value || <span className="bp6-text-muted">{t('consolePanel.empty')}</span>}
        </button>
      )}
    </div>
  );
}

function ContactTags({ contactId, tags }: { contactId: number; tags: { id: number; name: string; color: string }[] }) {
  const { t } = useTranslation();
  const { data: all } = useListTagsQuery();
  const [setTags] = useSetContactTagsMutation();
  const ids = tags.map((tag) => tag.id);
  const available = (all ?? []).filter((tag) => !ids.includes(tag.id) && tag.active !== false);
  return (
    <div className="console-chips">
      {tags.map((tag) => (
        <Tag
          key={tag.id}
          round
          style={{ background: tag.color }}
          onRemove={() => void setTags({ id: contactId, tags: ids.filter((id) => id !== tag.id) })}
          data-testid="panel-tag"
        >
          {tag.name}
        </Tag>
      ))}
      <Popover
        content={
          <Menu>
            {available.map((tag) => (
              <MenuItem key={tag.id} text={tag.name} onClick={() => void setTags({ id: contactId, tags: [...ids, tag.id] })} data-testid="panel-tag-option" />
            ))}
            {available.length === 0 && <MenuItem disabled text={t('consolePanel.filters.none')} />}
          </Menu>
        }
      >
        <Button size="small" variant="minimal" icon="add" aria-label={t('consolePanel.panel.addTag')} data-testid="panel-tag-add" />
      </Popover>
    </div>
  );
}

function ContactWallet({ contactId, wallets }: { contactId: number; wallets: { id: number; name: string }[] }) {
  const { t } = useTranslation();
  const profile = useAppSelector((s) => s.session.profile);
  const me = useAppSelector((s) => s.session.userId);
  const myName = useAppSelector((s) => s.session.username);
  const editable = canShowAll(profile);
  const { data: others } = useGetAttendanceUsersQuery(undefined, { skip: !editable });
  const [setWallets] = useSetContactWalletsMutation();
  const ids = wallets.map((w) => w.id);
  const users = [...(me ? [{ id: me, name: myName ?? String(me) }] : []), ...(others ?? [])].filter((u) => !ids.includes(u.id));
  return (
    <div className="console-chips">
      {wallets.map((w) => (
        <Tag
          key={w.id}
          minimal
          icon="person"
          onRemove={editable ? () => void setWallets({ id: contactId, wallets: ids.filter((id) => id !== w.id) }) : undefined}
          data-testid="panel-wallet-user"
        >
          {w.name}
        </Tag>
      ))}
      {wallets.length === 0 && <span className="bp6-text-muted">{t('consolePanel.panel.noWallet')}</span>}
      {editable && (
        <Popover
          content={
            <Menu>
              {users.map((u) => (
                <MenuItem key={u.id} text={u.name} onClick={() => void setWallets({ id: contactId, wallets: [...ids, u.id] })} />
              ))}
            </Menu>
          }
        >
          <Button size="small" variant="minimal" icon="add" aria-label={t('consolePanel.panel.addWallet')} data-testid="panel-wallet-add" />
        </Popover>
      )}
    </div>
  );
}

function TicketKanban({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const { data: kanbans } = useListKanbansQuery();
  const [update] = useUpdateTicketMutation();
  return (
    <label className="bp6-label console-field">
      {t('consolePanel.panel.kanban')}
      <HTMLSelect
        value={ticket.kanbanId ?? ''}
        onChange={(e) => void update({ id: ticket.id, body: { kanbanId: Number(e.target.value) || null } })}
        fill
        data-testid="panel-kanban"
      >
        <option value="">{t('consolePanel.panel.noKanban')}</option>
        {(kanbans ?? []).map((k) => (
          <option key={k.id} value={k.id}>
            {k.name}
          </option>
        ))}
      </HTMLSelect>
    </label>
  );
}

function TicketRatingView({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const [rate, { isLoading }] = useRateTicketMutation();
  const scale = Array.from({ length: RATING_MAX - RATING_MIN + 1 }, (_, i) => RATING_MIN + i);
  return (
    <div data-testid="panel-rating">
      {ticket.rating ? (
        <div className="console-rating" data-testid="panel-rating-value" data-rating={ticket.rating.rating}>
          <strong>
            {ticket.rating.rating} · {ticket.rating.label}
          </strong>
          <span className="bp6-text-muted"> {dateTime(ticket.rating.createdAt)}</span>
        </div>
      ) : (
        <span className="bp6-text-muted" data-testid="panel-rating-none">
          {ticket.ratingRequestedAt ? t('consolePanel.rating.requested') : t('consolePanel.rating.none')}
        </span>
      )}
      <div className="console-rating-scale">
        {scale.map((value) => (
          <Button
            key={value}
            size="small"
            loading={isLoading}
            active={ticket.rating?.rating === value}
            title={t(`consolePanel.rating.labels.${value}`, { defaultValue: RATING_LABELS[value] })}
            onClick={() => void rate({ ticketId: ticket.id, rating: value })}
            data-testid={`rating-option-${value}`}
          >
            {value}
          </Button>
        ))}
      </div>
    </div>
  );
}

function TicketNotes({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const me = useAppSelector((s) => s.session.userId);
  const profile = useAppSelector((s) => s.session.profile);
  const { data: notes, isLoading } = useGetTicketNotesQuery(ticketId, { refetchOnMountOrArgChange: true });
  const [add, { isLoading: adding }] = useAddTicketNoteMutation();
  const [remove] = useDeleteTicketNoteMutation();
  const [text, setText] = useState('');
  const submit = async () => {
    const note = text.trim();
    if (!note) return;
    const result = await add({ ticketId, note });
    if (!('error' in result)) setText('');
  };
  return (
    <div className="console-notes">
      {isLoading && <Spinner size={16} />}
      {(notes ?? []).map((note) => (
        <div key={note.id} className="console-note" data-testid="note-item">
          <div className="console-note-text">{note.note}</div>
          <div className="bp6-text-muted console-note-meta">
            {note.user?.name ?? t('consolePanel.panel.removedUser')} · {dateTime(note.createdAt)}
            {(note.userId === me || canShowAll(profile)) && (
              <Button
                size="small"
                variant="minimal"
                icon="trash"
                aria-label={t('consolePanel.panel.deleteNote')}
                onClick={() => void remove({ ticketId, noteId: note.id })}
                data-testid="note-delete"
              />
            )}
          </div>
        </div>
      ))}
      {notes?.length === 0 && <span className="bp6-text-muted">{t('consolePanel.panel.noNotes')}</span>}
      <TextArea
        fill
        value={text}
        maxLength={4000}
        placeholder={t('consolePanel.panel.notePlaceholder')}
        onChange={(e) => setText(e.target.value)}
        data-testid="note-input"
      />
      <Button size="small" icon="add" loading={adding} disabled={!text.trim()} onClick={() => void submit()} data-testid="note-add">
        {t('consolePanel.panel.addNote')}
      </Button>
    </div>
  );
}

function TicketLogs({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  const { data: logs, isLoading } = useGetTicketLogsQuery(ticketId, { refetchOnMountOrArgChange: true });
  return (
    <ol className="console-logs">
      {isLoading && <Spinner size={16} />}
      {(logs ?? []).map((log) => (
        <li key={log.id} data-testid="log-item" data-log-type={log.type}>
          <strong>{t(`consolePanel.logs.${log.type}`, { defaultValue: log.type })}</strong>
          <span className="bp6-text-muted">
            {' '}
            {log.user?.name ? `${log.user.name} · ` : ''}
            {dateTime(log.createdAt)}
          </span>
        </li>
      ))}
    </ol>
  );
}
