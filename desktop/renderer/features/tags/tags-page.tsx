import { useTranslation } from 'react-i18next';
import { useDeleteTagMutation, useListTagsQuery, type Tag } from '../../api/tags.api';
import { ActiveTag } from '../../app/crud/active-tag';
import { CatalogPage } from '../../app/crud/catalog-page';
import { TagColorChip } from './tag-color-chip';
import { TagFormDialog } from './tag-form-dialog';

/** /etiquetas: the tenant's tags, shown as the coloured chips contacts carry. */
export function TagsPage() {
  const { t } = useTranslation();
  // A tag still on contacts is refused (ERR_TAG_CONTACTS_EXISTS); the base query toasts why.
  const [deleteTag, deletion] = useDeleteTagMutation();
  return (
    <CatalogPage<Tag>
      routeId="etiquetas"
      description={t('tags.description')}
      list={useListTagsQuery()}
      testId="tag"
      addLabel={t('tags.add')}
      empty={{ icon: 'tag', title: t('tags.empty'), description: t('tags.emptyHelp') }}
      remove={deleteTag}
      removing={deletion.isLoading}
      form={(tag, close, tags) => <TagFormDialog tag={tag} nextIndex={tags.length} onClose={close} />}
      columns={[
        { header: t('tags.tag'), cell: (tag) => <TagColorChip name={tag.name} color={tag.color} muted={!tag.active} /> },
        { header: t('crud.color'), className: 'crud-col-narrow', cell: (tag) => <code>{tag.color}</code> },
        { header: t('crud.status'), className: 'crud-col-narrow', cell: (tag) => <ActiveTag active={tag.active} /> },
      ]}
    />
  );
}
