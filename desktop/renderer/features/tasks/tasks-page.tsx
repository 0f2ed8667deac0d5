import { Button, ButtonGroup, FormGroup, HTMLSelect, Tag, type Intent } from '@blueprintjs/core';
import { SOCKET_EVENTS } from '@shared/events';
import { TASK_PRIORITIES, TASK_STATUSES, type TaskPriority, type TaskStatus } from '@shared/schemas/tasks';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import {
  useDeleteTaskMutation,
  useFinishTaskMutation,
  useGetTaskQuery,
  useListTaskOwnersQuery,
  useListTasksQuery,
  useReopenTaskMutation,
  useTaskSummaryQuery,
  type TaskDto,
} from '../../api/tasks.api';
import { ConfirmDeleteAlert } from '../../app/crud/confirm-delete-alert';
import { CrudPage } from '../../app/crud/crud-page';
import { showToast } from '../../app/feedback/toaster';
import { useLiveRefresh, useSettledRefetch } from '../../app/realtime/live-refresh';
import { useAppSelector } from '../../app/store-hooks';
import { formatCell } from '../../app/table/cell-format';
import { DataTable, type DataColumn, type DataRow } from '../../app/table/data-table';
import { TaskCommentsDrawer } from './task-comments-drawer';
import { TaskFormDialog } from './task-form-dialog';
import type { TaskOwnerOption } from './task-time';
import './tasks.css';

const PAGE_SIZE = 20;
const LIVE_EVENTS = [SOCKET_EVENTS.taskUpdate, SOCKET_EVENTS.taskDelete];

const STATUS_INTENT: Record<TaskStatus, Intent> = { pending: 'primary', delayed: 'danger', finished: 'success' };
const PRIORITY_INTENT: Record<TaskPriority, Intent> = { high: 'danger', medium: 'warning', low: 'primary', none: 'none' };

/**
 * /tarefas (every profile): the tasks the caller may see (agents: theirs and those they created;
 * supervisors and admins: the tenant's), filtered by owner, status and priority, a page at a
 * time. Delayed tasks (pending past their limit date) stand out. Create, edit, finish (a
 * recurring task's next occurrence appears), reopen, delete, and each task's comments.
 * `?task=<id>` (the reminder's link) opens that task's comments.
 */
