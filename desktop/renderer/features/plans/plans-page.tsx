import { HTMLTable } from '@blueprintjs/core';
import type { PlanDto } from '@shared/schemas/plans';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeletePlanMutation, useListPlansQuery } from '../../api/plans.api';
import { ActiveTag } from '../../app/crud/active-tag';
import { ConfirmDeleteAlert } from '../../app/crud/confirm-delete-alert';
import { CrudPage } from '../../app/crud/crud-page';
import { RowActions } from '../../app/crud/row-actions';
import { showToast } from '../../app/feedback/toaster';
import { describeError } from '../../api/error-mapper';
import { PlanFormDialog } from './plan-form-dialog';

const money = (value: number) => value.toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });

/** /planos: the platform super administrator's plans (value, limits, trial, active). */
export function PlansPage() {
  const { t } = useTranslation();
  const list = useListPlansQuery();
  const [editing, setEditing] = useState<PlanDto | null | 'new'>(null);
  const [deleting, setDeleting] = useState<PlanDto | null>(null);
  const [deletePlan, deletion] = useDeletePlanMutation();
  const plans = list.data ?? [];
  return (
    <CrudPage
      routeId="planos"
      description={t('plans.description')}
      add={{ label: t('plans.add'), onClick: () => setEditing('new'), testId: 'plan-add' }}
      list={list}
      isEmpty={plans.length === 0}
      empty={{ icon: 'dollar', title: t('plans.empty') }}
      dialogs={
        <>
          {editing ? <PlanFormDialog plan={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
          {deleting ? (
            <ConfirmDeleteAlert
              itemName={deleting.name}
              deleting={deletion.isLoading}
              onCancel={() => setDeleting(null)}
              onConfirm={() =>
                void deletePlan(deleting.id)
                  .unwrap()
                  .then(() => showToast(t('plans.deleted'), 'success'))
                  .catch((error) => showToast(describeError(error, t), 'warning'))
                  .finally(() => setDeleting(null))
              }
            />
          ) : null}
        </>
      }
    >
      <HTMLTable className="crud-table" striped data-testid="plan-table">
        <thead>
          <tr>
            <th>{t('crud.name')}</th>
            <th>{t('plans.value')}</th>
            <th>{t('plans.maxUsers')}</th>
            <th>{t('plans.maxConnections')}</th>
            <th>{t('plans.trial')}</th>
            <th>{t('plans.tenants')}</th>
            <th className="crud-col-narrow">{t('crud.status')}</th>
            <th className="crud-col-narrow" />
          </tr>
        </thead>
        <tbody>
          {plans.map((plan) => (
            <tr key={plan.id} data-testid="plan-row" data-plan-name={plan.name}>
              <td>{plan.name}</td>
              <td>{money(plan.value)}</td>
              <td>{plan.maxUsers}</td>
              <td>{plan.maxConnections}</td>
              <td>{plan.trial ? t('plans.trialDaysCount', { count: plan.trialDays }) : t('plans.noTrial')}</td>
              <td>{plan.tenantCount}</td>
              <td className="crud-col-narrow">
                <ActiveTag active={plan.active} />
              </td>
              <td className="crud-col-narrow">
                <RowActions name={plan.name} onEdit={() => setEditing(plan)} onDelete={() => setDeleting(plan)} />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </CrudPage>
  );
}
