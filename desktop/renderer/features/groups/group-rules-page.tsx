import { Button, Card, Tag } from '@blueprintjs/core';
import { GroupBanCreateSchema, GroupMessageCreateSchema, GroupWordCreateSchema } from '@shared/schemas/groups';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useCreateGroupRuleMutation, useDeleteGroupRuleMutation, useListGroupRulesQuery, type GroupRuleKind } from '../../api/groups.api';
import '../../app/crud/crud.css';
import { showToast } from '../../app/feedback/toaster';
import { FormErrorSummary, SelectField, TextField } from '../../app/forms/form-fields';
import { showServerFailure } from '../../app/forms/server-errors';
import { TextAreaField } from '../../app/forms/text-area-field';
import { useZodForm } from '../../app/forms/use-zod-form';
import { PageHeader } from '../../app/layout/page-header';
import { ClientTable, ConnectionField, GroupsField, NoGroupChannels, useGroupChannels, useSingleConnection } from './group-screen-parts';

/** The four rule screens: /grupo/banlist, wordlist, saudacao, despedida. */
const SCREENS = {
  banlist: { routeId: 'grupo/banlist', schema: GroupBanCreateSchema, field: 'number' },
  wordlist: { routeId: 'grupo/wordlist', schema: GroupWordCreateSchema, field: 'text' },
  greetings: { routeId: 'grupo/saudacao', schema: GroupMessageCreateSchema, field: 'text' },
  farewells: { routeId: 'grupo/despedida', schema: GroupMessageCreateSchema, field: 'text' },
} as const satisfies Record<GroupRuleKind, { routeId: string; schema: z.ZodType; field: string }>;

interface RuleValues {
  whatsappId: string;
  groupIds: number[];
  number: string;
  text: string;
  action: string;
}

/**
 * A rule screen: the form (connection, groups — none means every group of the connection — and
 * the number, word or message) and the list of the tenant's rules of that kind with their
 * removal. The server applies them to the groups' events (docs/api.md, "What the rules do").
 */
export function GroupRulesPage({ kind }: { kind: GroupRuleKind }) {
  const { t } = useTranslation();
  const screen = SCREENS[kind];
  const { channels, loading } = useGroupChannels();
  const rules = useListGroupRulesQuery({ kind });
  const [create, creating] = useCreateGroupRuleMutation();
  const [remove] = useDeleteGroupRuleMutation();
  const form = useZodForm<RuleValues, Record<string, unknown>>(screen.schema as z.ZodType<Record<string, unknown>>, {
    whatsappId: '',
    groupIds: [],
    number: '',
    text: '',
    action: 'warn',
  });
  useSingleConnection(form, channels);
  const chosen = Number(form.watch('whatsappId')) || null;
  const submit = form.handleSubmit(async (body) => {
    const payload: Record<string, unknown> =
      kind === 'banlist'
        ? { whatsappId: body.whatsappId, groupIds: body.groupIds, number: body.number }
        : kind === 'wordlist'
          ? { whatsappId: body.whatsappId, groupIds: body.groupIds, text: body.text, action: body.action }
          : { whatsappId: body.whatsappId, groupIds: body.groupIds, text: body.text };
    try {
      await create({ kind, body: payload }).unwrap();
      showToast(t('groups.ruleSaved'), 'success');
      form.reset({ ...form.getValues(), number: '', text: '' });
    } catch (error) {
      showServerFailure(form.setError, error, t, ['whatsappId', 'groupIds', 'number', 'text', 'action']);
    }
  });
  const rows = (rules.data ?? []).map((r) => ({
    ...r,
    group: r.groupSubject ?? t('groups.allGroups'),
    actionLabel: r.action ? t(`groups.wordAction.${r.action}`) : '',
  }));
  return (
    <div className="page crud-page" data-testid={`page-${screen.routeId.replace('/', '-')}`}>
      <PageHeader title={t(`routes.${screen.routeId}`)} description={t(`groups.describe.${kind}`)} />
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
            <ConnectionField control={form.control} name="whatsappId" channels={channels} />
            <GroupsField control={form.control} name="groupIds" whatsappId={chosen} helperText={t('groups.noneIsAll')} />
            {kind === 'banlist' ? (
              <TextField control={form.control} name="number" label={t('groups.number')} required placeholder="5511999999999" testId="groups-rule-number" />
            ) : kind === 'wordlist' ? (
              <>
                <TextField control={form.control} name="text" label={t('groups.word')} required helperText={t('groups.wordLowercase')} testId="groups-rule-text" />
                <SelectField
                  control={form.control}
                  name="action"
                  label={t('groups.wordActionLabel')}
                  options={[
                    { value: 'warn', label: t('groups.wordAction.warn') },
                    { value: 'remove', label: t('groups.wordAction.remove') },
                  ]}
                  testId="groups-rule-action"
                />
              </>
            ) : (
              <TextAreaField control={form.control} name="text" label={t('groups.messageText')} required rows={4} helperText={t('groups.messageHelp')} testId="groups-rule-text" />
            )}
            <Button type="submit" intent="primary" icon="add" text={t('groups.add')} loading={creating.isLoading} data-testid="groups-rule-save" />
            <FormErrorSummary control={form.control} testId="groups-rule-summary" />
          </form>
        </Card>
      )}
      <ClientTable
        testId="groups-rules"
        empty={t('groups.noRules')}
        rows={rows}
        columns={[
          { key: 'text', label: kind === 'banlist' ? t('groups.number') : kind === 'wordlist' ? t('groups.word') : t('groups.messageText'), kind: 'text' },
          ...(kind === 'wordlist' ? [{ key: 'actionLabel', label: t('groups.wordActionLabel'), kind: 'text' as const }] : []),
          { key: 'whatsappName', label: t('groups.connection'), kind: 'text' },
          { key: 'group', label: t('groups.group'), kind: 'text', render: (row) => (row.groupId ? String(row.group) : <Tag minimal>{String(row.group)}</Tag>) },
          { key: 'userName', label: t('groups.user'), kind: 'text' },
          { key: 'createdAt', label: t('groups.date'), kind: 'datetime' },
          {
            key: 'actions',
            label: '',
            kind: 'text',
            render: (row) => (
              <Button
                minimal
                icon="trash"
                intent="danger"
                aria-label={t('groups.remove')}
                data-testid={`groups-rule-remove-${String(row.id)}`}
                onClick={async () => {
                  const result = await remove({ kind, id: Number(row.id) });
                  if (!('error' in result)) showToast(t('groups.ruleRemoved'), 'success');
                }}
              />
            ),
          },
        ]}
      />
    </div>
  );
}
