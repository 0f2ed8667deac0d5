import { Alert, Button, ButtonGroup, Callout, Menu, MenuItem, Popover, ProgressBar, Switch, Tag } from '@blueprintjs/core';
import { SOCKET_EVENTS } from '@shared/events';
import { isCampaignCancelable, isCampaignEditable, campaignComplaintWarning, type CampaignDto } from '@shared/schemas/campaigns';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import {
  useCancelCampaignMutation,
  useDeleteCampaignMutation,
  useDownloadCampaignReportMutation,
  useDuplicateCampaignMutation,
  useListCampaignsQuery,
  useStartCampaignMutation,
} from '../../api/campaigns.api';
import { CrudPage } from '../../app/crud/crud-page';
import { showToast } from '../../app/feedback/toaster';
import { useLiveRefresh, useSettledRefetch } from '../../app/realtime/live-refresh';
import { formatCell } from '../../app/table/cell-format';
import { DataTable, type DataColumn, type DataRow } from '../../app/table/data-table';
import { useTenantTimeZone } from '../reports/use-tenant-time-zone';
import { CampaignFormDialog } from './campaign-form-dialog';
import { STATUS_INTENT, campaignProgress } from './campaign-status';
import './campaigns.css';

const LIVE_EVENTS = [SOCKET_EVENTS.campaignUpdate, SOCKET_EVENTS.campaignDelete];
/** Progress bars follow the sender at most this late. */
const LIVE_MS = 1000;

/**
 * /campanhas (supervisor menu, issue #16): the tenant's campaigns with their status and live
 * progress; create and edit (pending or canceled), schedule or start now (the confirmation shows
 * the 2% complaint warning of spec section 9), cancel, duplicate, the PDF report, delete, and
 * the contacts of each one (/campanhas/{id}).
 */
