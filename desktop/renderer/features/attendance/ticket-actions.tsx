import { Button, ButtonGroup, Callout, Dialog, DialogBody, DialogFooter, HTMLSelect } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/error-mapper';
import { useGetAttendanceQueuesQuery, useUpdateTicketMutation, type Ticket, type TicketTransition } from '../../api/tickets.api';

/** Start, return to queue, resolve (with or without farewell), reopen and transfer (spec section 4). */
export function TicketActions({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const [update, { isLoading }] = useUpdateTicketMutation();
  const [transferOpen, setTransferOpen] = useState(false);
  const act = (body: TicketTransition) => void update({ id: ticket.id, body });

  return (
    <ButtonGroup className="ticket-actions" variant="minimal">
      {ticket.status === 'pending' && (
        <Button icon="play" intent="primary" loading={isLoading} onClick={() => act({ status: 'open' })} data-testid="ticket-start">
          {t('attendance.actions.start')}
        </Button>
      )}
      {ticket.status === 'open' && (
        <>
          <Button icon="undo" onClick={() => act({ status: 'pending' })} data-testid="ticket-return">
            {t('attendance.actions.return')}
          </Button>
          <Button
            icon="tick-circle"
            intent="success"
            onClick={() => act({ status: 'closed', sendFarewellMessage: false, requestRating: false })}
            data-testid="ticket-resolve"
          >
            {t('attendance.actions.resolve')}
          </Button>
          <Button
            icon="hand"
            onClick={() => act({ status: 'closed', sendFarewellMessage: true, requestRating: false })}
            data-testid="ticket-resolve-farewell"
          >
            {t('attendance.actions.resolveFarewell')}
          </Button>
        </>
      )}
      {ticket.status === 'closed' && (
        <Button icon="refresh" onClick={() => act({ status: 'open' })} data-testid="ticket-reopen">
          {t('attendance.actions.reopen')}
        </Button>
      )}
      {ticket.status !== 'closed' && (
        <Button icon="swap-horizontal" onClick={() => setTransferOpen(true)} data-testid="ticket-transfer">
          {t('attendance.actions.transfer')}
        </Button>
      )}
      {transferOpen && <TransferDialog ticket={ticket} onClose={() => setTransferOpen(false)} />}
    </ButtonGroup>
  );
}

function TransferDialog({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  // Queues change elsewhere (CRM screens) without a socket patch here: read them fresh.
  const { data: queues } = useGetAttendanceQueuesQuery(undefined, { refetchOnMountOrArgChange: true });
  const [queueId, setQueueId] = useState<number | null>(ticket.queueId ?? queues?.[0]?.id ?? null);
  const [update, { isLoading }] = useUpdateTicketMutation();
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    if (!queueId) {
      setError(t('attendance.transfer.chooseQueue'));
      return;
    }
    const result = await update({ id: ticket.id, body: { isTransference: true, queueId } });
    // The section 5 refusals come back as the server's Portuguese texts.
    if ('error' in result) setError(describeError(result.error, t));
    else onClose();
  };
  return (
    <Dialog isOpen onClose={onClose} title={t('attendance.transfer.title')} data-testid="transfer-dialog">
      <DialogBody>
        <label className="bp6-label">
          {t('attendance.transfer.queue')}
          <HTMLSelect
            value={queueId ?? ''}
            onChange={(e) => setQueueId(Number(e.target.value) || null)}
            data-testid="transfer-queue"
            fill
          >
            <option value="">{t('attendance.transfer.chooseQueue')}</option>
            {(queues ?? []).map((q) => (
              <option key={q.id} value={q.id}>
                {q.name}
              </option>
            ))}
          </HTMLSelect>
        </label>
        {error && (
          <Callout intent="danger" compact data-testid="transfer-error">
            {error}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button intent="primary" loading={isLoading} onClick={() => void submit()} data-testid="transfer-submit">
              {t('attendance.transfer.submit')}
            </Button>
          </>
        }
      />
    </Dialog>
  );
}
