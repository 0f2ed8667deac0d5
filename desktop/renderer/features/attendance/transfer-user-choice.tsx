import { InputGroup, Menu, MenuItem } from '@blueprintjs/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AttendanceUser } from '../../api/tickets.api';
import { PresenceDot, presenceOfUser } from '../users/presence-dot';

/** Folded for search: case and accents do not matter. */
const fold = (text: string) => text.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();

/**
 * The transfer dialog's user choice: the tenant's users in name order, each with their presence
 * (online, away, offline; live through `user:status`), filtered by a search box, one selected.
 */
export function TransferUserChoice({
  users,
  value,
  onChange,
}: {
  users: AttendanceUser[];
  value: number | null;
  onChange: (userId: number) => void;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const shown = useMemo(() => {
    const wanted = fold(search.trim());
    return wanted ? users.filter((u) => fold(u.name).includes(wanted)) : users;
  }, [users, search]);

  return (
    <div className="transfer-user-choice">
      <InputGroup
        leftIcon="search"
        type="search"
        size="small"
        placeholder={t('consolePanel.transfer.searchUser')}
        aria-label={t('consolePanel.transfer.searchUser')}
        value={search}
        onChange={(event) => setSearch(event.currentTarget.value)}
        data-testid="transfer-user-search"
      />
      <Menu className="transfer-user-list" role="listbox" aria-label={t('consolePanel.transfer.user')} data-testid="transfer-user">
        {shown.length === 0 ? (
          <li className="bp6-text-muted transfer-user-none">{t('consolePanel.transfer.noUserMatch')}</li>
        ) : (
          shown.map((u) => (
            <MenuItem
              key={u.id}
              roleStructure="listoption"
              selected={u.id === value}
              shouldDismissPopover={false}
              icon={<PresenceDot presence={presenceOfUser(u)} />}
              text={u.name}
              onClick={() => onChange(u.id)}
              data-testid="transfer-user-option"
              data-user-id={u.id}
            />
          ))
        )}
      </Menu>
    </div>
  );
}
