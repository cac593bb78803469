import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';

import { PageLoader } from '#web/components/page-loader.tsx';
import { setSecondFactorHandler, setUnauthorizedHandler } from '#web/lib/api-client.ts';
import { withMantineStyles } from '#web/lib/mantine-styles.ts';
import { paths } from '#web/lib/paths.ts';

import { RequireAdmin, RequireAuditReader, RequireAuth } from './guards.tsx';
import { RootLayout } from './root-layout.tsx';
import { RouteError, type StatusMessages } from './route-error.tsx';

type RouteModule = { default: ComponentType };

/**
 * A lazy route module (web/app/routes/*.tsx, default export = the screen) with an error element that words a
 * failure by its status. Pass `messages` for a screen's own words, e.g. {403: 'groups:accessDenied'}.
 */
const lazyRoute = (load: () => Promise<RouteModule>, messages?: StatusMessages) =>
  ({
    lazy: async () => ({ Component: (await load()).default }),
    errorElement: <RouteError messages={messages} />,
  }) satisfies RouteObject;

/** A screen that shows once Mantine's full styles are in (web/lib/mantine-styles.ts): every route but home. */
const page = (load: () => Promise<RouteModule>, messages?: StatusMessages) =>
  lazyRoute(withMantineStyles(load), messages);

