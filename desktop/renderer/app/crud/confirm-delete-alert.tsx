import { Alert } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';

export interface ConfirmDeleteAlertProps {
  /** What is about to be deleted (its name); null when the alert is closed. */
  itemName: string | null;
  deleting: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** Every delete asks first, naming the item; a refusal is reported by the base query's toast. */
export function ConfirmDeleteAlert({ itemName, deleting, onConfirm, onCancel }: ConfirmDeleteAlertProps) {
  const { t } = useTranslation();
  return (
    <Alert
      isOpen={itemName !== null}
      intent="danger"
      icon="trash"
      confirmButtonText={t('crud.delete')}
      cancelButtonText={t('common.cancel')}
      loading={deleting}
      onConfirm={onConfirm}
      onCancel={onCancel}
      canEscapeKeyCancel={!deleting}
      className="crud-delete-alert"
    >
      <p data-testid="confirm-delete-text">{t('crud.deleteConfirm', { name: itemName ?? '' })}</p>
    </Alert>
  );
}