export function TasksPage() {
  const { t, i18n } = useTranslation();
  const me = useAppSelector((s) => s.session.userId);
  const myName = useAppSelector((s) => s.session.username);
  const [search, setSearch] = useSearchParams();
  const [ownerId, setOwnerId] = useState('');
  const [status, setStatus] = useState<TaskStatus | ''>('');
  const [priority, setPriority] = useState<TaskPriority | ''>('');
  const [pageNumber, setPageNumber] = useState(1);
  const list = useListTasksQuery({
    pageNumber,
    ownerId: ownerId ? Number(ownerId) : undefined,
    status: status || undefined,
    priority: priority || undefined,
  });
  const summary = useTaskSummaryQuery({ ownerId: ownerId ? Number(ownerId) : undefined });
  useLiveRefresh(LIVE_EVENTS, useSettledRefetch(list, summary));
  const ownersQuery = useListTaskOwnersQuery();
  const owners = useMemo<TaskOwnerOption[]>(() => {
    const others = (ownersQuery.data ?? []).map((u) => ({ id: u.id, name: u.name }));
    return me ? [{ id: me, name: myName ?? t('tasks.me') }, ...others.filter((o) => o.id !== me)] : others;
  }, [ownersQuery.data, me, myName, t]);
  const tasks = useMemo(() => list.data?.tasks ?? [], [list.data]);
  const byId = useMemo(() => new Map(tasks.map((task) => [task.id, task])), [tasks]);
  const [editing, setEditing] = useState<TaskDto | 'new' | null>(null);
  const [deleting, setDeleting] = useState<TaskDto | null>(null);
  const [commenting, setCommenting] = useState<TaskDto | null>(null);
  const [deleteTask, deletion] = useDeleteTaskMutation();
  const [finishTask] = useFinishTaskMutation();
  const [reopenTask] = useReopenTaskMutation();

  // The reminder's link (/tarefas?task=<id>): open that task's comments, wherever it is in the list.
  const linked = Number(search.get('task')) || 0;
  const linkedTask = useGetTaskQuery(linked, { skip: !linked });
  useEffect(() => {
    if (!linked || linkedTask.isFetching) return;
    if (linkedTask.data) setCommenting(linkedTask.data);
    setSearch({}, { replace: true });
  }, [linked, linkedTask.data, linkedTask.isFetching, setSearch]);

  const finish = async (task: TaskDto) => {
    const result = await finishTask(task.id);
    if ('error' in result || !result.data) return;
    const next = result.data.nextTask;
    showToast(
      next
        ? t('tasks.finishedWithNext', { date: formatCell('datetime', next.limitDate, { language: i18n.language }) })
        : t('tasks.finished'),
      'success',
    );
  };

  const reopen = async (task: TaskDto) => {
    const result = await reopenTask(task.id);
    if (!('error' in result)) showToast(t('tasks.reopened'), 'success');
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await deleteTask(deleting.id);
    if (!('error' in result)) showToast(t('crud.deleted'), 'success');
    setDeleting(null);
  };

  const taskOf = (row: DataRow) => byId.get(row.id as number)!;

  const columns: DataColumn[] = [
    {
      key: 'name',
      label: t('tasks.fields.name'),
      kind: 'text',
      render: (row) => {
        const task = taskOf(row);
        return (
          <span className="task-name" title={task.description} data-testid="task-row-name">
            {task.name}
          </span>
        );
      },
    },
    {
      key: 'limitDate',
      label: t('tasks.fields.limitDate'),
      kind: 'datetime',
      render: (row) => {
        const task = taskOf(row);
        return (
          <span className={task.delayed ? 'task-date task-date-delayed' : 'task-date'} data-testid="task-row-date">
            {formatCell('datetime', task.limitDate, { language: i18n.language })}
          </span>
        );
      },
    },
    { key: 'ownerName', label: t('tasks.fields.owner'), kind: 'text' },
    {
      key: 'priority',
      label: t('tasks.fields.priority'),
      kind: 'text',
      render: (row) => (
        <Tag minimal intent={PRIORITY_INTENT[taskOf(row).priority]} data-testid="task-row-priority">
          {t(`tasks.priority.${taskOf(row).priority}`)}
        </Tag>
      ),
    },
    {
      key: 'status',
      label: t('tasks.fields.status'),
      kind: 'text',
      render: (row) => {
        const task = taskOf(row);
        return (
          <Tag
            intent={STATUS_INTENT[task.status]}
            minimal={task.status !== 'delayed'}
            icon={task.status === 'delayed' ? 'warning-sign' : undefined}
            data-testid="task-row-status"
          >
            {t(`tasks.status.${task.status}`)}
          </Tag>
        );
      },
    },
    {
      key: 'recurrence',
      label: t('tasks.fields.recurrence'),
      kind: 'text',
      render: (row) => {
        const task = taskOf(row);
        return task.recurrenceDays > 0
          ? t('tasks.recurrenceRow', { count: task.recurrenceDays, repetitions: task.repetitions })
          : t('tasks.recurrenceNone');
      },
    },
    {
      key: 'link',
      label: t('tasks.fields.link'),
      kind: 'text',
      render: (row) => {
        const task = taskOf(row);
        return (
          <span className="task-links">
            {task.ticketId ? (
              <Link to={`/atendimento/${task.ticketId}`} data-testid="task-row-ticket">
                {t('tasks.ticketLink', { id: task.ticketId })}
              </Link>
            ) : null}
            {task.contactId ? (
              <Tag minimal icon="person" data-testid="task-row-contact">
                {task.contactName ?? t('tasks.contactLink', { id: task.contactId })}
              </Tag>
            ) : null}
          </span>
        );
      },
    },
    {
      key: 'actions',
      label: '',
      kind: 'text',
      render: (row) => {
        const task = taskOf(row);
        return (
          <ButtonGroup variant="minimal">
            {task.status === 'finished' ? (
              <Button
                icon="undo"
                aria-label={t('tasks.reopen')}
                title={t('tasks.reopen')}
                onClick={() => void reopen(task)}
                data-testid="task-reopen"
              />
            ) : (
              <Button
                icon="tick"
                intent="success"
                aria-label={t('tasks.finish')}
                title={t('tasks.finish')}
                onClick={() => void finish(task)}
                data-testid="task-finish"
              />
            )}
            <Button
              icon="comment"
              aria-label={t('tasks.comments')}
              title={t('tasks.comments')}
              onClick={() => setCommenting(task)}
              data-testid="task-comments-open"
              text={task.commentCount || undefined}
            />
            <Button
              icon="edit"
              aria-label={t('crud.edit')}
              title={t('crud.edit')}
              onClick={() => setEditing(task)}
              data-testid="task-edit"
            />
            <Button
              icon="trash"
              intent="danger"
              aria-label={t('crud.delete')}
              title={t('crud.delete')}
              onClick={() => setDeleting(task)}
              data-testid="task-delete"
            />
          </ButtonGroup>
        );
      },
    },
  ];

  const resetPage = () => setPageNumber(1);
  const counts = summary.data;
  const counters = counts ? (
    <div className="task-counters" data-testid="task-counters">
      {(['pending', 'delayed', 'finished'] as const).map((s) => (
        <Tag
          key={s}
          large
          interactive
          minimal={status !== s}
          intent={STATUS_INTENT[s]}
          onClick={() => {
            setStatus(status === s ? '' : s);
            resetPage();
          }}
          data-testid={`task-counter-${s}`}
        >
          {t(`tasks.status.${s}`)}: {counts[s]}
        </Tag>
      ))}
    </div>
  ) : null;
  const filters = (
    <div className="task-filters">
      <FormGroup label={t('tasks.fields.owner')} inline className="task-filter">
        <HTMLSelect
          value={ownerId}
          onChange={(e) => (setOwnerId(e.currentTarget.value), resetPage())}
          data-testid="task-owner-filter"
        >
          <option value="">{t('tasks.anyOwner')}</option>
          {owners.map((o) => (
            <option key={o.id} value={String(o.id)}>
              {o.name}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label={t('tasks.fields.status')} inline className="task-filter">
        <HTMLSelect
          value={status}
          onChange={(e) => (setStatus(e.currentTarget.value as TaskStatus | ''), resetPage())}
          data-testid="task-status-filter"
        >
          <option value="">{t('tasks.anyStatus')}</option>
          {TASK_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`tasks.status.${s}`)}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
      <FormGroup label={t('tasks.fields.priority')} inline className="task-filter">
        <HTMLSelect
          value={priority}
          onChange={(e) => (setPriority(e.currentTarget.value as TaskPriority | ''), resetPage())}
          data-testid="task-priority-filter"
        >
          <option value="">{t('tasks.anyPriority')}</option>
          {TASK_PRIORITIES.map((p) => (
            <option key={p} value={p}>
              {t(`tasks.priority.${p}`)}
            </option>
          ))}
        </HTMLSelect>
      </FormGroup>
    </div>
  );

  return (
    <CrudPage
      routeId="tarefas"
      description={t('tasks.description')}
      add={{ label: t('tasks.add'), onClick: () => setEditing('new'), testId: 'task-add' }}
      list={list}
      isEmpty={false}
      empty={{ icon: 'tick-circle', title: t('tasks.empty') }}
      dialogs={
        <>
          {editing ? (
            <TaskFormDialog
              task={editing === 'new' ? null : editing}
              owners={owners}
              defaultOwnerId={me}
              onClose={() => setEditing(null)}
            />
          ) : null}
          {commenting ? (
            <TaskCommentsDrawer task={byId.get(commenting.id) ?? commenting} onClose={() => setCommenting(null)} />
          ) : null}
          <ConfirmDeleteAlert
            itemName={deleting?.name ?? null}
            deleting={deletion.isLoading}
            onConfirm={() => void confirmDelete()}
            onCancel={() => setDeleting(null)}
          />
        </>
      }
    >
      {counters}
      {filters}
      <DataTable
        columns={columns}
        rows={tasks as unknown as DataRow[]}
        count={list.data?.count ?? 0}
        pageNumber={pageNumber}
        pageSize={PAGE_SIZE}
        hasMore={list.data?.hasMore ?? false}
        fetching={list.isFetching}
        onPageChange={setPageNumber}
        empty={{ icon: 'tick-circle', title: t('tasks.empty'), description: t('tasks.emptyHelp') }}
        testId="tasks-table"
      />
    </CrudPage>
  );
}
