import { HTMLTable } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteDemandMutation, useListDemandsQuery, type Demand } from '../../api/demands.api';
import { showToast } from '../../app/feedback/toaster';
import { ActiveTag } from '../../app/crud/active-tag';
import { ConfirmDeleteAlert } from '../../app/crud/confirm-delete-alert';
import { CrudPage } from '../../app/crud/crud-page';
import { RowActions } from '../../app/crud/row-actions';
import { useWriteAccess } from '../../app/crud/write-access';
import { SettingsTabs } from '../settings/settings-tabs';
import { DemandFormDialog } from './demand-form-dialog';

/** /configuracoes/motivos: the reasons (demands) an agent can record on a ticket. */
export function DemandsPage() {
  const { t } = useTranslation();
  const { canWrite } = useWriteAccess();
  const list = useListDemandsQuery();
  const [editing, setEditing] = useState<Demand | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Demand | null>(null);
  const [deleteDemand, deletion] = useDeleteDemandMutation();
  const demands = list.data ?? [];

  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await deleteDemand(deleting.id);
    if (!('error' in result)) showToast(t('crud.deleted'), 'success');
    setDeleting(null);
  };

  return (
    <CrudPage
      routeId="configuracoes/motivos"
      tabs={<SettingsTabs />}
      description={t('demands.description')}
      add={canWrite ? { label: t('demands.add'), onClick: () => setEditing('new'), testId: 'demand-add' } : null}
      readOnlyNotice={canWrite ? null : t('crud.readOnly')}
      list={list}
      isEmpty={demands.length === 0}
      empty={{ icon: 'comment', title: t('demands.empty'), description: t('demands.emptyHelp') }}
      dialogs={
        <>
          {editing ? <DemandFormDialog demand={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
          <ConfirmDeleteAlert
            itemName={deleting?.name ?? null}
            deleting={deletion.isLoading}
            onConfirm={() => void confirmDelete()}
            onCancel={() => setDeleting(null)}
          />
        </>
      }
    >
      <HTMLTable className="crud-table" striped interactive data-testid="demand-table">
        <thead>
          <tr>
            <th>{t('crud.name')}</th>
            <th className="crud-col-narrow">{t('crud.status')}</th>
            {canWrite ? <th className="crud-col-actions">{t('crud.actions')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {demands.map((demand) => (
            <tr key={demand.id} data-testid="demand-row">
              <td>{demand.name}</td>
              <td className="crud-col-narrow">
                <ActiveTag active={demand.active} />
              </td>
              {canWrite ? (
                <td className="crud-col-actions">
                  <RowActions name={demand.name} onEdit={() => setEditing(demand)} onDelete={() => setDeleting(demand)} />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </CrudPage>
  );
}
