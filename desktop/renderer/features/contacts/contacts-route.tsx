import { NonIdealState, Spinner } from '@blueprintjs/core';
import { lazy, Suspense } from 'react';
import type { ContactsPageProps } from './contacts-page';

/**
 * The contacts screen loads on first visit: it carries the full phone-number metadata
 * (libphonenumber) the rest of the app does not need.
 */
const ContactsPage = lazy(() => import('./contacts-page').then((module) => ({ default: module.ContactsPage })));

export function ContactsRoute(props: ContactsPageProps) {
  return (
    <Suspense fallback={<NonIdealState icon={<Spinner size={40} />} />}>
      <ContactsPage {...props} />
    </Suspense>
  );
}
