import { Button, Callout, Dialog, DialogBody, DialogFooter, HTMLSelect, InputGroup, Menu, MenuItem } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { CONTACT_SEARCH_MIN_CHARS } from '@shared/limits';
import { useListContactsQuery, type ContactDto } from '../../api/contacts.api';
import { describeError } from '../../api/error-mapper';
import {
  useCreateTicketMutation,
  useGetAttendanceChannelsQuery,
  useGetAttendanceQueuesQuery,
  type CreateTicketBody,
} from '../../api/tickets.api';
import { useAppSelector } from '../../app/store-hooks';
import { otherOpenTicketOf, serverMessageOf } from './console-errors';

/**
 * New ticket (POST /tickets, spec section 5 "a contact with an open or pending ticket cannot get
 * another"): on 409 ERR_OTHER_OPEN_TICKET the agent may open the existing ticket, and an
 * administrator may take it over (`assignExisting: true`).
 */
export function NewTicketDialog({ onClose, initialContact }: { onClose: () => void; initialContact?: Pick<ContactDto, 'id' | 'name' | 'number'> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const profile = useAppSelector((s) => s.session.profile);
  const isAdmin = profile === 'admin' || profile === 'superadmin';
  const [text, setText] = useState('');
  const [term, setTerm] = useState('');
  useEffect(() => {
    const id = setTimeout(() => setTerm(text.trim()), 300);
    return () => clearTimeout(id);
  }, [text]);
  const [contact, setContact] = useState<Pick<ContactDto, 'id' | 'name' | 'number'> | null>(initialContact ?? null);
  const { data: found, isFetching } = useListContactsQuery(
    { searchParam: term, pageNumber: 1, pageSize: 10 },
    { skip: term.length < CONTACT_SEARCH_MIN_CHARS },
  );
  const { data: channels } = useGetAttendanceChannelsQuery();
  const { data: queues } = useGetAttendanceQueuesQuery();
  const [whatsappId, setWhatsappId] = useState<number | null>(null);
  const [queueId, setQueueId] = useState<number | null>(null);
  const [create, { isLoading }] = useCreateTicketMutation();
  const [error, setError] = useState<string | null>(null);
  const [existing, setExisting] = useState<{ ticketId: number; userId: number | null } | null>(null);

  const openTicket = (id: number) => {
    onClose();
    navigate(`/atendimento/${id}`);
  };
  const submit = async (assignExisting = false) => {
    if (!contact) {
      setError(t('consolePanel.newTicket.chooseContact'));
      return;
    }
    setError(null);
    const body: CreateTicketBody = {
      contactId: contact.id,
      ...(whatsappId ? { whatsappId } : {}),
      ...(queueId ? { queueId } : {}),
      ...(assignExisting ? { assignExisting: true } : {}),
    };
    const result = await create(body);
    if ('data' in result && result.data) {
      openTicket(result.data.id);
      return;
    }
    const failure = 'error' in result ? result.error : null;
    const other = otherOpenTicketOf(failure);
    if (other) setExisting(other);
    setError(serverMessageOf(failure) ?? describeError(failure, t));
  };

  return (
    <Dialog isOpen onClose={onClose} title={t('consolePanel.newTicket.title')} data-testid="new-ticket-dialog">
      <DialogBody>
        {contact ? (
          <Callout compact icon="person" data-testid="new-ticket-contact">
            <strong>{contact.name}</strong> · {contact.number}{' '}
            <Button
              size="small"
              variant="minimal"
              onClick={() => {
                setContact(null);
                setExisting(null);
                setError(null);
              }}
            >
              {t('consolePanel.newTicket.change')}
            </Button>
          </Callout>
        ) : (
          <>
            <InputGroup
              autoFocus
              leftIcon="search"
              placeholder={t('consolePanel.newTicket.searchContact')}
              value={text}
              onChange={(e) => setText(e.target.value)}
              data-testid="new-ticket-contact-search"
            />
            {term.length >= CONTACT_SEARCH_MIN_CHARS && (
              <Menu className="console-search-results">
                {(found?.contacts ?? []).map((c) => (
                  <MenuItem
                    key={c.id}
                    icon="person"
                    text={c.name}
                    label={c.number ?? ''}
                    onClick={() => setContact({ id: c.id, name: c.name, number: c.number ?? '' })}
                    data-testid="new-ticket-contact-option"
                  />
                ))}
                {!isFetching && (found?.contacts ?? []).length === 0 && <MenuItem disabled text={t('consolePanel.search.none')} />}
              </Menu>
            )}
          </>
        )}
        <label className="bp6-label console-field">
          {t('consolePanel.newTicket.channel')}
          <HTMLSelect value={whatsappId ?? ''} onChange={(e) => setWhatsappId(Number(e.target.value) || null)} fill data-testid="new-ticket-channel">
            <option value="">{t('consolePanel.newTicket.defaultChannel')}</option>
            {(channels ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </HTMLSelect>
        </label>
        <label className="bp6-label console-field">
          {t('consolePanel.newTicket.queue')}
          <HTMLSelect value={queueId ?? ''} onChange={(e) => setQueueId(Number(e.target.value) || null)} fill data-testid="new-ticket-queue">
            <option value="">{t('consolePanel.newTicket.noQueue')}</option>
            {(queues ?? []).map((q) => (
              <option key={q.id} value={q.id}>
                {q.name}
              </option>
            ))}
          </HTMLSelect>
        </label>
        {error && (
          <Callout intent={existing ? 'warning' : 'danger'} compact data-testid="new-ticket-error">
            {error}
            {existing && (
              <div className="console-callout-actions">
                <Button size="small" icon="document-open" onClick={() => openTicket(existing.ticketId)} data-testid="new-ticket-open-existing">
                  {t('consolePanel.newTicket.openExisting', { id: existing.ticketId })}
                </Button>
                {isAdmin && (
                  <Button size="small" intent="warning" icon="hand-right" onClick={() => void submit(true)} data-testid="new-ticket-assign-existing">
                    {t('consolePanel.newTicket.assignExisting')}
                  </Button>
                )}
              </div>
            )}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button intent="primary" loading={isLoading} disabled={!contact} onClick={() => void submit()} data-testid="new-ticket-submit">
              {t('consolePanel.newTicket.submit')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
