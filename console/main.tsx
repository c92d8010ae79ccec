/**
 * The Waymark Console (issue #14): the React app the reference server serves at /console/. Routes by
 * react-router, data by TanStack Query (caching, polling, mutations), forms by react-hook-form, charts by uPlot.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ApiError } from './api';
import { Layout } from './Layout';
import { InvitationPage } from './pages/InvitationPage';
import { LoginPage } from './pages/LoginPage';
import { repairNavigatorLanguage } from './repairNavigatorLanguage';
import './styles.css';

// Before any view loads: WebKitGTK under a C locale says navigator.language 'C', which uPlot's module cannot load with.
repairNavigatorLanguage();

// Each view is a chunk of its own, loaded when first opened (the charts' uPlot only with the views that draw).
const AccountPage = lazy(() => import('./pages/AccountPage').then((m) => ({ default: m.AccountPage })));
const AccountsPage = lazy(() => import('./pages/AccountsPage').then((m) => ({ default: m.AccountsPage })));
const AppsPage = lazy(() => import('./pages/AppsPage').then((m) => ({ default: m.AppsPage })));
const AuditPage = lazy(() => import('./pages/AuditPage').then((m) => ({ default: m.AuditPage })));
const EventsPage = lazy(() => import('./pages/EventsPage').then((m) => ({ default: m.EventsPage })));
const FeaturePage = lazy(() => import('./pages/RulePage').then((m) => ({ default: m.FeaturePage })));
const FeaturesPage = lazy(() => import('./pages/RulesPage').then((m) => ({ default: m.FeaturesPage })));
const FunnelsPage = lazy(() => import('./pages/FunnelsPage').then((m) => ({ default: m.FunnelsPage })));
const GuideEditorPage = lazy(() => import('./pages/GuideEditorPage').then((m) => ({ default: m.GuideEditorPage })));
const GuidePage = lazy(() => import('./pages/GuidePage').then((m) => ({ default: m.GuidePage })));
const GuidesPage = lazy(() => import('./pages/GuidesPage').then((m) => ({ default: m.GuidesPage })));
const HealthPage = lazy(() => import('./pages/HealthPage').then((m) => ({ default: m.HealthPage })));
const InstallPage = lazy(() => import('./pages/InstallPage').then((m) => ({ default: m.InstallPage })));
const NotFoundPage = lazy(() => import('./pages/NotFoundPage').then((m) => ({ default: m.NotFoundPage })));
const OverviewPage = lazy(() => import('./pages/OverviewPage').then((m) => ({ default: m.OverviewPage })));
const PagePage = lazy(() => import('./pages/RulePage').then((m) => ({ default: m.PagePage })));
const PathsPage = lazy(() => import('./pages/PathsPage').then((m) => ({ default: m.PathsPage })));
const PagesPage = lazy(() => import('./pages/RulesPage').then((m) => ({ default: m.PagesPage })));
const RetentionPage = lazy(() => import('./pages/RetentionPage').then((m) => ({ default: m.RetentionPage })));
const RecordingPage = lazy(() => import('./pages/RecordingPage').then((m) => ({ default: m.RecordingPage })));
const RecordingsPage = lazy(() => import('./pages/RecordingsPage').then((m) => ({ default: m.RecordingsPage })));
const SettingsPage = lazy(() => import('./pages/SettingsPage').then((m) => ({ default: m.SettingsPage })));
const ThemePage = lazy(() => import('./pages/ThemePage').then((m) => ({ default: m.ThemePage })));
const TranslationsPage = lazy(() => import('./pages/TranslationsPage').then((m) => ({ default: m.TranslationsPage })));
const SegmentsPage = lazy(() => import('./pages/SegmentsPage').then((m) => ({ default: m.SegmentsPage })));
const SegmentPage = lazy(() => import('./pages/SegmentPage').then((m) => ({ default: m.SegmentPage })));
const VisitorPage = lazy(() => import('./pages/VisitorPage').then((m) => ({ default: m.VisitorPage })));
const VisitorsPage = lazy(() => import('./pages/VisitorsPage').then((m) => ({ default: m.VisitorsPage })));
const UsersPage = lazy(() => import('./pages/UsersPage').then((m) => ({ default: m.UsersPage })));
const YourAccountPage = lazy(() => import('./pages/YourAccountPage').then((m) => ({ default: m.YourAccountPage })));

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
    { path: '/invitation/:token', element: <InvitationPage /> },
    {
      path: '/',
      element: <Layout />,
      children: [
        { index: true, element: <AppsPage /> },
        { path: 'users', element: <UsersPage /> },
        { path: 'audit', element: <AuditPage /> },
        { path: 'me', element: <YourAccountPage /> },
        { path: 'apps/:apiKey', element: <OverviewPage /> },
        { path: 'apps/:apiKey/events', element: <EventsPage /> },
        { path: 'apps/:apiKey/visitors', element: <VisitorsPage /> },
        { path: 'apps/:apiKey/visitors/:visitorId', element: <VisitorPage /> },
        { path: 'apps/:apiKey/accounts', element: <AccountsPage /> },
        { path: 'apps/:apiKey/features', element: <FeaturesPage /> },
        { path: 'apps/:apiKey/features/:id', element: <FeaturePage /> },
        { path: 'apps/:apiKey/pages', element: <PagesPage /> },
        { path: 'apps/:apiKey/pages/:id', element: <PagePage /> },
        { path: 'apps/:apiKey/paths', element: <PathsPage /> },
        { path: 'apps/:apiKey/funnels', element: <FunnelsPage /> },
        { path: 'apps/:apiKey/retention', element: <RetentionPage /> },
        { path: 'apps/:apiKey/segments', element: <SegmentsPage /> },
        { path: 'apps/:apiKey/segments/:id', element: <SegmentPage /> },
        { path: 'apps/:apiKey/recordings', element: <RecordingsPage /> },
        { path: 'apps/:apiKey/recordings/:recordingId', element: <RecordingPage /> },
        { path: 'apps/:apiKey/accounts/:accountId', element: <AccountPage /> },
        { path: 'apps/:apiKey/guides', element: <GuidesPage /> },
        { path: 'apps/:apiKey/guides/new', element: <GuideEditorPage /> },
        { path: 'apps/:apiKey/guides/:guideId', element: <GuidePage /> },
        { path: 'apps/:apiKey/guides/:guideId/edit', element: <GuideEditorPage /> },
        { path: 'apps/:apiKey/guides/:guideId/translations', element: <TranslationsPage /> },
        { path: 'apps/:apiKey/settings', element: <SettingsPage /> },
        { path: 'apps/:apiKey/theme', element: <ThemePage /> },
        { path: 'apps/:apiKey/install', element: <InstallPage /> },
        { path: 'apps/:apiKey/health', element: <HealthPage /> },
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
