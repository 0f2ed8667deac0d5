import { Button, Card, FileInput, FormGroup } from '@blueprintjs/core';
import {
  GroupCreateOperationSchema,
  GroupParticipantsOperationSchema,
  GroupUpdateOperationSchema,
  type GroupOperationKind,
} from '@shared/schemas/groups';
import { useState, type ReactNode } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useExportGroupParticipantsMutation, useStartGroupOperationMutation } from '../../api/groups.api';
import '../../app/crud/crud.css';
import { FormErrorSummary, SelectField, TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { TextAreaField } from '../../app/forms/text-area-field';
import { useZodForm } from '../../app/forms/use-zod-form';
import { PageHeader } from '../../app/layout/page-header';
import { ConnectionField, GroupsField, NoGroupChannels, OperationProgress, useGroupChannels, useSingleConnection } from './group-screen-parts';

/** The frame of a mass-operation screen: header, the form (when there is a QR channel), the last operation's progress. */
function MassScreen<T extends FieldValues>({
  routeId,
  kind,
  form,
  fields,
  toBody,
  submitText,
  extraActions,
}: {
  routeId: string;
  kind: GroupOperationKind;
  form: UseFormReturn<T, unknown, Record<string, unknown>>;
  fields: ReactNode;
  toBody(parsed: Record<string, unknown>): Record<string, unknown>;
  submitText: string;
  extraActions?: ReactNode;
}) {
  const { t } = useTranslation();
  const { channels, loading } = useGroupChannels();
  const [start, starting] = useStartGroupOperationMutation();
  const [operationId, setOperationId] = useState<string | null>(null);
  useSingleConnection(form, channels);
  const submit = form.handleSubmit(async (parsed) => {
    try {
      const op = await start({ kind, body: toBody(parsed) }).unwrap();
      setOperationId(op.id);
    } catch (error) {
      showServerFailure(form.setError, error, t, Object.keys(form.getValues()));
    }
  });
  return (
    <div className="page crud-page" data-testid={`page-${routeId.replace('/', '-')}`}>
      <PageHeader title={t(`routes.${routeId}`)} description={t(`groups.describe.${kind}`)} />
      {!loading && channels.length === 0 ? (
        <NoGroupChannels />
      ) : (
        <Card compact className="groups-form">
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void submit();
            }}
          >
            <ConnectionField control={form.control} name={'whatsappId' as never} channels={channels} />
            {fields}
            <div className="groups-actions">
              <Button type="submit" intent="primary" icon="play" text={submitText} loading={starting.isLoading} data-testid="groups-operation-start" />
              {extraActions}
            </div>
            <FormErrorSummary control={form.control} testId="groups-operation-summary" />
          </form>
        </Card>
      )}
      {operationId ? <OperationProgress key={operationId} operationId={operationId} /> : null}
    </div>
  );
}

const asSchema = (schema: z.ZodType) => schema as z.ZodType<Record<string, unknown>>;

interface UpdateValues {
  whatsappId: string;
  groupIds: number[];
  subject: string;
  description: string;
  imageBase64: string;
}

/** /grupo/massagrupos: a new title, description and/or picture for the chosen groups. */
export function MassGroupsPage() {
  const { t } = useTranslation();
  const form = useZodForm<UpdateValues, Record<string, unknown>>(asSchema(GroupUpdateOperationSchema), {
    whatsappId: '',
    groupIds: [],
    subject: '',
    description: '',
    imageBase64: '',
  });
  const whatsappId = Number(form.watch('whatsappId')) || null;
  const [fileName, setFileName] = useState('');
  return (
    <MassScreen
      routeId="grupo/massagrupos"
      kind="update"
      form={form}
      submitText={t('groups.applyChanges')}
      toBody={(parsed) => parsed}
      fields={
        <>
          <GroupsField control={form.control} name="groupIds" whatsappId={whatsappId} />
          <TextField control={form.control} name="subject" label={t('groups.newSubject')} helperText={t('groups.emptyKeeps')} testId="groups-subject" />
          <TextAreaField control={form.control} name="description" label={t('groups.newDescription')} rows={3} helperText={t('groups.emptyKeeps')} testId="groups-description" />
          <FormGroup label={t('groups.newImage')} helperText={t('groups.imageHelp')}>
            <FileInput
              text={fileName || t('groups.chooseImage')}
              buttonText={t('groups.browse')}
              inputProps={{ accept: 'image/png,image/jpeg' }}
              onInputChange={(event) => {
                const file = (event.target as HTMLInputElement).files?.[0];
                if (!file) return;
                setFileName(file.name);
                const reader = new FileReader();
                reader.onload = () => form.setValue('imageBase64', String(reader.result ?? ''));
                reader.readAsDataURL(file);
              }}
              data-testid="groups-image"
            />
          </FormGroup>
        </>
      }
    />
  );
}

