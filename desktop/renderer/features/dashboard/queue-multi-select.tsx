import { Button, Menu, MenuDivider, MenuItem, Popover } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { Queue } from '../../api/queues.api';

export interface QueueMultiSelectProps {
  queues: readonly Pick<Queue, 'id' | 'name' | 'color'>[];
  value: readonly number[];
  onChange(value: number[]): void;
  testId: string;
}

/**
 * The queues a screen is narrowed to, in a drop-down of check items (Blueprint's select package
 * is not part of this app). None chosen means every queue.
 */
export function QueueMultiSelect({ queues, value, onChange, testId }: QueueMultiSelectProps) {
  const { t } = useTranslation();
  const chosen = new Set(value);
  const names = queues.filter((queue) => chosen.has(queue.id)).map((queue) => queue.name);
  const text =
    names.length === 0
      ? t('dashboard.queues.all')
      : names.length <= 2
        ? names.join(', ')
        : t('dashboard.queues.some', { count: names.length });
  const toggle = (id: number) => onChange(chosen.has(id) ? value.filter((other) => other !== id) : [...value, id]);
  return (
    <Popover
      placement="bottom-start"
      content={
        <Menu data-testid={`${testId}-menu`} aria-label={t('dashboard.queues.label')}>
          <MenuItem
            roleStructure="listoption"
            text={t('dashboard.queues.all')}
            selected={value.length === 0}
            onClick={() => onChange([])}
            shouldDismissPopover={false}
          />
          <MenuDivider />
          {queues.map((queue) => (
            <MenuItem
              key={queue.id}
              roleStructure="listoption"
              text={queue.name}
              labelElement={<span className="queue-swatch" style={{ background: queue.color }} />}
              selected={chosen.has(queue.id)}
              onClick={() => toggle(queue.id)}
              shouldDismissPopover={false}
              data-testid={`${testId}-option`}
            />
          ))}
        </Menu>
      }
    >
      <Button icon="filter" endIcon="caret-down" text={`${t('dashboard.queues.label')}: ${text}`} data-testid={testId} />
    </Popover>
  );
}
