import { Button, Card, HTMLTable, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { PROFILES, type Profile } from '@shared/profiles';
import { SendNotificationSchema } from '@shared/schemas/notifications';
import {
  useDeleteNotificationMutation,
  useListNotificationTenantsQuery,
  useListSentNotificationsQuery,
  useSendNotificationMutation,
  type SentNotificationDto,
} from '../../api/notifications.api';
import { ConfirmDeleteAlert } from '../../app/crud/confirm-delete-alert';
import { PageHeader } from '../../app/layout/page-header';
import { showToast } from '../../app/feedback/toaster';
import { FormErrorSummary, MultiSelectField } from '../../app/forms/form-fields';
import { TextAreaField } from '../../app/forms/text-area-field';
import { useZodForm } from '../../app/forms/use-zod-form';
import { formatNotificationDate } from './notification-date';
import './notifications.css';

/** The form: an empty choice of tenants or profiles means all of them (the API's null). */
const NotificationFormSchema = z.object({
  message: SendNotificationSchema.shape.message,
  tenantIds: z.array(z.number()),
  profiles: z.array(z.enum(PROFILES)),
});
type NotificationFormValues = { message: string; tenantIds: number[]; profiles: Profile[] };

/** /notificacao: the super administrator sends a message to every tenant's users or to chosen ones. */
export function NotificationsPage() {
  const { t, i18n } = useTranslation();
  const sent = useListSentNotificationsQuery();
  const tenants = useListNotificationTenantsQuery();
  const [send, sending] = useSendNotificationMutation();
  const [remove, removing] = useDeleteNotificationMutation();
  const [deleting, setDeleting] = useState<SentNotificationDto | null>(null);
  const form = useZodForm<NotificationFormValues, z.infer<typeof NotificationFormSchema>>(NotificationFormSchema, {
    message: '',
    tenantIds: [],
    profiles: [],
  });

  const submit = form.handleSubmit(async (values) => {
    const result = await send({
      message: values.message,
      tenantIds: values.tenantIds.length > 0 ? values.tenantIds : null,
      profiles: values.profiles.length > 0 ? values.profiles : null,
    });
    if ('error' in result) return;
    showToast(t('notifications.sent'), 'success');
    form.reset({ message: '', tenantIds: [], profiles: [] });
  });

  const confirmDelete = async () => {
    if (!deleting) return;
    const result = await remove(deleting.id);
    if (!('error' in result)) showToast(t('crud.deleted'), 'success');
    setDeleting(null);
  };

  const tenantOptions = (tenants.data ?? []).map((tenant) => ({ value: tenant.id, label: tenant.name, hint: `#${tenant.id}` }));
  const profileOptions = PROFILES.map((profile) => ({ value: profile, label: t(`profiles.${profile}`) }));
  const rows = sent.data?.notifications ?? [];

  return (
    <div className="crud-page" data-testid="notifications-page">
      <PageHeader title={t('routes.notificacao')} description={t('notifications.description')} />
      <Card className="notifications-form">
        <form onSubmit={(event) => void submit(event)} noValidate>
          <TextAreaField control={form.control} name="message" label={t('notifications.message')} required rows={4} testId="notification-message" />
          <MultiSelectField
            control={form.control}
            name="tenantIds"
            label={t('notifications.tenants')}
            helperText={t('notifications.tenantsHelp')}
            options={tenantOptions}
            placeholder={t('notifications.allTenants')}
            loading={tenants.isLoading}
            emptyText={t('notifications.noTenants')}
            testId="notification-tenants"
          />
          <MultiSelectField
            control={form.control}
            name="profiles"
            label={t('notifications.profiles')}
            helperText={t('notifications.profilesHelp')}
            options={profileOptions}
            placeholder={t('notifications.allProfiles')}
            emptyText={t('notifications.allProfiles')}
            testId="notification-profiles"
          />
          <FormErrorSummary control={form.control} />
          <Button type="submit" intent="primary" icon="send-message" text={t('notifications.send')} loading={sending.isLoading} data-testid="notification-send" />
        </form>
      </Card>
      <HTMLTable className="crud-table" striped data-testid="sent-notification-table">
        <thead>
          <tr>
            <th>{t('notifications.message')}</th>
            <th>{t('notifications.tenants')}</th>
            <th>{t('notifications.profiles')}</th>
            <th className="crud-col-narrow">{t('notifications.reads')}</th>
            <th className="crud-col-narrow">{t('notifications.date')}</th>
            <th className="crud-col-actions">{t('crud.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={6} className="crud-muted">
                {t('notifications.noneSent')}
              </td>
            </tr>
          ) : (
            rows.map((n) => (
              <tr key={n.id} data-testid="sent-notification-row">
                <td className="crud-cell-text" title={n.message}>
                  {n.message}
                </td>
                <td>{n.tenants ? n.tenants.map((tenant) => <Tag key={tenant.id} minimal className="notification-tag">{tenant.name}</Tag>) : t('notifications.allTenants')}</td>
                <td>{n.profiles ? n.profiles.map((p) => t(`profiles.${p}`)).join(', ') : t('notifications.allProfiles')}</td>
                <td className="crud-col-narrow">{n.readCount}</td>
                <td className="crud-col-narrow">{formatNotificationDate(n.createdAt, i18n.language)}</td>
                <td className="crud-col-actions">
                  <Button variant="minimal" icon="trash" intent="danger" aria-label={t('crud.delete')} onClick={() => setDeleting(n)} data-testid="sent-notification-delete" />
                </td>
              </tr>
            ))
          )}
        </tbody>
      </HTMLTable>
      <ConfirmDeleteAlert
        itemName={deleting ? deleting.message.slice(0, 60) : null}
        deleting={removing.isLoading}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
