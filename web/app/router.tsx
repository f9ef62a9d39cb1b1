import { lazy } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { DashboardGuard } from './DashboardGuard.tsx';
import { RootLayout, RouteError } from './RootLayout.tsx';

// Route-level code splitting: every page is its own chunk.
const HomePage = lazy(() => import('../features/home/HomePage.tsx'));
const LoginPage = lazy(() => import('../features/auth/LoginPage.tsx'));
const RegisterPage = lazy(() => import('../features/auth/RegisterPage.tsx'));
const VerifyPage = lazy(() => import('../features/auth/VerifyPage.tsx'));
const ForgotPasswordPage = lazy(() => import('../features/auth/ForgotPasswordPage.tsx'));
const DashboardPage = lazy(() => import('../features/dashboard/DashboardPage.tsx'));
const ContactPage = lazy(() => import('../features/contact/ContactPage.tsx'));
const CreatorProfilePage = lazy(() => import('../features/profiles/CreatorProfilePage.tsx'));
const BrandProfilePage = lazy(() => import('../features/profiles/BrandProfilePage.tsx'));
const NotFoundPage = lazy(() => import('../features/misc/NotFoundPage.tsx'));
const ManageCampaignPage = lazy(() => import('../features/campaigns/ManageCampaignPage.tsx'));
const prefetchDashboardPage = () => void import('../features/dashboard/DashboardPage.tsx');

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'auth/login', element: <LoginPage /> },
      { path: 'auth/register', element: <RegisterPage /> },
      { path: 'auth/verify', element: <VerifyPage /> },
      { path: 'auth/forgot-password', element: <ForgotPasswordPage /> },
      { path: 'contact', element: <ContactPage /> },
      { path: 'creators/:id', element: <CreatorProfilePage /> },
      { path: 'brands/:id', element: <BrandProfilePage /> },
      {
        path: 'dashboard',
        element: <DashboardGuard prefetchIndexPage={prefetchDashboardPage} />,
        children: [
          { index: true, element: <DashboardPage /> },
          { path: 'my-campaigns', element: <Navigate to="/dashboard?view=myCampaigns" replace /> },
          { path: 'campaigns/:id/manage', element: <ManageCampaignPage /> },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
