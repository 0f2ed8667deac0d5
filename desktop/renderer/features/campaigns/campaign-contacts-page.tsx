import { Alert, Button, Callout, Card, FileInput, FormGroup, HTMLSelect, H5, NonIdealState, ProgressBar, Spinner, Tag } from '@blueprintjs/core';
import { SOCKET_EVENTS } from '@shared/events';
import {
  CAMPAIGN_IMPORT_EXTENSIONS,
  CAMPAIGN_IMPORT_MAX_BYTES,
  CAMPAIGN_IMPORT_MAX_ROWS,
  isCampaignEditable,
  type CampaignContactDto,
  type CampaignContactStatus,
  type ImportCampaignContactsAnswer,
} from '@shared/schemas/campaigns';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import {
  useDownloadCampaignReportMutation,
  useGetCampaignQuery,
  useImportCampaignContactsMutation,
  useLinkCampaignContactsMutation,
  useListCampaignContactsQuery,
  useUnlinkCampaignContactMutation,
  type LinkContactsBody,
} from '../../api/campaigns.api';
import { useListKanbansQuery } from '../../api/kanban.api';
import { useListTagsQuery } from '../../api/tags.api';
import { useListAllTenantUsersQuery } from '../../api/users.api';
import { showToast } from '../../app/feedback/toaster';
import { PageHeader } from '../../app/layout/page-header';
import { useLiveRefresh, useSettledRefetch } from '../../app/realtime/live-refresh';
import { formatCell } from '../../app/table/cell-format';
import { type DataColumn, type DataRow } from '../../app/table/data-table';
import { EChart, type ChartOption } from '../dashboard/charts/echart';
import { useTenantTimeZone } from '../reports/use-tenant-time-zone';
import { ContactSearch } from '../schedules/schedule-form-dialog';
import { CampaignOutcomeTable } from './campaign-outcome-table';
import { STATUS_INTENT, campaignProgress } from './campaign-status';
import './campaigns.css';

const LIVE_EVENTS = [SOCKET_EVENTS.campaignUpdate];
const CONTACT_INTENT: Record<CampaignContactStatus, 'none' | 'primary' | 'success' | 'danger'> = {
  pending: 'none',
  sending: 'primary',
  delivered: 'success',
  failed: 'danger',
};

/**
 * /campanhas/{campanhaId} (issue #16): one campaign's progress and totals (chart), its contacts
 * with status and reason (paged), and, while the campaign may be edited (pending or canceled),
 * linking contacts by tag, wallet, kanban column, one by one, all, or from a CSV/XLSX file (unknown
 * numbers become contacts; refused lines are shown), and removing them.
 */
