import { Alert, Button, ButtonGroup, Menu, MenuItem, Popover, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useForceTicketMutation, useSpyTicketMutation, useUpdateTicketMutation, type Ticket, type TicketTransition } from '../../api/tickets.api';
import { showToast } from '../../app/feedback/toaster';
import { useAppSelector } from '../../app/store-hooks';
import { setContactPanelOpen, useContactPanelOpen } from './contact-panel/panel-visibility';
import { canShowAll } from './ticket-filters';
import { TransferDialog } from './transfer-dialog';

/**
 * Start, return to queue, resolve (with or without farewell), reopen, transfer (queue, user,
 * chatbot, channel), forced close and spy (spec section 4), and the contact panel switch.
 */
export function TicketActions({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const [update, { isLoading }] = useUpdateTicketMutation();
  const [force] = useForceTicketMutation();
  const [spy] = useSpyTicketMutation();
  const [transferOpen, setTransferOpen] = useState(false);
  const [forceOpen, setForceOpen] = useState(false);
  const [spying, setSpying] = useState(false);
  const me = useAppSelector((s) => s.session.userId);
  const profile = useAppSelector((s) => s.session.profile);
  const privileged = canShowAll(profile);
  const panelOpen = useContactPanelOpen();
  const act = (body: TicketTransition) => void transition(body);
  // The desktop offline (issue #15): the status change waits in the outbox, replayed when the
  // connection is back (a ticket changed meanwhile is a conflict, not a silent overwrite).
  const transition = async (body: TicketTransition) => {
    if (window.desktop && 'status' in body) {
      const { queueActionIfOffline, expectedOf } = await import('../../desktop-offline/offline-send');
      if (await queueActionIfOffline({ kind: 'ticketStatus', ticketId: ticket.id, ...body, expected: expectedOf(ticket) })) {
        showToast(t('connection.actionQueued'), 'warning');
        return;
      }
    }
    await update({ id: ticket.id, body });
  };
  const canSpy = privileged && ticket.userId !== null && ticket.userId !== me && ticket.status !== 'closed';
  const startSpy = async () => {
    const result = await spy(ticket.id);
    if ('data' in result) {
      setSpying(true);
      showToast(t('consolePanel.spy.started', { name: ticket.user?.name ?? '' }), 'primary');
    }
  };

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
      {spying && (
        <Tag intent="warning" icon="eye-open" minimal data-testid="ticket-spying">
          {t('consolePanel.spy.badge')}
        </Tag>
      )}
      <Popover
        placement="bottom-end"
        content={
          <Menu data-testid="ticket-more-menu">
            {ticket.status !== 'closed' && (
              <MenuItem icon="disable" intent="danger" text={t('consolePanel.actions.forceClose')} onClick={() => setForceOpen(true)} data-testid="ticket-force-close" />
            )}
            {canSpy && <MenuItem icon="eye-open" text={t('consolePanel.actions.spy')} onClick={() => void startSpy()} data-testid="ticket-spy" />}
            <MenuItem
              icon="id-number"
              text={panelOpen ? t('consolePanel.actions.hidePanel') : t('consolePanel.actions.showPanel')}
              onClick={() => setContactPanelOpen(!panelOpen)}
              data-testid="ticket-toggle-panel"
            />
          </Menu>
        }
      >
        <Button icon="more" aria-label={t('consolePanel.actions.more')} data-testid="ticket-more" />
      </Popover>
      {transferOpen && <TransferDialog ticket={ticket} onClose={() => setTransferOpen(false)} />}
      <Alert
        isOpen={forceOpen}
        intent="danger"
        icon="disable"
        cancelButtonText={t('common.cancel')}
        confirmButtonText={t('consolePanel.actions.forceClose')}
        onCancel={() => setForceOpen(false)}
        onConfirm={() => {
          setForceOpen(false);
          void force({ id: ticket.id, status: 'closed' });
        }}
      >
        <p data-testid="force-close-confirm">{t('consolePanel.actions.forceCloseConfirm')}</p>
      </Alert>
    </ButtonGroup>
  );
}

