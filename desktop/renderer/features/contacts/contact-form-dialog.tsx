import { Button, FormGroup, H6, HTMLSelect, InputGroup, Switch } from '@blueprintjs/core';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateContactMutation, useUpdateContactMutation, type ContactDto } from '../../api/contacts.api';
import { CheckboxListField, type CheckboxOption } from '../../app/crud/checkbox-list-field';
import { FormDialog } from '../../app/crud/form-dialog';
import { formFailureOf } from '../../app/crud/form-errors';
import { showToast } from '../../app/feedback/toaster';
import { maskBirthdayInput } from './birthday-entry';
import {
  contactToForm,
  emptyContactForm,
  formPathOfServerPath,
  newExtraInfoRow,
  toCreateBody,
  toUpdateBody,
  validateContactForm,
  type ContactFormValues,
  type ContactTextField,
  type FieldProblem,
} from './contact-form';

export interface ContactFormDialogProps {
  /** null: a new contact. */
  contact: ContactDto | null;
  tagOptions: CheckboxOption[];
  kanbanOptions: { id: number; name: string }[];
  /** Null for profiles that may not change wallets (docs/api.md: super or admin). */
  walletOptions: CheckboxOption[] | null;
  onClose(): void;
}

/** Field errors as texts: a local problem (i18n key) or the server's sentence. */
type FieldErrors = Record<string, string>;

/**
 * Create or edit a contact with every field of spec section 3. The rules are the server's
 * (its zod schema runs here first); what the server still refuses is shown on the field it
 * names, and a number another contact already has (ERR_DUPLICATED_CONTACT) on the number.
 */
