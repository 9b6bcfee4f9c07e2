import { lazy } from 'react';
import { createBrowserRouter, Navigate } from 'react-router-dom';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import { ADMIN_LOGIN_PATH } from '@/config/routes';
import HomePage from './routes/home';

// Every route but Home is loaded on demand; only the track and admin routes load the Connect client.
const AboutPage = lazy(() => import('./routes/about'));
const ServicesPage = lazy(() => import('./routes/services'));
const ContactPage = lazy(() => import('./routes/contact'));
const TrackPage = lazy(() => import('./routes/track'));
// The admin area is its own chunks: public pages never load its code.
const AdminLoginPage = lazy(() => import('./routes/admin-login'));
const AdminLayout = lazy(() => import('./routes/admin-layout'));
const AdminShipmentsPage = lazy(() => import('./routes/admin-shipments'));
const AdminUsersPage = lazy(() => import('./routes/admin-users'));
const AdminEmailsPage = lazy(() => import('./routes/admin-emails'));
const PrivacyPage = lazy(() => import('./routes/privacy'));
const TermsPage = lazy(() => import('./routes/terms'));
const FaqPage = lazy(() => import('./routes/faq'));
const NotFoundPage = lazy(() => import('./routes/not-found'));

export const router = createBrowserRouter([
  {
    element: <RootLayout />,
    errorElement: <RouteError />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { index: true, element: <HomePage /> },
          { path: 'about', element: <AboutPage /> },
          { path: 'services', element: <ServicesPage /> },
          { path: 'contact', element: <ContactPage /> },
          { path: 'track/:trackingNumber?', element: <TrackPage /> },
          { path: 'administration_and_development/login', element: <AdminLoginPage /> },
          {
            // The guard (in the layout) sends visitors without an admin session to the login.
            path: 'administration_and_development',
            element: <AdminLayout />,
            children: [
              { index: true, element: <AdminShipmentsPage /> },
              { path: 'users', element: <AdminUsersPage /> },
              { path: 'emails', element: <AdminEmailsPage /> },
            ],
          },
          { path: 'login', element: <Navigate to={ADMIN_LOGIN_PATH} replace /> },
          { path: 'privacy', element: <PrivacyPage /> },
          { path: 'terms', element: <TermsPage /> },
          { path: 'faq', element: <FaqPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]);
