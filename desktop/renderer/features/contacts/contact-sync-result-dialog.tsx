import { Button, Callout, Dialog, DialogBody, DialogFooter, HTMLTable } from '@blueprintjs/core';
import type { ContactSyncAnswer } from '@shared/schemas/groups';
import { useTranslation } from 'react-i18next';

/** What POST /contacts/sync did: created, updated and skipped per channel; channels that cannot sync say why. */
export function ContactSyncResultDialog({ result, onClose }: { result: ContactSyncAnswer; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const n = (value: number) => value.toLocaleString(i18n.language);
  return (
    <Dialog isOpen title={t('contacts.syncResult.title')} icon="refresh" onClose={onClose} className="crud-dialog">
      <DialogBody>
        <p className="crud-muted">{t('contacts.syncResult.help')}</p>
        <HTMLTable compact striped data-testid="contacts-sync-result">
          <thead>
            <tr>
              <th />
              <th>{t('contacts.syncResult.created')}</th>
              <th>{t('contacts.syncResult.updated')}</th>
              <th>{t('contacts.syncResult.skipped')}</th>
            </tr>
          </thead>
          <tbody>
            {result.channels
              .filter((c) => !c.error)
              .map((c) => (
                <tr key={c.whatsappId} data-testid={`contacts-sync-channel-${c.whatsappId}`}>
                  <td>{c.name}</td>
                  <td>{n(c.created)}</td>
                  <td>{n(c.updated)}</td>
                  <td>{n(c.skipped)}</td>
                </tr>
              ))}
            <tr data-testid="contacts-sync-total">
              <th>{t('contacts.syncResult.total')}</th>
              <th>{n(result.created)}</th>
              <th>{n(result.updated)}</th>
              <th>{n(result.skipped)}</th>
            </tr>
          </tbody>
        </HTMLTable>
        {result.channels
          .filter((c) => c.error)
          .map((c) => (
            <Callout key={c.whatsappId} intent="warning" className="contacts-sync-unsupported" data-testid={`contacts-sync-unsupported-${c.whatsappId}`}>
              {c.message}
            </Callout>
          ))}
      </DialogBody>
      <DialogFooter actions={<Button intent="primary" text={t('contacts.syncResult.close')} onClick={onClose} data-testid="contacts-sync-close" />} />
    </Dialog>
  );
}
