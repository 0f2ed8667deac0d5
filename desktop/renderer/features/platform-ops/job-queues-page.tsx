import { Alert, Button, ButtonGroup, Dialog, DialogBody, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { JOB_QUEUE_REFRESH_MS } from '@shared/limits';
import type { JobQueueSummary } from '@shared/schemas/platform-ops';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useCleanJobQueueMutation,
  useGetFailedJobsQuery,
  useGetJobQueuesQuery,
  useRestartJobQueueMutation,
  useRetryFailedJobMutation,
} from '../../api/platform-ops.api';
import { CrudPage } from '../../app/crud/crud-page';
import { showToast } from '../../app/feedback/toaster';
import { formatDateTime } from './platform-format';
import './platform-ops.css';

const COUNT_COLUMNS = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

/** /tenantsQueue: the job queues of this backend, refreshed every 10 s (spec section 9). */
export function JobQueuesPage() {
  const { t, i18n } = useTranslation();
  const board = useGetJobQueuesQuery(undefined, { pollingInterval: JOB_QUEUE_REFRESH_MS, skipPollingIfUnfocused: false });
  const [failedOf, setFailedOf] = useState<string | null>(null);
  const [restarting, setRestarting] = useState<string | null>(null);
  const [clean] = useCleanJobQueueMutation();
  const [restart, restart_] = useRestartJobQueueMutation();
  const queues = board.data?.queues ?? [];

  const cleanQueue = async (queue: JobQueueSummary, state: 'completed' | 'failed') => {
    const result = await clean({ name: queue.name, state });
    if ('data' in result && result.data) showToast(t('platformOps.jobQueues.cleaned', { count: result.data.removed }), 'success');
  };

  const confirmRestart = async () => {
    if (!restarting) return;
    const result = await restart(restarting);
    setRestarting(null);
    if ('data' in result && result.data)
      showToast(t('platformOps.jobQueues.restarted', { count: result.data.restartsLeft }), 'success');
  };

  return (
    <CrudPage
      routeId="tenantsQueue"
      description={t('platformOps.jobQueues.description')}
      actions={
        board.data ? (
          <>
            <Tag minimal icon="layers" data-testid="job-queue-driver">
              {t(`platformOps.jobQueues.driver.${board.data.driver}`)}
            </Tag>
            <Tag minimal icon="refresh" data-testid="job-queue-restarts-left">
              {t('platformOps.jobQueues.restartsLeft', { count: board.data.restartsLeft })}
            </Tag>
            <span className="crud-muted" data-testid="job-queue-refreshed-at">
              {t('platformOps.jobQueues.refreshedAt', {
                time: new Date(board.data.generatedAt).toLocaleTimeString(i18n.language),
              })}
            </span>
            <Button
              icon="refresh"
              text={t('platformOps.jobQueues.refresh')}
              onClick={() => void board.refetch()}
              data-testid="job-queue-refresh"
            />
          </>
        ) : null
      }
      list={board}
      isEmpty={queues.length === 0}
      empty={{ icon: 'layers', title: t('platformOps.jobQueues.empty'), description: t('platformOps.jobQueues.emptyHelp') }}
      dialogs={
        <>
          {failedOf ? <FailedJobsDialog name={failedOf} onClose={() => setFailedOf(null)} /> : null}
          <Alert
            isOpen={restarting !== null}
            icon="refresh"
            intent="warning"
            confirmButtonText={t('platformOps.jobQueues.restart')}
            cancelButtonText={t('common.cancel')}
            loading={restart_.isLoading}
            onConfirm={() => void confirmRestart()}
            onCancel={() => setRestarting(null)}
          >
            {t('platformOps.jobQueues.restartConfirm', { name: restarting ?? '', count: board.data?.restartsLeft ?? 0 })}
          </Alert>
        </>
      }
    >
      <HTMLTable className="crud-table" striped data-testid="job-queue-table">
        <thead>
          <tr>
            <th>{t('platformOps.jobQueues.columns.name')}</th>
            {COUNT_COLUMNS.map((column) => (
              <th key={column} className="crud-col-narrow">
                {t(`platformOps.jobQueues.columns.${column}`)}
              </th>
            ))}
            <th className="crud-col-actions">{t('crud.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {queues.map((queue) => (
            <tr key={queue.name} data-testid="job-queue-row" data-queue={queue.name}>
              <td>
                <code>{queue.name}</code>
              </td>
              {COUNT_COLUMNS.map((column) => (
                <td key={column} className="crud-col-narrow" data-testid={`job-queue-${column}`}>
                  {column === 'failed' && queue.failed > 0 ? <Tag intent="danger">{queue.failed}</Tag> : queue[column]}
                </td>
              ))}
              <td className="crud-col-actions">
                <ButtonGroup variant="minimal">
                  <Button
                    size="small"
                    icon="error"
                    text={t('platformOps.jobQueues.showFailed')}
                    onClick={() => setFailedOf(queue.name)}
                    data-testid="job-queue-show-failed"
                  />
                  <Button
                    size="small"
                    icon="clean"
                    text={t('platformOps.jobQueues.cleanCompleted')}
                    onClick={() => void cleanQueue(queue, 'completed')}
                  />
                  <Button
                    size="small"
                    icon="trash"
                    text={t('platformOps.jobQueues.cleanFailed')}
                    onClick={() => void cleanQueue(queue, 'failed')}
                  />
                  <Button
                    size="small"
                    icon="refresh"
                    intent="warning"
                    text={t('platformOps.jobQueues.restart')}
                    disabled={(board.data?.restartsLeft ?? 0) === 0}
                    onClick={() => setRestarting(queue.name)}
                    data-testid="job-queue-restart"
                  />
                </ButtonGroup>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </CrudPage>
  );
}

function FailedJobsDialog({ name, onClose }: { name: string; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const failed = useGetFailedJobsQuery(name);
  const [retry] = useRetryFailedJobMutation();
  const jobs = failed.data ?? [];
  const retryJob = async (jobId: string) => {
    const result = await retry({ name, jobId });
    if (!('error' in result)) showToast(t('platformOps.jobQueues.retried'), 'success');
  };
  return (
    <Dialog
      isOpen
      title={t('platformOps.jobQueues.failedTitle', { name })}
      icon="error"
      onClose={onClose}
      className="crud-dialog crud-dialog-wide"
    >
      <DialogBody>
        {failed.isLoading ? (
          <Spinner size={30} />
        ) : jobs.length === 0 ? (
          <NonIdealState icon="tick-circle" title={t('platformOps.jobQueues.failedEmpty')} />
        ) : (
          <HTMLTable className="crud-table" striped compact data-testid="failed-job-table">
            <thead>
              <tr>
                <th>ID</th>
                <th>{t('platformOps.jobQueues.reason')}</th>
                <th className="crud-col-narrow">{t('platformOps.jobQueues.attempts')}</th>
                <th>{t('platformOps.jobQueues.failedAt')}</th>
                <th className="crud-col-actions">{t('crud.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {jobs.map((job) => (
                <tr key={job.id} data-testid="failed-job-row">
                  <td>
                    <code>{job.id}</code>
                  </td>
                  <td className="crud-cell-text" title={job.reason}>
                    {job.reason}
                  </td>
                  <td className="crud-col-narrow">{job.attempts}</td>
                  <td>{formatDateTime(job.failedAt, i18n.language)}</td>
                  <td className="crud-col-actions">
                    <Button
                      size="small"
                      icon="repeat"
                      text={t('platformOps.jobQueues.retry')}
                      onClick={() => void retryJob(job.id)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      </DialogBody>
    </Dialog>
  );
}
