import { createHashRouter, Navigate, type RouteObject } from 'react-router-dom';
import { LoginPage } from '../../features/auth/login-page';
import { ResetPasswordPage } from '../../features/auth/reset-password-page';
import { SignupPage } from '../../features/signup/signup-page';
import { MainLayout } from '../layout/main-layout';
import { NotFoundPage } from '../layout/not-found-page';
import { RouteErrorPage } from '../layout/route-error-page';
import { UnderConstructionPage } from '../layout/under-construction-page';
import { ROUTE_SCREENS } from './route-screens';
import { PUBLIC_ROUTES, SHELL_ROUTES, flattenShellRoutes } from './route-table';
import { RootGuard } from './root-guard';

/** Shell routes from the route table; `handle.name` carries the spec's route name. */
function shellChildren(): RouteObject[] {
  const redirects = new Map(SHELL_ROUTES.filter((r) => r.redirectTo).map((r) => [`/${r.path}`, r.redirectTo!]));
  return flattenShellRoutes().map(({ path, id, name }) => {
    const redirect = redirects.get(path);
    const screen = ROUTE_SCREENS[id];
    return {
      path: path.slice(1),
      handle: { id, name },
      element: redirect ? (
        <Navigate to={redirect} replace />
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