export function CampaignsPage() {
  const { t, i18n } = useTranslation();
  const timeZone = useTenantTimeZone();
  const navigate = useNavigate();
  const list = useListCampaignsQuery();
  useLiveRefresh(LIVE_EVENTS, useSettledRefetch(list), LIVE_MS);
  const campaigns = useMemo(() => list.data ?? [], [list.data]);
  const byId = useMemo(() => new Map(campaigns.map((c) => [c.id, c])), [campaigns]);
  const [editing, setEditing] = useState<CampaignDto | 'new' | null>(null);
  const [starting, setStarting] = useState<CampaignDto | null>(null);
  const [startNow, setStartNow] = useState(false);
  const [canceling, setCanceling] = useState<CampaignDto | null>(null);
  const [deleting, setDeleting] = useState<CampaignDto | null>(null);
  const [startCampaign, start] = useStartCampaignMutation();
  const [cancelCampaign, cancel] = useCancelCampaignMutation();
  const [deleteCampaign, removal] = useDeleteCampaignMutation();
  const [duplicateCampaign] = useDuplicateCampaignMutation();
  const [downloadReport] = useDownloadCampaignReportMutation();
  const date = (value: string) => formatCell('datetime', value, { language: i18n.language, timeZone });

  const confirmStart = async () => {
    if (!starting) return;
    const result = await startCampaign({ id: starting.id, startNow });
    setStarting(null);
    if (!('error' in result)) showToast(t(startNow ? 'campaigns.startedNow' : 'campaigns.scheduled'), 'success');
  };
  const confirmCancel = async () => {
    if (!canceling) return;
    const result = await cancelCampaign(canceling.id);
    setCanceling(null);
    if (!('error' in result)) showToast(t('campaigns.canceled'), 'success');
  };
  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await deleteCampaign(deleting.id);
    setDeleting(null);
    if (!('error' in result)) showToast(t('campaigns.deleted'), 'success');
  };
  const duplicate = async (c: CampaignDto) => {
    const result = await duplicateCampaign(c.id);
    if (!('error' in result)) showToast(t('campaigns.duplicated'), 'success');
  };

  const columns: DataColumn[] = [
    {
      key: 'name',
      label: t('campaigns.name'),
      kind: 'text',
      render: (row) => (
        <a className="campaign-name" onClick={() => navigate(`/campanhas/${row.id as number}`)} data-testid="campaign-row-name">
          {row.name as string}
        </a>
      ),
    },
    { key: 'start', label: t('campaigns.start'), kind: 'text', render: (row) => date(row.start as string) },
    { key: 'channelName', label: t('campaigns.channel'), kind: 'text' },
    {
      key: 'status',
      label: t('campaigns.status'),
      kind: 'text',
      render: (row) => {
        const c = byId.get(row.id as number)!;
        return (
          <Tag minimal intent={STATUS_INTENT[c.status]} data-testid="campaign-row-status">
            {t(`campaigns.statuses.${c.status}`)}
          </Tag>
        );
      },
    },
    {
      key: 'progress',
      label: t('campaigns.progress'),
      kind: 'text',
      render: (row) => {
        const c = byId.get(row.id as number)!;
        const p = campaignProgress(c.counts);
        return (
          <div className="campaign-progress" data-testid="campaign-row-progress" data-done={p.done} data-total={c.counts.contacts}>
            <ProgressBar value={p.ratio} stripes={c.status === 'processing'} animate={c.status === 'processing'} intent={STATUS_INTENT[c.status]} />
            <span className="bp6-text-muted">
              {t('campaigns.progressText', { done: p.done, total: c.counts.contacts, delivered: c.counts.delivered, failed: c.counts.failed })}
            </span>
          </div>
        );
      },
    },
    {
      key: 'actions',
      label: '',
      kind: 'text',
      render: (row) => {
        const c = byId.get(row.id as number)!;
        const editable = isCampaignEditable(c.status);
        return (
          <ButtonGroup variant="minimal">
            {editable ? (
              <Button
                icon="play"
                intent="success"
                title={t('campaigns.start')}
                aria-label={t('campaigns.scheduleAction')}
                onClick={() => {
                  setStartNow(false);
                  setStarting(c);
                }}
                data-testid="campaign-start"
              />
            ) : null}
            {isCampaignCancelable(c.status) ? (
              <Button icon="stop" intent="danger" title={t('campaigns.cancel')} aria-label={t('campaigns.cancel')} onClick={() => setCanceling(c)} data-testid="campaign-cancel" />
            ) : null}
            <Popover
              placement="bottom-end"
              content={
                <Menu>
                  <MenuItem icon="people" text={t('campaigns.contacts')} onClick={() => navigate(`/campanhas/${c.id}`)} data-testid="campaign-contacts" />
                  <MenuItem icon="edit" text={t('crud.edit')} disabled={!editable} onClick={() => setEditing(c)} data-testid="campaign-edit" />
                  <MenuItem icon="duplicate" text={t('campaigns.duplicate')} onClick={() => void duplicate(c)} data-testid="campaign-duplicate" />
                  <MenuItem icon="document" text={t('campaigns.report')} onClick={() => void downloadReport(c.id)} data-testid="campaign-report" />
                  <MenuItem
                    icon="trash"
                    intent="danger"
                    text={t('crud.delete')}
                    disabled={c.status === 'scheduled' || c.status === 'processing'}
                    onClick={() => setDeleting(c)}
                    data-testid="campaign-delete"
                  />
                </Menu>
              }
            >
              <Button icon="more" aria-label={t('crud.actions')} data-testid="campaign-more" />
            </Popover>
          </ButtonGroup>
        );
      },
    },
  ];

  const warning = starting ? campaignComplaintWarning(starting.counts.contacts) : null;
  return (
    <CrudPage
      routeId="campanhas"
      description={t('campaigns.description')}
      add={{ label: t('campaigns.add'), onClick: () => setEditing('new'), testId: 'campaign-add' }}
      list={list}
      isEmpty={campaigns.length === 0}
      empty={{ icon: 'announcement', title: t('campaigns.empty'), description: t('campaigns.emptyHelp') }}
      dialogs={
        <>
          {editing ? <CampaignFormDialog campaign={editing === 'new' ? null : editing} timeZone={timeZone} onClose={() => setEditing(null)} /> : null}
          <Alert
            isOpen={starting !== null}
            intent="primary"
            icon="play"
            confirmButtonText={startNow ? t('campaigns.startNow') : t('campaigns.scheduleAction')}
            cancelButtonText={t('common.cancel')}
            loading={start.isLoading}
            onConfirm={() => void confirmStart()}
            onCancel={() => setStarting(null)}
          >
            <p>{t('campaigns.startConfirm', { name: starting?.name ?? '', date: starting ? date(starting.start) : '', count: starting?.counts.contacts ?? 0 })}</p>
            <Switch checked={startNow} label={t('campaigns.startNowLabel')} onChange={(e) => setStartNow(e.currentTarget.checked)} data-testid="campaign-start-now" />
            {warning ? (
              <Callout intent="warning" icon="warning-sign" data-testid="campaign-complaint-warning">
                {t('campaigns.complaintWarning', { percent: warning.percent, count: warning.recipients, complaints: warning.complaintsToBlock })}
              </Callout>
            ) : null}
          </Alert>
          <Alert
            isOpen={canceling !== null}
            intent="danger"
            icon="stop"
            confirmButtonText={t('campaigns.cancel')}
            cancelButtonText={t('common.cancel')}
            loading={cancel.isLoading}
            onConfirm={() => void confirmCancel()}
            onCancel={() => setCanceling(null)}
          >
            <p>{t('campaigns.cancelConfirm', { name: canceling?.name ?? '' })}</p>
          </Alert>
          <Alert
            isOpen={deleting !== null}
            intent="danger"
            icon="trash"
            confirmButtonText={t('crud.delete')}
            cancelButtonText={t('common.cancel')}
            loading={removal.isLoading}
            onConfirm={() => void confirmDelete()}
            onCancel={() => setDeleting(null)}
          >
            <p>{t('campaigns.deleteConfirm', { name: deleting?.name ?? '' })}</p>
          </Alert>
        </>
      }
    >
      <DataTable
        columns={columns}
        rows={campaigns as unknown as DataRow[]}
        count={campaigns.length}
        pageNumber={1}
        pageSize={Math.max(campaigns.length, 1)}
        hasMore={false}
        onPageChange={() => undefined}
        timeZone={timeZone}
        empty={{ icon: 'announcement', title: t('campaigns.empty') }}
        testId="campaigns-table"
      />
    </CrudPage>
  );
}
