// Paths of the admin area, shared by the router and the admin features.
export const ADMIN_HOME_PATH = '/administration_and_development';
export const ADMIN_LOGIN_PATH = '/administration_and_development/login';
export const ADMIN_USERS_PATH = '/administration_and_development/users';
export const ADMIN_EMAILS_PATH = '/administration_and_development/emails';
export const ADMIN_SETTINGS_PATH = '/administration_and_development/settings';
export const ADMIN_AUDIT_PATH = '/administration_and_development/audit';
