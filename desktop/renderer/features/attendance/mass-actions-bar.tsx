import { Button, Callout, Dialog, DialogBody, DialogFooter, HTMLSelect, ProgressBar } from '@blueprintjs/core';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../api/error-mapper';
import {
  useGetAttendanceUsersQuery,
  useMassTransferTicketsMutation,
  useResolveTicketQuietlyMutation,
  type Ticket,
} from '../../api/tickets.api';
import { useAppSelector } from '../../app/store-hooks';
import { groupByUser, runInBlocks, type MassProgress } from './mass-actions';

/**
 * Administrators' mass actions on the selected rows (spec sections 4, 6 and 9): resolve in blocks
 * of 10 with progress, and mass transfer (POST /tickets/mass-transfer, refused by the server when
 * the two users' queues differ).
 */
export function MassActionsBar({
  tickets,
  selected,
  onSelect,
  onDone,
}: {
  tickets: readonly Ticket[];
  selected: ReadonlySet<number>;
  onSelect: (next: Set<number>) => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'resolve' | 'transfer' | null>(null);
  const chosen = useMemo(() => tickets.filter((x) => selected.has(x.id)), [tickets, selected]);
  return (
    <div className="console-mass-bar" data-testid="mass-bar">
      <span data-testid="mass-selected">{t('consolePanel.mass.selected', { count: selected.size })}</span>
      <Button size="small" variant="minimal" onClick={() => onSelect(new Set(tickets.map((x) => x.id)))} data-testid="mass-select-all">
        {t('consolePanel.mass.selectAll')}
      </Button>
      <Button size="small" variant="minimal" onClick={() => onSelect(new Set())} disabled={!selected.size}>
        {t('consolePanel.mass.selectNone')}
      </Button>
      <Button size="small" intent="success" icon="tick-circle" disabled={!selected.size} onClick={() => setDialog('resolve')} data-testid="mass-resolve">
        {t('consolePanel.mass.resolve')}
      </Button>
      <Button size="small" icon="swap-horizontal" disabled={!selected.size} onClick={() => setDialog('transfer')} data-testid="mass-transfer">
        {t('consolePanel.mass.transfer')}
      </Button>
      {dialog === 'resolve' && (
        <MassResolveDialog
          tickets={chosen}
          onClose={(finished) => {
            setDialog(null);
            if (finished) onDone();
          }}
        />
      )}
      {dialog === 'transfer' && (
        <MassTransferDialog
          tickets={chosen}
          onClose={(finished) => {
            setDialog(null);
            if (finished) onDone();
          }}
        />
      )}
    </div>
  );
}

function MassResolveDialog({ tickets, onClose }: { tickets: readonly Ticket[]; onClose: (finished: boolean) => void }) {
  const { t } = useTranslation();
  const [resolve] = useResolveTicketQuietlyMutation();
  const [progress, setProgress] = useState<MassProgress | null>(null);
  const [finished, setFinished] = useState(false);
  const closed = useRef(false);
  const ids = tickets.map((x) => x.id);
  const run = async () => {
    await runInBlocks(ids, (id) => resolve(id).unwrap(), setProgress, { shouldStop: () => closed.current });
    setFinished(true);
  };
  const close = () => {
    closed.current = true;
    onClose(finished);
  };
  return (
    <Dialog isOpen onClose={close} title={t('consolePanel.mass.resolveTitle')} data-testid="mass-resolve-dialog">
      <DialogBody>
        <p>{t('consolePanel.mass.resolveConfirm', { count: ids.length })}</p>
        {progress && (
          <div data-testid="mass-progress" data-done={progress.done} data-total={progress.total} data-failed={progress.failed}>
            <ProgressBar value={progress.ratio} intent={progress.failed ? 'warning' : 'success'} stripes={!finished} animate={!finished} />
            <p className="bp6-text-muted">
              {t('consolePanel.mass.progress', { done: progress.done, total: progress.total })}
              {progress.failed > 0 && ` · ${t('consolePanel.mass.failed', { count: progress.failed })}`}
            </p>
          </div>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          finished ? (
            <Button intent="primary" onClick={close} data-testid="mass-close">
              {t('consolePanel.close')}
            </Button>
          ) : (
            <>
              <Button onClick={close}>{t('common.cancel')}</Button>
              <Button intent="success" loading={progress !== null} onClick={() => void run()} data-testid="mass-resolve-submit">
                {t('consolePanel.mass.resolve')}
              </Button>
            </>
          )
        }
      />
    </Dialog>
  );
}

function MassTransferDialog({ tickets, onClose }: { tickets: readonly Ticket[]; onClose: (finished: boolean) => void }) {
  const { t } = useTranslation();
  const me = useAppSelector((s) => s.session.userId);
  const myName = useAppSelector((s) => s.session.username);
  const { data: others } = useGetAttendanceUsersQuery(undefined, { refetchOnMountOrArgChange: true });
  const users = [...(me ? [{ id: me, name: myName ?? String(me) }] : []), ...(others ?? [])];
  const groups = useMemo(() => groupByUser(tickets), [tickets]);
  const owners = [...groups.keys()];
  const [fromUserId, setFrom] = useState<number | null>(owners[0] ?? null);
  const [toUserId, setTo] = useState<number | null>(null);
  const [transfer, { isLoading }] = useMassTransferTicketsMutation();
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const nameOf = (id: number) => users.find((u) => u.id === id)?.name ?? `#${id}`;
  const submit = async () => {
    setError(null);
    if (!fromUserId || !toUserId) {
      setError(t('consolePanel.mass.chooseUsers'));
      return;
    }
    const ticketIds = groups.get(fromUserId);
    const answer = await transfer({ fromUserId, toUserId, ...(ticketIds?.length ? { ticketIds } : {}) });
    if ('error' in answer) setError(describeError(answer.error, t));
    else setResult(t('consolePanel.mass.transferred', { count: answer.data.count, skipped: answer.data.skipped.length }));
  };
  return (
    <Dialog isOpen onClose={() => onClose(result !== null)} title={t('consolePanel.mass.transferTitle')} data-testid="mass-transfer-dialog">
      <DialogBody>
        {owners.length === 0 && (
          <Callout intent="warning" compact>
            {t('consolePanel.mass.noOwner')}
          </Callout>
        )}
        <label className="bp6-label">
          {t('consolePanel.mass.fromUser')}
          <HTMLSelect value={fromUserId ?? ''} onChange={(e) => setFrom(Number(e.target.value) || null)} fill data-testid="mass-from-user">
            <option value="">{t('consolePanel.transfer.chooseUser')}</option>
            {owners.map((id) => (
              <option key={id} value={id}>
                {nameOf(id)} ({groups.get(id)?.length ?? 0})
              </option>
            ))}
          </HTMLSelect>
        </label>
        <label className="bp6-label">
          {t('consolePanel.mass.toUser')}
          <HTMLSelect value={toUserId ?? ''} onChange={(e) => setTo(Number(e.target.value) || null)} fill data-testid="mass-to-user">
            <option value="">{t('consolePanel.transfer.chooseUser')}</option>
            {users
              .filter((u) => u.id !== fromUserId)
              .map((u) => (
                <option key={u.id} value={u.id}>
                  {u.name}
                </option>
              ))}
          </HTMLSelect>
        </label>
        {error && (
          <Callout intent="danger" compact data-testid="mass-transfer-error">
            {error}
          </Callout>
        )}
        {result && (
          <Callout intent="success" compact data-testid="mass-transfer-result">
            {result}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          result ? (
            <Button intent="primary" onClick={() => onClose(true)}>
              {t('consolePanel.close')}
            </Button>
          ) : (
            <>
              <Button onClick={() => onClose(false)}>{t('common.cancel')}</Button>
              <Button intent="primary" loading={isLoading} onClick={() => void submit()} data-testid="mass-transfer-submit">
                {t('consolePanel.mass.transfer')}
              </Button>
            </>
          )
        }
      />
    </Dialog>
  );
}
