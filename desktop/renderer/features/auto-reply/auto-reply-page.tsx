import { Button, Card, H5, HTMLTable, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useDeleteAutoReplyActionMutation,
  useDeleteAutoReplyMutation,
  useDeleteAutoReplyStepMutation,
  useListAutoRepliesQuery,
  type AutoReply,
  type AutoReplyAction,
  type AutoReplyStep,
} from '../../api/auto-reply.api';
import { useListQueuesQuery } from '../../api/queues.api';
import { useListAllTenantUsersQuery } from '../../api/users.api';
import { ActiveTag } from '../../app/crud/active-tag';
import { CatalogPage } from '../../app/crud/catalog-page';
import { ConfirmDeleteAlert } from '../../app/crud/confirm-delete-alert';
import { RowActions } from '../../app/crud/row-actions';
import { showToast } from '../../app/feedback/toaster';
import { AutoReplyActionDialog, AutoReplyFormDialog, AutoReplyStepDialog } from './auto-reply-dialogs';
import './auto-reply.css';

type Dialog =
  | { kind: 'step'; bot: AutoReply; step: AutoReplyStep | null }
  | { kind: 'action'; bot: AutoReply; step: AutoReplyStep; action: AutoReplyAction | null };

type Deletion =
  { kind: 'step'; bot: AutoReply; step: AutoReplyStep; name: string } | { kind: 'action'; action: AutoReplyAction; name: string };

/**
 * /auto-resposta: the keyword bots (spec sections 2 and 8). Each bot shows its steps (the
 * initial one marked) and, under each step, its actions: the words that trigger them and where
 * they lead. Bots, steps and actions are created, edited and deleted here, each delete after a
 * confirmation; a bot or step tickets still wait in is refused by the server (toasted).
 */
export function AutoReplyPage() {
  const { t } = useTranslation();
  const [deleteBot, botDeletion] = useDeleteAutoReplyMutation();
  return (
    <CatalogPage<AutoReply>
      routeId="autoResposta"
      description={t('autoReply.description')}
      list={useListAutoRepliesQuery()}
      testId="auto-reply"
      addLabel={t('autoReply.add')}
      empty={{ icon: 'chat', title: t('autoReply.empty'), description: t('autoReply.emptyHelp') }}
      remove={deleteBot}
      removing={botDeletion.isLoading}
      form={(bot, close) => <AutoReplyFormDialog bot={bot} onClose={close} />}
      renderList={(bots, actions) => <AutoReplyList bots={bots} {...actions} />}
    />
  );
}

