import { Role } from '@/gen/logistics/v1/user_pb';
import { useSession } from '@/features/admin-session/hooks/use-session';
import { ApiKeysPage } from '@/features/api-keys/components/ApiKeysPage';
import type { ApiKeyWords, ScopeOption } from '@/features/api-keys/components/words';
import { useMessages, type Translate } from '@/lib/i18n';
import { formatDecimal } from '@/utils/format';

/** The scopes a customer admin may give a key (CustomerScope in access.proto), in words. */
function customerScopes(t: Translate): ScopeOption[] {
  return [
    { name: 'shipments.read', label: t('portal.api_keys.scope_shipments_read'), description: t('portal.api_keys.scope_shipments_read_what') },
    { name: 'shipments.book', label: t('portal.api_keys.scope_shipments_book'), description: t('portal.api_keys.scope_shipments_book_what') },
    { name: 'pickups.request', label: t('portal.api_keys.scope_pickups_request'), description: t('portal.api_keys.scope_pickups_request_what') },
    { name: 'addresses.manage', label: t('portal.api_keys.scope_addresses_manage'), description: t('portal.api_keys.scope_addresses_manage_what') },
    { name: 'webhooks.manage', label: t('portal.api_keys.scope_webhooks_manage'), description: t('portal.api_keys.scope_webhooks_manage_what') },
  ];
}

function portalWords(t: Translate): ApiKeyWords {
  return {
    title: t('portal.api_keys.title'),
    intro: t('portal.api_keys.intro'),
    notAllowed: t('portal.api_keys.not_allowed'),
    refresh: t('portal.api_keys.refresh'),
    loading: t('portal.api_keys.loading'),
    loadFailed: t('portal.api_keys.load_failed'),
    empty: t('portal.api_keys.empty'),
    listLabel: t('portal.api_keys.list_label'),
    name: t('portal.api_keys.name'),
    prefix: t('portal.api_keys.prefix'),
    scopes: t('portal.api_keys.scopes'),
    created: t('portal.api_keys.created'),
    expires: t('portal.api_keys.expires'),
    status: t('portal.api_keys.status'),
    lastUsed: t('portal.api_keys.last_used'),
    callsToday: t('portal.api_keys.calls_today'),
    calls14Days: t('portal.api_keys.calls_14_days'),
    perDay: t('portal.api_keys.per_day'),
    perDayOf: (name) => t('portal.api_keys.per_day_of', { name }),
    limit: t('portal.api_keys.limit'),
    actions: t('portal.api_keys.actions'),
    never: t('portal.api_keys.never'),
    noExpiry: t('portal.api_keys.no_expiry'),
    active: t('portal.api_keys.active'),
    revoked: t('portal.api_keys.revoked'),
    expired: t('portal.api_keys.expired'),
    perMinute: (count) => t('portal.api_keys.per_minute', { count: formatDecimal(count, 0) }),
    revoke: t('portal.api_keys.revoke'),
    revokeNamed: (name) => t('portal.api_keys.revoke_named', { name }),
    revokeTitle: t('portal.api_keys.revoke_title'),
    revokeQuestion: (name) => t('portal.api_keys.revoke_question', { name }),
    revokedDone: (name) => t('portal.api_keys.revoked_done', { name }),
    revokeFailed: t('portal.api_keys.revoke_failed'),
    cancel: t('portal.api_keys.cancel'),
    createTitle: t('portal.api_keys.create_title'),
    createIntro: t('portal.api_keys.create_intro'),
    scopesLegend: t('portal.api_keys.scopes_legend'),
    expiresOn: t('portal.api_keys.expires_on'),
    expiresHint: t('portal.api_keys.expires_hint'),
    create: t('portal.api_keys.create'),
    creating: t('portal.api_keys.creating'),
    createFailed: t('portal.api_keys.create_failed'),
    secretTitle: t('portal.api_keys.secret_title'),
    secretFor: (name) => t('portal.api_keys.secret_for', { name }),
    secretWarning: t('portal.api_keys.secret_warning'),
    copy: t('portal.api_keys.copy'),
    copied: t('portal.api_keys.copied'),
    copyFailed: t('portal.api_keys.copy_failed'),
    done: t('portal.api_keys.done'),
  };
}

/** /portal/api-keys: customer admins manage the customer's keys; others are told they cannot. */
export default function PortalApiKeysPage() {
  const t = useMessages('portal');
  const session = useSession();
  // The layout's guard shows pages to a signed-in customer's user only.
  if (session.status !== 'signed-in') return null;
  return <ApiKeysPage allowed={session.user.role === Role.CUSTOMER_ADMIN} scopes={customerScopes(t)} words={portalWords(t)} />;
}
