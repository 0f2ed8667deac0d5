import { Button, ButtonGroup, Switch } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import {
  useDeleteChatFlowMutation,
  useDuplicateChatFlowMutation,
  useExportChatFlowMutation,
  useImportChatFlowMutation,
  useListChatFlowsQuery,
  useUpdateChatFlowMutation,
  type ChatFlow,
} from '../../api/chatflow.api';
import { ConfirmDeleteAlert } from '../../app/crud/confirm-delete-alert';
import { CrudPage } from '../../app/crud/crud-page';
import { showToast } from '../../app/feedback/toaster';
import { DataTable, type DataColumn } from '../../app/table/data-table';
import { useTenantTimeZone } from '../reports/use-tenant-time-zone';
import { builderPath } from './chatflow-paths';
import { issuesOfFailure, type FlowFileIssue } from './flow-file';
import { FlowImportButton } from './flow-import-button';
import { FlowIssuesDialog } from './flow-issues-dialog';
import './chatflow.css';

/**
 * /chat-flow (supervisor menu "Chatbot", issue #14): the tenant's flows with their state; switch
 * a flow on or off (activation is refused while the flow has problems, which are listed), edit
 * in the builder, duplicate, export, delete after confirmation, import a file, start a new one.
 */
export function ChatFlowsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const timeZone = useTenantTimeZone();
  const list = useListChatFlowsQuery();
  const [update] = useUpdateChatFlowMutation();
  const [duplicate] = useDuplicateChatFlowMutation();
  const [exportFlow] = useExportChatFlowMutation();
  const [importFlow, importing] = useImportChatFlowMutation();
  const [remove, removing] = useDeleteChatFlowMutation();
  const [deleting, setDeleting] = useState<ChatFlow | null>(null);
  const [issues, setIssues] = useState<{ title: string; issues: FlowFileIssue[] } | null>(null);
  const flows = useMemo(() => list.data ?? [], [list.data]);
  const byId = useMemo(() => new Map(flows.map((f) => [f.id, f])), [flows]);

  const toggle = async (flow: ChatFlow, active: boolean) => {
    const result = await update({ id: flow.id, body: { active } });
    if ('error' in result && result.error) {
      if ((result.error as { data?: { problems?: unknown[] } }).data?.problems) {
        setIssues({ title: t('chatFlows.cannotActivate', { name: flow.name }), issues: issuesOfFailure(result.error, '') });
      }
      return;
    }
    showToast(active ? t('chatFlows.activated') : t('chatFlows.deactivated'), 'success');
  };

  const columns: DataColumn[] = [
    {
      key: 'name',
      label: t('crud.name'),
      kind: 'text',
      render: (row) => <span data-testid="chatflow-row-name">{String(row.name)}</span>,
    },
    { key: 'description', label: t('chatFlows.description'), kind: 'text' },
    {
      key: 'active',
      label: t('crud.status'),
      kind: 'text',
      render: (row) => {
        const flow = byId.get(row.id as number)!;
        return (
          <Switch
            checked={flow.active}
            label={flow.active ? t('crud.activeState') : t('crud.inactiveState')}
            onChange={(event) => void toggle(flow, event.currentTarget.checked)}
            aria-label={`${t('crud.active')}: ${flow.name}`}
            data-testid="chatflow-row-active"
            className="chatflow-active-switch"
          />
        );
      },
    },
    { key: 'updatedAt', label: t('chatFlows.updatedAt'), kind: 'datetime' },
    {
      key: 'actions',
      label: t('crud.actions'),
      kind: 'text',
      render: (row) => {
        const flow = byId.get(row.id as number)!;
        return (
          <ButtonGroup variant="minimal">
            <Button
              icon="edit"
              title={t('crud.edit')}
              aria-label={`${t('crud.edit')}: ${flow.name}`}
              onClick={() => navigate(builderPath(flow.id))}
              data-testid="chatflow-edit"
            />
            <Button
              icon="duplicate"
              title={t('chatFlows.duplicate')}
              aria-label={`${t('chatFlows.duplicate')}: ${flow.name}`}
              onClick={async () => {
                const result = await duplicate(flow.id);
                if ('data' in result && result.data) showToast(t('chatFlows.duplicated', { name: result.data.name }), 'success');
              }}
              data-testid="chatflow-duplicate"
            />
            <Button
              icon="export"
              title={t('chatFlows.export')}
              aria-label={`${t('chatFlows.export')}: ${flow.name}`}
              onClick={() => void exportFlow(flow.id)}
              data-testid="chatflow-export"
            />
            <Button
              icon="trash"
              intent="danger"
              title={t('crud.delete')}
              aria-label={`${t('crud.delete')}: ${flow.name}`}
              onClick={() => setDeleting(flow)}
              data-testid="chatflow-delete"
            />
          </ButtonGroup>
        );
      },
    },
  ];

  return (
    <CrudPage
      routeId="chatFlow"
      description={t('chatFlows.pageDescription')}
      add={{ label: t('chatFlows.add'), onClick: () => navigate(builderPath()), testId: 'chatflow-add' }}
      actions={
        <FlowImportButton
          testId="chatflow-import"
          loading={importing.isLoading}
          onIssues={(found) => setIssues({ title: t('chatFlows.importRefused'), issues: found })}
          onFile={async (file) => {
            const result = await importFlow(file);
            if ('error' in result && result.error) {
              setIssues({
                title: t('chatFlows.importRefused'),
                issues: issuesOfFailure(result.error, t('chatFlows.importFailed')),
              });
              return;
            }
            showToast(t('chatFlows.imported', { name: result.data.name }), 'success');
          }}
        />
      }
      list={list}
      isEmpty={flows.length === 0}
      empty={{ icon: 'flow-branch', title: t('chatFlows.empty'), description: t('chatFlows.emptyHelp') }}
      dialogs={
        <>
          <ConfirmDeleteAlert
            itemName={deleting?.name ?? null}
            deleting={removing.isLoading}
            onCancel={() => setDeleting(null)}
            onConfirm={async () => {
              if (!deleting) return;
              const result = await remove(deleting.id);
              setDeleting(null);
              if (!('error' in result)) showToast(t('crud.deleted'), 'success');
            }}
          />
          <FlowIssuesDialog title={issues?.title ?? ''} issues={issues?.issues ?? null} onClose={() => setIssues(null)} />
        </>
      }
    >
      <DataTable
        testId="chatflow-table"
        columns={columns}
        rows={flows.map((f) => ({
          id: f.id,
          name: f.name,
          description: f.description,
          active: f.active,
          updatedAt: f.updatedAt,
        }))}
        count={flows.length}
        pageNumber={1}
        pageSize={Math.max(flows.length, 1)}
        hasMore={false}
        timeZone={timeZone}
        empty={{ title: t('chatFlows.empty') }}
        onPageChange={() => undefined}
      />
    </CrudPage>
  );
}