/** Every route of spec §2. Guards: RequireAuth (stored token, else /login), RequireAdmin (non-admin → /). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoader />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          // Public (spec §2), and the screen a pending account is sent to (spec §4).
          // What the home page draws is styled by web/app/mantine-shell.css: it does not wait for the rest.
          { index: true, ...lazyRoute(() => import('./routes/home.tsx')) },
          { path: 'login', ...page(() => import('./routes/login.tsx')) },
          { path: 'register', ...page(() => import('./routes/register.tsx')) },
          { path: 'forgot-password', ...page(() => import('./routes/forgot-password.tsx')) },
          { path: 'reset-password', ...page(() => import('./routes/reset-password.tsx')) },
          { path: 'pending-approval', ...page(() => import('./routes/pending-approval.tsx')) },
          { path: 'labs', ...page(() => import('./routes/labs.tsx')) },
          { path: 'directorprofile', ...page(() => import('./routes/director-profile.tsx')) },
          { path: 'search', ...page(() => import('./routes/search.tsx')) },
          // The site pages every visitor may open from the footer (decision 019).
          { path: 'help', ...page(() => import('./routes/help.tsx')) },
          { path: 'feedback', ...page(() => import('./routes/feedback.tsx')) },
          { path: 'accessibility', ...page(() => import('./routes/accessibility.tsx')) },
          { path: 'sitemap', ...page(() => import('./routes/sitemap.tsx')) },
          { path: 'terms', ...page(() => import('./routes/terms.tsx')) },
          { path: 'privacy', ...page(() => import('./routes/privacy.tsx')) },
          { path: 'archive', ...page(() => import('./routes/archive.tsx')) },
          {
            // Listed public in spec §2 but they show personal data or need a member of staff: signed in (decision 011).
            element: <RequireAuth />,
            children: [
              { path: 'employees', ...page(() => import('./routes/employees.tsx')) },
              // A session that must pass its second factor first (decision 064).
              { path: 'login/second-factor', ...page(() => import('./routes/second-factor.tsx')) },
              { path: 'profile', ...page(() => import('./routes/profile.tsx')) },
              { path: 'closeGroup', ...page(() => import('./routes/close-group.tsx')) },
              { path: 'groups/:id/edit', ...page(() => import('./routes/edit-group.tsx')) },
              // Signed-in guard (spec §2).
              { path: 'my-group', ...page(() => import('./routes/my-group.tsx')) },
              { path: 'group/id/:id', ...page(() => import('./routes/group.tsx')) },
              { path: 'group/:id', ...page(() => import('./routes/group-after-edit.tsx')) },
              { path: 'dac', ...page(() => import('./routes/dac.tsx')) },
              // Dak movement (decision 020): the inbox "Marked to me" and pendency.
              { path: 'dac/inbox', ...page(() => import('./routes/dac-inbox.tsx')) },
              { path: 'dac/pendency', ...page(() => import('./routes/dac-pendency.tsx')) },
              // Delegation of dak (decision 078).
              { path: 'dac/delegation', ...page(() => import('./routes/dac-delegation.tsx')) },
              { path: 'allLetter', ...page(() => import('./routes/all-letters.tsx')) },
              // Circulars and notices that must be acknowledged (decision 074): the person's list and the reports.
              { path: 'acknowledgements', ...page(() => import('./routes/acknowledgements.tsx')) },
              {
                path: 'acknowledgements/requests',
                ...page(() => import('./routes/acknowledgement-requests.tsx')),
              },
              {
                path: 'acknowledgements/requests/:id',
                ...page(() => import('./routes/acknowledgement-request.tsx')),
              },
              // e-Files (decision 107): My files and one file.
              { path: 'efiles', ...page(() => import('./routes/efiles.tsx')) },
              { path: 'efiles/:id', ...page(() => import('./routes/efile.tsx')) },
              { path: 'dispatch-register', ...page(() => import('./routes/dispatch-register.tsx')) },
              { path: 'upload-repo', ...page(() => import('./routes/upload-repo.tsx')) },
              { path: 'view-repo', ...page(() => import('./routes/view-repo.tsx')) },
              // One screen for both uploads: the trial one is a named export of the same module.
              {
                path: 'upload-trialRepo',
                ...page(() => import('./routes/upload-repo.tsx').then((m) => ({ default: m.UploadTrialRepoRoute }))),
              },
              { path: 'view-trialRepo', ...page(() => import('./routes/view-trial-repo.tsx')) },
            ],
          },
          {
            // Admin guard (spec §2).
            element: <RequireAdmin />,
            children: [
              { path: 'add-group', ...page(() => import('./routes/add-group.tsx')) },
              { path: 'admin/approval', ...page(() => import('./routes/admin/approval.tsx')) },
              { path: 'admin/add-labs', ...page(() => import('./routes/admin/add-labs.tsx')) },
              { path: 'admin/manageGallery', ...page(() => import('./routes/admin/manage-gallery.tsx')) },
              { path: 'admin/add-groups', ...page(() => import('./routes/admin/add-groups.tsx')) },
              { path: 'admin/logs', ...page(() => import('./routes/admin/logs.tsx')) },
              { path: 'admin/closeGroup', ...page(() => import('./routes/admin/close-group.tsx')) },
              { path: 'admin/group/:id', ...page(() => import('./routes/admin/group.tsx')) },
              { path: 'admin/feedback', ...page(() => import('./routes/admin/feedback.tsx')) },
              { path: 'admin/efiles', ...page(() => import('./routes/admin/efiles.tsx')) },
              { path: 'admin/ocr', ...page(() => import('./routes/admin/ocr.tsx')) },
              { path: 'admin/trusted-roots', ...page(() => import('./routes/admin/trusted-roots.tsx')) },
              {
                path: 'admin',
                ...page(() => import('./routes/admin/layout.tsx')),
                children: [
                  { index: true, element: <Navigate to={paths.admin.manageLab} replace /> },
                  { path: 'manage-lab', ...page(() => import('./routes/admin/manage-lab.tsx')) },
                  { path: 'manage', ...page(() => import('./routes/admin/manage.tsx')) },
                  { path: 'groups/:id', ...page(() => import('./routes/admin/groups.tsx')) },
                ],
              },
            ],
          },
          {
            // The audit trail: admins, and directors read-only.
            element: <RequireAuditReader />,
            children: [{ path: 'admin/audit-trail', ...page(() => import('./routes/admin/audit-trail.tsx')) }],
          },
          { path: '*', ...page(() => import('./routes/not-found.tsx')) },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);

// A 403 saying this session must pass (or set up) its second factor first (decision 064) goes to that screen, and
// back to this page afterwards.
setSecondFactorHandler(() => {
  const { pathname, search, hash } = router.state.location;
  if (pathname === paths.secondFactor || pathname === paths.login) return;
  void router.navigate(paths.secondFactor, { replace: true, state: { from: `${pathname}${search}${hash}` } });
});

// A 401 on a signed-in call (expired or revoked login) goes to /login without reloading the page, saying why, and the
// login screen comes back to this page afterwards (decision 019).
setUnauthorizedHandler(() => {
  const { pathname, search, hash } = router.state.location;
  if (pathname === paths.login) return;
  void router.navigate(paths.login, { replace: true, state: { from: `${pathname}${search}${hash}`, expired: true } });
});