export function CampaignContactsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const timeZone = useTenantTimeZone();
  const id = Number(useParams().campanhaId);
  const [pageNumber, setPageNumber] = useState(1);
  const [pageSize, setPageSize] = useState(50);
  const [status, setStatus] = useState<CampaignContactStatus | ''>('');
  const campaign = useGetCampaignQuery(id, { skip: !Number.isInteger(id) });
  const contacts = useListCampaignContactsQuery({ id, pageNumber, pageSize, status: status || undefined }, { skip: !Number.isInteger(id) });
  useLiveRefresh(LIVE_EVENTS, useSettledRefetch(campaign, contacts), 1000);
  const [link, linking] = useLinkCampaignContactsMutation();
  const [unlink] = useUnlinkCampaignContactMutation();
  const [downloadReport] = useDownloadCampaignReportMutation();
  const [removingAll, setRemovingAll] = useState(false);
  const [importFile, importing] = useImportCampaignContactsMutation();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [imported, setImported] = useState<ImportCampaignContactsAnswer | null>(null);
  const tags = useListTagsQuery();
  const users = useListAllTenantUsersQuery();
  const kanbans = useListKanbansQuery();
  const [tag, setTag] = useState('');
  const [wallet, setWallet] = useState('');
  const [kanban, setKanban] = useState('');
  const c = campaign.data;

  const chart = useMemo<ChartOption | null>(() => {
    if (!c) return null;
    return {
      tooltip: { trigger: 'item' },
      legend: { bottom: 0 },
      series: [
        {
          type: 'pie',
          radius: ['40%', '70%'],
          data: [
            { name: t('campaigns.contactStatuses.delivered'), value: c.counts.delivered, itemStyle: { color: '#238551' } },
            { name: t('campaigns.contactStatuses.failed'), value: c.counts.failed, itemStyle: { color: '#cd4246' } },
            { name: t('campaigns.contactStatuses.pending'), value: c.counts.pending + c.counts.sending, itemStyle: { color: '#8f99a8' } },
          ],
        },
      ],
    };
  }, [c, t]);

  if (campaign.isLoading) return <NonIdealState icon={<Spinner size={40} />} title={t('common.loading')} />;
  if (!c) {
    return (
      <NonIdealState
        icon="search"
        title={t('errors.ERR_NO_CAMPAIGN_FOUND')}
        action={<Button icon="arrow-left" text={t('campaigns.back')} onClick={() => navigate('/campanhas')} />}
      />
    );
  }
  const editable = isCampaignEditable(c.status);
  const progress = campaignProgress(c.counts);

  const add = async (body: LinkContactsBody) => {
    const result = await link({ id, body });
    if (!('error' in result)) showToast(t('campaigns.linked', { count: result.data.added }), 'success');
  };

  const chooseFile = (chosen: File | null) => {
    setImported(null);
    setFile(null);
    setFileError(null);
    if (!chosen) return;
    const extension = chosen.name.slice(chosen.name.lastIndexOf('.')).toLowerCase();
    if (!(CAMPAIGN_IMPORT_EXTENSIONS as readonly string[]).includes(extension) || chosen.size > CAMPAIGN_IMPORT_MAX_BYTES) {
      setFileError(t('campaigns.importRejected', { mb: CAMPAIGN_IMPORT_MAX_BYTES / (1024 * 1024) }));
      return;
    }
    setFile(chosen);
  };
  const runImport = async () => {
    if (!file) return;
    const result = await importFile({ id, file });
    if ('error' in result) return;
    setImported(result.data);
    setFile(null);
    showToast(t('campaigns.imported', { count: result.data.added, created: result.data.created }), 'success');
  };

  const columns: DataColumn[] = [
    { key: 'name', label: t('campaigns.contactName'), kind: 'text' },
    { key: 'number', label: t('campaigns.number'), kind: 'text' },
    {
      key: 'status',
      label: t('campaigns.status'),
      kind: 'text',
      render: (row) => (
        <Tag minimal intent={CONTACT_INTENT[row.status as CampaignContactStatus]} data-testid="campaign-contact-status">
          {t(`campaigns.contactStatuses.${row.status as string}`)}
        </Tag>
      ),
    },
    { key: 'messageIndex', label: t('campaigns.messageColumn'), kind: 'text' },
    {
      key: 'sentAt',
      label: t('campaigns.sentAt'),
      kind: 'text',
      render: (row) => (row.sentAt ? formatCell('datetime', row.sentAt, { language: i18n.language, timeZone }) : ''),
    },
    { key: 'error', label: t('campaigns.reason'), kind: 'text' },
    {
      key: 'actions',
      label: '',
      kind: 'text',
      render: (row) =>
        editable ? (
          <Button
            variant="minimal"
            icon="cross"
            aria-label={t('campaigns.removeContact')}
            title={t('campaigns.removeContact')}
            onClick={() => void unlink({ id, contactId: (row as unknown as CampaignContactDto).contactId })}
            data-testid="campaign-contact-remove"
          />
        ) : null,
    },
  ];

  return (
    <div className="page crud-page" data-testid="page-campanhaContatos">
      <PageHeader
        title={t('routes.campanhaContatos')}
        description={c.name}
        actions={
          <>
            <Button icon="arrow-left" text={t('campaigns.back')} onClick={() => navigate('/campanhas')} />
            <Button icon="document" text={t('campaigns.report')} onClick={() => void downloadReport(id)} />
          </>
        }
      />
      <div className="campaign-detail-summary">
        <Card>
          <H5>
            {c.name}{' '}
            <Tag minimal intent={STATUS_INTENT[c.status]} data-testid="campaign-detail-status">
              {t(`campaigns.statuses.${c.status}`)}
            </Tag>
          </H5>
          <p className="bp6-text-muted">
            {t('campaigns.detailLine', {
              start: formatCell('datetime', c.start, { language: i18n.language, timeZone }),
              channel: c.channelName ?? '—',
              delay: c.delay,
            })}
          </p>
          <ProgressBar value={progress.ratio} stripes={c.status === 'processing'} animate={c.status === 'processing'} intent={STATUS_INTENT[c.status]} />
          <p data-testid="campaign-detail-counts">
            {t('campaigns.progressText', { done: progress.done, total: c.counts.contacts, delivered: c.counts.delivered, failed: c.counts.failed })}
          </p>
          {!editable ? <Callout intent="primary">{t('campaigns.notEditable')}</Callout> : null}
        </Card>
        <Card className="campaign-chart">{chart ? <EChart option={chart} label={t('campaigns.chartLabel')} name="campaign-totals" /> : null}</Card>
      </div>
      {editable ? (
        <Card className="campaign-link" data-testid="campaign-link">
          <FormGroup label={t('campaigns.byContact')}>
            <ContactSearch selectedId={undefined} selectedName={null} onSelect={(contactId) => void add({ contactIds: [contactId] })} />
          </FormGroup>
          <FormGroup label={t('campaigns.byTag')}>
            <HTMLSelect value={tag} onChange={(e) => setTag(e.currentTarget.value)} data-testid="campaign-link-tag">
              <option value="">{t('campaigns.choose')}</option>
              {(tags.data ?? []).map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name}
                </option>
              ))}
            </HTMLSelect>
            <Button icon="add" disabled={!tag || linking.isLoading} onClick={() => void add({ filter: { tags: [Number(tag)] } })} data-testid="campaign-link-tag-add" />
          </FormGroup>
          <FormGroup label={t('campaigns.byWallet')}>
            <HTMLSelect value={wallet} onChange={(e) => setWallet(e.currentTarget.value)} data-testid="campaign-link-wallet">
              <option value="">{t('campaigns.choose')}</option>
              {(users.data ?? []).map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name}
                </option>
              ))}
            </HTMLSelect>
            <Button icon="add" disabled={!wallet || linking.isLoading} onClick={() => void add({ filter: { wallets: [Number(wallet)] } })} />
          </FormGroup>
          <FormGroup label={t('campaigns.byKanban')}>
            <HTMLSelect value={kanban} onChange={(e) => setKanban(e.currentTarget.value)} data-testid="campaign-link-kanban">
              <option value="">{t('campaigns.choose')}</option>
              {(kanbans.data ?? []).map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name}
                </option>
              ))}
            </HTMLSelect>
            <Button icon="add" disabled={!kanban || linking.isLoading} onClick={() => void add({ filter: { kanbanId: Number(kanban) } })} />
          </FormGroup>
          <FormGroup
            label={t('campaigns.byFile')}
            labelFor="campaign-import-file"
            helperText={fileError ?? t('campaigns.byFileHelp', { rows: CAMPAIGN_IMPORT_MAX_ROWS, mb: CAMPAIGN_IMPORT_MAX_BYTES / (1024 * 1024) })}
            intent={fileError ? 'danger' : 'none'}
          >
            <FileInput
              inputProps={{ id: 'campaign-import-file', accept: CAMPAIGN_IMPORT_EXTENSIONS.join(','), 'aria-label': t('campaigns.byFile') }}
              text={file ? file.name : t('campaigns.chooseFile')}
              hasSelection={file !== null}
              onInputChange={(event) => chooseFile((event.currentTarget as HTMLInputElement).files?.[0] ?? null)}
              data-testid="campaign-import-file"
            />
            <Button
              icon="import"
              text={t('campaigns.importAction')}
              disabled={!file}
              loading={importing.isLoading}
              onClick={() => void runImport()}
              data-testid="campaign-import-submit"
            />
          </FormGroup>
          <Button icon="people" text={t('campaigns.linkAll')} loading={linking.isLoading} onClick={() => void add({ filter: { all: true } })} data-testid="campaign-link-all" />
          <Button icon="trash" intent="danger" text={t('campaigns.removeAll')} disabled={c.counts.contacts === 0} onClick={() => setRemovingAll(true)} />
        </Card>
      ) : null}
      {imported ? (
        <Callout
          intent={imported.invalid.count > 0 ? 'warning' : 'success'}
          icon="import"
          className="campaign-import-result"
          data-testid="campaign-import-result"
        >
          <p>
            {t('campaigns.importSummary', {
              rows: imported.rows,
              added: imported.added,
              created: imported.created,
              duplicates: imported.duplicates,
              invalid: imported.invalid.count,
            })}
          </p>
          {imported.invalid.lines.length > 0 ? (
            <ul>
              {imported.invalid.lines.map((line) => (
                <li key={`${line.line}-${line.reason}`}>{t('campaigns.importLine', { line: line.line, reason: line.reason })}</li>
              ))}
            </ul>
          ) : null}
          {imported.invalid.count > imported.invalid.lines.length ? (
            <p>{t('campaigns.importMoreLines', { count: imported.invalid.count - imported.invalid.lines.length })}</p>
          ) : null}
        </Callout>
      ) : null}
      <CampaignOutcomeTable
        statusLabel={t('campaigns.status')}
        status={status}
        onStatusChange={setStatus}
        filterTestId="campaign-contacts-filter"
        columns={columns}
        rows={(contacts.data?.contacts ?? []) as unknown as DataRow[]}
        count={contacts.data?.count ?? 0}
        pageNumber={pageNumber}
        pageSize={pageSize}
        hasMore={contacts.data?.hasMore ?? false}
        loading={contacts.isLoading}
        onPageChange={setPageNumber}
        onPageSizeChange={setPageSize}
        timeZone={timeZone}
        empty={{ icon: 'people', title: t('campaigns.noContacts'), description: editable ? t('campaigns.noContactsHelp') : undefined }}
        testId="campaign-contacts-table"
      />
      <Alert
        isOpen={removingAll}
        intent="danger"
        icon="trash"
        confirmButtonText={t('campaigns.removeAll')}
        cancelButtonText={t('common.cancel')}
        onConfirm={() => {
          setRemovingAll(false);
          void unlink({ id, contactId: 'all' });
        }}
        onCancel={() => setRemovingAll(false)}
      >
        <p>{t('campaigns.removeAllConfirm')}</p>
      </Alert>
    </div>
  );
}
