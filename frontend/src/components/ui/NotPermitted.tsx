import { ShieldAlert } from 'lucide-react';

/** What an admin page shows a signed-in user whose permissions do not include it. */
export function NotPermitted() {
  return (
    <section className="not-admin" aria-labelledby="not-permitted-heading">
      <ShieldAlert className="not-admin-icon" aria-hidden="true" size={48} />
      <h1 id="not-permitted-heading">Not available to your account</h1>
      <p>You do not have permission to view this page. Ask an administrator if you need it.</p>
    </section>
  );
}
