import { Button, Tooltip } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

/** Edit and delete buttons of a list row, labelled with the item's name for screen readers. */
export function RowActions({ name, onEdit, onDelete }: { name: string; onEdit(): void; onDelete(): void }) {
  const { t } = useTranslation();
  return (
    <span className="crud-row-actions">
      <Tooltip content={t('crud.edit')} placement="top">
        <Button variant="minimal" icon="edit" aria-label={`${t('crud.edit')}: ${name}`} onClick={onEdit} data-testid="row-edit" />
      </Tooltip>
      <Tooltip content={t('crud.delete')} placement="top">
        <Button
          variant="minimal"
          intent="danger"
          icon="trash"
          aria-label={`${t('crud.delete')}: ${name}`}
          onClick={onDelete}
          data-testid="row-delete"
        />
      </Tooltip>
    </span>
  );
}
