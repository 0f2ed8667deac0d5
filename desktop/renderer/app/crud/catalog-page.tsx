import { HTMLTable, type IconName } from '@blueprintjs/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../feedback/toaster';
import { ConfirmDeleteAlert } from './confirm-delete-alert';
import { CrudPage, type ListState } from './crud-page';
import { RowActions } from './row-actions';
import { useWriteAccess } from './write-access';

export interface CatalogColumn<T> {
  header: ReactNode;
  /** Cell class (crud-col-narrow, crud-cell-text ...), also given to the header. */
  className?: string;
  cell(item: T): ReactNode;
  /** A title attribute for the cell (the full text of a truncated one). */
  title?(item: T): string | undefined;
}

export interface CatalogPageProps<T extends { id: number; name: string }> {
  routeId: string;
  tabs?: ReactNode;
  description: ReactNode;
  /** The list query (RTK Query's result). */
  list: ListState & { data?: T[] };
  /** Test ids: `<testId>-add`, `<testId>-table`, `<testId>-row`. */
  testId: string;
  addLabel: string;
  empty: { icon: IconName; title: string; description?: string };
  /** The table's columns (edit and delete are added for profiles that may write). */
  columns?: CatalogColumn<T>[];
  /** Or a list of its own (e.g. a reorderable table), given the row actions. */
  renderList?(items: T[], actions: { canWrite: boolean; edit(item: T): void; remove(item: T): void }): ReactNode;
  /** The delete mutation's trigger; a refusal is toasted by the base query with the server's text. */
  remove(id: number): Promise<{ error?: unknown }>;
  removing: boolean;
  /** The create (item null) or edit dialog; `items` is the list as loaded (e.g. for the next position). */
  form(item: T | null, close: () => void, items: T[]): ReactNode;
}

/**
 * A catalogue screen (queues, tags, teams, reasons ...): the CRUD frame, a table of the given
 * columns with edit and delete actions for profiles that may write, the form dialog and the
 * delete confirmation. Each feature gives only its columns and its form.
 */
export function CatalogPage<T extends { id: number; name: string }>(props: CatalogPageProps<T>) {
  const { t } = useTranslation();
  const { canWrite } = useWriteAccess();
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const items = props.list.data ?? [];

  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await props.remove(deleting.id);
    if (!('error' in result) || result.error === undefined) showToast(t('crud.deleted'), 'success');
    setDeleting(null);
  };

  return (
    <CrudPage
      routeId={props.routeId}
      tabs={props.tabs}
      description={props.description}
      add={canWrite ? { label: props.addLabel, onClick: () => setEditing('new'), testId: `${props.testId}-add` } : null}
      readOnlyNotice={canWrite ? null : t('crud.readOnly')}
      list={props.list}
      isEmpty={items.length === 0}
      empty={props.empty}
      dialogs={
        <>
          {editing ? props.form(editing === 'new' ? null : editing, () => setEditing(null), items) : null}
          <ConfirmDeleteAlert
            itemName={deleting?.name ?? null}
            deleting={props.removing}
            onConfirm={() => void confirmDelete()}
            onCancel={() => setDeleting(null)}
          />
        </>
      }
    >
      {props.renderList ? (
        props.renderList(items, { canWrite, edit: setEditing, remove: setDeleting })
      ) : (
        <HTMLTable className="crud-table" striped interactive data-testid={`${props.testId}-table`}>
          <thead>
            <tr>
              {(props.columns ?? []).map((column, i) => (
                <th key={i} className={column.className}>
                  {column.header}
                </th>
              ))}
              {canWrite ? <th className="crud-col-actions">{t('crud.actions')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id} data-testid={`${props.testId}-row`}>
                {(props.columns ?? []).map((column, i) => (
                  <td key={i} className={column.className} title={column.title?.(item)}>
                    {column.cell(item)}
                  </td>
                ))}
                {canWrite ? (
                  <td className="crud-col-actions">
                    <RowActions name={item.name} onEdit={() => setEditing(item)} onDelete={() => setDeleting(item)} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
    </CrudPage>
  );
}
