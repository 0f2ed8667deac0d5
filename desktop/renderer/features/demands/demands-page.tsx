import { useTranslation } from 'react-i18next';
import { useDeleteDemandMutation, useListDemandsQuery, type Demand } from '../../api/demands.api';
import { ActiveTag } from '../../app/crud/active-tag';
import { CatalogPage } from '../../app/crud/catalog-page';
import { SettingsTabs } from '../settings/settings-tabs';
import { DemandFormDialog } from './demand-form-dialog';

/** /configuracoes/motivos: the reasons (demands) an agent can record on a ticket. */
export function DemandsPage() {
  const { t } = useTranslation();
  const [deleteDemand, deletion] = useDeleteDemandMutation();
  return (
    <CatalogPage<Demand>
      routeId="configuracoes/motivos"
      tabs={<SettingsTabs />}
      description={t('demands.description')}
      list={useListDemandsQuery()}
      testId="demand"
      addLabel={t('demands.add')}
      empty={{ icon: 'comment', title: t('demands.empty'), description: t('demands.emptyHelp') }}
      remove={deleteDemand}
      removing={deletion.isLoading}
      form={(demand, close) => <DemandFormDialog demand={demand} onClose={close} />}
      columns={[
        { header: t('crud.name'), cell: (demand) => demand.name },
        { header: t('crud.status'), className: 'crud-col-narrow', cell: (demand) => <ActiveTag active={demand.active} /> },
      ]}
    />
  );
}
