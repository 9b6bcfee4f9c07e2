import { useOutletContext } from 'react-router-dom';
import type { User } from '@/gen/logistics/v1/user_pb';
import { isStaff } from '@/config/permissions';
import { ApiKeysPage } from '@/features/api-keys/components/ApiKeysPage';
import type { ApiKeyWords, ScopeOption } from '@/features/api-keys/components/words';
import { permissionLabel } from '@/features/admin-users/utils/roles';

const WORDS: ApiKeyWords = {
  title: 'API keys',
  intro:
    'Your own keys for your integrations: a key calls the API as you would, within the permissions you give it (Authorization: Bearer <key>).',
  notAllowed: 'Only agents, managers and admins can make API keys.',
  refresh: 'Refresh',
  loading: 'Loading API keys…',
  loadFailed: 'Failed to load API keys',
  empty: 'No API keys yet.',
  listLabel: 'Your API keys',
  name: 'Name',
  prefix: 'Key',
  scopes: 'Permissions',
  created: 'Created',
  expires: 'Expires',
  status: 'Status',
  lastUsed: 'Last used',
  callsToday: 'Calls today',
  calls14Days: 'Calls, last 14 days',
  perDay: 'Per day',
  perDayOf: (name) => `Calls per day with ${name}`,
  limit: 'Limit',
  actions: 'Actions',
  never: 'Never',
  noExpiry: 'Never',
  active: 'Active',
  revoked: 'Revoked',
  expired: 'Expired',
  perMinute: (count) => `${count.toLocaleString('en-US')} calls a minute`,
  revoke: 'Revoke',
  revokeNamed: (name) => `Revoke ${name}`,
  revokeTitle: 'Revoke this API key?',
  revokeQuestion: (name) => `${name} stops working within seconds, for good.`,
  revokedDone: (name) => `${name} revoked`,
  revokeFailed: 'Failed to revoke the API key',
  cancel: 'Cancel',
  createTitle: 'Create API key',
  createIntro: 'Give it a name that says where it is used, and only the permissions that system needs.',
  scopesLegend: 'Permissions',
  expiresOn: 'Expires on (optional)',
  expiresHint: 'At the end of that day (UTC); at most a year from now. Empty: it never expires.',
  create: 'Create API key',
  creating: 'Creating…',
  createFailed: 'Failed to create the API key',
  secretTitle: 'Your new API key',
  secretFor: (name) => `For ${name}.`,
  secretWarning: 'Copy this key now. You will not see it again.',
  copy: 'Copy',
  copied: 'API key copied',
  copyFailed: 'Copy failed; select the key and copy it by hand',
  done: 'Done',
};

/** /administration_and_development/api-keys: staff's own keys, within their own permissions. */
export default function AdminApiKeysPage() {
  const user = useOutletContext<User>();
  const scopes: ScopeOption[] = user.permissions.map((name) => ({ name, label: name, description: permissionLabel(name) }));
  return <ApiKeysPage allowed={isStaff(user)} scopes={scopes} words={WORDS} />;
}
