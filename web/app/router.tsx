import { lazy } from 'react';
import { createBrowserRouter } from 'react-router';
import { DashboardGuard } from './DashboardGuard.tsx';
import { RootLayout, RouteError } from './RootLayout.tsx';

// Route-level code splitting: every page is its own chunk.
const HomePage = lazy(() => import('../features/home/HomePage.tsx'));
const LoginPage = lazy(() => import('../features/auth/LoginPage.tsx'));
const RegisterPage = lazy(() => import('../features/auth/RegisterPage.tsx'));
const VerifyPage = lazy(() => import('../features/auth/VerifyPage.tsx'));
const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage.tsx'));
const ContactPage = lazy(() => import('../features/contact/ContactPage.tsx'));
const NotFoundPage = lazy(() => import('../features/misc/NotFoundPage.tsx'));
const PlaceholderPage = lazy(() => import('../features/misc/PlaceholderPage.tsx'));

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'auth/login', element: <LoginPage /> },
      { path: 'auth/register', element: <RegisterPage /> },
      { path: 'auth/verify', element: <VerifyPage /> },
      { path: 'contact', element: <ContactPage /> },
      { path: 'creators/:id', element: <PlaceholderPage page="creatorProfile" /> },
      { path: 'brands/:id', element: <PlaceholderPage page="brandProfile" /> },
      {
        path: 'dashboard',
        element: <DashboardGuard />,
        children: [
          { index: true, element: <DashboardPage /> },
          { path: 'my-campaigns', element: <PlaceholderPage page="myCampaigns" /> },
          { path: 'campaigns/:id/manage', element: <PlaceholderPage page="manageCampaign" /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