function AutoReplyList({
  bots,
  canWrite,
  edit,
  remove,
}: {
  bots: AutoReply[];
  canWrite: boolean;
  edit(bot: AutoReply): void;
  remove(bot: AutoReply): void;
}) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [deleting, setDeleting] = useState<Deletion | null>(null);
  const [deleteStep, stepDeletion] = useDeleteAutoReplyStepMutation();
  const [deleteAction, actionDeletion] = useDeleteAutoReplyActionMutation();
  const queues = useListQueuesQuery();
  const users = useListAllTenantUsersQuery();

  const destination = (bot: AutoReply, action: AutoReplyAction): string => {
    if (action.action === 0) {
      const step = bot.stepsReply.find((s) => s.id === action.nextStepId);
      return t('autoReply.toStep', { step: step ? `#${step.id}` : '?' });
    }
    if (action.action === 1)
      return t('autoReply.toQueue', { queue: queues.data?.find((q) => q.id === action.queueId)?.name ?? '?' });
    return t('autoReply.toUser', { user: users.data?.find((u) => u.id === action.userIdDestination)?.name ?? '?' });
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    const result =
      deleting.kind === 'step'
        ? await deleteStep({ autoReplyId: deleting.bot.id, stepId: deleting.step.id })
        : await deleteAction(deleting.action.id);
    if (!('error' in result) || result.error === undefined) showToast(t('crud.deleted'), 'success');
    setDeleting(null);
  };

  return (
    <div className="auto-reply-list" data-testid="auto-reply-table">
      {bots.map((bot) => (
        <Card key={bot.id} className="auto-reply-card" data-testid="auto-reply-row">
          <header className="auto-reply-card-header">
            <H5 className="auto-reply-name">{bot.name}</H5>
            <ActiveTag active={bot.active} />
            {bot.testNumber ? (
              <Tag minimal icon="mobile-phone" title={t('autoReply.testNumber')}>
                {bot.testNumber}
              </Tag>
            ) : null}
            <span className="auto-reply-spacer" />
            {canWrite ? (
              <>
                <Button
                  icon="add"
                  variant="minimal"
                  text={t('autoReply.addStep')}
                  onClick={() => setDialog({ kind: 'step', bot, step: null })}
                  data-testid="auto-reply-add-step"
                />
                <RowActions name={bot.name} onEdit={() => edit(bot)} onDelete={() => remove(bot)} />
              </>
            ) : null}
          </header>
          {bot.stepsReply.length === 0 ? <p className="crud-muted">{t('autoReply.noSteps')}</p> : null}
          {bot.stepsReply.map((step) => (
            <section key={step.id} className="auto-reply-step" data-testid="auto-reply-step">
              <div className="auto-reply-step-header">
                <Tag minimal round>{`#${step.id}`}</Tag>
                {step.initialStep ? (
                  <Tag intent="primary" minimal data-testid="auto-reply-step-initial-tag">
                    {t('autoReply.initialStep')}
                  </Tag>
                ) : null}
                <span className="auto-reply-step-text" data-testid="auto-reply-step-text">
                  {step.reply}
                </span>
                {canWrite ? (
                  <>
                    <Button
                      icon="add"
                      variant="minimal"
                      text={t('autoReply.addAction')}
                      onClick={() => setDialog({ kind: 'action', bot, step, action: null })}
                      data-testid="auto-reply-add-action"
                    />
                    <RowActions
                      name={`#${step.id}`}
                      onEdit={() => setDialog({ kind: 'step', bot, step })}
                      onDelete={() => setDeleting({ kind: 'step', bot, step, name: `#${step.id} ${step.reply.slice(0, 40)}` })}
                    />
                  </>
                ) : null}
              </div>
              {step.stepsReplyAction.length > 0 ? (
                <HTMLTable compact className="crud-table auto-reply-actions" data-testid="auto-reply-actions">
                  <thead>
                    <tr>
                      <th>{t('autoReply.words')}</th>
                      <th>{t('autoReply.actionKind')}</th>
                      <th>{t('autoReply.replyDefinition')}</th>
                      {canWrite ? <th className="crud-col-actions">{t('crud.actions')}</th> : null}
                    </tr>
                  </thead>
                  <tbody>
                    {step.stepsReplyAction.map((action) => (
                      <tr key={action.id} data-testid="auto-reply-action-row">
                        <td>{action.words}</td>
                        <td>{destination(bot, action)}</td>
                        <td className="crud-cell-text">{action.replyDefinition ?? ''}</td>
                        {canWrite ? (
                          <td className="crud-col-actions">
                            <RowActions
                              name={action.words}
                              onEdit={() => setDialog({ kind: 'action', bot, step, action })}
                              onDelete={() => setDeleting({ kind: 'action', action, name: action.words })}
                            />
                          </td>
                        ) : null}
                      </tr>
                    ))}
                  </tbody>
                </HTMLTable>
              ) : null}
            </section>
          ))}
        </Card>
      ))}
      {dialog?.kind === 'step' ? (
        <AutoReplyStepDialog bot={dialog.bot} step={dialog.step} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.kind === 'action' ? (
        <AutoReplyActionDialog bot={dialog.bot} step={dialog.step} action={dialog.action} onClose={() => setDialog(null)} />
      ) : null}
      <ConfirmDeleteAlert
        itemName={deleting?.name ?? null}
        deleting={stepDeletion.isLoading || actionDeletion.isLoading}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
