import type { ReactNode } from 'react';
import { Mail, MapPin, Phone, User } from 'lucide-react';
import type { Party } from '@/gen/logistics/v1/shipment_pb';
import { EMPTY_VALUE } from '@/utils/format';

type PartyCardProps = { title: string; party: Party | undefined; icon: ReactNode };

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
        <div className="party-row">
          <dt>
            <User aria-hidden="true" size={16} /> Name
          </dt>
          <dd>{party?.name || EMPTY_VALUE}</dd>
        </div>
        <div className="party-row">
          <dt>
            <MapPin aria-hidden="true" size={16} /> Address
          </dt>
          <dd>{party?.address || EMPTY_VALUE}</dd>
        </div>
        <div className="party-row">
          <dt>
            <Phone aria-hidden="true" size={16} /> Phone
          </dt>
          <dd>{party?.phone ? <a href={`tel:${party.phone.replace(/[^\d+]/g, '')}`}>{party.phone}</a> : EMPTY_VALUE}</dd>
        </div>
        <div className="party-row">
          <dt>
            <Mail aria-hidden="true" size={16} /> Email
          </dt>
          <dd>{party?.email ? <a href={`mailto:${party.email}`}>{party.email}</a> : EMPTY_VALUE}</dd>
        </div>
      </dl>
    </section>
  );
}
