import { InvitationPage } from '@/features/portal/components/InvitationPage';
import { DataProvider } from '../data-provider';
import '@/styles/admin.css';

/** /invitation#<token> in each language: a customer's invitation, accepted with a password. */
export default function InvitationRoute() {
  return (
    <DataProvider>
      <InvitationPage />
    </DataProvider>
  );
}
