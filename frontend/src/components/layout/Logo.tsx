import { company } from '@/config/company';

/** The brand mark and name: the configured logo file, or the built-in inline SVG mark. */
export function Logo() {
  const { src, width, height } = company.logo;
  return (
    <span className="logo">
      {src ? (
        // Explicit size so the header never shifts while the file loads.
        <img className="logo-mark" src={src} width={width} height={height} alt="" />
      ) : (
        <svg className="logo-mark" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
          <rect width="64" height="64" rx="14" fill="var(--color-primary)" />
          <path d="M14 24 32 14l18 10v18L32 52 14 42z" fill="none" stroke="#fff" strokeWidth="4" strokeLinejoin="round" />
          <path d="M14 24l18 10 18-10M32 34v18" fill="none" stroke="#fff" strokeWidth="4" strokeLinejoin="round" />
          <circle cx="50" cy="48" r="8" fill="var(--color-accent)" />
        </svg>
      )}
      <span className="logo-text">{company.name}</span>
    </span>
  );
}
