import { Button, Card, Spinner } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { TAG_BOARD_COLUMN_SIZE, useListTagBoardContactsQuery } from '../../api/kanban.api';
import { useListTagsQuery, type Tag } from '../../api/tags.api';
import { CrudPage } from '../../app/crud/crud-page';
import { TagColorChip } from '../tags/tag-color-chip';
import { KanbanTabs } from './kanban-tabs';

/**
 * /kanban/tags: one column per active tag with the contacts that carry it (first page of
 * GET /contacts?tags=<id>). A board to look at: tags are put on contacts from the contact's
 * own screen, so cards are not dragged between columns here.
 */
export function TagsBoardPage() {
  const { t } = useTranslation();
  const list = useListTagsQuery();
  const tags = (list.data ?? []).filter((tag) => tag.active);
  return (
    <CrudPage
      routeId="kanban/tags"
      tabs={<KanbanTabs />}
      description={t('kanban.tagsBoardDescription')}
      list={list}
      isEmpty={tags.length === 0}
      empty={{ icon: 'tag', title: t('kanban.tagsBoardEmpty'), description: t('kanban.tagsBoardEmptyHelp') }}
    >
      <div className="tags-board" data-testid="tags-board">
        {tags.map((tag) => (
          <TagColumn key={tag.id} tag={tag} />
        ))}
      </div>
    </CrudPage>
  );
}

function TagColumn({ tag }: { tag: Tag }) {
  const { t } = useTranslation();
  const contacts = useListTagBoardContactsQuery(tag.id);
  const page = contacts.data;
  return (
    <section className="tags-board-column" aria-label={tag.name} data-testid="tags-board-column">
      <header className="tags-board-column-header" style={{ borderTopColor: tag.color }}>
        <TagColorChip name={tag.name} color={tag.color} />
        {page && page.count > 0 ? <span className="crud-muted">{t('kanban.contactCount', { count: page.count })}</span> : null}
      </header>
      <div className="tags-board-cards">
        {contacts.isLoading ? (
          <Spinner size={24} />
        ) : contacts.isError ? (
          <div className="tags-board-problem">
            <p className="crud-muted">{t('kanban.contactsFailed')}</p>
            <Button size="small" icon="refresh" text={t('common.retry')} onClick={() => void contacts.refetch()} />
          </div>
        ) : page && page.contacts.length > 0 ? (
          <>
            {page.contacts.map((contact) => (
              <Card key={contact.id} compact className="tags-board-card">
                <strong>{contact.name}</strong>
                {contact.number || contact.email ? <div className="crud-muted">{contact.number ?? contact.email}</div> : null}
              </Card>
            ))}
            {page.count > TAG_BOARD_COLUMN_SIZE ? (
              <p className="crud-muted">{t('kanban.moreContacts', { count: page.count - TAG_BOARD_COLUMN_SIZE })}</p>
            ) : null}
          </>
        ) : (
          <p className="crud-muted">{t('kanban.noContacts')}</p>
        )}
      </div>
    </section>
  );
}
