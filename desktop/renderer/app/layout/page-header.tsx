import { H3 } from '@blueprintjs/core';
import type { ReactNode } from 'react';

/**
 * The heading of a page: its title (the route's name), an optional line that says what the page
 * is for, and the page's own actions on the right. One component for every screen, so the pages
 * do not each repeat the markup and its class names.
 */
export function PageHeader({
  title,
  description,
  actions,
  actionsClassName,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  actionsClassName?: string;
}) {
  return (
    <header className="crud-page-header">
      <div>
        <H3 className="crud-page-title">{title}</H3>
        {description ? <p className="crud-page-description">{description}</p> : null}
      </div>
      {actions ? <div className={actionsClassName ? `crud-page-actions ${actionsClassName}` : 'crud-page-actions'}>{actions}</div> : null}
    </header>
  );
}
