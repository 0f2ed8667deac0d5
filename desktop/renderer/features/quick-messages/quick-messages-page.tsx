import { Button, HTMLTable, Icon, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useDeleteQuickMessageMutation,
  useFetchQuickMessageFileMutation,
  useListQuickMessagesQuery,
  type QuickMessage,
} from '../../api/quick-messages.api';
import { showToast } from '../../app/feedback/toaster';
import { ActiveTag } from '../../app/crud/active-tag';
import { ConfirmDeleteAlert } from '../../app/crud/confirm-delete-alert';
import { CrudPage } from '../../app/crud/crud-page';
import { RowActions } from '../../app/crud/row-actions';
import { useWriteAccess } from '../../app/crud/write-access';
import { QuickMessageFormDialog } from './quick-message-form-dialog';

/** /mensagens-rapidas: answers an agent sends by typing "/" and the key in the chat. */
export function QuickMessagesPage() {
  const { t } = useTranslation();
  const { canWrite } = useWriteAccess();
  const list = useListQuickMessagesQuery();
  const [editing, setEditing] = useState<QuickMessage | 'new' | null>(null);
  const [deleting, setDeleting] = useState<QuickMessage | null>(null);
  const [deleteQuickMessage, deletion] = useDeleteQuickMessageMutation();
  const [fetchFile] = useFetchQuickMessageFileMutation();
  const quickMessages = list.data ?? [];

  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await deleteQuickMessage(deleting.id);
    if (!('error' in result)) showToast(t('crud.deleted'), 'success');
    setDeleting(null);
  };

  // The file needs the bearer token, so it is fetched and handed to the browser as a download.
  const download = async (quickMessage: QuickMessage) => {
    const result = await fetchFile(quickMessage.id);
    if ('error' in result || !result.data) return;
    const link = document.createElement('a');
    link.href = result.data;
    link.download = quickMessage.mediaName ?? 'arquivo';
    link.click();
    setTimeout(() => URL.revokeObjectURL(result.data), 60_000);
  };

  return (
    <CrudPage
      routeId="mensagensRapidas"
      description={t('quickMessages.description')}
      add={canWrite ? { label: t('quickMessages.add'), onClick: () => setEditing('new'), testId: 'quick-message-add' } : null}
      readOnlyNotice={canWrite ? null : t('crud.readOnly')}
      list={list}
      isEmpty={quickMessages.length === 0}
      empty={{ icon: 'flash', title: t('quickMessages.empty'), description: t('quickMessages.emptyHelp') }}
      dialogs={
        <>
          {editing ? (
            <QuickMessageFormDialog quickMessage={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
          ) : null}
          <ConfirmDeleteAlert
            itemName={deleting ? `/${deleting.key}` : null}
            deleting={deletion.isLoading}
            onConfirm={() => void confirmDelete()}
            onCancel={() => setDeleting(null)}
          />
        </>
      }
    >
      <HTMLTable className="crud-table" striped interactive data-testid="quick-message-table">
        <thead>
          <tr>
            <th className="crud-col-narrow">{t('quickMessages.key')}</th>
            <th>{t('quickMessages.message')}</th>
            <th>{t('quickMessages.file')}</th>
            <th className="crud-col-narrow">{t('crud.status')}</th>
            {canWrite ? <th className="crud-col-actions">{t('crud.actions')}</th> : null}
          </tr>
        </thead>
        <tbody>
          {quickMessages.map((quickMessage) => (
            <tr key={quickMessage.id} data-testid="quick-message-row">
              <td className="crud-col-narrow">
                <code>/{quickMessage.key}</code>
              </td>
              <td className="crud-cell-text" title={quickMessage.message}>
                {quickMessage.message || <span className="crud-muted">{t('quickMessages.fileOnly')}</span>}
              </td>
              <td>
                {quickMessage.mediaName ? (
                  <span className="quick-message-file-cell">
                    <Button
                      variant="minimal"
                      size="small"
                      icon="paperclip"
                      text={quickMessage.mediaName}
                      title={t('quickMessages.download')}
                      onClick={() => void download(quickMessage)}
                      data-testid="quick-message-file"
                    />
                    {quickMessage.sendAsVoice ? (
                      <Tag minimal round icon="microphone" intent="primary">
                        {t('quickMessages.voiceTag')}
                      </Tag>
                    ) : null}
                  </span>
                ) : (
                  <span className="crud-muted">
                    <Icon icon="minus" size={12} /> {t('quickMessages.noFile')}
                  </span>
                )}
              </td>
              <td className="crud-col-narrow">
                <ActiveTag active={quickMessage.active} />
              </td>
              {canWrite ? (
                <td className="crud-col-actions">
                  <RowActions
                    name={`/${quickMessage.key}`}
                    onEdit={() => setEditing(quickMessage)}
                    onDelete={() => setDeleting(quickMessage)}
                  />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </CrudPage>
  );
}
