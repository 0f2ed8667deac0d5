import { Button, HTMLSelect, InputGroup, Popover } from '@blueprintjs/core';
import { CONTACT_SEARCH_MIN_CHARS } from '@shared/limits';
import { useTranslation } from 'react-i18next';
import { CheckboxListField, type CheckboxOption } from '../../app/crud/checkbox-list-field';

export interface ContactListFilters {
  tags: number[];
  wallets: number[];
  kanbanId: number | null;
}

export const NO_FILTERS: ContactListFilters = { tags: [], wallets: [], kanbanId: null };

export const hasFilters = (filters: ContactListFilters): boolean =>
  filters.tags.length > 0 || filters.wallets.length > 0 || filters.kanbanId !== null;

export interface ContactFiltersProps {
  search: string;
  onSearchChange(value: string): void;
  filters: ContactListFilters;
  onFiltersChange(filters: ContactListFilters): void;
  tagOptions: CheckboxOption[];
  /** Null: the profile may not see the tenant's users (wallet filter hidden). */
  walletOptions: CheckboxOption[] | null;
  kanbanOptions: { id: number; name: string }[];
}

/** A multi-choice filter as a button opening its check boxes. */
function ChoiceFilter(props: {
  label: string;
  icon: 'tag' | 'person';
  options: CheckboxOption[];
  value: number[];
  emptyText: string;
  onChange(value: number[]): void;
  testId: string;
}) {
  const { label, icon, options, value, emptyText, onChange, testId } = props;
  return (
    <Popover
      placement="bottom-start"
      content={
        <div className="contacts-filter-popover">
          <CheckboxListField
            label={label}
            options={options}
            value={value}
            onChange={onChange}
            emptyText={emptyText}
            testId={`${testId}-options`}
          />
        </div>
      }
    >
      <Button
        icon={icon}
        endIcon="caret-down"
        text={value.length > 0 ? `${label} (${value.length})` : label}
        intent={value.length > 0 ? 'primary' : 'none'}
        variant={value.length > 0 ? 'outlined' : 'solid'}
        data-testid={testId}
      />
    </Popover>
  );
}

/**
 * Search (from 2 characters, spec section 9) and the list's filters: tags, wallet users and
 * kanban column.
 */
export function ContactFilters(props: ContactFiltersProps) {
  const { search, onSearchChange, filters, onFiltersChange, tagOptions, walletOptions, kanbanOptions } = props;
  const { t } = useTranslation();
  const typed = search.trim().length;
  const tooShort = typed > 0 && typed < CONTACT_SEARCH_MIN_CHARS;

  return (
    <div className="contacts-filters" role="search">
      <div className="contacts-search">
        <InputGroup
          type="search"
          leftIcon="search"
          placeholder={t('contacts.searchPlaceholder')}
          aria-label={t('contacts.search')}
          value={search}
          onChange={(event) => onSearchChange(event.currentTarget.value)}
          data-testid="contacts-search"
          rightElement={
            search ? (
              <Button variant="minimal" icon="cross" aria-label={t('contacts.clearSearch')} onClick={() => onSearchChange('')} />
            ) : undefined
          }
        />
        <p className={tooShort ? 'contacts-search-hint is-warning' : 'contacts-search-hint'} data-testid="contacts-search-hint">
          {t('contacts.searchHint', { count: CONTACT_SEARCH_MIN_CHARS })}
        </p>
      </div>
      <div className="contacts-filter-buttons">
        <ChoiceFilter
          label={t('contacts.fields.tags')}
          icon="tag"
          options={tagOptions}
          value={filters.tags}
          emptyText={t('contacts.noTags')}
          onChange={(tags) => onFiltersChange({ ...filters, tags })}
          testId="filter-tags"
        />
        {walletOptions ? (
          <ChoiceFilter
            label={t('contacts.fields.wallets')}
            icon="person"
            options={walletOptions}
            value={filters.wallets}
            emptyText={t('contacts.noUsers')}
            onChange={(wallets) => onFiltersChange({ ...filters, wallets })}
            testId="filter-wallets"
          />
        ) : null}
        <HTMLSelect
          aria-label={t('contacts.fields.kanban')}
          value={filters.kanbanId ?? ''}
          onChange={(event) =>
            onFiltersChange({ ...filters, kanbanId: event.currentTarget.value ? Number(event.currentTarget.value) : null })
          }
          data-testid="filter-kanban"
        >
          <option value="">{t('contacts.anyKanban')}</option>
          {kanbanOptions.map((column) => (
            <option key={column.id} value={column.id}>
              {column.name}
            </option>
          ))}
        </HTMLSelect>
        {hasFilters(filters) ? (
          <Button
            variant="minimal"
            icon="filter-remove"
            text={t('contacts.clearFilters')}
            onClick={() => onFiltersChange(NO_FILTERS)}
            data-testid="filters-clear"
          />
        ) : null}
      </div>
    </div>
  );
}
