/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_COMPANY_NAME?: string;
  readonly VITE_COMPANY_SHORT_NAME?: string;
  readonly VITE_COMPANY_TAGLINE?: string;
  readonly VITE_SUPPORT_EMAIL?: string;
  readonly VITE_COMPANY_ADDRESS?: string;
  readonly VITE_COPYRIGHT_YEAR?: string;
  readonly VITE_FOUNDED_YEAR?: string;
  readonly VITE_FIRST_OFFICE?: string;
  readonly VITE_FOOTER_BLURB?: string;
  readonly VITE_SOCIAL_FACEBOOK?: string;
  readonly VITE_SOCIAL_TWITTER?: string;
  readonly VITE_SOCIAL_INSTAGRAM?: string;
  readonly VITE_SOCIAL_LINKEDIN?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}

/** brand.json, read at build time (vite.config.ts). */
declare const __BRAND__: unknown;
/** Where the catalogues are served: `${__MESSAGES_PATH__}/<language>/<page>.json` (vite.config.ts). */
declare const __MESSAGES_PATH__: string;
/** The prerender's date, "YYYY-MM-DD" (vite.config.ts). */
declare const __BUILD_DATE__: string;
