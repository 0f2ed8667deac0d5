import { Button, HTMLTable, Icon, Tooltip } from '@blueprintjs/core';
import { useState, type DragEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RowActions } from '../../app/crud/row-actions';
import { dropIndex, isLowerHalf, reorderedIds } from './reorder-list';

export interface ReorderableItem {
  id: number;
  name: string;
  color: string;
}

export interface ReorderableTableProps<T extends ReorderableItem> {
  items: T[];
  /** Extra columns after the name (header cells and row cells). */
  extraHeaders?: ReactNode;
  extraCells?(item: T): ReactNode;
  canWrite: boolean;
  /** The new order, every id once. */
  onReorder(ids: number[]): void;
  onEdit(item: T): void;
  onDelete(item: T): void;
  testId: string;
}

/** Dragged row and where it would land, for the drop indicator. */
interface DragState {
  from: number;
  over: number | null;
  after: boolean;
}

/**
 * A positioned list (kanban columns, lanes) reordered with native HTML5 drag and drop, or from
 * the keyboard with the move up / move down buttons of each row. Every move is announced in a
 * live region for screen readers.
 */
export function ReorderableTable<T extends ReorderableItem>(props: ReorderableTableProps<T>) {
  const { items, extraHeaders, extraCells, canWrite, onReorder, onEdit, onDelete, testId } = props;
  const { t } = useTranslation();
  const [drag, setDrag] = useState<DragState | null>(null);
  const [announcement, setAnnouncement] = useState('');

  const move = (from: number, to: number) => {
    const ids = reorderedIds(items, from, to);
    if (!ids) return;
    onReorder(ids);
    setAnnouncement(t('kanban.moved', { name: items[from].name, position: to + 1, total: items.length }));
  };

  const onDragStart = (index: number) => (event: DragEvent<HTMLTableRowElement>) => {
    event.dataTransfer.effectAllowed = 'move';
    // Some browsers start a drag only when data is set.
    event.dataTransfer.setData('text/plain', String(items[index].id));
    setDrag({ from: index, over: null, after: false });
  };

  const onDragOver = (index: number) => (event: DragEvent<HTMLTableRowElement>) => {
    if (!drag) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    const rect = event.currentTarget.getBoundingClientRect();
    const after = isLowerHalf(event.clientY, rect.top, rect.height);
    if (drag.over !== index || drag.after !== after) setDrag({ ...drag, over: index, after });
  };

  const onDrop = (index: number) => (event: DragEvent<HTMLTableRowElement>) => {
    event.preventDefault();
    if (!drag) return;
    const rect = event.currentTarget.getBoundingClientRect();
    move(drag.from, dropIndex(drag.from, index, isLowerHalf(event.clientY, rect.top, rect.height)));
    setDrag(null);
  };

  const rowClass = (index: number): string | undefined => {
    if (!drag) return undefined;
    const classes = [];
    if (drag.from === index) classes.push('reorder-dragging');
    if (drag.over === index && drag.over !== drag.from) classes.push(drag.after ? 'reorder-drop-after' : 'reorder-drop-before');
    return classes.join(' ') || undefined;
  };

  return (
    <>
      <HTMLTable className="crud-table reorder-table" data-testid={testId}>
        <thead>
          <tr>
            {canWrite ? <th className="crud-col-narrow" aria-label={t('kanban.dragColumn')} /> : null}
            <th className="crud-col-narrow">{t('kanban.position')}</th>
            <th>{t('crud.name')}</th>
            {extraHeaders}
            {canWrite ? <th className="crud-col-actions">{t('crud.actions')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {items.map((item, index) => (
            <tr
              key={item.id}
              data-testid={`${testId}-row`}
              data-id={item.id}
              draggable={canWrite}
              onDragStart={canWrite ? onDragStart(index) : undefined}
              onDragOver={canWrite ? onDragOver(index) : undefined}
              onDrop={canWrite ? onDrop(index) : undefined}
              onDragEnd={() => setDrag(null)}
              className={rowClass(index)}
            >
              {canWrite ? (
                <td className="crud-col-narrow reorder-handle" title={t('kanban.dragHint')}>
                  <Icon icon="drag-handle-vertical" />
                </td>
              ) : null}
              <td className="crud-col-narrow">{index + 1}</td>
              <td>
                <span className="crud-swatch" style={{ background: item.color }} aria-hidden />
                <span data-testid={`${testId}-name`}>{item.name}</span>
              </td>
              {extraCells?.(item)}
              {canWrite ? (
                <td className="crud-col-actions">
                  <Tooltip content={t('kanban.moveUp')} placement="top">
                    <Button
                      variant="minimal"
                      icon="arrow-up"
                      disabled={index === 0}
                      aria-label={t('kanban.moveUpNamed', { name: item.name })}
                      onClick={() => move(index, index - 1)}
                      data-testid="row-move-up"
                    />
                  </Tooltip>
                  <Tooltip content={t('kanban.moveDown')} placement="top">
                    <Button
                      variant="minimal"
                      icon="arrow-down"
                      disabled={index === items.length - 1}
                      aria-label={t('kanban.moveDownNamed', { name: item.name })}
                      onClick={() => move(index, index + 1)}
                      data-testid="row-move-down"
                    />
                  </Tooltip>
                  <RowActions name={item.name} onEdit={() => onEdit(item)} onDelete={() => onDelete(item)} />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <div className="visually-hidden" role="status" aria-live="polite" data-testid="reorder-announcement">
        {announcement}
      </div>
    </>
  );
}
