import { Button, Callout, Card, NonIdealState, ProgressBar, Spinner, Tag } from '@blueprintjs/core';
import type { ChannelDto } from '@shared/schemas/channels';
import { useEffect, useMemo, useState } from 'react';
import type { Control, FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useListChannelsQuery } from '../../api/channels.api';
import { useGetGroupOperationQuery, useListGroupsQuery, useSyncGroupsMutation, type GroupOperationDto } from '../../api/groups.api';
import { showToast } from '../../app/feedback/toaster';
import { MultiSelectField, SelectField } from '../../app/forms/form-fields';
import { DataTable, type DataColumn, type DataRow } from '../../app/table/data-table';
import './groups.css';

/** Channel types whose account takes part in WhatsApp groups (the server says the same for any other type). */
export const GROUP_CHANNEL_TYPES: readonly string[] = ['baileys', 'whatsapp'];

/** The tenant's QR channels, the only ones with groups. */
export function useGroupChannels(): { channels: ChannelDto[]; loading: boolean } {
  const list = useListChannelsQuery();
  const channels = useMemo(() => (list.data ?? []).filter((c) => GROUP_CHANNEL_TYPES.includes(c.type)), [list.data]);
  return { channels, loading: list.isLoading };
}

/** With a single QR channel, the connection is chosen for the user. */
export function useSingleConnection(form: UseFormReturn<any, unknown, any>, channels: ChannelDto[]): void {
  const only = channels.length === 1 ? String(channels[0].id) : null;
  useEffect(() => {
    if (only && !form.getValues('whatsappId')) form.setValue('whatsappId', only);
  }, [only, form]);
}

/** The screens need a QR channel: without one they say so and point to the connections screen. */
export function NoGroupChannels() {
  const { t } = useTranslation();
  return (
    <div data-testid="groups-no-channels">
      <NonIdealState icon="offline" title={t('groups.noChannels')} description={t('groups.noChannelsHelp')} action={<Link to="/sessoes">{t('groups.openChannels')}</Link>} />
    </div>
  );
}

/** The connection select of a groups form (QR channels only). */
export function ConnectionField<T extends FieldValues>({ control, name, channels }: { control: Control<T, unknown, any>; name: FieldPath<T>; channels: ChannelDto[] }) {
  const { t } = useTranslation();
  return (
    <SelectField
      control={control}
      name={name}
      label={t('groups.connection')}
      required
      options={[{ value: '', label: t('groups.chooseConnection') }, ...channels.map((c) => ({ value: String(c.id), label: `${c.name} (${c.status})` }))]}
      testId="groups-connection"
    />
  );
}

/** The groups of the chosen connection as a multiple choice, with the sync button beside it. */
export function GroupsField<T extends FieldValues>({
  control,
  name,
  whatsappId,
  helperText,
}: {
  control: Control<T, unknown, any>;
  name: FieldPath<T>;
  whatsappId: number | null;
  helperText?: string;
}) {
  const { t } = useTranslation();
  const groups = useListGroupsQuery(whatsappId ?? 0, { skip: !whatsappId });
  const options = useMemo(
    () =>
      (groups.data ?? [])
        .filter((g) => g.isMember)
        .map((g) => ({ value: g.id, label: g.subject || g.jid, hint: `${g.size} · ${g.isAdmin ? t('groups.admin') : t('groups.notAdmin')}` })),
    [groups.data, t],
  );
  return (
    <div className="groups-field-row">
      <MultiSelectField
        control={control}
        name={name}
        label={t('groups.groups')}
        options={options}
        placeholder={helperText ? t('groups.allGroups') : t('groups.chooseGroups')}
        emptyText={whatsappId ? t('groups.noGroups') : t('groups.chooseConnectionFirst')}
        loading={groups.isFetching}
        disabled={!whatsappId}
        helperText={helperText}
        testId="groups-groups"
      />
      <SyncGroupsButton whatsappId={whatsappId} />
    </div>
  );
}

export function SyncGroupsButton({ whatsappId }: { whatsappId: number | null }) {
  const { t } = useTranslation();
  const [sync, syncing] = useSyncGroupsMutation();
  return (
    <Button
      icon="refresh"
      text={t('groups.sync')}
      disabled={!whatsappId}
      loading={syncing.isLoading}
      data-testid="groups-sync"
      onClick={async () => {
        if (!whatsappId) return;
        const result = await sync(whatsappId);
        if ('data' in result && result.data) showToast(t('groups.synced', { groups: result.data.groups, participants: result.data.participants }), 'success');
      }}
    />
  );
}

/** A small list shown whole on the client, paged by the shared table (TanStack Table with Blueprint markup). */
export function ClientTable({ columns, rows, empty, testId }: { columns: DataColumn[]; rows: DataRow[]; empty: string; testId: string }) {
  const [pageNumber, setPageNumber] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const shown = rows.slice((pageNumber - 1) * pageSize, pageNumber * pageSize);
  return (
    <DataTable
      columns={columns}
      rows={shown}
      count={rows.length}
      pageNumber={pageNumber}
      pageSize={pageSize}
      hasMore={pageNumber * pageSize < rows.length}
      onPageChange={setPageNumber}
      onPageSizeChange={(size) => {
        setPageSize(size);
        setPageNumber(1);
      }}
      empty={{ title: empty }}
      testId={testId}
    />
  );
}

/** A mass operation's progress (polled while it runs) and its result per item. */
export function OperationProgress({ operationId }: { operationId: string }) {
  const { t } = useTranslation();
  const [running, setRunning] = useState(true);
  const op = useGetGroupOperationQuery(operationId, { pollingInterval: running ? 1000 : 0 });
  const data: GroupOperationDto | undefined = op.data;
  if (data && data.status !== 'running' && running) setRunning(false);
  if (!data) return <Spinner size={20} />;
  const ok = data.results.filter((r) => r.ok).length;
  return (
    <Card compact className="groups-operation" data-testid="groups-operation">
      <div className="groups-operation-head">
        <Tag intent={data.status === 'done' ? 'success' : data.status === 'failed' ? 'danger' : 'primary'} data-testid="groups-operation-status">
          {t(`groups.status.${data.status}`)}
        </Tag>
        <span>{t('groups.progress', { done: data.done, total: data.total, ok })}</span>
      </div>
      <ProgressBar value={data.total ? data.done / data.total : 1} animate={data.status === 'running'} stripes={data.status === 'running'} />
      {data.error ? <Callout intent="danger">{data.error}</Callout> : null}
      <ClientTable
        testId="groups-operation-results"
        empty={t('groups.noResults')}
        columns={[
          { key: 'target', label: t('groups.target'), kind: 'text' },
          { key: 'ok', label: t('groups.result'), kind: 'text', render: (row) => (row.ok ? <Tag intent="success">{t('groups.ok')}</Tag> : <Tag intent="danger">{t('groups.failed')}</Tag>) },
          { key: 'message', label: t('groups.message'), kind: 'text' },
        ]}
        rows={data.results.map((r) => ({ ...r }))}
      />
    </Card>
  );
}
