import { NonIdealState, Spinner } from '@blueprintjs/core';
import { lazy, Suspense, type ReactNode } from 'react';
import { createHashRouter, Navigate, type RouteObject } from 'react-router-dom';
import { LoginPage } from '../../features/auth/login-page';
import { MainLayout } from '../layout/main-layout';
import { NotFoundPage } from '../layout/not-found-page';
import { RouteErrorPage } from '../layout/route-error-page';
import { UnderConstructionPage } from '../layout/under-construction-page';
import { ROUTE_SCREENS } from './route-screens';
import { PUBLIC_ROUTES, flattenShellRoutes } from './route-table';
import { isUnderConstruction } from './under-construction';
import { RootGuard } from './root-guard';

// Public pages other than login are rarely opened: their code loads with them.
const ResetPasswordPage = lazy(() =>
  import('../../features/auth/reset-password-page').then((m) => ({ default: m.ResetPasswordPage })),
);
const SignupPage = lazy(() => import('../../features/signup/signup-page').then((m) => ({ default: m.SignupPage })));
const SignupConfirmPage = lazy(() =>
  import('../../features/signup/signup-confirm-page').then((m) => ({ default: m.SignupConfirmPage })),
);

/** While a screen's chunk arrives (a first visit; tens of milliseconds on a good connection). */
function Loading({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div className="page" data-testid="screen-loading">
          <NonIdealState icon={<Spinner size={40} />} />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}

/**
 * Shell routes from the route table; `handle.name` carries the spec's route name. A route on the
 * UNDER_CONSTRUCTION allow-list renders the "Em construção" page (tests keep that list equal to
 * the routes without a screen).
 */
function shellChildren(): RouteObject[] {
  return flattenShellRoutes().map(({ path, id, name, redirectTo }) => {
    const screen = isUnderConstruction(id) ? undefined : ROUTE_SCREENS[id];
    return {
      path: path.slice(1),
      handle: { id, name },
      element: redirectTo ? (
        <Navigate to={redirectTo} replace />
      ) : screen ? (
        <Loading>{screen()}</Loading>
      ) : (
        <UnderConstructionPage key={id} routeId={id} />
      ),
    };
  });
}

export function createAppRouter() {
  return createHashRouter([
    {
      element: <RootGuard />,
      errorElement: <RouteErrorPage />,
      children: [
        { path: PUBLIC_ROUTES.login, element: <LoginPage />, handle: { name: 'login' } },
        {
          path: PUBLIC_ROUTES.signup,
          element: (
            <Loading>
              <SignupPage />
            </Loading>
          ),
          handle: { name: 'signup' },
        },
        {
          path: PUBLIC_ROUTES.signupConfirm,
          element: (
            <Loading>
              <SignupConfirmPage />
            </Loading>
          ),
          handle: { name: 'signup-confirm' },
        },
        {
          path: PUBLIC_ROUTES.reset,
          element: (
            <Loading>
              <ResetPasswordPage />
            </Loading>
          ),
          handle: { name: 'reset' },
        },
        // '/' itself is redirected by the guard (superadmin -> assinatura, others -> contacts).
        { path: '/', element: <MainLayout />, children: shellChildren() },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}

export type AppRouter = ReturnType<typeof createAppRouter>;
