/**
 * The Waymark Console (issue #14): the React app the reference server serves at /console/. Routes by
 * react-router, data by TanStack Query (caching, polling, mutations), forms by react-hook-form, charts by uPlot.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ApiError } from './api';
import { Layout } from './Layout';
import { AccountPage } from './pages/AccountPage';
import { AccountsPage } from './pages/AccountsPage';
import { AppsPage } from './pages/AppsPage';
import { EventsPage } from './pages/EventsPage';
import { GuideEditorPage } from './pages/GuideEditorPage';
import { GuidePage } from './pages/GuidePage';
import { GuidesPage } from './pages/GuidesPage';
import { LoginPage } from './pages/LoginPage';
import { NotFoundPage } from './pages/NotFoundPage';
import { OverviewPage } from './pages/OverviewPage';
import { SettingsPage } from './pages/SettingsPage';
import { VisitorPage } from './pages/VisitorPage';
import { VisitorsPage } from './pages/VisitorsPage';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // A refusal (4xx) will not change by asking again; a network error may.
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

const router = createBrowserRouter(
  [
    { path: '/login', element: <LoginPage /> },
    {
      path: '/',
      element: <Layout />,
      children: [
        { index: true, element: <AppsPage /> },
        { path: 'apps/:apiKey', element: <OverviewPage /> },
        { path: 'apps/:apiKey/events', element: <EventsPage /> },
        { path: 'apps/:apiKey/visitors', element: <VisitorsPage /> },
        { path: 'apps/:apiKey/visitors/:visitorId', element: <VisitorPage /> },
        { path: 'apps/:apiKey/accounts', element: <AccountsPage /> },
        { path: 'apps/:apiKey/accounts/:accountId', element: <AccountPage /> },
        { path: 'apps/:apiKey/guides', element: <GuidesPage /> },
        { path: 'apps/:apiKey/guides/new', element: <GuideEditorPage /> },
        { path: 'apps/:apiKey/guides/:guideId', element: <GuidePage /> },
        { path: 'apps/:apiKey/guides/:guideId/edit', element: <GuideEditorPage /> },
        { path: 'apps/:apiKey/settings', element: <SettingsPage /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ],
  { basename: '/console' },
);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
