import { HTMLTable } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteQueueMutation, useListQueuesQuery, type Queue } from '../../api/queues.api';
import { showToast } from '../../app/feedback/toaster';
import { ActiveTag } from '../../app/crud/active-tag';
import { ConfirmDeleteAlert } from '../../app/crud/confirm-delete-alert';
import { CrudPage } from '../../app/crud/crud-page';
import { RowActions } from '../../app/crud/row-actions';
import { useWriteAccess } from '../../app/crud/write-access';
import { QueueFormDialog } from './queue-form-dialog';

/** /filas: the tenant's queues (spec sections 2 and 3). */
export function QueuesPage() {
  const { t } = useTranslation();
  const { canWrite } = useWriteAccess();
  const list = useListQueuesQuery();
  const [editing, setEditing] = useState<Queue | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Queue | null>(null);
  const [deleteQueue, deletion] = useDeleteQueueMutation();
  const queues = list.data ?? [];

  const confirmDelete = async () => {
    if (!deleting) return;
    // A refusal (ERR_QUEUE_TICKET_EXISTS) is toasted by the base query with its Portuguese text.
    const result = await deleteQueue(deleting.id);
    if (!('error' in result)) showToast(t('crud.deleted'), 'success');
    setDeleting(null);
  };

  return (
    <CrudPage
      routeId="filas"
      description={t('queues.description')}
      add={canWrite ? { label: t('queues.add'), onClick: () => setEditing('new'), testId: 'queue-add' } : null}
      readOnlyNotice={canWrite ? null : t('crud.readOnly')}
      list={list}
      isEmpty={queues.length === 0}
      dialogs={
        <>
          {editing ? (
            <QueueFormDialog
              queue={editing === 'new' ? null : editing}
              nextIndex={queues.length}
              onClose={() => setEditing(null)}
            />
          ) : null}
          <ConfirmDeleteAlert
            itemName={deleting?.name ?? null}
            deleting={deletion.isLoading}
            onConfirm={() => void confirmDelete()}
            onCancel={() => setDeleting(null)}
          />
        </>
      }
      empty={{
        icon: 'list',
        title: t('queues.empty'),
        description: t('queues.emptyHelp'),
      }}
    >
      <HTMLTable className="crud-table" striped interactive data-testid="queue-table">
        <thead>
          <tr>
            <th>{t('crud.name')}</th>
            <th>{t('queues.greetingMessage')}</th>
            <th className="crud-col-narrow">{t('crud.status')}</th>
            {canWrite ? <th className="crud-col-actions">{t('crud.actions')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {queues.map((queue) => (
            <tr key={queue.id} data-testid="queue-row">
              <td>
                <span className="crud-swatch" style={{ background: queue.color }} aria-hidden />
                {queue.name}
              </td>
              <td className="crud-cell-text" title={queue.greetingMessage ?? undefined}>
                {queue.greetingMessage || <span className="crud-muted">{t('queues.noGreeting')}</span>}
              </td>
              <td className="crud-col-narrow">
                <ActiveTag active={queue.active} />
              </td>
              {canWrite ? (
                <td className="crud-col-actions">
                  <RowActions name={queue.name} onEdit={() => setEditing(queue)} onDelete={() => setDeleting(queue)} />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </CrudPage>
  );
}
