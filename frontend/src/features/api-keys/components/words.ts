// What differs between the portal's screen and the back office's: the words (the portal's in the
// reader's language, the back office's in English) and the scopes a key may be given.

/** One scope a key may be given: its name as the server knows it and what it allows, in words. */
export type ScopeOption = { name: string; label: string; description: string };

export type ApiKeyWords = {
  title: string;
  intro: string;
  notAllowed: string;
  refresh: string;
  loading: string;
  loadFailed: string;
  empty: string;
  listLabel: string;
  name: string;
  prefix: string;
  scopes: string;
  created: string;
  expires: string;
  status: string;
  lastUsed: string;
  callsToday: string;
  calls14Days: string;
  /** Opens a key's calls per day (UTC), newest first. */
  perDay: string;
  perDayOf: (name: string) => string;
  limit: string;
  actions: string;
  never: string;
  noExpiry: string;
  active: string;
  revoked: string;
  expired: string;
  perMinute: (count: number) => string;
  revoke: string;
  revokeNamed: (name: string) => string;
  revokeTitle: string;
  revokeQuestion: (name: string) => string;
  revokedDone: (name: string) => string;
  revokeFailed: string;
  cancel: string;
  createTitle: string;
  createIntro: string;
  scopesLegend: string;
  expiresOn: string;
  expiresHint: string;
  create: string;
  creating: string;
  createFailed: string;
  secretTitle: string;
  secretFor: (name: string) => string;
  secretWarning: string;
  copy: string;
  copied: string;
  copyFailed: string;
  done: string;
};
