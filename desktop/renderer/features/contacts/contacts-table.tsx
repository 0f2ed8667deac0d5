import { Button, HTMLTable, Switch, Tooltip } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { ContactDto } from '../../api/contacts.api';
import { RowActions } from '../../app/crud/row-actions';
import { TagColorChip } from '../tags/tag-color-chip';
import { ContactAvatar } from './contact-avatar';
import { formatContactNumber } from './contact-display';

export interface ContactsTableProps {
  contacts: ContactDto[];
  /** Delete needs a supervisor or admin (docs/api.md); others see edit only. */
  canDelete: boolean;
  onEdit(contact: ContactDto): void;
  onDelete(contact: ContactDto): void;
  onToggleBlock(contact: ContactDto, flag: 'blockContact' | 'blockChatbot', value: boolean): void;
}

/** One page of contacts: who, how to reach them, tags, responsible users and block flags. */
export function ContactsTable({ contacts, canDelete, onEdit, onDelete, onToggleBlock }: ContactsTableProps) {
  const { t } = useTranslation();
  return (
    <HTMLTable className="crud-table contacts-table" striped interactive data-testid="contacts-table">
      <thead>
        <tr>
          <th>{t('contacts.columns.contact')}</th>
          <th>{t('contacts.fields.number')}</th>
          <th>{t('contacts.fields.email')}</th>
          <th>{t('contacts.fields.tags')}</th>
          <th>{t('contacts.fields.wallets')}</th>
          <th className="crud-col-narrow">{t('contacts.columns.blocks')}</th>
          <th className="crud-col-actions">{t('crud.actions')}</th>
        </tr>
      </thead>
      <tbody>
        {contacts.map((contact) => (
          <tr key={contact.id} data-testid="contact-row" data-contact-id={contact.id}>
            <td>
              <span className="contact-identity">
                <ContactAvatar name={contact.name} pictureUrl={contact.profilePicUrl} />
                <span className="contact-identity-text">
                  <span className="contact-name" data-testid="contact-name">
                    {contact.name}
                  </span>
                  {contact.businessName ? <span className="contact-secondary">{contact.businessName}</span> : null}
                </span>
              </span>
            </td>
            <td className="contact-number" data-testid="contact-number">
              {contact.number ? (
                formatContactNumber(contact.number)
              ) : (
                <span className="contact-secondary">{t('contacts.noNumber')}</span>
              )}
            </td>
            <td className="contact-email">{contact.email ?? ''}</td>
            <td>
              <span className="contact-chips">
                {contact.tags.map((tag) => (
                  <TagColorChip key={tag.id} name={tag.name} color={tag.color} />
                ))}
              </span>
            </td>
            <td className="contact-wallets">{contact.wallets.map((wallet) => wallet.name).join(', ')}</td>
            <td className="crud-col-narrow">
              <span className="contact-blocks">
                <Switch
                  className="contact-block-switch"
                  checked={contact.blockContact}
                  label={t('contacts.blockShort.contact')}
                  aria-label={`${t('contacts.fields.blockContact')}: ${contact.name}`}
                  onChange={(event) => onToggleBlock(contact, 'blockContact', event.currentTarget.checked)}
                  data-testid="block-contact-switch"
                />
                <Switch
                  className="contact-block-switch"
                  checked={contact.blockChatbot}
                  label={t('contacts.blockShort.chatbot')}
                  aria-label={`${t('contacts.fields.blockChatbot')}: ${contact.name}`}
                  onChange={(event) => onToggleBlock(contact, 'blockChatbot', event.currentTarget.checked)}
                  data-testid="block-chatbot-switch"
                />
              </span>
            </td>
            <td className="crud-col-actions">
              {canDelete ? (
                <RowActions name={contact.name} onEdit={() => onEdit(contact)} onDelete={() => onDelete(contact)} />
              ) : (
                <Tooltip content={t('crud.edit')} placement="top">
                  <Button
                    variant="minimal"
                    icon="edit"
                    aria-label={`${t('crud.edit')}: ${contact.name}`}
                    onClick={() => onEdit(contact)}
                    data-testid="row-edit"
                  />
                </Tooltip>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
