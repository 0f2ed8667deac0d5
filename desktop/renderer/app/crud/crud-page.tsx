import { Button, Callout, NonIdealState, Spinner, type IconName } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './crud.css';
import { PageHeader } from '../layout/page-header';

/** The state of the list a page shows, as RTK Query's query hooks give it. */
export interface ListState {
  isLoading: boolean;
  isError: boolean;
  refetch(): unknown;
}

export interface CrudPageProps {
  /** Route id of the route table: the title is `routes.<id>`. */
  routeId: string;
  description?: ReactNode;
  /** The "new" button, beside the title and in the empty state; null for profiles that may not write. */
  add?: { label: string; onClick(): void; testId: string } | null;
  /** Other buttons at the right of the title. */
  actions?: ReactNode;
  /** Sub-navigation between sibling screens (kanban, settings). */
  tabs?: ReactNode;
  list: ListState;
  isEmpty: boolean;
  empty: { icon: IconName; title: string; description?: string };
  /** Shown above the list when the profile may only read. */
  readOnlyNotice?: string | null;
  /** Form dialogs and delete alerts: mounted whatever the list's state (an empty list opens "create"). */
  dialogs?: ReactNode;
  children: ReactNode;
}

/**
 * The frame of every CRM screen: title, actions, and the loading, failed and empty states
 * (NonIdealState), so each feature only draws its list.
 */
export function CrudPage(props: CrudPageProps) {
  const { routeId, description, add, actions, tabs, list, isEmpty, empty, readOnlyNotice, dialogs, children } = props;
  const { t } = useTranslation();
  let body: ReactNode;
  if (list.isLoading) {
    body = <NonIdealState icon={<Spinner size={40} />} title={t('common.loading')} />;
  } else if (list.isError) {
    body = (
      <NonIdealState
        icon="warning-sign"
        title={t('crud.loadFailed')}
        action={<Button icon="refresh" text={t('common.retry')} onClick={() => void list.refetch()} />}
      />
    );
  } else if (isEmpty) {
    body = (
      <NonIdealState
        icon={empty.icon}
        title={empty.title}
        description={empty.description}
        action={
          add ? <Button icon="add" text={add.label} onClick={add.onClick} data-testid={`${add.testId}-empty`} /> : undefined
        }
      />
    );
  } else {
    body = children;
  }
  return (
    <div className="page crud-page" data-testid={`page-${routeId.replace(/\//g, '-')}`}>
      {tabs}
      <PageHeader
        title={t(`routes.${routeId}`)}
        description={description}
        actions={
          actions || add ? (
            <>
              {actions}
              {add ? (
                <Button intent="primary" icon="add" text={add.label} onClick={add.onClick} data-testid={add.testId} />
              ) : null}
            </>
          ) : null
        }
      />
      {readOnlyNotice ? (
        <Callout icon="lock" className="crud-page-notice" data-testid="read-only-notice">
          {readOnlyNotice}
        </Callout>
      ) : null}
      {body}
      {dialogs}
    </div>
  );
}
