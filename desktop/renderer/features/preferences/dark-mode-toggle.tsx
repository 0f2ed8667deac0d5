import { Button, Tooltip } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useUpdateUserConfigsMutation } from '../../api/users.api';
import { rememberDarkMode } from '../../app/session/session-controller';
import { useAppSelector } from '../../app/store-hooks';

/**
 * Dark mode switch. The choice belongs to the user account (PUT /users/{id}/configs {isDark}),
 * so it follows the user to another machine; the login answer brings it back.
 */
export function DarkModeToggle() {
  const { t } = useTranslation();
  const { isDark, userId } = useAppSelector((state) => state.session);
  const [updateConfigs, { isLoading }] = useUpdateUserConfigsMutation();
  const label = isDark ? t('preferences.lightMode') : t('preferences.darkMode');

  const toggle = async () => {
    const next = !isDark;
    rememberDarkMode(next);
    if (userId === null) return;
    const result = await updateConfigs({ id: userId, configs: { isDark: next } });
    // The base query already told the user why; a refused change keeps the old theme. After a
    // 401 the session is ending anyway.
    if ('error' in result && result.error && (result.error as { status?: unknown }).status !== 401) rememberDarkMode(!next);
  };

  return (
    <Tooltip content={label} placement="bottom">
      <Button
        variant="minimal"
        icon={isDark ? 'flash' : 'moon'}
        aria-label={label}
        aria-pressed={isDark}
        loading={isLoading}
        onClick={() => void toggle()}
        data-testid="dark-mode-toggle"
      />
    </Tooltip>
  );
}
