import { Fragment, type ReactNode } from 'react';

/** A value read left to right on any page (a phone, a number, a code, dimensions): its own
 * isolated run, so an Arabic page neither reverses its groups nor moves its signs. */
export function Ltr({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <span dir="ltr" className={className ? `ltr-value ${className}` : 'ltr-value'}>
      {children}
    </span>
  );
}

/** The points an address may wrap at, as people break one: after the "@", before each dot. */
function emailParts(address: string): string[] {
  return address.split(/(?<=@)|(?=\.)/);
}

/** An e-mail address: left to right, isolated, wrapping only after "@" or before a dot (never
 * at a hyphen). */
export function EmailAddress({ address }: { address: string }) {
  return (
    <Ltr className="email-address">
      {emailParts(address).map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {/* A hyphen would be a break point too, and one the reader could take for hyphenation. */}
          {part.includes('-') ? <span className="nowrap">{part}</span> : part}
        </Fragment>
      ))}
    </Ltr>
  );
}
