import { useTranslation } from 'react-i18next';
import { useDeleteQueueMutation, useListQueuesQuery, type Queue } from '../../api/queues.api';
import { ActiveTag } from '../../app/crud/active-tag';
import { CatalogPage } from '../../app/crud/catalog-page';
import { QueueFormDialog } from './queue-form-dialog';

/** /filas: the tenant's queues (spec sections 2 and 3). */
export function QueuesPage() {
  const { t } = useTranslation();
  // A refusal (ERR_QUEUE_TICKET_EXISTS) is toasted by the base query with its Portuguese text.
  const [deleteQueue, deletion] = useDeleteQueueMutation();
  return (
    <CatalogPage<Queue>
      routeId="filas"
      description={t('queues.description')}
      list={useListQueuesQuery()}
      testId="queue"
      addLabel={t('queues.add')}
      empty={{ icon: 'list', title: t('queues.empty'), description: t('queues.emptyHelp') }}
      remove={deleteQueue}
      removing={deletion.isLoading}
      form={(queue, close, queues) => <QueueFormDialog queue={queue} nextIndex={queues.length} onClose={close} />}
      columns={[
        {
          header: t('crud.name'),
          cell: (queue) => (
            <>
              <span className="crud-swatch" style={{ background: queue.color }} aria-hidden />
              {queue.name}
            </>
          ),
        },
        {
          header: t('queues.greetingMessage'),
          className: 'crud-cell-text',
          title: (queue) => queue.greetingMessage ?? undefined,
          cell: (queue) => queue.greetingMessage || <span className="crud-muted">{t('queues.noGreeting')}</span>,
        },
        { header: t('crud.status'), className: 'crud-col-narrow', cell: (queue) => <ActiveTag active={queue.active} /> },
      ]}
    />
  );
}