export function ContactFormDialog({ contact, tagOptions, kanbanOptions, walletOptions, onClose }: ContactFormDialogProps) {
  const { t } = useTranslation();
  const initial = useMemo(() => (contact ? contactToForm(contact) : emptyContactForm()), [contact]);
  const [values, setValues] = useState<ContactFormValues>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [createContact, creating] = useCreateContactMutation();
  const [updateContact, updating] = useUpdateContactMutation();
  const canEditWallets = walletOptions !== null;

  const describe = (problem: FieldProblem) => t(problem.messageKey, problem.values);

  const change = <K extends keyof ContactFormValues>(field: K, value: ContactFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    // The field's old complaint goes as soon as it is edited; the next save checks again.
    if (errors[field as string]) setErrors(({ [field as string]: _gone, ...rest }) => rest);
  };

  const submit = async () => {
    setFailure(null);
    const problems = validateContactForm(values);
    const local: FieldErrors = Object.fromEntries(Object.entries(problems).map(([path, problem]) => [path, describe(problem)]));
    setErrors(local);
    if (Object.keys(local).length > 0) {
      setFailure(t('contacts.form.fixFields'));
      return;
    }
    try {
      if (contact) {
        const body = toUpdateBody(initial, values, { canEditWallets });
        if (Object.keys(body).length > 0) await updateContact({ id: contact.id, body }).unwrap();
      } else {
        await createContact(toCreateBody(values, { canEditWallets })).unwrap();
      }
      showToast(t('contacts.saved'), 'success');
      onClose();
    } catch (error) {
      const refused = formFailureOf(error, t);
      const fields: FieldErrors = {};
      for (const [path, text] of Object.entries(refused.fields)) fields[formPathOfServerPath(path, values)] = text;
      if (refused.code === 'ERR_DUPLICATED_CONTACT') fields.number = refused.message;
      setErrors(fields);
      setFailure(refused.message);
    }
  };

  const textField = (
    field: ContactTextField,
    options: { required?: boolean; placeholder?: string; helper?: string; type?: string } = {},
  ) => {
    const id = `contact-${field}`;
    const error = errors[field];
    return (
      <FormGroup
        label={t(`contacts.fields.${field}`)}
        labelFor={id}
        labelInfo={options.required ? '*' : undefined}
        intent={error ? 'danger' : 'none'}
        helperText={error ?? options.helper}
        className="contact-form-field"
        data-testid={`contact-group-${field}`}
      >
        <InputGroup
          id={id}
          type={options.type ?? 'text'}
          value={values[field]}
          placeholder={options.placeholder}
          intent={error ? 'danger' : 'none'}
          autoFocus={field === 'name'}
          inputMode={field === 'birthday' || field === 'cpfCnpj' ? 'numeric' : field === 'number' ? 'tel' : undefined}
          onChange={(event) =>
            change(field, field === 'birthday' ? maskBirthdayInput(event.currentTarget.value) : event.currentTarget.value)
          }
          data-testid={`contact-field-${field}`}
        />
      </FormGroup>
    );
  };

  const section = (title: string, children: ReactNode, wide = false) => (
    <section className={wide ? 'contact-form-section is-wide' : 'contact-form-section'}>
      <H6 className="contact-form-section-title">{title}</H6>
      <div className="contact-form-grid">{children}</div>
    </section>
  );

  const setExtraRow = (index: number, patch: Partial<{ name: string; value: string }>) => {
    setValues((current) => ({
      ...current,
      extraInfo: current.extraInfo.map((row, i) => (i === index ? { ...row, ...patch } : row)),
    }));
    for (const key of Object.keys(patch)) {
      const path = `extraInfo.${index}.${key}`;
      if (errors[path]) setErrors(({ [path]: _gone, ...rest }) => rest);
    }
  };

  return (
    <FormDialog
      isOpen
      wide
      title={contact ? t('contacts.form.editTitle', { name: contact.name }) : t('contacts.form.createTitle')}
      icon="person"
      saving={creating.isLoading || updating.isLoading}
      error={failure}
      onSubmit={() => void submit()}
      onClose={onClose}
      testId="contact-form"
    >
      <div className="contact-form">
        {section(
          t('contacts.form.main'),
          <>
            {textField('name', { required: true })}
            {textField('number', { placeholder: '+55 (11) 98765-4321', helper: t('contacts.form.numberHelp') })}
            {textField('email', { type: 'email', placeholder: 'nome@empresa.com.br' })}
            {textField('cpfCnpj', { placeholder: '000.000.000-00', helper: t('contacts.form.cpfCnpjHelp') })}
            {textField('birthday', { placeholder: t('contacts.form.datePlaceholder') })}
            {textField('businessName')}
            {textField('firstName')}
            {textField('lastName')}
          </>,
        )}
        {section(
          t('contacts.form.channels'),
          <>
            {textField('messengerId')}
            {textField('instagramId')}
            {textField('hubWhatsappId')}
            {textField('telegramId')}
          </>,
        )}
        {section(
          t('contacts.form.crm'),
          <>
            <FormGroup label={t('contacts.fields.kanban')} labelFor="contact-kanban" className="contact-form-field">
              <HTMLSelect
                id="contact-kanban"
                fill
                value={values.kanbanId ?? ''}
                onChange={(event) => change('kanbanId', event.currentTarget.value ? Number(event.currentTarget.value) : null)}
                data-testid="contact-field-kanban"
              >
                <option value="">{t('contacts.noKanban')}</option>
                {kanbanOptions.map((column) => (
                  <option key={column.id} value={column.id}>
                    {column.name}
                  </option>
                ))}
              </HTMLSelect>
            </FormGroup>
            <div className="contact-form-field is-row-start">
              <CheckboxListField
                label={t('contacts.fields.tags')}
                options={tagOptions}
                value={values.tags}
                onChange={(tags) => change('tags', tags)}
                emptyText={t('contacts.noTags')}
                helperText={errors.tags}
                testId="contact-field-tags"
              />
            </div>
            {walletOptions ? (
              <div className="contact-form-field">
                <CheckboxListField
                  label={t('contacts.fields.wallets')}
                  options={walletOptions}
                  value={values.wallets}
                  onChange={(wallets) => change('wallets', wallets)}
                  emptyText={t('contacts.noUsers')}
                  helperText={errors.wallets ?? t('contacts.form.walletsHelp')}
                  testId="contact-field-wallets"
                />
              </div>
            ) : null}
          </>,
        )}
        <section className="contact-form-section">
          <H6 className="contact-form-section-title">{t('contacts.fields.extraInfo')}</H6>
          {values.extraInfo.length === 0 ? <p className="crud-muted">{t('contacts.form.extraInfoEmpty')}</p> : null}
          <div className="contact-extra-rows" data-testid="contact-extra-info">
            {values.extraInfo.map((row, index) => (
              <div className="contact-extra-row" key={row.key} data-testid="contact-extra-row">
                <FormGroup
                  intent={errors[`extraInfo.${index}.name`] ? 'danger' : 'none'}
                  helperText={errors[`extraInfo.${index}.name`]}
                  className="contact-extra-name"
                >
                  <InputGroup
                    value={row.name}
                    placeholder={t('contacts.form.extraInfoName')}
                    aria-label={`${t('contacts.form.extraInfoName')} ${index + 1}`}
                    intent={errors[`extraInfo.${index}.name`] ? 'danger' : 'none'}
                    onChange={(event) => setExtraRow(index, { name: event.currentTarget.value })}
                  />
                </FormGroup>
                <FormGroup
                  intent={errors[`extraInfo.${index}.value`] ? 'danger' : 'none'}
                  helperText={errors[`extraInfo.${index}.value`]}
                  className="contact-extra-value"
                >
                  <InputGroup
                    value={row.value}
                    placeholder={t('contacts.form.extraInfoValue')}
                    aria-label={`${t('contacts.form.extraInfoValue')} ${index + 1}`}
                    intent={errors[`extraInfo.${index}.value`] ? 'danger' : 'none'}
                    onChange={(event) => setExtraRow(index, { value: event.currentTarget.value })}
                  />
                </FormGroup>
                <Button
                  variant="minimal"
                  intent="danger"
                  icon="trash"
                  aria-label={`${t('contacts.form.extraInfoRemove')} ${index + 1}`}
                  onClick={() =>
                    change(
                      'extraInfo',
                      values.extraInfo.filter((_, i) => i !== index),
                    )
                  }
                />
              </div>
            ))}
          </div>
          {errors.extraInfo ? <p className="contact-form-error">{errors.extraInfo}</p> : null}
          <Button
            icon="add"
            variant="minimal"
            text={t('contacts.form.extraInfoAdd')}
            onClick={() => change('extraInfo', [...values.extraInfo, newExtraInfoRow()])}
            data-testid="contact-extra-add"
          />
        </section>
        <section className="contact-form-section">
          <H6 className="contact-form-section-title">{t('contacts.columns.blocks')}</H6>
          <Switch
            label={t('contacts.fields.blockContact')}
            checked={values.blockContact}
            onChange={(event) => change('blockContact', event.currentTarget.checked)}
            data-testid="contact-field-blockContact"
          />
          <Switch
            label={t('contacts.fields.blockChatbot')}
            checked={values.blockChatbot}
            onChange={(event) => change('blockChatbot', event.currentTarget.checked)}
            data-testid="contact-field-blockChatbot"
          />
        </section>
      </div>
    </FormDialog>
  );
}