interface CreateValues {
  whatsappId: string;
  name: string;
  participants: string;
  quantity: string;
  description: string;
}

/** /grupo/massagrupos2: create `quantity` groups with a name and participants. */
export function MassCreateGroupsPage() {
  const { t } = useTranslation();
  const form = useZodForm<CreateValues, Record<string, unknown>>(asSchema(GroupCreateOperationSchema), {
    whatsappId: '',
    name: '',
    participants: '',
    quantity: '1',
    description: '',
  });
  return (
    <MassScreen
      routeId="grupo/massagrupos2"
      kind="create"
      form={form}
      submitText={t('groups.createGroups')}
      toBody={(parsed) => parsed}
      fields={
        <>
          <TextField control={form.control} name="name" label={t('groups.groupName')} required testId="groups-name" />
          <TextAreaField control={form.control} name="participants" label={t('groups.participants')} required rows={4} helperText={t('groups.numbersHelp')} testId="groups-participants" />
          <TextField control={form.control} name="quantity" label={t('groups.quantity')} required testId="groups-quantity" />
          <TextAreaField control={form.control} name="description" label={t('groups.description')} rows={2} testId="groups-description" />
        </>
      }
    />
  );
}

interface UsersValues {
  whatsappId: string;
  groupIds: number[];
  numbers: string;
  action: string;
}

/** /grupo/massausuarios: add, remove, promote or demote numbers across groups; export the participants. */
export function MassUsersPage() {
  const { t } = useTranslation();
  const form = useZodForm<UsersValues, Record<string, unknown>>(asSchema(GroupParticipantsOperationSchema), {
    whatsappId: '',
    groupIds: [],
    numbers: '',
    action: 'add',
  });
  const whatsappId = Number(form.watch('whatsappId')) || null;
  const groupIds = form.watch('groupIds');
  const [exportFile, exporting] = useExportGroupParticipantsMutation();
  const download = (format: 'csv' | 'xlsx') => {
    if (!whatsappId || groupIds.length === 0) {
      form.setError('groupIds', { type: 'manual', message: 'Selecione ao menos um grupo.' });
      return;
    }
    void exportFile({ whatsappId, groupIds, format });
  };
  return (
    <MassScreen
      routeId="grupo/massausuarios"
      kind="participants"
      form={form}
      submitText={t('groups.applyParticipants')}
      toBody={(parsed) => parsed}
      extraActions={
        <>
          <Button icon="export" text={t('groups.exportXlsx')} loading={exporting.isLoading} onClick={() => download('xlsx')} data-testid="groups-export-xlsx" />
          <Button icon="export" text={t('groups.exportCsv')} loading={exporting.isLoading} onClick={() => download('csv')} data-testid="groups-export-csv" />
        </>
      }
      fields={
        <>
          <GroupsField control={form.control} name="groupIds" whatsappId={whatsappId} />
          <SelectField
            control={form.control}
            name="action"
            label={t('groups.participantAction')}
            options={(['add', 'remove', 'promote', 'demote'] as const).map((a) => ({ value: a, label: t(`groups.participantActions.${a}`) }))}
            testId="groups-action"
          />
          <TextAreaField control={form.control} name="numbers" label={t('groups.numbers')} rows={4} helperText={t('groups.numbersHelp')} testId="groups-numbers" />
        </>
      }
    />
  );
}
