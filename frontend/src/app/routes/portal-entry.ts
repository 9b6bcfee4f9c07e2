// The customers' side in one chunk: its sign-in, its pages and the invitation page.
export { default as PortalLoginPage } from './portal-login';
export { default as PortalLayout } from './portal-layout';
export { default as InvitationRoute } from './invitation';
