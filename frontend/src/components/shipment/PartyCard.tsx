import './shipment.css';
import type { ReactNode } from 'react';
import { Mail, MapPin, Phone, User, type LucideIcon } from 'lucide-react';
import type { Party } from '@/gen/logistics/v1/shipment_pb';
import { EMPTY_VALUE } from '@/utils/format';

type PartyCardProps = { title: string; party: Party | undefined; icon: ReactNode };

/** The rows of the card, in order; a missing value shows EMPTY_VALUE. */
function partyRows(party: Party | undefined): Array<{ term: string; Icon: LucideIcon; value: ReactNode }> {
  return [
    { term: 'Name', Icon: User, value: party?.name },
    { term: 'Address', Icon: MapPin, value: party?.address },
    {
      term: 'Phone',
      Icon: Phone,
      value: party?.phone && <a href={`tel:${party.phone.replace(/[^\d+]/g, '')}`}>{party.phone}</a>,
    },
    { term: 'Email', Icon: Mail, value: party?.email && <a href={`mailto:${party.email}`}>{party.email}</a> },
  ];
}

/** The shipper's or the receiver's name, address, phone and e-mail. */
export function PartyCard({ title, party, icon }: PartyCardProps) {
  const headingId = `party-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section className="card party-card" aria-labelledby={headingId}>
      <h2 id={headingId} className="card-title">
        {icon}
        {title}
      </h2>
      <dl className="party-list">
        {partyRows(party).map(({ term, Icon, value }) => (
          <div key={term} className="party-row">
            <dt>
              <Icon aria-hidden="true" size={16} /> {term}
            </dt>
            <dd>{value || EMPTY_VALUE}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
