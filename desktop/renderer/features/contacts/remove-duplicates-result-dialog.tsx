import { Button, Dialog, DialogBody, DialogFooter } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { RemoveDuplicatesResponse } from '../../api/contacts.api';

/** What POST /contacts/remove-duplicates did, count by count, each with what it means. */
export function RemoveDuplicatesResultDialog({ result, onClose }: { result: RemoveDuplicatesResponse; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const rows = [
    { id: 'merged', label: t('contacts.duplicates.merged'), help: t('contacts.duplicates.mergedHelp'), value: result.merged },
    { id: 'removed', label: t('contacts.duplicates.removed'), help: t('contacts.duplicates.removedHelp'), value: result.removed },
    {
      id: 'normalized',
      label: t('contacts.duplicates.normalized'),
      help: t('contacts.duplicates.normalizedHelp'),
      value: result.normalized,
    },
    { id: 'skipped', label: t('contacts.duplicates.skipped'), help: t('contacts.duplicates.skippedHelp'), value: result.skipped },
  ];
  return (
    <Dialog isOpen title={t('contacts.duplicates.resultTitle')} icon="merge-columns" onClose={onClose} className="crud-dialog">
      <DialogBody>
        <dl className="duplicates-result" data-testid="duplicates-result">
          {rows.map((row) => (
            <div key={row.id} className="duplicates-result-row" data-testid={`duplicates-${row.id}`}>
              <dt>
                {row.label}
                <span className="crud-muted duplicates-result-help">{row.help}</span>
              </dt>
              <dd>{row.value.toLocaleString(i18n.language)}</dd>
            </div>
          ))}
        </dl>
      </DialogBody>
      <DialogFooter
        actions={<Button intent="primary" text={t('contacts.import.close')} onClick={onClose} data-testid="duplicates-close" />}
      />
    </Dialog>
  );
}
