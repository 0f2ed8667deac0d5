import { createHashRouter, Navigate, type RouteObject } from 'react-router-dom';
import { LoginPage } from '../../features/auth/login-page';
import { ResetPasswordPage } from '../../features/auth/reset-password-page';
import { SignupPage } from '../../features/signup/signup-page';
import { MainLayout } from '../layout/main-layout';
import { NotFoundPage } from '../layout/not-found-page';
import { RouteErrorPage } from '../layout/route-error-page';
import { UnderConstructionPage } from '../layout/under-construction-page';
import { ROUTE_SCREENS } from './route-screens';
import { PUBLIC_ROUTES, flattenShellRoutes } from './route-table';
import { isUnderConstruction } from './under-construction';
import { RootGuard } from './root-guard';

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
        screen()
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
        { path: PUBLIC_ROUTES.signup, element: <SignupPage />, handle: { name: 'signup' } },
        { path: PUBLIC_ROUTES.reset, element: <ResetPasswordPage />, handle: { name: 'reset' } },
        // '/' itself is redirected by the guard (superadmin -> assinatura, others -> contacts).
        { path: '/', element: <MainLayout />, children: shellChildren() },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}

export type AppRouter = ReturnType<typeof createAppRouter>;
